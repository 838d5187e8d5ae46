//! The pown-chess position and its rules: whose turn it is, which powns can move, and moves.

use thiserror::Error;

use super::options::BoardSize;
use super::square::{Color, Square};

/// Why a typed move was refused. The board is unchanged after any of these; the student
/// program prints `INVALID MOVE` for every one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum InvalidMove {
    #[error("no such square")]
    NoSuchSquare,
    #[error("square {0} is empty")]
    EmptySquare(Square),
    #[error("the pown on {0} belongs to the other player")]
    WrongColor(Square),
    #[error("the pown on {0} is on its last row and cannot move")]
    LastRow(Square),
    #[error("the pown on {0} is blocked by its own colour on {1}")]
    BlockedByOwnPiece(Square, Square),
}

/// A move that was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveOutcome {
    pub color: Color,
    pub from: Square,
    pub to: Square,
    /// The destination held an opponent's pown, which is now gone ("powned").
    pub captured: bool,
}

/// Why [`Board::from_rows`] refused a diagram.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("expected {expected} rows, got {actual}")]
    RowCount { expected: usize, actual: usize },
    #[error("row {row}: expected {expected} cells, got {actual}")]
    RowLength {
        row: usize,
        expected: usize,
        actual: usize,
    },
    #[error("row {row}: unexpected cell {cell:?} (use 'w', 'b' or '.')")]
    Cell { row: usize, cell: char },
}

/// A position: the powns and the player to move.
///
/// A pown moves one square straight ahead (White towards the highest row, Black towards row 1)
/// onto an empty square or onto an opponent's pown, which is removed. It cannot move from its
/// last row (there is no square ahead) nor onto a pown of its own colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    size: BoardSize,
    /// `cells[row][col]`; only the first `size` rows and columns are used.
    cells: [[Option<Color>; BoardSize::MAX]; BoardSize::MAX],
    to_move: Color,
}

impl Board {
    /// The starting position: White fills row 1, Black fills the highest row, White to move.
    pub fn new(size: BoardSize) -> Board {
        let mut board = Board {
            size,
            cells: [[None; BoardSize::MAX]; BoardSize::MAX],
            to_move: Color::White,
        };
        for color in [Color::White, Color::Black] {
            board.cells[color.home_row(size)][..size.get()].fill(Some(color));
        }
        board
    }

    /// Any position, from one string per row (row `1` first) of `w`, `b` and `.` (empty).
    /// Powns may stand anywhere, their last row included.
    pub fn from_rows(size: BoardSize, to_move: Color, rows: &[&str]) -> Result<Board, SetupError> {
        let n = size.get();
        if rows.len() != n {
            return Err(SetupError::RowCount {
                expected: n,
                actual: rows.len(),
            });
        }
        let mut cells = [[None; BoardSize::MAX]; BoardSize::MAX];
        for (r, text) in rows.iter().enumerate() {
            let actual = text.chars().count();
            if actual != n {
                return Err(SetupError::RowLength {
                    row: r + 1,
                    expected: n,
                    actual,
                });
            }
            for (c, cell) in text.chars().enumerate() {
                cells[r][c] = match cell {
                    'w' => Some(Color::White),
                    'b' => Some(Color::Black),
                    '.' => None,
                    _ => return Err(SetupError::Cell { row: r + 1, cell }),
                };
            }
        }
        Ok(Board {
            size,
            cells,
            to_move,
        })
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The player whose move it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Whether `square` lies on this board (`G1` does not on 6 x 6).
    pub fn contains(&self, square: Square) -> bool {
        square.col() < self.size.get() && square.row() < self.size.get()
    }

    /// The pown on `square`; `None` when it is empty or off the board.
    pub fn piece_at(&self, square: Square) -> Option<Color> {
        if self.contains(square) {
            self.cells[square.row()][square.col()]
        } else {
            None
        }
    }

    /// Every square of the board, row `1` first, `A` to the last column within a row.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        let n = self.size.get();
        (0..n).flat_map(move |row| (0..n).filter_map(move |col| Square::new(col, row)))
    }

    /// Reads a square name as typed by a player: `NoSuchSquare` unless it names a square of
    /// this board (a lower-case column letter is fine; the caller trims spaces).
    pub fn parse_square(&self, text: &str) -> Result<Square, InvalidMove> {
        Square::parse(text)
            .filter(|&square| self.contains(square))
            .ok_or(InvalidMove::NoSuchSquare)
    }

