//! `--format json`: one [`TestReport`] for the whole run, written at the end.

use std::io::{self, Write};

use super::format::{self, TestReport};
use super::Reporter;
use crate::error::ScenarioFileError;
use crate::grade::LoadError;
use crate::harness::{Event, Outcome};

pub struct JsonReporter<W: Write> {
    out: W,
    target: String,
    invalid: Vec<ScenarioFileError>,
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

impl<W: Write> JsonReporter<W> {
    fn write(&mut self, outcomes: &[Outcome]) -> io::Result<()> {
        let document = TestReport::new(&self.target, outcomes, &self.invalid);
        self.out.write_all(&format::encode(&document))?;
        self.out.flush()
    }
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn invalid_file(&mut self, e: &ScenarioFileError) -> io::Result<()> {
        self.invalid.push(e.clone());
        Ok(())
    }

    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { target, .. } => self.target = target.to_string(),
            Event::Finished { .. } => {}
            Event::Done { outcomes, .. } => self.write(outcomes)?,
        }
        Ok(())
    }

    fn does_not_load(
        &mut self,
        target: &str,
        _: &LoadError,
        outcomes: &[Outcome],
    ) -> io::Result<()> {
        // Each outcome's detail names the load error.
        self.target = target.to_string();
        self.write(outcomes)
    }

    fn nothing_to_run(&mut self, target: &str) -> io::Result<()> {
        // The document still lists the invalid files.
        self.target = target.to_string();
        self.write(&[])
    }
}
