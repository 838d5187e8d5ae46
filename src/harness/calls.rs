//! Judging a call protocol's run response by response: the framed output is split at each
//! response's end, so every step is compared with exactly what its command produced, on
//! the parts the scenario judges. A divergence in another part is a note.

use super::classify::{classify, later_steps_note, scored, Judged};
use super::expectation::{Expectation, ExpectedCall};
use super::outcome::{Divergence, Outcome};
use crate::compare::framed::{decode, Response};
use crate::compare::pattern::render;
use crate::compare::visible::cut_to_line;
use crate::compare::{match_steps, prepare, StepPattern};
use crate::execution::Execution;
use crate::games::board_text::{canonical, cell_diffs};
use crate::games::{DivergentStep, Part};
use crate::scenario::Scenario;

/// Most earlier lines sent shown with a divergence.
const SENT_BEFORE: usize = 12;
/// Most notes about unjudged parts kept for one scenario.
const MAX_NOTES: usize = 5;
/// The name under which an `!error` is compared: every scenario judges it.
const ERROR_PART: &str = "error";

/// The outcome of a call-protocol run of `scenario`.
pub(crate) fn judge_calls(
    scenario: &Scenario,
    expectation: &Expectation,
    run: &Execution,
) -> Outcome {
    let decoded = decode(&run.stdout);
    let sent = scenario.steps.len();
    let expected_calls = expected_calls(scenario, expectation);
    let mut first: Option<(usize, StepCheck)> = None;
    let mut later = 0;
    let mut notes = Vec::new();
    let mut expected_judged = String::new();
    let mut actual_judged = String::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let actual = decoded.responses.get(index);
        let check = check_step(
            scenario,
            step.judged,
            &step.send,
            &expectation.steps[index + 1],
            &expected_calls[index + 1],
            actual,
        );
        expected_judged.push_str(&check.expected_judged);
        actual_judged.push_str(&check.actual_judged);
        if !check.judged_ok {
            match first {
                None => first = Some((index + 1, check)),
                Some(_) => later += 1,
            }
        } else if !check.unjudged.is_empty() && notes.len() < MAX_NOTES {
            notes.push(format!(
                "step {} `{}`: {} (not judged by this scenario)",
                index + 1,
                step.send,
                check.unjudged.join("; ")
            ));
        }
    }
    // Responses beyond the lines sent: output no command asked for.
    let extra = decoded.responses.len() > sent
        && decoded.responses[sent..]
            .iter()
            .any(|r| !r.text().is_empty() || !r.complete);
    if first.is_none() && extra && sent > 0 {
        let mut check = check_step(
            scenario,
            true,
            &scenario.steps[sent - 1].send,
            &expectation.steps[sent],
            &expected_calls[sent],
            decoded.responses.get(sent - 1),
        );
        let more: String = decoded.responses[sent..]
            .iter()
            .map(Response::text)
            .collect();
        check.actual_text.push_str(&more);
        check
            .differing
            .push("output after the last response".into());
        first = Some((sent, check));
    }

    let failed = first.as_ref().map(|(_, c)| c.output_ended);
    let reader = scenario.game.board_reader();
    let (verdict, detail) = classify(scenario, run, failed, false, || {
        canonical(reader, &expected_judged) == canonical(reader, &actual_judged)
    });
    let mut detail = detail;
    if decoded.unframed && first.is_some() {
        let hint = "the output is not framed as the protocol says (each response ends with a line `.`; see PROTOCOL.md)";
        detail = Some(match detail {
            Some(d) => format!("{d}; {hint}"),
            None => hint.to_string(),
        });
    }
    let steps_matched = first.as_ref().map_or(sent, |(step, _)| step - 1);
    let first_divergence = first.map(|(step, check)| divergence(scenario, step, check, later));
    scored(
        scenario,
        run,
        Judged {
            verdict,
            detail,
            first_divergence,
            steps_matched,
            transcript: None,
            notes,
        },
    )
}

/// One step compared.
struct StepCheck {
    /// Whether every judged part (and the error) matched.
    judged_ok: bool,
    /// The judged parts that differ (for the divergence's note).
    differing: Vec<String>,
    /// Unjudged parts that differ: `notation: expected 'ng1f3', got 'Ng1f3'`.
    unjudged: Vec<String>,
    /// Whether the response was missing or cut short.
    output_ended: bool,
    expected_text: String,
    actual_text: String,
    expected_judged: String,
    actual_judged: String,
    /// Other accepted forms of the whole response.
    also_accepted: Vec<String>,
}

