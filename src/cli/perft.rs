//! `boardgrade perft`: chess move-generation counts, the regression check of the chess
//! engine. One position (`--fen`, `--depth`, `--divide`), or a whole suite checked against
//! its published counts (`--suite`), exiting 1 on any mismatch.

use std::time::Instant;

use boardgrade::author::perft::{check_suite, position, suite};
use boardgrade::error::FlagError;
use boardgrade::report::perft;
use boardgrade::Error;

use super::args::PerftArgs;
use super::console::say;
use super::exit::Status;

/// The deepest count `--depth` asks for: depth 7 of the start position is 3.2 billion
/// moves, minutes on a laptop; every command ends.
pub const MAX_DEPTH: u32 = 7;

pub fn run(args: &PerftArgs) -> Result<Status, Error> {
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    if args.suite {
        let cases = suite(args.epd.as_deref())?;
        let budget = args.max_nodes.unwrap_or(u64::MAX);
        let totals = check_suite(&cases, threads, budget, |case| say(&perft::case(case)))?;
        say(&perft::suite(&totals))?;
        return Ok(Status::from_passed(totals.mismatches == 0));
    }
    let position = position(args.fen.as_deref())?;
    let depth = args.depth.ok_or(FlagError::Missing {
        what: "--depth N (or --suite)",
    })?;
    if depth > MAX_DEPTH {
        return Err(FlagError::value(
            "--depth",
            depth,
            format!(
                "at most {MAX_DEPTH}: a deeper count takes hours (each ply multiplies the \
                 moves by about 30)"
            ),
        )
        .into());
    }
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
