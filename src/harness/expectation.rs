//! What a scenario expects, step by step: the scenario's own `expect` where given, else the
//! reference engine's answer, with the answers every grader accepts.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::compare::framed::Response;
use crate::compare::StepPattern;
use crate::games::{GameOptions, Part, Protocol, Reply};
use crate::scenario::Scenario;

/// The expectation of a whole scenario, index 0 being the opening output.
#[derive(Debug, Clone)]
pub struct Expectation {
    pub steps: Vec<StepPattern>,
    /// What the reference itself printed, step by step (index 0 = opening): for call
    /// protocols, each step's framed response, as a program speaking the protocol writes it.
    pub reference: Vec<String>,
    /// Whether the reference's program had ended by itself after the last step.
    pub finished: bool,
    /// For a call protocol, each step's accepted responses as the judge compares them (index
    /// 0, the opening, has none): split once, when first judged, for every run judged
    /// against this expectation.
    pub(super) calls: OnceLock<Vec<ExpectedCall>>,
}

/// A call-protocol step's accepted responses, split as a program's response is.
#[derive(Debug, Clone, Default)]
pub(super) struct ExpectedCall {
    /// The first accepted response, whole: a program's response equal to it matches in
    /// every part.
    pub first: Response,
    /// Each accepted response's parts.
    pub parts: Vec<Vec<Part>>,
}

/// A scenario that cannot be run as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioProblem {
    #[error(
        "step {step} (line {line}) is sent after the game is over; the program has already ended"
    )]
    AfterEnd { step: usize, line: usize },
    #[error("options: {0}")]
    Options(String),
}

fn pattern(reply: &Reply, expect: Option<&str>, accept: &[String]) -> StepPattern {
    match expect {
        Some(expect) => StepPattern::new(expect, accept),
        None => {
            let mut others = reply.also_accepted.clone();
            others.extend(accept.iter().cloned());
            StepPattern::new(&reply.text, &others)
        }
    }
}

/// The reference's replies to a scenario's input under `options` (index 0 = opening), and
/// whether its program had ended by itself after the last step.
fn replay(
    scenario: &Scenario,
    options: &GameOptions,
) -> Result<(Vec<Reply>, bool), ScenarioProblem> {
    let mut session = scenario
        .game
        .start(scenario.dialect, options)
        .map_err(|e| ScenarioProblem::Options(e.to_string()))?;
    let mut replies = vec![session.opening()];
    for (index, step) in scenario.steps.iter().enumerate() {
        if session.is_finished() {
            return Err(ScenarioProblem::AfterEnd {
                step: index + 1,
                line: step.line,
            });
        }
        replies.push(session.respond(&step.send));
    }
    Ok((replies, session.is_finished()))
}

/// The expectation under `replies`: a written `expect` holds where these replies agree with
/// the scenario's own reference (`base`), in their text and in what they also accept;
/// elsewhere the replies are expected.
fn build(scenario: &Scenario, base: &[Reply], replies: Vec<Reply>, finished: bool) -> Expectation {
    let written = std::iter::once((scenario.opening.as_deref(), &[][..])).chain(
        scenario
            .steps
            .iter()
            .map(|s| (s.expect.as_deref(), &s.accept[..])),
    );
    let steps = written
        .zip(base.iter().zip(&replies))
        .map(|((expect, accept), (base, reply))| {
            // A variant that accepts more at this step (another order) is its reference's.
            let expect = expect.filter(|_| base == reply);
            pattern(reply, expect, accept)
        })
        .collect();
    Expectation {
        steps,
        reference: wire(scenario, replies),
        finished,
        calls: OnceLock::new(),
    }
}

/// What the reference printed, step by step: for call protocols each step's framed
/// response, as a program speaking the protocol writes it.
fn wire(scenario: &Scenario, replies: Vec<Reply>) -> Vec<String> {
    let sent = std::iter::once("").chain(scenario.steps.iter().map(|s| s.send.as_str()));
    replies
        .into_iter()
        .zip(sent)
        .enumerate()
        .map(|(index, (reply, send))| match scenario.dialect.protocol {
            Protocol::Call if index > 0 => {
                scenario.dialect.split_response(send, &reply.text).encode()
            }
            _ => reply.text,
        })
        .collect()
}

/// Plays the scenario's input on the reference and builds the expectation.
pub fn expect(scenario: &Scenario) -> Result<Expectation, ScenarioProblem> {
    let (replies, finished) = replay(scenario, &scenario.options)?;
    Ok(build(scenario, &replies.clone(), replies, finished))
}

