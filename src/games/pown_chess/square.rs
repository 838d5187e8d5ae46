//! The two colours and the square names players type (`A1` .. `H8`).

use std::fmt;

use super::options::BoardSize;

/// A player and the colour of that player's powns. Displays as the handout's `w` / `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Starts on row 1, moves towards the highest row, plays first.
    White,
    /// Starts on the highest row, moves towards row 1.
    Black,
}

impl Color {
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The handout's one-letter name.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The row index (0 = row `1`) this colour starts on.
    pub const fn home_row(self, size: BoardSize) -> usize {
        match self {
            Color::White => 0,
            Color::Black => size.get() - 1,
        }
    }

    /// The row index this colour's powns can never leave: the opponent's home row.
    pub const fn last_row(self, size: BoardSize) -> usize {
        self.opponent().home_row(size)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A square of the largest board, `A1` .. `H8`. Whether it lies on a smaller board is the
/// board's question ([`super::Board::contains`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    col: u8,
}

impl Square {
    /// Column index (0 = `A`) and row index (0 = row `1`); `None` beyond `H8`.
    pub fn new(col: usize, row: usize) -> Option<Square> {
        if col < BoardSize::MAX && row < BoardSize::MAX {
            Some(Square {
                col: col as u8,
                row: row as u8,
            })
        } else {
            None
        }
    }

    /// Reads a square name exactly as a dictionary key `'B2'` would match it, except that a
    /// lower-case column letter is accepted too. No surrounding spaces, no leading zeros.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let digit = chars.next()?;
        if chars.next().is_some() || !letter.is_ascii_uppercase() || !digit.is_ascii_digit() {
            return None;
        }
        let row = (digit as usize).checked_sub('1' as usize)?;
        Square::new(letter as usize - 'A' as usize, row)
    }

    pub const fn col(self) -> usize {
        self.col as usize
    }

    pub const fn row(self) -> usize {
        self.row as usize
    }

    /// The column's letter, `A` for column 0.
    pub const fn col_letter(col: usize) -> char {
        (b'A' + (col % 26) as u8) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Square::col_letter(self.col()), self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_know_their_rows_on_both_sizes() {
        assert_eq!(Color::White.home_row(BoardSize::Eight), 0);
        assert_eq!(Color::White.last_row(BoardSize::Eight), 7);
        assert_eq!(Color::Black.home_row(BoardSize::Six), 5);
        assert_eq!(Color::Black.last_row(BoardSize::Six), 0);
        assert_eq!(Color::White.opponent(), Color::Black);
        assert_eq!(format!("{} {}", Color::White, Color::Black), "w b");
    }

    #[test]
    fn parses_and_displays_square_names() {
        let b2 = Square::parse("B2").unwrap();
        assert_eq!((b2.col(), b2.row()), (1, 1));
        assert_eq!(b2.to_string(), "B2");
        assert_eq!(Square::parse("h8").unwrap().to_string(), "H8");
        assert_eq!(Square::parse("A1"), Square::new(0, 0));
    }

    #[test]
    fn rejects_anything_that_is_not_a_square_name() {
        for text in [
            "", "A", "1", "A0", "A9", "I1", "Z1", "AA", "11", "A10", "A01", " A1", "A1 ", "1A",
            "ä1", "A١", "A-1",
        ] {
            assert_eq!(Square::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn squares_end_at_h8() {
        assert!(Square::new(7, 7).is_some());
        assert!(Square::new(8, 0).is_none());
        assert!(Square::new(0, 8).is_none());
    }
}
