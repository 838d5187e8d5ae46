//! Solves miniChess from the start position on growing boards and prints, per size, the
//! value for White, the positions searched, the transposition-table size and memory, and the
//! wall time.
//!
//! `cargo bench --bench minichess_solve` solves 3 x 3 to 6 x 6. Set `MINICHESS_MAX_SIZE`
//! (3 to 8) to go further or stop sooner, and `MINICHESS_BUDGET` to give up after that many
//! positions per board: 7 x 7 needs far more time and memory than 6 x 6.

use std::time::Instant;

use boardgrade::games::minichess::{Board, Color, Solver, Value};

const DEFAULT_MAX_SIZE: usize = 6;

fn main() {
    let max_size = env_number("MINICHESS_MAX_SIZE").map_or(DEFAULT_MAX_SIZE, |n| n as usize);
    let budget = env_number("MINICHESS_BUDGET");
    println!(
        "{:>4}  {:<11}  {:>14}  {:>12}  {:>10}  {:>10}",
        "size", "value", "positions", "tt entries", "tt memory", "time"
    );
    for size in 3..=max_size {
        let board = match Board::start(size) {
            Ok(board) => board,
            Err(err) => {
                eprintln!("skipping size {size}: {err}");
                continue;
            }
        };
        let mut solver = budget.map_or_else(Solver::new, Solver::with_budget);
        let started = Instant::now();
        let value = match solver.solve(&board, Color::White) {
            Ok(solution) if solution.value == Value::Win => "White wins",
            Ok(_) => "Black wins",
            Err(_) => "unsettled",
        };
        let elapsed = started.elapsed();
        let stats = solver.stats();
        println!(
            "{:>4}  {:<11}  {:>14}  {:>12}  {:>7.1} MiB  {:>8.3} s",
            format!("{size}x{size}"),
            value,
            stats.positions,
            stats.table_entries,
            stats.table_bytes as f64 / (1024.0 * 1024.0),
            elapsed.as_secs_f64()
        );
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
