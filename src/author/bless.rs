//! Blessing: rewriting the expectations of scenario files from the reference. Each file is
//! edited in place (its comments, order and layout kept): only an `expect` (or `opening`)
//! that no longer matches what the reference answers is replaced, with the step's `accept`
//! list set to the reference's other accepted answers. Wildcard (`...`) and lenient
//! expectations that still match are left alone. Steps without `expect` are left alone too,
//! unless filling is asked for: then the reference's answer is written there, so that the
//! file states what it expects and a later change of the reference shows.

use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::write::toml_string;
use crate::compare::{match_steps, prepare, StepPattern};
use crate::error::{Error, ScenarioFileError};
use crate::games::variant::Catalogue;
use crate::games::Reply;
use crate::harness::judge::normalize_output;
use crate::scenario::load::parse_file_in;
use crate::scenario::sources::{read_variants, SourceFile};
use crate::scenario::Scenario;

/// One expectation rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub scenario: String,
    /// Step number: 0 for the opening, else 1-based.
    pub step: usize,
    /// Line of the step (or scenario, for the opening) in the file.
    pub line: usize,
    pub send: Option<String>,
    pub old: String,
    pub new: String,
}

/// Which expectations blessing writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mode {
    /// Only those written and no longer matching.
    #[default]
    Rewrite,
    /// Those too, and the missing ones: each step without `expect`, and the opening of a
    /// program that prints one, take the reference's answer.
    Fill,
}

/// What blessing did to one file.
#[derive(Debug, Clone, Default)]
pub struct Blessed {
    pub changes: Vec<Change>,
    /// Scenarios left alone, and why (a step sent after the game ended, say).
    pub notes: Vec<String>,
    /// The file's new text, when anything changed.
    pub text: Option<String>,
}

/// Blesses the scenario file `name` whose text is `source`, its dialects among `variants`
/// or built in.
pub fn bless(name: &str, source: &str, mode: Mode, variants: &Catalogue) -> Result<Blessed, Error> {
    let scenarios = parse_file_in(name, source, variants)?;
    let mut doc: DocumentMut = source.parse().map_err(|e: toml_edit::TomlError| {
        let offset = e.span().map_or(0, |s| s.start);
        ScenarioFileError::at(name, source, offset, None, e.message().to_string())
    })?;
    let mut blessed = Blessed::default();
    let tables = scenario_tables(&mut doc);
    for (scenario, table) in scenarios.iter().zip(tables) {
        // A match and a code check have no expectations to write.
        if scenario.play().is_some() || scenario.code_check().is_some() {
            continue;
        }
        match reference_replies(scenario) {
            Ok((opening, replies)) => {
                let replies = Replies {
                    opening: &opening,
                    steps: &replies,
                    mode,
                };
                bless_scenario(scenario, table, &replies, &mut blessed.changes)
            }
            Err(note) => blessed.notes.push(note),
        }
    }
    if !blessed.changes.is_empty() {
        blessed.text = Some(doc.to_string());
    }
    Ok(blessed)
}

/// The tables of the file's scenarios, in order: the `[[scenario]]` tables (or inline
/// tables of a `scenario` array), else the top level itself.
fn scenario_tables(doc: &mut DocumentMut) -> Vec<&mut dyn TableLike> {
    if !doc.contains_key("scenario") {
        return vec![doc.as_table_mut() as &mut dyn TableLike];
    }
    match doc.get_mut("scenario") {
        Some(Item::ArrayOfTables(array)) => {
            array.iter_mut().map(|t| t as &mut dyn TableLike).collect()
        }
        Some(Item::Value(Value::Array(array))) => array
            .iter_mut()
            .filter_map(|v| v.as_inline_table_mut())
            .map(|t| t as &mut dyn TableLike)
            .collect(),
        _ => Vec::new(),
    }
}

