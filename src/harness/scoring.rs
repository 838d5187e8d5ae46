//! Scores across scenarios: all-or-nothing groups.

use std::collections::BTreeMap;

use super::outcome::Outcome;
use crate::points::Points;

/// In an all-or-nothing group, every scenario scores nothing unless all of the group's
/// scenarios pass. A scenario in `error` did not pass: the group scores nothing until it is
/// run again (the submission is then marked for a re-run).
pub fn apply_groups(outcomes: &mut [Outcome]) {
    let mut group_passes: BTreeMap<String, bool> = BTreeMap::new();
    for o in outcomes.iter() {
        if let Some(group) = &o.group {
            *group_passes.entry(group.clone()).or_insert(true) &= o.verdict.passed();
        }
    }
    for o in outcomes.iter_mut() {
        if let Some(group) = &o.group {
            if !group_passes[group] {
                o.score = Points::ZERO;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn outcome(name: &str, verdict: Verdict, score: f64) -> Outcome {
        serde_json::from_value(serde_json::json!({
            "file": "s.toml", "line": 1, "name": name, "game": "g", "dialect": "d",
            "verdict": verdict, "score": score, "max_score": 2.0,
            "first_divergence": null, "steps_matched": 0, "steps_total": 1,
            "group": "all", "detail": null, "stderr_tail": null, "transcript": null,
            "visibility": "visible", "tags": [], "handout": null, "duration_ms": 0,
        }))
        .expect("an outcome")
    }

    #[test]
    fn an_error_never_counts_as_passed_in_a_group() {
        let mut outcomes = vec![
            outcome("a", Verdict::Pass, 2.0),
            outcome("b", Verdict::Error, 0.0),
        ];
        apply_groups(&mut outcomes);
        assert_eq!(
            outcomes.iter().map(|o| o.score).collect::<Vec<_>>(),
            [Points::ZERO, Points::ZERO]
        );
        let mut outcomes = vec![
            outcome("a", Verdict::Pass, 2.0),
            outcome("b", Verdict::Pass, 2.0),
        ];
        apply_groups(&mut outcomes);
        assert_eq!(
            outcomes.iter().map(|o| o.score).collect::<Vec<_>>(),
            [Points::whole(2), Points::whole(2)]
        );
    }
}
