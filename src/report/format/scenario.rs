//! One scenario's result and a run's totals, as the JSON formats publish them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::harness::matchplay::MatchReport;
use crate::harness::{Divergence, Finding, Outcome, Summary};
use crate::points::Points;
use crate::scenario::Visibility;
use crate::verdict::Verdict;

/// The result of one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScenarioResult {
    /// The scenario file, as given or as bundled (`specs/...`).
    pub file: String,
    /// The line of the scenario's table in its file.
    pub line: usize,
    /// The scenario's name, unique in its file.
    pub name: String,
    /// The game, as `boardgrade games` names it.
    pub game: String,
    /// The dialect of the game.
    pub dialect: String,
    /// The verdict: `pass`, or what went wrong.
    pub verdict: Verdict,
    /// Points earned.
    pub score: Points,
    /// Points the scenario is worth.
    pub max_score: Points,
    /// Where the output first went wrong (none when it did not, or no output was compared).
    pub first_divergence: Option<Divergence>,
    /// Steps whose output matched before the first divergence.
    pub steps_matched: usize,
    /// Steps (lines sent) of the scenario.
    pub steps_total: usize,
    /// The scenario's all-or-nothing group.
    pub group: Option<String>,
    /// A one-line explanation (exit status, limit hit, scenario problem).
    pub detail: Option<String>,
    /// The end of the program's stderr, when it matters.
    pub stderr_tail: Option<String>,
    /// The session as a terminal would show it, up to the divergence.
    pub transcript: Option<String>,
    /// Who may see the scenario's details, and when.
    pub visibility: Visibility,
    /// The course's message for a failure while the scenario is hidden from the student.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_message: Option<String>,
    /// The scenario's tags.
    pub tags: Vec<String>,
    /// The handout the scenario transcribes.
    pub handout: Option<String>,
    /// The handout section the scenario comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Wall-clock time of the run, in milliseconds.
    pub duration_ms: u64,
    /// Differences in response parts the scenario does not judge: shown, never failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// A match scenario's record, awards and lost games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<MatchReport>,
    /// A code check's findings: file, line and the rule broken.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

impl From<&Outcome> for ScenarioResult {
    fn from(o: &Outcome) -> Self {
        ScenarioResult {
            file: o.file.clone(),
            line: o.line,
            name: o.name.clone(),
            game: o.game.clone(),
            dialect: o.dialect.clone(),
            verdict: o.verdict,
            score: o.score,
            max_score: o.max_score,
            first_divergence: o.first_divergence.clone(),
            steps_matched: o.steps_matched,
            steps_total: o.steps_total,
            group: o.group.clone(),
            detail: o.detail.clone(),
            stderr_tail: o.stderr_tail.clone(),
            transcript: o.transcript.clone(),
            visibility: o.visibility,
            hidden_message: o.hidden_message.clone(),
            tags: o.tags.clone(),
            handout: o.handout.clone(),
            section: o.section.clone(),
            duration_ms: o.duration_ms,
            notes: o.notes.clone(),
            matches: o.matches.clone(),
            findings: o.findings.clone(),
        }
    }
}

/// The results of scenarios, each converted.
pub fn results(outcomes: &[Outcome]) -> Vec<ScenarioResult> {
    outcomes.iter().map(ScenarioResult::from).collect()
}

/// Totals of a set of scenarios.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    /// Scenarios that passed.
    pub passed: usize,
    /// Scenarios that did not pass (errors included).
    pub failed: usize,
    /// Scenarios whose verdict is `error` (a harness or scenario problem).
    pub errors: usize,
    /// Points earned.
    pub score: Points,
    /// Points there were to earn.
    pub max_score: Points,
    /// How many scenarios got each verdict, by verdict.
    pub verdicts: BTreeMap<String, usize>,
}

impl From<&Summary> for Totals {
    fn from(s: &Summary) -> Self {
        Totals {
            passed: s.passed,
            failed: s.failed,
            errors: s.errors,
            score: s.score,
            max_score: s.max_score,
            verdicts: s.verdicts.clone(),
        }
    }
}
