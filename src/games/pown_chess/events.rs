//! The rule events of pown chess that coverage counts: moves of each player, captures, each
//! reason a typed move is refused, and each way the game ends (the stuck player with fewer
//! powns, with more, a tie, a player with no powns left).

use super::board::{Board, InvalidMove, MoveOutcome};
use super::square::Color;

crate::rule_events! {
    /// Every rule event of the pown chess reference.
    pub enum Event {
        WhiteMove => ("moves", "white moves a pown"),
        BlackMove => ("moves", "black moves a pown"),
        Capture => ("captures", "a pown captured (powned)"),
        NoSuchSquare => ("input", "refused: no such square"),
        EmptySquare => ("input", "refused: an empty square"),
        WrongColor => ("input", "refused: the other player's pown"),
        LastRow => ("input", "refused: a pown on its last row"),
        StuckLoses => ("game end", "the stuck player has fewer powns and loses"),
        StuckWins => ("game end", "the stuck player has more powns and wins"),
        Tie => ("game end", "a tie on equal counts"),
        NoPownsLeft => ("game end", "a player has no powns left"),
    }
}

/// What a typed move did, or why it was refused. A pown blocked by its own colour counts
/// nothing: powns never leave their column, so a game from the start never has one.
pub fn of_move(result: &Result<MoveOutcome, InvalidMove>) -> Vec<Event> {
    match result {
        Ok(made) => {
            let mover = match made.color {
                Color::White => Event::WhiteMove,
                Color::Black => Event::BlackMove,
            };
            match made.captured {
                true => vec![mover, Event::Capture],
                false => vec![mover],
            }
        }
        Err(why) => match why {
            InvalidMove::NoSuchSquare => vec![Event::NoSuchSquare],
            InvalidMove::EmptySquare(_) => vec![Event::EmptySquare],
            InvalidMove::WrongColor(_) => vec![Event::WrongColor],
            InvalidMove::LastRow(_) => vec![Event::LastRow],
            InvalidMove::BlockedByOwnPiece(..) => Vec::new(),
        },
    }
}

/// How the game ended with `stuck` to move and no pown of theirs able to move.
pub fn of_end(board: &Board, stuck: Color) -> Vec<Event> {
    let (mine, theirs) = (
        board.count_pieces(stuck),
        board.count_pieces(stuck.opponent()),
    );
    let result = match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => Event::StuckLoses,
        std::cmp::Ordering::Greater => Event::StuckWins,
        std::cmp::Ordering::Equal => Event::Tie,
    };
    match mine.min(theirs) {
        0 => vec![result, Event::NoPownsLeft],
        _ => vec![result],
    }
}
