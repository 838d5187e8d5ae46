//! Every CSV file boardgrade writes (`grades.csv`, `gradebook.csv`) goes through here, so
//! that a text cell is always data and never a formula: a spreadsheet or LMS that opens the
//! file evaluates a cell starting with `=`, `+`, `-` or `@` (and some a tab or a carriage
//! return before one), and a student's folder named `=HYPERLINK("http://...")` would run as
//! one (CSV injection). Such a text cell gets a leading `'`, as OWASP advises; a number cell
//! is written as it is, so a negative number stays a number.

use std::fmt::Display;

/// One cell of a row: text (a name, an id, a message) or a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Text(String),
    Number(String),
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    pub fn number(value: impl Display) -> Cell {
        Cell::Number(value.to_string())
    }

    /// An empty cell (no value).
    pub fn empty() -> Cell {
        Cell::Number(String::new())
    }

    /// What the file holds for this cell, before CSV quoting.
    fn written(&self) -> String {
        match self {
            Cell::Number(number) => number.clone(),
            Cell::Text(text) if text.starts_with(FORMULA_STARTS) => format!("'{text}"),
            Cell::Text(text) => text.clone(),
        }
    }
}

/// The first characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Rows of cells as CSV (the `csv` crate quotes what needs quoting).
pub fn write(rows: impl IntoIterator<Item = Vec<Cell>>) -> String {
    let mut writer = csv::WriterBuilder::new()
        .flexible(false)
        .from_writer(Vec::new());
    for row in rows {
        // Writing to memory cannot fail.
        let _ = writer.write_record(row.iter().map(Cell::written));
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_a_spreadsheet_would_evaluate_is_kept_as_text() {
        let rows = vec![
            vec![
                Cell::text("=HYPERLINK(\"http:x\")"),
                Cell::number(-2.5),
                Cell::number(3),
            ],
            vec![Cell::text("+1"), Cell::text("-1"), Cell::text("@SUM(A1)")],
            vec![Cell::text("\tx"), Cell::text("\rx"), Cell::text("a=b")],
            vec![Cell::empty(), Cell::number(0), Cell::text("")],
        ];
        let text = write(rows);
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(lines[0], "\"'=HYPERLINK(\"\"http:x\"\")\",-2.5,3");
        assert_eq!(lines[1], "'+1,'-1,'@SUM(A1)");
        assert_eq!(lines[2], "'\tx,\"'\rx\",a=b");
        assert_eq!(lines[3], ",0,");
    }
}
