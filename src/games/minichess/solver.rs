//! Perfect play: the game-theoretic value of a position and a move that achieves it.
//!
//! Pawns only move forward, so no position repeats, every game ends, and there are no draws:
//! a position is a win or a loss for the side to move. The search is negamax over that
//! two-valued result, where an alpha-beta cutoff is simply stopping at the first move that
//! leaves the opponent lost.
//!
//! Inside the search every position is seen from the side to move, as if it were White moving
//! down the board: after each move the board is flipped top to bottom and the colors swapped.
//! The side to move therefore needs no place in the table key, and a position and its
//! color-swapped twin share one entry. Left-right mirror images share one entry too (the key
//! is the smaller of the two). Moves are ordered captures first, then the most advanced pawn
//! first, and winning by reaching the far row or taking the last pawn is spotted before any
//! recursion.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use thiserror::Error;

use super::bits::{self, Direction};
use super::board::{Board, Color};
use super::rules::Move;

/// Game-theoretic value for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Loss,
}

/// The value of a position and, when the game is not over, a move to play: the first
/// winning move in [`Board::moves`] order when the position is won, the first legal move when
/// it is lost (every move loses against perfect play).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    pub value: Value,
    pub best: Option<Move>,
}

/// Work counters, cumulative since the solver was created or last cleared (it clears itself
/// when given a board of another size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SolverStats {
    /// Positions visited by the search (including ones answered by the table).
    pub positions: u64,
    /// Positions stored in the transposition table.
    pub table_entries: usize,
    /// Approximate heap memory of the transposition table, in bytes.
    pub table_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    #[error("gave up after searching {budget} positions without settling the position")]
    BudgetExhausted { budget: u64 },
}

/// Transposition-table key: both sides' pawns as seen by the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Key {
    mine: u64,
    theirs: u64,
}

/// Hasher for [`Key`]: bitboards cluster in their low bits, so the words are combined and
/// then mixed with the SplitMix64 finalizer to spread them over the whole hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

type Table = HashMap<Key, bool, BuildHasherDefault<KeyHasher>>;

/// A perfect solver with a transposition table kept between calls, so solving successive
/// positions of one game is cheap after the first.
#[derive(Debug, Default)]
pub struct Solver {
    /// Board size the table belongs to; the table is cleared when it changes.
    size: usize,
    table: Table,
    positions: u64,
    /// Positions one call to [`Solver::solve`] may visit; `None` is unlimited.
    budget: Option<u64>,
    /// Value of `positions` at which the current call gives up.
    limit: u64,
}

impl Solver {
    /// A solver without a work limit.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// A solver that gives up (with [`SolveError::BudgetExhausted`]) when one call would visit
    /// more than `budget` positions, so large boards cannot hang a caller. Work done before
    /// giving up stays in the table.
    pub fn with_budget(budget: u64) -> Solver {
        Solver {
            budget: Some(budget),
            ..Solver::default()
        }
    }

    pub fn stats(&self) -> SolverStats {
        let entry = std::mem::size_of::<(Key, bool)>() + 1; // plus one control byte
        SolverStats {
            positions: self.positions,
            table_entries: self.table.len(),
            table_bytes: self.table.capacity() * entry,
        }
    }

    /// Empties the transposition table and resets the counters.
    pub fn clear(&mut self) {
        self.table = Table::default();
        self.positions = 0;
    }

    /// Solves `board` with `to_move` to play.
    pub fn solve(&mut self, board: &Board, to_move: Color) -> Result<Solution, SolveError> {
        if board.size() != self.size {
            self.clear();
            self.size = board.size();
        }
        if let Some(win) = board.outcome(to_move) {
            return Ok(Solution {
                value: value_for(win.winner, to_move),
                best: None,
            });
        }
        self.limit = self
            .budget
            .map_or(u64::MAX, |b| self.positions.saturating_add(b));
        let moves = board.moves(to_move);
        for mv in &moves {
            let child = board.play(mv);
            let won = match child.outcome(to_move.opponent()) {
                Some(win) => win.winner == to_move,
                None => {
                    let (mine, theirs) = perspective(&child, to_move.opponent());
                    !self.wins(mine, theirs)?
                }
            };
            if won {
                return Ok(Solution {
                    value: Value::Win,
                    best: Some(*mv),
                });
            }
        }
        Ok(Solution {
            value: Value::Loss,
            best: moves.first().copied(),
        })
    }

    /// True when the side to move (`mine`, moving toward higher rows) wins. The caller
    /// guarantees the previous move did not end the game by reaching the far row.
    fn wins(&mut self, mine: u64, theirs: u64) -> Result<bool, SolveError> {
        self.positions += 1;
        if self.positions > self.limit {
            return Err(SolveError::BudgetExhausted {
                budget: self.budget.unwrap_or(u64::MAX),
            });
        }
        let size = self.size;
        let targets = bits::targets(size, mine, theirs, Color::White);
        let [down, straight, up] = targets;
        let reachable = down | straight | up;
        if reachable == 0 {
            return Ok(false);
        }
        let takes_last_pawn = theirs.count_ones() == 1 && (down | up) != 0;
        if reachable & bits::row_mask(size, size - 1) != 0 || takes_last_pawn {
            return Ok(true);
        }
        let key = self.key(mine, theirs);
        if let Some(&won) = self.table.get(&key) {
            return Ok(won);
        }
        let won = self.some_move_wins(mine, theirs, targets)?;
        self.table.insert(key, won);
        Ok(won)
    }

    fn some_move_wins(
        &mut self,
        mine: u64,
        theirs: u64,
        [down, straight, up]: [u64; 3],
    ) -> Result<bool, SolveError> {
        let ordered = [
            (Direction::ColumnDown, down),
            (Direction::ColumnUp, up),
            (Direction::Straight, straight),
        ];
        for (direction, mut to_set) in ordered {
            while to_set != 0 {
                // Highest square first: the most advanced pawn for a side moving down.
                let to = 63 - to_set.leading_zeros() as u8;
                to_set &= !bits::bit(to);
                let from = bits::source(to, direction, Color::White);
                let after_mine = mine ^ bits::bit(from) ^ bits::bit(to);
                let after_theirs = theirs & !bits::bit(to);
                let size = self.size;
                let opponent_wins = self.wins(
                    bits::flip_rows(after_theirs, size),
                    bits::flip_rows(after_mine, size),
                )?;
                if !opponent_wins {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The key of a position or of its mirror image, whichever is smaller.
    fn key(&self, mine: u64, theirs: u64) -> Key {
        let key = Key { mine, theirs };
        let mirrored = Key {
            mine: bits::mirror_columns(mine, self.size),
            theirs: bits::mirror_columns(theirs, self.size),
        };
        key.min(mirrored)
    }
}

fn value_for(winner: Color, to_move: Color) -> Value {
    if winner == to_move {
        Value::Win
    } else {
        Value::Loss
    }
}

/// The board as the search sees it: the side to move's pawns first, moving toward higher rows.
fn perspective(board: &Board, to_move: Color) -> (u64, u64) {
    let (mine, theirs) = (board.bits(to_move), board.bits(to_move.opponent()));
    match to_move {
        Color::White => (mine, theirs),
        Color::Black => (
            bits::flip_rows(mine, board.size()),
            bits::flip_rows(theirs, board.size()),
        ),
    }
}
