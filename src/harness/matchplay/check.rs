//! A match table checked at load time, so a typo is reported with its place in the file
//! rather than as a failed run.

use crate::games::{minichess, Dialect, Game, OptionError};
use crate::scenario::{MatchDef, MatchSide};

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
