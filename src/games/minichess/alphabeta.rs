//! Depth-limited negamax with alpha-beta pruning over the static evaluation.

use super::board::{Board, Color};
use super::eval::evaluate;
use super::player::Player;
use super::rules::Move;

/// Score of a won position; wins found sooner score higher.
const WIN: i32 = 1_000_000;

/// Looks `depth` plies ahead (at least one) and plays the move with the best evaluation,
/// the first in [`Board::moves`] order on ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaBetaPlayer {
    depth: u32,
}

impl AlphaBetaPlayer {
    pub fn new(depth: u32) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            depth: depth.max(1),
        }
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }
}

impl Player for AlphaBetaPlayer {
    fn name(&self) -> String {
        format!("alpha-beta (depth {})", self.depth)
    }

    fn choose(&mut self, board: &Board, color: Color) -> Option<Move> {
        best_move(board, color, self.depth).map(|(mv, _)| mv)
    }
}

/// The best move of `color` at `depth` plies, with its score, or `None` without a move.
pub fn best_move(board: &Board, color: Color, depth: u32) -> Option<(Move, i32)> {
    let mut best: Option<(Move, i32)> = None;
    // The first move is searched with a full window, later ones only need to beat it.
    let mut alpha = -WIN - 1;
    for mv in board.moves(color) {
        let child = board.play(&mv);
        let remaining = depth.saturating_sub(1);
        let score = -negamax(&child, color.opponent(), remaining, -WIN - 1, -alpha, 1);
        if best.is_none() || score > alpha {
            best = Some((mv, score));
            alpha = score;
        }
    }
    best
}

fn negamax(board: &Board, to_move: Color, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(win) = board.outcome(to_move) {
        let score = WIN - ply;
        return if win.winner == to_move { score } else { -score };
    }
    if depth == 0 {
        return evaluate(board, to_move);
    }
    let mut best = -WIN - 1;
    for mv in board.moves(to_move) {
        let child = board.play(&mv);
        let score = -negamax(
            &child,
            to_move.opponent(),
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
        );
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}
