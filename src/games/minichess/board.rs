//! The miniChess board: an `n x n` grid of white and black pawns, `n` from 3 to 8.
//!
//! A [`Board`] can only be built through [`Board::start`] or [`Board::from_rows`], which check
//! the size and every cell, so every `Board` value is a valid position. Internally it is two
//! bitboards (see `bits.rs`), which keeps boards `Copy` and the solver fast.

use thiserror::Error;

use super::bits::{self, STRIDE};
pub use super::color::Color;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 3;
/// Largest supported board size (a row must fit in one byte of a `u64`).
pub const MAX_SIZE: usize = 8;

/// Cell code of an empty square in the list-of-lists form.
pub const EMPTY: u8 = 0;

impl Color {
    /// The color of a cell code of the handout: 1 is white, 2 is black.
    pub fn from_code(code: u8) -> Result<Color, BoardError> {
        match code {
            1 => Ok(Color::White),
            2 => Ok(Color::Black),
            _ => Err(BoardError::InvalidColor { code }),
        }
    }
}

/// Why a board or a color code was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("board size {size} is not supported (expected {MIN_SIZE} to {MAX_SIZE})")]
    SizeOutOfRange { size: usize },
    #[error("row {row} has {len} cells but the board has {expected} rows (it must be square)")]
    NotSquare {
        row: usize,
        len: usize,
        expected: usize,
    },
    #[error(
        "cell at row {row}, column {col} holds {value} (expected 0 empty, 1 white or 2 black)"
    )]
    InvalidCell { row: usize, col: usize, value: u8 },
    #[error("color code {code} is not valid (expected 1 white or 2 black)")]
    InvalidColor { code: u8 },
}

/// A valid miniChess position (without the side to move, which callers track).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    white: u64,
    black: u64,
}

impl Board {
    /// The starting position: a full row of white pawns on row 0, black pawns on row `size - 1`.
    pub fn start(size: usize) -> Result<Board, BoardError> {
        check_size(size)?;
        Ok(Board {
            size: size as u8,
            white: bits::row_mask(size, 0),
            black: bits::row_mask(size, size - 1),
        })
    }

    /// A board from the handout's list of lists (row 0 first; 0 empty, 1 white, 2 black).
    pub fn from_rows<R: AsRef<[u8]>>(rows: &[R]) -> Result<Board, BoardError> {
        let size = rows.len();
        check_size(size)?;
        let mut board = Board {
            size: size as u8,
            white: 0,
            black: 0,
        };
        for (row, cells) in rows.iter().enumerate() {
            let cells = cells.as_ref();
            if cells.len() != size {
                return Err(BoardError::NotSquare {
                    row,
                    len: cells.len(),
                    expected: size,
                });
            }
            for (col, &value) in cells.iter().enumerate() {
                if value == EMPTY {
                    continue;
                }
                let color = Color::from_code(value).map_err(|_| BoardError::InvalidCell {
                    row,
                    col,
                    value,
                })?;
                *board.bits_mut(color) |= bits::bit(bits::square(row, col));
            }
        }
        Ok(board)
    }

    /// The handout's list-of-lists form.
    pub fn to_rows(&self) -> Vec<Vec<u8>> {
        (0..self.size())
            .map(|row| {
                (0..self.size())
                    .map(|col| self.pawn_at(row, col).map_or(EMPTY, Color::code))
                    .collect()
            })
            .collect()
    }

