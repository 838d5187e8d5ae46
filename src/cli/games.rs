//! `boardgrade games`: the games, their dialects and the variants found.

use std::path::Path;

use boardgrade::author::variants;
use boardgrade::games::REGISTRY;
use boardgrade::report::author::listing;
use boardgrade::Error;

use super::console::say;
use super::exit::Status;

pub fn run() -> Result<Status, Error> {
    say(&listing::games(
        REGISTRY,
        &variants::found(Path::new("specs")),
    ))?;
    Ok(Status::Passed)
}
