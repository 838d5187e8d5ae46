//! `coverage`: the rule events each game's reference reached, as a table (event, count, the
//! scenario that first reached it) with the events never reached listed last, or as JSON.

use crate::author::coverage::Coverage;

/// A table per game, then a line for each scenario not replayed and the totals.
pub fn table(coverage: &Coverage) -> String {
    let width = |f: fn(&crate::author::coverage::Row) -> usize| {
        coverage.rows.iter().map(f).max().unwrap_or(0)
    };
    let family = width(|r| r.family.len()).max("family".len());
    let event = width(|r| r.event.len()).max("event".len());
    let mut text = String::new();
    let mut game = "";
    for row in &coverage.rows {
        if row.game != game {
            game = row.game;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&format!(
                "{game}\n  {:<family$}  {:<event$}  {:>7}  first reached by\n",
                "family", "event", "count"
            ));
        }
        let first = match &row.first {
            Some(reach) => format!("{} ({})", reach.file, reach.scenario),
            None => "NEVER REACHED".to_string(),
        };
        text.push_str(&format!(
            "  {:<family$}  {:<event$}  {:>7}  {first}\n",
            row.family, row.event, row.count
        ));
    }
    for skipped in &coverage.skipped {
        text.push_str(&format!(
            "not replayed: {} ({}): {}\n",
            skipped.file, skipped.scenario, skipped.reason
        ));
    }
    let unreached: Vec<String> = coverage
        .unreached()
        .map(|r| format!("{}: {}", r.game, r.event))
        .collect();
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(&format!(
        "{} of {} rule events reached",
        coverage.rows.len() - unreached.len(),
        coverage.rows.len()
    ));
    match unreached.is_empty() {
        true => text.push('\n'),
        false => text.push_str(&format!("; never: {}\n", unreached.join(", "))),
    }
    text
}

/// The same as one JSON document: `rows` (game, family, event, count, first: file and
/// scenario, or null) and `skipped`.
pub fn json(coverage: &Coverage) -> String {
    let mut text = serde_json::to_string_pretty(coverage).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::author::coverage::{Reach, Row};

    fn coverage() -> Coverage {
        let row = |event, count: u64| Row {
            game: "toy",
            family: "castling",
            event,
            count,
            first: (count > 0).then(|| Reach {
                file: "specs/toy/castle.toml".into(),
                scenario: "castles".into(),
            }),
        };
        Coverage {
            rows: vec![row("king-side castle", 3), row("queen-side castle", 0)],
            skipped: Vec::new(),
        }
    }

    #[test]
    fn the_table_names_the_first_scenario_and_the_events_never_reached() {
        let text = table(&coverage());
        assert!(
            text.contains("king-side castle         3  specs/toy/castle.toml (castles)"),
            "{text}"
        );
        assert!(
            text.contains("queen-side castle        0  NEVER REACHED"),
            "{text}"
        );
        assert!(
            text.ends_with("1 of 2 rule events reached; never: toy: queen-side castle\n"),
            "{text}"
        );
    }

    #[test]
    fn json_has_every_row_with_a_null_for_never() {
        let value: serde_json::Value = serde_json::from_str(&json(&coverage())).unwrap();
        assert_eq!(value["rows"][0]["count"], 3);
        assert_eq!(value["rows"][0]["first"]["scenario"], "castles");
        assert!(value["rows"][1]["first"].is_null());
    }
}
