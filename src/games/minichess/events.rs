//! The rule events of miniChess that coverage counts: which moves a `move_maker` position
//! asks for (steps of each colour, blocked steps, captures each way, pawns on an edge
//! column, diagonals onto an own pawn), what `move_chooser` is given, and each of the
//! handout's three ways a game is won among the boards it chooses from.

use super::board::{Board, Color};
use super::rules::WinReason;

crate::rule_events! {
    /// Every rule event of the miniChess reference.
    pub enum Event {
        WhiteStep => ("steps", "white steps straight"),
        BlackStep => ("steps", "black steps straight"),
        StepBlocked => ("steps", "a step blocked by a pawn ahead"),
        CaptureTowardsFirst => ("captures", "capture towards the first column"),
        CaptureTowardsLast => ("captures", "capture towards the last column"),
        EdgePawn => ("captures", "a pawn on an edge column (no wrap-around)"),
        OwnPawnDiagonal => ("captures", "an own pawn on a diagonal (no capture)"),
        ChooserSeveral => ("chooser", "choice among several boards"),
        ChooserOne => ("chooser", "choice of the only board"),
        FarRow => ("game end", "a win by reaching the far row"),
        NoPawns => ("game end", "a win by taking every pawn"),
        NoMove => ("game end", "a win by leaving no move"),
    }
}

/// What `move_maker` is asked about `color`'s moves on `board` (a game still going on).
pub fn of_maker(board: &Board, color: Color) -> Vec<Event> {
    if board.outcome(color).is_some() {
        return Vec::new();
    }
    let mut events = Vec::new();
    for mv in board.moves(color) {
        let ((_, from), (_, to)) = (mv.from(), mv.to());
        events.push(match (mv.is_capture(), color) {
            (false, Color::White) => Event::WhiteStep,
            (false, Color::Black) => Event::BlackStep,
            (true, _) if to < from => Event::CaptureTowardsFirst,
            (true, _) => Event::CaptureTowardsLast,
        });
    }
    let last = board.size() - 1;
    for (row, col) in board.pawns(color) {
        let Some(ahead) = row
            .checked_add_signed(color.forward())
            .filter(|&r| r <= last)
        else {
            continue;
        };
        if board.pawn_at(ahead, col).is_some() {
            events.push(Event::StepBlocked);
        }
        if col == 0 || col == last {
            events.push(Event::EdgePawn);
        }
        let diagonals = [col.checked_sub(1), Some(col + 1)];
        if diagonals
            .into_iter()
            .flatten()
            .any(|c| board.pawn_at(ahead, c) == Some(color))
        {
            events.push(Event::OwnPawnDiagonal);
        }
    }
    events
}

/// What `move_chooser` is given: one board or several, and the wins among them.
pub fn of_chooser(boards: &[Board], color: Color) -> Vec<Event> {
    let mut events = vec![match boards.len() {
        0 => return Vec::new(),
        1 => Event::ChooserOne,
        _ => Event::ChooserSeveral,
    }];
    for board in boards {
        events.extend(board.outcome(color.opponent()).map(|win| match win.reason {
            WinReason::ReachedFarRow => Event::FarRow,
            WinReason::NoPawnsLeft => Event::NoPawns,
            WinReason::NoMoveLeft => Event::NoMove,
        }));
    }
    events
}
