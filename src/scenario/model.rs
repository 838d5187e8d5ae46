//! The on-disk scenario format: plain data types read with serde.
//!
//! A file is one table. Its top-level keys are defaults for the scenarios listed under
//! `[[scenario]]`; a file holding a single scenario may instead give `name` and `steps` at the
//! top level. See `specs/README.md` for the format with a complete example.

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::compare::{CompareMode, ExtraLines};
use crate::execution::Secrecy;

pub use super::code::CodeDef;

pub use crate::games::matches::{AwardDef, MatchDef, MatchSide};

/// One scenario table, or the file's top level (whose keys are then defaults).
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "boardgrade scenario file")]
pub struct Entry {
    #[schemars(with = "Option<String>")]
    pub name: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub game: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub dialect: Option<Spanned<String>>,
    pub handout: Option<HandoutDef>,
    #[schemars(with = "Option<f64>")]
    pub points: Option<Spanned<f64>>,
    /// Points for the steps that matched before the first divergence.
    pub partial_credit: Option<bool>,
    /// All-or-nothing group: its scenarios score only if all of them pass.
    pub group: Option<String>,
    pub visibility: Option<Visibility>,
    /// What a student is told when this scenario fails while hidden from them, in place of
    /// nothing at all.
    pub hidden_message: Option<String>,
    pub tags: Option<Vec<String>>,
    /// Wall-clock limit for the whole scenario, in seconds (from 1 to 3600).
    #[schemars(with = "Option<f64>")]
    pub time_limit: Option<Spanned<f64>>,
    pub compare: Option<CompareMode>,
    /// Whether a whole program's lines that the game never prints fail the scenario
    /// (`judged`) or are left out and noted (`noted`); the course policy's `extra_lines`
    /// when absent.
    pub extra_lines: Option<ExtraLines>,
    /// The parts of each response the scenario judges (call protocols; see the game's
    /// PROTOCOL.md); all of them when absent.
    #[schemars(with = "Option<Vec<String>>")]
    pub judge: Option<Spanned<Vec<String>>>,
    /// Game options (see the game's PROTOCOL.md).
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub options: Option<Spanned<toml::Table>>,
    /// What the program prints before the first input (program protocols); the reference's
    /// when absent.
    pub opening: Option<String>,
    #[schemars(with = "Option<Vec<StepDef>>")]
    pub steps: Option<Vec<Spanned<StepDef>>>,
    /// A match instead of steps: the submission plays whole games (see [`MatchDef`]).
    #[serde(rename = "match")]
    #[schemars(with = "Option<MatchDef>")]
    pub play: Option<Spanned<MatchDef>>,
    /// A rule battery instead of steps: one scenario per rule family, each worth `points`
    /// (see [`BatteryDef`]).
    #[schemars(with = "Option<BatteryDef>")]
    pub battery: Option<Spanned<BatteryDef>>,
    /// A code check instead of steps: a rule the handout states about the submission's code,
    /// read without running it (see [`CodeDef`]).
    #[schemars(with = "Option<CodeDef>")]
    pub code: Option<Spanned<CodeDef>>,
    /// The scenarios of a file with several (top level only).
    #[schemars(with = "Option<Vec<Entry>>")]
    pub scenario: Option<Vec<Spanned<Entry>>>,
}

/// A rule battery: from `seed`, the reference plays `games` games per rule family, each at
/// most `plies` moves, trying the moves buggy programs get wrong (see the game's
/// PROTOCOL.md for its families).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BatteryDef {
    /// The seed; a course file's `battery_seed`, or `--seed`, replaces it.
    pub seed: Option<u64>,
    /// Games per family.
    pub games: Option<usize>,
    /// Most moves per game.
    pub plies: Option<usize>,
    /// The families played; all of the game's when absent.
    pub families: Option<Vec<String>>,
}

/// Where in a handout a scenario comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandoutDef {
    /// The handout file (a file of `shared/seeds/`); the dialect's handout when absent.
    pub seed: Option<String>,
    pub section: Option<String>,
}

/// One step: a line sent, and the output expected after it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDef {
    #[schemars(with = "String")]
    pub send: Spanned<String>,
    /// The exact expected output; the reference's output when absent. A line holding only
    /// `...` matches any number of lines.
    pub expect: Option<String>,
    /// Other outputs that are also correct.
    #[serde(default)]
    pub accept: Vec<String>,
    /// What lines the game never prints cost in the output after this step (`judged` or
    /// `noted`); the scenario's `extra_lines` when absent.
    pub extra_lines: Option<ExtraLines>,
    /// Call protocols: `false` sends the step as any other but only notes its response, an
    /// error included, never failing the scenario on it: a call made for what it leaves
    /// behind, as a course's driver calls `move_maker` before `move_chooser`, in a scenario
    /// that judges the chooser. `true` when absent.
    pub judged: Option<bool>,
}

#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Visible,
    Hidden,
    AfterDueDate,
    AfterPublished,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }

    /// How secret the results are, from 0 (shown now): results shown after the due date
    /// are less secret than those shown once published, and hidden ones most.
    pub fn secrecy(self) -> Secrecy {
        Secrecy(match self {
            Visibility::Visible => 0,
            Visibility::AfterDueDate => 1,
            Visibility::AfterPublished => 2,
            Visibility::Hidden => 3,
        })
    }
}
