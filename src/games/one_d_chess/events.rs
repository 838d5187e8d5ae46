//! The rule events of 1D chess that coverage counts: what a move did (a knight's jump, its
//! stay at the edge, a king's slide, a capture of an own piece or a king), which cells
//! `is_valid_move` was asked about, and how games ended. Both dialects count them alike.

use super::engine::{Board, Direction, Kind, Move, MoveError, Side};

crate::rule_events! {
    /// Every rule event of the 1D chess reference.
    pub enum Event {
        KnightJump => ("knight", "knight jump onto an empty cell"),
        KnightCapture => ("knight", "knight captures an enemy piece"),
        KnightCapturesOwn => ("knight", "knight captures an own piece"),
        KnightCapturesKing => ("knight", "knight captures a king"),
        KnightStays => ("knight", "knight stays put at the edge"),
        KingSlide => ("king", "king slides to the edge"),
        KingCapture => ("king", "king captures an enemy piece"),
        KingCapturesOwn => ("king", "king captures an own piece"),
        KingCapturesKing => ("king", "king captures a king"),
        KingStays => ("king", "king stays put at its edge"),
        Left => ("move", "move to the left"),
        Right => ("move", "move to the right"),
        ValidOwn => ("valid move", "valid: the player's piece"),
        InvalidTheirs => ("valid move", "invalid: the other side's piece"),
        InvalidEmpty => ("valid move", "invalid: an empty cell"),
        InvalidOffBoard => ("valid move", "invalid: off the board"),
        GoesOn => ("game over", "game goes on with both kings"),
        WhiteWins => ("game over", "white wins"),
        BlackWins => ("game over", "black wins"),
    }
}

/// What a move in `direction` did. A move the handouts never make (from an empty cell or
/// off the board) is no rule of theirs: it counts nothing.
pub fn of_move(result: &Result<Move, MoveError>, direction: Direction) -> Vec<Event> {
    let Ok(made) = result else {
        return Vec::new();
    };
    let knight = made.piece.kind == Kind::Knight;
    let what = match made.captured {
        _ if made.from == made.to && knight => Event::KnightStays,
        _ if made.from == made.to => Event::KingStays,
        None if knight => Event::KnightJump,
        None => Event::KingSlide,
        Some(taken) if taken.kind == Kind::King && knight => Event::KnightCapturesKing,
        Some(taken) if taken.kind == Kind::King => Event::KingCapturesKing,
        Some(taken) if taken.side == made.piece.side && knight => Event::KnightCapturesOwn,
        Some(taken) if taken.side == made.piece.side => Event::KingCapturesOwn,
        Some(_) if knight => Event::KnightCapture,
        Some(_) => Event::KingCapture,
    };
    let way = match direction {
        Direction::Left => Event::Left,
        Direction::Right => Event::Right,
    };
    vec![what, way]
}

/// What `is_valid_move` was asked about.
pub fn of_validity(board: &Board, position: i64, side: Side) -> Event {
    let cell = usize::try_from(position)
        .ok()
        .and_then(|i| board.cells().get(i));
    match cell {
        None => Event::InvalidOffBoard,
        Some(None) => Event::InvalidEmpty,
        Some(Some(piece)) if piece.side == side => Event::ValidOwn,
        Some(Some(_)) => Event::InvalidTheirs,
    }
}

/// Whether the game on `board` is over, and who won.
pub fn of_game_end(board: &Board) -> Event {
    match board.winner() {
        None => Event::GoesOn,
        Some(Side::White) => Event::WhiteWins,
        Some(Side::Black) => Event::BlackWins,
    }
}
