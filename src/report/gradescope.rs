//! Gradescope's `results.json` for one submission, per its autograder specification.
//!
//! What Gradescope shows whom decides what goes where:
//! - the top-level `output` is always shown to the student: it speaks of the visible tests
//!   only (never the number, names or points of tests the student cannot see yet) and adds
//!   the course's own messages for hidden failures (`hidden_message`), each once;
//! - a `hidden` test is never shown to students, only to instructors: it carries the full
//!   details, for them;
//! - an `after_due_date` or `after_published` test is withheld whole until its release, so it
//!   carries the same full feedback as a visible one: a student who finally sees it learns
//!   where it went wrong;
//! - `stdout_visibility` is `hidden`: nothing the grader prints reaches a student.
//!
//! Tests are numbered by handout section (`2.1`, `2.2`, ...), visible tests first, then those
//! released later, then hidden ones, so that the numbers a student sees have no gaps that
//! would count the tests they cannot see.

use serde::Serialize;

use super::details::details;
use super::style::Style;

use crate::grade::leaderboard::{standings, Standing};
use crate::grade::SubmissionResult;
use crate::harness::Outcome;
use crate::points::Points;
use crate::scenario::Visibility;

/// How each test's feedback is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FeedbackFormat {
    /// HTML: the boards drawn, the first divergence, and the text diff below.
    #[default]
    Html,
    /// Plain text only.
    Text,
}

impl FeedbackFormat {
    fn as_str(self) -> &'static str {
        match self {
            FeedbackFormat::Html => "html",
            FeedbackFormat::Text => "text",
        }
    }
}

/// Choices for one results file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub format: FeedbackFormat,
    /// A line added to the top-level output (the sandbox in use, say).
    pub note: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Results {
    pub score: Points,
    /// Seconds.
    pub execution_time: f64,
    pub output: String,
    pub output_format: &'static str,
    pub stdout_visibility: &'static str,
    pub tests: Vec<Test>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leaderboard: Vec<Standing>,
    /// Whatever else the course staff should find in the file (the sandbox used).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra_data: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Test {
    pub number: String,
    pub name: String,
    pub score: Points,
    pub max_score: Points,
    pub status: &'static str,
    pub output: String,
    pub output_format: &'static str,
    pub visibility: &'static str,
    pub tags: Vec<String>,
    /// Seconds.
    pub execution_time: f64,
}

/// The extra-data key that marks results the grader failed on: not a grade.
pub const NEEDS_RERUN: &str = "needs_rerun";

/// Whether a student can see the test now (before any release).
fn seen_now(o: &Outcome) -> bool {
    o.visibility == Visibility::Visible
}

/// Order of release: visible first, hidden (never released to students) last.
fn release_rank(v: Visibility) -> u8 {
    match v {
        Visibility::Visible => 0,
        Visibility::AfterDueDate => 1,
        Visibility::AfterPublished => 2,
        Visibility::Hidden => 3,
    }
}

/// `passed` only when the verdict passed and the test earned all its points (a passing
/// member of a failed all-or-nothing group scores nothing, so it did not pass).
pub fn status(o: &Outcome) -> &'static str {
    if o.verdict.passed() && o.score >= o.max_score {
        "passed"
    } else {
        "failed"
    }
}

/// Test numbers, `section.index`, for outcomes in release order: sections numbered as they
/// first appear, tests within a section in order.
fn numbers(ordered: &[&Outcome]) -> Vec<String> {
    let mut sections: Vec<Option<&str>> = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    ordered
        .iter()
        .map(|o| {
            let section = o.section.as_deref();
            let at = match sections.iter().position(|s| *s == section) {
                Some(at) => at,
                None => {
                    sections.push(section);
                    counts.push(0);
                    sections.len() - 1
                }
            };
            counts[at] += 1;
            format!("{}.{}", at + 1, counts[at])
        })
        .collect()
}

/// The test's name: the handout section it comes from, then the scenario's own name (which
/// may begin with the section already; quoting it further on is not naming it).
fn name(o: &Outcome) -> String {
    let begins_with = |section: &str| {
        (o.name.get(..section.len())).is_some_and(|start| start.eq_ignore_ascii_case(section))
    };
    match &o.section {
        Some(section) if !begins_with(section) => format!("{section}: {}", o.name),
        _ => o.name.clone(),
    }
}

/// What a scenario's verdict and score mean, in a sentence.
fn headline(o: &Outcome) -> String {
    let mut line = o.verdict.as_str().to_string();
    if o.verdict.passed() && status(o) == "failed" {
        if let Some(group) = &o.group {
            line = format!(
                "passed, but scores 0: it belongs to the all-or-nothing group \"{group}\", \
                 which did not pass as a whole"
            );
        }
    }
    if o.visibility == Visibility::Hidden {
        line.push_str("\n(hidden test: shown to instructors only)");
        if let Some(message) = &o.hidden_message {
            line.push_str(&format!("\nstudents are told: {message}"));
        }
    }
    line
}

/// The feedback of one test, in `format`.
fn test_output(o: &Outcome, format: FeedbackFormat) -> String {
    let plain = Style { color: false };
    let head = headline(o);
    match format {
        FeedbackFormat::Text => {
            let body = details(o, plain, true);
            if body.is_empty() {
                head
            } else {
                format!("{head}\n{body}")
            }
        }
        FeedbackFormat::Html => super::html::test_feedback(o, &head),
    }
}

