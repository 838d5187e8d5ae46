//! `boardgrade engine`: the reference engine on stdin/stdout.

use std::io::{BufRead, Write};

use boardgrade::games::Protocol;
use boardgrade::Error;

use super::args::EngineArgs;
use super::exit::Status;
use super::resolve;

pub fn run(args: &EngineArgs) -> Result<Status, Error> {
    let setup = resolve::setup(args)?;
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
    Ok(Status::Passed)
}
