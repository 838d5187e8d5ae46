//! The report for people: a line per scenario, and for each failure where it went wrong.

use std::io::{self, Write};

use super::details::details;
use super::style::Style;
use super::Reporter;
use crate::compare::visible::show_one_line;
use crate::error::ScenarioFileError;
use crate::grade::LoadError;
use crate::harness::{Event, Outcome, Summary, Verdict};

pub struct HumanReporter<W: Write> {
    out: W,
    style: Style,
    /// Also list passing scenarios.
    show_passes: bool,
}

impl<W: Write> HumanReporter<W> {
    pub fn new(out: W, style: Style, show_passes: bool) -> Self {
        HumanReporter {
            out,
            style,
            show_passes,
        }
    }

    fn label(&self, verdict: Verdict) -> String {
        let text = format!("{:<12}", verdict.as_str().to_uppercase());
        match verdict {
            Verdict::Pass => self.style.green(&text),
            Verdict::Error => self.style.yellow(&text),
            _ => self.style.red(&text),
        }
    }

    fn outcome(&mut self, o: &Outcome) -> io::Result<()> {
        if o.verdict.passed() && !self.show_passes {
            return Ok(());
        }
        writeln!(
            self.out,
            "{} {} {}",
            self.label(o.verdict),
            self.style.bold(&o.name),
            self.style.dim(&format!("({}:{})", o.file, o.line))
        )?;
        write!(self.out, "{}", details(o, self.style, true))
    }

    fn summary(&mut self, s: &Summary) -> io::Result<()> {
        let others: Vec<String> = s
            .verdicts
            .iter()
            .filter(|(v, _)| **v != "pass")
            .map(|(v, n)| format!("{n} {v}"))
            .collect();
        let breakdown = if others.is_empty() {
            String::new()
        } else {
            format!(" ({})", others.join(", "))
        };
        let line = format!(
            "{} passed, {} failed{breakdown}; score {}/{}",
            s.passed, s.failed, s.score, s.max_score
        );
        let line = if s.all_passed() {
            self.style.green(&line)
        } else {
            self.style.red(&line)
        };
        writeln!(self.out, "\n{line}")
    }
}

pub use crate::points::number;

impl<W: Write> Reporter for HumanReporter<W> {
    fn invalid_file(&mut self, error: &ScenarioFileError) -> io::Result<()> {
        writeln!(self.out, "{} {error}", self.style.yellow("INVALID     "))
    }

    fn event(&mut self, event: &Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { scenarios, target } => writeln!(
                self.out,
                "running {scenarios} scenario(s) against {target}\n"
            ),
            Event::Finished { outcome, .. } => self.outcome(outcome),
            Event::Done { summary, .. } => self.summary(summary),
        }?;
        self.out.flush()
    }

    fn does_not_load(
        &mut self,
        _: &str,
        error: &LoadError,
        outcomes: &[Outcome],
    ) -> io::Result<()> {
        let summary = Summary::of(outcomes);
        writeln!(
            self.out,
            "{} {} (none of the {} scenario(s) ran; score {}/{})",
            self.style.red("DOES NOT LOAD"),
            show_one_line(&error.to_string()),
            outcomes.len(),
            summary.score,
            summary.max_score
        )?;
        self.out.flush()
    }

    fn nothing_to_run(&mut self, _: &str) -> io::Result<()> {
        // The invalid files, each on its INVALID line, are the whole report.
        self.out.flush()
    }
}
