//! `boardgrade perft`: chess move-generation counts, the regression check of the chess
//! engine. One position (`--fen`, `--depth`, `--divide`), or a whole suite checked against
//! its published counts (`--suite`), exiting 1 on any mismatch.

use std::time::Instant;

use boardgrade::error::FlagError;
use boardgrade::games::chess::epd::{parse_suite, PerftCase, STANDARD_SUITE};
use boardgrade::games::chess::Position;
use boardgrade::report::perft::{self, CaseChecked, SuiteTotals};
use boardgrade::Error;

use super::args::PerftArgs;
use super::console::say;
use super::exit::Status;

pub fn run(args: &PerftArgs) -> Result<Status, Error> {
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let threads = threads.max(1);
    if args.suite {
        return suite(args, threads);
    }
    let position = match &args.fen {
        None => Position::startpos(),
        Some(fen) => {
            Position::from_fen(fen).map_err(|e| FlagError::value("--fen", fen, e.to_string()))?
        }
    };
    let depth = args.depth.ok_or(FlagError::Missing {
        what: "--depth N (or --suite)",
    })?;
    let start = Instant::now();
    let nodes = if args.divide {
        let split = position.divide_parallel(depth, threads);
        say(&perft::divided(&split))?;
        split.iter().map(|(_, n)| n).sum()
    } else {
        position.perft_parallel(depth, threads)
    };
    say(&perft::counted(depth, nodes, start.elapsed()))?;
    Ok(Status::Passed)
}

/// Checks every count of the suite up to the node budget.
fn suite(args: &PerftArgs, threads: usize) -> Result<Status, Error> {
    let (label, text) = match &args.epd {
        None => ("the bundled suite".to_string(), STANDARD_SUITE.to_string()),
        Some(path) => (
            path.display().to_string(),
            std::fs::read_to_string(path)
                .map_err(|e| Error::path(path, format!("cannot read: {e}")))?,
        ),
    };
    let cases = parse_suite(&text).map_err(|e| Error::Parse {
        file: label,
        message: e.to_string(),
    })?;
    let mut totals = SuiteTotals {
        positions: cases.len(),
        budget: args.max_nodes.unwrap_or(u64::MAX),
        ..SuiteTotals::default()
    };
    let started = Instant::now();
    for case in &cases {
        let checked = check_case(case, threads, &mut totals);
        say(&perft::case(&checked))?;
    }
    totals.elapsed = started.elapsed();
    say(&perft::suite(&totals))?;
    Ok(Status::from_passed(totals.mismatches == 0))
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
