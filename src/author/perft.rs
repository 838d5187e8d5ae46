//! `perft`: the chess engine's move-generation counts of one position, or a suite of
//! positions checked against their published counts (the engine's regression check).
//! The counting is the engine's; this runs it, keeps the node budget and the totals, and
//! tells each checked position as it is done, which `report::perft` renders.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::{Error, FlagError};
use crate::games::chess::epd::{parse_suite, PerftCase, STANDARD_SUITE};
use crate::games::chess::Position;

/// One position of a suite, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseChecked {
    pub name: String,
    /// The position, shown beside a mismatch.
    pub position: String,
    /// Depths whose count matched.
    pub matched: Vec<u32>,
    /// Depths above the node budget, not counted.
    pub skipped: Vec<u32>,
    /// `(depth, expected, counted)` of each count that differs.
    pub mismatches: Vec<(u32, u64, u64)>,
    pub elapsed: Duration,
}

/// A whole suite's totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SuiteTotals {
    pub positions: usize,
    pub checked: usize,
    pub skipped: usize,
    pub mismatches: usize,
    pub nodes: u64,
    /// No count above this many nodes is made.
    pub budget: u64,
    pub elapsed: Duration,
}

/// The position `--fen` gives, or the start position.
pub fn position(fen: Option<&str>) -> Result<Position, Error> {
    match fen {
        None => Ok(Position::startpos()),
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| FlagError::value("--fen", fen, e.to_string()).into()),
    }
}

/// The suite of the EPD file at `path`, or the bundled one.
pub fn suite(path: Option<&Path>) -> Result<Vec<PerftCase>, Error> {
    let (label, text) = match path {
        None => ("the bundled suite".to_string(), STANDARD_SUITE.to_string()),
        Some(path) => (
            path.display().to_string(),
            std::fs::read_to_string(path)
                .map_err(|e| Error::path(path, format!("cannot read: {e}")))?,
        ),
    };
    parse_suite(&text).map_err(|e| Error::Parse {
        file: label,
        message: e.to_string(),
    })
}

/// Checks every count of `cases` up to `budget` nodes, on `threads` threads, telling
/// each position as it is done.
pub fn check_suite(
    cases: &[PerftCase],
    threads: usize,
    budget: u64,
    mut checked: impl FnMut(&CaseChecked) -> Result<(), Error>,
) -> Result<SuiteTotals, Error> {
    let mut totals = SuiteTotals {
        positions: cases.len(),
        budget,
        ..SuiteTotals::default()
    };
    let started = Instant::now();
    for case in cases {
        checked(&check_case(case, threads, &mut totals))?;
    }
    totals.elapsed = started.elapsed();
    Ok(totals)
}

/// Counts one position at each depth its line gives (within the budget).
fn check_case(case: &PerftCase, threads: usize, totals: &mut SuiteTotals) -> CaseChecked {
    let mut checked = CaseChecked {
        name: case.name.clone(),
        position: case.position.to_fen(),
        ..CaseChecked::default()
    };
    let started = Instant::now();
    for &(depth, expected) in &case.counts {
        if expected > totals.budget {
            checked.skipped.push(depth);
            totals.skipped += 1;
            continue;
        }
        let counted = case.position.perft_parallel(depth, threads);
        totals.checked += 1;
        totals.nodes += counted;
        if counted == expected {
            checked.matched.push(depth);
        } else {
            totals.mismatches += 1;
            checked.mismatches.push((depth, expected, counted));
        }
    }
    checked.elapsed = started.elapsed();
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str = "\
# Start
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
";

    #[test]
    fn counts_above_the_budget_are_skipped_and_a_wrong_count_is_a_mismatch() {
        let cases = parse_suite(SUITE).unwrap();
        let mut told = Vec::new();
        let totals = check_suite(&cases, 1, 1000, |case| {
            told.push(case.clone());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            (totals.checked, totals.skipped, totals.mismatches),
            (2, 1, 0)
        );
        assert_eq!(totals.nodes, 420);
        assert_eq!(told.len(), 1);
        assert_eq!(
            (told[0].matched.clone(), told[0].skipped.clone()),
            (vec![1, 2], vec![3])
        );

        let wrong = parse_suite(&SUITE.replace(";D2 400", ";D2 401")).unwrap();
        let totals = check_suite(&wrong, 2, 1000, |_| Ok(())).unwrap();
        assert_eq!(totals.mismatches, 1);
    }

    #[test]
    fn a_bad_fen_names_the_flag() {
        let error = position(Some("8/8/8 w - - 0 1")).unwrap_err().to_string();
        assert!(error.contains("--fen"), "{error}");
    }
}