/// The tables of a scenario's steps, and whether they are inline (one line each).
fn step_tables(scenario: &mut dyn TableLike) -> Vec<(&mut dyn TableLike, bool)> {
    match scenario.get_mut("steps") {
        Some(Item::ArrayOfTables(array)) => array
            .iter_mut()
            .map(|t| (t as &mut dyn TableLike, false))
            .collect(),
        Some(Item::Value(Value::Array(array))) => array
            .iter_mut()
            .filter_map(|v| v.as_inline_table_mut())
            .map(|t| (t as &mut dyn TableLike, true))
            .collect(),
        _ => Vec::new(),
    }
}

/// The reference's opening and answers, or why the scenario cannot be blessed.
fn reference_replies(scenario: &Scenario) -> Result<(Reply, Vec<Reply>), String> {
    let mut session = scenario
        .game
        .start(scenario.dialect, &scenario.options)
        .map_err(|e| format!("{}: options: {e}", scenario.name))?;
    let opening = session.opening();
    let mut replies = Vec::with_capacity(scenario.steps.len());
    for (index, step) in scenario.steps.iter().enumerate() {
        if session.is_finished() {
            return Err(format!(
                "{}:{}: scenario {:?}: step {} is sent after the game is over; left alone",
                scenario.file,
                step.line,
                scenario.name,
                index + 1
            ));
        }
        replies.push(session.respond(&step.send));
    }
    Ok((opening, replies))
}

/// The reference's answers to one scenario, and which expectations to write from them.
struct Replies<'a> {
    opening: &'a Reply,
    steps: &'a [Reply],
    mode: Mode,
}

fn bless_scenario(
    scenario: &Scenario,
    table: &mut dyn TableLike,
    replies: &Replies<'_>,
    changes: &mut Vec<Change>,
) {
    let opening = replies.opening;
    let fill = replies.mode == Mode::Fill;
    let rewrite = match &scenario.opening {
        Some(expected) => !still_matches(scenario, expected, &[], opening),
        None => fill && !opening.text.is_empty(),
    };
    if rewrite {
        set_opening(table, &opening.text);
        changes.push(Change {
            scenario: scenario.name.clone(),
            step: 0,
            line: scenario.line,
            send: None,
            old: scenario.opening.clone().unwrap_or_default(),
            new: opening.text.clone(),
        });
    }
    for (index, ((step, reply), (step_table, inline))) in scenario
        .steps
        .iter()
        .zip(replies.steps)
        .zip(step_tables(table))
        .enumerate()
    {
        let rewrite = match &step.expect {
            Some(expected) => !still_matches(scenario, expected, &step.accept, reply),
            None => fill,
        };
        if !rewrite {
            continue;
        }
        let lines = reply.text.trim_end_matches('\n').contains('\n');
        set_string(step_table, "expect", &reply.text, !inline || lines);
        if reply.also_accepted.is_empty() {
            step_table.remove("accept");
        } else {
            let items: Vec<String> = reply
                .also_accepted
                .iter()
                .map(|a| toml_string(a, !inline || a.trim_end_matches('\n').contains('\n')))
                .collect();
            set_value(step_table, "accept", &format!("[{}]", items.join(", ")));
        }
        changes.push(Change {
            scenario: scenario.name.clone(),
            step: index + 1,
            line: step.line,
            send: Some(step.send.clone()),
            old: step.expect.clone().unwrap_or_default(),
            new: reply.text.clone(),
        });
    }
}

/// Sets the scenario's `opening`; a new one is written before an inline `steps` array, in
/// the order the program prints.
fn set_opening(table: &mut dyn TableLike, text: &str) {
    let steps = match table.get("steps") {
        Some(Item::Value(_)) if !table.contains_key("opening") => table
            .get_key_value("steps")
            .map(|(key, _)| key.clone())
            .zip(table.remove("steps")),
        _ => None,
    };
    set_string(table, "opening", text, true);
    if let Some((key, steps)) = steps {
        table.entry_format(&key).or_insert(steps);
    }
}

/// Whether the expectation (or one of its alternatives) matches the reference's answer,
/// compared as the harness compares.
fn still_matches(scenario: &Scenario, expect: &str, accept: &[String], reply: &Reply) -> bool {
    let pattern = StepPattern::new(expect, accept).map_lines(&|line| scenario.compared_line(line));
    let mode = scenario.compare_mode();
    let actual = normalize_output(scenario, &prepare(reply.text.as_bytes(), mode));
    match_steps(std::slice::from_ref(&pattern), &actual, mode).is_ok()
}

