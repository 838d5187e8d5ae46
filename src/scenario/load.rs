//! Reading scenario files: TOML to [`Entry`] tables, then defaults merged and every name
//! resolved into a [`Scenario`]. Every problem names the file, line, column and key.

use std::ops::Range;
use std::time::Duration;

use toml::Spanned;

use super::code::{self, CodeCheck};
use super::lines::LineIndex;
use super::model::{Entry, HandoutDef, MatchDef, StepDef, Visibility};
use super::{battery, Kind, Scenario, Step};
use crate::compare::CompareMode;
use crate::error::ScenarioFileError;
use crate::execution::bounds;
use crate::games::variant::Catalogue;
use crate::games::{self, Dialect, Game, Protocol};
use crate::points::Points;
use crate::policy::Policy;
use crate::verdict::MAX_POINTS;

/// Default wall-clock limit for a scenario.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Parses one scenario file, whose dialects are built in or bundled variants. `file` is the
/// name used in messages and reports.
pub fn parse_file(file: &str, source: &str) -> Result<Vec<Scenario>, ScenarioFileError> {
    parse_file_in(file, source, Catalogue::bundled())
}

/// Parses one scenario file, whose dialects are built in or among `variants`.
pub fn parse_file_in(
    file: &str,
    source: &str,
    variants: &Catalogue,
) -> Result<Vec<Scenario>, ScenarioFileError> {
    let at = |span: Range<usize>, key: Option<&str>, message: String| {
        ScenarioFileError::at(file, source, span.start, key, message)
    };
    let deserializer = toml::Deserializer::new(source);
    let mut top: Entry = serde_path_to_error::deserialize(deserializer).map_err(|error| {
        // Spanned values show up in serde's path under a private name; readers need none.
        let path = error
            .path()
            .to_string()
            .replace(".$__serde_spanned_private_value", "")
            .replace("$__serde_spanned_private_value", "");
        let inner = error.into_inner();
        let message = inner.message().to_string();
        let key = unknown_key(&message).or_else(|| (path != ".").then(|| path.clone()));
        let start = inner.span().map_or(0, |s| s.start);
        ScenarioFileError::at(
            file,
            source,
            start,
            key.as_deref(),
            describe(&message, &path),
        )
    })?;

    // The file's own settings are the defaults of its [[scenario]] tables, taken apart
    // rather than copied (a file of many scenarios is most of what loading reads).
    let listed = top.scenario.take();
    let has_list = listed.is_some();
    let entries: Vec<Spanned<Entry>> =
        match (listed, &top.steps) {
            (Some(_), Some(steps)) => {
                let span = steps.first().map_or(0..0, |s| s.span());
                return Err(at(
                    span,
                    Some("steps"),
                    "a file with [[scenario]] tables cannot also have top-level steps".into(),
                ));
            }
            (Some(list), None) => list,
            (None, Some(_)) => vec![Spanned::new(0..0, top.clone())],
            (None, None) if top.battery.is_some() || top.code.is_some() => {
                vec![Spanned::new(0..0, top.clone())]
            }
            (None, None) => return Err(at(
                0..0,
                Some("scenario"),
                "no scenarios: add [[scenario]] tables (or `name` and `steps` at the top level)"
                    .into(),
            )),
        };
    let defaults = if has_list { top } else { Entry::default() };
    if let Some(battery) = &defaults.battery {
        return Err(at(
            battery.span(),
            Some("battery"),
            "`battery` cannot be a file-level default; give it to a [[scenario]]".into(),
        ));
    }
    if let Some(code) = &defaults.code {
        return Err(at(
            code.span(),
            Some("code"),
            "`code` cannot be a file-level default; give it to a [[scenario]]".into(),
        ));
    }
    if let Some(name) = &defaults.name {
        return Err(at(
            name.span(),
            Some("name"),
            "`name` cannot be a file-level default; give each [[scenario]] its own".into(),
        ));
    }

    let mut scenarios: Vec<Scenario> = Vec::with_capacity(entries.len());
    let lines = LineIndex::new(source);
    for entry in &entries {
        let resolved = if battery::is_battery(entry.get_ref()) {
            battery::expand(file, source, entry, |e| {
                resolve(file, source, &lines, variants, &defaults, e)
            })?
        } else {
            vec![resolve(file, source, &lines, variants, &defaults, entry)?]
        };
        for scenario in resolved {
            push_unique(file, source, &mut scenarios, entry, scenario)?;
        }
    }
    Ok(scenarios)
}

