//! How output is compared with the expectation: the choice a scenario and a course make.

use serde::{Deserialize, Serialize};

/// How output is compared with the expectation.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum CompareMode {
    /// Byte for byte.
    #[default]
    Exact,
    /// Spaces and tabs at line ends, and blank lines at the very end, do not count.
    TrailingWhitespace,
}

/// What a whole program's lines that the game never prints (a debug print left in) cost a
/// scenario: they fail it (`judged`), or they are left out and noted (`noted`), so that
/// one stray print fails only the scenarios about printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExtraLines {
    /// Every line counts.
    Judged,
    /// A line that no expected output of the scenario holds is left out and noted.
    Noted,
}

impl ExtraLines {
    pub fn as_str(self) -> &'static str {
        match self {
            ExtraLines::Judged => "judged",
            ExtraLines::Noted => "noted",
        }
    }
}

impl CompareMode {
    pub fn as_str(self) -> &'static str {
        match self {
            CompareMode::Exact => "exact",
            CompareMode::TrailingWhitespace => "trailing-whitespace",
        }
    }
}
