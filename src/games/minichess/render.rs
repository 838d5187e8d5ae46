//! Small text pictures of boards for reports.

use super::board::{Board, Color};
use super::notation;
use crate::games::board_text::{BoardDrawing, BoardReader, FoundBoard, Piece, Side};

/// Prefix of the line that shows a board argument a call changed.
const CHANGED_INPUT: &str = "!changed-input ";

/// miniChess's boards in answers. Answers are compared as whole lists (a multiset of boards)
/// and explained by `explain`, so none is read for comparison; a line that holds one board
/// (the board chosen, a changed input board) is read for pictures.
pub struct MiniChessBoards;

impl BoardReader for MiniChessBoards {
    fn find_boards(&self, _text: &str) -> Vec<FoundBoard> {
        Vec::new()
    }

    fn picture_boards(&self, text: &str) -> Vec<FoundBoard> {
        text.lines()
            .enumerate()
            .filter_map(|(at, line)| {
                let line = line.strip_prefix(CHANGED_INPUT).unwrap_or(line);
                let board = notation::board_of(&notation::read_rows(line)?).ok()?;
                let size = board.size();
                let cells = (0..size)
                    .flat_map(|row| (0..size).map(move |col| (row, col)))
                    .map(|(row, col)| {
                        let content = match board.pawn_at(row, col) {
                            Some(Color::White) => "white",
                            Some(Color::Black) => "black",
                            None => "empty",
                        };
                        (format!("({row},{col})"), content.to_string())
                    })
                    .collect();
                Some(FoundBoard {
                    first_line: at,
                    line_count: 1,
                    cells,
                })
            })
            .collect()
    }

    fn drawing(&self) -> Option<&dyn BoardDrawing> {
        Some(self)
    }
}

impl BoardDrawing for MiniChessBoards {
    /// Boards are square.
    fn columns(&self, board: &FoundBoard) -> usize {
        (1..=board.cells.len())
            .find(|n| n * n >= board.cells.len())
            .unwrap_or(1)
    }

    fn piece(&self, content: &str) -> Option<Piece> {
        match content {
            "white" => Some(Piece::new("♙", Side::White)),
            "black" => Some(Piece::new("♟", Side::Black)),
            _ => None,
        }
    }
}

/// The board as a text grid, one line per row (row 0 first), three characters per cell:
/// `w` white, `b` black, `.` empty. The `highlight` square, if any and on the board, is
/// shown in brackets, e.g. `[b]`, so a report can point at the pawn that just moved or the
/// cell that differs.
///
/// ```text
///  .  w  w
/// [b] .  .
///  b  .  b
/// ```
pub fn render_grid(board: &Board, highlight: Option<(usize, usize)>) -> String {
    let size = board.size();
    let mut out = String::with_capacity(size * (3 * size + 1));
    for row in 0..size {
        let mut line = String::with_capacity(3 * size);
        for col in 0..size {
            let symbol = match board.pawn_at(row, col) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            };
            let (open, close) = if highlight == Some((row, col)) {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            line.push(open);
            line.push(symbol);
            line.push(close);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render_grid(self, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_text::{drawn_difference, grid};

    #[test]
    fn boards_in_answers_are_read_for_pictures_only() {
        let expected = "[[0, 1, 1], [2, 0, 0], [2, 0, 2]]\n";
        let actual = "[[0, 1, 1], [1, 2, 0], [2, 0, 2]]\n";
        assert!(MiniChessBoards.find_boards(actual).is_empty());
        let (e, a, diffs) = drawn_difference(&MiniChessBoards, expected, actual).unwrap();
        let named: Vec<String> = diffs.iter().map(ToString::to_string).collect();
        assert_eq!(
            named,
            [
                "(1,0): expected black, got white",
                "(1,1): expected empty, got black"
            ]
        );
        let grid = grid(&MiniChessBoards, &e).unwrap();
        assert_eq!(grid.rows.len(), 3);
        assert_eq!(grid.rows[0][1].piece, Some(Piece::new("♙", Side::White)));
        assert_eq!(grid.rows[2][0].piece, Some(Piece::new("♟", Side::Black)));
        assert_eq!(a.cells.len(), 9);
        // A changed input board is drawn too; a list of boards is not one board.
        let changed = "!changed-input [[2, 2, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]]\n";
        assert_eq!(MiniChessBoards.picture_boards(changed)[0].cells.len(), 16);
        assert!(MiniChessBoards
            .picture_boards("[[[0, 1, 1], [2, 0, 0], [2, 0, 2]]]")
            .is_empty());
    }

    #[test]
    fn renders_with_and_without_highlight() {
        let board = Board::from_rows(&[[0, 1, 1], [2, 0, 0], [2, 0, 2]]).unwrap();
        assert_eq!(render_grid(&board, None), " .  w  w\n b  .  .\n b  .  b\n");
        assert_eq!(
            render_grid(&board, Some((1, 0))),
            " .  w  w\n[b] .  .\n b  .  b\n"
        );
        assert_eq!(
            render_grid(&board, Some((1, 2))),
            " .  w  w\n b  . [.]\n b  .  b\n"
        );
        // Off-board highlights are ignored rather than rejected.
        assert_eq!(render_grid(&board, Some((7, 7))), board.to_string());
    }
}
