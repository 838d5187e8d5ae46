//! Perft suites in the EPD-like format of `tests/data/chess-perft.epd`:
//!
//! ```text
//! # Kiwipete
//! r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039
//! ```
//!
//! A `#` line names the position on the next data line; blank lines are ignored.

use super::fen::FenError;
use super::position::Position;

/// The suite shipped with boardgrade (published perft tables).
pub const STANDARD_SUITE: &str = include_str!("../../../tests/data/chess-perft.epd");

/// One position and its known leaf counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub name: String,
    pub position: Position,
    /// `(depth, nodes)` in the order written.
    pub counts: Vec<(u32, u64)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    #[error("line {line}: {source}")]
    Fen { line: usize, source: FenError },
    #[error("line {line}: bad count `{text}` (expected `;D<depth> <nodes>`)")]
    Count { line: usize, text: String },
}

/// Parses a whole suite.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, EpdError> {
    let mut cases = Vec::new();
    let mut name = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix('#') {
            name = Some(comment.trim().to_string());
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen = parts.next().unwrap_or_default();
        let position = Position::from_fen(fen).map_err(|source| EpdError::Fen { line, source })?;
        let counts = parts
            .map(|part| {
                parse_count(part).ok_or_else(|| EpdError::Count {
                    line,
                    text: part.trim().to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        cases.push(PerftCase {
            name: name.take().unwrap_or_else(|| fen.trim().to_string()),
            position,
            counts,
        });
    }
    Ok(cases)
}

fn parse_count(part: &str) -> Option<(u32, u64)> {
    let (depth, nodes) = part.trim().strip_prefix('D')?.split_once(' ')?;
    Some((depth.parse().ok()?, nodes.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_fens_and_counts() {
        let text = "# Start\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n";
        let cases = parse_suite(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].name, "Start");
        assert_eq!(cases[0].position, Position::startpos());
        assert_eq!(cases[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(cases[1].name, "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn reports_the_bad_line() {
        let err = parse_suite("# x\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: bad count `D1 three` (expected `;D<depth> <nodes>`)"
        );
        let err = parse_suite("8/8/8 w - - 0 1 ;D1 3\n").unwrap_err();
        assert!(err.to_string().starts_with("line 1: piece placement"));
    }

    #[test]
    fn standard_suite_is_well_formed() {
        let cases = parse_suite(STANDARD_SUITE).unwrap();
        assert!(cases.len() >= 7);
        assert!(cases.iter().all(|c| !c.counts.is_empty()));
    }
}
