//! Lines about one rule that a game prints in every game it plays (a capture message, after
//! each capture): the scenarios about that rule judge them
//! ([`crate::games::Game::judged_apart`]), and every other scenario judges the game without
//! them, with a note. One wrong or missing message then costs the scenarios about it, not
//! every game the program plays.

use super::expectation::Expectation;
use super::stray::pieces;
use crate::compare::visible;
use crate::execution::Execution;
use crate::scenario::Scenario;

/// Most lines of each side quoted in the note.
const QUOTED: usize = 2;

/// A program's run and its expectation, both without the lines judged apart.
pub(super) struct WithoutApart {
    pub expectation: Expectation,
    pub run: Execution,
    /// What was left out, and why.
    pub note: String,
}

/// `run` and `expectation` without the lines that scenarios about another topic judge, where
/// the program's lines of that kind differ from the reference's; `None` where they do not
/// (leaving them out would change nothing) or the scenario is about them.
pub(super) fn without_apart(
    scenario: &Scenario,
    expectation: &Expectation,
    run: &Execution,
) -> Option<WithoutApart> {
    let topic_of = |line: &str| {
        (scenario
            .game
            .judged_apart(scenario.dialect, line.trim_end()))
        .filter(|topic| !scenario.is_about(topic))
    };
    let expected: Vec<&str> = (expectation.reference.iter())
        .flat_map(|text| text.lines())
        .filter(|line| topic_of(line).is_some())
        .collect();
    let mut printed = Vec::new();
    let mut kept = Vec::with_capacity(run.stdout.len());
    for piece in pieces(&run.stdout) {
        let text = String::from_utf8_lossy(piece);
        match piece.ends_with(b"\n") && topic_of(&text).is_some() {
            true => printed.push(text.trim_end().to_string()),
            false => kept.extend_from_slice(piece),
        }
    }
    if printed
        .iter()
        .map(String::as_str)
        .eq(expected.iter().copied())
    {
        return None;
    }
    let topic = (expected.iter().copied())
        .chain(printed.iter().map(String::as_str))
        .find_map(topic_of)?;
    let steps = (expectation.steps.iter())
        .map(|step| step.without_lines(&|line| topic_of(line).is_some()))
        .collect();
    Some(WithoutApart {
        expectation: Expectation {
            steps,
            reference: expectation.reference.clone(),
            finished: expectation.finished,
            calls: Default::default(),
        },
        run: Execution {
            stdout: kept,
            ..run.clone()
        },
        note: note(topic, &printed, &expected),
    })
}

/// The note on a scenario judged without the lines about `topic`.
fn note(topic: &str, printed: &[String], expected: &[&str]) -> String {
    let quoted = |lines: Vec<&str>| match lines.len() {
        0 => "none".to_string(),
        count => {
            let shown: Vec<String> = (lines.iter().take(QUOTED))
                .map(|l| format!("`{}`", visible::show_line(l)))
                .collect();
            match count.saturating_sub(QUOTED) {
                0 => shown.join(", "),
                more => format!("{} and {more} more", shown.join(", ")),
            }
        }
    };
    format!(
        "its lines about {topic} differ from the reference's (printed {}; expected {}): the \
         scenarios about {topic} judge them, this one judges the game without them",
        quoted(printed.iter().map(String::as_str).collect()),
        quoted(expected.to_vec()),
    )
}