    /// Where the pown of `color` standing on `from` would go, or why it cannot move.
    fn destination(&self, from: Square, color: Color) -> Result<Square, InvalidMove> {
        if from.row() == color.last_row(self.size) {
            return Err(InvalidMove::LastRow(from));
        }
        let row = match color {
            Color::White => from.row() + 1,
            Color::Black => from.row() - 1,
        };
        let to = Square::new(from.col(), row).ok_or(InvalidMove::LastRow(from))?;
        if self.piece_at(to) == Some(color) {
            return Err(InvalidMove::BlockedByOwnPiece(from, to));
        }
        Ok(to)
    }

    /// The squares of `color`'s powns that can move (see [`Board`] for the rule).
    pub fn movable_pieces(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.squares().filter(move |&square| {
            self.piece_at(square) == Some(color) && self.destination(square, color).is_ok()
        })
    }

    /// The squares of `color`'s powns that can move only by taking: each faces a pown of
    /// the other side (a pown's one move is the step ahead).
    pub fn takers(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.movable_pieces(color).filter(move |&square| {
            let to = self.destination(square, color);
            to.is_ok_and(|to| self.piece_at(to) == Some(color.opponent()))
        })
    }

    /// The handout's `moves_remaining(color)`: how many of `color`'s powns can move. A pown
    /// can move iff it is not on its last row and the square ahead does not hold a pown of its
    /// own colour. The game ends when the player to move has none.
    pub fn moves_remaining(&self, color: Color) -> usize {
        self.movable_pieces(color).count()
    }

    /// The handout's `count_pieces(color)`: how many powns `color` has left.
    pub fn count_pieces(&self, color: Color) -> usize {
        self.squares()
            .filter(|&square| self.piece_at(square) == Some(color))
            .count()
    }

    /// Moves the pown on `from` for the player to move and passes the turn. On error nothing
    /// changes, not even the turn (see [`Board::pass_turn`]).
    pub fn play(&mut self, from: Square) -> Result<MoveOutcome, InvalidMove> {
        if !self.contains(from) {
            return Err(InvalidMove::NoSuchSquare);
        }
        let color = self.to_move;
        match self.piece_at(from) {
            None => return Err(InvalidMove::EmptySquare(from)),
            Some(owner) if owner != color => return Err(InvalidMove::WrongColor(from)),
            Some(_) => {}
        }
        let to = self.destination(from, color)?;
        let captured = self.piece_at(to) == Some(color.opponent());
        self.cells[from.row()][from.col()] = None;
        self.cells[to.row()][to.col()] = Some(color);
        self.to_move = color.opponent();
        Ok(MoveOutcome {
            color,
            from,
            to,
            captured,
        })
    }

