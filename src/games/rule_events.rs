//! Rule events: what the reference engines count so that `boardgrade coverage` can say
//! which rules the scenarios reach (a castle refused because its path is attacked, a knight
//! staying put at the edge). Each game names its own events in an enum in its folder
//! ([`rule_events!`]); the harness sees only their names, through [`crate::games::Game`] and
//! [`crate::games::Session`].
//!
//! Counting is off unless a caller asks for it: a session's [`EventLog`] is empty then, and
//! noting an event is one branch, so grading never pays for classifying moves.

/// One event a game's reference can reach: its family (the rule it belongs to) and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleEvent {
    pub family: &'static str,
    pub name: &'static str,
}

/// A game's event type: every value has a name listed in its `ALL`.
pub trait Named: Copy {
    fn name(self) -> &'static str;
}

/// Declares a game's rule events: an enum, its [`Named`] names and `ALL`, every event with
/// its family, in report order.
#[macro_export]
macro_rules! rule_events {
    ($(#[$meta:meta])* $vis:vis enum $enum:ident {
        $($variant:ident => ($family:expr, $name:literal),)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $enum {
            $($variant,)+
        }

        impl $enum {
            /// Every event, with its family, in report order.
            pub const ALL: &'static [$crate::games::rule_events::RuleEvent] = &[
                $($crate::games::rule_events::RuleEvent { family: $family, name: $name },)+
            ];
        }

        impl $crate::games::rule_events::Named for $enum {
            fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)+
                }
            }
        }
    };
}

/// The events a session reached since they were last taken, while counting is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventLog<E> {
    events: Option<Vec<E>>,
}

impl<E> Default for EventLog<E> {
    fn default() -> Self {
        EventLog { events: None }
    }
}

impl<E: Named> EventLog<E> {
    /// Starts counting.
    pub fn start(&mut self) {
        self.events.get_or_insert_with(Vec::new);
    }

    /// Whether events are being counted (a caller may skip classifying when not).
    pub fn is_on(&self) -> bool {
        self.events.is_some()
    }

    /// Notes `event` when counting.
    pub fn note(&mut self, event: E) {
        if let Some(events) = &mut self.events {
            events.push(event);
        }
    }

    /// Notes the events `classify` finds, calling it only when counting.
    pub fn note_with<I: IntoIterator<Item = E>>(&mut self, classify: impl FnOnce() -> I) {
        if let Some(events) = &mut self.events {
            events.extend(classify());
        }
    }

    /// The names of the events noted since the last call.
    pub fn take(&mut self) -> Vec<&'static str> {
        match &mut self.events {
            Some(events) => events.drain(..).map(Named::name).collect(),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::rule_events! {
        enum Sample {
            Step => ("moves", "step"),
            Jump => ("moves", "jump"),
        }
    }

    #[test]
    fn a_log_counts_only_once_started() {
        let mut log = EventLog::default();
        log.note(Sample::Step);
        log.note_with(|| -> Vec<Sample> { panic!("classified while not counting") });
        assert!(log.take().is_empty());
        log.start();
        log.note(Sample::Jump);
        log.note_with(|| [Sample::Step]);
        assert_eq!(log.take(), ["jump", "step"]);
        assert!(log.take().is_empty());
    }

    #[test]
    fn every_event_is_listed_with_its_family() {
        assert_eq!(
            Sample::ALL,
            [
                RuleEvent {
                    family: "moves",
                    name: "step"
                },
                RuleEvent {
                    family: "moves",
                    name: "jump"
                },
            ]
        );
    }
}