/// Sets `key` to `text`, written as a multi-line string where the old value was one, or
/// where a table of its own has room for it.
fn set_string(table: &mut dyn TableLike, key: &str, text: &str, roomy: bool) {
    let was_multiline = table
        .get(key)
        .and_then(Item::as_value)
        .and_then(|value| match value {
            Value::String(s) => s.as_repr().and_then(|r| r.as_raw().as_str()),
            _ => None,
        })
        .is_some_and(|raw| raw.starts_with("\"\"\"") || raw.starts_with("'''"));
    set_value(table, key, &toml_string(text, roomy || was_multiline));
}

/// Sets `key` to the value written `encoded`, keeping the old value's surrounding spaces
/// and comments.
fn set_value(table: &mut dyn TableLike, key: &str, encoded: &str) {
    let Ok(mut value) = encoded.parse::<Value>() else {
        return;
    };
    match table.get_mut(key) {
        Some(Item::Value(old)) => {
            *value.decor_mut() = old.decor().clone();
            *old = value;
        }
        _ => {
            // The space before an inline table's `}` follows the new last value.
            let suffix = table
                .iter_mut()
                .last()
                .and_then(|(_, item)| item.as_value_mut())
                .and_then(|last| {
                    let suffix = last.decor().suffix().cloned()?;
                    let blank = suffix.as_str().is_some_and(|s| s.trim().is_empty());
                    blank.then(|| {
                        last.decor_mut().set_suffix("");
                        suffix
                    })
                });
            value.decor_mut().set_prefix(" ");
            if let Some(suffix) = suffix {
                value.decor_mut().set_suffix(suffix);
            }
            table.insert(key, Item::Value(value));
        }
    }
}

/// What blessing files tells its listener, file by file.
#[derive(Debug)]
pub enum BlessEvent<'a> {
    /// A file that does not load, left alone.
    Invalid(&'a Error),
    /// A scenario left alone, and why.
    Note(&'a str),
    /// An expectation of `file` rewritten (or, when checking, that would be).
    Change { file: &'a str, change: &'a Change },
}

/// What blessing a set of files did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlessTotals {
    /// Expectations changed (or that would change).
    pub steps: usize,
    /// Files those are in.
    pub changed_files: usize,
    /// Scenario files read.
    pub files: usize,
    /// Some file did not load.
    pub invalid: bool,
}

/// Blesses every scenario file of `files`, writing back each one changed unless `check`.
/// Variant files are read first (scenario files name them) and hold no expectations.
pub fn bless_files(
    files: Vec<SourceFile>,
    mode: Mode,
    check: bool,
    listen: &mut dyn FnMut(BlessEvent<'_>),
) -> Result<BlessTotals, Error> {
    let mut totals = BlessTotals::default();
    let (variants, read) = read_variants(&files);
    for (_, read) in read {
        if let Err(error) = read {
            listen(BlessEvent::Invalid(&error.into()));
            totals.invalid = true;
        }
    }
    let files: Vec<_> = files.into_iter().filter(|f| !f.is_variant()).collect();
    totals.files = files.len();
    for file in &files {
        let blessed = match bless(&file.name, &file.text, mode, &variants) {
            Ok(blessed) => blessed,
            Err(error) => {
                listen(BlessEvent::Invalid(&error));
                totals.invalid = true;
                continue;
            }
        };
        for note in &blessed.notes {
            listen(BlessEvent::Note(note));
        }
        for change in &blessed.changes {
            listen(BlessEvent::Change {
                file: &file.name,
                change,
            });
        }
        if let Some(text) = &blessed.text {
            totals.steps += blessed.changes.len();
            totals.changed_files += 1;
            if !check {
                std::fs::write(&file.name, text)
                    .map_err(|e| Error::path(&file.name, format!("cannot write: {e}")))?;
            }
        }
    }
    Ok(totals)
}
