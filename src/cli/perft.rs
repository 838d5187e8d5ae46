//! `boardgrade perft`: chess move-generation counts, the regression check of the chess
//! engine. One position (`--fen`, `--depth`, `--divide`), or a whole suite checked against
//! its published counts (`--suite`), exiting 1 on any mismatch.

use std::io::Write;
use std::time::{Duration, Instant};

use boardgrade::error::FlagError;
use boardgrade::games::chess::epd::{parse_suite, PerftCase, STANDARD_SUITE};
use boardgrade::games::chess::Position;
use boardgrade::Error;

use super::args::PerftArgs;
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
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let nodes = if args.divide {
        let split = position.divide_parallel(depth, threads);
        for (uci, nodes) in &split {
            writeln!(out, "{uci}: {nodes}").map_err(write_error)?;
        }
        writeln!(out, "{} moves", split.len()).map_err(write_error)?;
        split.iter().map(|(_, n)| n).sum()
    } else {
        position.perft_parallel(depth, threads)
    };
    let elapsed = start.elapsed();
    writeln!(
        out,
        "depth {depth}: {nodes} nodes in {} ({})",
        seconds(elapsed),
        rate(nodes, elapsed)
    )
    .map_err(write_error)?;
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
    let budget = args.max_nodes.unwrap_or(u64::MAX);
    let mut out = std::io::stdout().lock();
    let mut totals = Totals::default();
    let started = Instant::now();
    for case in &cases {
        let line = check_case(case, budget, threads, &mut totals);
        writeln!(out, "{line}").map_err(write_error)?;
    }
    let elapsed = started.elapsed();
    let mut summary = format!(
        "{} counts checked in {} positions: {} mismatch(es); {} nodes in {} ({})",
        totals.checked,
        cases.len(),
        totals.mismatches,
        totals.nodes,
        seconds(elapsed),
        rate(totals.nodes, elapsed)
    );
    if totals.skipped > 0 {
        summary.push_str(&format!(
            "; {} count(s) above --max-nodes {budget} skipped",
            totals.skipped
        ));
    }
    writeln!(out, "\n{summary}").map_err(write_error)?;
    Ok(Status::from_passed(totals.mismatches == 0))
}

#[derive(Default)]
struct Totals {
    checked: usize,
    skipped: usize,
    mismatches: usize,
    nodes: u64,
}

/// Counts one position at each depth its line gives (within the budget) and describes
/// the result in one line.
fn check_case(case: &PerftCase, budget: u64, threads: usize, totals: &mut Totals) -> String {
    let mut depths = Vec::new();
    let mut problems = Vec::new();
    let mut skipped = Vec::new();
    let started = Instant::now();
    for &(depth, expected) in &case.counts {
        if expected > budget {
            skipped.push(format!("D{depth}"));
            totals.skipped += 1;
            continue;
        }
        let counted = case.position.perft_parallel(depth, threads);
        totals.checked += 1;
        totals.nodes += counted;
        if counted == expected {
            depths.push(format!("D{depth}"));
        } else {
            totals.mismatches += 1;
            problems.push(format!(
                "depth {depth}: expected {expected}, counted {counted}"
            ));
        }
    }
    let verdict = if !problems.is_empty() {
        "MISMATCH"
    } else if depths.is_empty() {
        "skipped"
    } else {
        "ok"
    };
    let mut line = format!("{verdict:<9}{}: {}", case.name, depths.join(" "));
    if !skipped.is_empty() {
        line.push_str(&format!(" (skipped {})", skipped.join(" ")));
    }
    line.push_str(&format!(" [{}]", seconds(started.elapsed())));
    for problem in problems {
        line.push_str(&format!(
            "\n         {problem} (position {})",
            case.position.to_fen()
        ));
    }
    line
}

fn write_error(e: std::io::Error) -> Error {
    Error::io("cannot write to stdout", e)
}

fn seconds(d: Duration) -> String {
    format!("{:.2}s", d.as_secs_f64())
}

fn rate(nodes: u64, d: Duration) -> String {
    format!(
        "{:.1} M nodes/s",
        nodes as f64 / d.as_secs_f64().max(1e-9) / 1e6
    )
}
