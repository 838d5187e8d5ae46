//! Match scenarios: instead of replaying steps, the submission plays whole games against the
//! game's reference players, through its own functions, and earns points by thresholds on
//! its record (a scenario's `[scenario.match]` table, see [`MatchDef`]).
//!
//! The games themselves are the game's business (its [`MatchPlay`], see
//! [`crate::games::matches`]); this module connects the submission ([`conversation`]) and
//! turns the record ([`record`]) into an [`Outcome`].

pub mod conversation;
pub mod record;

use std::time::Instant;

use conversation::ProcessConversation;
pub use record::{AwardResult, MatchReport, Record};

use super::outcome::error_outcome;
use super::outcome::{Outcome, Verdict};
use crate::execution::{Limits, Program, Target};
use crate::games::matches::{Conversation, GameResult, MatchDef, ReferenceConversation};
use crate::games::{Dialect, Game};
use crate::scenario::Scenario;

/// Plays the match of `scenario` with `target` on the submission's side.
pub fn run(scenario: &Scenario, def: &MatchDef, target: &Target, limits: &Limits) -> Outcome {
    let started = Instant::now();
    let (game, dialect) = (scenario.game, scenario.dialect);
    let limits = Limits {
        wall: scenario.time_limit,
        ..limits.clone()
    };
    let program = match target.program(&dialect.layout(game), &limits) {
        Ok(program) => program,
        Err(error) => return error_outcome(scenario, error.to_string()),
    };
    let (games, stderr) = match &program {
        None => match game.start(dialect, &scenario.options) {
            Ok(session) => (
                play(game, dialect, def, &mut ReferenceConversation::new(session)),
                Vec::new(),
            ),
            Err(error) => return error_outcome(scenario, error.to_string()),
        },
        Some(program) => {
            let mut played = against(program, scenario, def);
            if !program.forked_processes_stand() {
                // A loaded runner may have touched the match (see `Program::run`): it is
                // played again, the program's processes started afresh.
                played = against(program, scenario, def);
            }
            let (games, stderr) = played;
            if let Some(why) = program.sandbox_failure(&stderr) {
                return error_outcome(scenario, why);
            }
            (games, stderr)
        }
    };
    let games = match games {
        Ok(games) => games,
        Err(problem) => return error_outcome(scenario, problem),
    };
    let report = MatchReport::new(def, &games);
    let mut outcome = error_outcome(scenario, String::new());
    let stops: Vec<Verdict> = games
        .iter()
        .filter_map(|g| g.stop.as_ref())
        .map(|s| s.kind)
        .collect();
    outcome.verdict = verdict(&report, &stops);
    outcome.score = report.score();
    let met = report.awards.iter().filter(|a| a.met).count();
    let mut detail = format!("met {met} of {} award(s)", report.awards.len());
    if let Some((game, stop)) = games.iter().find_map(|g| Some((g, g.stop.as_ref()?))) {
        detail.push_str(&format!(
            "; the program stopped answering in the game against {} as {} on {3}x{3}: {}",
            game.opponent, game.color, stop.detail, game.size
        ));
        let more = games.iter().filter(|g| g.stop.is_some()).count() - 1;
        if more > 0 {
            detail.push_str(&format!(" (and in {more} more game(s), each lost)"));
        }
    }
    outcome.detail = (!outcome.verdict.passed()).then_some(detail);
    let stderr = crate::compare::visible::lossless(&stderr);
    outcome.stderr_tail = (!outcome.verdict.passed() && !stderr.trim().is_empty())
        .then(|| stderr.trim_end().to_string());
    outcome.duration_ms = started.elapsed().as_millis() as u64;
    outcome.matches = Some(report);
    outcome
}

/// The match of `scenario` played by `program`: the games, and the end of its stderr. Its
/// last process is ended when the match is.
fn against(
    program: &Program,
    scenario: &Scenario,
    def: &MatchDef,
) -> (Result<Vec<GameResult>, String>, Vec<u8>) {
    let mut process = ProcessConversation::new(program, scenario.time_limit, def.call_time_limit());
    let games = play(scenario.game, scenario.dialect, def, &mut process);
    (games, process.stderr_tail())
}

fn play(
    game: &dyn Game,
    dialect: &Dialect,
    def: &MatchDef,
    conversation: &mut dyn Conversation,
) -> Result<Vec<GameResult>, String> {
    match game.match_play() {
        Some(matches) => matches.play(dialect, def, conversation),
        None => Err(format!("{} has no match play", game.name())),
    }
}

/// The worst way the program stopped during the match, if it did (its points still count:
/// they are earned by the games' record); else pass when every award is met, and wrong when
/// the record falls short.
fn verdict(report: &MatchReport, stops: &[Verdict]) -> Verdict {
    let worst_first = [
        Verdict::Error,
        Verdict::Timeout,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::Crash,
    ];
    match worst_first.into_iter().find(|kind| stops.contains(kind)) {
        Some(verdict) => verdict,
        None if report.all_met() => Verdict::Pass,
        None => Verdict::Wrong,
    }
}
