//! `bless`: each expectation changed as a heading and a diff on `out`, files that do not
//! load and scenarios left alone on `err`, and the count at the end.

use std::io::{self, Write};

use crate::author::bless::{BlessEvent, BlessTotals, Change};
use crate::report::{diff, Style};

pub struct BlessReporter<O: Write, E: Write> {
    out: O,
    err: E,
    style: Style,
}

impl<O: Write, E: Write> BlessReporter<O, E> {
    pub fn new(out: O, err: E, style: Style) -> Self {
        BlessReporter { out, err, style }
    }

    pub fn event(&mut self, event: &BlessEvent<'_>) -> io::Result<()> {
        match event {
            BlessEvent::Invalid(error) => writeln!(self.err, "boardgrade: error: {error}"),
            BlessEvent::Note(note) => writeln!(self.err, "note: {note}"),
            BlessEvent::Change { file, change } => {
                writeln!(self.out, "{}", heading(file, change))?;
                let shown = diff::render(&change.old, &change.new, self.style, "    ");
                writeln!(self.out, "{shown}")
            }
        }
    }

    /// The count of expectations changed, or, with `check`, that would change.
    pub fn finish(&mut self, totals: &BlessTotals, check: bool) -> io::Result<()> {
        let verb = if check { "would change" } else { "changed" };
        writeln!(
            self.out,
            "{verb} {} expectation(s) in {} of {} file(s)",
            totals.steps, totals.changed_files, totals.files
        )
    }
}

fn heading(file: &str, change: &Change) -> String {
    let what = match &change.send {
        Some(send) => format!("step {} (`{send}`)", change.step),
        None => "the opening".to_string(),
    };
    format!("{file}:{}: {:?}, {what}", change.line, change.scenario)
}
