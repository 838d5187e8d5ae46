//! The `boardgrade` command.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
