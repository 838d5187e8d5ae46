//! The resolved run: the parsed arguments checked and turned, once, into what the library
//! takes (filters checked against the games, the scenarios, the program under test with its
//! interpreter and sandbox, limits, colours). Subcommands build their run from here and hold
//! no logic of their own.

use std::path::{Path, PathBuf};

use boardgrade::author::write::FileHead;
use boardgrade::author::Setup;
use boardgrade::error::{ClassError, FlagError, LookupError, ScenarioFileError};
use boardgrade::execution::{python, Limits, Sandbox, Target, TargetSpec};
use boardgrade::games::variant::Catalogue;
use boardgrade::games::{self, GameOptions};
use boardgrade::grade::pipeline::{self, Prepared, Runs};
use boardgrade::grade::{GradeConfig, LoadError, OptionalLeftOut, UnknownVariant};
use boardgrade::harness::RunConfig;
use boardgrade::points::Points;
use boardgrade::report::Style;
use boardgrade::scenario::sources::{self, Loaded, SourceFile};
use boardgrade::scenario::{Scenario, Visibility};
use boardgrade::verdict::MAX_POINTS;
use boardgrade::Error;
use clap::ColorChoice;

use super::args::{GameArgs, GradeArgs, HeadArgs, RunArgs, ScenarioFilter, TargetArgs, TestArgs};

/// The interpreter named by flag, environment or default.
pub fn python_candidate(flag: &Option<PathBuf>) -> PathBuf {
    flag.clone()
        .or_else(|| std::env::var_os("BOARDGRADE_PYTHON").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("python3"))
}

/// Jobs and limits of a run.
pub fn run_config(args: &RunArgs) -> RunConfig {
    let mut config = RunConfig::default();
    if let Some(jobs) = args.jobs {
        config.jobs = jobs;
        let cores = boardgrade::pool::default_jobs();
        if config.jobs > cores {
            eprintln!(
                "boardgrade: note: --jobs {} is more than the {cores} core(s) here; time limits \
                 are judged on CPU time, and a timeout among other jobs is run again alone",
                config.jobs
            );
        }
    }
    config.limits = Limits {
        output_bytes: args.output_limit,
        // The flag is bounded (16 TiB), so this cannot wrap around.
        memory_bytes: (args.memory_limit > 0).then_some(args.memory_limit << 20),
        ..Limits::default()
    };
    config
}

/// The sandbox asked for, or the strongest available.
pub fn sandbox(args: &RunArgs) -> Sandbox {
    args.sandbox.unwrap_or_else(Sandbox::strongest)
}

/// The interpreter found and the sandbox, asked at once: each starts a program of its own
/// (the interpreter to tell its version, bubblewrap to show it works), and neither waits on
/// the other.
fn interpreter_and_sandbox(args: &RunArgs) -> Result<(python::Interpreter, Sandbox), Error> {
    let (sandbox, interpreter) = boardgrade::pool::beside(
        || sandbox(args),
        || python::resolve(&python_candidate(&args.python_bin)),
    );
    Ok((interpreter?, sandbox))
}

/// What a sandboxed student program must not see: the scenario files given.
pub fn hidden_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
}

/// Says on stderr which of `hidden` (and the grader's binary) student programs could read.
pub fn warn_exposed(sandbox: Sandbox, hidden: &[PathBuf]) {
    for warning in sandbox.exposed(hidden) {
        eprintln!("boardgrade: warning: {warning}");
    }
}

/// The program under test named by `--cmd` or `--python` (`None` when neither is given),
/// fenced in by the sandbox asked for, with `hidden` out of its sight.
pub fn target(
    args: &TargetArgs,
    run: &RunArgs,
    hidden: Vec<PathBuf>,
) -> Result<Option<Target>, Error> {
    let spec = match (&args.cmd, &args.python) {
        (Some(cmd), _) => TargetSpec::Command(cmd.clone()),
        (None, Some(file)) => TargetSpec::Python(file.clone()),
        (None, None) => return Ok(None),
    };
    let sandbox = sandbox(run);
    warn_exposed(sandbox, &hidden);
    let target = Target::new(spec, &python_candidate(&run.python_bin))?
        .with_sandbox(sandbox, hidden)
        .with_runner(run.python_runner);
    Ok(Some(target))
}

