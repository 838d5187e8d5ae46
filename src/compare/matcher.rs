//! Matching a program's whole output against the steps' expectations, and finding the step
//! where it first goes wrong.
//!
//! Output is one stream (a program protocol's prompt and the next step's text share a line),
//! so the steps are matched in order against the stream; the furthest point any way of
//! matching reaches is the first divergence, attributed to the step being matched there.

use std::collections::HashSet;
use std::ops::Range;

use super::mode::CompareMode;
use super::pattern::{Segment, StepPattern};

/// Most matching steps and `...` extents tried before giving up on a pathological pattern.
const BUDGET: usize = 2_000_000;

/// Where the output first fails to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Index of the step being matched (0 = the opening output).
    pub step: usize,
    /// Byte offset in the (compared) output where it goes wrong.
    pub at: usize,
    /// Byte offset in the output where that step's output began.
    pub step_start: usize,
    /// Where each step before `step` began, in the output.
    pub starts: Vec<usize>,
    /// True when the expected text went on but the output had ended.
    pub output_ended: bool,
    /// True when every step matched and the output went on.
    pub extra_output: bool,
    /// Where that step's output ends, when the program's reads split the output (see
    /// [`match_split`]); `None` for one stream.
    pub step_end: Option<usize>,
}

/// The compared form of an output: in `trailing-whitespace` mode, spaces and tabs at line
/// ends and whitespace at the very end are dropped.
pub fn prepare(actual: &[u8], mode: CompareMode) -> Vec<u8> {
    match mode {
        CompareMode::Exact => actual.to_vec(),
        CompareMode::TrailingWhitespace => {
            let mut out = Vec::with_capacity(actual.len());
            for line in actual.split_inclusive(|&b| b == b'\n') {
                let (body, newline) = match line.strip_suffix(b"\n") {
                    Some(body) => (body, true),
                    None => (line, false),
                };
                let end = body
                    .iter()
                    .rposition(|b| !b" \t\r".contains(b))
                    .map_or(0, |i| i + 1);
                out.extend_from_slice(&body[..end]);
                if newline {
                    out.push(b'\n');
                }
            }
            while out.last().is_some_and(|b| b.is_ascii_whitespace()) {
                out.pop();
            }
            out
        }
    }
}

/// Stack a match may need per level of its recursion (a step, or a segment of one), with
/// room to spare: about 100 bytes in a release build, 400 in a debug one.
const FRAME_BYTES: usize = 1024;
/// Levels matched on the caller's own stack (a thread has 2 MiB or more). A deeper scenario
/// (20,000 steps went past 2 MiB) is matched on a thread of its own, given the stack it needs.
const LEVELS_HERE: usize = 1024;

