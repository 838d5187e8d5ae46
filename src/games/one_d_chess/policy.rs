//! The `project5` course-policy options. Seed 000 says of `is_game_over` that for Black it
//! "should print the board, print Black wins!", and for White "should print White wins!",
//! with an example that prints `White wins!` then the board: the order of the message and
//! the board is a reading, so by default either order passes (`game_over_order = "either"`)
//! and a course that wants the handout's own order sets `"handout"`.

use crate::games::{GameOptions, PolicyRules};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const GAME_OVER_ORDER: &str = "game_over_order";
/// The scenario option under which the reference prints what `is_game_over` prints in the
/// other order.
pub const REVERSED: &str = "game_over_reversed";

const OPTIONS: &[PolicyOption] = &[PolicyOption {
    key: GAME_OVER_ORDER,
    default: DefaultValue::Word("either"),
    choices: &["either", "handout"],
    about: "what is_game_over prints when a king is gone: the message and the board in `either` order, or only in the `handout`'s",
}];

/// The policy rules of project5 and its variants.
pub struct GameOverOrder;

pub static POLICY: GameOverOrder = GameOverOrder;

impl PolicyRules for GameOverOrder {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// The other order, where the course accepts either.
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        if policy.word(GAME_OVER_ORDER) != "either" || options.contains_key(REVERSED) {
            return Vec::new();
        }
        let mut reversed = options.clone();
        reversed.insert(REVERSED.to_string(), toml::Value::Boolean(true));
        vec![reversed]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Value;

    #[test]
    fn either_order_by_default_the_handouts_on_request() {
        let mut policy = Policy::defaults(OPTIONS);
        let variants = GameOverOrder.variants(&policy, &GameOptions::new());
        assert_eq!(variants.len(), 1);
        assert_eq!(variants[0].get(REVERSED), Some(&toml::Value::Boolean(true)));
        policy.set(GAME_OVER_ORDER, Value::Word("handout".into()));
        assert!(GameOverOrder
            .variants(&policy, &GameOptions::new())
            .is_empty());
    }
}
