//! A class's results: `grade --format json`, `grade --report json=PATH` and `summary.json`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::SubmissionReport;
use super::{BOARDGRADE, SCHEMA_VERSION};
use crate::grade::class::ClassSummary;
use crate::grade::{Skipped, SubmissionResult};

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
            submissions: results.to_vec(),
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
