//! The on-disk scenario format: plain data types read with serde.
//!
//! A file is one table. Its top-level keys are defaults for the scenarios listed under
//! `[[scenario]]`; a file holding a single scenario may instead give `name` and `steps` at the
//! top level. See `specs/README.md` for the format with a complete example.

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// One scenario table, or the file's top level (whose keys are then defaults).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: Option<Spanned<String>>,
    pub game: Option<Spanned<String>>,
    pub dialect: Option<Spanned<String>>,
    pub handout: Option<HandoutDef>,
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
    /// Wall-clock limit for the whole scenario, in seconds.
    pub time_limit: Option<Spanned<f64>>,
    pub compare: Option<CompareMode>,
    /// The parts of each response the scenario judges (call protocols; see the game's
    /// PROTOCOL.md); all of them when absent.
    pub judge: Option<Spanned<Vec<String>>>,
    /// Game options (see the game's PROTOCOL.md).
    pub options: Option<Spanned<toml::Table>>,
    /// What the program prints before the first input (program protocols); the reference's
    /// when absent.
    pub opening: Option<String>,
    pub steps: Option<Vec<Spanned<StepDef>>>,
    /// A match instead of steps: the submission plays whole games (see [`MatchDef`]).
    #[serde(rename = "match")]
    pub play: Option<Spanned<MatchDef>>,
    /// The scenarios of a file with several (top level only).
    pub scenario: Option<Vec<Spanned<Entry>>>,
}

/// Where in a handout a scenario comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HandoutDef {
    /// The handout file (a file of `shared/seeds/`); the dialect's handout when absent.
    pub seed: Option<String>,
    pub section: Option<String>,
}

/// One step: a line sent, and the output expected after it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepDef {
    pub send: Spanned<String>,
    /// The exact expected output; the reference's output when absent. A line holding only
    /// `...` matches any number of lines.
    pub expect: Option<String>,
    /// Other outputs that are also correct.
    #[serde(default)]
    pub accept: Vec<String>,
}

/// A match scenario's `[scenario.match]` table: the submission plays whole games through
/// its own functions against the game's reference players, every opponent in both colours
/// on every size, and earns each award whose threshold its record meets. The game's
/// PROTOCOL.md names its players.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchDef {
    /// Reference players to meet, by name.
    pub opponents: Vec<String>,
    /// Board sizes to play on.
    pub sizes: Vec<usize>,
    /// Games per opponent, colour and size.
    #[serde(default = "MatchDef::one")]
    pub games: u32,
    /// Seed of the random players (each game gets its own, derived from this one).
    #[serde(default)]
    pub seed: u64,
    /// The thresholds that earn points; the scenario's points are their sum.
    pub award: Vec<AwardDef>,
}

impl MatchDef {
    fn one() -> u32 {
        1
    }

    /// The most a submission can earn: every award's points.
    pub fn max_points(&self) -> f64 {
        self.award.iter().fold(0.0, |total, a| total + a.points)
    }
}

/// Points for a record that meets a threshold. At least one of `min_win_rate` and
/// `max_losses` is given; the games counted are the `opponent`'s (all when absent) played
/// on the `side`'s colour.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwardDef {
    pub points: f64,
    pub opponent: Option<String>,
    #[serde(default)]
    pub side: MatchSide,
    /// Least share of the counted games won, from 0 to 1.
    pub min_win_rate: Option<f64>,
    /// Most counted games lost.
    pub max_losses: Option<u32>,
}

/// Which of the submission's games an award counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchSide {
    #[default]
    Both,
    White,
    Black,
    /// The colour that wins the start position with perfect play.
    Winning,
    /// The colour that loses the start position with perfect play.
    Losing,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
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
}

/// How output is compared with the expectation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompareMode {
    /// Byte for byte.
    #[default]
    Exact,
    /// Spaces and tabs at line ends, and blank lines at the very end, do not count.
    TrailingWhitespace,
}

impl CompareMode {
    pub fn as_str(self) -> &'static str {
        match self {
            CompareMode::Exact => "exact",
            CompareMode::TrailingWhitespace => "trailing-whitespace",
        }
    }
}
