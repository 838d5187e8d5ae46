//! Scores across scenarios: all-or-nothing groups.

use std::collections::BTreeMap;

use super::outcome::{Outcome, Verdict};

/// In an all-or-nothing group, every scenario scores nothing unless all of the group's
/// scenarios pass. Scenarios in `error` are the harness's problem and do not count.
pub fn apply_groups(outcomes: &mut [Outcome]) {
    let mut group_passes: BTreeMap<String, bool> = BTreeMap::new();
    for o in outcomes.iter() {
        if let Some(group) = &o.group {
            let passed = o.verdict.passed() || o.verdict == Verdict::Error;
            *group_passes.entry(group.clone()).or_insert(true) &= passed;
        }
    }
    for o in outcomes.iter_mut() {
        if let Some(group) = &o.group {
            if !group_passes[group] {
                o.score = 0.0;
            }
        }
    }
}

/// A number of points or a percentage as people write it: no decimals when whole, else at
/// most two, without trailing zeros (`1`, `0.5`, `66.67`).
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{:.2}", x).trim_end_matches('0').to_string()
    }
}
