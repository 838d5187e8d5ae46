//! The `pown` course-policy options: which of the handout's optional challenges the course
//! set (a submission that implements them is graded under them everywhere, and a scenario
//! about a challenge the course did not set is left out), and other wordings of the tie line.
//! Challenge 2's counter is accepted alone or beside the score line wherever it is graded.
//! Three readings the handout leaves open are accepted both ways unless the course says
//! otherwise: the order of the end-of-game counts; strict or forgiving input (a course may
//! also require strict input, as the handout asks); and a board shown once more before the
//! end lines, which only the handout's scenario about the end judges. Seed 002's program is
//! one whole game, so a debug print left in a function it calls every turn would fail every
//! game scenario: a line the game never prints is noted in the game scenarios and judged by
//! the scenario about printing alone, as for csc110 (a course file can make it `judged`).

use std::borrow::Cow;

use super::messages::TIE;
use crate::games::{GameOptions, PolicyRules, UnsetPart};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const CHALLENGES: &str = "challenges";
const TIE_WORDING: &str = "tie_wording";
const COUNT_ORDER: &str = "count_order";
/// The `tie_wording` that accepts any line that reads as a tie ([`reads_as_tie`]).
const ANY_TIE: &str = "*";
const INPUT: &str = "input";
const BOARD_BEFORE_END: &str = "board_before_end";
/// The value of `board_before_end` that accepts only the handout example's end.
const NEVER: &str = "never";
/// The value of `count_order` and `input` that accepts both readings.
const EITHER: &str = "either";
/// The value of `input` that accepts only strict programs.
const STRICT: &str = "strict";
/// The scenario option under which the reference reads input strictly.
const STRICT_INPUT: &str = "strict_input";

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
        key: crate::policy::EXTRA_LINES,
        default: DefaultValue::Word("noted"),
        choices: &["judged", "noted"],
        about: "a line the game never prints is noted in the game scenarios and judged by the scenario about printing",
    },
    PolicyOption {
        key: CHALLENGES,
        default: DefaultValue::Words(&[]),
        choices: ALL_CHALLENGES,
        about: "the optional challenges the course set: a submission that implements any of them is graded under them in every scenario",
    },
    PolicyOption {
        key: TIE_WORDING,
        default: DefaultValue::Words(&[ANY_TIE]),
        choices: &[],
        about: "other lines accepted in place of `It's a tie!!`; `*`, the default, is any line that says the game is tied or drawn and names no winner (the handout shows no tie)",
    },
    PolicyOption {
        key: COUNT_ORDER,
        default: DefaultValue::Word(EITHER),
        choices: &[EITHER, "opponent_first"],
        about: "the order of the end-of-game piece counts: `either`, or only the handout example's `opponent_first`",
    },
    PolicyOption {
        key: BOARD_BEFORE_END,
        default: DefaultValue::Word(EITHER),
        choices: &[EITHER, NEVER],
        about: "the board shown once more before the end-of-game lines: `either` accepts it wherever a scenario does not say (the handout's scenario about the end judges it), `never` nowhere",
    },
    PolicyOption {
        key: INPUT,
        default: DefaultValue::Word(EITHER),
        choices: &[EITHER, "forgiving", STRICT],
        about: "typed squares: `either` a strict program (only `B1` as written) or a forgiving one (` b1 `) passes, or only `forgiving`, or only `strict`",
    },
];

/// The scenario options of the readings the policy accepts besides the reference's own;
/// a reading of what the scenario's `options` set themselves is not one.
fn readings(policy: &Policy, options: &GameOptions) -> Vec<Vec<(&'static str, toml::Value)>> {
    let mut readings = vec![Vec::new()];
    let mut both = |key: &'static str, value: toml::Value| {
        let more: Vec<_> = readings
            .iter()
            .map(|reading: &Vec<(&'static str, toml::Value)>| {
                let mut reading = reading.clone();
                reading.push((key, value.clone()));
                reading
            })
            .collect();
        readings.extend(more);
    };
    if policy.word(COUNT_ORDER) == EITHER {
        both("count_order", toml::Value::String("stuck_first".into()));
    }
    if policy.word(INPUT) == EITHER {
        both(STRICT_INPUT, toml::Value::Boolean(true));
    }
    if policy.word(BOARD_BEFORE_END) == EITHER && !options.contains_key(BOARD_BEFORE_END) {
        both(BOARD_BEFORE_END, toml::Value::Boolean(true));
    }
    readings
}

