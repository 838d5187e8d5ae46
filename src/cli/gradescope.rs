//! `boardgrade gradescope`: check the specs, then write the autograder zip.

use boardgrade::error::FlagError;
use boardgrade::package::autograder::{self, Layout};
use boardgrade::package::{write_zip, Network, Package};
use boardgrade::report::gradescope::FeedbackFormat;
use boardgrade::report::package;
use boardgrade::Error;

use super::args::GradescopeArgs;
use super::console::say;
use super::exit::Status;
use super::resolve;

pub fn run(args: &GradescopeArgs) -> Result<Status, Error> {
    if args.run_autograder {
        return run_autograder(args);
    }
    no_grade_args(&args.grade_args, "--run-autograder")?;
    // A zip whose specs do not load would fail every student: refuse to build it.
    let (scenarios, _) = resolve::graded_scenarios(&args.specs, &args.only)?;
    let mut grade_args = resolve::grade_args(&args.only, args.entry.as_deref());
    grade_args.extend(["--budget".to_string(), args.budget.to_string()]);
    if args.feedback == FeedbackFormat::Text {
        grade_args.extend(["--feedback".to_string(), "text".to_string()]);
    }
    let binary = resolve::own_binary()?;
    write_zip(
        &Package {
            specs: args.specs.clone(),
            binary,
            grade_args,
            sandbox: args.sandbox,
            network: Network::allowing_open(args.allow_open_network),
            policy: resolve::policy_file(args.only.policy.as_ref(), &args.specs),
            requirements: args.requirements.clone(),
        },
        &args.out,
    )?;
    say(&package::written(
        &args.out,
        scenarios.len(),
        package::GRADESCOPE_NEXT,
    ))?;
    Ok(Status::Passed)
}

/// Inside Gradescope: grade, then write results.json; the log is the instructor's.
fn run_autograder(args: &GradescopeArgs) -> Result<Status, Error> {
    let binary = resolve::own_binary()?;
    let report = autograder::run(
        &Layout::from_env(),
        &binary,
        args.sandbox,
        Network::allowing_open(args.allow_open_network),
        &args.grade_args,
    )?;
    finish(&report)
}

/// A platform's entrypoint done: the log to stdout, and a refusal with its reason on stderr
/// and a failing status.
pub fn finish(report: &package::Report) -> Result<Status, Error> {
    say(&package::autograder_log(report))?;
    if let Some(why) = &report.refused {
        eprint!("{}", package::refused(why));
        return Ok(Status::Failed);
    }
    Ok(Status::Passed)
}

/// Arguments after `--` are `boardgrade grade`'s, for the platform's entrypoint (`mode`)
/// only: given to the packaging command they are refused, never dropped.
pub fn no_grade_args(grade_args: &[String], mode: &str) -> Result<(), Error> {
    if grade_args.is_empty() {
        return Ok(());
    }
    Err(FlagError::value(
        "--",
        grade_args.join(" "),
        format!(
            "arguments after `--` are for {mode} only; to set how the package grades, give \
             this command's own flags (see --help)"
        ),
    )
    .into())
}
