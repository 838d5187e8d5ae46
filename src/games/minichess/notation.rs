//! The protocol's text forms of boards: written as Python prints a list of lists
//! (`[[0, 1, 1], [1, 0, 0], [2, 2, 2]]`, which is also JSON) and read back as JSON.
//!
//! Two levels: raw [`Rows`], any list of lists of integers, which is what a submission may
//! answer (wrong values and ragged rows included), and [`Board`], a valid position.

use super::board::{Board, Color};

/// A board as written: rows of integer cells, not checked for size or values.
pub type Rows = Vec<Vec<i64>>;

/// `[0, 1, 1]`.
fn row_text(row: &[i64]) -> String {
    let cells: Vec<String> = row.iter().map(i64::to_string).collect();
    format!("[{}]", cells.join(", "))
}

/// Rows as Python's `repr` prints a list of lists of ints.
pub fn rows_text(rows: &[Vec<i64>]) -> String {
    let rows: Vec<String> = rows.iter().map(|r| row_text(r)).collect();
    format!("[{}]", rows.join(", "))
}

/// A list of boards as Python's `repr` prints it.
pub fn rows_list_text(boards: &[Rows]) -> String {
    let boards: Vec<String> = boards.iter().map(|b| rows_text(b)).collect();
    format!("[{}]", boards.join(", "))
}

/// The rows of a valid board.
pub fn rows_of(board: &Board) -> Rows {
    board
        .to_rows()
        .into_iter()
        .map(|row| row.into_iter().map(i64::from).collect())
        .collect()
}

/// A board in the protocol's form.
pub fn board_text(board: &Board) -> String {
    rows_text(&rows_of(board))
}

/// A list of boards in the protocol's form.
pub fn boards_text(boards: &[Board]) -> String {
    rows_list_text(&boards.iter().map(rows_of).collect::<Vec<_>>())
}

/// The valid board these rows spell, or why they spell none.
pub fn board_of(rows: &[Vec<i64>]) -> Result<Board, String> {
    let cells: Vec<Vec<u8>> = rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(|(c, &v)| {
                    u8::try_from(v).map_err(|_| {
                        format!("cell at row {r}, column {c} holds {v} (expected 0, 1 or 2)")
                    })
                })
                .collect::<Result<Vec<u8>, String>>()
        })
        .collect::<Result<_, _>>()?;
    Board::from_rows(&cells).map_err(|e| e.to_string())
}

/// Reads one line as a single board's rows, if it is a JSON list of lists of integers.
pub fn read_rows(text: &str) -> Option<Rows> {
    serde_json::from_str(text.trim()).ok()
}

/// Reads one line as a list of boards' rows, if it is a JSON list of such lists.
pub fn read_rows_list(text: &str) -> Option<Vec<Rows>> {
    serde_json::from_str(text.trim()).ok()
}

/// Rows from a JSON value, or a message naming what is wrong.
pub fn rows_from_value(value: &serde_json::Value, what: &str) -> Result<Rows, String> {
    serde_json::from_value(value.clone())
        .map_err(|_| format!("{what} must be a list of lists of integers, got {value}"))
}

/// A list of boards' rows from a JSON value.
pub fn rows_list_from_value(value: &serde_json::Value, what: &str) -> Result<Vec<Rows>, String> {
    serde_json::from_value(value.clone())
        .map_err(|_| format!("{what} must be a list of boards (lists of lists), got {value}"))
}

/// A color from its code, as a JSON value (`1` or `2`).
pub fn color_from_value(value: &serde_json::Value) -> Result<Color, String> {
    value
        .as_u64()
        .and_then(|code| u8::try_from(code).ok())
        .and_then(|code| Color::from_code(code).ok())
        .ok_or_else(|| format!("color must be 1 (white) or 2 (black), got {value}"))
}

/// The JSON values of a command's argument text, in order (`[[0,1],[1,0]] 2` is two).
pub fn json_values(text: &str) -> Result<Vec<serde_json::Value>, String> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<serde_json::Value>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("arguments are not JSON values: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_as_python_prints() {
        let board = Board::from_rows(&[[0, 1, 1], [1, 0, 0], [2, 2, 2]]).unwrap();
        assert_eq!(board_text(&board), "[[0, 1, 1], [1, 0, 0], [2, 2, 2]]");
        assert_eq!(
            boards_text(&[board, board]),
            "[[[0, 1, 1], [1, 0, 0], [2, 2, 2]], [[0, 1, 1], [1, 0, 0], [2, 2, 2]]]"
        );
        assert_eq!(boards_text(&[]), "[]");
    }

    #[test]
    fn reads_json_with_or_without_spaces() {
        assert_eq!(
            read_rows("[[0,1],[2, 0]]"),
            Some(vec![vec![0, 1], vec![2, 0]])
        );
        assert_eq!(read_rows("None"), None);
        assert_eq!(read_rows_list("[]"), Some(vec![]));
        let values = json_values(" [[0,1,1],[1,0,0],[2,2,2]]  2 ").unwrap();
        assert_eq!(values.len(), 2);
        assert_eq!(color_from_value(&values[1]), Ok(Color::Black));
        assert!(color_from_value(&serde_json::json!(3)).is_err());
        assert!(json_values("[[0,1 2").is_err());
    }

    #[test]
    fn checks_boards_cell_by_cell() {
        assert!(board_of(&[vec![0, 1, 1], vec![0, 0, 0], vec![2, 2, 2]]).is_ok());
        let err = board_of(&[vec![0, 1, 1], vec![0, -1, 0], vec![2, 2, 2]]).unwrap_err();
        assert!(err.contains("row 1, column 1"), "{err}");
        assert!(board_of(&[vec![0, 1], vec![0, 0, 0], vec![2, 2, 2]]).is_err());
    }
}
