//! `boardgrade prairielearn`: check the specs, then write PrairieLearn's external grader.

use boardgrade::grade::{dialects_of, entry_files};
use boardgrade::package::prairielearn::{new_uuid, write_layout, Package};
use boardgrade::package::prairielearn_grader::{self, Layout};
use boardgrade::package::Network;
use boardgrade::{report, Error};

use super::args::PrairielearnArgs;
use super::console::say;
use super::exit::Status;
use super::resolve;

pub fn run(args: &PrairielearnArgs) -> Result<Status, Error> {
    if args.run_grader {
        return run_grader(args);
    }
    super::gradescope::no_grade_args(&args.grade_args, "--run-grader")?;
    // Course files whose specs do not load would fail every student: refuse to write them.
    let (scenarios, _) = resolve::graded_scenarios(&args.specs, &args.only)?;
    let title = args.title.clone().unwrap_or_else(|| {
        let dialects: Vec<String> = dialects_of(&scenarios)
            .iter()
            .map(|d| d.name.to_string())
            .collect();
        format!("{} ({})", scenarios[0].game.name(), dialects.join(", "))
    });
    let entry = match &args.entry {
        Some(entry) => vec![entry.clone()],
        None => entry_files(&scenarios, None)
            .iter()
            .map(|f| f.to_string())
            .collect(),
    };
    let binary = resolve::own_binary()?;
    let time_limits: u64 = scenarios.iter().map(|s| s.time_limit.as_secs()).sum();
    let mut grade_args = resolve::grade_args(&args.only, args.entry.as_deref());
    // PrairieLearn's timeout allows the time limits and a margin: the budget leaves the
    // margin for starting and writing the results.
    grade_args.extend(["--budget".to_string(), time_limits.max(1).to_string()]);
    let package = Package {
        specs: args.specs.clone(),
        binary,
        grade_args,
        policy: resolve::policy_file(args.only.policy.as_ref(), &args.specs),
        question: args.question.clone(),
        title,
        image: args.image.clone(),
        entry_files: entry,
        time_limits,
        uuid: new_uuid(),
        requirements: args.requirements.clone(),
        sandbox: args.sandbox,
        network: Network::allowing_open(args.allow_open_network),
    };
    write_layout(&package, &args.out)?;
    say(&report::package::written(
        &args.out,
        scenarios.len(),
        report::package::PRAIRIELEARN_NEXT,
    ))?;
    Ok(Status::Passed)
}

/// Inside PrairieLearn: grade, then write results.json; the log is the course staff's.
fn run_grader(args: &PrairielearnArgs) -> Result<Status, Error> {
    let binary = resolve::own_binary()?;
    let report = prairielearn_grader::run(
        &Layout::from_env(),
        &binary,
        args.sandbox,
        Network::allowing_open(args.allow_open_network),
        &args.grade_args,
    )?;
    super::gradescope::finish(&report)
}
