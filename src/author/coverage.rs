//! Coverage of the reference: which rule events of each game (a castle refused because its
//! path is attacked, a knight staying put at the edge) a set of scenarios reaches when the
//! reference plays them. A rule no scenario reaches is a rule a submission can break and
//! still get full marks, so the bundled specs are held to reaching every one.
//!
//! Each scenario's input is replayed on a reference session that counts its events (the
//! games name them: `Game::rule_events`); a match played against reference players has no
//! input of its own and counts nothing.

use crate::scenario::Scenario;

/// Where an event was first reached: the scenario's file and name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reach {
    pub file: String,
    pub scenario: String,
}

/// One rule event of one game, and how often the scenarios reached it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    pub game: &'static str,
    pub family: &'static str,
    pub event: &'static str,
    pub count: u64,
    /// The first scenario (in load order) that reached it; `None`: never reached.
    pub first: Option<Reach>,
}

/// A scenario the reference could not replay (its options do not start a session).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub file: String,
    pub scenario: String,
    pub reason: String,
}

/// The events of every game the scenarios play, in each game's order.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Coverage {
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
}

impl Coverage {
    /// The events no scenario reached.
    pub fn unreached(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|row| row.count == 0)
    }

    /// Whether every event was reached and every scenario replayed.
    pub fn is_complete(&self) -> bool {
        self.unreached().next().is_none() && self.skipped.is_empty()
    }
}

/// Replays every scenario's input on its reference, counting the rule events reached.
pub fn measure(scenarios: &[Scenario]) -> Coverage {
    let mut coverage = Coverage::default();
    for scenario in scenarios {
        let game = scenario.game;
        if !coverage.rows.iter().any(|row| row.game == game.name()) {
            coverage
                .rows
                .extend(game.rule_events().iter().map(|event| Row {
                    game: game.name(),
                    family: event.family,
                    event: event.name,
                    count: 0,
                    first: None,
                }));
        }
    }
    for scenario in scenarios.iter().filter(|s| s.play().is_none()) {
        let reached = match replay(scenario) {
            Ok(reached) => reached,
            Err(reason) => {
                coverage.skipped.push(Skipped {
                    file: scenario.file.clone(),
                    scenario: scenario.name.clone(),
                    reason,
                });
                continue;
            }
        };
        let game = scenario.game.name();
        for name in reached {
            // A name the game does not list is the game's own mistake, caught by its tests.
            let row = coverage
                .rows
                .iter_mut()
                .find(|r| r.game == game && r.event == name);
            if let Some(row) = row {
                row.count += 1;
                row.first.get_or_insert_with(|| Reach {
                    file: scenario.file.clone(),
                    scenario: scenario.name.clone(),
                });
            }
        }
    }
    coverage
}

/// The names of the events the reference reaches on `scenario`'s input.
fn replay(scenario: &Scenario) -> Result<Vec<&'static str>, String> {
    let mut session = scenario
        .game
        .start(scenario.dialect, &scenario.options)
        .map_err(|e| e.to_string())?;
    session.count_rule_events();
    session.opening();
    let mut reached = session.take_rule_events();
    for step in &scenario.steps {
        if session.is_finished() {
            break;
        }
        session.respond(&step.send);
        reached.extend(session.take_rule_events());
    }
    Ok(reached)
}
