//! Grading a class, for people: a line per submission as it finishes, a progress line on a
//! terminal, and the class summary at the end.

use std::io::{self, Write};

use indicatif::{ProgressBar, ProgressStyle};

use super::class_render::{notice, ClassOutput};
use super::human::number;
use super::style::Style;
use crate::compare::visible::show_one_line;
use crate::grade::class::ClassSummary;
use crate::grade::class_run::{ClassEvent, Graded};
use crate::grade::mistake::NO_LINE;
use crate::grade::{GradeEvent, SubmissionResult};

/// Most common failures listed.
const COMMON_FAILURES: usize = 10;
/// Most scenarios listed by failure rate.
const WORST_SCENARIOS: usize = 15;

/// Renders grading events: result lines and the class summary to `out`, what was skipped
/// or cut short to `err`, and progress on `progress` (a bar the caller drew to a terminal,
/// or a hidden one).
pub struct ClassReporter<O: Write, E: Write> {
    out: O,
    err: E,
    progress: ProgressBar,
    style: Style,
    failing: usize,
}

impl<O: Write, E: Write> ClassReporter<O, E> {
    pub fn new(out: O, err: E, progress: ProgressBar, style: Style) -> Self {
        progress.set_style(
            ProgressStyle::with_template("[{bar:30}] {pos}/{len} submissions, {msg}, ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("#>."),
        );
        ClassReporter {
            out,
            err,
            progress,
            style,
            failing: 0,
        }
    }

    fn line(&mut self, r: &SubmissionResult, resumed: bool) -> io::Result<()> {
        let score = format!("{}/{}", r.score, r.max_score);
        let state = match (&r.error, &r.does_not_load, r.passed()) {
            (Some(error), _, _) => self
                .style
                .yellow(&format!("not graded: {}", show_one_line(error))),
            (None, Some(load), _) => self.style.red(&format!(
                "does not load: {}",
                show_one_line(&load.to_string())
            )),
            (None, None, true) => self.style.green("all passed"),
            (None, None, false) => {
                let failed: Vec<String> = r
                    .summary
                    .verdicts
                    .iter()
                    .filter(|(v, _)| v.as_str() != "pass")
                    .map(|(v, n)| format!("{n} {v}"))
                    .collect();
                self.style.red(&failed.join(", "))
            }
        };
        let note = if resumed {
            self.style.dim(" (stored result)")
        } else {
            String::new()
        };
        let id = show_one_line(&r.id);
        writeln!(self.out, "{id:<24} {score:>10}  {state}{note}")?;
        for note in r.notes.iter().chain(&r.runner_notes) {
            let note = show_one_line(note);
            writeln!(self.out, "{:<24} {:>10}  {}", "", "", self.style.dim(&note))?;
        }
        Ok(())
    }

    fn grade_event(&mut self, event: &GradeEvent<'_>) -> io::Result<()> {
        match event {
            GradeEvent::Started {
                submissions,
                resumed,
            } => {
                let resumed = if *resumed > 0 {
                    format!(" ({resumed} already graded)")
                } else {
                    String::new()
                };
                writeln!(self.out, "grading {submissions} submission(s){resumed}\n")?;
            }
            GradeEvent::Finished {
                result,
                done,
                total,
                resumed,
            } => {
                if !result.passed() {
                    self.failing += 1;
                }
                // The bar is lifted while the line is written, so neither cuts the other.
                let progress = self.progress.clone();
                progress.suspend(|| {
                    self.line(result, *resumed)?;
                    self.out.flush()
                })?;
                progress.set_length(*total as u64);
                progress.set_position(*done as u64);
                progress.set_message(format!("{} failing", self.failing));
            }
            GradeEvent::Done { elapsed_ms, .. } => {
                self.progress.finish_and_clear();
                writeln!(
                    self.out,
                    "\ngraded in {}",
                    clock(*elapsed_ms as f64 / 1000.0)
                )?;
            }
        }
        Ok(())
    }
}

impl<O: Write, E: Write> ClassOutput for ClassReporter<O, E> {
    fn event(&mut self, event: &ClassEvent<'_>) -> io::Result<()> {
        match event {
            ClassEvent::Grade(event) => self.grade_event(event),
            _ => notice(&mut self.err, event),
        }
    }

