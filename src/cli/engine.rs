//! `boardgrade engine`: the reference engine on stdin/stdout.

use std::io::{BufRead, Write};

use boardgrade::author::Setup;
use boardgrade::games::{GameOptions, Protocol};
use boardgrade::Error;

use super::args::{EngineArgs, GameArgs};
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

/// The game, dialect and options named on the command line.
pub fn setup(args: &GameArgs) -> Result<Setup, Error> {
    Setup::new(
        &args.game,
        args.dialect.as_deref(),
        parse_options(&args.options)?,
    )
}

pub fn run(args: &EngineArgs) -> Result<i32, Error> {
    let setup = setup(args)?;
    let mut session = setup.session()?;
    // Call protocols frame each response (PROTOCOL.md): the reply's parts, then `.`.
    let framed = setup.dialect.protocol == Protocol::Call;
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
        let line = line.trim_end_matches('\r');
        let reply = session.respond(line).text;
        if framed {
            let response = setup.game.split_response(setup.dialect.name, line, &reply);
            write(&mut out, &response.encode())?;
        } else {
            write(&mut out, &reply)?;
        }
    }
    Ok(exit::SUCCESS)
}
