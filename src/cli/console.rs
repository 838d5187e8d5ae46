//! The terminal side of the commands: writing to stdout and reading typed lines.

use std::io::{BufRead, Write};
use std::path::Path;

use boardgrade::compare::visible::show_one_line;
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

/// Tells stderr a note of the run, on one line: a note may name a student's file, and no
/// name may start a line of its own (or command the terminal).
pub fn note(text: &str) {
    eprintln!("boardgrade: note: {}", show_one_line(text));
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
