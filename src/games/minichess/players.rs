//! Players of graded strength, all behind [`Player`], to measure a submission's move chooser
//! by playing against it.

use super::alphabeta::AlphaBetaPlayer;
use super::board::{Board, Color};
use super::eval::advancement;
pub use super::player::Player;
use super::rules::Move;
use super::solver::{Solver, Value};
use crate::rng::Rng;

/// Uniformly random legal moves, reproducible from the seed.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    seed: u64,
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            seed,
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        format!("random (seed {})", self.seed)
    }

    fn choose(&mut self, board: &Board, color: Color) -> Option<Move> {
        self.rng.pick(&board.moves(color)).copied()
    }
}

/// One-ply tactics. Moves rank, best first: winning at once; a capture that does not let the
/// opponent win on the next move; another such safe move; an unsafe capture; anything else.
/// Ties go to the move that lands furthest forward, then to the first in [`Board::moves`]
/// order, so the player is deterministic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GreedyPlayer;

impl GreedyPlayer {
    fn rank(board: &Board, mv: &Move) -> u8 {
        let color = mv.color();
        let after = board.play(mv);
        if after.winner_after_move(color) == Some(color) {
            return 4;
        }
        let safe = !has_winning_move(&after, color.opponent());
        match (safe, mv.is_capture()) {
            (true, true) => 3,
            (true, false) => 2,
            (false, true) => 1,
            (false, false) => 0,
        }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, board: &Board, color: Color) -> Option<Move> {
        let moves = board.moves(color);
        let score = |index: usize, mv: &Move| {
            let landed = advancement(board.size(), color, mv.to().0);
            (Self::rank(board, mv), landed, std::cmp::Reverse(index))
        };
        moves
            .iter()
            .enumerate()
            .max_by_key(|&(index, mv)| score(index, mv))
            .map(|(_, mv)| *mv)
    }
}

/// True when `color`, to move on `board`, can win with its next move.
fn has_winning_move(board: &Board, color: Color) -> bool {
    board
        .moves(color)
        .iter()
        .any(|mv| board.play(mv).winner_after_move(color) == Some(color))
}

/// Plays perfectly wherever the solver settles the position within its budget: in a won
/// position it always plays a winning move, so it never loses a game it can win. In a lost
/// position (every move loses against perfect play) or one too large to solve it plays as
/// its alpha-beta fallback, which gives an imperfect opponent the most chances to go wrong.
#[derive(Debug)]
pub struct PerfectPlayer {
    solver: Solver,
    fallback: AlphaBetaPlayer,
}

impl PerfectPlayer {
    /// Positions one move may search before falling back to alpha-beta: enough to solve
    /// boards up to 6 x 6 from the start (about a second and 200 MiB in an optimised build;
    /// 5 x 5 takes milliseconds).
    pub const DEFAULT_BUDGET: u64 = 20_000_000;
    /// Depth of the alpha-beta fallback.
    pub const FALLBACK_DEPTH: u32 = 6;

    pub fn new() -> PerfectPlayer {
        PerfectPlayer::with_budget(Self::DEFAULT_BUDGET)
    }

    /// A perfect player whose solver may visit at most `budget` positions per move.
    pub fn with_budget(budget: u64) -> PerfectPlayer {
        PerfectPlayer {
            solver: Solver::with_budget(budget),
            fallback: AlphaBetaPlayer::new(Self::FALLBACK_DEPTH),
        }
    }
}

impl Default for PerfectPlayer {
    fn default() -> Self {
        PerfectPlayer::new()
    }
}

impl Player for PerfectPlayer {
    fn name(&self) -> String {
        "perfect".to_string()
    }

    fn choose(&mut self, board: &Board, color: Color) -> Option<Move> {
        match self.solver.solve(board, color) {
            Ok(solution) if solution.value == Value::Win && solution.best.is_some() => {
                solution.best
            }
            Ok(_) => self.fallback.choose(board, color),
            Err(_) => {
                // Keep memory bounded by one budget's worth of table on boards too large
                // to solve: a later, smaller position starts afresh.
                self.solver.clear();
                self.fallback.choose(board, color)
            }
        }
    }
}
