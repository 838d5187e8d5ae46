//! From what a program did to a verdict: limits first, then the output against the
//! expectation, then how the program ended.

use std::ops::Range;

use super::apart::without_apart;
use super::banner::{banner_note, without_banner};
use super::classify::{classify, later_steps_note, scored, Judged};
use super::expectation::Expectation;
use super::outcome::{Divergence, Outcome, Verdict};
use super::stray::{stray_note, without_stray};
use crate::compare::{
    later_mismatches, match_split, match_steps, prepare, reads, visible, ExtraLines, Mismatch,
    StepPattern,
};
use crate::execution::{Ending, Execution};
use crate::games::board_text::{canonical, cell_diffs};
use crate::games::{DivergentStep, Protocol};
use crate::scenario::Scenario;

/// Most lines of a step's output kept in a divergence.
const MAX_CHUNK_LINES: usize = 60;
/// Most earlier lines sent shown with a divergence.
const SENT_BEFORE: usize = 12;
/// Most lines of transcript kept before the divergence.
const TRANSCRIPT_LINES: usize = 24;
/// Most bytes of a step's output kept in a divergence, and of each transcript line: an endless
/// line is not stored whole.
const MAX_SHOWN_BYTES: usize = 4 << 10;

/// The outcome of a run of `scenario`.
pub fn judge(scenario: &Scenario, expectation: &Expectation, run: &Execution) -> Outcome {
    if scenario.dialect.protocol == Protocol::Call {
        return super::calls::judge_calls(scenario, expectation, run);
    }
    let outcome = judge_noting_strays(scenario, expectation, run);
    // Lines another scenario judges (a capture message) are left out where they differ.
    if outcome.verdict == Verdict::Pass {
        return outcome;
    }
    match without_apart(scenario, expectation, run) {
        Some(apart) => further(
            outcome,
            judge_noting_strays(scenario, &apart.expectation, &apart.run),
            apart.note,
        ),
        None => outcome,
    }
}

/// `retried` (judged without some lines of the output, `note` saying which) where it passes
/// or gets further than `outcome`, which stands otherwise.
fn further(outcome: Outcome, mut retried: Outcome, note: String) -> Outcome {
    if retried.verdict != Verdict::Pass && retried.steps_matched <= outcome.steps_matched {
        return outcome;
    }
    retried.notes.insert(0, note);
    retried
}

/// The outcome of a whole program's run, judged without the lines the game never prints
/// where the scenario notes them.
fn judge_noting_strays(scenario: &Scenario, expectation: &Expectation, run: &Execution) -> Outcome {
    let outcome = judge_past_banner(scenario, expectation, run);
    let noted = |reads: usize| scenario.extra_lines_after(reads) == ExtraLines::Noted;
    let any_noted = (0..=scenario.steps.len()).any(noted);
    if outcome.verdict == Verdict::Pass || !any_noted {
        return outcome;
    }
    let Some((stray, rest)) = without_stray(&run.stdout, &expectation.reference, noted) else {
        return outcome;
    };
    let without = Execution {
        stdout: rest,
        ..run.clone()
    };
    further(
        outcome,
        judge_past_banner(scenario, expectation, &without),
        stray_note(&stray),
    )
}

/// The outcome of a whole program's run, judged past the lines it printed before its
/// opening where that alone passes more steps.
fn judge_past_banner(scenario: &Scenario, expectation: &Expectation, run: &Execution) -> Outcome {
    let outcome = judge_program(scenario, expectation, run);
    // Lines printed before the opening are judged by the scenario about the opening (the
    // one that types nothing); the others judge the game after them and note them.
    if outcome.verdict == Verdict::Pass || scenario.steps.is_empty() {
        return outcome;
    }
    let Some(opening) = expectation.reference.first() else {
        return outcome;
    };
    let Some((banner, rest)) = without_banner(&run.stdout, opening) else {
        return outcome;
    };
    let after_banner = Execution {
        stdout: rest,
        ..run.clone()
    };
    further(
        outcome,
        judge_program(scenario, expectation, &after_banner),
        banner_note(&banner),
    )
}

