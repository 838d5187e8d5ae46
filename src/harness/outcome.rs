//! The result of one scenario, as reports and scripts see it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::games::CellDiff;
use crate::points::Points;
use crate::scenario::{Scenario, Visibility};
pub use crate::verdict::Verdict;

/// Where the output first went wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Divergence {
    /// Step number: 0 is the output before any input, 1 the first step.
    pub step: usize,
    /// The line sent at that step (none for step 0).
    pub send: Option<String>,
    /// The lines sent before it (the last few), to replay the case.
    pub sent_before: Vec<String>,
    /// What the step expected (its first accepted form).
    pub expected: String,
    /// What the program printed for that step (bounded).
    pub actual: String,
    /// 1-based line within the step's output where they first differ.
    pub line: usize,
    /// Board cells that differ, where the game can read its boards.
    pub cells: Vec<CellDiff>,
    /// The game's own explanation of the difference.
    pub notes: Vec<String>,
    /// Other accepted forms of the step's output.
    pub also_accepted: Vec<String>,
    /// Line of the step in its scenario file.
    pub source_line: Option<usize>,
}

/// What a code check found wrong in the submission's code: a file, a line and the rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Finding {
    /// The file, relative to the submission.
    pub file: String,
    pub line: usize,
    /// The rule broken and how (`code outside functions: `x = 3``).
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// The result of one scenario: everything known about its run. The JSON formats publish
/// this type itself, as `ScenarioResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ScenarioResult")]
pub struct Outcome {
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<super::matchplay::record::MatchReport>,
    /// A code check's findings: file, line and the rule broken.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

/// An outcome with the scenario's identity, no score yet, and nothing else known.
pub fn base_outcome(scenario: &Scenario, verdict: Verdict) -> Outcome {
    Outcome {
        file: scenario.file.clone(),
        line: scenario.line,
        name: scenario.name.clone(),
        game: scenario.game.name().to_string(),
        dialect: scenario.dialect.name.to_string(),
        verdict,
        score: Points::ZERO,
        // The maximum is the scenario's, whatever happened: an `error` scores none of it.
        max_score: scenario.points,
        first_divergence: None,
        steps_matched: 0,
        steps_total: scenario.steps.len(),
        group: scenario.group.clone(),
        detail: None,
        stderr_tail: None,
        transcript: None,
        visibility: scenario.visibility,
        hidden_message: scenario.hidden_message.clone(),
        tags: scenario.tags.clone(),
        handout: handout_label(scenario),
        section: scenario.handout.section.clone(),
        duration_ms: 0,
        matches: None,
        notes: Vec::new(),
        findings: Vec::new(),
    }
}

/// A scenario the submission's own slowness left no time for (its time budget was spent
/// by its other scenarios): a timeout, scored 0, never run.
pub fn not_run_outcome(scenario: &Scenario, detail: String) -> Outcome {
    Outcome {
        detail: Some(detail),
        ..base_outcome(scenario, Verdict::Timeout)
    }
}

/// An outcome for a scenario that could not be run at all.
pub fn error_outcome(scenario: &Scenario, detail: String) -> Outcome {
    Outcome {
        detail: Some(detail),
        ..base_outcome(scenario, Verdict::Error)
    }
}

fn handout_label(scenario: &Scenario) -> Option<String> {
    match (&scenario.handout.seed, &scenario.handout.section) {
        (Some(seed), Some(section)) => Some(format!("{seed}, {section}")),
        (Some(seed), None) => Some(seed.clone()),
        (None, Some(section)) => Some(section.clone()),
        (None, None) => None,
    }
}
