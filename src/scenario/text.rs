//! Course files (scenarios, course policies, variants) as text: UTF-8, and where a file is
//! not, the line and column of the first byte that is not, so the author can find it.

use std::path::Path;

/// Why a course file is not text to read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("cannot read: {0}")]
    Unreadable(String),
    /// The first byte that is not UTF-8, by its 1-based line and column (in characters).
    #[error(
        "not UTF-8 text: line {line}, column {column} holds the byte 0x{byte:02x} (save the \
         file as UTF-8)"
    )]
    NotUtf8 {
        line: usize,
        column: usize,
        byte: u8,
    },
}

impl TextError {
    /// The line and column at fault, where there is one.
    pub fn place(&self) -> Option<(usize, usize)> {
        match self {
            TextError::NotUtf8 { line, column, .. } => Some((*line, *column)),
            TextError::Unreadable(_) => None,
        }
    }
}

/// The text of the file at `path`.
pub fn read(path: &Path) -> Result<String, TextError> {
    let bytes = std::fs::read(path).map_err(|e| TextError::Unreadable(e.to_string()))?;
    utf8(bytes)
}

/// `bytes` as text, or where the first byte that is not UTF-8 is.
pub fn utf8(bytes: Vec<u8>) -> Result<String, TextError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let valid = e.utf8_error().valid_up_to();
        let before = String::from_utf8_lossy(&bytes[..valid]);
        TextError::NotUtf8 {
            line: before.matches('\n').count() + 1,
            column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            byte: bytes.get(valid).copied().unwrap_or(0),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bad_byte_is_named_by_line_and_column() {
        let why = utf8(b"name = \"x\"\nsend = \"caf\xe9\"\n".to_vec())
            .unwrap_err()
            .to_string();
        assert!(why.contains("line 2, column 12"), "{why}");
        assert!(why.contains("0xe9"), "{why}");
        let why = utf8(b"\xff".to_vec()).unwrap_err();
        assert_eq!(why.place(), Some((1, 1)));
        let why = why.to_string();
        assert!(why.contains("line 1, column 1"), "{why}");
        // Characters before it count once each, whatever their length in bytes.
        let why = utf8("é = 1\n€€\u{0}\x7f".bytes().chain([0x80]).collect()).unwrap_err();
        let why = why.to_string();
        assert!(why.contains("line 2, column 5"), "{why}");
        assert_eq!(utf8(b"ok\n".to_vec()).unwrap(), "ok\n");
    }
}
