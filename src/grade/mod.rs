//! Grading submissions: each one against the scenarios of its dialect, in parallel, each
//! result stored as it finishes.

pub mod choice;
pub mod class;
pub mod class_run;
pub mod cpu_slots;
pub mod enabled;
pub mod extent;
pub mod fingerprint;
pub mod leaderboard;
pub mod manifest;
pub mod mistake;
pub mod optional;
pub mod partition;
pub mod pipeline;
pub mod probe;
pub mod route;
pub mod sheet;
mod star;
pub mod store;
pub mod submission;

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::execution::python::Interpreter;
use crate::execution::{Limits, PythonRunner, Sandbox, StartCheck};
use crate::games::variant::Catalogue;
use crate::games::Dialect;
use crate::harness::outcome::not_run_outcome;
use crate::harness::run::level;
use crate::harness::{run_one, scoring, Checks, Expected, Outcome, Summary};
use crate::points::Points;
use crate::scenario::Scenario;
use cpu_slots::CpuSlots;
pub use enabled::{enabled, Enabled, LeftOut, UnknownVariant};
pub use optional::{set_by_course, OptionalLeftOut};
pub use partition::Partition;
pub use probe::LoadError;
use probe::ProbeFile;
use route::{Candidate, Routing};
pub use store::Store;
pub use submission::{discover, Discovery, Skipped, Submission};

/// How to grade.
#[derive(Debug, Clone)]
pub struct GradeConfig {
    /// Submissions graded at once; a class smaller than that runs several scenarios of a
    /// submission at once, so one submission uses every core.
    pub jobs: usize,
    pub limits: Limits,
    pub interpreter: Interpreter,
    /// The entry file to look for instead of each dialect's.
    pub entry: Option<String>,
    /// Where results are stored; with `resume`, submissions already there are not graded again.
    pub store: Option<Store>,
    pub resume: bool,
    pub sandbox: Sandbox,
    /// Paths student programs must not see (the specs).
    pub hidden: Vec<PathBuf>,
    /// How Python submissions run.
    pub runner: PythonRunner,
    /// The most time one submission's scenarios may take to start (a platform's timeout, less
    /// a margin): once spent, the rest are not run and score 0.
    pub budget: Option<Duration>,
    /// The wall-clock time a call protocol's import may take: an import that does not
    /// finish in it does not load (one finding, no scenario run).
    pub import_limit: Option<Duration>,
    /// Whether the interpreter starts inside the sandbox, asked once for the whole run.
    pub start_check: StartCheck,
    /// The variants the run knows (the specs' and the bundled ones): a submission that
    /// answers another of its dialect's family better is told so.
    pub variants: Catalogue,
}

/// The import limit `grade` sets unless told otherwise: far above any correct module's
/// import, and paid once per submission.
pub const DEFAULT_IMPORT_LIMIT: Duration = Duration::from_secs(10);

/// What a scenario not started for want of time says.
pub const BUDGET_SPENT: &str = "not run: the submission's time budget was spent";

/// The detail of a scenario not started once the run was asked to stop (a result never
/// stored: a stopped run keeps nothing half done).
const STOPPED: &str = "not run: the run was asked to stop";

impl GradeConfig {
    /// What a grade depends on besides the submission and the scenarios: the sandbox, the
    /// limits, the runner and the interpreter.
    pub fn conditions(&self) -> String {
        format!(
            "sandbox {}; runner {:?}; limits {:?}; import limit {:?}; python {} {}",
            self.sandbox.as_str(),
            self.runner,
            self.limits,
            self.import_limit,
            self.interpreter.executable.display(),
            self.interpreter.version
        )
    }
}

