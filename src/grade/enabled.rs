//! Which variants a class is graded under: those the course enables (the policy option
//! `variants`, in `course.toml`), beside their base dialects. A variant whose base dialect
//! has no scenario among the specs is graded alone, with no need to enable it. An enabled
//! variant that asks for exactly its base's names (one that only respells an answer) cannot
//! be told from its base by code: it takes the base's place.

use crate::error::{ClassError, Error};
use crate::games::{Dialect, Game};
use crate::policy::VARIANTS;
use crate::scenario::Scenario;

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

/// The scenarios a class is graded on, and what the instructor is told of the variants.
#[derive(Debug)]
pub struct Enabled {
    pub scenarios: Vec<Scenario>,
    /// The variants left out: the course does not enable them.
    pub left_out: Vec<LeftOut>,
    /// The base dialects an enabled variant replaces, each said.
    pub replaced: Vec<String>,
}

impl Enabled {
    /// Everything a class run tells its instructor: the variants left out, then the bases
    /// replaced.
    pub fn notes(&self) -> Vec<String> {
        (self.left_out.iter().map(ToString::to_string))
            .chain(self.replaced.iter().cloned())
            .collect()
    }
}

/// Whether a name in `variants` that names no variant among the scenarios is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownVariant {
    /// A class run's specs are the course's: a typo must not pass silently.
    Refused,
    /// A student's self-check may run some of the course's files only.
    Passed,
}

/// The scenarios graded, the variants left out and the base dialects an enabled variant
/// replaces. A name in `variants` that names no variant among the specs is an error when
/// `unknown` refuses it.
pub fn enabled(scenarios: Vec<Scenario>, unknown: UnknownVariant) -> Result<Enabled, Error> {
    let mut wanted: Vec<(&str, &str)> = Vec::new();
    for s in &scenarios {
        for name in s.policy.words(VARIANTS) {
            let source = s.policy.source.as_deref().unwrap_or("course.toml");
            if !wanted.iter().any(|(n, _)| n == name) {
                wanted.push((name, source));
            }
        }
    }
    // Each variant among the specs once, in order of appearance, with its scenario count.
    let mut present: Vec<(Present, usize)> = Vec::new();
    for s in scenarios.iter().filter(|s| s.dialect.is_variant()) {
        match present
            .iter_mut()
            .find(|(v, _)| std::ptr::eq(v.dialect, s.dialect))
        {
            Some((_, count)) => *count += 1,
            None => present.push((
                Present {
                    game: s.game,
                    dialect: s.dialect,
                },
                1,
            )),
        }
    }
    for (name, source) in wanted.iter().filter(|_| unknown == UnknownVariant::Refused) {
        if !present.iter().any(|(v, _)| v.name() == *name) {
            return Err(ClassError::VariantNotGraded {
                file: source.to_string(),
                key: VARIANTS,
                name: name.to_string(),
                graded: present.iter().map(|(v, _)| v.name().to_string()).collect(),
            }
            .into());
        }
    }
    let on = |v: &Present| wanted.iter().any(|(n, _)| *n == v.name());
    let base_graded = |v: &Present| scenarios.iter().any(|s| std::ptr::eq(s.dialect, v.base()));
    let left_out: Vec<LeftOut> = present
        .iter()
        .filter(|(v, _)| !on(v) && base_graded(v))
        .map(|(v, count)| LeftOut {
            game: v.game.name(),
            variant: v.name(),
            base: v.base().name,
            scenarios: *count,
        })
        .collect();
    // An enabled variant that asks for exactly its base's names (a notation variant):
    // routing cannot tell it from its base, so it takes the base's place.
    let replaced: Vec<Present> = present
        .iter()
        .map(|(v, _)| *v)
        .filter(|v| on(v) && same_names(v.dialect.defines, v.base().defines))
        .collect();
    let kept = scenarios
        .into_iter()
        .filter(|s| {
            let out = left_out
                .iter()
                .any(|l| l.game == s.game.name() && l.variant == s.dialect.name);
            !out && !replaced.iter().any(|v| std::ptr::eq(v.base(), s.dialect))
        })
        .collect();
    let replaced = replaced.iter().map(|v| {
        format!(
            "variant {}/{} asks for the same names as {} ({}), so code cannot tell them apart: \
             the course enables it, so every submission is graded under it, not under {}",
            v.game.name(),
            v.name(),
            v.base().name,
            v.base().defines.join(", "),
            v.base().name
        )
    });
    Ok(Enabled {
        scenarios: kept,
        left_out,
        replaced: replaced.collect(),
    })
}

/// A variant dialect among the specs, with its game.
#[derive(Clone, Copy)]
struct Present {
    game: &'static dyn Game,
    dialect: &'static Dialect,
}

impl Present {
    fn name(&self) -> &'static str {
        self.dialect.name
    }

    fn base(&self) -> &'static Dialect {
        self.dialect.base()
    }
}

/// Whether two lists of names hold the same names, in any order.
fn same_names(a: &[&str], b: &[&str]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}
