//! `boardgrade completions SHELL`: the shell's completion script, from the same clap
//! definition the command line is parsed with.

use boardgrade::Error;
use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs};
use super::exit::Status;

pub fn run(args: &CompletionsArgs) -> Result<Status, Error> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "boardgrade", &mut script);
    super::console::say(&String::from_utf8_lossy(&script))?;
    Ok(Status::Passed)
}