/// Whether `line` says the game ended tied (`Tie game!!`, `It's a draw.`, `TIE`) and names
/// no winner (`w wins!!`): the handout says who wins but shows no tie, so a tie line's
/// wording is the student's.
fn reads_as_tie(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphabetic()).collect();
    let tie = ["tie", "tied", "draw", "drawn"];
    words.iter().any(|w| tie.contains(w)) && !words.iter().any(|w| ["wins", "won"].contains(w))
}

/// The policy rules of pown chess.
pub struct Challenges;

impl PolicyRules for Challenges {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// The tie line in the handout's wording, where the policy accepts the line as a tie.
    fn canonical<'a>(&self, policy: &Policy, line: &'a str) -> Cow<'a, str> {
        let words = policy.words(TIE_WORDING);
        let any = words.iter().any(|w| w == ANY_TIE) && reads_as_tie(line);
        if any || words.iter().any(|w| w == line) {
            Cow::Borrowed(TIE)
        } else {
            Cow::Borrowed(line)
        }
    }

    /// Strict input, where the course requires it and the scenario does not choose.
    fn required(&self, policy: &Policy, options: &GameOptions) -> Option<GameOptions> {
        if policy.word(INPUT) != STRICT || options.contains_key(STRICT_INPUT) {
            return None;
        }
        let mut strict = options.clone();
        strict.insert(STRICT_INPUT.to_string(), toml::Value::Boolean(true));
        Some(strict)
    }

    /// The scenario's options with every combination of the set challenges it does not turn on
    /// itself, and each of those (the scenario's own included) that shows both the score and
    /// the counter also with the counter beside the score line, above or below it; each of
    /// them under every reading the policy accepts (count order, strict input, a board
    /// before the end).
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        let readings = readings(policy, options);
        let mut all = Vec::new();
        for challenges in std::iter::once(options.clone()).chain(combinations(policy, options)) {
            let placed: Vec<GameOptions> = std::iter::once(challenges.clone())
                .chain(counter_beside(&challenges))
                .collect();
            for variant in placed {
                for reading in &readings {
                    let mut read = variant.clone();
                    for (key, value) in reading {
                        read.insert(key.to_string(), value.clone());
                    }
                    if &read != options {
                        all.push(read);
                    }
                }
            }
        }
        all
    }

    /// The challenges the scenario turns on that the course did not set.
    fn unset_part(&self, policy: &Policy, options: &GameOptions) -> Option<UnsetPart> {
        let set = policy.words(CHALLENGES);
        let unset: Vec<&str> = ALL_CHALLENGES
            .iter()
            .copied()
            .filter(|name| is_on(options, name) && !set.iter().any(|s| s == name))
            .collect();
        if unset.is_empty() {
            return None;
        }
        Some(UnsetPart {
            option: CHALLENGES,
            names: unset,
        })
    }
}

/// The scenario option that places the counter beside the score line, and its values other
/// than the reference's own (`alone`).
const COUNTER_PLACE: &str = "counter_place";
const COUNTER_BESIDE: [&str; 2] = ["above_score", "below_score"];

/// The scenario's options with every combination of the set challenges it does not turn on
/// itself (the scenario's own options not among them).
fn combinations(policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
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

/// `options` with the counter beside the score line, above it and below it, where both
/// are on (none otherwise).
fn counter_beside(options: &GameOptions) -> impl Iterator<Item = GameOptions> + '_ {
    let both = is_on(options, "score_header") && is_on(options, "move_counter");
    COUNTER_BESIDE
        .iter()
        .filter(move |_| both)
        .map(move |place| {
            let mut beside = options.clone();
            beside.insert(
                COUNTER_PLACE.to_string(),
                toml::Value::String(place.to_string()),
            );
            beside
        })
}

