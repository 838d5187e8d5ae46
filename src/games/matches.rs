//! Match play, as a game offers it: the submission plays whole games through its own
//! functions against the game's reference players and earns points by thresholds on its
//! record. A scenario's `[scenario.match]` table is a [`MatchDef`]; a game that has match
//! play implements [`MatchPlay`] and returns it from [`Game::match_play`]; the games are
//! played over a [`Conversation`] with whatever answers for the submission (the reference in
//! process, or the student's program), and come back as [`GameResult`]s for the harness to
//! score.

use std::collections::VecDeque;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Dialect, Game, OptionError, Response, Session, REGISTRY};
use crate::execution::bounds;
use crate::points::Points;
use crate::verdict::{Verdict, MAX_POINTS};

/// A game's match play.
pub trait MatchPlay: Sync {
    /// The game's own checks of a match table (its players, its board sizes), after the
    /// checks every match gets; a problem names the key at fault.
    fn check(&self, dialect: &Dialect, def: &MatchDef) -> Result<(), OptionError>;

    /// Plays every game of the match, in a fixed order, with `conversation` answering on
    /// the submission's side. An error is a problem of the match itself, not the student's.
    fn play(
        &self,
        dialect: &Dialect,
        def: &MatchDef,
        conversation: &mut dyn Conversation,
    ) -> Result<Vec<GameResult>, String>;
}

/// A match scenario's `[scenario.match]` table: the submission plays whole games through
/// its own functions against the game's reference players, every opponent in both colours
/// on every size, and earns each award whose threshold its record meets. The game's
/// PROTOCOL.md names its players.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
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
    /// Seconds the submission may take to answer one call (each of its calls on its turn);
    /// a call answered later loses that game alone, and the program is started again for
    /// the next. 2 when absent. The scenario's `time_limit` bounds its answering over the
    /// whole match.
    #[serde(default)]
    pub call_time_limit: Option<f64>,
    /// The thresholds that earn points; the scenario's points are their sum.
    pub award: Vec<AwardDef>,
}

/// A match's time limit for one call when its table gives none: far above what a chooser
/// that looks ahead needs on the handouts' boards (a tenth of a second to a second), so that
/// a loaded machine does not make a move late.
pub const DEFAULT_CALL_TIME_LIMIT: Duration = Duration::from_secs(2);

impl MatchDef {
    fn one() -> u32 {
        1
    }

    /// The time one call may take to answer (checked when the table is read).
    pub fn call_time_limit(&self) -> Duration {
        self.call_time_limit
            .and_then(|seconds| bounds::time_limit(seconds).ok())
            .unwrap_or(DEFAULT_CALL_TIME_LIMIT)
    }

    /// The most a submission can earn: every award's points.
    pub fn max_points(&self) -> Points {
        self.award.iter().map(AwardDef::points).sum()
    }

    /// True when some award counts games by which side wins in theory.
    pub fn uses_theory(&self) -> bool {
        self.award
            .iter()
            .any(|a| matches!(a.side, MatchSide::Winning | MatchSide::Losing))
    }
}

/// Points for a record that meets a threshold. At least one of `min_win_rate` and
/// `max_losses` is given; the games counted are the `opponent`'s (all when absent) played
/// on the `side`'s colour.
#[derive(Debug, Clone, PartialEq, Deserialize, schemars::JsonSchema)]
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

impl AwardDef {
    /// The award's points, exact (a file's finer points are refused when it is read).
    pub fn points(&self) -> Points {
        Points::nearest(self.points)
    }
}

/// Which of the submission's games an award counts.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema,
)]
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

/// Most games per opponent, colour and size.
pub const MAX_GAMES: u32 = 1000;

