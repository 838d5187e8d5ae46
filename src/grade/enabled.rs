//! Which variants a class is graded under: those the course enables (the policy option
//! `variants`, in `course.toml`), beside their base dialects. A variant whose base dialect
//! has no scenario among the specs is graded alone, with no need to enable it. An enabled
//! variant that asks for exactly its base's names (one that only respells an answer) cannot
//! be told from its base by code: it takes the base's place.

use crate::error::Error;
use crate::policy::VARIANTS;
use crate::scenario::Scenario;
use crate::variant::{self, Variant};

/// A variant among the specs that grading leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub game: &'static str,
    pub variant: &'static str,
    pub base: &'static str,
    pub scenarios: usize,
}

impl std::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the specs hold variant {}/{} ({} scenario(s)), which the course does not enable: \
             submissions are graded as {} only (add `{VARIANTS} = [\"{}\"]` to course.toml to \
             grade those that answer the variant under it)",
            self.game, self.variant, self.scenarios, self.base, self.variant
        )
    }
}

/// The scenarios graded, and notes for the user: the variants left out, and the base
/// dialects an enabled variant replaces. A name in `variants` that names no
/// variant among the specs is an error (a typo must not pass silently).
pub fn enabled(scenarios: Vec<Scenario>) -> Result<(Vec<Scenario>, Vec<String>), Error> {
    let mut wanted: Vec<(&str, &str)> = Vec::new();
    for s in &scenarios {
        for name in s.policy.words(VARIANTS) {
            let source = s.policy.source.as_deref().unwrap_or("course.toml");
            if !wanted.iter().any(|(n, _)| n == name) {
                wanted.push((name, source));
            }
        }
    }
    let is_variant = |s: &Scenario| variant::find(s.game.name(), s.dialect.name).is_some();
    for (name, source) in &wanted {
        let found = scenarios
            .iter()
            .any(|s| s.dialect.name == *name && is_variant(s));
        if !found {
            let known: Vec<&str> = scenarios
                .iter()
                .filter(|s| is_variant(s))
                .map(|s| s.dialect.name)
                .fold(Vec::new(), |mut names, n| {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                    names
                });
            return Err(Error::Usage(format!(
                "{source}: key `{VARIANTS}`: no variant {name:?} among the specs graded (they hold {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    let mut left_out: Vec<LeftOut> = Vec::new();
    let mut kept = Vec::with_capacity(scenarios.len());
    for s in &scenarios {
        let Some(found) = variant::find(s.game.name(), s.dialect.name) else {
            continue;
        };
        let base_graded = scenarios
            .iter()
            .any(|other| std::ptr::eq(other.dialect, found.base));
        let on = wanted.iter().any(|(n, _)| *n == found.name);
        if base_graded && !on {
            match left_out.iter_mut().find(|l| l.variant == found.name) {
                Some(entry) => entry.scenarios += 1,
                None => left_out.push(LeftOut {
                    game: found.game.name(),
                    variant: found.name,
                    base: found.base.name,
                    scenarios: 1,
                }),
            }
        }
    }
    let replaced = replaced_bases(&scenarios, &wanted);
    for s in scenarios {
        let out = left_out
            .iter()
            .any(|l| l.game == s.game.name() && l.variant == s.dialect.name);
        let base_replaced = replaced.iter().any(|v| std::ptr::eq(v.base, s.dialect));
        if !out && !base_replaced {
            kept.push(s);
        }
    }
    let mut notes: Vec<String> = left_out.iter().map(ToString::to_string).collect();
    notes.extend(replaced.iter().map(|v| {
        format!(
            "variant {}/{} asks for the same names as {} ({}), so code cannot tell them apart: \
             the course enables it, so every submission is graded under it, not under {}",
            v.game.name(),
            v.name,
            v.base.name,
            v.base.defines.join(", "),
            v.base.name
        )
    }));
    Ok((kept, notes))
}

/// The enabled variants among the scenarios that ask for exactly their base's names (a
/// notation variant): routing cannot tell them from their base, so they take its place.
fn replaced_bases(scenarios: &[Scenario], wanted: &[(&str, &str)]) -> Vec<&'static Variant> {
    let mut found: Vec<&'static Variant> = Vec::new();
    for s in scenarios {
        let Some(v) = variant::find(s.game.name(), s.dialect.name) else {
            continue;
        };
        let mut own: Vec<&str> = v.dialect.defines.to_vec();
        let mut base: Vec<&str> = v.base.defines.to_vec();
        own.sort_unstable();
        base.sort_unstable();
        let on = wanted.iter().any(|(n, _)| *n == v.name);
        if on && own == base && !found.iter().any(|f| std::ptr::eq(*f, v)) {
            found.push(v);
        }
    }
    found
}