/// Every expectation a submission may meet: the scenario's own first (under the options the
/// course requires, [`crate::games::PolicyRules::required`], where it requires any), then one
/// for each set of optional rules the course policy credits
/// ([`crate::games::PolicyRules::variants`]). Written expectations hold wherever the reference
/// answers as under the scenario's own options; a variant whose game ends before the input
/// does, or whose reference answers every step as an earlier one does, is left out.
pub fn expectations(scenario: &Scenario) -> Result<Vec<Expectation>, ScenarioProblem> {
    let rules = scenario.dialect.policy;
    let (own, own_finished) = replay(scenario, &scenario.options)?;
    let required = rules.required(&scenario.policy, &scenario.options);
    let (base, finished) = match &required {
        Some(options) => replay(scenario, options)?,
        None => (own.clone(), own_finished),
    };
    let mut all = vec![build(scenario, &own, base.clone(), finished)];
    let mut seen = vec![texts(&base)];
    let graded = required.as_ref().unwrap_or(&scenario.options);
    for options in rules.variants(&scenario.policy, graded) {
        if let Ok((replies, finished)) = replay(scenario, &options) {
            let answered = texts(&replies);
            if !seen.contains(&answered) {
                seen.push(answered);
                all.push(build(scenario, &own, replies, finished));
            }
        }
    }
    Ok(all)
}

/// The [`expectations`] of a list of scenarios, each played on the reference once however many
/// programs are judged against it (a class plays every scenario once, not once per student:
/// the reference answers the same input the same way).
#[derive(Debug)]
pub struct Expected<'a> {
    scenarios: &'a [Scenario],
    played: Vec<OnceLock<Result<Vec<Expectation>, ScenarioProblem>>>,
}

impl<'a> Expected<'a> {
    /// The expectations of `scenarios`, each played when first asked.
    pub fn of(scenarios: &'a [Scenario]) -> Expected<'a> {
        Expected {
            scenarios,
            played: scenarios.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// The expectations of `scenario`: kept when it is one of the list (the list is borrowed,
    /// so it cannot have changed since), else played now.
    pub fn expectations(
        &self,
        scenario: &Scenario,
    ) -> Result<Cow<'_, [Expectation]>, ScenarioProblem> {
        let kept = self
            .scenarios
            .iter()
            .position(|s| std::ptr::eq(s, scenario));
        match kept {
            Some(index) => match self.played[index].get_or_init(|| expectations(scenario)) {
                Ok(all) => Ok(Cow::Borrowed(all)),
                Err(problem) => Err(problem.clone()),
            },
            None => expectations(scenario).map(Cow::Owned),
        }
    }
}

/// The text of each reply, with what it also accepts.
fn texts(replies: &[Reply]) -> Vec<(String, Vec<String>)> {
    replies
        .iter()
        .map(|r| (r.text.clone(), r.also_accepted.clone()))
        .collect()
}

/// The input a scenario types: each step's line and a newline.
pub fn input(scenario: &Scenario) -> Vec<u8> {
    let mut bytes = Vec::new();
    for step in &scenario.steps {
        bytes.extend_from_slice(step.send.as_bytes());
        bytes.push(b'\n');
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "adds two"
steps = [{ send = "add 2" }]

[[scenario]]
name = "adds three"
steps = [{ send = "add 3" }]
"#;

    #[test]
    fn a_listed_scenario_is_played_once_and_any_other_each_time() {
        let scenarios = crate::scenario::load::parse_file("memo.toml", FILE).unwrap();
        let expected = Expected::of(&scenarios);
        let first = expected.expectations(&scenarios[1]).unwrap();
        let again = expected.expectations(&scenarios[1]).unwrap();
        assert!(matches!(first, Cow::Borrowed(_)));
        assert!(std::ptr::eq(first.as_ref(), again.as_ref()));
        assert_eq!(
            first[0].reference,
            expectations(&scenarios[1]).unwrap()[0].reference
        );
        assert_ne!(
            expected.expectations(&scenarios[0]).unwrap()[0].reference,
            first[0].reference
        );
        let copy = scenarios[1].clone();
        let played = expected.expectations(&copy).unwrap();
        assert!(matches!(played, Cow::Owned(_)));
        assert_eq!(played[0].reference, first[0].reference);
    }
}
