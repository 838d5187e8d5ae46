//! One submission from its path to the program its scenarios run against: its files probed,
//! the submission routed to a dialect by what its code defines (variants included), and its
//! program launched under the run's conditions. A class run (`grade`) takes each of its
//! submissions through here and a student's self-check (`test --python`) takes the student's
//! own, so the student sees what the class run will: a file that does not load is one
//! finding, a required name missing is named with the closest one defined, and a variant of
//! the course the file answers better is suggested.

use std::path::Path;

use super::probe::LoadError;
use super::route::{Route, Routing};
use super::submission::Submission;
use super::{plan, GradeConfig};
use crate::error::{ClassError, Error};
use crate::execution::{Target, TargetSpec};
use crate::harness::outcome::not_run_outcome;
use crate::harness::run::level;
use crate::harness::Outcome;
use crate::scenario::Scenario;
use crate::verdict::Verdict;

/// The program of a routed submission, launched as `config` says: its interpreter, sandbox
/// (with the run's hidden paths out of sight) and runner.
pub fn launch(route: &Route, config: &GradeConfig) -> Result<Target, Error> {
    let target = Target::with_interpreter(
        TargetSpec::Python(route.target.clone()),
        Some(config.interpreter.clone()),
    )?;
    Ok(target
        .with_entry(route.entry.clone())
        .with_beside(route.beside.clone())
        .with_sandbox(config.sandbox, config.hidden.clone())
        .with_runner(config.runner)
        .with_import_limit(config.import_limit)
        .with_start_check(config.start_check.clone()))
}

/// A student's own submission, ready for its scenarios.
pub enum Prepared {
    /// Its program runs `scenarios`, those of the dialect it was routed to.
    Runs {
        target: Box<Target>,
        scenarios: Vec<Scenario>,
        route: Route,
    },
    /// The file it would run does not load (a syntax error, a missing module): no scenario
    /// of its dialect runs, and each scores 0.
    DoesNotLoad {
        error: LoadError,
        scenarios: Vec<Scenario>,
    },
}

/// The submission at `path` (a file or a folder) probed and routed among the dialects of
/// `scenarios` as a class run routes it, and its program launched; the scenarios kept are
/// those of its dialect. A submission with nothing to grade, or that the grader could not
/// look at, is an error that says why.
pub fn prepare(
    path: &Path,
    scenarios: Vec<Scenario>,
    config: &GradeConfig,
) -> Result<Prepared, Error> {
    if !path.exists() {
        return Err(Error::path(path, "no such file or folder"));
    }
    if scenarios.is_empty() {
        // No dialect to route to: the submission lacks nothing.
        return Err(ClassError::NoScenarios { given: "paths" }.into());
    }
    let submission = Submission {
        id: path.display().to_string(),
        path: path.to_path_buf(),
        own_folder: true,
    };
    let planned = plan(std::slice::from_ref(&submission), &scenarios, config);
    let routing = planned
        .into_iter()
        .next()
        .map(|plan| plan.routing)
        .ok_or(ClassError::NoScenarios { given: "paths" })?;
    let (dialect, loads) = match routing {
        Routing::Graded(route) => (route.dialect, Ok(route)),
        Routing::DoesNotLoad { dialect, error } => (dialect, Err(error)),
        Routing::NotGraded { why, .. } => return Err(not_graded(path, why, &scenarios)),
        // Too large under every dialect: said alone.
        Routing::TooLarge { why, .. } => return Err(Error::path(path, why.to_string())),
        Routing::GraderFailed { why } => return Err(ClassError::GraderFailed { why }.into()),
    };
    let scenarios: Vec<Scenario> = scenarios
        .into_iter()
        .filter(|s| super::graded_under(s, dialect))
        .collect();
    Ok(match loads {
        Ok(route) => {
            let target = launch(&route, config)?;
            match stalled(&target, &route, &scenarios, config.jobs, config) {
                Some(error) => Prepared::DoesNotLoad { error, scenarios },
                None => Prepared::Runs {
                    target: Box::new(target),
                    scenarios,
                    route,
                },
            }
        }
        Err(error) => Prepared::DoesNotLoad { error, scenarios },
    })
}

/// Why the routed submission does not load when its import, tried once within the run's
/// import limit, did not finish: then no scenario runs. A check that could not be made
/// leaves the verdicts to the scenarios. It is tried as the first scenarios to run (the
/// least secret of `scenarios`, see `run::level`), with a loaded runner for each of the
/// jobs (at most `jobs`) they will run in, so that the runners it loads serve them.
pub fn stalled<'a>(
    target: &Target,
    route: &Route,
    scenarios: impl IntoIterator<Item = &'a Scenario>,
    jobs: usize,
    config: &GradeConfig,
) -> Option<LoadError> {
    let levels: Vec<_> = scenarios
        .into_iter()
        .map(|scenario| (level(scenario), scenario))
        .collect();
    let (first_level, scenario) = levels.iter().min_by_key(|(level, _)| *level)?;
    let first_runs = levels.iter().filter(|(l, _)| l == first_level).count();
    let layout = crate::execution::Layout {
        audience: scenario.visibility.secrecy(),
        ..scenario.dialect.layout(scenario.game)
    };
    let runners = target.jobs_for(first_runs, jobs);
    let stall = target
        .check_import(&layout, &config.limits, runners)
        .ok()
        .flatten()?;
    Some(LoadError {
        file: stall.file.unwrap_or_else(|| route.file.clone()),
        line: stall.line,
        message: stall.message,
    })
}

/// Why a submission has nothing to run: with scenarios of several dialects, that its code
/// does not choose between them.
fn not_graded(path: &Path, why: String, scenarios: &[Scenario]) -> Error {
    let mut dialects: Vec<String> = Vec::new();
    for dialect in scenarios.iter().map(Scenario::dialect_id) {
        if !dialects.contains(&dialect) {
            dialects.push(dialect);
        }
    }
    if dialects.len() > 1 {
        ClassError::SeveralDialects { why, dialects }.into()
    } else {
        Error::path(path, why)
    }
}

/// The outcome of each of `scenarios` when the file does not load: none ran, each is the
/// student's `crash` (the program would die as it starts), scored 0.
pub fn not_loaded(error: &LoadError, scenarios: &[Scenario]) -> Vec<Outcome> {
    scenarios
        .iter()
        .map(|s| Outcome {
            verdict: Verdict::Crash,
            ..not_run_outcome(s, format!("not run: the file does not load: {error}"))
        })
        .collect()
}