/// One submission's grade. Each stored result holds it too, beside the key `--resume`
/// checks it against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "SubmissionReport")]
pub struct SubmissionResult {
    /// The student's name as given (a folder's name, or a file's without `.py`).
    pub id: String,
    /// The submission's file or folder.
    pub path: String,
    /// The dialect it was graded as.
    pub dialect: Option<String>,
    /// The file graded, inside the submission.
    #[serde(default)]
    pub file: Option<String>,
    /// Points earned.
    pub score: Points,
    /// Points there were to earn.
    pub max_score: Points,
    /// Why it could not be graded at all (no Python file, say); none when it was.
    pub error: Option<String>,
    /// The grader failed, not the submission (a harness or sandbox error): not graded, its
    /// score is no grade, and it needs a re-run (`error` says why).
    #[serde(default)]
    pub needs_rerun: bool,
    /// The file graded does not load (a syntax error, a missing module): one finding,
    /// scored 0, no scenario run.
    #[serde(default)]
    pub does_not_load: Option<LoadError>,
    /// What the student should know besides the verdicts (a required name not defined).
    #[serde(default)]
    pub notes: Vec<String>,
    /// How the grader had to run it, where not as usual (a fresh Python process per
    /// scenario, and why). For the course staff: what the scenarios did to the loaded
    /// runner, hidden ones included, shows in it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runner_notes: Vec<String>,
    /// The other dialects of its family its file answers in full, graded too, whose
    /// results were not kept (the better share of the points is: see `notes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_tried: Vec<choice::Tried>,
    /// Totals of its scenarios.
    pub summary: Summary,
    /// Each scenario's result.
    pub scenarios: Vec<Outcome>,
    /// Wall-clock time of its grading, in milliseconds.
    pub elapsed_ms: u64,
}

impl SubmissionResult {
    /// True when every scenario passed.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.does_not_load.is_none() && self.summary.all_passed()
    }

    /// Marks the submission not graded because the grader failed (`why`): it needs a re-run.
    pub fn grader_failed(&mut self, why: String) {
        self.error = Some(format!("{RERUN}: {why}"));
        self.needs_rerun = true;
    }

    /// What its notes say of the other dialects tried, when there were any.
    pub fn choice_note(&self) -> Option<String> {
        let kept = self.dialect.as_deref()?;
        (!self.also_tried.is_empty()).then(|| choice::note(kept, &self.also_tried))
    }

    /// [`SubmissionResult::choice_note`] as a student who cannot see every scenario yet
    /// reads it: without the others' scores.
    pub fn choice_note_for_students(&self) -> Option<String> {
        let kept = self.dialect.as_deref()?;
        (!self.also_tried.is_empty()).then(|| choice::note_for_students(kept, &self.also_tried))
    }

    /// Why the submission has no verdicts: not graded, or does not load.
    pub fn problem(&self) -> Option<String> {
        match (&self.error, &self.does_not_load) {
            (Some(error), _) if self.needs_rerun => Some(format!("not graded: {error}")),
            (Some(error), _) => Some(error.clone()),
            (None, Some(load)) => Some(format!("does not load: {load}")),
            (None, None) => None,
        }
    }
}

/// How every output names a submission the grader failed on (after "not graded: ").
pub const RERUN: &str = "needs a re-run";

/// Why the grader failed on some of `outcomes` (scenarios ended in `error`), if it did.
fn harness_errors(outcomes: &[Outcome]) -> Option<String> {
    let errors: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.verdict == crate::verdict::Verdict::Error)
        .collect();
    let first = errors.first()?;
    Some(format!(
        "{} of {} scenario(s) ended in a grader-side error (the harness or the sandbox, not \
         the submission); the first, {}: {}",
        errors.len(),
        outcomes.len(),
        first.name,
        first.detail.as_deref().unwrap_or("no detail")
    ))
}

/// What grading tells its listener.
#[derive(Debug)]
pub enum GradeEvent<'a> {
    Started {
        submissions: usize,
        resumed: usize,
    },
    Finished {
        result: &'a SubmissionResult,
        done: usize,
        total: usize,
        resumed: bool,
    },
    Done {
        results: &'a [SubmissionResult],
        elapsed_ms: u64,
    },
}

