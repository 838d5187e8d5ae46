//! Static evaluation of a position for the heuristic players.

use super::board::{Board, Color};

/// Points per pawn on the board.
const PAWN: i32 = 100;
/// Points per row a pawn has advanced from its starting row.
const ADVANCE: i32 = 10;
/// Bonus for a passed pawn (no opponent pawn ahead in its own or a neighbouring column),
/// plus this much again per row it has advanced: such a pawn is hard to stop.
const PASSED: i32 = 20;
const PASSED_ADVANCE: i32 = 15;
/// Points per legal move: having moves matters, since a side without one loses.
const MOBILITY: i32 = 5;

/// Rows a pawn of `color` on `row` has advanced from its starting row.
pub(crate) fn advancement(size: usize, color: Color, row: usize) -> usize {
    match color {
        Color::White => row,
        Color::Black => size - 1 - row,
    }
}

/// How good `board` looks for `color`, in centipawns; positive favours `color`. It does not
/// detect finished games: searches check [`Board::outcome`] first.
pub fn evaluate(board: &Board, color: Color) -> i32 {
    side_score(board, color) - side_score(board, color.opponent())
}

fn side_score(board: &Board, color: Color) -> i32 {
    let size = board.size();
    let pawns: i32 = board
        .pawns(color)
        .map(|(row, col)| {
            let advanced = advancement(size, color, row) as i32;
            let passed = if is_passed(board, color, row, col) {
                PASSED + PASSED_ADVANCE * advanced
            } else {
                0
            };
            PAWN + ADVANCE * advanced + passed
        })
        .sum();
    pawns + MOBILITY * board.moves(color).len() as i32
}

/// True when no opponent pawn stands ahead of `(row, col)` in columns `col - 1 ..= col + 1`.
fn is_passed(board: &Board, color: Color, row: usize, col: usize) -> bool {
    let size = board.size();
    let ahead = advancement(size, color, row);
    board.pawns(color.opponent()).all(|(r, c)| {
        let in_cone = c.abs_diff(col) <= 1;
        let is_ahead = advancement(size, color, r) > ahead;
        !(in_cone && is_ahead)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_start_is_even_and_material_counts() {
        for size in 3..=8 {
            assert_eq!(evaluate(&Board::start(size).unwrap(), Color::White), 0);
        }
        let up_a_pawn = Board::from_rows(&[[1, 1, 1], [0, 0, 0], [2, 0, 2]]).unwrap();
        assert!(evaluate(&up_a_pawn, Color::White) > 0);
        assert_eq!(
            evaluate(&up_a_pawn, Color::White),
            -evaluate(&up_a_pawn, Color::Black)
        );
    }

    #[test]
    fn passed_and_advanced_pawns_are_worth_more() {
        let passed =
            Board::from_rows(&[[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2]]).unwrap();
        let blocked =
            Board::from_rows(&[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 2]]).unwrap();
        assert!(evaluate(&passed, Color::White) > evaluate(&blocked, Color::White));
    }
}