/// The parts of a response, with its error as a part every scenario judges.
fn parts_of(scenario: &Scenario, send: &str, response: &Response) -> Vec<Part> {
    let mut parts = scenario.dialect.response_parts(send, response);
    let error = response.error.as_ref().map(|e| format!("!error {e}\n"));
    let unframed = (!response.unframed.is_empty()).then(|| response.unframed.clone());
    parts.push(Part::new(
        ERROR_PART,
        error.into_iter().chain(unframed).collect::<String>(),
    ));
    parts
}

/// Whether the part `name` of a step's response is judged: none of a step marked `judged =
/// false`; else the error, and the parts the scenario judges.
fn judged(scenario: &Scenario, step_judged: bool, name: &str) -> bool {
    step_judged
        && (name == ERROR_PART
            || scenario
                .judge
                .as_ref()
                .is_none_or(|parts| parts.contains(&name)))
}

/// Whether an actual part's text matches an expected part's (which may hold `...` lines),
/// both normalized as the game compares them.
fn part_matches(scenario: &Scenario, expected: &str, actual: &str) -> bool {
    let normalize = |line: &str| scenario.compared_line(line);
    let pattern = StepPattern::new(expected, &[] as &[&str]).map_lines(&normalize);
    let actual: String = actual
        .split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(body) => normalize(body) + "\n",
            None => normalize(line),
        })
        .collect();
    let mode = scenario.compare_mode();
    let prepared = prepare(actual.as_bytes(), mode);
    match_steps(&[pattern], &prepared, mode).is_ok()
}

/// Each step of `expectation` as the judge compares it (index 0, the opening, has nothing),
/// split when first asked.
fn expected_calls<'e>(scenario: &Scenario, expectation: &'e Expectation) -> &'e [ExpectedCall] {
    expectation.calls.get_or_init(|| {
        let steps = scenario.steps.iter().zip(&expectation.steps[1..]);
        std::iter::once(ExpectedCall::default())
            .chain(steps.map(|(step, pattern)| {
                let send = step.send.as_str();
                let responses: Vec<Response> = (pattern.alternatives().iter())
                    .map(|alt| scenario.dialect.split_response(send, &render(alt)))
                    .collect();
                ExpectedCall {
                    parts: responses
                        .iter()
                        .map(|response| parts_of(scenario, send, response))
                        .collect(),
                    first: responses.into_iter().next().unwrap_or_default(),
                }
            }))
            .collect()
    })
}

/// One step compared: `actual` against `expected`, whose accepted responses split into parts
/// are `call`'s. A step not `judged` matches whatever it answers, once complete, and what
/// differs in it is noted.
fn check_step(
    scenario: &Scenario,
    judged: bool,
    send: &str,
    expected: &StepPattern,
    call: &ExpectedCall,
    actual: Option<&Response>,
) -> StepCheck {
    let missing = Response::default();
    let response = actual.unwrap_or(&missing);
    // A whole response equal to the first accepted one matches it in every part: a correct
    // program's steps are not split (the tests' debug builds check that the parts agree).
    if response.complete && *response == call.first {
        debug_assert!({
            let split = compare_parts(scenario, judged, send, expected, call, actual, response);
            split.judged_ok && split.differing.is_empty() && split.unjudged.is_empty()
        });
        let judged = judged_text(scenario, judged, &call.parts[0]);
        return StepCheck {
            judged_ok: true,
            differing: Vec::new(),
            unjudged: Vec::new(),
            output_ended: false,
            expected_text: expected.canonical(),
            actual_text: response.text(),
            expected_judged: judged.clone(),
            actual_judged: judged,
            also_accepted: also_accepted(expected),
        };
    }
    compare_parts(scenario, judged, send, expected, call, actual, response)
}

