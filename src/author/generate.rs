//! Random games from the reference: legal moves with some illegal attempts mixed in, and
//! probes of the position (`board`, `result`) for call protocols, reproducible from a seed.

use super::setup::Setup;
use super::write::{FileHead, ScenarioText};
use crate::error::Error;
use crate::games::Session;
use crate::rng::Rng;
use crate::scenario::Visibility;

/// How a random game is played.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Most lines sent (moves, attempts and probes together).
    pub max_steps: usize,
    /// One line in this many is an illegal attempt, where the game offers one.
    pub illegal_one_in: u32,
    /// Probe the position after every line (fuzzing: the first wrong state shows at once);
    /// otherwise after one line in four.
    pub probe_always: bool,
}

impl Style {
    /// Hidden tests: moderate games, probed now and then and at the end.
    pub const SCENARIOS: Style = Style {
        max_steps: 60,
        illegal_one_in: 8,
        probe_always: false,
    };
    /// Differential testing: long games probed after every move.
    pub const FUZZ: Style = Style {
        max_steps: 200,
        illegal_one_in: 6,
        probe_always: true,
    };
}

/// The lines of one random game. Every line is defined when it is sent, so the result is
/// a valid scenario.
pub fn random_game(setup: &Setup, rng: &mut Rng, style: Style) -> Result<Vec<String>, Error> {
    let mut session = setup.session()?;
    session.opening();
    let mut lines: Vec<String> = Vec::new();
    let send = |session: &mut dyn Session, lines: &mut Vec<String>, line: String| {
        session.respond(&line);
        lines.push(line);
    };
    let mut sent = 0;
    while sent < style.max_steps && !session.is_finished() {
        let legal = session.legal_inputs();
        if legal.is_empty() {
            break;
        }
        let illegal = session.illegal_inputs();
        let pool = if !illegal.is_empty() && rng.chance(1, style.illegal_one_in) {
            &illegal
        } else {
            &legal
        };
        if let Some(line) = rng.pick(pool).cloned() {
            send(session.as_mut(), &mut lines, line);
            sent += 1;
        }
        let probes = session.probe_inputs();
        if !session.is_finished()
            && !probes.is_empty()
            && sent < style.max_steps
            && (style.probe_always || rng.chance(1, 4))
        {
            if let Some(probe) = rng.pick(&probes).cloned() {
                send(session.as_mut(), &mut lines, probe);
                sent += 1;
            }
        }
    }
    // The final position, seen through every probe.
    if !session.is_finished() {
        let last = lines.last().cloned();
        for probe in session.probe_inputs() {
            if last.as_ref() != Some(&probe) {
                send(session.as_mut(), &mut lines, probe);
            }
        }
    }
    Ok(lines)
}

/// What `boardgrade gen` asks for.
#[derive(Debug, Clone)]
pub struct GenRequest {
    pub seed: u64,
    pub count: usize,
    pub max_steps: usize,
    /// Write the lines only: each step takes the reference's answer when it runs.
    pub lines_only: bool,
    /// The command that made the file, for its header comment.
    pub command: String,
}

/// `count` random games, one scenario each, expectations from the reference.
pub fn generate(setup: &Setup, request: &GenRequest) -> Result<Vec<ScenarioText>, Error> {
    let mut master = Rng::new(request.seed);
    let style = Style {
        max_steps: request.max_steps,
        ..Style::SCENARIOS
    };
    let mut scenarios = Vec::with_capacity(request.count);
    for index in 1..=request.count {
        let mut rng = Rng::new(master.next_u64());
        let lines = random_game(setup, &mut rng, style)?;
        let name = format!("random game {index} of seed {}", request.seed);
        let scenario = ScenarioText::from_reference(setup, &name, &lines)?
            .map_err(|invalid| invalid.of(&name))?;
        scenarios.push(if request.lines_only {
            scenario.lines_only()
        } else {
            scenario
        });
    }
    Ok(scenarios)
}

/// The file-level keys of a generated file: hidden, tagged `generated`, its header naming
/// the seed and the command that makes it again.
pub fn head(setup: &Setup, request: &GenRequest) -> FileHead {
    FileHead {
        comments: vec![
            format!(
                "Random games of {} from the reference engine, seed {}.",
                setup.id(),
                request.seed
            ),
            format!(
                "Made by `{}`; the same command makes the same file.",
                request.command
            ),
            if request.lines_only {
                "Each step expects the reference's answer when it runs.".to_string()
            } else {
                "Expectations are the reference's answers (`boardgrade bless` updates them)."
                    .to_string()
            },
        ],
        section: format!("random games (seed {})", request.seed),
        points: crate::points::Points::whole(1),
        visibility: Visibility::Hidden,
        tags: vec!["generated".to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::REGISTRY;

    fn setups() -> Vec<Setup> {
        REGISTRY
            .iter()
            .flat_map(|game| game.dialects().iter().map(move |d| (game, d)))
            .map(|(game, d)| Setup::new(game.name(), Some(d.name), Default::default()).unwrap())
            .collect()
    }

    #[test]
    fn legal_inputs_are_accepted_and_illegal_ones_defined() {
        for setup in setups() {
            for seed in 0..4 {
                let mut rng = Rng::new(seed);
                let lines = random_game(&setup, &mut rng, Style::SCENARIOS).unwrap();
                let mut session = setup.session().unwrap();
                session.opening();
                for line in &lines {
                    // A legal line may complete a refused move (the direction after an
                    // index the csc110 program refuses).
                    let legal = session.legal_inputs().contains(line) && !session.rejected();
                    assert!(session.is_defined(line), "{}: {line}", setup.id());
                    session.respond(line);
                    if legal {
                        assert!(!session.rejected(), "{}: {line} refused", setup.id());
                    }
                }
                let transcript = setup.replay(&lines).unwrap().expect("a valid scenario");
                assert_eq!(transcript.replies.len(), lines.len());
            }
        }
    }

    #[test]
    fn the_same_seed_makes_the_same_games() {
        for setup in setups() {
            let request = GenRequest {
                seed: 11,
                count: 2,
                max_steps: 30,
                lines_only: false,
                command: String::new(),
            };
            let names = |scenarios: Vec<ScenarioText>| -> Vec<Vec<String>> {
                scenarios
                    .iter()
                    .map(|s| s.steps.iter().map(|step| step.send.clone()).collect())
                    .collect()
            };
            let first = names(generate(&setup, &request).unwrap());
            assert_eq!(first, names(generate(&setup, &request).unwrap()));
            let other = GenRequest {
                seed: 12,
                ..request
            };
            assert_ne!(
                first,
                names(generate(&setup, &other).unwrap()),
                "{}",
                setup.id()
            );
        }
    }
}
