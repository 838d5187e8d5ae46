//! Match scenarios: instead of replaying steps, the submission plays whole games against the
//! game's reference players, through its own functions, and earns points by thresholds on
//! its record (a scenario's `[scenario.match]` table, see [`MatchDef`]).
//!
//! The games themselves are the game's business (`games::minichess::matches`); this module
//! checks the table, connects the submission ([`conversation`]), and turns the record
//! ([`record`]) into an [`Outcome`].

pub mod conversation;
pub mod record;

use std::time::Instant;

use conversation::{Conversation, ProcessConversation, ReferenceConversation, StopKind};
pub use record::{AwardResult, GameResult, MatchReport, Record};

use super::judge::error_outcome;
use super::outcome::{Outcome, Verdict};
use crate::games::{minichess, Dialect, Game, OptionError};
use crate::scenario::{MatchDef, MatchSide, Scenario};
use crate::target::{Limits, Target};

/// Most games per opponent, colour and size.
pub const MAX_GAMES: u32 = 1000;

/// Checks a match table against its game: a problem names the key at fault.
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
    if def.award.is_empty() {
        return Err(OptionError::new(
            "award",
            "give at least one [[scenario.match.award]]",
        ));
    }
    for (i, award) in def.award.iter().enumerate() {
        let key = |field: &str| format!("award[{i}].{field}");
        if !(award.points.is_finite() && award.points >= 0.0) {
            return Err(OptionError::new(key("points"), "points must be at least 0"));
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
    match game.name() {
        minichess::NAME => minichess::matches::check(dialect, def),
        other => Err(OptionError::new(
            "match",
            format!(
                "{other} has no match play (matches are played in {})",
                minichess::NAME
            ),
        )),
    }
}

/// True when some award counts games by which side wins in theory.
pub fn uses_theory(def: &MatchDef) -> bool {
    def.award
        .iter()
        .any(|a| matches!(a.side, MatchSide::Winning | MatchSide::Losing))
}

/// Plays the match of `scenario` with `target` on the submission's side.
pub fn run(scenario: &Scenario, def: &MatchDef, target: &Target, limits: &Limits) -> Outcome {
    let started = Instant::now();
    let (game, dialect) = (scenario.game, scenario.dialect);
    let launch = match target.launch(game, dialect) {
        Ok(launch) => launch,
        Err(error) => return error_outcome(scenario, error.to_string()),
    };
    let (games, stderr) = match &launch {
        None => match game.start(dialect.name, &scenario.options) {
            Ok(session) => (
                play(game, dialect, def, &mut ReferenceConversation::new(session)),
                Vec::new(),
            ),
            Err(error) => return error_outcome(scenario, error.to_string()),
        },
        Some(launch) => {
            let mut process = ProcessConversation::new(launch, limits, scenario.time_limit);
            let games = play(game, dialect, def, &mut process);
            (games, process.stderr_tail())
        }
    };
    let games = match games {
        Ok(games) => games,
        Err(problem) => return error_outcome(scenario, problem),
    };
    let report = MatchReport::new(def, &games);
    let mut outcome = error_outcome(scenario, String::new());
    let stops: Vec<StopKind> = games
        .iter()
        .filter_map(|g| g.stop.as_ref())
        .map(|s| s.kind)
        .collect();
    outcome.verdict = verdict(&report, &stops);
    outcome.score = report.score();
    outcome.max_score = if outcome.verdict == Verdict::Error {
        0.0
    } else {
        scenario.points
    };
    let met = report.awards.iter().filter(|a| a.met).count();
    let mut detail = format!("met {met} of {} award(s)", report.awards.len());
    if let Some((game, stop)) = games.iter().find_map(|g| Some((g, g.stop.as_ref()?))) {
        detail.push_str(&format!(
            "; the program stopped answering in the game against {} as {} on {3}x{3}: {}",
            game.opponent, game.color, stop.detail, game.size
        ));
    }
    outcome.detail = (!outcome.verdict.passed()).then_some(detail);
    let stderr = crate::compare::visible::lossless(&stderr);
    outcome.stderr_tail = (!outcome.verdict.passed() && !stderr.trim().is_empty())
        .then(|| stderr.trim_end().to_string());
    outcome.duration_ms = started.elapsed().as_millis() as u64;
    outcome.matches = Some(report);
    outcome
}

fn play(
    game: &dyn Game,
    dialect: &Dialect,
    def: &MatchDef,
    conversation: &mut dyn Conversation,
) -> Result<Vec<GameResult>, String> {
    match game.name() {
        minichess::NAME => minichess::matches::play(dialect, def, conversation),
        other => Err(format!("{other} has no match play")),
    }
}

/// The worst way the program stopped during the match, if it did (its points still count:
/// they are earned by the games' record); else pass when every award is met, and wrong when
/// the record falls short.
fn verdict(report: &MatchReport, stops: &[StopKind]) -> Verdict {
    if stops.contains(&StopKind::NotStarted) {
        return Verdict::Error;
    }
    let order = [
        (StopKind::Timeout, Verdict::Timeout),
        (StopKind::MemoryLimit, Verdict::MemoryLimit),
        (StopKind::OutputLimit, Verdict::OutputLimit),
        (StopKind::Crash, Verdict::Crash),
    ];
    match order.iter().find(|(kind, _)| stops.contains(kind)) {
        Some((_, verdict)) => *verdict,
        None if report.all_met() => Verdict::Pass,
        None => Verdict::Wrong,
    }
}
