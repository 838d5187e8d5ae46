//! Bitboard geometry shared by the rules and the solver.
//!
//! Square `(row, col)` is bit `row * 8 + col` whatever the board size, so one row forward is a
//! shift by 8 and a diagonal step a shift by 7 or 9. Bits outside the `size x size` corner are
//! always zero.

use super::color::Color;

/// Bits per row, independent of the board size.
pub(crate) const STRIDE: usize = 8;

/// The three directions a pawn can move, in the documented move order:
/// toward the lower column (capture), straight ahead, toward the higher column (capture).
pub(crate) const DIRECTIONS: [Direction; 3] = [
    Direction::ColumnDown,
    Direction::Straight,
    Direction::ColumnUp,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    ColumnDown,
    Straight,
    ColumnUp,
}

impl Direction {
    /// Column change of a step in this direction.
    pub(crate) fn column_delta(self) -> isize {
        match self {
            Direction::ColumnDown => -1,
            Direction::Straight => 0,
            Direction::ColumnUp => 1,
        }
    }
}

pub(crate) fn square(row: usize, col: usize) -> u8 {
    (row * STRIDE + col) as u8
}

pub(crate) fn row_col(square: u8) -> (usize, usize) {
    (square as usize / STRIDE, square as usize % STRIDE)
}

pub(crate) fn bit(square: u8) -> u64 {
    1u64 << square
}

/// The squares of one row of a `size`-wide board.
pub(crate) fn row_mask(size: usize, row: usize) -> u64 {
    ((1u64 << size) - 1) << (row * STRIDE)
}

/// The squares of one column of a `size x size` board.
pub(crate) fn column_mask(size: usize, col: usize) -> u64 {
    (0..size).fold(0, |acc, row| acc | bit(square(row, col)))
}

/// Every square of a `size x size` board.
pub(crate) fn board_mask(size: usize) -> u64 {
    (0..size).fold(0, |acc, row| acc | row_mask(size, row))
}

/// The row a pawn of `color` wins by reaching.
pub(crate) fn far_row(size: usize, color: Color) -> usize {
    match color {
        Color::White => size - 1,
        Color::Black => 0,
    }
}

/// Destination squares of every move of `movers` (pawns of `color`) against `opponents`,
/// one set per entry of [`DIRECTIONS`].
pub(crate) fn targets(size: usize, movers: u64, opponents: u64, color: Color) -> [u64; 3] {
    let valid = board_mask(size);
    let empty = valid & !(movers | opponents);
    let can_go_down = movers & !column_mask(size, 0);
    let can_go_up = movers & !column_mask(size, size - 1);
    match color {
        Color::White => [
            (can_go_down << 7) & opponents,
            (movers << 8) & empty,
            (can_go_up << 9) & opponents,
        ],
        Color::Black => [
            (can_go_down >> 9) & opponents,
            (movers >> 8) & empty,
            (can_go_up >> 7) & opponents,
        ],
    }
}

/// The square a pawn of `color` left to reach `to` moving in `direction`.
pub(crate) fn source(to: u8, direction: Direction, color: Color) -> u8 {
    let (row, col) = row_col(to);
    square(
        row.wrapping_add_signed(-color.forward()),
        col.wrapping_add_signed(-direction.column_delta()),
    )
}

/// The board seen from the other side: row `r` becomes row `size - 1 - r`.
pub(crate) fn flip_rows(bits: u64, size: usize) -> u64 {
    bits.swap_bytes() >> ((STRIDE - size) * STRIDE)
}

/// The board seen in a mirror: column `c` becomes column `size - 1 - c`.
pub(crate) fn mirror_columns(bits: u64, size: usize) -> u64 {
    // Reversing the bits within each byte puts the columns at the top of the byte; the low
    // `8 - size` bits of every byte are then zero, so one shift brings all rows back at once.
    bits.reverse_bits().swap_bytes() >> (STRIDE - size)
}

/// Iterates over the set squares of a bitboard, lowest (row-major first) first.
pub(crate) fn squares(mut bits: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(sq)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flips_and_mirrors_are_involutions_on_every_size() {
        for size in 3..=8 {
            let bits = bit(square(0, 0)) | bit(square(1, size - 1)) | bit(square(size - 1, 1));
            assert_eq!(flip_rows(flip_rows(bits, size), size), bits);
            assert_eq!(mirror_columns(mirror_columns(bits, size), size), bits);
            assert_eq!(
                flip_rows(bits, size),
                bit(square(size - 1, 0)) | bit(square(size - 2, size - 1)) | bit(square(0, 1))
            );
            assert_eq!(
                mirror_columns(bits, size),
                bit(square(0, size - 1)) | bit(square(1, 0)) | bit(square(size - 1, size - 2))
            );
        }
    }

    #[test]
    fn sources_undo_each_direction() {
        for color in [Color::White, Color::Black] {
            for direction in DIRECTIONS {
                let from = square(3, 3);
                let to = square(
                    3usize.wrapping_add_signed(color.forward()),
                    3usize.wrapping_add_signed(direction.column_delta()),
                );
                assert_eq!(source(to, direction, color), from);
            }
        }
    }
}
