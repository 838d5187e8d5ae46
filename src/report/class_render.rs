//! What every renderer of a class run answers, and the notices each of them gives on
//! stderr, whatever its format: the people's lines (`class`) and the documents
//! (`class_output`) both build on it, so neither imports the other's.

use std::io::{self, Write};

use crate::compare::visible::show_one_line;
use crate::grade::class_run::{ClassEvent, Graded};

/// Renders a class run.
pub trait ClassOutput {
    fn event(&mut self, event: &ClassEvent<'_>) -> io::Result<()>;
    /// The class, once every submission is graded and its files written.
    fn finish(&mut self, graded: &Graded) -> io::Result<()>;
}

/// What every format says on `err`: a member of the class folders skipped, a run cut short.
pub fn notice(err: &mut impl Write, event: &ClassEvent<'_>) -> io::Result<()> {
    match event {
        ClassEvent::Skipped(skipped) => writeln!(
            err,
            "skipped {}: {}",
            show_one_line(&skipped.path.to_string()),
            show_one_line(&skipped.why.to_string())
        ),
        ClassEvent::Interrupted { graded, total } => writeln!(
            err,
            "interrupted: {graded} of {total} submission(s) graded and stored; grades.csv and \
             the summary are written when a run finishes (run again with --resume)"
        ),
        ClassEvent::Grade(_) => Ok(()),
    }
}
