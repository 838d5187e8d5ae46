//! The reference engine as a program: a session served line by line over a pair of
//! streams (`boardgrade engine` gives it stdin and stdout). Every reply is flushed at
//! once, so a harness driving it sees each answer before it sends the next line.

use std::io::{BufRead, Write};

use crate::error::Error;
use crate::games::Protocol;

use super::Setup;

/// Answers each line of `input` on `output` until the input ends or the game does.
pub fn serve(setup: &Setup, input: impl BufRead, mut output: impl Write) -> Result<(), Error> {
    let mut session = setup.session()?;
    // Call protocols frame each response (PROTOCOL.md): the reply's parts, then `.`.
    let framed = setup.dialect.protocol == Protocol::Call;
    let mut write = |text: &str| -> Result<(), Error> {
        output
            .write_all(text.as_bytes())
            .and_then(|_| output.flush())
            .map_err(|e| Error::io("cannot write the engine's output", e))
    };
    write(&session.opening().text)?;
    for line in input.lines() {
        if session.is_finished() {
            break;
        }
        let line = line.map_err(|e| Error::io("cannot read the engine's input", e))?;
        let line = line.trim_end_matches('\r');
        let reply = session.respond(line).text;
        if framed {
            write(&setup.dialect.split_response(line, &reply).encode())?;
        } else {
            write(&reply)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(game: &str, dialect: &str, input: &str) -> String {
        let setup = Setup::new(game, Some(dialect), Default::default()).unwrap();
        let mut output = Vec::new();
        serve(&setup, input.as_bytes(), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn a_call_protocol_frames_each_answer_and_a_program_protocol_does_not() {
        let framed = served("one-d-chess", "project5", "create_board\r\n");
        assert!(framed.ends_with("\n.\n"), "{framed:?}");
        let plain = served("one-d-chess", "csc110", "");
        assert!(!plain.is_empty() && !plain.ends_with("\n.\n"), "{plain:?}");
    }
}
