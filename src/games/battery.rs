//! Rule batteries: a game's reference plays many seeded games against a submission and, at
//! each position, also tries the moves a buggy program most likely gets wrong, grouped by
//! rule family (castling, en passant, ...). Each family becomes one scenario with its own
//! points, so one broken rule costs its family once however many games show it.
//!
//! A game that has a battery lists its families and writes each family's lines; the
//! scenario loader (`scenario::battery`) turns a file's `[battery]` table into one scenario
//! per family. The lines are a call protocol's commands (a battery starts each of its games
//! with the dialect's new-game command or sets its position up, so the whole family runs in
//! one process), or what a player types into a program protocol's program: one game, since
//! the program ends with it.

use crate::rng::Rng;

/// One rule family of a game's battery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    /// Its name in scenario files, reports and points (`castling`).
    pub name: &'static str,
    /// What it checks, for reports and the README.
    pub about: &'static str,
    /// The response parts its scenario judges.
    pub judge: &'static [&'static str],
}

/// How much a battery plays: from `seed`, `games` games of each family, each at most
/// `plies` moves long (the moves that steer it to its positions included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub seed: u64,
    pub games: usize,
    pub plies: usize,
}

impl Plan {
    pub const DEFAULT_GAMES: usize = 6;
    pub const DEFAULT_PLIES: usize = 40;
    /// The seed of a battery that names none (a course file sets its own each term).
    pub const DEFAULT_SEED: u64 = 2026;
}

/// A game's battery for one dialect.
pub trait Battery: Sync {
    /// Every family, in report order.
    fn families(&self) -> &'static [Family];

    /// The lines one family sends under `plan`, all defined by the protocol (so a correct
    /// submission answers each exactly as the reference does). The same plan gives the same
    /// lines.
    fn lines(&self, family: &Family, plan: Plan) -> Vec<String>;
}

impl Plan {
    /// The random numbers of one family under this plan: each family its own stream, so
    /// choosing fewer families plays the same games in each.
    pub fn rng(&self, family: &Family) -> Rng {
        let salt = family
            .name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        Rng::new(self.seed ^ salt)
    }
}

/// The family of that name among `families`.
pub fn family(families: &'static [Family], name: &str) -> Option<&'static Family> {
    families.iter().find(|f| f.name == name)
}
