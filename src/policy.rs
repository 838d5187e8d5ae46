//! The course policy: the course's choices that apply to every scenario of a dialect, written
//! once in a `course.toml` beside the specs (see `specs/README.md`).
//!
//! Two options hold for every dialect ([`COMMON`]: `whitespace`, `presentation_credit`); a
//! game declares the others its dialects understand (`Dialect::policy`):
//! accepted spellings, which the game applies to expected and actual output alike when they
//! are compared, and optional rules, under which a submission that implements them is also
//! graded. Every option applies to written expectations as well as to the reference's.

//!
//! This module is the vocabulary games and scenarios share; reading a course file is
//! `scenario::course`.

use std::collections::BTreeMap;

use crate::compare::{CompareMode, ExtraLines};

/// The default of an option, and so its kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DefaultValue {
    Flag(bool),
    /// One word of the option's `choices`.
    Word(&'static str),
    /// A number from 0 to 1.
    Share(f64),
    /// A list of words (of the option's `choices` when it has any).
    Words(&'static [&'static str]),
}

/// One course-policy option: its key, default, the words it takes, and what it does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolicyOption {
    pub key: &'static str,
    pub default: DefaultValue,
    /// The words a `Word` or `Words` option may take; empty for any.
    pub choices: &'static [&'static str],
    pub about: &'static str,
}

/// A value set by a course file or taken from a default.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Flag(bool),
    Word(String),
    Share(f64),
    Words(Vec<String>),
}

impl From<DefaultValue> for Value {
    fn from(default: DefaultValue) -> Value {
        match default {
            DefaultValue::Flag(b) => Value::Flag(b),
            DefaultValue::Word(w) => Value::Word(w.to_string()),
            DefaultValue::Share(s) => Value::Share(s),
            DefaultValue::Words(w) => Value::Words(w.iter().map(|s| s.to_string()).collect()),
        }
    }
}

/// The options every dialect understands. A dialect may list one of these keys among its own
/// options to give it another default (csc110 ignores trailing whitespace).
pub const COMMON: &[PolicyOption] = &[
    PolicyOption {
        key: "whitespace",
        default: DefaultValue::Word("exact"),
        choices: &["exact", "trailing"],
        about: "`trailing`: spaces and tabs at line ends, and blank lines at the very end, do not count",
    },
    PolicyOption {
        key: "presentation_credit",
        default: DefaultValue::Share(0.0),
        choices: &[],
        about: "the share of a scenario's points earned by a `presentation` verdict (right content, other printing)",
    },
    PolicyOption {
        key: EXTRA_LINES,
        default: DefaultValue::Word("judged"),
        choices: &["judged", "noted"],
        about: "what a whole program's lines that the game never prints (a debug print) cost a scenario that does not set `extra_lines`: they fail it (`judged`), or are left out and noted (`noted`)",
    },
    PolicyOption {
        key: VARIANTS,
        default: DefaultValue::Words(&[]),
        choices: &[],
        about: "the course variants of a dialect (variant files among the specs) that `grade` routes submissions to, beside their base dialect",
    },
    PolicyOption {
        key: CODE_CHECKS,
        default: DefaultValue::Words(&[CODE_CHECKS_HANDOUT]),
        choices: CODE_CHECK_WORDS,
        about: "the code checks graded, by rule: `handout` for those the bundled specs grade by default (what the handout says it grades), then any other rule to add; a list without `handout` grades only the rules it names, `[]` none",
    },
];

/// The key of the [`COMMON`] option that says which code checks are graded.
pub const CODE_CHECKS: &str = "code_checks";
/// The word of [`CODE_CHECKS`] for the checks graded by default.
pub const CODE_CHECKS_HANDOUT: &str = "handout";
/// The words [`CODE_CHECKS`] takes: `handout`, then every rule of a code check.
pub const CODE_CHECK_WORDS: &[&str] = &[
    CODE_CHECKS_HANDOUT,
    "outside_functions",
    "unchanged",
    "string_literals",
    "required",
    "docstrings",
    "header_comment",
    "no_print",
    "forbidden_imports",
    "line_length",
    "naming",
    "no_global",
];

/// The key of the [`COMMON`] option that says what lines the game never prints cost.
pub const EXTRA_LINES: &str = "extra_lines";

/// The key of the [`COMMON`] option that enables variants for grading.
pub const VARIANTS: &str = "variants";

/// The options a dialect understands, given its own (its game's `policy_rules`): the
/// common ones with the dialect's defaults, then its own.
pub fn options_of(own: &[PolicyOption]) -> Vec<PolicyOption> {
    let mut all: Vec<PolicyOption> = COMMON
        .iter()
        .map(|common| *own.iter().find(|o| o.key == common.key).unwrap_or(common))
        .collect();
    all.extend(
        own.iter()
            .filter(|o| !COMMON.iter().any(|common| common.key == o.key)),
    );
    all
}

/// One dialect's policy: its defaults, with what a course file sets.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Policy {
    values: BTreeMap<&'static str, Value>,
    /// The course file it comes from, if any.
    pub source: Option<String>,
}

impl Policy {
    /// The defaults of a dialect whose own options are `own`, as if no course file set
    /// anything.
    pub fn defaults(own: &[PolicyOption]) -> Policy {
        Policy {
            values: options_of(own)
                .into_iter()
                .map(|o| (o.key, Value::from(o.default)))
                .collect(),
            source: None,
        }
    }

    pub(crate) fn set(&mut self, key: &'static str, value: Value) {
        self.values.insert(key, value);
    }

    /// A flag option (false when the dialect does not have it).
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.values.get(key), Some(Value::Flag(true)))
    }

    /// A word option (empty when the dialect does not have it).
    pub fn word(&self, key: &str) -> &str {
        match self.values.get(key) {
            Some(Value::Word(w)) => w,
            _ => "",
        }
    }

    /// A list option (empty when the dialect does not have it).
    pub fn words(&self, key: &str) -> &[String] {
        match self.values.get(key) {
            Some(Value::Words(w)) => w,
            _ => &[],
        }
    }

    /// How output is compared, before a scenario's own `compare`.
    pub fn whitespace(&self) -> CompareMode {
        match self.word("whitespace") {
            "trailing" => CompareMode::TrailingWhitespace,
            _ => CompareMode::Exact,
        }
    }

    /// What lines the game never prints cost a scenario that does not say.
    pub fn extra_lines(&self) -> ExtraLines {
        match self.word(EXTRA_LINES) {
            "noted" => ExtraLines::Noted,
            _ => ExtraLines::Judged,
        }
    }

    /// The share of the points a `presentation` verdict earns.
    pub fn presentation_credit(&self) -> f64 {
        match self.values.get("presentation_credit") {
            Some(Value::Share(s)) => *s,
            _ => 0.0,
        }
    }
}
