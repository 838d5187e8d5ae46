//! Moves and the end of the game.
//!
//! Move order is part of the API: moves are listed by source square in row-major order (row 0
//! first, then by column), and for one pawn by destination column ascending (diagonal toward
//! column - 1, straight ahead, diagonal toward column + 1). For the handout's example this is
//! exactly the order it prints.

use std::fmt;

use thiserror::Error;

use super::bits::{self, Direction, DIRECTIONS};
use super::board::{Board, Color};

/// One pawn move. Obtain moves from [`Board::moves`]; [`Board::apply`] checks legality again,
/// so a move taken from another position cannot corrupt a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    color: Color,
    from: u8,
    to: u8,
    capture: bool,
}

impl Move {
    pub fn color(&self) -> Color {
        self.color
    }

    /// Source square `(row, col)`.
    pub fn from(&self) -> (usize, usize) {
        bits::row_col(self.from)
    }

    /// Destination square `(row, col)`.
    pub fn to(&self) -> (usize, usize) {
        bits::row_col(self.to)
    }

    /// True when the move removes an opponent's pawn.
    pub fn is_capture(&self) -> bool {
        self.capture
    }
}

impl fmt::Display for Move {
    /// `(0,1)-(1,1)` for a step, `(0,1)x(1,2)` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((fr, fc), (tr, tc)) = (self.from(), self.to());
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "({fr},{fc}){sep}({tr},{tc})")
    }
}

/// A move that is not legal on the board it was applied to.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{color} move {mv} is not legal on this board")]
pub struct MoveError {
    pub color: Color,
    pub mv: String,
}

/// Which of the handout's three win conditions ended the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// A pawn of the winner stands on the far row.
    ReachedFarRow,
    /// The loser has no pawns left.
    NoPawnsLeft,
    /// The loser is to move and has no legal move.
    NoMoveLeft,
}

/// The end of a game: who won and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Win {
    pub winner: Color,
    pub reason: WinReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Won(Color),
}

impl Board {
    /// Every legal move of `color`, in the documented order. Pure move generation: it does
    /// not look at whether the game is already over (see [`Board::outcome`]).
    pub fn moves(&self, color: Color) -> Vec<Move> {
        let size = self.size();
        let movers = self.bits(color);
        let targets = bits::targets(size, movers, self.bits(color.opponent()), color);
        let mut moves: Vec<Move> = DIRECTIONS
            .iter()
            .zip(targets)
            .flat_map(|(&direction, to_set)| {
                bits::squares(to_set).map(move |to| Move {
                    color,
                    from: bits::source(to, direction, color),
                    to,
                    capture: direction != Direction::Straight,
                })
            })
            .collect();
        // Directions were generated in column order, so sorting by source (stable) keeps the
        // destination columns ascending for each pawn.
        moves.sort_by_key(|mv| mv.from);
        moves
    }

    /// The boards one move of `color` away, in the order of [`Board::moves`].
    pub fn successors(&self, color: Color) -> Vec<Board> {
        self.moves(color).iter().map(|mv| self.play(mv)).collect()
    }

    /// The board after a move, if the move is legal here.
    pub fn apply(&self, mv: &Move) -> Result<Board, MoveError> {
        if self.is_legal(mv) {
            Ok(self.play(mv))
        } else {
            Err(MoveError {
                color: mv.color,
                mv: mv.to_string(),
            })
        }
    }

    /// The legal move of `color` that turns this board into `target`, if there is one. This
    /// is how a board returned by a player is checked and turned back into a move.
    pub fn move_to(&self, color: Color, target: &Board) -> Option<Move> {
        self.moves(color)
            .into_iter()
            .find(|mv| self.play(mv) == *target)
    }

    /// True when a pawn of `color` stands on the row it wins by reaching.
    pub fn has_reached_far_row(&self, color: Color) -> bool {
        let far = bits::row_mask(self.size(), bits::far_row(self.size(), color));
        self.bits(color) & far != 0
    }

    /// The result of the game with `side_to_move` to play, or `None` while it goes on.
    ///
    /// In a game played from the start only the player who just moved can have won, but a
    /// board given by hand may satisfy several conditions at once; the checks then run in a
    /// fixed order: far row, then no pawns, each first for the player who just moved; last,
    /// no move for the side to move.
    pub fn outcome(&self, side_to_move: Color) -> Option<Win> {
        let last_mover = side_to_move.opponent();
        let order = [last_mover, side_to_move];
        let win = |winner, reason| Some(Win { winner, reason });
        if let Some(&winner) = order.iter().find(|&&c| self.has_reached_far_row(c)) {
            return win(winner, WinReason::ReachedFarRow);
        }
        if let Some(&winner) = order.iter().find(|&&c| self.pawn_count(c.opponent()) == 0) {
            return win(winner, WinReason::NoPawnsLeft);
        }
        if !self.has_move(side_to_move) {
            return win(last_mover, WinReason::NoMoveLeft);
        }
        None
    }

    /// [`Board::outcome`] without the reason.
    pub fn status(&self, side_to_move: Color) -> Status {
        match self.outcome(side_to_move) {
            Some(win) => Status::Won(win.winner),
            None => Status::Ongoing,
        }
    }

    /// The winner, if any, once `mover` has just moved (the opponent is to play).
    pub fn winner_after_move(&self, mover: Color) -> Option<Color> {
        self.outcome(mover.opponent()).map(|win| win.winner)
    }

    /// True when `color` has at least one legal move.
    pub fn has_move(&self, color: Color) -> bool {
        let targets = bits::targets(
            self.size(),
            self.bits(color),
            self.bits(color.opponent()),
            color,
        );
        targets.iter().any(|&t| t != 0)
    }

    /// Plays a move known to be legal on this board (it came from [`Board::moves`]).
    pub(crate) fn play(&self, mv: &Move) -> Board {
        let moved = bits::bit(mv.from) | bits::bit(mv.to);
        let (mut movers, mut others) = (self.bits(mv.color), self.bits(mv.color.opponent()));
        movers ^= moved;
        others &= !bits::bit(mv.to);
        match mv.color {
            Color::White => Board::from_bits(self.size(), movers, others),
            Color::Black => Board::from_bits(self.size(), others, movers),
        }
    }

    fn is_legal(&self, mv: &Move) -> bool {
        let targets = bits::targets(
            self.size(),
            self.bits(mv.color),
            self.bits(mv.color.opponent()),
            mv.color,
        );
        DIRECTIONS.iter().zip(targets).any(|(&direction, to_set)| {
            to_set & bits::bit(mv.to) != 0
                && bits::source(mv.to, direction, mv.color) == mv.from
                && mv.capture == (direction != Direction::Straight)
        })
    }
}