/// Adds `scenario`, unless one of that name came before it in the file.
fn push_unique(
    file: &str,
    source: &str,
    scenarios: &mut Vec<Scenario>,
    entry: &Spanned<Entry>,
    scenario: Scenario,
) -> Result<(), ScenarioFileError> {
    let at = |span: Range<usize>, key: Option<&str>, message: String| {
        ScenarioFileError::at(file, source, span.start, key, message)
    };
    {
        if let Some(previous) = scenarios.iter().find(|s| s.name == scenario.name) {
            return Err(at(
                entry
                    .get_ref()
                    .name
                    .as_ref()
                    .map_or(entry.span(), |n| n.span()),
                Some("name"),
                format!(
                    "scenario name {:?} is used twice in this file (also line {})",
                    scenario.name, previous.line
                ),
            ));
        }
        scenarios.push(scenario);
    }
    Ok(())
}

/// `unknown field `sned`, expected ...` gives `sned`.
fn unknown_key(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(rest[..rest.find('`')?].to_string())
}

fn describe(message: &str, path: &str) -> String {
    let message = message.trim_end();
    if path == "." || path.is_empty() {
        message.to_string()
    } else {
        format!("{message} (at {path})")
    }
}

/// A value from the scenario, else from the file defaults.
fn pick<'a, T>(entry: &'a Option<T>, default: &'a Option<T>) -> Option<&'a T> {
    entry.as_ref().or(default.as_ref())
}

