//! PrairieLearn's external-grader `results.json` for one submission: `gradable`, `score`
//! from 0 to 1, `message`, `output`, and a test per scenario with `name`, `description`,
//! `points`, `max_points`, `message`, `output` and, where the boards can be drawn, `images`
//! (the SVG picture of the first divergence as a data URL).
//!
//! PrairieLearn shows every test to the student and has no later release, so only visible
//! scenarios show their details; any other shows its name and points, and the course's
//! `hidden_message` when it failed.

use serde::Serialize;

use super::details::details;
use super::gradescope::status;
use super::html::{divergence_data_url, PICTURE_LABEL};
use super::style::Style;
use crate::grade::class::round_score;
use crate::grade::SubmissionResult;
use crate::harness::Outcome;
use crate::points::Points;
use crate::scenario::Visibility;

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Results {
    /// False when the grader itself failed or the code does not load: no grade, and no
    /// attempt spent.
    pub gradable: bool,
    /// The share of the points earned, 0 to 1.
    pub score: f64,
    pub message: String,
    pub output: String,
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Test {
    pub name: String,
    pub description: String,
    pub points: Points,
    pub max_points: Points,
    pub message: String,
    pub output: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Image {
    pub label: String,
    pub url: String,
}

/// The picture of the first divergence as a data URL.
fn picture(o: &Outcome) -> Option<Image> {
    Some(Image {
        label: PICTURE_LABEL.to_string(),
        url: divergence_data_url(o)?,
    })
}

fn test(o: &Outcome) -> Test {
    let passed = status(o) == "passed";
    let shown = o.visibility == Visibility::Visible;
    let mut message = o.verdict.as_str().to_string();
    if o.verdict.passed() && !passed {
        if let Some(group) = &o.group {
            message = format!(
                "passed, but scores 0: the all-or-nothing group \"{group}\" did not pass as a whole"
            );
        }
    }
    let (output, images) = if shown {
        (
            details(o, Style { color: false }, true),
            picture(o).into_iter().collect(),
        )
    } else {
        let note = match (&o.hidden_message, passed) {
            (Some(m), false) => m.clone(),
            _ => "a hidden test: its details are not shown".to_string(),
        };
        (note, Vec::new())
    };
    Test {
        name: o.name.clone(),
        description: o.section.clone().unwrap_or_default(),
        points: o.score,
        max_points: o.max_score,
        message,
        output,
        images,
    }
}

/// The results of one graded submission; `note` (the sandbox in use, say) ends the output.
/// A submission that does not load, or that the grader failed on, is not gradable: the
/// student spends no attempt on it, and the message says why.
pub fn results(result: &SubmissionResult, note: &str) -> Results {
    if let Some(message) = not_gradable(result) {
        return Results {
            gradable: false,
            score: 0.0,
            message,
            output: note.to_string(),
            tests: Vec::new(),
        };
    }
    let score = result.score.ratio(result.max_score).clamp(0.0, 1.0);
    let passed = result
        .scenarios
        .iter()
        .filter(|o| status(o) == "passed")
        .count();
    let message = match &result.error {
        Some(error) => format!("Could not grade this submission: {error}"),
        None => format!(
            "{passed} of {} tests passed, {}/{} points.",
            result.scenarios.len(),
            result.score,
            result.max_score
        ),
    };
    Results {
        gradable: true,
        score: round_score(score),
        message,
        output: note.to_string(),
        tests: result.scenarios.iter().map(test).collect(),
    }
}

/// Why no grade may be given, if none may: the code does not load (the student fixes it and
/// spends no attempt), or the grader failed (a re-run, not the student's fault).
fn not_gradable(result: &SubmissionResult) -> Option<String> {
    if result.needs_rerun {
        let why = result.error.as_deref().unwrap_or("the grader failed");
        return Some(format!(
            "The autograder could not grade this submission ({why}). This is not a grade and \
             costs no attempt; please submit again or tell the course staff."
        ));
    }
    let load = result.does_not_load.as_ref()?;
    Some(format!(
        "Your code does not load, so no test could run: {load}. Fix it and submit again \
         (this costs no attempt)."
    ))
}
