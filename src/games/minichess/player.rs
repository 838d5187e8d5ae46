//! What every player of miniChess is: something that picks moves. Apart from the players
//! themselves (`players.rs`, `alphabeta.rs`), which build on one another.

use super::board::{Board, Color};
use super::rules::Move;

/// Something that picks moves.
pub trait Player {
    /// A short description for reports, e.g. `random (seed 7)`.
    fn name(&self) -> String;

    /// The move `color` plays on `board`, or `None` when it has no legal move.
    fn choose(&mut self, board: &Board, color: Color) -> Option<Move>;
}
