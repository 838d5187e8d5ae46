//! One submission from its path to the program its scenarios run against: its files probed,
//! the submission routed to a dialect by what its code defines (variants included), and its
//! program launched under the run's conditions. A class run (`grade`) takes each of its
//! submissions through here and a student's self-check (`test --python`) takes the student's
//! own, so the student sees what the class run will: a file that does not load is one
//! finding, a required name missing is named with the closest one defined, and a variant of
//! the course the file answers better is suggested. A file that answers more than one of the
//! family's dialects graded is graded as each, and the better kept ([`super::choice`]), here
//! for both: [`graded_as`] for a class run, [`run_kept`] for a self-check.

use std::path::Path;

use super::choice::{self, keep_better, Kept, Scored};
use super::probe::LoadError;
use super::route::{Route, Routing};
use super::submission::Submission;
use super::{harness_errors, route_all, GradeConfig, SubmissionResult, RERUN};
use crate::error::{ClassError, Error};
use crate::execution::{Company, Target, TargetSpec};
use crate::games::Dialect;
use crate::harness::outcome::not_run_outcome;
use crate::harness::run::level;
use crate::harness::{check_all, run_all_checked, Event, Outcome, RunConfig, Summary};
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

/// A class run's submission graded as `route`'s dialect with `grade`, and as each other
/// dialect it also answers in full (the routed one first); the better result kept, saying so
/// in its notes, or the routed one marked not graded when the grader failed on another.
pub fn graded_as(
    route: &Route,
    mut grade: impl FnMut(&Route) -> SubmissionResult,
) -> SubmissionResult {
    let tries: Vec<&Route> = route.tries().collect();
    let kept = keep_better(tries.len(), |index| {
        let result = grade(tries[index]);
        let scored = Scored {
            dialect: result.dialect.clone().unwrap_or_default(),
            score: result.score,
            max_score: result.max_score,
            grader_failed: result.needs_rerun.then(|| {
                let error = result.error.as_deref().unwrap_or_default();
                let why = error.strip_prefix(RERUN).and_then(|e| e.strip_prefix(": "));
                why.unwrap_or(error).to_string()
            }),
            loads: result.does_not_load.is_none(),
        };
        (result, scored)
    });
    let mut result = kept.run;
    result.also_tried = kept.others;
    result.notes.extend(result.choice_note());
    if let Some(why) = kept.grader_failed {
        result.grader_failed(why);
    }
    result
}

/// One dialect's program and the scenarios it runs.
pub struct Run {
    pub target: Box<Target>,
    pub scenarios: Vec<Scenario>,
    pub dialect: &'static Dialect,
    /// The code checks among `scenarios`, when they were judged while the runners loaded.
    checked: Option<Vec<Option<Outcome>>>,
}

impl Run {
    fn new(
        target: Target,
        scenarios: Vec<Scenario>,
        dialect: &'static Dialect,
        checked: Option<Vec<Option<Outcome>>>,
    ) -> Run {
        Run {
            target: Box::new(target),
            scenarios,
            dialect,
            checked,
        }
    }

    /// Its scenarios run against its target, the code checks judged before taken as they
    /// were judged.
    fn run_all(
        &self,
        config: &RunConfig,
        name: &str,
        listen: &mut dyn FnMut(Event<'_>),
    ) -> Vec<Outcome> {
        let checked = self.checked.clone();
        run_all_checked(&self.scenarios, &self.target, config, name, listen, checked)
    }
}

/// A student's own submission's runs: the dialect it was routed to, then each other of its
/// family that its file answers in full too.
pub struct Runs {
    pub first: Run,
    pub also: Vec<Run>,
}

/// What a self-check keeps of a submission's runs.
pub struct Ran<'a> {
    /// The outcomes of the run kept.
    pub outcomes: Vec<Outcome>,
    /// The run kept.
    pub run: &'a Run,
    /// Which dialect was kept, and what the others scored, when others were run.
    pub note: Option<String>,
    /// Why the check is no grade: the grader failed on another run.
    pub grader_failed: Option<String>,
}

