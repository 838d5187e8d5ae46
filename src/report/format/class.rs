//! A class's results: `grade --format json`, `grade --report json=PATH` and `summary.json`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ScenarioResult, Totals};
use super::{BOARDGRADE, SCHEMA_VERSION};
use crate::grade::class::ClassSummary;
use crate::grade::probe::LoadError;
use crate::grade::{Skipped, SubmissionResult};
use crate::points::Points;

/// Every result of a class. The same for one run and for partitioned runs joined by
/// `merge`, except `grader`, which only `grade --format json` writes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ClassReport {
    /// The layout version of this document.
    pub schema_version: u32,
    /// The boardgrade release that wrote it.
    pub boardgrade: String,
    pub class: ClassSummary,
    /// Members of the class folders that are not submissions, and why.
    pub skipped: Vec<Skipped>,
    /// The machine and settings the run graded with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grader: Option<Grader>,
    pub submissions: Vec<SubmissionReport>,
}

impl ClassReport {
    pub fn new(results: &[SubmissionResult], class: &ClassSummary, skipped: &[Skipped]) -> Self {
        ClassReport {
            schema_version: SCHEMA_VERSION,
            boardgrade: BOARDGRADE.to_string(),
            class: class.clone(),
            skipped: skipped.to_vec(),
            grader: None,
            submissions: results.iter().map(SubmissionReport::from).collect(),
        }
    }
}

/// How a run graded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Grader {
    /// The sandbox student programs ran in.
    pub sandbox: String,
    /// What that sandbox does not protect against.
    pub sandbox_missing: Vec<String>,
    /// Submissions graded at once.
    pub jobs: usize,
    /// The grader's own peak memory, in KiB.
    pub max_rss_kib: u64,
}

/// One submission's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SubmissionReport {
    /// The student's name as given (a folder's name, or a file's without `.py`).
    pub id: String,
    /// The submission's file or folder.
    pub path: String,
    /// The dialect it was graded as.
    pub dialect: Option<String>,
    /// The file graded, inside the submission.
    pub file: Option<String>,
    /// Points earned.
    pub score: Points,
    /// Points there were to earn.
    pub max_score: Points,
    /// Why it could not be graded at all; none when it was.
    pub error: Option<String>,
    /// The grader failed, not the submission (a harness or sandbox error): not graded, its
    /// score is no grade, and it needs a re-run (`error` says why).
    #[serde(default)]
    pub needs_rerun: bool,
    /// The file graded does not load: one finding, scored 0, no scenario run.
    pub does_not_load: Option<LoadError>,
    /// What the student should know besides the verdicts.
    pub notes: Vec<String>,
    /// Totals of its scenarios.
    pub summary: Totals,
    /// Each scenario's result.
    pub scenarios: Vec<ScenarioResult>,
    /// Wall-clock time of its grading, in milliseconds.
    pub elapsed_ms: u64,
}

impl From<&SubmissionResult> for SubmissionReport {
    fn from(r: &SubmissionResult) -> Self {
        SubmissionReport {
            id: r.id.clone(),
            path: r.path.clone(),
            dialect: r.dialect.clone(),
            file: r.file.clone(),
            score: r.score,
            max_score: r.max_score,
            error: r.error.clone(),
            needs_rerun: r.needs_rerun,
            does_not_load: r.does_not_load.clone(),
            notes: r.notes.clone(),
            summary: r.summary.clone(),
            scenarios: r.scenarios.clone(),
            elapsed_ms: r.elapsed_ms,
        }
    }
}

/// `summary.json`: the class at a glance.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SummaryFile {
    /// The layout version of this document.
    pub schema_version: u32,
    /// The boardgrade release that wrote it.
    pub boardgrade: String,
    #[serde(flatten)]
    pub class: ClassSummary,
}

impl SummaryFile {
    pub fn new(class: &ClassSummary) -> Self {
        SummaryFile {
            schema_version: SCHEMA_VERSION,
            boardgrade: BOARDGRADE.to_string(),
            class: class.clone(),
        }
    }
}
