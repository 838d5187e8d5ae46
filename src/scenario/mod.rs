//! Scenarios: the on-disk format ([`model`]), loading ([`load`]), finding files
//! ([`sources`]) and the course files beside them ([`course`]).

pub mod battery;
pub mod code;
pub mod course;
pub mod lines;
pub mod load;
pub mod model;
pub mod sources;
mod steps;
pub mod text;

use std::time::Duration;

pub use model::{AwardDef, HandoutDef, MatchDef, MatchSide, Visibility};
pub use steps::Steps;

use crate::compare::{CompareMode, ExtraLines};
use crate::games::{Dialect, Game, GameOptions};
use crate::points::Points;
use crate::policy::Policy;

/// A scenario ready to run: every default applied, every name resolved.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The file it came from, as shown in reports.
    pub file: String,
    /// Line of its `name` in that file.
    pub line: usize,
    pub name: String,
    pub game: &'static dyn Game,
    pub dialect: &'static Dialect,
    pub handout: HandoutDef,
    pub points: Points,
    /// Credit for the steps matched before the divergence.
    pub partial_credit: bool,
    /// All-or-nothing group.
    pub group: Option<String>,
    pub visibility: Visibility,
    /// The course's message to a student whose submission fails this scenario while it is
    /// hidden from them.
    pub hidden_message: Option<String>,
    pub tags: Vec<String>,
    pub time_limit: Duration,
    pub compare: CompareMode,
    /// The scenario's own `extra_lines`; the policy's when `None`.
    pub extra_lines: Option<ExtraLines>,
    /// The response parts judged (call protocols); `None` judges every part. A divergence
    /// in another part is a note, not a failure.
    pub judge: Option<Vec<&'static str>>,
    pub options: GameOptions,
    /// The course policy of its dialect (the defaults unless a course file says otherwise).
    pub policy: Policy,
    /// Expected output before the first input; the reference's when `None`.
    pub opening: Option<String>,
    pub steps: Steps,
    /// What the scenario runs: its steps, a battery family's, a match, or a code check.
    pub kind: Kind,
}

/// What a scenario runs, one of four forms.
#[derive(Debug, Clone)]
pub enum Kind {
    /// Lines sent and what must come back (`steps`).
    Steps,
    /// A battery family's lines (`steps`), played from a seed.
    Battery(battery::Source),
    /// Whole games against the reference players (`steps` is empty).
    Match(MatchDef),
    /// A check of the submission's code (`steps` is empty).
    Code(code::CodeCheck),
}

/// One line sent, and what must come back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub send: String,
    /// The expected output; the reference's when `None`.
    pub expect: Option<String>,
    /// Other outputs accepted as correct.
    pub accept: Vec<String>,
    /// What lines the game never prints cost in the output after this step; the
    /// scenario's when `None`.
    pub extra_lines: Option<ExtraLines>,
    /// Whether its response is judged (call protocols); when not, a difference in it, an
    /// error included, is only a note.
    pub judged: bool,
    /// Line of the step in its file.
    pub line: usize,
}

impl Step {
    /// A step sending `send`, expecting what the reference answers.
    pub fn sending(send: String, line: usize) -> Step {
        Step {
            send,
            expect: None,
            accept: Vec::new(),
            extra_lines: None,
            judged: true,
            line,
        }
    }
}

impl Scenario {
    /// The match it plays, when it is one.
    pub fn play(&self) -> Option<&MatchDef> {
        match &self.kind {
            Kind::Match(play) => Some(play),
            _ => None,
        }
    }

    /// The code check it is, when it is one.
    pub fn code_check(&self) -> Option<&code::CodeCheck> {
        match &self.kind {
            Kind::Code(check) => Some(check),
            _ => None,
        }
    }

    /// Whether its steps are a battery family's.
    pub fn is_battery(&self) -> bool {
        matches!(self.kind, Kind::Battery(_))
    }

    /// Whether the scenario is about `topic`: tagged so, or the battery family of that name.
    pub fn is_about(&self, topic: &str) -> bool {
        self.tags.iter().any(|t| t == topic)
            || matches!(&self.kind, Kind::Battery(source) if source.family.name == topic)
    }

    /// `game/dialect`.
    pub fn dialect_id(&self) -> String {
        format!("{}/{}", self.game.name(), self.dialect.name)
    }

    /// How output is compared: trailing whitespace is forgiven when the scenario's `compare`
    /// or the course policy's `whitespace` says so.
    pub fn compare_mode(&self) -> CompareMode {
        match (self.compare, self.policy.whitespace()) {
            (CompareMode::Exact, CompareMode::Exact) => CompareMode::Exact,
            _ => CompareMode::TrailingWhitespace,
        }
    }

    /// What lines the game never prints cost: the scenario's `extra_lines`, else the
    /// course policy's.
    pub fn extra_lines(&self) -> ExtraLines {
        self.extra_lines
            .unwrap_or_else(|| self.policy.extra_lines())
    }

    /// What lines the game never prints cost in the output after `sent` lines were read (0:
    /// the opening): the step's own `extra_lines`, else the scenario's. A scenario about
    /// what some steps print (an invalid move's silence) judges those steps' lines, and
    /// notes a debug print after its other steps, which another scenario judges.
    pub fn extra_lines_after(&self, sent: usize) -> ExtraLines {
        let step = sent.checked_sub(1).and_then(|i| self.steps.get(i));
        step.and_then(|s| s.extra_lines)
            .unwrap_or_else(|| self.extra_lines())
    }

    /// One line of output (expected or actual) as it is compared: the game's own form, then
    /// the policy's accepted spellings.
    pub fn compared_line(&self, line: &str) -> String {
        let line = self.game.normalize_line(self.dialect, line);
        self.dialect
            .policy
            .canonical(&self.policy, &line)
            .into_owned()
    }
}
