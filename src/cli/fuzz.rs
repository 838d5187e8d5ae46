//! `boardgrade fuzz`: random games on the reference and a submission; each distinct
//! failure shrunk and written as a scenario file.

use std::time::Duration;

use boardgrade::author::fuzz::{fuzz, FuzzConfig};
use boardgrade::error::FlagError;
use boardgrade::execution::TargetSpec;
use boardgrade::report::author::fuzz::FuzzReporter;
use boardgrade::Error;

use super::args::FuzzArgs;
use super::exit::Status;
use super::resolve;

pub fn run(args: &FuzzArgs) -> Result<Status, Error> {
    let setup = resolve::setup(&args.game)?;
    let target =
        resolve::target(&args.target, &args.run, Vec::new())?.ok_or(FlagError::Missing {
            what: "the program to fuzz: --cmd or --python",
        })?;
    let (target_text, target_flag) = match target.spec() {
        TargetSpec::Command(cmd) => (cmd.clone(), format!("--cmd {cmd:?}")),
        TargetSpec::Python(path) => (
            path.display().to_string(),
            format!("--python {}", path.display()),
        ),
        TargetSpec::Reference => ("the reference engine".to_string(), String::new()),
    };
    let run = resolve::run_config(&args.run);
    resolve::out_dir(&args.out)?;
    let config = FuzzConfig {
        seed: args.seed,
        games: args.games,
        max_steps: args.max_steps.max(1),
        shrink_budget: args.shrink_budget,
        max_failures: args.max_failures.max(1),
        jobs: run.jobs,
        time_limit: Duration::from_secs_f64(args.time_limit),
        command: format!(
            "boardgrade fuzz {} --dialect {} {target_flag} --seed {}",
            setup.game.name(),
            setup.dialect.name,
            args.seed
        ),
        out: args.out.clone(),
    };
    let mut report = FuzzReporter::new(
        std::io::stdout().lock(),
        resolve::style(args.color),
        !args.quiet,
    );
    let stdout_error = |e| Error::io("cannot write to stdout", e);
    report
        .start(&setup.id(), &target_text, args.games, args.seed)
        .map_err(stdout_error)?;
    let mut written = Ok(());
    let found = fuzz(&setup, &target, &run.limits, &config, &mut |event| {
        if written.is_ok() {
            written = report.event(&event);
        }
    })?;
    written
        .and_then(|()| report.finish(&found))
        .map_err(stdout_error)?;
    Ok(Status::from_passed(found.failures.is_empty()))
}
