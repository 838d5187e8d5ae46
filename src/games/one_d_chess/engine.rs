//! The 1D chess rules: a 1 x 9 board, a king and two knights a side.
//!
//! The API cannot be misused: a move names a cell that must hold a piece, and any request that
//! cannot be carried out is an error value that leaves the board untouched.

use std::fmt;

/// Number of cells on the board.
pub const CELLS: usize = 9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    King,
    Knight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    pub const WHITE_KING: Piece = Piece::new(Side::White, Kind::King);
    pub const WHITE_KNIGHT: Piece = Piece::new(Side::White, Kind::Knight);
    pub const BLACK_KING: Piece = Piece::new(Side::Black, Kind::King);
    pub const BLACK_KNIGHT: Piece = Piece::new(Side::Black, Kind::Knight);

    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The handouts' three-letter name: `WKi`, `WKn`, `BKi`, `BKn`.
    pub fn code(self) -> &'static str {
        match (self.side, self.kind) {
            (Side::White, Kind::King) => "WKi",
            (Side::White, Kind::Knight) => "WKn",
            (Side::Black, Kind::King) => "BKi",
            (Side::Black, Kind::Knight) => "BKn",
        }
    }

    pub fn from_code(code: &str) -> Option<Piece> {
        [
            Piece::WHITE_KING,
            Piece::WHITE_KNIGHT,
            Piece::BLACK_KING,
            Piece::BLACK_KNIGHT,
        ]
        .into_iter()
        .find(|p| p.code() == code)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Left,
    Right,
}

impl Direction {
    fn step(self) -> isize {
        match self {
            Direction::Left => -1,
            Direction::Right => 1,
        }
    }
}

/// Why a move cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("position {0} is off the board (0 to 8)")]
    OffBoard(i64),
    #[error("cell {0} is empty")]
    EmptyCell(usize),
    #[error("cell {position} holds a {found:?}, not a {wanted:?}")]
    WrongKind {
        position: usize,
        found: Kind,
        wanted: Kind,
    },
}

/// A move that was made: where the piece went and what it captured (own pieces included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub piece: Piece,
    pub from: usize,
    pub to: usize,
    pub captured: Option<Piece>,
}

/// A 1 x 9 board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Piece>; CELLS],
}

impl Board {
    /// The starting position: `WKi WKn WKn . . . BKn BKn BKi`.
    pub fn start() -> Board {
        let mut cells = [None; CELLS];
        cells[0] = Some(Piece::WHITE_KING);
        cells[1] = Some(Piece::WHITE_KNIGHT);
        cells[2] = Some(Piece::WHITE_KNIGHT);
        cells[6] = Some(Piece::BLACK_KNIGHT);
        cells[7] = Some(Piece::BLACK_KNIGHT);
        cells[8] = Some(Piece::BLACK_KING);
        Board { cells }
    }

    pub fn from_cells(cells: [Option<Piece>; CELLS]) -> Board {
        Board { cells }
    }

    pub fn cells(&self) -> &[Option<Piece>; CELLS] {
        &self.cells
    }

    /// The handouts' `is_valid_move`: the position is on the board and holds one of `side`'s
    /// pieces. Negative positions are off the board (no wrap-around).
    pub fn is_valid_move(&self, position: i64, side: Side) -> bool {
        self.piece_at(position)
            .is_ok_and(|(_, piece)| piece.side == side)
    }

    fn piece_at(&self, position: i64) -> Result<(usize, Piece), MoveError> {
        let index = usize::try_from(position)
            .ok()
            .filter(|&i| i < CELLS)
            .ok_or(MoveError::OffBoard(position))?;
        let piece = self.cells[index].ok_or(MoveError::EmptyCell(index))?;
        Ok((index, piece))
    }

    /// The handouts' `move`: moves the piece at `position` as its kind moves.
    pub fn play(&mut self, position: i64, direction: Direction) -> Result<Move, MoveError> {
        let (from, piece) = self.piece_at(position)?;
        let to = match piece.kind {
            Kind::Knight => self.knight_target(from, direction),
            Kind::King => self.king_target(from, direction),
        };
        Ok(self.relocate(piece, from, to))
    }

    /// `move_king` / `move_knight`: like [`Board::play`], but only for a piece of that kind.
    pub fn play_kind(
        &mut self,
        position: i64,
        direction: Direction,
        kind: Kind,
    ) -> Result<Move, MoveError> {
        let (from, piece) = self.piece_at(position)?;
        if piece.kind != kind {
            return Err(MoveError::WrongKind {
                position: from,
                found: piece.kind,
                wanted: kind,
            });
        }
        self.play(position, direction)
    }

    /// Exactly two cells over, jumping; stays put when that is off the board.
    fn knight_target(&self, from: usize, direction: Direction) -> usize {
        offset(from, 2 * direction.step()).unwrap_or(from)
    }

    /// Slides until it reaches a piece (which it captures) or the last cell at the edge.
    fn king_target(&self, from: usize, direction: Direction) -> usize {
        let mut at = from;
        while let Some(next) = offset(at, direction.step()) {
            at = next;
            if self.cells[at].is_some() {
                break;
            }
        }
        at
    }

