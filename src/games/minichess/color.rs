//! The two sides of miniChess, apart from the board so that the bit geometry (`bits.rs`), which
//! the board is built on, can take a side without knowing the board.

use std::fmt;

/// The two sides. White (code 1) starts on row 0 and moves first; Black (code 2) starts on the
/// last row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The handout's code for this color: 1 or 2.
    pub fn code(self) -> u8 {
        match self {
            Color::White => 1,
            Color::Black => 2,
        }
    }

    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Row change of one step forward.
    pub fn forward(self) -> isize {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