/// The reference engine as the program under test.
pub fn reference(run: &RunArgs) -> Result<Target, Error> {
    Target::new(TargetSpec::Reference, &python_candidate(&run.python_bin))
}

/// How a run names its program under test.
/// How reports name a program under test that is never started.
fn plain_name(target: &TargetArgs) -> String {
    match (&target.cmd, &target.python) {
        (Some(cmd), _) => format!("`{cmd}`"),
        (None, Some(file)) => file.display().to_string(),
        (None, None) => "the reference engine".to_string(),
    }
}

pub fn describe_target(target: &Target) -> String {
    let sandbox = target.sandbox().describe();
    match target.spec() {
        TargetSpec::Reference => "the reference engine".to_string(),
        TargetSpec::Command(cmd) => format!("`{cmd}` (sandbox: {sandbox})"),
        TargetSpec::Python(path) => match target.interpreter() {
            Some(python) => format!(
                "{} (Python {}, sandbox: {sandbox})",
                path.display(),
                python.version
            ),
            None => path.display().to_string(),
        },
    }
}

/// Colours for a report on stdout: the one place the choice is made. `--color auto`
/// follows the conventions as clap's own help does (anstream): NO_COLOR set and not empty
/// turns colours off, CLICOLOR_FORCE set and not empty turns them on, else a colour
/// terminal gets them. The choice is made global, so clap's messages follow it too.
pub fn style(choice: ColorChoice) -> Style {
    let choice = match choice {
        ColorChoice::Always => anstream::ColorChoice::Always,
        ColorChoice::Never => anstream::ColorChoice::Never,
        ColorChoice::Auto => anstream::ColorChoice::Auto,
    };
    choice.write_global();
    let decided = anstream::AutoStream::choice(&std::io::stdout());
    Style {
        color: decided != anstream::ColorChoice::Never,
    }
}

/// Parses `KEY=VALUE` options with TOML values (a bare word is a string).
fn parse_options(items: &[String]) -> Result<GameOptions, Error> {
    let mut options = GameOptions::new();
    for item in items {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| FlagError::value("--option", item, "expected KEY=VALUE"))?;
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_string()));
        options.insert(key.trim().to_string(), parsed);
    }
    Ok(options)
}

/// The game, dialect and options named on the command line.
pub fn setup(args: &GameArgs) -> Result<Setup, Error> {
    Setup::new(
        &args.game,
        args.dialect.as_deref(),
        parse_options(&args.options)?,
    )
}

/// `head` with the file-level keys given on the command line.
pub fn head(mut head: FileHead, args: &HeadArgs) -> Result<FileHead, Error> {
    if let Some(name) = &args.visibility {
        head.visibility = toml::Value::String(name.clone())
            .try_into::<Visibility>()
            .map_err(|_| {
                FlagError::value(
                    "--visibility",
                    name,
                    "expected visible, hidden, after_due_date or after_published",
                )
            })?;
    }
    head.points = Points::exact(args.points)
        .filter(|p| (Points::ZERO..=MAX_POINTS).contains(p))
        .ok_or_else(|| {
            FlagError::value(
                "--points",
                args.points,
                format!("expected a number from 0 to {MAX_POINTS}, in thousandths of a point"),
            )
        })?;
    if let Some(section) = &args.section {
        head.section = section.clone();
    }
    Ok(head)
}

/// The filter, its game and dialect checked against the games and the variants loaded.
pub fn filter<'a>(
    args: &'a ScenarioFilter,
    variants: &Catalogue,
) -> Result<&'a ScenarioFilter, Error> {
    match (&args.game, &args.dialect) {
        (Some(game), dialect) => {
            let game = games::lookup(game)?;
            if let Some(dialect) = dialect {
                variants.lookup_dialect(game, dialect)?;
            }
        }
        (None, Some(dialect)) => {
            let known = games::REGISTRY
                .iter()
                .any(|g| variants.dialect(*g, dialect).is_some());
            if !known {
                let all: Vec<&str> = games::REGISTRY
                    .iter()
                    .flat_map(|g| g.dialects().iter().map(|d| d.name))
                    .collect();
                return Err(LookupError::AnyDialect {
                    name: dialect.clone(),
                    known: all.join(", "),
                }
                .into());
            }
        }
        (None, None) => {}
    }
    Ok(args)
}

