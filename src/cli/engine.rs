//! `boardgrade engine`: the reference engine on stdin/stdout.

use std::io::{BufRead, Write};

use boardgrade::games::{self, GameOptions};
use boardgrade::Error;

use super::args::EngineArgs;
use super::exit;

/// Parses `KEY=VALUE` options with TOML values (a bare word is a string).
pub fn parse_options(items: &[String]) -> Result<GameOptions, Error> {
    let mut options = GameOptions::new();
    for item in items {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| Error::Usage(format!("--option {item:?}: expected KEY=VALUE")))?;
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_string()));
        options.insert(key.trim().to_string(), parsed);
    }
    Ok(options)
}

pub fn run(args: &EngineArgs) -> Result<i32, Error> {
    let game = games::find(&args.game).ok_or_else(|| {
        Error::Usage(format!(
            "unknown game {:?}; expected one of {}",
            args.game,
            games::names().join(", ")
        ))
    })?;
    let dialect = match &args.dialect {
        Some(name) => game.dialect(name).ok_or_else(|| {
            let known: Vec<&str> = game.dialects().iter().map(|d| d.name).collect();
            Error::Usage(format!(
                "unknown dialect {name:?} of {}; expected one of {}",
                game.name(),
                known.join(", ")
            ))
        })?,
        None => &game.dialects()[0],
    };
    let options = parse_options(&args.options)?;
    let mut session = game
        .start(dialect.name, &options)
        .map_err(|e| Error::Usage(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let write = |out: &mut std::io::StdoutLock, text: &str| -> Result<(), Error> {
        out.write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| Error::io("cannot write to stdout", e))
    };
    write(&mut out, &session.opening().text)?;
    for line in std::io::stdin().lock().lines() {
        if session.is_finished() {
            break;
        }
        let line = line.map_err(|e| Error::io("cannot read stdin", e))?;
        write(&mut out, &session.respond(line.trim_end_matches('\r')).text)?;
    }
    Ok(exit::SUCCESS)
}
