//! A scenario file's `battery` table: one scenario per rule family of the game's battery
//! (`games::battery`), named `NAME: FAMILY`, each with its own points and the parts its family
//! judges (a program protocol's family: its whole output). The steps are the battery's lines
//! for the seed; a course file or `--seed` may
//! give another seed, and [`reseed`] plays the families again under it.

use std::fmt;
use std::ops::Range;

use toml::Spanned;

use super::model::{BatteryDef, Entry, StepDef};
use super::{Kind, Scenario, Step, Steps};
use crate::error::ScenarioFileError;
use crate::games::battery::{family, Battery, Family, Plan};

/// Most games per family and moves per game a battery may ask for.
const MAX_GAMES: usize = 200;
const MAX_PLIES: usize = 500;

/// Where a battery scenario's steps come from: the game's battery, one family, a plan.
#[derive(Clone, Copy)]
pub struct Source {
    pub battery: &'static dyn Battery,
    pub family: &'static Family,
    pub plan: Plan,
    /// The line of the `battery` table, given to every step.
    line: usize,
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("family", &self.family.name)
            .field("plan", &self.plan)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// `family` of `battery` under `plan`, its steps placed at `line`.
    pub(super) fn new(
        battery: &'static dyn Battery,
        family: &'static Family,
        plan: Plan,
        line: usize,
    ) -> Source {
        Source {
            battery,
            family,
            plan,
            line,
        }
    }

    /// The steps of this family under its plan.
    pub(super) fn steps(&self) -> Vec<Step> {
        self.battery
            .lines(self.family, self.plan)
            .into_iter()
            .map(|send| Step::sending(send, self.line))
            .collect()
    }
}

/// Whether `entry` is a battery (its own `battery` table; a file-level one is an error the
/// loader reports).
pub fn is_battery(entry: &Entry) -> bool {
    entry.battery.is_some()
}

/// The scenarios of a `[[scenario]]` table holding a `battery`: `resolve` reads the table's
/// other keys as for any scenario (given a placeholder step), then each family gets its own
/// scenario.
pub fn expand(
    file: &str,
    source: &str,
    spanned: &Spanned<Entry>,
    resolve: impl Fn(&Spanned<Entry>) -> Result<Scenario, ScenarioFileError>,
) -> Result<Vec<Scenario>, ScenarioFileError> {
    let entry = spanned.get_ref();
    let Some(def) = &entry.battery else {
        return Ok(Vec::new());
    };
    let at = |span: Range<usize>, key: &str, message: String| {
        ScenarioFileError::at(file, source, span.start, Some(key), message)
    };
    for (given, key) in [
        (entry.steps.is_some(), "steps"),
        (entry.play.is_some(), "match"),
        (entry.judge.is_some(), "judge"),
    ] {
        if given {
            return Err(at(
                def.span(),
                key,
                format!("a battery scenario has no `{key}`: each rule family sets its own"),
            ));
        }
    }
    let mut template_entry = entry.clone();
    template_entry.battery = None;
    template_entry.steps = Some(vec![Spanned::new(
        def.span(),
        StepDef {
            send: Spanned::new(def.span(), String::new()),
            expect: None,
            accept: Vec::new(),
            extra_lines: None,
            judged: None,
        },
    )]);
    let template = resolve(&Spanned::new(spanned.span(), template_entry))?;
    let battery = match template.dialect.battery {
        Some(battery) => battery,
        None => {
            return Err(at(
                def.span(),
                "battery",
                format!("{} has no rule battery", template.dialect_id()),
            ))
        }
    };
    let plan = plan(def).map_err(|(key, message)| at(def.span(), key, message))?;
    let families = chosen(battery, def.get_ref())
        .map_err(|message| at(def.span(), "battery.families", message))?;
    let line = ScenarioFileError::line_col(source, def.span().start).0;
    Ok(families
        .into_iter()
        .map(|family| {
            let source = Source::new(battery, family, plan, line);
            let mut scenario = template.clone();
            scenario.name = format!("{}: {}", template.name, family.name);
            // A program protocol's output is judged whole.
            scenario.judge = (!family.judge.is_empty()).then(|| family.judge.to_vec());
            scenario.steps = Steps::played_by(source);
            scenario.kind = Kind::Battery(source);
            scenario
        })
        .collect())
}

fn plan(def: &Spanned<BatteryDef>) -> Result<Plan, (&'static str, String)> {
    let def = def.get_ref();
    let bounded = |value: Option<usize>, default, most, key: &'static str| match value {
        None => Ok(default),
        Some(n) if (1..=most).contains(&n) => Ok(n),
        Some(n) => Err((key, format!("{key} is from 1 to {most}; found {n}"))),
    };
    Ok(Plan {
        seed: def.seed.unwrap_or(Plan::DEFAULT_SEED),
        games: bounded(def.games, Plan::DEFAULT_GAMES, MAX_GAMES, "battery.games")?,
        plies: bounded(def.plies, Plan::DEFAULT_PLIES, MAX_PLIES, "battery.plies")?,
    })
}

fn chosen(battery: &dyn Battery, def: &BatteryDef) -> Result<Vec<&'static Family>, String> {
    let all = battery.families();
    match &def.families {
        None => Ok(all.iter().collect()),
        Some(names) if names.is_empty() => Err("`families` names no family".into()),
        Some(names) => names
            .iter()
            .map(|name| {
                family(all, name).ok_or_else(|| {
                    format!(
                        "unknown family {name:?}; expected some of {}",
                        all.iter()
                            .map(|f| format!("{:?}", f.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            })
            .collect(),
    }
}

/// Plays every battery scenario again from `seed` (a course file's, or `--seed`).
pub fn reseed(scenario: &mut Scenario, seed: u64) {
    if let Kind::Battery(source) = &mut scenario.kind {
        if source.plan.seed != seed {
            source.plan.seed = seed;
            scenario.steps = Steps::played_by(*source);
        }
    }
}
