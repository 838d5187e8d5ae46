//! `boardgrade engine`: the reference engine on stdin/stdout.

use boardgrade::author::engine::serve;
use boardgrade::Error;

use super::args::EngineArgs;
use super::exit::Status;
use super::resolve;

pub fn run(args: &EngineArgs) -> Result<Status, Error> {
    let setup = resolve::setup(args)?;
    serve(&setup, std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(Status::Passed)
}
