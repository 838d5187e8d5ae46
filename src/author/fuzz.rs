//! Differential testing: random games played on the reference and on a target through the
//! harness; the first game of each distinct failure is shrunk to a shortest sequence that
//! still fails the same way (and stays a valid scenario), and written as a scenario file.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use super::generate::{random_game, Style};
use super::setup::Setup;
use super::shrink::ddmin;
use super::write::{file_text, FileHead, ScenarioText};
use crate::error::{AuthorError, Error};
use crate::execution::{Limits, Target};
use crate::games::Protocol;
use crate::harness::{run_one, Expected, Outcome, Verdict};
use crate::rng::Rng;
use crate::scenario::Visibility;

/// What `boardgrade fuzz` asks for.
#[derive(Debug, Clone)]
pub struct FuzzConfig {
    pub seed: u64,
    /// Random games to play.
    pub games: usize,
    /// Most lines in one game.
    pub max_steps: usize,
    /// Most runs of the target while shrinking one failure.
    pub shrink_budget: usize,
    /// Stop after this many distinct failures.
    pub max_failures: usize,
    /// Games played at once.
    pub jobs: usize,
    /// Wall-clock limit of one run.
    pub time_limit: Duration,
    /// The command, for the files' header comments.
    pub command: String,
    /// The folder each failure's scenario file is written to.
    pub out: PathBuf,
}

/// How a scenario failed: its verdict and the kind of step where it first diverged. Two
/// failures of one kind are taken for the same bug.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
    pub verdict: Verdict,
    /// The command's name for call protocols (`play_move`), `probe` for any of the game's
    /// probes of the position (a wrong position shows in any of them); for program
    /// protocols `move`, `refused input` or `end of game` as the reference saw that step;
    /// `opening` for the output before any input; `whole run` when no step is to blame.
    pub kind: String,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind.as_str() {
            "probe" => write!(f, "{} at a probe of the position", self.verdict),
            kind => write!(f, "{} at a `{kind}` step", self.verdict),
        }
    }
}

/// One distinct failure, shrunk.
#[derive(Debug, Clone)]
pub struct Failure {
    pub signature: Signature,
    /// Which game found it (1-based) and that game's own seed.
    pub game: usize,
    pub game_seed: u64,
    /// Lines of the game as played, and of the shrunk scenario.
    pub original_steps: usize,
    pub steps: Vec<String>,
    /// Target runs spent shrinking.
    pub shrink_tests: usize,
    /// The shrunk scenario's outcome on the target.
    pub outcome: Outcome,
    /// The scenario file written, and its text.
    pub path: PathBuf,
    pub file_text: String,
}

/// Progress, as the fuzzer goes (a failure is told once its file is written).
#[derive(Debug)]
pub enum FuzzEvent<'a> {
    /// A game was played; `failed` when the target did not pass it.
    Played {
        game: usize,
        steps: usize,
        failed: Option<&'a Signature>,
    },
    /// A new failure, shrunk.
    Found(&'a Failure),
}

/// Everything a fuzzing run found.
#[derive(Debug, Clone, Default)]
pub struct FuzzReport {
    pub games: usize,
    pub failures: Vec<Failure>,
    /// Failing games whose failure was already known.
    pub repeats: usize,
}

/// Plays `config.games` random games against `target`; see the module's documentation.
pub fn fuzz(
    setup: &Setup,
    target: &Target,
    limits: &Limits,
    config: &FuzzConfig,
    listen: &mut dyn FnMut(FuzzEvent<'_>),
) -> Result<FuzzReport, Error> {
    let runner = Runner {
        setup,
        target,
        limits,
        time_limit: config.time_limit,
    };
    let mut master = Rng::new(config.seed);
    let mut seen: HashSet<Signature> = HashSet::new();
    let mut report = FuzzReport::default();
    let games: Vec<(usize, u64)> = (1..=config.games)
        .map(|game| (game, master.next_u64()))
        .collect();
    // Games are played `jobs` at a time (one under `limits`: see `Target::at_once`); their
    // failures are taken in game order, so the result does not depend on `jobs`.
    let mut stopped = Ok(());
    crate::pool::ordered(
        &games,
        target.at_once(config.jobs),
        |_, &(game, game_seed)| runner.play(game, game_seed, config.max_steps),
        |index, played| {
            let (game, game_seed) = games[index];
            let step = (|| {
                let (lines, signature) = played?;
                report.games = game;
                listen(FuzzEvent::Played {
                    game,
                    steps: lines.len(),
                    failed: signature.as_ref(),
                });
                let Some(signature) = signature else {
                    return Ok(ControlFlow::Continue(()));
                };
                if !seen.insert(signature.clone()) {
                    report.repeats += 1;
                    return Ok(ControlFlow::Continue(()));
                }
                let number = report.failures.len() + 1;
                let failure = runner.shrink(lines, signature, (game, game_seed, number), config)?;
                std::fs::write(&failure.path, &failure.file_text)
                    .map_err(|e| Error::path(&failure.path, format!("cannot write: {e}")))?;
                listen(FuzzEvent::Found(&failure));
                report.failures.push(failure);
                Ok(match report.failures.len() >= config.max_failures {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                })
            })();
            step.unwrap_or_else(|error| {
                stopped = Err(error);
                ControlFlow::Break(())
            })
        },
    );
    stopped.map(|()| report)
}

/// Runs candidate games on the target.
struct Runner<'a> {
    setup: &'a Setup,
    target: &'a Target,
    limits: &'a Limits,
    time_limit: Duration,
}

