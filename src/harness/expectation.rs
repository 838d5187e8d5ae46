//! What a scenario expects, step by step: the scenario's own `expect` where given, else the
//! reference engine's answer, with the answers every grader accepts.

use crate::compare::StepPattern;
use crate::games::{Protocol, Reply};
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

/// Plays the scenario's input on the reference and builds the expectation.
pub fn expect(scenario: &Scenario) -> Result<Expectation, ScenarioProblem> {
    let mut session = scenario
        .game
        .start(scenario.dialect.name, &scenario.options)
        .map_err(|e| ScenarioProblem::Options(e.to_string()))?;
    let opening = session.opening();
    let mut steps = vec![pattern(&opening, scenario.opening.as_deref(), &[])];
    let mut reference = vec![opening.text];
    for (index, step) in scenario.steps.iter().enumerate() {
        if session.is_finished() {
            return Err(ScenarioProblem::AfterEnd {
                step: index + 1,
                line: step.line,
            });
        }
        let reply = session.respond(&step.send);
        steps.push(pattern(&reply, step.expect.as_deref(), &step.accept));
        reference.push(match scenario.dialect.protocol {
            Protocol::Call => scenario
                .game
                .split_response(scenario.dialect.name, &step.send, &reply.text)
                .encode(),
            Protocol::Program => reply.text,
        });
    }
    Ok(Expectation {
        steps,
        reference,
        finished: session.is_finished(),
    })
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