/// The dialects submissions are routed to for the scenarios, each once, in order of
/// appearance: a scenario of a dialect graded with another's programs counts as that one's.
pub fn dialects_of(scenarios: &[Scenario]) -> Vec<&'static Dialect> {
    let mut dialects: Vec<&'static Dialect> = Vec::new();
    for s in scenarios {
        let routed = routed_as(s);
        if !dialects.iter().any(|d| std::ptr::eq(*d, routed)) {
            dialects.push(routed);
        }
    }
    dialects
}

/// The dialect a submission graded on `scenario` is routed to: the scenario's own, or the
/// one whose programs it is graded with ([`Dialect::graded_with`]).
pub fn routed_as(scenario: &Scenario) -> &'static Dialect {
    scenario
        .dialect
        .graded_with
        .and_then(|name| scenario.game.dialect(name))
        .unwrap_or(scenario.dialect)
}

/// Whether a submission routed to `dialect` is graded on `scenario`.
pub fn graded_under(scenario: &Scenario, dialect: &'static Dialect) -> bool {
    std::ptr::eq(routed_as(scenario), dialect)
}

/// The entry files that make a folder one submission: the `--entry` file, or the entry
/// files of the dialects being graded.
pub fn entry_files<'a>(scenarios: &[Scenario], entry: Option<&'a str>) -> Vec<&'a str> {
    match entry {
        Some(entry) => vec![entry],
        None => dialects_of(scenarios)
            .iter()
            .map(|d| d.entry_file)
            .collect(),
    }
}

/// A submission ready to grade: how it is routed and what its stored result must match.
#[derive(Debug, Clone)]
pub struct Plan {
    pub submission: Submission,
    pub routing: Routing,
    /// What its result is stored under: its files, its scenarios, the run's conditions.
    pub key: store::ResumeKey,
}