/// The outcome of a whole program's run, every line of its output judged.
fn judge_program(scenario: &Scenario, expectation: &Expectation, run: &Execution) -> Outcome {
    let mode = scenario.compare_mode();
    let steps: Vec<StepPattern> = expectation
        .steps
        .iter()
        .map(|p| p.map_lines(&|line| scenario.compared_line(line)))
        .collect();
    let split = reads::split(&run.stdout);
    // The typed lines are read by the first `count - 1` reads (the opening types nothing):
    // one read more asks for a line past the input.
    let asked_past_input = (split.points.as_ref()).is_some_and(|p| p.len() >= steps.len());
    let (compared, stretches) =
        compared_output(scenario, split, steps.len(), !expectation.finished);
    let matched = match &stretches {
        Some(stretches) => match_split(&steps, &compared, stretches, mode),
        None => match_steps(&steps, &compared, mode),
    };
    // A program protocol whose game is not over when input runs out may stop any way it
    // likes (an EOFError traceback, say): then only its output counts. So may one whose game
    // is over and that asks for one more line before it exits (a pause that keeps a console
    // window open), when the end of input is what stopped it.
    let exit_ignored = !expectation.finished || (asked_past_input && ended_at_end_of_input(run));
    let failed = matched.as_ref().err().map(|m| m.output_ended);
    let (verdict, detail) = classify(scenario, run, failed, exit_ignored, || {
        same_positions(scenario, &steps, &compared)
    });

    let mut first_divergence = matched
        .as_ref()
        .err()
        .map(|m| divergence(scenario, &steps, &compared, m));
    if let (Some(d), Some(stretches), Err(m)) = (&mut first_divergence, &stretches, &matched) {
        let later = later_mismatches(&steps, &compared, stretches, m.step, mode);
        d.notes.extend(later_steps_note(later));
    }
    let transcript = matched
        .as_ref()
        .err()
        .map(|m| transcript(scenario, &compared, m));
    let steps_matched = match &matched {
        Ok(_) => scenario.steps.len(),
        Err(m) => m.step.saturating_sub(1).min(scenario.steps.len()),
    };
    scored(
        scenario,
        run,
        Judged {
            verdict,
            detail,
            first_divergence,
            steps_matched,
            transcript,
            notes: Vec::new(),
        },
    )
}

/// True when the output says the same as the expectation with only its printing different
/// (board renderings read back, whitespace folded).
fn same_positions(scenario: &Scenario, steps: &[StepPattern], stdout: &[u8]) -> bool {
    if steps.iter().any(|s| s.has_wildcards()) {
        return false;
    }
    let reader = scenario.game.board_reader();
    let expected: String = steps.iter().map(|s| s.canonical()).collect();
    let actual = visible::lossless(stdout);
    canonical(reader, &expected) == canonical(reader, &actual)
}

/// The output (split at the program's reads) as it is compared (markers out, whitespace
/// and lines in the compared form) and, when the program's reads split it, each of the
/// `count` expectations' stretch of it. When the scenario's input ends before the game does
/// (`input_ends_game`), what the program printed after asking for a line past the last one
/// is how it stopped, like `input()`'s EOFError, and is left out: the reference stops at
/// that prompt.
fn compared_output(
    scenario: &Scenario,
    split: reads::Reads,
    count: usize,
    input_ends_game: bool,
) -> (Vec<u8>, Option<Vec<Range<usize>>>) {
    let mode = scenario.compare_mode();
    let Some(points) = split.points else {
        return (
            normalize_output(scenario, &prepare(&split.output, mode)),
            None,
        );
    };
    let end = match points.get(count.saturating_sub(1)) {
        Some(&past_the_input) if input_ends_game => past_the_input,
        // The game is over, and the program asks for one more line before it exits (a
        // pause): that line's prompt (`Press Enter to quit`, unterminated) and what followed
        // the end of input are how it stopped, not its game.
        Some(&past_the_input) => line_start(&split.output[..past_the_input]),
        None => split.output.len(),
    };
    let raw = reads::stretches(end, &points, count);
    let mut compared = Vec::with_capacity(split.output.len());
    let mut stretches = Vec::with_capacity(count);
    for (index, range) in raw.iter().enumerate() {
        let own = &split.output[range.clone()];
        let start = compared.len();
        compared.extend(normalize_output(scenario, &prepare(own, mode)));
        // Only the end of the whole output may lose its blank lines.
        if index + 1 < raw.len() && own.ends_with(b"\n") && !compared.ends_with(b"\n") {
            compared.push(b'\n');
        }
        stretches.push(start..compared.len());
    }
    (compared, Some(stretches))
}

