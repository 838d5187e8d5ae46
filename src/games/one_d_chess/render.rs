//! The board as both handouts print it, and reading it (or a board list) back out of text.

use super::engine::{Board, Piece, CELLS};
use crate::games::board_text::{BoardDrawing, Piece as Drawn, Side};
use crate::games::{BoardReader, FoundBoard};

/// `+-----...-----+`: as wide as the row line.
fn rule() -> String {
    format!("+{}+", "-".repeat(CELLS * 6 - 1))
}

/// The three lines of the board, without a final newline. An empty cell shows as three
/// spaces.
pub fn render(board: &Board) -> String {
    let mut row = String::new();
    for cell in board.cells() {
        row.push_str("| ");
        row.push_str(cell.map_or("   ", |p| p.code()));
        row.push(' ');
    }
    row.push('|');
    let rule = rule();
    format!("{rule}\n{row}\n{rule}")
}

/// The board as Python prints the list, with `empty` as the empty cell's string.
pub fn list_repr(board: &Board, empty: &str) -> String {
    let items: Vec<String> = board
        .cells()
        .iter()
        .map(|c| format!("'{}'", c.map_or(empty, |p| p.code())))
        .collect();
    format!("[{}]", items.join(", "))
}

/// How a rendering writes cells.
#[derive(Clone, Copy)]
enum Form {
    /// A printed row: spacing is presentation, and an empty cell may read blank or `EMPTY`.
    Printed,
    /// A board list: each item is data, so only `EMPTY` is an empty cell.
    List,
}

/// Canonical cell content for reports: the piece code, `empty`, or the text as found.
fn canonical_cell(text: &str, form: Form) -> String {
    let item = match form {
        Form::Printed => text.trim(),
        Form::List => text,
    };
    match Piece::from_code(item) {
        Some(piece) => piece.code().to_string(),
        None if item == "EMPTY" || (matches!(form, Form::Printed) && item.is_empty()) => {
            "empty".to_string()
        }
        None => format!("{item:?}"),
    }
}

fn cells_of(items: &[&str], form: Form) -> Vec<(String, String)> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| (format!("cell {i}"), canonical_cell(item, form)))
        .collect()
}

/// `| WKi | WKn | ... |` with nine cells.
fn row_cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    let items: Vec<&str> = inner.split('|').collect();
    (items.len() == CELLS).then_some(items)
}

/// `['WKi', 'WKn', ...]` with nine items (either quote).
fn list_cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let items: Vec<&str> = inner
        .split(',')
        .map(|s| {
            let s = s.trim();
            s.strip_prefix('\'')
                .and_then(|s| s.strip_suffix('\''))
                .or_else(|| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
                .unwrap_or(s)
        })
        .collect();
    (items.len() == CELLS).then_some(items)
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() > 2
        && t.starts_with('+')
        && t.ends_with('+')
        && t[1..t.len() - 1].chars().all(|c| c == '-')
}

/// Reads 1D chess boards: the printed three lines (rules optional) and board lists.
pub struct OneDBoards;

impl BoardReader for OneDBoards {
    fn find_boards(&self, text: &str) -> Vec<FoundBoard> {
        let lines: Vec<&str> = text.lines().collect();
        let mut found = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            if let Some(items) = row_cells(lines[i]) {
                // The rule above belongs to this board unless the previous board took it.
                let free = |line: usize| {
                    found
                        .last()
                        .is_none_or(|b: &FoundBoard| b.first_line + b.line_count <= line)
                };
                let above = i > 0 && is_rule(lines[i - 1]) && free(i - 1);
                let below = i + 1 < lines.len() && is_rule(lines[i + 1]);
                let first_line = if above { i - 1 } else { i };
                let last_line = if below { i + 1 } else { i };
                found.push(FoundBoard {
                    first_line,
                    line_count: last_line - first_line + 1,
                    cells: cells_of(&items, Form::Printed),
                });
                i = last_line + 1;
            } else if let Some(items) = list_cells(lines[i]) {
                found.push(FoundBoard {
                    first_line: i,
                    line_count: 1,
                    cells: cells_of(&items, Form::List),
                });
                i += 1;
            } else {
                i += 1;
            }
        }
        found
    }

    fn drawing(&self) -> Option<&dyn BoardDrawing> {
        Some(self)
    }
}

impl BoardDrawing for OneDBoards {
    /// One row: the strip of cells.
    fn columns(&self, board: &FoundBoard) -> usize {
        board.cells.len()
    }

    fn piece(&self, content: &str) -> Option<Drawn> {
        let (glyph, side) = match content {
            "empty" => return None,
            "WKi" => ("♔", Side::White),
            "WKn" => ("♘", Side::White),
            "BKi" => ("♚", Side::Black),
            "BKn" => ("♞", Side::Black),
            // Content the board reader kept as written, quoted.
            other => (other.trim_matches('"'), Side::Unknown),
        };
        Some(Drawn::new(glyph, side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_text::{canonical, cell_diffs};

    const START: &str = "+-----------------------------------------------------+\n\
                         | WKi | WKn | WKn |     |     |     | BKn | BKn | BKi |\n\
                         +-----------------------------------------------------+";

    #[test]
    fn renders_the_handout_board() {
        assert_eq!(render(&Board::start()), START);
        assert_eq!(
            list_repr(&Board::start(), "EMPTY"),
            "['WKi', 'WKn', 'WKn', 'EMPTY', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']"
        );
    }

    #[test]
    fn reads_boards_back_and_names_cells() {
        let moved = START.replace(
            "| WKn |     |     |     | BKn",
            "| WKn |     |     | BKn |     ",
        );
        let diffs = cell_diffs(&OneDBoards, START, &moved);
        let named: Vec<String> = diffs.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            named,
            [
                "cell 5: expected empty, got BKn",
                "cell 6: expected BKn, got empty"
            ]
        );
        let list = "['WKi', 'WKn', 'WKn', 'EMPTY', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']";
        assert_eq!(
            OneDBoards.find_boards(list)[0].cells,
            OneDBoards.find_boards(START)[0].cells
        );
    }

    #[test]
    fn same_cells_printed_differently_have_the_same_canonical_form() {
        let spaced = START.replace("BKi |", "BKi | ");
        let with_empty = START.replace("|     |     |     |", "|EMPTY|EMPTY|EMPTY|");
        let short_rule = START.replacen("--+", "+", 1);
        for variant in [spaced, with_empty, short_rule] {
            assert_ne!(variant, START);
            assert_eq!(
                canonical(&OneDBoards, &variant),
                canonical(&OneDBoards, START)
            );
        }
        let moved = START.replace("WKi | WKn", "WKn | WKi");
        assert_ne!(
            canonical(&OneDBoards, &moved),
            canonical(&OneDBoards, START)
        );
    }
}