/// Runs a student's submission as [`graded_as`] grades it in a class run, telling `listen`
/// of the run kept only: as it goes when there is one run, once chosen when there are more.
pub fn run_kept<'a>(
    runs: &'a Runs,
    config: &RunConfig,
    name: &str,
    listen: &mut dyn FnMut(Event<'_>),
) -> Ran<'a> {
    let all: Vec<&Run> = std::iter::once(&runs.first).chain(&runs.also).collect();
    if all.len() == 1 {
        let outcomes = runs.first.run_all(config, name, listen);
        return Ran {
            outcomes,
            run: &runs.first,
            note: None,
            grader_failed: None,
        };
    }
    let Kept {
        run: (finished, outcomes),
        index,
        others,
        grader_failed,
    } = keep_better(all.len(), |index| {
        let run = all[index];
        let mut finished: Vec<(usize, Outcome)> = Vec::new();
        let outcomes = run.run_all(config, name, &mut |event| {
            if let Event::Finished { index, outcome } = event {
                finished.push((index, outcome.clone()));
            }
        });
        let summary = Summary::of(&outcomes);
        let scored = Scored {
            dialect: run.dialect.name.to_string(),
            score: summary.score,
            max_score: summary.max_score,
            grader_failed: harness_errors(&outcomes),
            loads: true,
        };
        ((finished, outcomes), scored)
    });
    let run = all[index];
    let note = (!others.is_empty()).then(|| choice::note(run.dialect.name, &others));
    listen(Event::Started {
        scenarios: run.scenarios.len(),
        target: name,
    });
    for (index, outcome) in &finished {
        listen(Event::Finished {
            index: *index,
            outcome,
        });
    }
    listen(Event::Done {
        summary: &Summary::of(&outcomes),
        outcomes: &outcomes,
    });
    Ran {
        outcomes,
        run,
        note,
        grader_failed,
    }
}

/// A student's own submission, ready for its scenarios.
pub enum Prepared {
    /// Its program runs `scenarios`, those of the dialect it was routed to (and, in `also`,
    /// those of each other dialect its file answers in full).
    Runs { runs: Runs, route: Route },
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
    // A self-check stores nothing: no key is made for its result.
    let routed = route_all(std::slice::from_ref(&submission), &scenarios, config);
    let routing = routed
        .into_iter()
        .next()
        .map(|routed| routed.routing)
        .ok_or(ClassError::NoScenarios { given: "paths" })?;
    let (dialect, loads) = match routing {
        Routing::Graded(route) => (route.dialect, Ok(route)),
        Routing::DoesNotLoad { dialect, error } => (dialect, Err(error)),
        Routing::NotGraded { why, .. } => return Err(not_graded(path, why, &scenarios)),
        // Too large under every dialect: said alone.
        Routing::TooLarge { why, .. } => return Err(Error::path(path, why.to_string())),
        Routing::GraderFailed { why } => return Err(ClassError::GraderFailed { why }.into()),
    };
    let of = |dialect: &'static Dialect| -> Vec<Scenario> {
        (scenarios.iter())
            .filter(|s| super::graded_under(s, dialect))
            .cloned()
            .collect()
    };
    let mine = of(dialect);
    Ok(match loads {
        Ok(route) => {
            let target = launch(&route, config)?;
            let (stall, checked) = stalled_and_checked(&target, &route, &mine, config);
            match stall {
                Some(error) => Prepared::DoesNotLoad {
                    error,
                    scenarios: mine,
                },
                None => {
                    // The same file's import passed: the other dialects' runs need no check.
                    let also = (route.also.iter())
                        .map(|other| {
                            Ok(Run::new(
                                launch(other, config)?,
                                of(other.dialect),
                                other.dialect,
                                None,
                            ))
                        })
                        .collect::<Result<Vec<Run>, Error>>()?;
                    let first = Run::new(target, mine, dialect, checked);
                    Prepared::Runs {
                        runs: Runs { first, also },
                        route,
                    }
                }
            }
        }
        Err(error) => Prepared::DoesNotLoad {
            error,
            scenarios: mine,
        },
    })
}