/// Matches `actual` (already [`prepare`]d) against the steps; on success, where each step's
/// output began.
pub fn match_steps(
    steps: &[StepPattern],
    actual: &[u8],
    mode: CompareMode,
) -> Result<Vec<usize>, Mismatch> {
    let levels: usize = steps
        .iter()
        .map(|step| step.alternatives().iter().map(Vec::len).max().unwrap_or(0) + 3)
        .sum();
    if levels <= LEVELS_HERE {
        return match_here(steps, actual, mode);
    }
    let stack = levels.saturating_mul(FRAME_BYTES).saturating_add(1 << 20);
    std::thread::scope(|scope| {
        let own = std::thread::Builder::new()
            .name("matcher".into())
            .stack_size(stack)
            .spawn_scoped(scope, || match_here(steps, actual, mode));
        match own {
            Ok(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: this one's stack is tried.
            Err(_) => match_here(steps, actual, mode),
        }
    })
}

fn match_here(
    steps: &[StepPattern],
    actual: &[u8],
    mode: CompareMode,
) -> Result<Vec<usize>, Mismatch> {
    let mut matcher = Matcher {
        steps,
        actual,
        lenient: mode == CompareMode::TrailingWhitespace,
        failed: HashSet::new(),
        failed_within: HashSet::new(),
        best: None,
        work: 0,
        starts: Vec::with_capacity(steps.len()),
    };
    if matcher.step(0, 0) {
        Ok(matcher.starts)
    } else {
        Err(matcher.best.unwrap_or(Mismatch {
            step: 0,
            at: 0,
            step_start: 0,
            starts: Vec::new(),
            output_ended: actual.is_empty(),
            extra_output: false,
            step_end: None,
        }))
    }
}

/// Matches each step against its own stretch of `actual` (see
/// [`super::reads::stretches`]): output is never charged to another step. On success,
/// where each step's output began.
pub fn match_split(
    steps: &[StepPattern],
    actual: &[u8],
    stretches: &[Range<usize>],
    mode: CompareMode,
) -> Result<Vec<usize>, Mismatch> {
    let starts: Vec<usize> = stretches.iter().map(|r| r.start).collect();
    for (index, (step, stretch)) in steps.iter().zip(stretches).enumerate() {
        let own = &actual[stretch.clone()];
        if let Err(m) = match_steps(std::slice::from_ref(step), own, mode) {
            return Err(Mismatch {
                step: index,
                at: stretch.start + m.at,
                step_start: stretch.start,
                starts: starts[..index].to_vec(),
                // Short output is the end of the output only when no later step has any.
                output_ended: m.output_ended && stretch.end == actual.len(),
                extra_output: m.extra_output,
                step_end: Some(stretch.end),
            });
        }
    }
    Ok(starts)
}

/// How many steps after `step` print something other than their expectation, each judged on
/// its own stretch (steps the program never reached, with no output, are not counted).
pub fn later_mismatches(
    steps: &[StepPattern],
    actual: &[u8],
    stretches: &[Range<usize>],
    step: usize,
    mode: CompareMode,
) -> usize {
    steps
        .iter()
        .zip(stretches)
        .skip(step + 1)
        .filter(|(pattern, stretch)| {
            !stretch.is_empty()
                && match_steps(
                    std::slice::from_ref(*pattern),
                    &actual[(*stretch).clone()],
                    mode,
                )
                .is_err()
        })
        .count()
}

struct Matcher<'a> {
    steps: &'a [StepPattern],
    actual: &'a [u8],
    lenient: bool,
    /// (step, position) pairs known not to lead to a full match.
    failed: HashSet<(usize, usize)>,
    /// The same inside a step: a `...` line of an alternative, at a position. A step with
    /// several of them would otherwise try every way of sharing the output's lines among
    /// them, a number that grows as a power of the output's length.
    failed_within: HashSet<(Place, usize)>,
    best: Option<Mismatch>,
    work: usize,
    starts: Vec<usize>,
}

/// A segment of one of a step's alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Place {
    step: usize,
    alternative: usize,
    segment: usize,
}

