//! The shortest typed game that reaches the same case as a failing line. A battery's games
//! run to dozens of lines, and the case a failure is about (a step, a capture, a refusal of
//! one kind, the end of the game, a player left only able to take) is mostly reached in a
//! few. The reference tells which shorter games reach the same kind of case
//! ([`PownProgram::case_of`]); the harness keeps only those the submission fails too.

use super::options::PownOptions;
use super::program::{Case, PownProgram};
use crate::games::CaseShrink;

/// Most lines a note lists: a longer case is the game itself, already shown.
const MAX_LISTED: usize = 60;

/// The case of typing `last` after the lines `before`.
pub struct PownCase {
    options: PownOptions,
    before: Vec<String>,
    last: String,
    case: Case,
}

/// The case of typing `last` after `before`; `None` once the game is over.
pub fn case(options: PownOptions, before: &[&str], last: &str) -> Option<PownCase> {
    let program = after(options, before.iter().copied());
    if program.is_finished() {
        return None;
    }
    Some(PownCase {
        options,
        before: before.iter().map(|line| line.to_string()).collect(),
        last: last.to_string(),
        case: program.case_of(last),
    })
}

fn after<'a>(options: PownOptions, lines: impl IntoIterator<Item = &'a str>) -> PownProgram {
    let mut program = PownProgram::new(options);
    for line in lines {
        program.advance(line);
    }
    program
}

impl CaseShrink for PownCase {
    fn items(&self) -> &[String] {
        &self.before
    }

    fn same_case(&self, kept: &[String]) -> bool {
        let program = after(self.options, kept.iter().map(String::as_str));
        !program.is_finished() && program.case_of(&self.last) == self.case
    }

    fn lines(&self, kept: &[String]) -> Vec<String> {
        kept.iter().chain([&self.last]).cloned().collect()
    }

    /// Leaving out less than a quarter of the lines is no shorter case worth a note (a case
    /// that takes a whole game, such as its end).
    fn worth_noting(&self, kept: &[String]) -> bool {
        kept.len() * 4 <= self.before.len() * 3 && kept.len() <= MAX_LISTED
    }

    fn note(&self, kept: &[String]) -> String {
        let last = &self.last;
        match kept {
            [] => format!("shortest case: {last:?} typed at the opening"),
            lines => format!(
                "shortest case ({} lines typed, then {last:?}): {}",
                lines.len(),
                lines.join("; ")
            ),
        }
    }

    /// After the rule of the line typed.
    fn after_notes(&self) -> usize {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shrink::ddmin;

    /// The fewest lines the reference alone keeps as the same case, and their note.
    fn on_reference(before: &[&str], last: &str) -> String {
        let case = case(PownOptions::default(), before, last).unwrap();
        let shrunk = ddmin(case.items().to_vec(), 400, &mut |kept| case.same_case(kept));
        case.note(&shrunk.items)
    }

    #[test]
    fn a_capture_late_in_a_game_is_reached_in_the_fewest_lines() {
        // Steps in other columns while w and b meet in column C; then w takes.
        let before = ["A1", "H8", "C1", "C8", "B1", "G8", "C2", "C7", "C3", "C6"];
        // w's pown must climb to C4 and b's come down to C5: three steps each.
        assert_eq!(
            on_reference(&before, "C4"),
            "shortest case (6 lines typed, then \"C4\"): C1; C8; C2; C7; C3; C6"
        );
    }

    #[test]
    fn a_refusal_at_the_opening_needs_nothing_before_it() {
        assert_eq!(
            on_reference(&["A1", "H8"], "A8"),
            "shortest case: \"A8\" typed at the opening"
        );
        let case = case(PownOptions::default(), &["A1"], "A2").unwrap();
        // The same kind of refusal is found only after the turn passes once more.
        assert!(!case.same_case(&[]));
        assert!(!case.worth_noting(case.items()));
    }

    #[test]
    fn the_lines_replayed_end_with_the_line_typed() {
        let case = case(PownOptions::default(), &["A1", "H8"], "A2").unwrap();
        assert_eq!(case.lines(&["A1".to_string()]), ["A1", "A2"]);
    }
}