/// Modules the harness provides to the dialects' programs (stubs), importable by students.
fn provided_modules(dialects: &[&'static Dialect]) -> Vec<String> {
    dialects
        .iter()
        .flat_map(|d| d.python.stubs())
        .map(|(file, _)| file.trim_end_matches(".py").to_string())
        .collect()
}

/// The folder a one-file submission's modules come from when the file sits in a dialect's
/// folder layout (`pychess/logic/chess_logic.py` handed in alone imports `logic.utils`, and
/// runs with its package around it; so does a logic file renamed `game_logic.py`): the
/// layout's top folder.
fn layout_root(path: &std::path::Path, dialects: &[&'static Dialect]) -> Option<PathBuf> {
    // Its folders are read from the whole path (`chess_logic.py` given from inside `logic/`).
    let path = std::fs::canonicalize(path).ok()?;
    if path.is_dir() {
        return dialects
            .iter()
            .find_map(|d| layout_folder_root(&path, d.entry_file));
    }
    dialects.iter().find_map(|d| {
        let depth = std::path::Path::new(d.entry_file).components().count();
        (depth > 1 && crate::execution::layout::folders_in_layout(&path, d.entry_file) == depth - 1)
            .then(|| {
                path.ancestors()
                    .nth(depth)
                    .map(std::path::Path::to_path_buf)
            })
            .flatten()
    })
}

/// Where the modules of the folder `folder` are imported from when it is one of the folders
/// of `entry_file`'s layout (`pychess/` or `pychess/logic/` of `pychess/logic/chess_logic.py`):
/// the folder above the layout's first, where the team's `from pychess.logic import` starts.
fn layout_folder_root(folder: &std::path::Path, entry_file: &str) -> Option<PathBuf> {
    let folders: Vec<&str> = entry_file.split('/').collect();
    let folders = &folders[..folders.len() - 1];
    let names: Vec<_> = folder.components().map(|c| c.as_os_str()).collect();
    (1..=folders.len().min(names.len()))
        .rev()
        .find(|&k| {
            names[names.len() - k..]
                .iter()
                .zip(folders)
                .all(|(n, f)| n == f)
        })
        .and_then(|k| folder.ancestors().nth(k).map(std::path::Path::to_path_buf))
}

/// Where a submission's own modules are found: its folder; for a one-file submission, the
/// folder its layout puts it in, the folder it sits in when that is the student's own, or
/// else the file alone.
fn modules_root(submission: &Submission, dialects: &[&'static Dialect]) -> PathBuf {
    layout_root(&submission.path, dialects)
        .or_else(|| submission.own_folder_of_file())
        .unwrap_or_else(|| submission.path.clone())
}

/// One submission routed, and whether it was small enough to be read at all.
pub struct Routed {
    pub routing: Routing,
    pub extent: Result<(), extent::Oversize>,
}

/// Routes every submission: one probe of every candidate file for the whole class, then
/// each submission's dialect and file from the names its files define.
pub fn route_all(
    submissions: &[Submission],
    scenarios: &[Scenario],
    config: &GradeConfig,
) -> Vec<Routed> {
    let (interpreter, entry) = (&config.interpreter, config.entry.as_deref());
    let dialects = dialects_of(scenarios);
    // A submission too large to grade is not read at all: no file of it is probed, hashed or
    // copied.
    let extents: Vec<Result<(), extent::Oversize>> =
        submissions.iter().map(|s| extent::check(&s.path)).collect();
    let found: Vec<Vec<(PathBuf, PathBuf)>> = submissions
        .iter()
        .zip(&extents)
        .map(|(s, extent)| match extent {
            Ok(()) => route::candidates(s, entry),
            Err(_) => Vec::new(),
        })
        .collect();
    let files: Vec<ProbeFile> = submissions
        .iter()
        .zip(&found)
        .flat_map(|(s, files)| {
            // Once per submission: finding it may read the file system.
            let root = modules_root(s, &dialects);
            files.iter().map(move |(path, _)| ProbeFile {
                path: path.clone(),
                root: root.clone(),
            })
        })
        .collect();
    let answers = probe::probe(interpreter, &files, &provided_modules(&dialects));
    let mut answers = answers.map(Vec::into_iter).map_err(|e| e.to_string());
    submissions
        .iter()
        .zip(found)
        .zip(extents)
        .map(|((submission, files), extent)| {
            let routing = match (&mut answers, &extent) {
                (_, Err(oversize)) => Routing::TooLarge {
                    dialect: (dialects.len() == 1).then(|| dialects[0]),
                    why: oversize.clone(),
                },
                (Ok(answers), Ok(())) => {
                    let candidates: Vec<Candidate> = files
                        .into_iter()
                        .zip(answers.by_ref())
                        .map(|((path, relative), definitions)| Candidate {
                            path,
                            relative,
                            definitions,
                        })
                        .collect();
                    route::route(submission, &candidates, &dialects, entry, &config.variants)
                }
                (Err(why), Ok(())) => Routing::GraderFailed { why: why.clone() },
            };
            Routed { routing, extent }
        })
        .collect()
}

/// [`route_all`], each submission with what its result is stored under.
pub fn plan(submissions: &[Submission], scenarios: &[Scenario], config: &GradeConfig) -> Vec<Plan> {
    // The scenarios are hashed once for the class, not once per submission (a scenario is
    // hashed whole), while the probe's interpreter reads the files.
    let (hashes, routed): (Vec<String>, _) = crate::pool::beside(
        || scenarios.iter().map(fingerprint::scenario).collect(),
        || route_all(submissions, scenarios, config),
    );
    let conditions = config.conditions();
    submissions
        .iter()
        .zip(routed)
        .map(|(submission, Routed { routing, extent })| {
            // The scenarios of every dialect it is graded as: an edit to any may change
            // which result is kept.
            let tried = tried_dialects(&routing);
            let mut scenario_hashes: Vec<String> = scenarios
                .iter()
                .zip(&hashes)
                .filter(|(s, _)| tried.iter().any(|d| is_mine(s, *d)))
                .map(|(_, hash)| hash.clone())
                .collect();
            scenario_hashes.sort();
            Plan {
                key: store::ResumeKey {
                    content_hash: match &extent {
                        Ok(()) => fingerprint::submission(&submission.path),
                        Err(oversize) => fingerprint::oversize(oversize),
                    },
                    scenario_hashes,
                    graded_under: conditions.clone(),
                },
                submission: submission.clone(),
                routing,
            }
        })
        .collect()
}

fn routed_dialect(routing: &Routing) -> Option<&'static Dialect> {
    match routing {
        Routing::Graded(route) => Some(route.dialect),
        Routing::DoesNotLoad { dialect, .. } => Some(dialect),
        Routing::NotGraded { dialect, .. } | Routing::TooLarge { dialect, .. } => *dialect,
        Routing::GraderFailed { .. } => None,
    }
}

/// The dialects a submission routed so is graded as: the routed one (unknown when the
/// grader could not look), then each other its file answers in full.
fn tried_dialects(routing: &Routing) -> Vec<Option<&'static Dialect>> {
    match routing {
        Routing::Graded(route) => route.tries().map(|r| Some(r.dialect)).collect(),
        _ => vec![routed_dialect(routing)],
    }
}

/// The scenarios of `dialect` (all of them when it is unknown).
fn mine<'a>(
    scenarios: &'a [Scenario],
    dialect: Option<&'static Dialect>,
) -> impl Iterator<Item = &'a Scenario> {
    scenarios.iter().filter(move |s| is_mine(s, dialect))
}