fn resolve(
    file: &str,
    source: &str,
    lines: &LineIndex,
    variants: &Catalogue,
    defaults: &Entry,
    spanned: &Spanned<Entry>,
) -> Result<Scenario, ScenarioFileError> {
    let entry = spanned.get_ref();
    let at = |span: Range<usize>, key: &str, message: String| {
        ScenarioFileError::at(file, source, span.start, Some(key), message)
    };
    if let Some(nested) = &entry.scenario {
        let span = nested.first().map_or(spanned.span(), |s| s.span());
        return Err(at(
            span,
            "scenario",
            "a [[scenario]] cannot hold scenarios of its own".into(),
        ));
    }
    let name = entry
        .name
        .as_ref()
        .ok_or_else(|| at(spanned.span(), "name", "the scenario has no `name`".into()))?;
    if name.get_ref().trim().is_empty() {
        return Err(at(
            name.span(),
            "name",
            "the scenario's `name` is empty".into(),
        ));
    }
    let game_value = pick(&entry.game, &defaults.game).ok_or_else(|| {
        at(
            name.span(),
            "game",
            format!(
                "scenario {:?} names no `game` (one of {})",
                name.get_ref(),
                games::names().join(", ")
            ),
        )
    })?;
    let game = games::lookup(game_value.get_ref())
        .map_err(|e| at(game_value.span(), "game", e.to_string()))?;
    let dialect_names: Vec<&str> = game.dialects().iter().map(|d| d.name).collect();
    let dialect = match pick(&entry.dialect, &defaults.dialect) {
        Some(value) => variants
            .lookup_dialect(game, value.get_ref())
            .map_err(|e| at(value.span(), "dialect", e.to_string()))?,
        // A dialect graded with another's programs is never the one meant by default.
        None if routed_dialects(game).len() == 1 => routed_dialects(game)[0],
        None => {
            return Err(at(
                name.span(),
                "dialect",
                format!(
                    "scenario {:?} names no `dialect` (one of {})",
                    name.get_ref(),
                    dialect_names.join(", ")
                ),
            ))
        }
    };

    let points = match pick(&entry.points, &defaults.points) {
        Some(p) if !(0.0..=MAX_POINTS.as_f64()).contains(p.get_ref()) => {
            return Err(at(
                p.span(),
                "points",
                format!(
                    "points must be a number from 0 to {MAX_POINTS}, not {}",
                    p.get_ref()
                ),
            ))
        }
        Some(p) => Points::exact(*p.get_ref()).ok_or_else(|| {
            at(
                p.span(),
                "points",
                format!(
                    "points are counted in thousandths of a point, and {} is finer",
                    p.get_ref()
                ),
            )
        })?,
        None => Points::whole(1),
    };
    let time_limit = match pick(&entry.time_limit, &defaults.time_limit) {
        Some(t) => bounds::time_limit(*t.get_ref()).map_err(|e| {
            at(
                t.span(),
                "time_limit",
                format!("{e}; found {}", t.get_ref()),
            )
        })?,
        None => DEFAULT_TIME_LIMIT,
    };
    let options = pick(&entry.options, &defaults.options)
        .cloned()
        .unwrap_or_else(|| Spanned::new(0..0, toml::Table::new()));
    // Options are checked here, by starting a reference session, so that a typo is reported
    // at load time with its place in the file.
    game.start(dialect, options.get_ref())
        .map_err(|e| at(options.span(), &format!("options.{}", e.key), e.to_string()))?;
    let play = resolve_match(file, source, game, dialect, defaults, spanned)?;
    let judge = match pick(&entry.judge, &defaults.judge) {
        None => None,
        Some(parts) => Some(
            judged_parts(game, dialect, parts)
                .map_err(|message| at(parts.span(), "judge", message))?,
        ),
    };

    let handout = merge_handout(
        entry.handout.as_ref(),
        defaults.handout.as_ref(),
        dialect.handout,
    );
    let opening = entry.opening.clone();
    if opening.is_some() && dialect.protocol == Protocol::Call {
        return Err(at(
            spanned.span(),
            "opening",
            format!(
                "`opening` is for program protocols; {}/{} is a call protocol",
                game.name(),
                dialect.name
            ),
        ));
    }
    let code = resolve_code(file, source, spanned, play.is_some())?;
    let no_steps = Vec::new();
    let given_steps = entry
        .steps
        .as_ref()
        .or((play.is_some() || code.is_some()).then_some(&no_steps));
    let steps = given_steps.ok_or_else(|| {
        at(
            spanned.span(),
            "steps",
            format!("scenario {:?} has no `steps`", name.get_ref()),
        )
    })?;
    if steps.is_empty() && dialect.protocol == Protocol::Call && play.is_none() && code.is_none() {
        return Err(at(
            spanned.span(),
            "steps",
            format!("scenario {:?} has no steps", name.get_ref()),
        ));
    }
    let steps = steps
        .iter()
        .map(|s| resolve_step(file, source, lines, s, dialect.protocol == Protocol::Call))
        .collect::<Result<Vec<_>, _>>()?;
    if !steps.is_empty() && steps.iter().all(|s| !s.judged) {
        return Err(at(
            spanned.span(),
            "steps",
            format!(
                "every step of scenario {:?} has `judged = false`: it would judge nothing",
                name.get_ref()
            ),
        ));
    }

    Ok(Scenario {
        file: file.to_string(),
        line: lines.line(name.span().start),
        name: name.get_ref().clone(),
        game,
        dialect,
        handout,
        points: play.as_ref().map_or(points, MatchDef::max_points),
        partial_credit: pick(&entry.partial_credit, &defaults.partial_credit)
            .copied()
            .unwrap_or(false),
        group: pick(&entry.group, &defaults.group).cloned(),
        visibility: pick(&entry.visibility, &defaults.visibility)
            .copied()
            .unwrap_or(Visibility::Visible),
        hidden_message: pick(&entry.hidden_message, &defaults.hidden_message).cloned(),
        tags: merged_tags(&defaults.tags, &entry.tags),
        time_limit,
        compare: pick(&entry.compare, &defaults.compare)
            .copied()
            .unwrap_or(CompareMode::Exact),
        extra_lines: pick(&entry.extra_lines, &defaults.extra_lines).copied(),
        judge,
        options: options.into_inner(),
        policy: Policy::defaults(dialect.policy.options()),
        opening,
        steps: steps.into(),
        kind: match (play, code) {
            (Some(play), _) => Kind::Match(play),
            (None, Some(code)) => Kind::Code(code),
            (None, None) => Kind::Steps,
        },
    })
}

/// The scenario's `[scenario.code]` table, checked: a code check has no steps and no match.
fn resolve_code(
    file: &str,
    source: &str,
    spanned: &Spanned<Entry>,
    is_match: bool,
) -> Result<Option<CodeCheck>, ScenarioFileError> {
    let entry = spanned.get_ref();
    let Some(code) = &entry.code else {
        return Ok(None);
    };
    let at = |key: &str, message: String| {
        ScenarioFileError::at(file, source, code.span().start, Some(key), message)
    };
    if entry.steps.is_some() {
        return Err(at(
            "steps",
            "a code check reads the submission's code: it has no `steps`".into(),
        ));
    }
    if is_match || entry.battery.is_some() {
        return Err(at(
            "code",
            "a scenario is a code check, a match or a battery, not several".into(),
        ));
    }
    code::resolve(code.get_ref())
        .map(Some)
        .map_err(|p| at(&p.key, p.message))
}

