//! `boardgrade test --format json` and `--report json=PATH`: one document per run.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ScenarioResult, Totals};
use super::{BOARDGRADE, SCHEMA_VERSION};
use crate::error::ScenarioFileError;
use crate::harness::{Outcome, Summary};

/// A `test` run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TestReport {
    /// The layout version of this document.
    pub schema_version: u32,
    /// The boardgrade release that wrote it.
    pub boardgrade: String,
    /// The program under test, in words.
    pub target: String,
    pub summary: Totals,
    pub scenarios: Vec<ScenarioResult>,
    /// Scenario files that could not be loaded (none of their scenarios ran).
    pub invalid_files: Vec<InvalidFile>,
}

impl TestReport {
    pub fn new(target: &str, outcomes: &[Outcome], invalid: &[ScenarioFileError]) -> Self {
        TestReport {
            schema_version: SCHEMA_VERSION,
            boardgrade: BOARDGRADE.to_string(),
            target: target.to_string(),
            summary: Summary::of(outcomes),
            scenarios: outcomes.to_vec(),
            invalid_files: invalid.iter().map(InvalidFile::from).collect(),
        }
    }
}

/// A scenario file that could not be loaded, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InvalidFile {
    /// The scenario file.
    pub file: String,
    /// 1-based line of the fault.
    pub line: usize,
    /// 1-based column of the fault, in characters.
    pub column: usize,
    /// The key at fault, where one is.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl From<&ScenarioFileError> for InvalidFile {
    fn from(e: &ScenarioFileError) -> Self {
        InvalidFile {
            file: e.file.clone(),
            line: e.line,
            column: e.column,
            key: e.key.clone(),
            message: e.message.clone(),
        }
    }
}