/// Checks a match table against its game (at load time, so a typo is reported with its
/// place in the file rather than as a failed run): a problem names the key at fault.
pub fn check(game: &dyn Game, dialect: &Dialect, def: &MatchDef) -> Result<(), OptionError> {
    if def.opponents.is_empty() {
        return Err(OptionError::new("opponents", "name at least one opponent"));
    }
    if let Some((i, name)) = def
        .opponents
        .iter()
        .enumerate()
        .find(|(i, name)| def.opponents[..*i].contains(name))
    {
        return Err(OptionError::new(
            format!("opponents[{i}]"),
            format!("{name:?} is listed twice"),
        ));
    }
    if def.sizes.is_empty() {
        return Err(OptionError::new("sizes", "give at least one board size"));
    }
    if !(1..=MAX_GAMES).contains(&def.games) {
        return Err(OptionError::new(
            "games",
            format!("games per opponent, colour and size must be 1 to {MAX_GAMES}"),
        ));
    }
    if let Some(seconds) = def.call_time_limit {
        bounds::time_limit(seconds)
            .map_err(|e| OptionError::new("call_time_limit", format!("{e}; found {seconds}")))?;
    }
    if def.award.is_empty() {
        return Err(OptionError::new(
            "award",
            "give at least one [[scenario.match.award]]",
        ));
    }
    for (i, award) in def.award.iter().enumerate() {
        let key = |field: &str| format!("award[{i}].{field}");
        if !(0.0..=MAX_POINTS.as_f64()).contains(&award.points) {
            return Err(OptionError::new(
                key("points"),
                format!("points must be from 0 to {MAX_POINTS}"),
            ));
        }
        if Points::exact(award.points).is_none() {
            return Err(OptionError::new(
                key("points"),
                format!(
                    "points are counted in thousandths of a point, and {} is finer",
                    award.points
                ),
            ));
        }
        if let Some(opponent) = award
            .opponent
            .as_ref()
            .filter(|o| !def.opponents.contains(o))
        {
            return Err(OptionError::new(
                key("opponent"),
                format!("{opponent:?} is not one of the match's opponents"),
            ));
        }
        if award.min_win_rate.is_none() && award.max_losses.is_none() {
            return Err(OptionError::new(
                key("min_win_rate"),
                "give min_win_rate, max_losses or both",
            ));
        }
        if award
            .min_win_rate
            .is_some_and(|r| !(0.0..=1.0).contains(&r))
        {
            return Err(OptionError::new(
                key("min_win_rate"),
                "a share of the games, from 0 to 1",
            ));
        }
    }
    if def.max_points() > MAX_POINTS {
        return Err(OptionError::new(
            "award",
            format!(
                "the awards' points add up to {}, above the {MAX_POINTS} a scenario may be worth",
                def.max_points()
            ),
        ));
    }
    match game.match_play() {
        Some(play) => play.check(dialect, def),
        None => Err(OptionError::new(
            "match",
            format!(
                "{} has no match play (matches are played in {})",
                game.name(),
                with_match_play().join(", ")
            ),
        )),
    }
}

/// The names of the games that have match play, for messages.
fn with_match_play() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|g| g.match_play().is_some())
        .map(|g| g.name())
        .collect()
}

/// The program stopped answering, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Stop {
    /// The verdict this stop earns the match (never `pass`).
    pub kind: Verdict,
    pub detail: String,
}

/// A line-by-line exchange with whatever plays the submission's side.
pub trait Conversation {
    fn send(&mut self, line: &str) -> Result<(), Stop>;
    fn read_line(&mut self) -> Result<String, Stop>;
}

/// The reference session answering in-process.
pub struct ReferenceConversation {
    session: Box<dyn Session>,
    pending: VecDeque<String>,
}

impl ReferenceConversation {
    pub fn new(session: Box<dyn Session>) -> Self {
        ReferenceConversation {
            session,
            pending: VecDeque::new(),
        }
    }
}

impl Conversation for ReferenceConversation {
    fn send(&mut self, line: &str) -> Result<(), Stop> {
        // Framed as a program speaking the call protocol frames it.
        let reply = Response::from_text(&self.session.respond(line).text);
        self.pending
            .extend(reply.encode().lines().map(str::to_string));
        Ok(())
    }

    fn read_line(&mut self) -> Result<String, Stop> {
        self.pending.pop_front().ok_or_else(|| Stop {
            kind: Verdict::Error,
            detail: "the reference gave no answer".into(),
        })
    }
}

/// One finished game, from the submission's side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GameResult {
    pub opponent: String,
    pub size: usize,
    /// The submission's colour, `white` or `black`.
    pub color: String,
    /// Whether that colour wins the start position with perfect play, where known.
    pub winning_side: Option<bool>,
    /// The seed of the game's random choices.
    pub seed: u64,
    pub won: bool,
    /// True when the submission lost by failing on its turn (a wrong answer, or no answer).
    pub forfeit: bool,
    /// How the game ended, in words.
    pub ending: String,
    /// The moves played, in order, each with its colour (`white (0,1)-(1,1)`).
    pub moves: Vec<String>,
    /// The last position, as a text grid.
    pub final_board: String,
    /// Set when the program stopped answering (and so lost the game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
}
