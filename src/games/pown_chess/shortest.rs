//! The shortest typed game that reaches the same case as a failing line. A battery's games
//! run to dozens of lines, and the case a failure is about (a step, a capture, a refusal of
//! one kind, the end of the game, a player left only able to take) is mostly reached in a
//! few. Found on the reference alone: lines are removed while the last line typed stays the
//! same kind of case ([`PownProgram::case_of`]).

use super::options::PownOptions;
use super::program::PownProgram;
use crate::shrink::ddmin;

/// Most replays of the reference while shortening.
const SHRINK_BUDGET: usize = 400;
/// Most lines a note lists: a longer case is the game itself, already shown.
const MAX_LISTED: usize = 60;

/// A note with the fewest of the lines `before` (kept in order) after which typing `last` is
/// the same case as after all of them; `None` when that leaves out less than a quarter of
/// them (a case that takes a whole game, such as its end) or is still too long to list.
pub fn shortest_case(options: PownOptions, before: &[&str], last: &str) -> Option<String> {
    let after = |lines: &[&str]| {
        let mut program = PownProgram::new(options);
        for line in lines {
            program.advance(line);
        }
        program
    };
    let program = after(before);
    if program.is_finished() {
        return None;
    }
    let case = program.case_of(last);
    let shrunk = ddmin(before.to_vec(), SHRINK_BUDGET, &mut |lines: &[&str]| {
        let program = after(lines);
        !program.is_finished() && program.case_of(last) == case
    });
    let worth_it = shrunk.items.len() * 4 <= before.len() * 3 && shrunk.items.len() <= MAX_LISTED;
    worth_it.then(|| match shrunk.items.as_slice() {
        [] => format!("shortest case: {last:?} typed at the opening"),
        lines => format!(
            "shortest case ({} lines typed, then {last:?}): {}",
            lines.len(),
            lines.join("; ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_late_in_a_game_is_reached_in_the_fewest_lines() {
        // Steps in other columns while w and b meet in column C; then w takes.
        let before = ["A1", "H8", "C1", "C8", "B1", "G8", "C2", "C7", "C3", "C6"];
        let note = shortest_case(PownOptions::default(), &before, "C4").unwrap();
        // w's pown must climb to C4 and b's come down to C5: three steps each.
        assert_eq!(
            note,
            "shortest case (6 lines typed, then \"C4\"): C1; C8; C2; C7; C3; C6"
        );
    }

    #[test]
    fn a_refusal_at_the_opening_needs_nothing_before_it() {
        let note = shortest_case(PownOptions::default(), &["A1", "H8"], "A8").unwrap();
        assert_eq!(note, "shortest case: \"A8\" typed at the opening");
        // The same kind of refusal is found only after the turn passes once more.
        assert_eq!(
            shortest_case(PownOptions::default(), &["A1"], "A2"),
            None,
            "w's own pown, typed by b, is already the fewest lines"
        );
    }
}