/// Where the last line of `text` starts (its end when that line is ended).
fn line_start(text: &[u8]) -> usize {
    text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// Whether a run that asked for a line past its input was stopped by the end of that input:
/// it exited cleanly (taking the end as a quit), or with `input()`'s `EOFError` (the
/// launcher's own stop of a loop on `readline()` ends the same way).
fn ended_at_end_of_input(run: &Execution) -> bool {
    match run.ending {
        Ending::Exited(0) => true,
        Ending::Exited(1) => {
            let stderr = String::from_utf8_lossy(&run.stderr_tail);
            let last = stderr.trim_end().lines().last().unwrap_or_default();
            last.starts_with("EOFError")
        }
        _ => false,
    }
}

/// The end of the `n`th line after `from` (or the end of the text).
fn after_lines(text: &[u8], from: usize, n: usize) -> usize {
    let mut at = from;
    for _ in 0..n {
        match text[at..].iter().position(|&b| b == b'\n') {
            Some(i) => at += i + 1,
            None => return text.len(),
        }
    }
    at
}

/// The output with each (UTF-8) line rewritten as the game compares it.
pub(crate) fn normalize_output(scenario: &Scenario, output: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(output.len());
    for line in output.split_inclusive(|&b| b == b'\n') {
        let (body, newline) = line
            .strip_suffix(b"\n")
            .map_or((line, false), |b| (b, true));
        match std::str::from_utf8(body) {
            Ok(text) => out.extend_from_slice(scenario.compared_line(text).as_bytes()),
            Err(_) => out.extend_from_slice(body),
        }
        if newline {
            out.push(b'\n');
        }
    }
    out
}

fn divergence(
    scenario: &Scenario,
    steps: &[StepPattern],
    actual: &[u8],
    m: &Mismatch,
) -> Divergence {
    let pattern = &steps[m.step];
    let expected = pattern.canonical();
    let start = m.step_start.min(actual.len());
    let failing_line = actual[start..m.at.min(actual.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let lines = expected
        .lines()
        .count()
        .max(failing_line + 1)
        .min(MAX_CHUNK_LINES);
    // Split at the program's reads, the step's output is known exactly: show all of it.
    let end = match m.step_end {
        Some(step_end) => after_lines(actual, start, MAX_CHUNK_LINES).min(step_end),
        None => after_lines(actual, start, lines),
    };
    let chunk = clip(visible::lossless(&actual[start..end]));
    let step = m.step.checked_sub(1).and_then(|i| scenario.steps.get(i));
    let sent: Vec<&str> = scenario.steps[..m.step.min(scenario.steps.len())]
        .iter()
        .map(|s| s.send.as_str())
        .collect();
    Divergence {
        step: m.step,
        send: step.map(|s| s.send.clone()),
        sent_before: scenario.steps[..m.step.saturating_sub(1)]
            .iter()
            .rev()
            .take(SENT_BEFORE)
            .rev()
            .map(|s| s.send.clone())
            .collect(),
        cells: cell_diffs(scenario.game.board_reader(), &expected, &chunk),
        notes: scenario.game.explain(&DivergentStep {
            dialect: scenario.dialect,
            options: &scenario.options,
            sent: &sent,
            expected: &expected,
            actual: &chunk,
            differing: &[],
        }),
        expected,
        actual: chunk,
        line: failing_line + 1,
        also_accepted: pattern.alternatives()[1..]
            .iter()
            .map(|a| crate::compare::pattern::render(a))
            .collect(),
        source_line: step.map(|s| s.line),
    }
}

/// `text` cut to [`MAX_SHOWN_BYTES`] (at a character boundary), saying how much was left out.
fn clip(mut text: String) -> String {
    if text.len() <= MAX_SHOWN_BYTES {
        return text;
    }
    let mut cut = MAX_SHOWN_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let left_out = text.len() - cut;
    text.truncate(cut);
    text.push_str(&format!("... [{left_out} more bytes]"));
    text
}

/// The output up to the divergence as a terminal shows it: each typed line right after the
/// output that preceded it.
fn transcript(scenario: &Scenario, actual: &[u8], m: &Mismatch) -> String {
    let mut starts = m.starts.clone();
    starts.push(m.step_start);
    let end =
        after_lines(actual, m.at.min(actual.len()), 1).min(m.step_end.unwrap_or(actual.len()));
    let mut text = String::new();
    let mut from = 0;
    for (index, &start) in starts.iter().enumerate().skip(1) {
        let start = start.min(end);
        text.push_str(&visible::lossless(&actual[from..start]));
        if let Some(step) = scenario.steps.get(index - 1) {
            text.push_str(&step.send);
            text.push('\n');
        }
        from = start;
    }
    text.push_str(&visible::lossless(&actual[from.min(end)..end]));
    let lines: Vec<String> = text.lines().map(|l| clip(l.to_string())).collect();
    let skip = lines.len().saturating_sub(TRANSCRIPT_LINES);
    let mut shown = lines[skip..].join("\n");
    if skip > 0 {
        shown = format!("[{skip} earlier lines]\n{shown}");
    }
    shown
}