/// Whether `scenario` is graded under `dialect` (every one is when it is unknown).
fn is_mine(scenario: &Scenario, dialect: Option<&'static Dialect>) -> bool {
    dialect.is_none_or(|d| graded_under(scenario, d))
}

/// The points a submission routed to `dialect` can earn. One routed to none (nothing to
/// grade, or the grader failed before routing it) is out of the largest total among the
/// dialects graded: the sum of them all is no maximum any submission could reach, and would
/// stretch the class's range of maxima.
fn max_score(scenarios: &[Scenario], dialect: Option<&'static Dialect>) -> Points {
    let total = |dialect| mine(scenarios, Some(dialect)).map(|s| s.points).sum();
    match dialect {
        Some(dialect) => total(dialect),
        None => dialects_of(scenarios)
            .into_iter()
            .map(total)
            .max()
            .unwrap_or_default(),
    }
}

/// Grades one planned submission.
pub fn grade_one(plan: &Plan, scenarios: &[Scenario], config: &GradeConfig) -> SubmissionResult {
    let expected = Expected::of(scenarios);
    grade_with(
        plan,
        &expected,
        scenarios,
        config,
        config.jobs,
        &CpuSlots::new(1),
    )
}

/// [`grade_one`], running `scenario_jobs` of its scenarios at once in a slot of `slots`,
/// taken once its import check has passed (and lent while a scenario runs long). A file
/// that answers several dialects of a family graded is graded as each, within one budget,
/// and the better result kept (see [`pipeline::graded_as`]).
fn grade_with(
    plan: &Plan,
    expected: &Expected<'_>,
    scenarios: &[Scenario],
    config: &GradeConfig,
    scenario_jobs: usize,
    slots: &CpuSlots,
) -> SubmissionResult {
    let started = Instant::now();
    let dialect = routed_dialect(&plan.routing);
    let mut result = ungraded(plan, scenarios, dialect);
    match &plan.routing {
        Routing::Graded(route) => {
            let deadline = config.budget.map(|budget| started + budget);
            let run = Run {
                plan,
                expected,
                scenarios,
                config,
                scenario_jobs,
                slots,
                deadline,
            };
            result = pipeline::graded_as(route, |route| run.graded(route));
            result.elapsed_ms = started.elapsed().as_millis() as u64;
        }
        Routing::DoesNotLoad { error, .. } => {
            result.file = Some(error.file.clone());
            result.does_not_load = Some(error.clone());
        }
        Routing::NotGraded { why, .. } => result.error = Some(why.clone()),
        Routing::TooLarge { why, .. } => result.error = Some(why.to_string()),
        Routing::GraderFailed { why, .. } => result.grader_failed(why.clone()),
    }
    result
}