/// What `--dialect` names in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialectFilter {
    /// The scenarios of that dialect: what the reference or a program answers.
    Own,
    /// Those a submission of that dialect is graded on: its own, and those of the dialects
    /// graded with it (csc110's function scenarios beside its whole-program ones), as a class
    /// run grades it.
    GradedAs,
}

/// Whether the filter keeps `scenario`.
pub fn keeps(filter: &ScenarioFilter, scenario: &Scenario, dialects: DialectFilter) -> bool {
    let tagged = |tags: &[String]| scenario.tags.iter().any(|t| tags.contains(t));
    let named = |d: &String| {
        scenario.dialect.name == d
            || (dialects == DialectFilter::GradedAs
                && boardgrade::grade::routed_as(scenario).name == d)
    };
    filter
        .game
        .as_ref()
        .is_none_or(|g| scenario.game.name() == g)
        && filter.dialect.as_ref().is_none_or(named)
        && (filter.tag.is_empty() || tagged(&filter.tag))
        && !tagged(&filter.skip_tag)
}

/// The scenario files of `paths` (the bundled specs when none) loaded, and the scenarios
/// the filter and the name filter keep (those they leave out stay in the `Loaded`).
pub fn selected(
    paths: &[PathBuf],
    only: &ScenarioFilter,
    dialects: DialectFilter,
    name: Option<&str>,
) -> Result<(Loaded, Vec<Scenario>), Error> {
    let mut loaded = load(only, &files(paths)?)?;
    let only = filter(only, &loaded.variants)?;
    let (scenarios, left_out) = std::mem::take(&mut loaded.scenarios)
        .into_iter()
        .partition(|s| keeps(only, s, dialects) && name.is_none_or(|n| s.name.contains(n)));
    loaded.scenarios = left_out;
    Ok((loaded, scenarios))
}

