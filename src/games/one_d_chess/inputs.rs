//! What authoring tools may type in a 1D chess game, shared by both dialects: the cells a
//! side may move from, and the positions `is_valid_move` refuses.

use super::engine::{Board, Side, CELLS};

/// The cells holding one of `side`'s pieces.
pub fn own_cells(board: &Board, side: Side) -> Vec<usize> {
    (0..CELLS)
        .filter(|&i| board.cells()[i].is_some_and(|p| p.side == side))
        .collect()
}

/// Positions `is_valid_move` refuses for `side`: empty cells, the opponent's pieces, and one
/// position off each end of the board.
pub fn refused_positions(board: &Board, side: Side) -> Vec<i64> {
    let mut positions = vec![-1];
    positions.extend(
        (0..CELLS)
            .filter(|&i| !board.cells()[i].is_some_and(|p| p.side == side))
            .map(|i| i as i64),
    );
    positions.push(CELLS as i64);
    positions
}