    /// The class summary: failure rate per scenario and the failures shared by several.
    fn finish(&mut self, graded: &Graded) -> io::Result<()> {
        write!(self.out, "{}", summary_text(&graded.summary))?;
        self.out.flush()
    }
}

/// The class's mean score: over the maximum, or, where submissions were graded under
/// variants with different totals (a mean over one maximum would mislead), with the range
/// of maxima and the mean share of each one's own maximum.
pub fn mean_score(s: &ClassSummary) -> String {
    let mean = number((s.mean_score * 100.0).round() / 100.0);
    if s.min_max_score == s.max_score {
        format!("{mean}/{}", s.max_score)
    } else {
        format!(
            "{mean} (maxima {} to {}), mean share {}%",
            s.min_max_score,
            s.max_score,
            number((s.mean_share * 1000.0).round() / 10.0)
        )
    }
}

/// The class summary as text (also written to the results folder).
pub fn summary_text(s: &ClassSummary) -> String {
    let mean = mean_score(s);
    let mut out = format!(
        "{} submission(s): {} passed everything, {} not graded, {} do not load, mean score {mean}\n",
        s.submissions,
        s.fully_passed,
        s.not_graded,
        s.did_not_load.len(),
    );
    if !s.needs_rerun.is_empty() {
        let names: Vec<String> = s.needs_rerun.iter().map(|n| show_one_line(n)).collect();
        out.push_str(&format!(
            "\nnot graded: needs a re-run (the grader failed, not the submission; left out of \
             the mean; `--resume` grades them again): {}\n",
            names.join(", ")
        ));
    }
    if !s.did_not_load.is_empty() {
        out.push_str("\ndo not load (scored 0, not in the failure rates):\n");
        for d in &s.did_not_load {
            out.push_str(&format!(
                "  {}: {}\n",
                show_one_line(&d.submission),
                show_one_line(&d.error)
            ));
        }
    }
    let failing: Vec<_> = s
        .scenarios
        .iter()
        .filter(|x| x.failed > 0)
        .take(WORST_SCENARIOS)
        .collect();
    if !failing.is_empty() {
        out.push_str("\nscenarios by failure rate:\n");
        for x in failing {
            out.push_str(&format!(
                "  {:>4.0}%  {:>3}/{:<3} {} ({})\n",
                x.failure_rate * 100.0,
                x.failed,
                x.graded,
                x.name,
                x.file
            ));
        }
    }
    if !s.common_failures.is_empty() {
        out.push_str("\ncommon mistakes (submissions that failed the same way):\n");
        for g in s.common_failures.iter().take(COMMON_FAILURES) {
            let place = match (&g.step, &g.send) {
                (Some(step), Some(send)) => format!("step {step}, `{send}`"),
                (Some(step), None) => format!("step {step}"),
                _ => "no output compared".to_string(),
            };
            if g.scenarios.len() > 1 {
                out.push_str(&format!(
                    "  {} x {} in {} scenarios, first \"{}\" at {place}\n",
                    g.submissions.len(),
                    g.verdict,
                    g.scenarios.len(),
                    g.scenario
                ));
            } else {
                out.push_str(&format!(
                    "  {} x {} in \"{}\" at {place}\n",
                    g.submissions.len(),
                    g.verdict,
                    g.scenario
                ));
            }
            if let Some(d) = &g.difference {
                // The line around the differing words, unless it is just those words.
                let line = |l: &Option<String>, words: &str| {
                    l.as_deref()
                        .filter(|l| l.trim() != words)
                        .map(|l| format!(" in {:?}", clip(l)))
                        .unwrap_or_default()
                };
                // Each value quoted once; a missing line is said, not quoted.
                let quoted = |text: &str| match text {
                    NO_LINE => text.to_string(),
                    _ => format!("{:?}", clip(text)),
                };
                out.push_str(&format!(
                    "      expected {}{}, got {}{}\n",
                    quoted(&d.expected),
                    line(&d.expected_line, &d.expected),
                    quoted(&d.actual),
                    line(&d.actual_line, &d.actual)
                ));
            }
            if g.scenarios.len() > 1 {
                let mut names = g
                    .scenarios
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ");
                if g.scenarios.len() > 5 {
                    names.push_str(&format!("; and {} more", g.scenarios.len() - 5));
                }
                out.push_str(&format!("      scenarios: {names}\n"));
            }
            let mut who = g
                .submissions
                .iter()
                .take(8)
                .map(|name| show_one_line(name))
                .collect::<Vec<_>>()
                .join(", ");
            if g.submissions.len() > 8 {
                who.push_str(", ...");
            }
            out.push_str(&format!("      {who}\n"));
        }
    }
    out
}

/// At most 70 characters of a line.
fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(70).collect();
    if clipped.len() < text.len() {
        clipped.push_str("...");
    }
    clipped
}

fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", seconds)
    }
}

/// What `merge` says it did: `parts` runs joined into `out`.
pub fn joined(parts: usize, graded: &Graded, out: &std::path::Path) -> String {
    format!(
        "joined {parts} run(s): {} submission(s) in {}\n",
        graded.results.len(),
        out.display()
    )
}
