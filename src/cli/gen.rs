//! `boardgrade gen`: a file of random games, expectations from the reference.

use boardgrade::author::generate::{generate, head, GenRequest};
use boardgrade::author::write::file_text;
use boardgrade::error::FlagError;
use boardgrade::report::author::session::generated;
use boardgrade::Error;

use super::args::GenArgs;
use super::console::write_out;
use super::exit::Status;
use super::resolve;

pub fn run(args: &GenArgs) -> Result<Status, Error> {
    let setup = resolve::setup(&args.game)?;
    for (flag, value) in [("--count", args.count), ("--max-steps", args.max_steps)] {
        if value == 0 {
            return Err(FlagError::value(flag, value, "expected at least 1").into());
        }
    }
    let mut command = format!(
        "boardgrade gen {} --dialect {} --seed {} --count {} --max-steps {}",
        setup.game.name(),
        setup.dialect.name,
        args.seed,
        args.count,
        args.max_steps
    );
    for option in &args.game.options {
        command.push_str(&format!(" --option {option}"));
    }
    if args.lines_only {
        command.push_str(" --lines-only");
    }
    let request = GenRequest {
        seed: args.seed,
        count: args.count,
        max_steps: args.max_steps,
        lines_only: args.lines_only,
        command,
    };
    let scenarios = generate(&setup, &request)?;
    let head = resolve::head(head(&setup, &request), &args.head)?;
    write_out(
        args.head.out.as_deref(),
        &file_text(&setup, &head, &scenarios),
    )?;
    if let Some(out) = &args.head.out {
        eprint!("{}", generated(args.count, &setup.id(), out));
    }
    Ok(Status::Passed)
}