impl Matcher<'_> {
    fn record(&mut self, step: usize, at: usize, output_ended: bool, extra_output: bool) {
        if self.best.as_ref().is_some_and(|b| b.at >= at) {
            return;
        }
        let step_start = self.starts.get(step).copied().unwrap_or(at);
        self.best = Some(Mismatch {
            step,
            at,
            step_start,
            starts: self.starts[..step.min(self.starts.len())].to_vec(),
            output_ended,
            extra_output,
            step_end: None,
        });
    }

    /// Matches the steps from `index` on at `pos`. Each step is a level of recursion (a
    /// scenario of 20,000 steps went past a 2 MiB thread stack): the stack grows on the heap
    /// as it runs low.
    fn step(&mut self, index: usize, pos: usize) -> bool {
        if index == self.steps.len() {
            if pos == self.actual.len() {
                return true;
            }
            self.record(index.saturating_sub(1), pos, false, true);
            return false;
        }
        self.work += 1;
        if self.work > BUDGET || self.failed.contains(&(index, pos)) {
            return false;
        }
        self.starts.truncate(index);
        self.starts.push(pos);
        for alternative in 0..self.steps[index].alternatives().len() {
            let first = Place {
                step: index,
                alternative,
                segment: 0,
            };
            if self.segments(first, pos) {
                return true;
            }
            self.starts.truncate(index + 1);
        }
        self.failed.insert((index, pos));
        false
    }

    /// Matches the segments of an alternative from `place` on at `pos`, then the steps
    /// after it.
    fn segments(&mut self, place: Place, pos: usize) -> bool {
        let steps = self.steps;
        let Some(segment) = steps[place.step].alternatives()[place.alternative].get(place.segment)
        else {
            return self.step(place.step + 1, pos);
        };
        let next = Place {
            segment: place.segment + 1,
            ..place
        };
        match segment {
            Segment::Text(text) => match self.text(text.as_bytes(), pos) {
                Ok(end) => self.segments(next, end),
                Err(at) => {
                    self.record(place.step, at, at >= self.actual.len(), false);
                    false
                }
            },
            // The only choice inside a step: how many lines it takes. Each try counts
            // against the budget, and a place found not to match is not tried again.
            Segment::AnyLines => {
                if self.failed_within.contains(&(place, pos)) {
                    return false;
                }
                let mut at = pos;
                let matched = loop {
                    self.work += 1;
                    if self.work > BUDGET {
                        break false;
                    }
                    if self.segments(next, at) {
                        break true;
                    }
                    if at >= self.actual.len() {
                        break false;
                    }
                    at = match self.actual[at..].iter().position(|&b| b == b'\n') {
                        Some(i) => at + i + 1,
                        None => self.actual.len(),
                    };
                };
                if !matched {
                    self.failed_within.insert((place, pos));
                }
                matched
            }
        }
    }

    /// Matches one expected text at `pos`: its end, or where it fails.
    fn text(&self, expected: &[u8], pos: usize) -> Result<usize, usize> {
        let actual = self.actual;
        let (mut i, mut p) = (0, pos);
        while i < expected.len() {
            if p < actual.len() && expected[i] == actual[p] {
                i += 1;
                p += 1;
                continue;
            }
            if self.lenient {
                // Blanks before a line end (or the end) do not count.
                let blanks = expected[i..]
                    .iter()
                    .take_while(|b| b" \t\r".contains(b))
                    .count();
                let after = i + blanks;
                let line_ends = after == expected.len() || expected[after] == b'\n';
                if blanks > 0 && line_ends && (p == actual.len() || actual[p] == b'\n') {
                    i = after;
                    continue;
                }
                if p == actual.len() && expected[i..].iter().all(u8::is_ascii_whitespace) {
                    return Ok(p);
                }
            }
            return Err(p);
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(texts: &[&str]) -> Vec<StepPattern> {
        texts
            .iter()
            .map(|t| StepPattern::new(t, &[] as &[&str]))
            .collect()
    }

    fn run(texts: &[&str], actual: &str, mode: CompareMode) -> Result<Vec<usize>, Mismatch> {
        match_steps(&steps(texts), &prepare(actual.as_bytes(), mode), mode)
    }

    #[test]
    fn exact_match_reports_step_starts() {
        assert_eq!(
            run(&["a\n", "b\n", "c"], "a\nb\nc", CompareMode::Exact),
            Ok(vec![0, 2, 4])
        );
    }

    #[test]
    fn divergence_is_attributed_to_its_step() {
        let m = run(
            &["board\nprompt: ", "moved\nboard\n", "x\n"],
            "board\nprompt: moved\nbaord\n",
            CompareMode::Exact,
        )
        .unwrap_err();
        assert_eq!((m.step, m.at, m.step_start), (1, 21, 14));
        assert!(!m.output_ended && !m.extra_output);
    }

    #[test]
    fn missing_and_extra_output() {
        let m = run(&["a\n", "b\n"], "a\n", CompareMode::Exact).unwrap_err();
        assert_eq!((m.step, m.output_ended), (1, true));
        let m = run(&["a\n", "b\n"], "a\nb\nc\n", CompareMode::Exact).unwrap_err();
        assert_eq!((m.step, m.at, m.extra_output), (1, 4, true));
        let m = run(&["a\n"], "a", CompareMode::Exact).unwrap_err();
        assert!(m.output_ended);
    }

    #[test]
    fn trailing_whitespace_mode_forgives_only_line_ends() {
        let mode = CompareMode::TrailingWhitespace;
        assert!(run(&["a\n", "b\n"], "a  \nb", mode).is_ok());
        assert!(run(&["a \n", "p: ", "q\n"], "a\np: q\n\n\n", mode).is_ok());
        assert!(run(&["a b\n"], "a  b\n", mode).is_err());
        assert!(run(&["a\n"], "a  \n", CompareMode::Exact).is_err());
    }

    #[test]
    fn wildcards_and_alternatives() {
        let wild = steps(&["start\n...\nend\n", "next\n"]);
        let ok = match_steps(&wild, b"start\nx\ny\nend\nnext\n", CompareMode::Exact).unwrap();
        assert_eq!(ok, vec![0, 14]);
        assert!(match_steps(&wild, b"start\nend\nnext\n", CompareMode::Exact).is_ok());
        let m = match_steps(&wild, b"start\nx\nnext\n", CompareMode::Exact).unwrap_err();
        assert_eq!(m.step, 0);
        let alt = vec![
            StepPattern::new("White wins!\nBOARD\nTrue\n", &["White wins!\nTrue\n"]),
            StepPattern::new("board\n", &[] as &[&str]),
        ];
        assert!(match_steps(&alt, b"White wins!\nTrue\nboard\n", CompareMode::Exact).is_ok());
        assert!(match_steps(
            &alt,
            b"White wins!\nBOARD\nTrue\nboard\n",
            CompareMode::Exact
        )
        .is_ok());
        let m = match_steps(&alt, b"White wins!\nTrue\nbored\n", CompareMode::Exact).unwrap_err();
        assert_eq!((m.step, m.at), (1, 19));
    }

    #[test]
    fn many_wildcards_in_one_step_stay_fast() {
        // Eight `...` lines in one step, and an output of 3,000 lines none of which is the
        // last expected one: every way of sharing the lines among the wildcards fails.
        let step: String = "...\nline\n".repeat(8) + "the end\n";
        let actual = "line\n".repeat(3_000);
        let m = run(&[&step], &actual, CompareMode::Exact).unwrap_err();
        assert_eq!((m.step, m.at), (0, actual.len()));
        assert!(m.output_ended);
        // The same step is still matched where the output fits it.
        let fits = "line\n".repeat(3_000) + "the end\n";
        assert!(run(&[&step], &fits, CompareMode::Exact).is_ok());
    }

    #[test]
    fn a_scenario_of_many_steps_is_matched_from_a_small_stack() {
        let many = 50_000;
        let steps: Vec<StepPattern> = (0..many)
            .map(|i| StepPattern::new(&format!("move {i}\n...\nboard\n"), &[] as &[&str]))
            .collect();
        let actual: String = (0..many).map(|i| format!("move {i}\nboard\n")).collect();
        let wrong = actual.replace("move 49998\n", "move 4999\n");
        let (matched, mismatch) = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let matched = match_steps(&steps, actual.as_bytes(), CompareMode::Exact);
                let mismatch = match_steps(&steps, wrong.as_bytes(), CompareMode::Exact);
                (
                    matched.map(|starts| starts.len()),
                    mismatch.map_err(|m| m.step),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(matched, Ok(many));
        assert_eq!(mismatch, Err(49_998));
    }

    #[test]
    fn many_wildcards_stay_fast() {
        let texts: Vec<String> = (0..200).map(|i| format!("...\nline {i}\n")).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let actual: String = (0..199).map(|i| format!("noise\nline {i}\n")).collect();
        let m = run(&refs, &actual, CompareMode::Exact).unwrap_err();
        assert_eq!((m.step, m.output_ended), (199, true));
    }
}