    /// Number of rows (and columns).
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The pawn on a square, or `None` when the square is empty or off the board.
    pub fn pawn_at(&self, row: usize, col: usize) -> Option<Color> {
        if row >= self.size() || col >= self.size() {
            return None;
        }
        let b = bits::bit(bits::square(row, col));
        if self.white & b != 0 {
            Some(Color::White)
        } else if self.black & b != 0 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Number of pawns of one color.
    pub fn pawn_count(&self, color: Color) -> usize {
        self.bits(color).count_ones() as usize
    }

    /// Squares `(row, col)` of one color's pawns, row-major.
    pub fn pawns(&self, color: Color) -> impl Iterator<Item = (usize, usize)> {
        bits::squares(self.bits(color)).map(bits::row_col)
    }

    pub(crate) fn bits(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    fn bits_mut(&mut self, color: Color) -> &mut u64 {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Builds a board from bitboards that the caller guarantees are disjoint and inside the
    /// board (they come from another valid board by legal moves).
    pub(crate) fn from_bits(size: usize, white: u64, black: u64) -> Board {
        debug_assert!(white & black == 0);
        debug_assert!((white | black) & !bits::board_mask(size) == 0);
        Board {
            size: size as u8,
            white,
            black,
        }
    }
}

fn check_size(size: usize) -> Result<(), BoardError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(BoardError::SizeOutOfRange { size })
    }
}

// The row stride must hold a full row of the largest board.
const _: () = assert!(MAX_SIZE <= STRIDE);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        let board = Board::start(3).unwrap();
        assert_eq!(
            board.to_rows(),
            vec![vec![1, 1, 1], vec![0, 0, 0], vec![2, 2, 2]]
        );
        for size in MIN_SIZE..=MAX_SIZE {
            let board = Board::start(size).unwrap();
            assert_eq!(Board::from_rows(&board.to_rows()).unwrap(), board);
            assert_eq!(board.pawn_count(Color::White), size);
            assert_eq!(board.pawn_count(Color::Black), size);
        }
    }

    #[test]
    fn rejects_bad_sizes() {
        assert_eq!(Board::start(2), Err(BoardError::SizeOutOfRange { size: 2 }));
        assert_eq!(Board::start(9), Err(BoardError::SizeOutOfRange { size: 9 }));
        let empty: Vec<Vec<u8>> = Vec::new();
        assert_eq!(
            Board::from_rows(&empty),
            Err(BoardError::SizeOutOfRange { size: 0 })
        );
        let nine = vec![vec![0u8; 9]; 9];
        assert!(Board::from_rows(&nine).is_err());
    }

    #[test]
    fn rejects_ragged_rows_naming_the_row() {
        let rows = vec![vec![1, 1, 1], vec![0, 0], vec![2, 2, 2]];
        let err = Board::from_rows(&rows).unwrap_err();
        assert_eq!(
            err,
            BoardError::NotSquare {
                row: 1,
                len: 2,
                expected: 3
            }
        );
        assert!(err.to_string().contains("row 1"));
    }

    #[test]
    fn rejects_bad_cells_naming_row_and_column() {
        let rows = vec![vec![1, 1, 1], vec![0, 0, 0], vec![2, 3, 2]];
        let err = Board::from_rows(&rows).unwrap_err();
        assert_eq!(
            err,
            BoardError::InvalidCell {
                row: 2,
                col: 1,
                value: 3
            }
        );
        assert!(err.to_string().contains("row 2, column 1"));
    }

    #[test]
    fn color_codes() {
        assert_eq!(Color::from_code(1), Ok(Color::White));
        assert_eq!(Color::from_code(2), Ok(Color::Black));
        assert_eq!(
            Color::from_code(0),
            Err(BoardError::InvalidColor { code: 0 })
        );
        assert_eq!(Color::White.code(), 1);
        assert_eq!(Color::Black.opponent(), Color::White);
    }

    #[test]
    fn cells_and_pawns() {
        let board = Board::from_rows(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]).unwrap();
        assert_eq!(board.pawn_at(0, 0), None);
        assert_eq!(board.pawn_at(1, 0), Some(Color::White));
        assert_eq!(board.pawn_at(2, 2), Some(Color::Black));
        assert_eq!(board.pawn_at(3, 0), None);
        assert_eq!(
            board.pawns(Color::White).collect::<Vec<_>>(),
            vec![(0, 1), (0, 2), (1, 0)]
        );
    }
}