/// Whether challenge `name` is on in `options`.
fn is_on(options: &GameOptions, name: &str) -> bool {
    challenge_option(name).is_some_and(|(key, on)| options.get(key) == Some(&on))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Value;

    /// The `pown` policy with `key` set to `words` (nothing set when `key` is empty), and
    /// the one reading of the counts, input and end that the reference follows.
    fn policy(key: &'static str, words: &[&str]) -> Policy {
        let mut policy = Policy::defaults(OPTIONS);
        policy.set(COUNT_ORDER, Value::Word("opponent_first".into()));
        policy.set(INPUT, Value::Word("forgiving".into()));
        policy.set(BOARD_BEFORE_END, Value::Word(NEVER.into()));
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
        // 15 combinations; the 4 with both the score and the counter come twice more, with
        // the counter above and below the score line.
        assert_eq!(
            Challenges.variants(&all, &GameOptions::new()).len(),
            15 + 2 * 4
        );
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

    /// Options with each challenge of `names` on.
    fn on(names: &[&str]) -> GameOptions {
        let mut options = GameOptions::new();
        for name in names {
            let (key, value) = challenge_option(name).unwrap();
            options.insert(key.to_string(), value);
        }
        options
    }

    #[test]
    fn the_counter_is_also_graded_beside_the_score_line() {
        let none = policy("", &[]);
        let both = on(&["score_header", "move_counter"]);
        let variants = Challenges.variants(&none, &both);
        let places: Vec<Option<&toml::Value>> =
            variants.iter().map(|v| v.get(COUNTER_PLACE)).collect();
        assert_eq!(
            places,
            [
                Some(&toml::Value::String("above_score".into())),
                Some(&toml::Value::String("below_score".into()))
            ]
        );
        assert!(Challenges
            .variants(&none, &on(&["move_counter"]))
            .is_empty());
    }

    #[test]
    fn a_scenario_about_a_challenge_the_course_did_not_set_is_left_out() {
        let none = policy("", &[]);
        assert_eq!(Challenges.unset_part(&none, &GameOptions::new()), None);
        assert_eq!(
            Challenges.unset_part(&none, &on(&["six_by_six", "score_header"])),
            Some(UnsetPart {
                option: CHALLENGES,
                names: vec!["score_header", "six_by_six"],
            })
        );
        let some = policy(CHALLENGES, &["score_header"]);
        assert_eq!(Challenges.unset_part(&some, &on(&["score_header"])), None);
        assert_eq!(
            Challenges
                .unset_part(&some, &on(&["score_header", "move_counter"]))
                .map(|u| u.names),
            Some(vec!["move_counter"])
        );
    }

    #[test]
    fn both_readings_of_counts_input_and_end_are_graded_by_default() {
        let mut defaults = Policy::defaults(OPTIONS);
        let all = Challenges.variants(&defaults, &GameOptions::new());
        assert_eq!(all.len(), 2 * 2 * 2 - 1);
        // A scenario that sets the end's reading itself is judged by it alone.
        let mut pinned = GameOptions::new();
        pinned.insert(BOARD_BEFORE_END.into(), toml::Value::Boolean(false));
        let kept = Challenges.variants(&defaults, &pinned);
        assert_eq!(kept.len(), 2 * 2 - 1);
        assert!(kept
            .iter()
            .all(|v| v.get(BOARD_BEFORE_END) == pinned.get(BOARD_BEFORE_END)));
        defaults.set(BOARD_BEFORE_END, Value::Word(NEVER.into()));
        let variants = Challenges.variants(&defaults, &GameOptions::new());
        let shown: Vec<String> = variants
            .iter()
            .map(|v| toml::to_string(v).unwrap())
            .collect();
        assert_eq!(
            shown,
            [
                "count_order = \"stuck_first\"\n",
                "strict_input = true\n",
                "count_order = \"stuck_first\"\nstrict_input = true\n",
            ]
        );
        let mut one = defaults;
        one.set(COUNT_ORDER, Value::Word("opponent_first".into()));
        let variants = Challenges.variants(&one, &GameOptions::new());
        assert_eq!(variants.len(), 1);
        assert_eq!(
            variants[0].get("strict_input"),
            Some(&toml::Value::Boolean(true))
        );
    }

    #[test]
    fn tie_wordings_read_as_the_tie_line() {
        let p = policy(TIE_WORDING, &["It's a tie!"]);
        assert_eq!(Challenges.canonical(&p, "It's a tie!"), TIE);
        assert_eq!(Challenges.canonical(&p, "Tie!"), "Tie!");
        assert_eq!(
            Challenges.canonical(&policy(TIE_WORDING, &[]), "It's a tie!"),
            "It's a tie!"
        );
    }

    #[test]
    fn any_line_that_reads_as_a_tie_is_the_tie_line_by_default() {
        let p = policy(TIE_WORDING, &[ANY_TIE]);
        for tie in [
            "Tie game!!",
            "It's a draw.",
            "TIE",
            "The game is tied!",
            "tie!!",
        ] {
            assert_eq!(Challenges.canonical(&p, tie), TIE, "{tie}");
        }
        for other in [
            "w wins!!",
            "b wins the tie-break",
            "Tiebreak",
            "GAME OVER",
            "b has 4 pieces",
        ] {
            assert_eq!(Challenges.canonical(&p, other), other, "{other}");
        }
    }
}