impl Runner<'_> {
    /// Game number `game`: its lines, and how it failed on the target. Game lengths cycle
    /// through a quarter, half, three quarters and all of `max_steps`: a bug near the start
    /// shows in a short game, which shrinks fast and small.
    fn play(
        &self,
        game: usize,
        game_seed: u64,
        max_steps: usize,
    ) -> Result<(Vec<String>, Option<Signature>), Error> {
        let style = Style {
            max_steps: (max_steps * (1 + (game - 1) % 4)).div_ceil(4),
            ..Style::FUZZ
        };
        let lines = random_game(self.setup, &mut Rng::new(game_seed), style)?;
        let signature = self.failure(&lines)?;
        Ok((lines, signature))
    }

    fn run(&self, lines: &[String]) -> Outcome {
        let scenario = self.setup.scenario("fuzz", lines, self.time_limit);
        let played_once = std::slice::from_ref(&scenario);
        run_one(
            &scenario,
            &Expected::of(played_once),
            self.target,
            self.limits,
        )
    }

    /// How `lines` fail on the target: `None` when they pass or are no valid scenario; an
    /// error when the harness could not run the target.
    fn failure(&self, lines: &[String]) -> Result<Option<Signature>, Error> {
        let transcript = match self.setup.replay(lines)? {
            Ok(transcript) => transcript,
            Err(_) => return Ok(None),
        };
        let outcome = self.run(lines);
        match outcome.verdict {
            Verdict::Pass => return Ok(None),
            // The target could not be run at all (no such program, say): no game can tell.
            Verdict::Error => {
                return Err(AuthorError::TargetUnusable {
                    detail: outcome.detail.as_deref().unwrap_or("no detail").to_string(),
                }
                .into())
            }
            _ => {}
        }
        let kind = match outcome.first_divergence.as_ref().map(|d| d.step) {
            None => "whole run".to_string(),
            Some(0) => "opening".to_string(),
            Some(step) => {
                let index = step - 1;
                match self.setup.dialect.protocol {
                    _ if transcript.probes[index] => "probe".into(),
                    Protocol::Call => lines[index]
                        .split_whitespace()
                        .next()
                        .unwrap_or("(empty)")
                        .to_string(),
                    Protocol::Program if transcript.refused[index] => "refused input".into(),
                    Protocol::Program if index + 1 == lines.len() && transcript.finished => {
                        "end of game".into()
                    }
                    Protocol::Program => "move".into(),
                }
            }
        };
        Ok(Some(Signature {
            verdict: outcome.verdict,
            kind,
        }))
    }

    /// The shortest game found that fails as `signature` says, written as a scenario file.
    fn shrink(
        &self,
        lines: Vec<String>,
        signature: Signature,
        (game, game_seed, number): (usize, u64, usize),
        config: &FuzzConfig,
    ) -> Result<Failure, Error> {
        let original_steps = lines.len();
        let mut error = None;
        // A call protocol's scenario has at least one step.
        let least = usize::from(self.setup.dialect.protocol == Protocol::Call);
        let mut still_fails = |candidate: &[String]| {
            if candidate.len() < least {
                return false;
            }
            match self.failure(candidate) {
                Ok(found) => found.as_ref() == Some(&signature),
                Err(e) => {
                    error.get_or_insert(e);
                    false
                }
            }
        };
        // Nothing after the first divergence matters: try the game cut there first.
        let outcome = self.run(&lines);
        let mut start = lines;
        if let Some(step) = outcome.first_divergence.as_ref().map(|d| d.step) {
            if step < start.len() && still_fails(&start[..step]) {
                start.truncate(step);
            }
        }
        let shrunk = ddmin(start, config.shrink_budget, &mut still_fails);
        if let Some(e) = error {
            return Err(e);
        }
        let steps = shrunk.items;
        let name = format!("fuzz: {} (seed {}, game {game})", signature, config.seed);
        let mut scenario = ScenarioText::from_reference(self.setup, &name, &steps)?
            .map_err(|invalid| invalid.of("the shrunk game"))?;
        scenario.comments = vec![format!(
            "Game {game} of seed {} (its own seed {game_seed}): {original_steps} lines, shrunk to {}.",
            config.seed,
            steps.len()
        )];
        let head = FileHead {
            comments: vec![
                format!("A failure that `{}` found: {signature}.", config.command),
                "Expectations are the reference's answers; the target answered otherwise."
                    .to_string(),
            ],
            section: format!("fuzzing (seed {})", config.seed),
            points: crate::points::Points::whole(1),
            visibility: Visibility::Hidden,
            tags: vec!["fuzz".to_string()],
        };
        let path = config.out.join(format!(
            "fuzz-{}-{}-seed{}-{number}.toml",
            self.setup.game.name(),
            self.setup.dialect.name,
            config.seed
        ));
        Ok(Failure {
            outcome: self.run(&steps),
            signature,
            game,
            game_seed,
            original_steps,
            steps,
            shrink_tests: shrunk.tests,
            path,
            file_text: file_text(self.setup, &head, &[scenario]),
        })
    }
}
