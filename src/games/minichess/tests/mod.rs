//! Behaviour tests of the miniChess engine, players and solver.

mod players;
mod rules;
mod solver;

use super::{Board, Color, Move};

/// A board from rows, for tests that spell positions out.
pub(super) fn board<R: AsRef<[u8]>>(rows: &[R]) -> Board {
    Board::from_rows(rows).expect("test board is valid")
}

/// A move as `((from_row, from_col), (to_row, to_col), capture)`.
pub(super) type MoveParts = ((usize, usize), (usize, usize), bool);

/// The moves of `color` as [`MoveParts`].
pub(super) fn move_list(board: &Board, color: Color) -> Vec<MoveParts> {
    board
        .moves(color)
        .iter()
        .map(|mv: &Move| (mv.from(), mv.to(), mv.is_capture()))
        .collect()
}
