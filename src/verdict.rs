//! The verdict on one scenario: the vocabulary shared by the harness, the games' match play
//! and the reports.

use serde::{Deserialize, Serialize};

use crate::points::Points;

/// The most points a scenario (or a match's award) may be worth: totals stay far from the
/// limits of their integers, however many scenarios a course has.
pub const MAX_POINTS: Points = Points::whole(10_000);

/// The verdict on one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    /// The output differs (see the first divergence).
    Wrong,
    /// The board state is right but its text is not.
    Presentation,
    Timeout,
    /// The program died (exit status or signal).
    Crash,
    OutputLimit,
    MemoryLimit,
    /// A harness or scenario problem: never counted against a student.
    Error,
}

impl Verdict {
    pub const ALL: [Verdict; 8] = [
        Verdict::Pass,
        Verdict::Wrong,
        Verdict::Presentation,
        Verdict::Timeout,
        Verdict::Crash,
        Verdict::OutputLimit,
        Verdict::MemoryLimit,
        Verdict::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Wrong => "wrong",
            Verdict::Presentation => "presentation",
            Verdict::Timeout => "timeout",
            Verdict::Crash => "crash",
            Verdict::OutputLimit => "output-limit",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::Error => "error",
        }
    }

    pub fn passed(self) -> bool {
        self == Verdict::Pass
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
