//! Boards found in output text, so that a report can name the cells that differ and tell a
//! wrong position from a right position printed the wrong way.

/// A board rendering found in some text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundBoard {
    /// Index of the rendering's first line in the text.
    pub first_line: usize,
    /// How many lines the rendering spans.
    pub line_count: usize,
    /// (cell name, canonical content) in a fixed order; content is `empty` for an empty cell.
    pub cells: Vec<(String, String)>,
}

/// One cell that differs between an expected and an actual board.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct CellDiff {
    pub cell: String,
    pub expected: String,
    pub actual: String,
}

impl std::fmt::Display for CellDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: expected {}, got {}",
            self.cell, self.expected, self.actual
        )
    }
}

/// A game's reader of its own board renderings.
pub trait BoardReader: Sync {
    /// Every board rendering in `text`, in order.
    fn find_boards(&self, text: &str) -> Vec<FoundBoard>;

    /// The boards in `text` that a picture draws: by default those read for comparison. A
    /// game whose answers are compared otherwise (as whole lists, say) may read boards for
    /// pictures alone here.
    fn picture_boards(&self, text: &str) -> Vec<FoundBoard> {
        self.find_boards(text)
    }

    /// How a picture lays out and fills this game's boards; `None` when the game draws none.
    fn drawing(&self) -> Option<&dyn BoardDrawing> {
        None
    }
}

/// What a picture of a game's board needs from the game.
pub trait BoardDrawing: Sync {
    /// Cells per row of `board` (its cells are in reading order, top row first).
    fn columns(&self, board: &FoundBoard) -> usize;
    /// What a cell's canonical content shows; `None` for an empty cell.
    fn piece(&self, content: &str) -> Option<Piece>;
}

/// The colour a piece is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
    /// Content the game does not know (a submission's typo): drawn as its text.
    Unknown,
}

/// A piece as a picture shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// A Unicode chess glyph, or the cell's text for unknown content.
    pub symbol: String,
    pub side: Side,
}

impl Piece {
    pub fn new(symbol: &str, side: Side) -> Self {
        Piece {
            symbol: symbol.to_string(),
            side,
        }
    }
}

/// One square of a [`Grid`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCell {
    pub name: String,
    pub piece: Option<Piece>,
}

/// A board laid out for a picture: rows of cells, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub rows: Vec<Vec<GridCell>>,
}

/// The board laid out by the game's drawing, where the game has one.
pub fn grid(reader: &dyn BoardReader, board: &FoundBoard) -> Option<Grid> {
    let drawing = reader.drawing()?;
    let columns = drawing.columns(board).max(1);
    let rows = board
        .cells
        .chunks(columns)
        .map(|row| {
            row.iter()
                .map(|(name, content)| GridCell {
                    name: name.clone(),
                    piece: drawing.piece(content),
                })
                .collect()
        })
        .collect();
    Some(Grid { rows })
}

/// The first pair of boards (expected, actual) that disagree, with the cells that differ.
/// Boards are paired in order of appearance, and cells by name.
pub fn first_difference(
    reader: &dyn BoardReader,
    expected: &str,
    actual: &str,
) -> Option<(FoundBoard, FoundBoard, Vec<CellDiff>)> {
    pair_up(reader.find_boards(expected), reader.find_boards(actual))
}

/// The same, among the boards a picture draws ([`BoardReader::picture_boards`]).
pub fn drawn_difference(
    reader: &dyn BoardReader,
    expected: &str,
    actual: &str,
) -> Option<(FoundBoard, FoundBoard, Vec<CellDiff>)> {
    pair_up(
        reader.picture_boards(expected),
        reader.picture_boards(actual),
    )
}

/// The first pair of boards, in order of appearance, whose cells differ.
fn pair_up(
    expected: Vec<FoundBoard>,
    actual: Vec<FoundBoard>,
) -> Option<(FoundBoard, FoundBoard, Vec<CellDiff>)> {
    for (e, a) in expected.into_iter().zip(actual) {
        let diffs = paired_diffs(&e, &a);
        if !diffs.is_empty() {
            return Some((e, a, diffs));
        }
    }
    None
}

/// The cells that differ between the first pair of boards (expected, actual) that disagree.
/// Boards are paired in order of appearance.
pub fn cell_diffs(reader: &dyn BoardReader, expected: &str, actual: &str) -> Vec<CellDiff> {
    first_difference(reader, expected, actual)
        .map(|(_, _, diffs)| diffs)
        .unwrap_or_default()
}

/// The cells that differ between two boards; none when they do not pair up (other sizes or
/// cell names).
fn paired_diffs(e: &FoundBoard, a: &FoundBoard) -> Vec<CellDiff> {
    // Cells are matched by name, so a board printed in another order still pairs up.
    let by_name: std::collections::HashMap<&str, &str> = a
        .cells
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    if e.cells.len() != a.cells.len()
        || e.cells
            .iter()
            .any(|(n, _)| !by_name.contains_key(n.as_str()))
    {
        return Vec::new();
    }
    e.cells
        .iter()
        .filter(|(name, ev)| by_name[name.as_str()] != ev.as_str())
        .map(|(name, ev)| CellDiff {
            cell: name.clone(),
            expected: ev.clone(),
            actual: by_name[name.as_str()].to_string(),
        })
        .collect()
}

/// The text with each board rendering replaced by its cells and all other whitespace
/// folded: two outputs with the same canonical form say the same thing, differently printed.
pub fn canonical(reader: &dyn BoardReader, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let boards = reader.find_boards(text);
    let mut out = Vec::new();
    let mut line = 0;
    let mut next_board = boards.iter().peekable();
    while line < lines.len() {
        if let Some(board) = next_board.next_if(|b| b.first_line == line) {
            let cells: Vec<String> = board
                .cells
                .iter()
                .map(|(name, content)| format!("{name}={content}"))
                .collect();
            out.push(format!("[board {}]", cells.join(" ")));
            line += board.line_count.max(1);
            continue;
        }
        let folded = lines[line].split_whitespace().collect::<Vec<_>>().join(" ");
        if !folded.is_empty() {
            out.push(folded);
        }
        line += 1;
    }
    out.join("\n")
}

/// A reader for games without a board reader of their own: finds nothing.
pub struct NoBoards;

impl BoardReader for NoBoards {
    fn find_boards(&self, _text: &str) -> Vec<FoundBoard> {
        Vec::new()
    }
}
