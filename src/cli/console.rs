//! The terminal side of the commands: writing to stdout, reading typed lines, and showing
//! what the reference made of a line.

use std::io::{BufRead, Write};
use std::path::Path;

use boardgrade::author::record::Fed;
use boardgrade::games::{Protocol, Session};
use boardgrade::Error;

/// Writes `text` to `out`, or to stdout.
pub fn write_out(out: Option<&Path>, text: &str) -> Result<(), Error> {
    match out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| Error::path(path, format!("cannot write: {e}")))
        }
        None => say(text),
    }
}

/// Writes `text` to stdout at once.
pub fn say(text: &str) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .map_err(|e| Error::io("cannot write to stdout", e))
}

/// What a person sees after a line: the answer, the board where answers do not show it,
/// or why the line was refused.
pub fn describe(line: &str, fed: &Fed, session: &dyn Session, protocol: Protocol) -> String {
    let board = || match protocol {
        Protocol::Call => session.board_view().unwrap_or_default(),
        Protocol::Program => String::new(),
    };
    match fed {
        Fed::Recorded { reply, refused } => {
            let mut text = reply.text.clone();
            if *refused {
                text.push_str(&format!("({line:?} is refused by the rules; recorded)\n"));
            }
            if !text.is_empty() && !text.ends_with('\n') && protocol == Protocol::Call {
                text.push('\n');
            }
            format!("{text}{}", board())
        }
        Fed::Refused { reply, reason } => {
            let answer = match reply.text.lines().next() {
                Some(first) if !first.trim().is_empty() => {
                    format!(" (the reference answers {:?})", first.trim_end())
                }
                _ => String::new(),
            };
            format!("not played: {line:?}{answer}: {reason}\n")
        }
        Fed::Ended => "the game is over\n".to_string(),
    }
}

/// The next line of stdin without its line ending, `None` at its end.
pub fn read_line(buffer: &mut String) -> Result<Option<&str>, Error> {
    buffer.clear();
    let read = std::io::stdin()
        .lock()
        .read_line(buffer)
        .map_err(|e| Error::io("cannot read stdin", e))?;
    Ok((read > 0).then(|| buffer.trim_end_matches(['\n', '\r'])))
}

/// The legal inputs, numbered for `:N`.
pub fn numbered(inputs: &[String]) -> String {
    if inputs.is_empty() {
        return "no input is legal now".to_string();
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| format!("  :{} {input}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}
