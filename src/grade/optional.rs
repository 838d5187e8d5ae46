//! Optional parts of a handout are graded only where the course sets them: a scenario about
//! a part its course policy does not set (a pown challenge, say) is left out of `test` and
//! `grade` alike, so a program that does what the handout requires scores full marks from
//! the shipped specs. Each dialect whose scenarios are left out gets one note naming the
//! `course.toml` line that would grade them.

use crate::games::Dialect;
use crate::policy::CODE_CHECKS;
use crate::scenario::Scenario;

/// The note on a dialect's scenarios (or code checks) left out, and the dialect: a student's
/// self-check shows the notes of the dialect its file is graded as, not every other's.
#[derive(Debug, Clone)]
pub struct OptionalLeftOut {
    pub dialect: &'static Dialect,
    pub note: String,
}

/// The scenarios graded under their course policy, and a note per dialect for those left out.
pub fn set_by_course(scenarios: Vec<Scenario>) -> (Vec<Scenario>, Vec<OptionalLeftOut>) {
    let mut kept = Vec::new();
    // Per dialect: the option, the words it would need, the count left out, and a scenario
    // of it (for its policy and names).
    let mut left: Vec<(Scenario, &'static str, Vec<&'static str>, usize)> = Vec::new();
    let mut optional_checks: Vec<(Scenario, Vec<&'static str>)> = Vec::new();
    for scenario in scenarios {
        if let Some(check) = scenario
            .code_check()
            .filter(|c| !c.graded(&scenario.policy))
        {
            // A check the course turned off is left out silently; one the handout does not
            // grade is named in a note.
            if check.optional {
                let rule = check.rule;
                match optional_checks
                    .iter_mut()
                    .find(|(s, _)| std::ptr::eq(s.dialect, scenario.dialect))
                {
                    Some((_, rules)) if rules.contains(&rule) => {}
                    Some((_, rules)) => rules.push(rule),
                    None => optional_checks.push((scenario, vec![rule])),
                }
            }
            continue;
        }
        let unset = scenario
            .dialect
            .policy
            .unset_part(&scenario.policy, &scenario.options);
        let Some(unset) = unset else {
            kept.push(scenario);
            continue;
        };
        let same = |(s, option, _, _): &&mut (Scenario, &str, Vec<&str>, usize)| {
            std::ptr::eq(s.dialect, scenario.dialect) && *option == unset.option
        };
        match left.iter_mut().find(|entry| same(entry)) {
            Some((_, _, names, count)) => {
                *count += 1;
                for name in unset.names {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            None => left.push((scenario, unset.option, unset.names, 1)),
        }
    }
    let notes = left
        .iter()
        .map(|(scenario, option, names, count)| OptionalLeftOut {
            dialect: scenario.dialect,
            note: note(scenario, option, names, *count),
        })
        .chain(optional_checks.iter().map(|(s, rules)| OptionalLeftOut {
            dialect: s.dialect,
            note: code_note(s, rules),
        }))
        .collect();
    (kept, notes)
}

/// The note for the optional code checks of `scenario`'s dialect, by rule, left out.
fn code_note(scenario: &Scenario, rules: &[&str]) -> String {
    let set: Vec<String> = scenario
        .policy
        .words(CODE_CHECKS)
        .iter()
        .map(|w| format!("\"{w}\""))
        .chain(rules.iter().map(|r| format!("\"{r}\"")))
        .collect();
    let course = scenario.policy.source.as_deref().unwrap_or("course.toml");
    format!(
        "code checks of {} that the handout does not grade ({}): left out; to grade them, \
         write `{CODE_CHECKS} = [{}]` under [{}.{}] in {course}",
        scenario.dialect_id(),
        rules
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", "),
        set.join(", "),
        scenario.game.name(),
        scenario.dialect.name,
    )
}

/// The note for `count` scenarios of `scenario`'s dialect left out for want of `names` in
/// the list option `option`.
fn note(scenario: &Scenario, option: &str, names: &[&str], count: usize) -> String {
    let quoted = |name: &str| format!("\"{name}\"");
    let set = scenario.policy.words(option);
    let enable: Vec<String> = set
        .iter()
        .map(|name| quoted(name))
        .chain(names.iter().map(|name| quoted(name)))
        .collect();
    let named: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    let course = scenario.policy.source.as_deref().unwrap_or("course.toml");
    format!(
        "{count} scenario(s) of {} test optional parts the course does not set ({}): left out; \
         to grade them, write `{option} = [{}]` under [{}.{}] in {course}",
        scenario.dialect_id(),
        named.join(", "),
        enable.join(", "),
        scenario.game.name(),
        scenario.dialect.name,
    )
}
