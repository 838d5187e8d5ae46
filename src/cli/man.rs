//! `boardgrade man DIR`: man pages from the same clap definition the command line is
//! parsed with: `boardgrade.1` and `boardgrade-SUBCOMMAND.1` for each subcommand.

use std::path::Path;

use boardgrade::{atomic, Error};
use clap::CommandFactory;

use super::args::{Cli, ManArgs};
use super::exit::Status;
use super::resolve;

/// The man page of `command`, and of each of its subcommands, into `dir`.
fn write_pages(command: clap::Command, dir: &Path, written: &mut Vec<String>) -> Result<(), Error> {
    let name = command
        .get_display_name()
        .unwrap_or(command.get_name())
        .to_string();
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .map_err(|e| Error::io(format!("cannot render the man page of {name}"), e))?;
    let file = format!("{name}.1");
    atomic::write(&dir.join(&file), &page)?;
    written.push(file);
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let sub = sub
            .clone()
            .display_name(format!("{name}-{}", sub.get_name()));
        write_pages(sub, dir, written)?;
    }
    Ok(())
}

pub fn run(args: &ManArgs) -> Result<Status, Error> {
    let dir = resolve::out_dir(&args.out)?;
    let mut command = Cli::command();
    command.build();
    let mut written = Vec::new();
    write_pages(command, dir, &mut written)?;
    super::console::say(&format!(
        "wrote {} man page(s) to {}: {}\n",
        written.len(),
        dir.display(),
        written.join(" ")
    ))?;
    Ok(Status::Passed)
}
