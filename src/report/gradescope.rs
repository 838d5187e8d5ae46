//! Gradescope's `results.json` for one submission, per its autograder specification:
//! top-level `score`, `execution_time`, `output`, and a test per scenario with `name`,
//! `number`, `score`, `max_score`, `status`, `output`, `visibility` and `tags`.

use serde::Serialize;

use super::details::details;
use super::style::Style;
use crate::grade::class::round_score;
use crate::grade::SubmissionResult;
use crate::scenario::Visibility;

#[derive(Debug, Serialize)]
pub struct Results {
    pub score: f64,
    /// Seconds.
    pub execution_time: u64,
    pub output: String,
    pub stdout_visibility: &'static str,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
pub struct Test {
    pub name: String,
    pub number: String,
    pub score: f64,
    pub max_score: f64,
    pub status: &'static str,
    pub output: String,
    pub visibility: &'static str,
    pub tags: Vec<String>,
}

/// The results of one submission. Hidden scenarios show their verdict only.
pub fn results(result: &SubmissionResult, note: &str) -> Results {
    let plain = Style { color: false };
    let tests = result
        .scenarios
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let reveal = o.visibility == Visibility::Visible;
            let mut output = o.verdict.as_str().to_string();
            let body = details(o, plain, reveal);
            if !body.is_empty() {
                output.push('\n');
                output.push_str(&body);
            }
            Test {
                name: o.name.clone(),
                number: format!("{}", i + 1),
                score: round_score(o.score),
                max_score: round_score(o.max_score),
                status: if o.verdict.passed() {
                    "passed"
                } else {
                    "failed"
                },
                output,
                visibility: o.visibility.as_str(),
                tags: o.tags.clone(),
            }
        })
        .collect();
    let mut output = format!(
        "{}: {} of {} scenarios passed, score {}/{}.",
        result.id,
        result.summary.passed,
        result.scenarios.len(),
        round_score(result.score),
        round_score(result.max_score)
    );
    if let Some(error) = &result.error {
        output = format!("Could not grade this submission: {error}");
    }
    if let Some(load) = &result.does_not_load {
        output = format!("Your code does not load, so no scenario could run: {load}");
    }
    for line in &result.notes {
        output.push('\n');
        output.push_str(line);
    }
    if !note.is_empty() {
        output.push('\n');
        output.push_str(note);
    }
    Results {
        score: round_score(result.score),
        execution_time: result.elapsed_ms.div_ceil(1000),
        output,
        stdout_visibility: "hidden",
        tests,
    }
}
