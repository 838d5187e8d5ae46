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

impl CompareMode {
    pub fn as_str(self) -> &'static str {
        match self {
            CompareMode::Exact => "exact",
            CompareMode::TrailingWhitespace => "trailing-whitespace",
        }
    }
}