/// The result of `plan`'s submission under `dialect` before any scenario ran: nothing
/// earned of its scenarios' points.
fn ungraded(
    plan: &Plan,
    scenarios: &[Scenario],
    dialect: Option<&'static Dialect>,
) -> SubmissionResult {
    SubmissionResult {
        id: plan.submission.id.clone(),
        path: plan.submission.path.display().to_string(),
        dialect: dialect.map(|d| d.name.to_string()),
        file: None,
        score: Points::ZERO,
        max_score: max_score(scenarios, dialect),
        error: None,
        needs_rerun: false,
        does_not_load: None,
        notes: Vec::new(),
        runner_notes: Vec::new(),
        also_tried: Vec::new(),
        summary: Summary::default(),
        scenarios: Vec::new(),
        elapsed_ms: 0,
    }
}

/// How one submission's runs are made: the same scenarios, slots and time budget for each
/// dialect it is graded as.
struct Run<'a> {
    plan: &'a Plan,
    expected: &'a Expected<'a>,
    scenarios: &'a [Scenario],
    config: &'a GradeConfig,
    scenario_jobs: usize,
    slots: &'a CpuSlots,
    /// When the submission's budget is spent, for all its runs together.
    deadline: Option<Instant>,
}

impl Run<'_> {
    /// The submission graded as `route`'s dialect.
    fn graded(&self, route: &route::Route) -> SubmissionResult {
        let started = Instant::now();
        let (config, scenario_jobs) = (self.config, self.scenario_jobs);
        let mine: Vec<&Scenario> = mine(self.scenarios, Some(route.dialect)).collect();
        let mut result = ungraded(self.plan, self.scenarios, Some(route.dialect));
        result.file = Some(route.file.clone());
        result.notes = route.notes.clone();
        result
            .notes
            .extend((route.better.iter()).map(|better| better.note(&route.file, route.dialect)));
        let target = pipeline::launch(route, config);
        // The scenarios run level by level (see `run::level`): the least secret first, so
        // that a loaded runner serves them all in rising secrecy, never a visible scenario
        // after a hidden one (see `Secrecy`), nor beside one (where the hidden one could hand
        // its steps to the visible one's output). Each dialect's run has a target of its own.
        if let Ok(target) = &target {
            let scenarios = mine.iter().copied();
            if let Some(error) = pipeline::stalled(target, route, scenarios, scenario_jobs, config)
            {
                result.does_not_load = Some(error);
                result.elapsed_ms = started.elapsed().as_millis() as u64;
                return result;
            }
        }
        let slot = self.slots.take();
        let mut outcomes: Vec<Outcome> = match &target {
            Ok(target) => {
                let checks = Checks::new(&mine, target, &config.limits, scenario_jobs);
                let mut outcomes = Vec::with_capacity(mine.len());
                checks.around(|| {
                    crate::pool::ordered_by_level(
                        &mine,
                        |scenario| level(scenario),
                        |count| target.jobs_for(count, scenario_jobs),
                        |index, &s| {
                            if let Some(outcome) = checks.outcome(index) {
                                return outcome;
                            }
                            if self
                                .deadline
                                .is_some_and(|deadline| Instant::now() >= deadline)
                            {
                                return not_run_outcome(s, BUDGET_SPENT.to_string());
                            }
                            if crate::cancel::is_requested() {
                                return not_run_outcome(s, STOPPED.to_string());
                            }
                            slot.run(|| run_one(s, self.expected, target, &config.limits))
                        },
                        |_, outcome| {
                            outcomes.push(outcome);
                            ControlFlow::Continue(())
                        },
                    )
                });
                outcomes
            }
            Err(error) => {
                result.grader_failed(error.to_string());
                Vec::new()
            }
        };
        drop(slot);
        if let Ok(target) = &target {
            result.runner_notes = target.runner_notes();
        }
        scoring::apply_groups(&mut outcomes);
        result.summary = Summary::of(&outcomes);
        result.score = result.summary.score;
        if let Some(why) = harness_errors(&outcomes).filter(|_| result.error.is_none()) {
            result.grader_failed(why);
        }
        result.scenarios = outcomes;
        result.elapsed_ms = started.elapsed().as_millis() as u64;
        result
    }
}

