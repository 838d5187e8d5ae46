//! `perft`: move-generation counts of one position, or a suite checked against its
//! published counts. The counting is the game's; this renders what it found.

use std::time::Duration;

pub use crate::author::perft::{CaseChecked, SuiteTotals};

/// `move: nodes` of a divided count, then the number of moves.
pub fn divided(split: &[(String, u64)]) -> String {
    let mut text: String = split
        .iter()
        .map(|(uci, nodes)| format!("{uci}: {nodes}\n"))
        .collect();
    text.push_str(&format!("{} moves\n", split.len()));
    text
}

/// The count at `depth` and how fast it was made.
pub fn counted(depth: u32, nodes: u64, elapsed: Duration) -> String {
    format!(
        "depth {depth}: {nodes} nodes in {} ({})\n",
        seconds(elapsed),
        rate(nodes, elapsed)
    )
}

/// A line for a position of a suite (and one more per mismatch).
pub fn case(case: &CaseChecked) -> String {
    let verdict = if !case.mismatches.is_empty() {
        "MISMATCH"
    } else if case.matched.is_empty() {
        "skipped"
    } else {
        "ok"
    };
    let depths = |depths: &[u32]| {
        depths
            .iter()
            .map(|d| format!("D{d}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut line = format!("{verdict:<9}{}: {}", case.name, depths(&case.matched));
    if !case.skipped.is_empty() {
        line.push_str(&format!(" (skipped {})", depths(&case.skipped)));
    }
    line.push_str(&format!(" [{}]", seconds(case.elapsed)));
    for (depth, expected, counted) in &case.mismatches {
        line.push_str(&format!(
            "\n         depth {depth}: expected {expected}, counted {counted} (position {})",
            case.position
        ));
    }
    line.push('\n');
    line
}

/// The suite's summary, after a blank line.
pub fn suite(totals: &SuiteTotals) -> String {
    let mut summary = format!(
        "\n{} counts checked in {} positions: {} mismatch(es); {} nodes in {} ({})",
        totals.checked,
        totals.positions,
        totals.mismatches,
        totals.nodes,
        seconds(totals.elapsed),
        rate(totals.nodes, totals.elapsed)
    );
    if totals.skipped > 0 {
        summary.push_str(&format!(
            "; {} count(s) above --max-nodes {} skipped",
            totals.skipped, totals.budget
        ));
    }
    summary.push('\n');
    summary
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_names_the_depth_the_counts_and_the_position() {
        let checked = CaseChecked {
            name: "Start".into(),
            position: "8/8 w - - 0 1".into(),
            matched: vec![1],
            skipped: vec![4],
            mismatches: vec![(2, 400, 399)],
            elapsed: Duration::from_millis(1500),
        };
        assert_eq!(
            case(&checked),
            "MISMATCH Start: D1 (skipped D4) [1.50s]\n         depth 2: expected 400, counted \
             399 (position 8/8 w - - 0 1)\n"
        );
    }
}
