//! `boardgrade fuzz`: random games on the reference and a submission; each distinct
//! failure shrunk and written as a scenario file.

use std::time::Duration;

use boardgrade::author::fuzz::{fuzz, FuzzConfig, FuzzEvent};
use boardgrade::error::FlagError;
use boardgrade::execution::TargetSpec;
use boardgrade::report::diff;
use boardgrade::Error;

use super::args::FuzzArgs;
use super::exit::Status;
use super::resolve;

pub fn run(args: &FuzzArgs) -> Result<Status, Error> {
    let setup = resolve::setup(&args.game)?;
    if !(args.time_limit > 0.0 && args.time_limit <= 3600.0) {
        return Err(FlagError::value(
            "--time-limit",
            args.time_limit,
            "expected seconds, above 0 and at most 3600",
        )
        .into());
    }
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
    };
    println!(
        "fuzzing {} against {target_text}: {} game(s) from seed {}",
        setup.id(),
        args.games,
        args.seed
    );
    let style = resolve::style(args.color);
    let mut write_error = None;
    let report = fuzz(
        &setup,
        &target,
        &run.limits,
        &config,
        &mut |event| match event {
            FuzzEvent::Played {
                game,
                steps,
                failed: Some(signature),
            } if !args.quiet => println!("game {game} ({steps} lines): {signature}"),
            FuzzEvent::Played { .. } => {}
            FuzzEvent::Found(failure) => {
                let path = args.out.join(&failure.file_name);
                if let Err(e) = std::fs::write(&path, &failure.file_text) {
                    write_error.get_or_insert(Error::path(&path, format!("cannot write: {e}")));
                }
                println!(
                    "  shrunk {} lines to {} in {} run(s): {}",
                    failure.original_steps,
                    failure.steps.len(),
                    failure.shrink_tests,
                    failure.steps.join("; ")
                );
                if let Some(d) = &failure.outcome.first_divergence {
                    println!("{}", diff::render(&d.expected, &d.actual, style, "    "));
                }
                println!("  wrote {}", path.display());
            }
        },
    )?;
    if let Some(e) = write_error {
        return Err(e);
    }
    println!(
        "{} game(s), {} distinct failure(s){}",
        report.games,
        report.failures.len(),
        if report.repeats > 0 {
            format!(" ({} more game(s) failed the same way)", report.repeats)
        } else {
            String::new()
        }
    );
    Ok(Status::from_passed(report.failures.is_empty()))
}
