//! The course's reading of which games end drawn (`draw_rules` in `course.toml`). Seed 004
//! names a draw only as a value of `result` ("`'d'`: Indicates a draw.") and lists no draw
//! rule: a team that ends the game on stalemate alone and a team that also applies
//! threefold repetition, the fifty-move rule and insufficient material both follow its text.
//! By default either passes (`"either"`); a course that reads it one way sets
//! `"stalemate_only"` or `"required"`. A scenario that sets the `draw_rules` option itself is
//! graded as written under every reading.

use crate::games::GameOptions;
use crate::policy::{DefaultValue, Policy, PolicyOption};

/// The course-policy key, and the scenario option it sets for the reference.
pub const DRAW_RULES: &str = "draw_rules";
const EITHER: &str = "either";
const STALEMATE_ONLY: &str = "stalemate_only";
const REQUIRED: &str = "required";

pub const OPTION: PolicyOption = PolicyOption {
    key: DRAW_RULES,
    default: DefaultValue::Word(EITHER),
    choices: &[EITHER, STALEMATE_ONLY, REQUIRED],
    about: "which games end drawn: `either` a program that draws on stalemate only or one that also applies threefold repetition, the fifty-move rule and insufficient material passes, or only `stalemate_only`, or only `required` (the draw rules too)",
};

/// `options` with the reference's draw rules on, where the scenario leaves them to the
/// course.
fn with_draw_rules(options: &GameOptions) -> Option<GameOptions> {
    if options.contains_key(DRAW_RULES) {
        return None;
    }
    let mut drawn = options.clone();
    drawn.insert(DRAW_RULES.to_string(), toml::Value::Boolean(true));
    Some(drawn)
}

/// The scenario's options under a course that requires the draw rules.
pub fn required(policy: &Policy, options: &GameOptions) -> Option<GameOptions> {
    (policy.word(DRAW_RULES) == REQUIRED)
        .then(|| with_draw_rules(options))
        .flatten()
}

/// The other reading a course that accepts either also grades a scenario under.
pub fn other_reading(policy: &Policy, options: &GameOptions) -> Option<GameOptions> {
    (policy.word(DRAW_RULES) == EITHER)
        .then(|| with_draw_rules(options))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Value;

    fn policy(reading: &str) -> Policy {
        let mut policy = Policy::defaults(&[OPTION]);
        if !reading.is_empty() {
            policy.set(DRAW_RULES, Value::Word(reading.into()));
        }
        policy
    }

    #[test]
    fn either_reading_by_default_one_on_request_a_scenarios_own_choice_kept() {
        let on = with_draw_rules(&GameOptions::new());
        assert_eq!(
            on.as_ref().and_then(|o| o.get(DRAW_RULES)),
            Some(&toml::Value::Boolean(true))
        );
        assert_eq!(other_reading(&policy(""), &GameOptions::new()), on);
        assert_eq!(required(&policy(""), &GameOptions::new()), None);
        assert_eq!(
            other_reading(&policy(STALEMATE_ONLY), &GameOptions::new()),
            None
        );
        assert_eq!(required(&policy(STALEMATE_ONLY), &GameOptions::new()), None);
        assert_eq!(required(&policy(REQUIRED), &GameOptions::new()), on);
        assert_eq!(other_reading(&policy(REQUIRED), &GameOptions::new()), None);
        let own: GameOptions = "draw_rules = false".parse().unwrap();
        assert_eq!(other_reading(&policy(""), &own), None);
        assert_eq!(required(&policy(REQUIRED), &own), None);
    }
}