/// The scenario files of `paths`, or the bundled specs when none is given.
pub fn files(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Error> {
    if paths.is_empty() {
        Ok(sources::bundled())
    } else {
        sources::from_paths(paths)
    }
}

/// Loads the files under the course policy given, or else the one found beside each.
pub fn load(filter: &ScenarioFilter, files: &[SourceFile]) -> Result<Loaded, Error> {
    let mut loaded = match &filter.policy {
        Some(path) => sources::load_under(files, path)?,
        None => sources::load_all(files),
    };
    if let Some(seed) = filter.seed {
        for scenario in &mut loaded.scenarios {
            boardgrade::scenario::battery::reseed(scenario, seed);
        }
    }
    Ok(loaded)
}

/// The scenarios to grade with, and the variants their files and the bundled ones define:
/// every file of `specs` (the bundled specs when none) must load, and some scenario must
/// pass the filter.
pub fn graded_scenarios(
    specs: &[PathBuf],
    only: &ScenarioFilter,
) -> Result<(Vec<Scenario>, Catalogue), Error> {
    let loaded = load(only, &files(specs)?)?;
    let only = filter(only, &loaded.variants)?;
    // Grading against part of the specs would be unfair: stop before any submission runs,
    // naming every file at fault.
    match loaded.errors.as_slice() {
        [] => {}
        [error] => return Err(Error::Scenario(error.clone())),
        errors => return Err(ClassError::InvalidSpecs(errors.to_vec()).into()),
    }
    let scenarios: Vec<_> = loaded
        .scenarios
        .into_iter()
        .filter(|s| keeps(only, s, DialectFilter::GradedAs))
        .collect();
    let enabled = boardgrade::grade::enabled(scenarios, UnknownVariant::Refused)?;
    let mut notes = enabled.notes();
    let (scenarios, optional) = boardgrade::grade::set_by_course(enabled.scenarios);
    notes.extend(optional.into_iter().map(|left| left.note));
    for note in notes {
        super::console::note(&note);
    }
    if scenarios.is_empty() {
        return Err(ClassError::NoScenarios { given: "specs" }.into());
    }
    Ok((scenarios, loaded.variants))
}

/// The same filter (and `--entry`) as arguments of `boardgrade grade`, for the packages
/// that run it.
pub fn grade_args(only: &ScenarioFilter, entry: Option<&str>) -> Vec<String> {
    let mut args = Vec::new();
    for (flag, value) in [
        ("--game", only.game.as_deref()),
        ("--dialect", only.dialect.as_deref()),
        ("--entry", entry),
    ] {
        if let Some(value) = value {
            args.extend([flag.to_string(), value.to_string()]);
        }
    }
    for (flag, values) in [("--tag", &only.tag), ("--skip-tag", &only.skip_tag)] {
        for value in values {
            args.extend([flag.to_string(), value.clone()]);
        }
    }
    if let Some(seed) = only.seed {
        args.extend(["--seed".to_string(), seed.to_string()]);
    }
    args
}

/// The course policy to ship: the one given, else the one nearest above the first specs
/// path, when it lies outside the specs copied (one inside them is copied with them).
pub fn policy_file(given: Option<&PathBuf>, specs: &[PathBuf]) -> Option<PathBuf> {
    if let Some(given) = given {
        return Some(given.clone());
    }
    let first = specs.first()?;
    let found = boardgrade::scenario::course::find_beside(first)?;
    let copied = std::fs::canonicalize(first).ok()?;
    let root = if copied.is_dir() {
        copied.as_path()
    } else {
        copied.parent()?
    };
    (!found.starts_with(root)).then_some(found)
}

/// How `grade` grades: the interpreter found, jobs, limits, and the sandbox, with the specs
/// and the class folders out of student programs' sight (and a warning where they are not:
/// a class folder every user can read gives each student the classmates' code).
pub fn grade_config(args: &GradeArgs, variants: Catalogue) -> Result<GradeConfig, Error> {
    let (interpreter, sandbox) = interpreter_and_sandbox(&args.run)?;
    let run = run_config(&args.run);
    let config = GradeConfig {
        jobs: run.jobs,
        limits: run.limits,
        interpreter,
        entry: args.entry.clone(),
        store: None,
        resume: args.resume,
        sandbox,
        hidden: hidden_paths(&[args.specs.clone(), class_folders(args)].concat()),
        runner: args.run.python_runner,
        budget: args.budget.map(std::time::Duration::from_secs_f64),
        import_limit: Some(std::time::Duration::from_secs_f64(args.import_limit)),
        start_check: boardgrade::execution::StartCheck::new(),
        variants,
    };
    warn_exposed(config.sandbox, &config.hidden);
    Ok(config)
}

/// The folders of several students among `grade`'s arguments (with `--one-submission`, each
/// is one student's own, which that student may read).
fn class_folders(args: &GradeArgs) -> Vec<PathBuf> {
    if args.one_submission {
        return Vec::new();
    }
    args.submissions
        .iter()
        .filter(|path| path.is_dir())
        .cloned()
        .collect()
}

/// The running binary, which the packages copy.
pub fn own_binary() -> Result<PathBuf, Error> {
    std::env::current_exe().map_err(|e| Error::io("cannot find the boardgrade binary", e))
}

/// A folder to write into, created.
pub fn out_dir(path: &Path) -> Result<&Path, Error> {
    std::fs::create_dir_all(path).map_err(|e| Error::path(path, format!("cannot create: {e}")))?;
    Ok(path)
}

/// The scenarios to run against `target`: a command may be written in any language, so a
/// handout's rules about Python code (its code checks) are left out for it, with a note.
fn without_code_checks(mut scenarios: Vec<Scenario>, target: &Target) -> Vec<Scenario> {
    if matches!(target.spec(), TargetSpec::Command(_)) {
        let before = scenarios.len();
        scenarios.retain(|s| s.code_check().is_none());
        let left = before - scenarios.len();
        if left > 0 {
            eprintln!(
                "boardgrade: note: {left} code check(s) left out: they read a Python \
                 submission's code, and a command gives none (use --python to check it)"
            );
        }
    }
    scenarios
}

/// A `test` run, resolved: what to run, against what, how.
pub struct TestRun {
    /// Scenario files that did not load, reported before the run.
    pub invalid: Vec<ScenarioFileError>,
    /// The program under test and the scenarios it answers.
    pub subject: Subject,
    /// How reports name the program under test.
    pub target_name: String,
    pub config: RunConfig,
    /// What the student should know before the run (a required name not defined, a
    /// variant of the course the file answers better).
    pub notes: Vec<String>,
}

/// What `test` runs against, and with which scenarios.
pub enum Subject {
    Runs {
        target: Box<Target>,
        scenarios: Vec<Scenario>,
    },
    /// A Python submission, run as the dialect it was routed to and as each other its file
    /// answers in full (the better kept).
    Submission(Runs),
    /// A Python submission that does not load: nothing runs.
    DoesNotLoad {
        error: LoadError,
        scenarios: Vec<Scenario>,
    },
    /// Every scenario file given is invalid (or the filters keep none of the valid ones'
    /// scenarios, `filtered`): nothing runs.
    NothingValid { filtered: bool },
}

/// The scenarios the paths and filters keep, and the program to run them against: the
/// reference engine, a command, or a Python submission taken through the pipeline a class
/// run takes it through (probed, routed, launched).
pub fn test_run(args: &TestArgs) -> Result<TestRun, Error> {
    if let Some(request) = args.reports.iter().find(|r| !r.format.is_test_report()) {
        return Err(FlagError::NotATestReport {
            path: request.path.clone(),
        }
        .into());
    }
    // A Python submission's interpreter and sandbox are asked for while the scenarios load.
    let python = args.target.cmd.is_none() && args.target.python.is_some();
    let (machine, selection) = boardgrade::pool::beside(
        || python.then(|| interpreter_and_sandbox(&args.run)),
        || {
            let dialects = match python {
                true => DialectFilter::GradedAs,
                false => DialectFilter::Own,
            };
            selected(&args.paths, &args.only, dialects, args.filter.as_deref())
        },
    );
    let (loaded, scenarios) = selection?;
    let any_valid = !scenarios.is_empty() || !loaded.scenarios.is_empty();
    let scenarios = if python {
        graded_as_in_class(scenarios)?
    } else {
        scenarios
    };
    let (scenarios, left_out) = boardgrade::grade::set_by_course(scenarios);
    if scenarios.is_empty() && loaded.errors.is_empty() {
        // Nothing is left to run: what the course left out says why.
        for left in &left_out {
            super::console::note(&left.note);
        }
        return Err(ClassError::NoScenarios { given: "paths" }.into());
    }
    let config = run_config(&args.run);
    if scenarios.is_empty() {
        // Only invalid files: nothing runs, and a submission has no dialect to be routed to,
        // so it is not looked at (nothing it lacks is the cause).
        return Ok(TestRun {
            subject: Subject::NothingValid {
                filtered: any_valid,
            },
            invalid: loaded.errors,
            target_name: plain_name(&args.target),
            config,
            notes: left_out.into_iter().map(|left| left.note).collect(),
        });
    }
    let hidden = hidden_paths(&args.paths);
    let (subject, target_name, notes) = match (&args.target.python, machine) {
        (Some(file), Some(machine)) => {
            let variants = loaded.variants.clone();
            submission(
                file, scenarios, variants, machine?, &args.run, &config, hidden,
            )?
        }
        _ => {
            // A command, or the reference engine when no program is named.
            let target = match target(&args.target, &args.run, hidden)? {
                Some(target) => target,
                None => reference(&args.run)?,
            };
            let name = describe_target(&target);
            let scenarios = without_code_checks(scenarios, &target);
            let target = Box::new(target);
            (Subject::Runs { target, scenarios }, name, Vec::new())
        }
    };
    let notes = [
        about_its_dialects(left_out, &subject),
        notes,
        Vec::from_iter(one_at_a_time(&subject, args.run.jobs)),
    ]
    .concat();
    Ok(TestRun {
        invalid: loaded.errors,
        subject,
        target_name,
        config,
        notes,
    })
}

/// The notes on scenarios the course leaves out that concern what runs: for a submission,
/// those of the dialects it is graded as (a pown student hears nothing of chess's optional
/// code checks); all of them otherwise.
fn about_its_dialects(left_out: Vec<OptionalLeftOut>, subject: &Subject) -> Vec<String> {
    let graded: Option<Vec<&Scenario>> = match subject {
        Subject::Submission(runs) => Some(
            (std::iter::once(&runs.first).chain(&runs.also))
                .flat_map(|run| &run.scenarios)
                .collect(),
        ),
        Subject::DoesNotLoad { scenarios, .. } => Some(scenarios.iter().collect()),
        Subject::Runs { .. } | Subject::NothingValid { .. } => None,
    };
    let concerns = |left: &OptionalLeftOut| match &graded {
        Some(scenarios) => (scenarios.iter()).any(|s| std::ptr::eq(s.dialect, left.dialect)),
        None => true,
    };
    (left_out.into_iter())
        .filter(concerns)
        .map(|left| left.note)
        .collect()
}

/// A student's self-check runs the scenarios a class run grades: a variant the course does
/// not enable is left out as `grade` leaves it out (the route still tells the student when
/// the file answers it better), and one that takes its base's place does so here too.
fn graded_as_in_class(scenarios: Vec<Scenario>) -> Result<Vec<Scenario>, Error> {
    let enabled = boardgrade::grade::enabled(scenarios, UnknownVariant::Passed)?;
    for note in &enabled.replaced {
        super::console::note(note);
    }
    Ok(enabled.scenarios)
}

/// Why the `--jobs` asked for are not used, where they are not: the sandbox runs one
/// program's scenarios one at a time (see `Target::at_once`).
fn one_at_a_time(subject: &Subject, jobs: Option<usize>) -> Option<String> {
    let target = match subject {
        Subject::Runs { target, .. } => target,
        Subject::Submission(runs) => &runs.first.target,
        Subject::DoesNotLoad { .. } | Subject::NothingValid { .. } => return None,
    };
    let jobs = jobs?;
    (jobs > 1 && target.at_once(jobs) == 1).then(|| {
        format!(
            "--jobs {jobs} is not used: under --sandbox {} a program's scenarios run one at a \
             time, as its runs would share the machine's /tmp",
            target.sandbox().as_str()
        )
    })
}

/// A student's Python submission, prepared as `grade` prepares each one, with its name and
/// what the student should know before the run.
fn submission(
    file: &Path,
    scenarios: Vec<Scenario>,
    variants: Catalogue,
    (interpreter, sandbox): (python::Interpreter, Sandbox),
    run: &RunArgs,
    config: &RunConfig,
    hidden: Vec<PathBuf>,
) -> Result<(Subject, String, Vec<String>), Error> {
    let grading = GradeConfig {
        jobs: config.jobs,
        limits: config.limits.clone(),
        interpreter,
        entry: None,
        store: None,
        resume: false,
        sandbox,
        hidden,
        runner: run.python_runner,
        budget: None,
        // The import is checked once, as the class run checks it.
        import_limit: Some(boardgrade::grade::DEFAULT_IMPORT_LIMIT),
        start_check: boardgrade::execution::StartCheck::new(),
        variants,
    };
    warn_exposed(grading.sandbox, &grading.hidden);
    Ok(match pipeline::prepare(file, scenarios, &grading)? {
        Prepared::Runs { runs, route } => {
            let mut notes = if runs.also.is_empty() {
                route.notes
            } else {
                // Which of them it is graded as is said once the runs are done.
                let names: Vec<&str> = route.tries().map(|r| r.dialect.name).collect();
                vec![format!(
                    "your file answers {}: it is run as each, and the better result kept",
                    names.join(" and ")
                )]
            };
            notes.extend(route.better.map(|better| {
                let name = better.dialect.name;
                format!(
                    "your file {}: your course may use {name}; run `boardgrade test \
                     --dialect {name} --python {}`",
                    better.why,
                    file.display()
                )
            }));
            let name = describe_target(&runs.first.target);
            (Subject::Submission(runs), name, notes)
        }
        Prepared::DoesNotLoad { error, scenarios } => (
            Subject::DoesNotLoad { error, scenarios },
            file.display().to_string(),
            Vec::new(),
        ),
    })
}
