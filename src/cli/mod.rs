//! The thin command line over the library: parse, configure, run, and turn errors into
//! messages and exit codes (the one place that does).

pub mod args;
pub mod bless;
pub mod engine;
pub mod exit;
pub mod fuzz;
pub mod gen;
pub mod grade;
pub mod gradescope;
pub mod perft;
pub mod play;
pub mod prairielearn;
pub mod record;
pub mod test;
pub mod variant;

use clap::Parser;

use args::{Cli, Command};
use boardgrade::{games, Error};

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() {
                exit::INVALID
            } else {
                exit::SUCCESS
            };
            let _ = error.print();
            return code;
        }
    };
    // Commands that run student code stop them all on Ctrl-C (an interactive one keeps
    // the terminal's default).
    if matches!(
        cli.command,
        Command::Test(_) | Command::Grade(_) | Command::Gradescope(_) | Command::Fuzz(_)
    ) {
        if let Err(error) = boardgrade::cancel::install_interrupt_handler() {
            eprintln!("boardgrade: cannot catch Ctrl-C: {error}");
        }
    }
    let result = match &cli.command {
        Command::Test(args) => test::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Gradescope(args) => gradescope::run(args),
        Command::Prairielearn(args) => prairielearn::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Games => list_games(),
        Command::Perft(args) => perft::run(args),
        Command::Record(args) => record::run(args),
        Command::Bless(args) => bless::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Play(args) => play::run(args),
        Command::Merge(args) => grade::merge(args),
        Command::Variant(args) => variant::run(args),
    };
    match result {
        Ok(code) => code,
        // A reader that went away (`| head`) is not an error worth a message, but the run
        // did not finish writing: never success.
        Err(error) if is_broken_pipe(&error) => exit::BROKEN_PIPE,
        Err(error) => {
            eprintln!("boardgrade: error: {error}");
            exit::INVALID
        }
    }
}

fn is_broken_pipe(error: &Error) -> bool {
    matches!(error, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

fn list_games() -> Result<i32, Error> {
    for game in games::REGISTRY {
        for dialect in game.dialects() {
            println!(
                "{:<14} {:<10} {:?} protocol, entry file {}, handout {}",
                game.name(),
                dialect.name,
                dialect.protocol,
                dialect.entry_file,
                dialect.handout
            );
        }
    }
    for found in variant::found_variants() {
        println!("{found}");
    }
    Ok(exit::SUCCESS)
}
