//! The `project5` course-policy options: two readings of seed 000 a course may dispute.
//! Of `is_game_over` it says that for Black it "should print the board, print Black wins!",
//! and for White "should print White wins!", with an example that prints `White wins!` then
//! the board: by default either order passes (`game_over_order = "either"`) and a course that
//! wants the handout's own order sets `"handout"`. Of `printable_board` its prose says "The
//! job of this function is to simply print out the board to standard output", while its test
//! case prints what the function returns (`print( printable_board(board) )`): by default a
//! program that returns the board and one that prints it both pass (`printable_board =
//! "either"`), and a course sets `"return"` or `"print"` to grade one reading.

use crate::games::{GameOptions, PolicyRules};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const GAME_OVER_ORDER: &str = "game_over_order";
const PRINTABLE_BOARD: &str = "printable_board";
const EITHER: &str = "either";
/// The scenario option under which the reference prints what `is_game_over` prints in the
/// other order.
pub const REVERSED: &str = "game_over_reversed";
/// The scenario option under which the reference accepts what `is_game_over` prints in
/// either order at each call: a scenario where both sides win is passed by a program that
/// prints the board first (or the message first) for both.
pub const EITHER_ORDER: &str = "game_over_either_order";
/// The scenario option under which the reference's `printable_board` prints the board and
/// returns nothing.
pub const PRINTS_BOARD: &str = "printable_board_prints";

const OPTIONS: &[PolicyOption] = &[
    PolicyOption {
        key: GAME_OVER_ORDER,
        default: DefaultValue::Word(EITHER),
        choices: &[EITHER, "handout"],
        about: "what is_game_over prints when a king is gone: the message and the board in `either` order, or only in the `handout`'s",
    },
    PolicyOption {
        key: PRINTABLE_BOARD,
        default: DefaultValue::Word(EITHER),
        choices: &[EITHER, "return", "print"],
        about: "what printable_board does with the board's picture: `either` returns or prints it, or only `return` (the handout's test case), or only `print` (its prose)",
    },
];

/// The policy rules of project5 and its variants.
pub struct Readings;

pub static POLICY: Readings = Readings;

/// `options` with scenario option `key` on, unless the scenario sets it itself.
fn with_on(options: &GameOptions, key: &str) -> Option<GameOptions> {
    if options.contains_key(key) {
        return None;
    }
    let mut on = options.clone();
    on.insert(key.to_string(), toml::Value::Boolean(true));
    Some(on)
}

impl PolicyRules for Readings {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// A printed board, where the course reads `printable_board` as printing only.
    fn required(&self, policy: &Policy, options: &GameOptions) -> Option<GameOptions> {
        (policy.word(PRINTABLE_BOARD) == "print")
            .then(|| with_on(options, PRINTS_BOARD))
            .flatten()
    }

    /// Either order at each `is_game_over` and the other `printable_board`, each where the
    /// course accepts either, and both together. A scenario that sets the order itself
    /// (`game_over_reversed`) is graded in that order.
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        let mut all = vec![options.clone()];
        for (key, scenario_option) in [
            (GAME_OVER_ORDER, EITHER_ORDER),
            (PRINTABLE_BOARD, PRINTS_BOARD),
        ] {
            if policy.word(key) == EITHER
                && !(key == GAME_OVER_ORDER && options.contains_key(REVERSED))
            {
                let other: Vec<GameOptions> = all
                    .iter()
                    .filter_map(|o| with_on(o, scenario_option))
                    .collect();
                all.extend(other);
            }
        }
        all.remove(0);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Value;

    fn on(keys: &[&str]) -> GameOptions {
        keys.iter()
            .map(|k| (k.to_string(), toml::Value::Boolean(true)))
            .collect()
    }

    #[test]
    fn either_reading_by_default_one_on_request() {
        let mut policy = Policy::defaults(OPTIONS);
        let none = GameOptions::new();
        assert_eq!(
            Readings.variants(&policy, &none),
            vec![
                on(&[EITHER_ORDER]),
                on(&[PRINTS_BOARD]),
                on(&[EITHER_ORDER, PRINTS_BOARD])
            ]
        );
        assert_eq!(Readings.required(&policy, &none), None);
        policy.set(GAME_OVER_ORDER, Value::Word("handout".into()));
        assert_eq!(Readings.variants(&policy, &none), vec![on(&[PRINTS_BOARD])]);
        policy.set(PRINTABLE_BOARD, Value::Word("return".into()));
        assert!(Readings.variants(&policy, &none).is_empty());
        assert_eq!(Readings.required(&policy, &none), None);
        policy.set(PRINTABLE_BOARD, Value::Word("print".into()));
        assert_eq!(Readings.required(&policy, &none), Some(on(&[PRINTS_BOARD])));
        // A scenario that sets a reading itself is graded as written.
        assert_eq!(Readings.required(&policy, &on(&[PRINTS_BOARD])), None);
        let either = Policy::defaults(OPTIONS);
        assert_eq!(
            Readings.variants(&either, &on(&[REVERSED])),
            vec![on(&[REVERSED, PRINTS_BOARD])]
        );
    }
}