    /// Gives the turn to the other player without moving: the handout's penalty for an invalid
    /// move.
    pub fn pass_turn(&mut self) {
        self.to_move = self.to_move.opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn board(to_move: Color, rows: &[&str]) -> Board {
        let size = BoardSize::try_from(rows.len()).unwrap();
        Board::from_rows(size, to_move, rows).unwrap()
    }

    #[test]
    fn starting_position_on_both_sizes() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let board = Board::new(size);
            let n = size.get();
            assert_eq!(board.to_move(), Color::White);
            assert_eq!(board.count_pieces(Color::White), n);
            assert_eq!(board.count_pieces(Color::Black), n);
            assert_eq!(board.moves_remaining(Color::White), n);
            assert_eq!(board.moves_remaining(Color::Black), n);
            assert_eq!(board.squares().count(), n * n);
            assert_eq!(board.piece_at(sq("A1")), Some(Color::White));
            assert_eq!(
                board.piece_at(Square::new(n - 1, n - 1).unwrap()),
                Some(Color::Black)
            );
            assert_eq!(board.piece_at(sq("C3")), None);
        }
    }

    #[test]
    fn white_moves_down_black_moves_up_and_turns_alternate() {
        let mut board = Board::new(BoardSize::Eight);
        let outcome = board.play(sq("B1")).unwrap();
        assert_eq!(
            outcome,
            MoveOutcome {
                color: Color::White,
                from: sq("B1"),
                to: sq("B2"),
                captured: false
            }
        );
        assert_eq!(board.piece_at(sq("B1")), None);
        assert_eq!(board.piece_at(sq("B2")), Some(Color::White));
        assert_eq!(board.to_move(), Color::Black);
        let outcome = board.play(sq("F8")).unwrap();
        assert_eq!((outcome.color, outcome.to), (Color::Black, sq("F7")));
        assert_eq!(board.to_move(), Color::White);
    }

    #[test]
    fn moving_onto_an_opponent_removes_it() {
        let mut b = board(
            Color::Black,
            &["......", "......", ".w....", ".b....", "......", "......"],
        );
        let outcome = b.play(sq("B4")).unwrap();
        assert!(outcome.captured);
        assert_eq!(b.piece_at(sq("B3")), Some(Color::Black));
        assert_eq!(b.piece_at(sq("B4")), None);
        assert_eq!(b.count_pieces(Color::White), 0);
        assert_eq!(b.count_pieces(Color::Black), 1);
    }

    #[test]
    fn each_invalid_kind_leaves_the_board_untouched() {
        let start = board(
            Color::White,
            &["w.....", "w.....", "......", "......", "......", "b....w"],
        );
        let cases = [
            (Square::new(6, 0).unwrap(), InvalidMove::NoSuchSquare),
            (sq("C3"), InvalidMove::EmptySquare(sq("C3"))),
            (sq("A6"), InvalidMove::WrongColor(sq("A6"))),
            (sq("F6"), InvalidMove::LastRow(sq("F6"))),
            (sq("A1"), InvalidMove::BlockedByOwnPiece(sq("A1"), sq("A2"))),
        ];
        for (from, expected) in cases {
            let mut b = start.clone();
            assert_eq!(b.play(from), Err(expected), "{from}");
            assert_eq!(b, start, "{from}");
        }
    }

    #[test]
    fn black_on_row_one_cannot_move() {
        let mut b = board(
            Color::Black,
            &["b.....", "......", "......", "......", "......", "......"],
        );
        assert_eq!(b.play(sq("A1")), Err(InvalidMove::LastRow(sq("A1"))));
        assert_eq!(b.moves_remaining(Color::Black), 0);
    }

    #[test]
    fn parse_square_knows_the_board_size() {
        let six = Board::new(BoardSize::Six);
        let eight = Board::new(BoardSize::Eight);
        assert_eq!(six.parse_square("G1"), Err(InvalidMove::NoSuchSquare));
        assert_eq!(six.parse_square("A7"), Err(InvalidMove::NoSuchSquare));
        assert_eq!(eight.parse_square("g1"), Ok(sq("G1")));
        assert_eq!(eight.parse_square("A9"), Err(InvalidMove::NoSuchSquare));
        assert_eq!(eight.parse_square("hello"), Err(InvalidMove::NoSuchSquare));
    }

    #[test]
    fn moves_remaining_counts_only_powns_that_can_move() {
        // White: A1 blocked by A2; A2, B2 free; F2 may take F3; C6 on its last row.
        // Black: E1 on its last row; F3 may take F2; F4 blocked by F3; D6 free.
        let b = board(
            Color::White,
            &["w...b.", "ww...w", ".....b", ".....b", "......", "..wb.."],
        );
        assert_eq!(b.count_pieces(Color::White), 5);
        let white: Vec<String> = b
            .movable_pieces(Color::White)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(white, ["A2", "B2", "F2"]);
        assert_eq!(b.moves_remaining(Color::White), 3);
        let black: Vec<String> = b
            .movable_pieces(Color::Black)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(black, ["F3", "D6"]);
        assert_eq!(b.count_pieces(Color::Black), 4);
    }

    #[test]
    fn pass_turn_only_changes_the_player() {
        let mut b = Board::new(BoardSize::Eight);
        let before = b.clone();
        b.pass_turn();
        assert_eq!(b.to_move(), Color::Black);
        b.pass_turn();
        assert_eq!(b, before);
    }

    #[test]
    fn from_rows_rejects_bad_diagrams() {
        let size = BoardSize::Six;
        assert_eq!(
            Board::from_rows(size, Color::White, &["......"]),
            Err(SetupError::RowCount {
                expected: 6,
                actual: 1
            })
        );
        let mut rows = ["......"; 6];
        rows[2] = ".....";
        assert!(matches!(
            Board::from_rows(size, Color::White, &rows),
            Err(SetupError::RowLength { row: 3, .. })
        ));
        rows[2] = "..x...";
        assert_eq!(
            Board::from_rows(size, Color::White, &rows),
            Err(SetupError::Cell { row: 3, cell: 'x' })
        );
    }
}
