//! What a dialect's course-policy options are and do ([`crate::policy`]): the options a
//! course file may set for it, the spellings they let through, and the optional rules under
//! which a submission is also graded.

use std::borrow::Cow;

use super::GameOptions;
use crate::policy::{Policy, PolicyOption};

/// A dialect's course-policy options and their effect, given by its [`super::Dialect::policy`].
pub trait PolicyRules: Sync {
    /// The options the dialect understands besides [`crate::policy::COMMON`] (a common key
    /// listed here gets this default instead).
    fn options(&self) -> &'static [PolicyOption];

    /// One line in the spelling compared under the policy's accepted spellings, applied to
    /// expected (written or the reference's) and actual output alike, after
    /// [`super::Game::normalize_line`]. Unchanged by default.
    fn canonical<'a>(&self, _policy: &Policy, line: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(line)
    }

    /// The scenario's options as the course grades them, where the policy requires a rule
    /// the scenario leaves to its default (chess's `draw_rules = "required"`): the reference
    /// then answers under these, and a written `expect` holds only where it answers as under
    /// the scenario's own options. None by default: the scenario is graded as written.
    fn required(&self, _policy: &Policy, _options: &GameOptions) -> Option<GameOptions> {
        None
    }

    /// The optional rules the policy accepts, as other `options` tables under which a
    /// submission that implements them is also graded (each gives the scenario another
    /// expectation). None by default.
    fn variants(&self, _policy: &Policy, _options: &GameOptions) -> Vec<GameOptions> {
        Vec::new()
    }

    /// The optional part of the handout a scenario under `options` tests that the policy
    /// does not set, if any: such a scenario is left out of every run under that policy, so
    /// a program that does only the required part is never asked for more. None by default.
    fn unset_part(&self, _policy: &Policy, _options: &GameOptions) -> Option<UnsetPart> {
        None
    }
}

/// The optional parts of a handout that a course has not set, as [`PolicyRules::unset_part`]
/// names them: the words of a list option of the policy that would set them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsetPart {
    /// The list option that sets optional parts (`challenges`).
    pub option: &'static str,
    /// The words it would need besides those it holds (`score_header`).
    pub names: Vec<&'static str>,
}

/// Options that change no line and add no rules: only their values are read (as the
/// common `whitespace` option is, by the comparison).
pub struct OptionsOnly(pub &'static [PolicyOption]);

impl PolicyRules for OptionsOnly {
    fn options(&self) -> &'static [PolicyOption] {
        self.0
    }
}

/// A dialect with no policy options of its own.
pub static NO_POLICY_RULES: OptionsOnly = OptionsOnly(&[]);
