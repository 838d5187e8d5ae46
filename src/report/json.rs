//! `--format json`: one object for the whole run, written at the end.

use std::io::{self, Write};

use serde::Serialize;

use super::Reporter;
use crate::error::ScenarioFileError;
use crate::grade::class::ClassSummary;
use crate::grade::{Skipped, SubmissionResult};
use crate::harness::{Event, Outcome, Summary};

/// Version of the JSON document's layout.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    boardgrade: &'static str,
    target: &'a str,
    summary: &'a Summary,
    scenarios: &'a [Outcome],
    invalid_files: &'a [InvalidFile],
}

/// A `test` run as the JSON document, for a file written beside the terminal report.
pub fn test_document(
    target: &str,
    outcomes: &[Outcome],
    invalid: &[ScenarioFileError],
) -> serde_json::Result<Vec<u8>> {
    let invalid: Vec<InvalidFile> = invalid.iter().map(InvalidFile::from).collect();
    let document = Document {
        version: FORMAT_VERSION,
        boardgrade: env!("CARGO_PKG_VERSION"),
        target,
        summary: &Summary::of(outcomes),
        scenarios: outcomes,
        invalid_files: &invalid,
    };
    let mut bytes = serde_json::to_vec_pretty(&document)?;
    bytes.push(b'\n');
    Ok(bytes)
}

#[derive(Serialize)]
struct InvalidFile {
    file: String,
    line: usize,
    column: usize,
    key: Option<String>,
    message: String,
}

impl From<&ScenarioFileError> for InvalidFile {
    fn from(e: &ScenarioFileError) -> Self {
        InvalidFile {
            file: e.file.clone(),
            line: e.line,
            column: e.column,
            key: e.key.clone(),
            message: e.message.clone(),
        }
    }
}

pub struct JsonReporter<W: Write> {
    out: W,
    target: String,
    invalid: Vec<InvalidFile>,
}

impl<W: Write> JsonReporter<W> {
    pub fn new(out: W) -> Self {
        JsonReporter {
            out,
            target: String::new(),
            invalid: Vec::new(),
        }
    }
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn invalid_file(&mut self, e: &ScenarioFileError) -> io::Result<()> {
        self.invalid.push(InvalidFile::from(e));
        Ok(())
    }

    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { target, .. } => self.target = target.to_string(),
            Event::Finished { .. } => {}
            Event::Done { summary, outcomes } => {
                let document = Document {
                    version: FORMAT_VERSION,
                    boardgrade: env!("CARGO_PKG_VERSION"),
                    target: &self.target,
                    summary,
                    scenarios: outcomes,
                    invalid_files: &self.invalid,
                };
                serde_json::to_writer_pretty(&mut self.out, &document)?;
                writeln!(self.out)?;
                self.out.flush()?;
            }
        }
        Ok(())
    }
}

/// A class's results as one JSON document: the same for one run and for partitioned runs
/// joined by `merge` (nothing about the machine or the run's settings).
#[derive(Serialize)]
pub struct ClassDocument<'a> {
    pub version: u32,
    pub boardgrade: &'static str,
    pub class: &'a ClassSummary,
    pub skipped: &'a [Skipped],
    pub submissions: &'a [SubmissionResult],
}

impl<'a> ClassDocument<'a> {
    pub fn new(
        results: &'a [SubmissionResult],
        summary: &'a ClassSummary,
        skipped: &'a [Skipped],
    ) -> Self {
        ClassDocument {
            version: FORMAT_VERSION,
            boardgrade: env!("CARGO_PKG_VERSION"),
            class: summary,
            skipped,
            submissions: results,
        }
    }
}
