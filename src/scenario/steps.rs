//! A scenario's steps: the ones its file writes, or a rule battery family's, played from the
//! battery's seed the first time they are read. A run that leaves a battery scenario out
//! (another game, another dialect, a filter) never plays its games, which for chess cost
//! more than loading every other bundled file; a scenario's copies share what was played.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use super::battery::Source;
use super::Step;

/// The steps of a scenario, read as a slice of [`Step`].
#[derive(Clone)]
pub struct Steps {
    played: Arc<OnceLock<Vec<Step>>>,
    /// The battery family that plays them; none for written steps.
    from: Option<Source>,
}

impl Steps {
    /// Steps as given.
    pub fn written(steps: Vec<Step>) -> Steps {
        Steps {
            played: Arc::new(OnceLock::from(steps)),
            from: None,
        }
    }

    /// The steps `source` plays, once they are first read.
    pub(super) fn played_by(source: Source) -> Steps {
        Steps {
            played: Arc::new(OnceLock::new()),
            from: Some(source),
        }
    }
}

impl From<Vec<Step>> for Steps {
    fn from(steps: Vec<Step>) -> Steps {
        Steps::written(steps)
    }
}

impl FromIterator<Step> for Steps {
    fn from_iter<I: IntoIterator<Item = Step>>(steps: I) -> Steps {
        Steps::written(steps.into_iter().collect())
    }
}

impl Deref for Steps {
    type Target = [Step];

    fn deref(&self) -> &[Step] {
        self.played
            .get_or_init(|| self.from.map(|source| source.steps()).unwrap_or_default())
    }
}

impl<'a> IntoIterator for &'a Steps {
    type Item = &'a Step;
    type IntoIter = std::slice::Iter<'a, Step>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.played.get(), self.from) {
            (None, Some(source)) => write!(f, "Steps(not yet played: {source:?})"),
            _ => f.debug_list().entries(self.iter()).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::battery::{Battery, Plan};

    fn step(send: &str) -> Step {
        Step::sending(send.to_string(), 1)
    }

    #[test]
    fn written_steps_read_as_given() {
        let steps = Steps::written(vec![step("a"), step("b")]);
        let sent: Vec<&str> = steps.iter().map(|s| s.send.as_str()).collect();
        assert_eq!(sent, ["a", "b"]);
        assert_eq!(steps, Steps::from(vec![step("a"), step("b")]));
        assert_ne!(steps, Steps::written(vec![step("a")]));
    }

    #[test]
    fn a_battery_family_plays_when_first_read_and_its_copies_share_the_play() {
        let battery: &'static dyn Battery = crate::games::REGISTRY
            .iter()
            .find_map(|game| game.dialects().iter().find_map(|d| d.battery))
            .expect("a bundled dialect with a battery");
        let plan = Plan {
            seed: 3,
            games: 1,
            plies: 10,
        };
        let source = Source::new(battery, &battery.families()[0], plan, 7);
        let steps = Steps::played_by(source);
        let copy = steps.clone();
        assert!(steps.played.get().is_none(), "played before it was read");
        assert!(format!("{steps:?}").contains("not yet played"));
        assert!(!copy.is_empty());
        assert!(
            steps.played.get().is_some(),
            "the copy's play is not shared"
        );
        let lines = battery.lines(&battery.families()[0], plan);
        let sent: Vec<&str> = steps.iter().map(|s| s.send.as_str()).collect();
        assert_eq!(sent, lines);
        assert!(steps.iter().all(|s| s.line == 7));
    }
}