/// Grades every submission (`config.jobs` at once) and returns the results in order.
pub fn grade_all(
    submissions: &[Submission],
    scenarios: &[Scenario],
    config: &GradeConfig,
    listen: &mut dyn FnMut(GradeEvent<'_>),
) -> Vec<SubmissionResult> {
    let started = Instant::now();
    let plans = plan(submissions, scenarios, config);
    let stored: Vec<Option<SubmissionResult>> = plans
        .iter()
        .map(|plan| {
            if config.resume {
                config.store.as_ref().and_then(|store| store.load(plan))
            } else {
                None
            }
        })
        .collect();
    let resumed = stored.iter().flatten().count();
    listen(GradeEvent::Started {
        submissions: submissions.len(),
        resumed,
    });
    let mut results: Vec<Option<SubmissionResult>> = vec![None; submissions.len()];
    let mut done = 0;
    for (index, previous) in stored.iter().enumerate() {
        if let Some(previous) = previous {
            done += 1;
            listen(GradeEvent::Finished {
                result: previous,
                done,
                total: submissions.len(),
                resumed: true,
            });
            results[index] = Some(previous.clone());
        }
    }
    let pending: Vec<usize> = (0..submissions.len())
        .filter(|&i| stored[i].is_none())
        .collect();
    // Fewer submissions than workers: the spare workers run their scenarios.
    let scenario_jobs = (config.jobs / pending.len().clamp(1, config.jobs.max(1))).max(1);
    // Twice the slots in submissions under way: one whose import check waits on the wall
    // clock, or whose scenario runs long, leaves its slot to another.
    let slots = CpuSlots::new(config.jobs);
    let expected = Expected::of(scenarios);
    slots.watching(|| {
        crate::pool::each(
            &pending,
            config.jobs.max(1) * 2,
            |_, &index| {
                // Once Ctrl-C is pressed, nothing more is started.
                (!crate::cancel::is_requested()).then(|| {
                    let result = grade_with(
                        &plans[index],
                        &expected,
                        scenarios,
                        config,
                        scenario_jobs,
                        &slots,
                    );
                    (index, result)
                })
            },
            |_, graded| {
                // A result finished after Ctrl-C may be cut short: it is neither stored nor
                // reported, and --resume grades that submission again.
                let Some((index, mut result)) = graded.filter(|_| !crate::cancel::is_requested())
                else {
                    return ControlFlow::Break(());
                };
                if let Some(store) = &config.store {
                    let stored = store::Stored {
                        result,
                        key: plans[index].key.clone(),
                    };
                    let saved = store.save(&stored);
                    result = stored.result;
                    if let Err(error) = saved {
                        result.grader_failed(format!("the result could not be saved: {error}"));
                    }
                }
                done += 1;
                listen(GradeEvent::Finished {
                    result: &result,
                    done,
                    total: submissions.len(),
                    resumed: false,
                });
                results[index] = Some(result);
                ControlFlow::Continue(())
            },
        )
    });
    let results: Vec<SubmissionResult> = results.into_iter().flatten().collect();
    listen(GradeEvent::Done {
        results: &results,
        elapsed_ms: started.elapsed().as_millis() as u64,
    });
    results
}

/// Where a class's outputs go by default.
pub fn default_out_dir() -> PathBuf {
    PathBuf::from("boardgrade-results")
}
