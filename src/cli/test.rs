//! `boardgrade test`: arguments to a configuration, then a run and a report.

use std::path::{Path, PathBuf};

use boardgrade::execution::{python, Limits, Sandbox, Target, TargetSpec};
use boardgrade::grade::{self, route::Routing};
use boardgrade::harness::{run_all, RunConfig};
use boardgrade::report::{json, junit, reporter};
use boardgrade::scenario::sources::{self, SourceFile};
use boardgrade::scenario::Scenario;
use boardgrade::{atomic, Error};

use super::args::{ReportFormat, RunArgs, TestArgs};
use super::exit;

/// The interpreter named by flag, environment or default.
pub fn python_candidate(flag: &Option<PathBuf>) -> PathBuf {
    flag.clone()
        .or_else(|| std::env::var_os("BOARDGRADE_PYTHON").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("python3"))
}

pub fn run_config(args: &RunArgs) -> RunConfig {
    let mut config = RunConfig::default();
    if let Some(jobs) = args.jobs {
        config.jobs = jobs.max(1);
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

fn select(scenarios: Vec<Scenario>, args: &TestArgs) -> Vec<Scenario> {
    scenarios
        .into_iter()
        .filter(|s| args.only.keeps(s))
        .filter(|s| {
            args.filter
                .as_ref()
                .is_none_or(|f| s.name.contains(f.as_str()))
        })
        .collect()
}

/// A submission answers one dialect: narrow the scenarios to it, by the names its code
/// defines when they span several.
fn one_dialect(
    scenarios: Vec<Scenario>,
    submission: &Path,
    interpreter: &python::Interpreter,
) -> Result<Vec<Scenario>, Error> {
    let dialects = grade::dialects_of(&scenarios);
    if dialects.len() <= 1 {
        return Ok(scenarios);
    }
    let submission = grade::Submission {
        id: String::new(),
        path: submission.to_path_buf(),
    };
    let plans = grade::plan(&[submission], &scenarios, interpreter, None);
    let routed = plans.first().map(|plan| match &plan.routing {
        Routing::Graded(route) => Ok(route.dialect),
        Routing::DoesNotLoad { dialect, .. } => Ok(*dialect),
        Routing::NotGraded { why, .. } => Err(why.clone()),
    });
    match routed.unwrap_or_else(|| Err("nothing to test".into())) {
        Ok(dialect) => Ok(scenarios
            .into_iter()
            .filter(|s| std::ptr::eq(s.dialect, dialect))
            .collect()),
        Err(why) => {
            let mut ids: Vec<String> = scenarios.iter().map(Scenario::dialect_id).collect();
            ids.dedup();
            Err(Error::Usage(format!(
                "{why}; the scenarios cover several dialects ({}): choose one with --game and --dialect",
                ids.join(", ")
            )))
        }
    }
}

pub fn run(args: &TestArgs) -> Result<i32, Error> {
    if let Some(request) = args
        .reports
        .iter()
        .find(|r| !matches!(r.format, ReportFormat::Json | ReportFormat::Junit))
    {
        return Err(Error::Usage(format!(
            "`test` writes json and junit reports; {} is a report of `grade`",
            request.path.display()
        )));
    }
    let files: Vec<SourceFile> = if args.paths.is_empty() {
        sources::bundled()
    } else {
        sources::from_paths(&args.paths)?
    };
    let loaded = args.only.load(&files)?;
    let mut scenarios = select(loaded.scenarios, args);

    let spec = match (&args.cmd, &args.python) {
        (Some(cmd), _) => TargetSpec::Command(cmd.clone()),
        (None, Some(file)) => TargetSpec::Python(file.clone()),
        (None, None) => TargetSpec::Reference,
    };
    let hidden = hidden_paths(&args.paths);
    let target = Target::new(spec, &python_candidate(&args.run.python_bin))?
        .with_sandbox(sandbox(&args.run), hidden.clone())
        .with_runner(args.run.python_runner);
    if !target.is_reference() {
        warn_exposed(target.sandbox(), &hidden);
    }
    if let (TargetSpec::Python(file), Some(python)) = (target.spec(), target.interpreter()) {
        scenarios = one_dialect(scenarios, file, python)?;
    }
    let target_name = describe_target(&target);

    let mut report = reporter(
        args.output.format,
        std::io::stdout().lock(),
        args.output.color.style(),
        !args.output.quiet,
    );
    let io_error = |e| Error::io("cannot write the report", e);
    for error in &loaded.errors {
        report.invalid_file(error).map_err(io_error)?;
    }
    if scenarios.is_empty() && loaded.errors.is_empty() {
        return Err(Error::Usage(
            "no scenarios match the given paths and filters".into(),
        ));
    }
    let mut write_error = None;
    let outcomes = run_all(
        &scenarios,
        &target,
        &run_config(&args.run),
        &target_name,
        &mut |event| {
            if write_error.is_none() {
                if let Err(e) = report.event(&event) {
                    write_error = Some(e);
                }
            }
        },
    );
    for request in &args.reports {
        let bytes = match request.format {
            ReportFormat::Json => json::test_document(&target_name, &outcomes, &loaded.errors)
                .map_err(|e| Error::Usage(format!("cannot encode the report: {e}")))?,
            ReportFormat::Junit => junit::junit_run(&target_name, &outcomes).into_bytes(),
            _ => continue, // refused before the run
        };
        atomic::write(&request.path, &bytes)?;
    }
    if let Some(e) = write_error {
        return Err(io_error(e));
    }
    for note in target.runner_notes() {
        eprintln!("boardgrade: note: {note}");
    }
    Ok(if !loaded.errors.is_empty() {
        exit::INVALID
    } else if outcomes.iter().all(|o| o.verdict.passed()) {
        exit::SUCCESS
    } else {
        exit::FAILED
    })
}

fn describe_target(target: &Target) -> String {
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

/// Says on stderr which of `hidden` (and the grader's binary) student programs could read.
pub fn warn_exposed(sandbox: Sandbox, hidden: &[PathBuf]) {
    for warning in sandbox.exposed(hidden) {
        eprintln!("boardgrade: warning: {warning}");
    }
}

/// The sandbox asked for, or the strongest available.
pub fn sandbox(args: &RunArgs) -> Sandbox {
    args.sandbox.unwrap_or_else(Sandbox::strongest)
}

/// What a sandboxed student program must not see: the scenario files given.
pub fn hidden_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
}