/// [`stalled`] of a self-check's first run and, when its scenarios run in more than one
/// job, the code checks among them judged beside it: the checker's interpreter then starts
/// while the runners load (part of which is the kernel's wait to move each into its cgroup),
/// not beside the scenarios, where it would take a core from them.
fn stalled_and_checked(
    target: &Target,
    route: &Route,
    scenarios: &[Scenario],
    config: &GradeConfig,
) -> (Option<LoadError>, Option<Vec<Option<Outcome>>>) {
    let any = scenarios.iter().any(|s| s.code_check().is_some());
    if config.jobs <= 1 || !any {
        return (stalled(target, route, scenarios, config.jobs, config), None);
    }
    let (checked, stall) = crate::pool::beside(
        || check_all(scenarios, target, &config.limits, Company::Scenarios),
        || stalled(target, route, scenarios, config.jobs, config),
    );
    (stall, Some(checked))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::variant::Catalogue;
    use crate::points::Points;

    /// project5-fall2023's route, also graded as project5.
    fn both() -> Route {
        let game = crate::games::find("one-d-chess").unwrap();
        let route = |name: &str| Route {
            dialect: Catalogue::bundled().dialect(game, name).unwrap(),
            file: "one_d_chess.py".into(),
            target: "one_d_chess.py".into(),
            entry: None,
            beside: Vec::new(),
            notes: Vec::new(),
            better: None,
            also: Vec::new(),
        };
        Route {
            also: vec![route("project5")],
            ..route("project5-fall2023")
        }
    }

    /// A result graded as `route`'s dialect: `score` of `max`, `rerun` when the grader failed.
    fn result(route: &Route, score: i64, max: i64, rerun: bool) -> SubmissionResult {
        let mut result: SubmissionResult = serde_json::from_value(serde_json::json!({
            "id": "carol", "path": "class/carol", "dialect": route.dialect.name,
            "score": score as f64, "max_score": max as f64, "error": null, "elapsed_ms": 1,
            "scenarios": [],
            "summary": {
                "passed": 0, "failed": 0, "errors": 0, "score": 0.0, "max_score": 0.0,
                "verdicts": {},
            },
        }))
        .unwrap();
        if rerun {
            result.grader_failed("the sandbox broke".into());
        }
        result
    }

    #[test]
    fn the_better_result_is_kept_and_a_grader_failure_on_either_is_no_grade() {
        let route = both();
        let kept = graded_as(&route, |r| match r.dialect.name {
            "project5" => result(r, 40, 40, false),
            _ => result(r, 35, 41, false),
        });
        assert_eq!(
            (kept.dialect.as_deref(), kept.score),
            (Some("project5"), Points::whole(40))
        );
        assert_eq!(
            kept.notes,
            ["graded as project5 (also tried project5-fall2023: 35/41)"]
        );
        // The better run failed on the grader's side: the routed one is no grade either.
        let failed = graded_as(&route, |r| match r.dialect.name {
            "project5" => result(r, 0, 40, true),
            _ => result(r, 35, 41, false),
        });
        assert_eq!(failed.dialect.as_deref(), Some("project5-fall2023"));
        assert!(failed.needs_rerun);
        assert!(
            failed.problem().unwrap().contains(
                "needs a re-run: the file answers project5 too, and grading it as project5 \
                 failed: the sandbox broke"
            ),
            "{:?}",
            failed.problem()
        );
        assert!(failed.also_tried.is_empty() && failed.notes.is_empty());
        // The routed run failed: nothing else is graded.
        let mut tried = Vec::new();
        let failed = graded_as(&route, |r| {
            tried.push(r.dialect.name);
            result(r, 0, 41, true)
        });
        assert!(failed.needs_rerun);
        assert_eq!(tried, ["project5-fall2023"]);
    }
}
