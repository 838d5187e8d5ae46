//! The report for people: a line per scenario, and for each failure where it went wrong.

use std::io::{self, Write};

use super::diff;
use super::style::Style;
use super::Reporter;
use crate::error::ScenarioFileError;
use crate::harness::{Divergence, Event, Outcome, Summary, Verdict};

/// Most stderr lines shown for a failure.
const STDERR_LINES: usize = 8;

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
        if o.verdict.passed() {
            return self.matches(o);
        }
        if let Some(detail) = &o.detail {
            writeln!(self.out, "    {detail}")?;
        }
        self.matches(o)?;
        if let Some(d) = &o.first_divergence {
            self.divergence(d)?;
        }
        if let Some(transcript) = &o.transcript {
            writeln!(
                self.out,
                "    the session as the terminal showed it (typed input after each prompt):"
            )?;
            for line in transcript.lines() {
                writeln!(self.out, "      {}", self.style.dim(line))?;
            }
        }
        if let Some(stderr) = &o.stderr_tail {
            let lines: Vec<&str> = stderr.lines().collect();
            writeln!(self.out, "    stderr (last lines):")?;
            for line in &lines[lines.len().saturating_sub(STDERR_LINES)..] {
                writeln!(self.out, "      {line}")?;
            }
        }
        Ok(())
    }

    /// A match scenario's record, awards and lost games.
    fn matches(&mut self, o: &Outcome) -> io::Result<()> {
        for line in o.matches.iter().flat_map(|m| m.lines()) {
            writeln!(self.out, "    {line}")?;
        }
        Ok(())
    }

    fn divergence(&mut self, d: &Divergence) -> io::Result<()> {
        let place = match (&d.send, d.source_line) {
            (Some(send), Some(line)) => format!("step {} (line {line}): sent `{send}`", d.step),
            (Some(send), None) => format!("step {}: sent `{send}`", d.step),
            (None, _) => "step 0: the output before any input".to_string(),
        };
        writeln!(
            self.out,
            "    first divergence at {place}, line {} of its output",
            d.line
        )?;
        for cell in &d.cells {
            writeln!(self.out, "    {}", self.style.bold(&cell.to_string()))?;
        }
        for note in &d.notes {
            for line in note.lines() {
                writeln!(self.out, "    {line}")?;
            }
        }
        writeln!(
            self.out,
            "    {} expected   {} actual",
            self.style.red("-"),
            self.style.green("+")
        )?;
        writeln!(
            self.out,
            "{}",
            diff::render(&d.expected, &d.actual, self.style, "    ")
        )?;
        if !d.also_accepted.is_empty() {
            writeln!(
                self.out,
                "    ({} other form(s) of this output are accepted too)",
                d.also_accepted.len()
            )?;
        }
        Ok(())
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
            s.passed,
            s.failed,
            number(s.score),
            number(s.max_score)
        );
        let line = if s.all_passed() {
            self.style.green(&line)
        } else {
            self.style.red(&line)
        };
        writeln!(self.out, "\n{line}")
    }
}

/// A score without needless decimals.
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{:.2}", x).trim_end_matches('0').to_string()
    }
}

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
            Event::Done { summary } => self.summary(summary),
        }?;
        self.out.flush()
    }
}
