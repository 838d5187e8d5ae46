//! Playing whole games between two [`Player`]s.

use super::board::{Board, Color};
use super::players::Player;
use super::rules::{Move, WinReason};

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndReason {
    /// One of the handout's win conditions.
    Rule(WinReason),
    /// The loser offered no move although it had one, or an illegal one (shown, if any).
    Forfeit { offered: Option<Move> },
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Board,
    /// The moves played, White's first.
    pub moves: Vec<Move>,
    pub final_board: Board,
    pub winner: Color,
    pub reason: EndReason,
}

/// Plays a game from `start`, White first, until it ends. Games always end: every move
/// advances a pawn, so there are at most `2 * size * (size - 1)` moves.
pub fn play_game(start: Board, white: &mut dyn Player, black: &mut dyn Player) -> GameRecord {
    let mut board = start;
    let mut moves = Vec::new();
    let mut side = Color::White;
    let (winner, reason) = loop {
        if let Some(win) = board.outcome(side) {
            break (win.winner, EndReason::Rule(win.reason));
        }
        let player: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let offered = player.choose(&board, side);
        let next = offered
            .filter(|mv| mv.color() == side)
            .and_then(|mv| board.apply(&mv).ok());
        match (offered, next) {
            (Some(mv), Some(next)) => {
                moves.push(mv);
                board = next;
            }
            _ => break (side.opponent(), EndReason::Forfeit { offered }),
        }
        side = side.opponent();
    };
    GameRecord {
        start,
        moves,
        final_board: board,
        winner,
        reason,
    }
}
