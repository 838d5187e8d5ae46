//! What went wrong in one scenario, as text for people: the divergence with its diff and
//! cells, the transcript, the end of stderr.

use std::fmt::Write as _;

use super::diff;
use super::style::Style;
use crate::compare::visible::show_controls;
use crate::harness::{Divergence, Outcome};

/// Most stderr lines shown for a failure.
const STDERR_LINES: usize = 8;

/// The details of a scenario that did not pass, each line indented. Without `reveal` (a
/// hidden scenario shown to a student) only the verdict's one-line explanation is given:
/// no steps, no expected output.
pub fn details(o: &Outcome, style: Style, reveal: bool) -> String {
    let mut out = String::new();
    if reveal {
        // Divergences in parts the scenario does not judge: shown whatever the verdict.
        for note in &o.notes {
            let _ = writeln!(out, "    note: {}", show_controls(note));
        }
    }
    if o.verdict.passed() {
        // A passed match still shows its record.
        match_lines(&mut out, o);
        return out;
    }
    if let Some(detail) = &o.detail {
        let _ = writeln!(out, "    {}", show_controls(detail));
    }
    match_lines(&mut out, o);
    if !reveal {
        return out;
    }
    for finding in &o.findings {
        let _ = writeln!(out, "    {}", show_controls(&finding.to_string()));
    }
    if let Some(d) = &o.first_divergence {
        divergence(&mut out, d, style);
    }
    if let Some(transcript) = &o.transcript {
        let _ = writeln!(
            out,
            "    the session as the terminal showed it (typed input after each prompt):"
        );
        for line in transcript.lines() {
            let _ = writeln!(out, "      {}", style.dim(&show_controls(line)));
        }
    }
    if let Some(stderr) = &o.stderr_tail {
        let lines: Vec<&str> = stderr.lines().collect();
        let _ = writeln!(out, "    stderr (last lines):");
        for line in &lines[lines.len().saturating_sub(STDERR_LINES)..] {
            let _ = writeln!(out, "      {}", show_controls(line));
        }
    }
    out
}

/// A match scenario's record, awards and lost games.
fn match_lines(out: &mut String, o: &Outcome) {
    for line in o.matches.iter().flat_map(|m| m.lines()) {
        let _ = writeln!(out, "    {}", show_controls(&line));
    }
}

fn divergence(out: &mut String, d: &Divergence, style: Style) {
    let place = match (&d.send, d.source_line) {
        (Some(send), Some(line)) => format!("step {} (line {line}): sent `{send}`", d.step),
        (Some(send), None) => format!("step {}: sent `{send}`", d.step),
        (None, _) => "step 0: the output before any input".to_string(),
    };
    let _ = writeln!(
        out,
        "    first divergence at {place}, line {} of its output",
        d.line
    );
    if !d.sent_before.is_empty() {
        // Step 1 is the first line sent: more before it than shown were left out.
        let more = if d.sent_before.len() + 1 < d.step {
            "...; "
        } else {
            ""
        };
        let _ = writeln!(out, "    after: {more}{}", d.sent_before.join("; "));
    }
    for cell in &d.cells {
        let _ = writeln!(out, "    {}", style.bold(&show_controls(&cell.to_string())));
    }
    for note in &d.notes {
        for line in note.lines() {
            let _ = writeln!(out, "    {}", show_controls(line));
        }
    }
    let _ = writeln!(
        out,
        "    {} expected   {} actual",
        style.red("-"),
        style.green("+")
    );
    let _ = writeln!(
        out,
        "{}",
        diff::render(&d.expected, &d.actual, style, "    ")
    );
    if !d.also_accepted.is_empty() {
        let _ = writeln!(
            out,
            "    ({} other form(s) of this output are accepted too)",
            d.also_accepted.len()
        );
    }
}
