//! The standings of a submission's match scenarios: how strong its player is, as numbers a
//! class can be ranked by (Gradescope's `leaderboard`, and the same columns in `grades.csv`).
//!
//! A won game is one point. The columns are the points over all games, the points against
//! each opponent, and the points against the strongest opponent on each board size. Only
//! matches visible to students count: a leaderboard is public, so a hidden or not yet
//! released match must not show through it.

use serde::Serialize;

use super::SubmissionResult;
use crate::harness::matchplay::Record;
use crate::scenario::Visibility;

/// The reference player that never loses a won position: its column per board size shows
/// who beats it where it can be beaten.
const STRONGEST: &str = "perfect";

/// One column of the leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Standing {
    pub name: String,
    pub value: f64,
}

/// The records of the submission's visible match scenarios.
fn visible_records(result: &SubmissionResult) -> impl Iterator<Item = &Record> {
    result
        .scenarios
        .iter()
        .filter(|o| o.visibility == Visibility::Visible)
        .filter_map(|o| o.matches.as_ref())
        .flat_map(|m| m.records.iter())
}

/// What a column counts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Column {
    All,
    Opponent(String),
    OpponentOnSize(String, usize),
}

impl Column {
    fn name(&self) -> String {
        match self {
            Column::All => "points".to_string(),
            Column::Opponent(o) => format!("points vs {o}"),
            Column::OpponentOnSize(o, n) => format!("points vs {o} {n}x{n}"),
        }
    }

    fn counts(&self, r: &Record) -> bool {
        match self {
            Column::All => true,
            Column::Opponent(o) => &r.opponent == o,
            Column::OpponentOnSize(o, n) => &r.opponent == o && r.size == *n,
        }
    }

    /// Games won among the records this column counts.
    fn points(&self, records: &[&Record]) -> f64 {
        records
            .iter()
            .filter(|r| self.counts(r))
            .map(|r| r.won as f64)
            .sum()
    }
}

/// The columns, in order, for these records: none when there are no records.
fn columns<'a>(records: impl Iterator<Item = &'a Record>) -> Vec<Column> {
    let mut opponents: Vec<&str> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    for r in records {
        if !opponents.contains(&r.opponent.as_str()) {
            opponents.push(&r.opponent);
        }
        if r.opponent == STRONGEST && !sizes.contains(&r.size) {
            sizes.push(r.size);
        }
    }
    if opponents.is_empty() {
        return Vec::new();
    }
    sizes.sort_unstable();
    let mut columns = vec![Column::All];
    columns.extend(opponents.iter().map(|o| Column::Opponent(o.to_string())));
    columns.extend(
        sizes
            .iter()
            .map(|&n| Column::OpponentOnSize(STRONGEST.to_string(), n)),
    );
    columns
}

/// The submission's standings; empty when it played no visible match.
pub fn standings(result: &SubmissionResult) -> Vec<Standing> {
    let records: Vec<&Record> = visible_records(result).collect();
    columns(records.iter().copied())
        .iter()
        .map(|column| Standing {
            name: column.name(),
            value: column.points(&records),
        })
        .collect()
}

/// The leaderboard columns of a class (every column any submission has) and each
/// submission's values in them (empty where it has none), for `grades.csv`.
pub fn class_columns(results: &[SubmissionResult]) -> (Vec<String>, Vec<Vec<Option<f64>>>) {
    let columns = columns(results.iter().flat_map(visible_records));
    let rows = results
        .iter()
        .map(|result| {
            let records: Vec<&Record> = visible_records(result).collect();
            columns
                .iter()
                .map(|column| (!records.is_empty()).then(|| column.points(&records)))
                .collect()
        })
        .collect();
    (columns.iter().map(Column::name).collect(), rows)
}