/// The top-level output: the visible tests' tally, the course's messages for hidden failures
/// (each once, so they count nothing), an error, the note.
fn summary(result: &SubmissionResult, note: &str) -> String {
    let visible: Vec<&Outcome> = result.scenarios.iter().filter(|o| seen_now(o)).collect();
    let mut lines = Vec::new();
    if let Some(error) = &result.error {
        lines.push(format!("Could not grade this submission: {error}"));
    } else if let Some(load) = &result.does_not_load {
        lines.push(format!(
            "Your code does not load, so no test could run: {load}"
        ));
    } else if !visible.is_empty() {
        let passed = visible.iter().filter(|o| status(o) == "passed").count();
        let score: Points = visible.iter().map(|o| o.score).sum();
        let max: Points = visible.iter().map(|o| o.max_score).sum();
        lines.push(format!(
            "Tests shown now: {passed} of {} passed, {score}/{max} of their points.",
            visible.len(),
        ));
    }
    let mut messages: Vec<&str> = Vec::new();
    for o in &result.scenarios {
        if o.visibility != Visibility::Visible && status(o) == "failed" {
            if let Some(message) = o.hidden_message.as_deref() {
                if !messages.contains(&message) {
                    messages.push(message);
                }
            }
        }
    }
    lines.extend(messages.iter().map(|m| m.to_string()));
    // The other dialects' scores count scenarios not shown yet: said without them.
    let choice = result.choice_note();
    lines.extend(
        (result.notes.iter())
            .filter(|n| choice.as_ref() != Some(*n))
            .cloned(),
    );
    lines.extend(result.choice_note_for_students());
    if !note.is_empty() {
        lines.push(note.to_string());
    }
    lines.join("\n")
}

/// The results of one submission. One the grader failed on is not graded (no score, the
/// reason for the staff, `needs_rerun` in the extra data, which `run_autograder` refuses
/// on); one whose code does not load is one visible failing test that says why.
pub fn results(result: &SubmissionResult, options: &Options) -> Results {
    if result.needs_rerun {
        let why = result.error.clone().unwrap_or_default();
        let mut results = not_graded(
            "The autograder could not grade this submission (the grader failed, not your \
             code). This is not a grade; please tell the course staff."
                .to_string(),
            Some(("autograder", format!("Not graded: {why}"))),
        );
        results.extra_data.extend([
            (NEEDS_RERUN.to_string(), serde_json::Value::Bool(true)),
            ("error".to_string(), serde_json::Value::String(why)),
        ]);
        return results;
    }
    if let Some(load) = &result.does_not_load {
        let mut results = not_graded(summary(result, &options.note), None);
        results.tests.push(Test {
            number: "1".to_string(),
            name: "Your code loads".to_string(),
            score: Points::ZERO,
            max_score: result.max_score,
            status: "failed",
            output: format!("Your code does not load, so no test could run: {load}"),
            output_format: "text",
            visibility: Visibility::Visible.as_str(),
            tags: Vec::new(),
            execution_time: 0.0,
        });
        return results;
    }
    let mut ordered: Vec<&Outcome> = result.scenarios.iter().collect();
    ordered.sort_by_key(|o| release_rank(o.visibility));
    let mut tests: Vec<Test> = ordered
        .iter()
        .zip(numbers(&ordered))
        .map(|(o, number)| Test {
            number,
            name: name(o),
            score: o.score,
            max_score: o.max_score,
            status: status(o),
            output: test_output(o, options.format),
            output_format: options.format.as_str(),
            visibility: o.visibility.as_str(),
            tags: o.tags.clone(),
            execution_time: o.duration_ms as f64 / 1000.0,
        })
        .collect();
    // How the runner fared tells of the hidden scenarios too: the staff's alone.
    if !result.runner_notes.is_empty() {
        let notes = result.runner_notes.join("\n");
        tests.push(staff_note("autograder: how it was run", notes, "passed"));
    }
    Results {
        score: result.score,
        execution_time: result.elapsed_ms as f64 / 1000.0,
        output: summary(result, &options.note),
        output_format: "text",
        stdout_visibility: "hidden",
        tests,
        leaderboard: standings(result),
        extra_data: serde_json::Map::new(),
    }
}

/// The results of a submission the autograder could not grade: no score, `output` for the
/// student, and `for_staff` as a hidden test (shown to instructors only) when given.
pub fn not_graded(output: String, for_staff: Option<(&str, String)>) -> Results {
    let tests = for_staff
        .into_iter()
        .map(|(name, output)| staff_note(name, output, "failed"))
        .collect();
    Results {
        score: Points::ZERO,
        execution_time: 0.0,
        output,
        output_format: "text",
        stdout_visibility: "hidden",
        tests,
        leaderboard: Vec::new(),
        extra_data: serde_json::Map::new(),
    }
}

/// A test worth nothing, `output` under `name`, shown to instructors only: what the staff
/// should know of a submission that its student should not. `status` is how the staff's
/// list marks it: "failed" for a submission not graded, "passed" for a remark.
fn staff_note(name: &str, output: String, status: &'static str) -> Test {
    Test {
        number: "0".to_string(),
        name: name.to_string(),
        score: Points::ZERO,
        max_score: Points::ZERO,
        status,
        output,
        output_format: "text",
        visibility: Visibility::Hidden.as_str(),
        tags: Vec::new(),
        execution_time: 0.0,
    }
}
