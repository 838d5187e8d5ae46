//! A miniChess response in parts, what a scenario's `judge` key chooses among.

use super::functions::Functions;
use super::slices;
use crate::games::{Part, Response, ResponseParts};

/// The adapter's tag for a value that held tuples where the handout has lists (`!tuples
/// VALUE`, the value as the call returned it; the answer is the same value as lists).
pub const TUPLES: &str = "tuples";

/// The parts of a dialect's responses (its functions read a `move_maker` call, for
/// `slices`).
pub struct MoveLists {
    pub functions: Functions,
}

impl ResponseParts for MoveLists {
    /// `boards`: the return value (the boards of `move_maker`, the board chosen); `input`: a
    /// board argument the call changed (`!changed-input`); `printed`: what the call printed;
    /// `lists`: a value returned as tuples (`!tuples`), its boards judged in `boards` as
    /// lists.
    ///
    /// `steps` and `captures`: the boards of a `move_maker` answer sorted out by the rule
    /// they follow or break (`slices`), what the battery's families judge.
    fn names(&self) -> &'static [&'static str] {
        &["boards", "input", "printed", "lists", "steps", "captures"]
    }

    fn parts(&self, command: &str, response: &Response) -> Vec<Part> {
        let tagged = |tuples: bool| -> String {
            (response.tags.iter())
                .filter(|(tag, _)| (tag == TUPLES) == tuples)
                .map(|(tag, text)| format!("!{tag} {text}\n"))
                .collect()
        };
        let value = response.value.clone().unwrap_or_default();
        let (steps, captures) =
            slices::slices(&self.functions, command, &value).unwrap_or_default();
        vec![
            Part::new("boards", value),
            Part::new("input", tagged(false)),
            Part::new("printed", response.printed.clone()),
            Part::new("lists", tagged(true)),
            Part::new("steps", steps),
            Part::new("captures", captures),
        ]
    }
}