    fn relocate(&mut self, piece: Piece, from: usize, to: usize) -> Move {
        if from == to {
            return Move {
                piece,
                from,
                to,
                captured: None,
            };
        }
        let captured = self.cells[to].replace(piece);
        self.cells[from] = None;
        Move {
            piece,
            from,
            to,
            captured,
        }
    }

    /// The side whose opponent's king is gone, if any.
    pub fn winner(&self) -> Option<Side> {
        let has_king = |side| self.cells.contains(&Some(Piece::new(side, Kind::King)));
        match (has_king(Side::White), has_king(Side::Black)) {
            (true, false) => Some(Side::White),
            (false, true) => Some(Side::Black),
            _ => None,
        }
    }
}

fn offset(from: usize, by: isize) -> Option<usize> {
    from.checked_add_signed(by).filter(|&i| i < CELLS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(codes: &str) -> Board {
        let mut cells = [None; CELLS];
        for (cell, code) in cells.iter_mut().zip(codes.split_whitespace()) {
            *cell = Piece::from_code(code);
        }
        Board::from_cells(cells)
    }

    fn codes(board: &Board) -> String {
        board
            .cells()
            .iter()
            .map(|c| c.map_or(".", |p| p.code()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// (position, direction, before, after): the rule table of DESIGN.md.
    const MOVES: &[(i64, Direction, &str, &str)] = &[
        // knights: exactly two, jumping, capturing anything, staying put at the edges
        (
            6,
            Direction::Left,
            "WKi WKn WKn . . . BKn BKn BKi",
            "WKi WKn WKn . BKn . . BKn BKi",
        ),
        (
            2,
            Direction::Right,
            "WKi WKn WKn . . . BKn BKn BKi",
            "WKi WKn . . WKn . BKn BKn BKi",
        ),
        (
            1,
            Direction::Left,
            ". WKn . . . . . . BKi",
            ". WKn . . . . . . BKi",
        ),
        (
            0,
            Direction::Left,
            "WKn . . . . . . . BKi",
            "WKn . . . . . . . BKi",
        ),
        (
            7,
            Direction::Right,
            "WKi . . . . . . BKn .",
            "WKi . . . . . . BKn .",
        ),
        (
            8,
            Direction::Right,
            "WKi . . . . . . . BKn",
            "WKi . . . . . . . BKn",
        ),
        (
            1,
            Direction::Right,
            "WKi WKn . WKn . . . . BKi",
            "WKi . . WKn . . . . BKi",
        ),
        // kings: slide to a piece (captured, own too) or to the edge; stay at the edge
        (
            0,
            Direction::Left,
            "WKi WKn WKn . . . BKn BKn BKi",
            "WKi WKn WKn . . . BKn BKn BKi",
        ),
        (
            8,
            Direction::Left,
            "WKi WKn WKn . . . BKn BKn BKi",
            "WKi WKn WKn . . . BKn BKi .",
        ),
        (
            0,
            Direction::Right,
            "WKi WKn WKn . . . BKn BKn BKi",
            ". WKi WKn . . . BKn BKn BKi",
        ),
        (
            4,
            Direction::Right,
            ". . . . WKi . . . .",
            ". . . . . . . . WKi",
        ),
        (
            4,
            Direction::Left,
            ". . . . BKi . . . .",
            "BKi . . . . . . . .",
        ),
        (
            8,
            Direction::Right,
            "WKi . . . . . . . BKi",
            "WKi . . . . . . . BKi",
        ),
        (
            2,
            Direction::Right,
            ". . WKi . . BKi . . .",
            ". . . . . WKi . . .",
        ),
    ];

    #[test]
    fn rule_table() {
        for &(position, direction, before, after) in MOVES {
            let mut b = board(before);
            b.play(position, direction).unwrap();
            assert_eq!(codes(&b), after, "{position} {direction:?} from {before}");
        }
    }

    #[test]
    fn impossible_requests_are_errors_and_leave_the_board_alone() {
        let start = Board::start();
        for (position, error) in [
            (-1, MoveError::OffBoard(-1)),
            (9, MoveError::OffBoard(9)),
            (4, MoveError::EmptyCell(4)),
        ] {
            let mut b = start;
            assert_eq!(b.play(position, Direction::Left), Err(error));
            assert_eq!(b, start);
        }
        let mut b = start;
        assert!(matches!(
            b.play_kind(1, Direction::Right, Kind::King),
            Err(MoveError::WrongKind { .. })
        ));
        assert_eq!(b, start);
    }

    #[test]
    fn validity_follows_the_handout() {
        let b = Board::start();
        assert!(!b.is_valid_move(1, Side::Black));
        assert!(!b.is_valid_move(9, Side::Black));
        assert!(!b.is_valid_move(-1, Side::Black));
        assert!(b.is_valid_move(6, Side::Black));
        assert!(b.is_valid_move(2, Side::White));
        assert!(!b.is_valid_move(4, Side::White));
        assert!(b.is_valid_move(0, Side::White));
        assert!(b.is_valid_move(8, Side::Black));
    }

    #[test]
    fn winner_once_a_king_is_gone() {
        assert_eq!(Board::start().winner(), None);
        assert_eq!(board(". . WKi . . . . . .").winner(), Some(Side::White));
        assert_eq!(board("BKi . . . . . . . .").winner(), Some(Side::Black));
    }
}
