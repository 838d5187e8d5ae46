//! Perft speed and correctness: boardgrade's chess engine and shakmaty on the same
//! positions, both checked against `tests/data/chess-perft.epd`.
//!
//! `cargo bench --bench chess_perft` runs every position at the deepest depth whose count
//! is at most 20 million; `cargo bench --bench chess_perft -- --deep` (or the environment
//! variable `CHESS_PERFT_DEEP=1`) runs the deepest depth of each table instead. Exits with
//! status 1 if either engine disagrees with the table.

use boardgrade::games::chess::epd::{parse_suite, PerftCase, STANDARD_SUITE};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const QUICK_MAX_NODES: u64 = 20_000_000;

fn timed(run: impl FnOnce() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let nodes = run();
    (nodes, start.elapsed())
}

fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

/// The depth to run for a case: the deepest whose count fits the budget.
fn chosen(case: &PerftCase, max_nodes: u64) -> Option<(u32, u64)> {
    case.counts
        .iter()
        .copied()
        .filter(|&(_, nodes)| nodes <= max_nodes)
        .max_by_key(|&(depth, _)| depth)
}

fn main() -> ExitCode {
    let deep = std::env::args().any(|a| a == "--deep")
        || std::env::var_os("CHESS_PERFT_DEEP").is_some_and(|v| v != "0");
    let max_nodes = if deep { u64::MAX } else { QUICK_MAX_NODES };
    let cases = parse_suite(STANDARD_SUITE).expect("the perft suite parses");

    // Build lookup tables and warm caches before timing either engine.
    let warm_up = boardgrade::games::chess::Position::startpos();
    black_box(warm_up.perft(4));
    black_box(shakmaty::perft(&Chess::default(), 4));

    println!(
        "{:<44} {:>2} {:>12} {:>10} {:>10} {:>6}",
        "position", "d", "nodes", "ours Mn/s", "shak Mn/s", "ratio"
    );
    let (mut total_nodes, mut ours_total, mut theirs_total) =
        (0u64, Duration::ZERO, Duration::ZERO);
    let mut mismatches = Vec::new();
    for case in &cases {
        let Some((depth, expected)) = chosen(case, max_nodes) else {
            continue;
        };
        let fen = case.position.to_fen();
        let theirs: Chess = fen
            .parse::<Fen>()
            .expect("shakmaty reads the FEN")
            .into_position(CastlingMode::Standard)
            .expect("shakmaty accepts the position");

        let (ours_nodes, ours_time) = timed(|| case.position.perft(black_box(depth)));
        let (their_nodes, their_time) = timed(|| shakmaty::perft(&theirs, black_box(depth)));
        for (engine, nodes) in [("boardgrade", ours_nodes), ("shakmaty", their_nodes)] {
            if nodes != expected {
                mismatches.push(format!(
                    "{engine}: {} depth {depth}: {nodes} != {expected}",
                    case.name
                ));
            }
        }
        total_nodes += expected;
        ours_total += ours_time;
        theirs_total += their_time;
        let name: String = case.name.chars().take(44).collect();
        println!(
            "{name:<44} {depth:>2} {expected:>12} {:>10.1} {:>10.1} {:>6.2}",
            rate(ours_nodes, ours_time),
            rate(their_nodes, their_time),
            their_time.as_secs_f64() / ours_time.as_secs_f64().max(1e-9)
        );
    }
    println!(
        "{:<44} {:>2} {total_nodes:>12} {:>10.1} {:>10.1} {:>6.2}",
        "total",
        "",
        rate(total_nodes, ours_total),
        rate(total_nodes, theirs_total),
        theirs_total.as_secs_f64() / ours_total.as_secs_f64().max(1e-9)
    );
    println!("ratio = boardgrade speed / shakmaty speed (above 1: boardgrade is faster)");

    if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        for m in &mismatches {
            eprintln!("MISMATCH {m}");
        }
        ExitCode::FAILURE
    }
}