/// The scenario's `[scenario.match]` table, checked against its game. A match has no steps,
/// and its points are the sum of its awards'.
fn resolve_match(
    file: &str,
    source: &str,
    game: &dyn Game,
    dialect: &Dialect,
    defaults: &Entry,
    spanned: &Spanned<Entry>,
) -> Result<Option<MatchDef>, ScenarioFileError> {
    let entry = spanned.get_ref();
    let Some(play) = pick(&entry.play, &defaults.play) else {
        return Ok(None);
    };
    let at = |span: Range<usize>, key: &str, message: &str| {
        ScenarioFileError::at(file, source, span.start, Some(key), message.to_string())
    };
    if entry.steps.is_some() {
        return Err(at(
            spanned.span(),
            "steps",
            "a match scenario has no `steps`",
        ));
    }
    if let Some(points) = &entry.points {
        return Err(at(
            points.span(),
            "points",
            "a match scenario's points are the sum of its awards' `points`",
        ));
    }
    crate::games::matches::check(game, dialect, play.get_ref())
        .map_err(|e| at(play.span(), &format!("match.{}", e.key), &e.message))?;
    Ok(Some(play.get_ref().clone()))
}

/// The part names of a `judge` list, each one the dialect's.
fn judged_parts(
    game: &dyn Game,
    dialect: &Dialect,
    parts: &Spanned<Vec<String>>,
) -> Result<Vec<&'static str>, String> {
    let known = dialect.part_names();
    if known.is_empty() {
        return Err(format!(
            "{}/{} judges its output whole; `judge` is for call protocols whose responses have parts",
            game.name(),
            dialect.name
        ));
    }
    if parts.get_ref().is_empty() {
        return Err(format!(
            "`judge` names no part; expected some of {}",
            known.join(", ")
        ));
    }
    parts
        .get_ref()
        .iter()
        .map(|name| {
            known.iter().copied().find(|k| k == name).ok_or_else(|| {
                format!(
                    "unknown part {name:?} of {}/{}; expected one of {}",
                    game.name(),
                    dialect.name,
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// A scenario's tags add to the file's.
fn merged_tags(file: &Option<Vec<String>>, scenario: &Option<Vec<String>>) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in file.iter().chain(scenario.iter()).flatten() {
        if !tags.contains(tag) {
            tags.push(tag.clone());
        }
    }
    tags
}

fn merge_handout(
    entry: Option<&HandoutDef>,
    default: Option<&HandoutDef>,
    dialect_seed: &str,
) -> HandoutDef {
    let field = |f: fn(&HandoutDef) -> &Option<String>| {
        entry
            .and_then(|h| f(h).clone())
            .or_else(|| default.and_then(|h| f(h).clone()))
    };
    HandoutDef {
        seed: field(|h| &h.seed).or_else(|| Some(dialect_seed.to_string())),
        section: field(|h| &h.section),
    }
}

fn resolve_step(
    file: &str,
    source: &str,
    lines: &LineIndex,
    spanned: &Spanned<StepDef>,
    call_protocol: bool,
) -> Result<Step, ScenarioFileError> {
    let step = spanned.get_ref();
    if step.judged == Some(false) && !call_protocol {
        return Err(ScenarioFileError::at(
            file,
            source,
            spanned.span().start,
            Some("judged"),
            "`judged = false` is for call protocols, whose responses are judged one by one; \
             a program's output is judged whole"
                .into(),
        ));
    }
    let send = step.send.get_ref();
    if send.contains('\n') || send.contains('\r') {
        return Err(ScenarioFileError::at(
            file,
            source,
            step.send.span().start,
            Some("send"),
            "`send` is one line; give each line its own step".into(),
        ));
    }
    if !step.accept.is_empty() && step.expect.is_none() {
        return Err(ScenarioFileError::at(
            file,
            source,
            spanned.span().start,
            Some("accept"),
            "`accept` lists alternatives to `expect`; give `expect` too".into(),
        ));
    }
    Ok(Step {
        send: send.clone(),
        expect: step.expect.clone(),
        accept: step.accept.clone(),
        extra_lines: step.extra_lines,
        judged: step.judged.unwrap_or(true),
        line: lines.line(spanned.span().start),
    })
}

/// The dialects of `game` that submissions are routed to (all but those graded with
/// another's programs).
fn routed_dialects(game: &dyn crate::games::Game) -> Vec<&'static crate::games::Dialect> {
    game.dialects()
        .iter()
        .filter(|d| d.graded_with.is_none())
        .collect()
}
