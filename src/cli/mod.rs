//! The thin command line over the library: arguments parsed (`args`), resolved once into
//! what the library takes (`resolve`), run by one file per subcommand, and the end turned
//! into a message and an exit code (`exit`, the one place that does).

pub mod args;
pub mod bless;
pub mod completions;
pub mod console;
pub mod coverage;
pub mod engine;
pub mod exit;
pub mod fuzz;
pub mod games;
pub mod gen;
pub mod grade;
pub mod gradescope;
pub mod list;
pub mod man;
pub mod perft;
pub mod play;
pub mod prairielearn;
pub mod record;
pub mod resolve;
pub mod test;
pub mod variant;

use clap::Parser;

use args::{Cli, Command};
use exit::Status;

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
    // Commands that run student code stop them all on Ctrl-C or SIGTERM (an interactive
    // one keeps the terminal's default).
    if matches!(
        cli.command,
        Command::Test(_) | Command::Grade(_) | Command::Gradescope(_) | Command::Fuzz(_)
    ) {
        if let Err(error) = boardgrade::cancel::install_interrupt_handler() {
            eprintln!("boardgrade: cannot catch Ctrl-C: {error}");
        }
    }
    let result: Result<Status, boardgrade::Error> = match &cli.command {
        Command::Test(args) => test::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Gradescope(args) => gradescope::run(args),
        Command::Prairielearn(args) => prairielearn::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Games => games::run(),
        Command::Perft(args) => perft::run(args),
        Command::Record(args) => record::run(args),
        Command::Bless(args) => bless::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Play(args) => play::run(args),
        Command::Merge(args) => grade::merge(args),
        Command::Variant(args) => variant::run(args),
        Command::List(args) => list::run(args),
        Command::Coverage(args) => coverage::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    };
    if let Err(error) = &result {
        if let Some(message) = exit::message(error) {
            eprintln!("{message}");
        }
    }
    exit::code(&result)
}
