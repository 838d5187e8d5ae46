//! `boardgrade games`: the games, their dialects and the variants found.

use boardgrade::games::REGISTRY;
use boardgrade::Error;

use super::console::say;
use super::exit::Status;

pub fn run() -> Result<Status, Error> {
    let mut text = String::new();
    for game in REGISTRY {
        for dialect in game.dialects() {
            text.push_str(&format!(
                "{:<14} {:<10} {:?} protocol, entry file {}, handout {}\n",
                game.name(),
                dialect.name,
                dialect.protocol,
                dialect.entry_file,
                dialect.handout
            ));
        }
    }
    for found in super::variant::found_variants() {
        text.push_str(&found);
        text.push('\n');
    }
    say(&text)?;
    Ok(Status::Passed)
}