/// [`check_step`], part by part: `response` is `actual`, or an empty one where it is missing.
fn compare_parts(
    scenario: &Scenario,
    step_judged: bool,
    send: &str,
    expected: &StepPattern,
    call: &ExpectedCall,
    actual: Option<&Response>,
    response: &Response,
) -> StepCheck {
    let alternatives = &call.parts;
    let actual_parts = parts_of(scenario, send, response);
    // Per alternative: (judged parts that differ, unjudged parts that differ).
    let compared: Vec<(Vec<&Part>, Vec<&Part>)> = alternatives
        .iter()
        .map(|parts| {
            let differ: Vec<&Part> = parts
                .iter()
                .filter(|part| {
                    !part_matches(scenario, &part.text, text_of(&actual_parts, part.name))
                })
                .collect();
            differ
                .into_iter()
                .partition(|p| judged(scenario, step_judged, p.name))
        })
        .collect();
    let complete = response.complete;
    let best = compared
        .iter()
        .position(|(judged, _)| judged.is_empty())
        .filter(|_| complete);
    let shown = best.unwrap_or(0);
    // Unjudged parts that differ, unless some accepted form matches every part or the call
    // raised in a step judged (the error says it all).
    let raised = step_judged && (response.error.is_some() || !complete);
    let unjudged = if raised || compared.iter().any(|(j, u)| j.is_empty() && u.is_empty()) {
        Vec::new()
    } else {
        compared[shown]
            .1
            .iter()
            .map(|part| {
                format!(
                    "{} differs: expected {}, got {}",
                    part.name,
                    quoted(&part.text),
                    quoted(text_of(&actual_parts, part.name))
                )
            })
            .collect()
    };
    let mut differing: Vec<String> = compared[shown]
        .0
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    if !complete {
        differing.push(match actual {
            None => "no response".to_string(),
            Some(_) => "response cut short".to_string(),
        });
    }
    StepCheck {
        judged_ok: best.is_some(),
        differing,
        unjudged,
        output_ended: !complete,
        expected_text: expected.canonical(),
        actual_text: response.text(),
        expected_judged: judged_text(scenario, step_judged, &alternatives[0]),
        actual_judged: judged_text(scenario, step_judged, &actual_parts),
        also_accepted: also_accepted(expected),
    }
}

/// The text of the parts `scenario` judges, in order.
fn judged_text(scenario: &Scenario, step_judged: bool, parts: &[Part]) -> String {
    parts
        .iter()
        .filter(|p| judged(scenario, step_judged, p.name))
        .map(|p| p.text.as_str())
        .collect()
}

/// The other accepted forms of a step's whole response.
fn also_accepted(expected: &StepPattern) -> Vec<String> {
    expected.alternatives()[1..]
        .iter()
        .map(|a| render(a))
        .collect()
}

/// The text of the part of that name (empty when there is none).
fn text_of<'a>(parts: &'a [Part], name: &str) -> &'a str {
    parts
        .iter()
        .find(|p| p.name == name)
        .map_or("", |p| p.text.as_str())
}

/// A part's text on one line, for notes, cut to a report line ([`cut_to_line`]: a list of
/// boards returned as tuples, noted at every step, stays short).
fn quoted(text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return "nothing".to_string();
    }
    cut_to_line(format!("{:?}", text).replace("\\\"", "\""))
}

fn divergence(scenario: &Scenario, step: usize, check: StepCheck, later: usize) -> Divergence {
    let sent: Vec<&str> = scenario.steps[..step]
        .iter()
        .map(|s| s.send.as_str())
        .collect();
    let this = &scenario.steps[step - 1];
    // The game explains the parts judged (a chooser's printed board is no answer).
    let mut notes = scenario.game.explain(&DivergentStep {
        dialect: scenario.dialect,
        options: &scenario.options,
        sent: &sent,
        expected: &check.expected_judged,
        actual: &check.actual_judged,
        differing: &check.differing,
    });
    if scenario.judge.is_some() && !check.differing.is_empty() {
        notes.push(format!("differs in: {}", check.differing.join(", ")));
    }
    notes.extend(
        check
            .unjudged
            .iter()
            .map(|n| format!("{n} (not judged here)")),
    );
    notes.extend(later_steps_note(later));
    let line = check
        .expected_text
        .lines()
        .zip(check.actual_text.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| {
            check
                .expected_text
                .lines()
                .count()
                .min(check.actual_text.lines().count())
        })
        + 1;
    Divergence {
        step,
        send: Some(this.send.clone()),
        sent_before: scenario.steps[..step - 1]
            .iter()
            .rev()
            .take(SENT_BEFORE)
            .rev()
            .map(|s| s.send.clone())
            .collect(),
        cells: cell_diffs(
            scenario.game.board_reader(),
            &check.expected_text,
            &check.actual_text,
        ),
        notes,
        expected: check.expected_text,
        actual: check.actual_text,
        line,
        also_accepted: check.also_accepted,
        source_line: Some(this.line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::visible::MAX_LINE_CHARS;

    #[test]
    fn a_quoted_part_is_one_bounded_line() {
        assert_eq!(quoted(""), "nothing");
        assert_eq!(quoted("say \"hi\"\n"), "\"say \"hi\"\"");
        let long = "(0, 1), ".repeat(100);
        let shown = quoted(&long);
        assert!(shown.starts_with("\"(0, 1), (0, 1)"), "{shown}");
        // 800 characters and their two quotes: the first MAX_LINE_CHARS shown.
        let rest = 802 - MAX_LINE_CHARS;
        assert!(
            shown.ends_with(&format!("… ({rest} more characters)")),
            "{shown}"
        );
        assert_eq!(
            shown.split('…').next().unwrap().chars().count(),
            MAX_LINE_CHARS
        );
    }
}
