//! The `pown` course-policy options: which of the handout's optional challenges the course
//! set (a submission that implements them is graded under them everywhere), and other
//! wordings of the tie line.

use std::borrow::Cow;

use super::messages::TIE;
use crate::games::{GameOptions, PolicyRules};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const CHALLENGES: &str = "challenges";
const TIE_WORDING: &str = "tie_wording";

/// A challenge, by its policy name: the scenario option that turns it on, and its value.
fn challenge_option(name: &str) -> Option<(&'static str, toml::Value)> {
    match name {
        "score_header" => Some(("score_header", toml::Value::Boolean(true))),
        "move_counter" => Some(("move_counter", toml::Value::Boolean(true))),
        "reprompt_invalid" => Some(("reprompt_invalid", toml::Value::Boolean(true))),
        "six_by_six" => Some(("size", toml::Value::Integer(6))),
        _ => None,
    }
}

const ALL_CHALLENGES: &[&str] = &[
    "score_header",
    "move_counter",
    "reprompt_invalid",
    "six_by_six",
];

const OPTIONS: &[PolicyOption] = &[
    PolicyOption {
        key: CHALLENGES,
        default: DefaultValue::Words(&[]),
        choices: ALL_CHALLENGES,
        about: "the optional challenges the course set: a submission that implements any of them is graded under them in every scenario",
    },
    PolicyOption {
        key: TIE_WORDING,
        default: DefaultValue::Words(&[]),
        choices: &[],
        about: "other lines accepted in place of `It's a tie!!`",
    },
];

/// The policy rules of pown chess.
pub struct Challenges;

impl PolicyRules for Challenges {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// The tie line in the handout's wording, where the policy accepts the line as a tie.
    fn canonical<'a>(&self, policy: &Policy, line: &'a str) -> Cow<'a, str> {
        if policy.words(TIE_WORDING).iter().any(|w| w == line) {
            Cow::Borrowed(TIE)
        } else {
            Cow::Borrowed(line)
        }
    }

    /// The scenario's options with every combination of the set challenges it does not turn on
    /// itself.
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        let extra: Vec<&str> = policy
            .words(CHALLENGES)
            .iter()
            .map(String::as_str)
            .filter(|name| !is_on(options, name))
            .collect();
        let mut variants = Vec::new();
        for mask in 1..(1u32 << extra.len()) {
            let mut variant = options.clone();
            for (bit, name) in extra.iter().enumerate() {
                if mask & (1 << bit) != 0 {
                    if let Some((key, on)) = challenge_option(name) {
                        variant.insert(key.to_string(), on);
                    }
                }
            }
            variants.push(variant);
        }
        variants
    }
}

/// Whether challenge `name` is on in `options`.
fn is_on(options: &GameOptions, name: &str) -> bool {
    challenge_option(name).is_some_and(|(key, on)| options.get(key) == Some(&on))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Value;

    /// The `pown` policy with `key` set to `words` (nothing set when `key` is empty).
    fn policy(key: &'static str, words: &[&str]) -> Policy {
        let mut policy = Policy::defaults(OPTIONS);
        if !key.is_empty() {
            policy.set(
                key,
                Value::Words(words.iter().map(|w| w.to_string()).collect()),
            );
        }
        policy
    }

    #[test]
    fn set_challenges_give_every_combination() {
        assert!(Challenges
            .variants(&policy("", &[]), &GameOptions::new())
            .is_empty());
        let all = policy(CHALLENGES, ALL_CHALLENGES);
        assert_eq!(Challenges.variants(&all, &GameOptions::new()).len(), 15);
        let one = policy(CHALLENGES, &["reprompt_invalid"]);
        let only = Challenges.variants(&one, &GameOptions::new());
        assert_eq!(only.len(), 1);
        assert_eq!(
            only[0].get("reprompt_invalid"),
            Some(&toml::Value::Boolean(true))
        );
        let mut reprompting = GameOptions::new();
        reprompting.insert("reprompt_invalid".into(), toml::Value::Boolean(true));
        assert!(Challenges.variants(&one, &reprompting).is_empty());
    }

    #[test]
    fn tie_wordings_read_as_the_tie_line() {
        let p = policy(TIE_WORDING, &["It's a tie!"]);
        assert_eq!(Challenges.canonical(&p, "It's a tie!"), TIE);
        assert_eq!(Challenges.canonical(&p, "Tie!"), "Tie!");
        assert_eq!(
            Challenges.canonical(&policy("", &[]), "It's a tie!"),
            "It's a tie!"
        );
    }
}
