//! Reading a course file (`course.toml`): options for every dialect at the top level, and a
//! `[GAME.DIALECT]` table per dialect. Every problem names the file, line, column and key.

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml_edit::{ImDocument, Item, Table};

use crate::error::ScenarioFileError;
use crate::games::variant::Catalogue;
use crate::games::{self, Dialect, Game};
use crate::policy::{options_of, DefaultValue, Policy, PolicyOption, Value, COMMON};

/// The name of a course file. Scenario loading finds the one nearest above each scenario file.
pub const FILE_NAME: &str = "course.toml";

/// The top-level key that sets the seed of every rule battery.
pub const BATTERY_SEED: &str = "battery_seed";

/// What one course file sets.
#[derive(Debug, Clone, PartialEq)]
pub struct CoursePolicy {
    /// The file, as named in messages.
    pub file: String,
    /// Options set at the top level, for every dialect.
    common: Vec<(&'static str, Value)>,
    /// Options set in a `[GAME.DIALECT]` table.
    dialects: Vec<DialectSettings>,
    /// The seed of every rule battery under this course (`battery_seed`): each term's
    /// hidden games differ, so they cannot be learnt by heart.
    pub battery_seed: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
struct DialectSettings {
    game: &'static str,
    dialect: &'static str,
    values: Vec<(&'static str, Value)>,
}

/// A problem at a byte range of the file, with the key at fault.
struct Problem {
    span: Range<usize>,
    key: String,
    message: String,
}

fn problem(span: Option<Range<usize>>, key: &str, message: impl Into<String>) -> Problem {
    Problem {
        span: span.unwrap_or(0..0),
        key: key.to_string(),
        message: message.into(),
    }
}

impl CoursePolicy {
    /// Parses the text of a course file named `file`.
    pub fn parse(
        file: &str,
        source: &str,
        variants: &Catalogue,
    ) -> Result<CoursePolicy, ScenarioFileError> {
        let document = ImDocument::parse(source).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            ScenarioFileError::at(file, source, offset, None, e.message().trim().to_string())
        })?;
        read_document(file, document.as_table(), variants)
            .map_err(|p| ScenarioFileError::at(file, source, p.span.start, Some(&p.key), p.message))
    }

    /// Reads the course file at `path`; its tables may name the dialects of `variants`.
    pub fn read(path: &Path, variants: &Catalogue) -> Result<CoursePolicy, crate::Error> {
        let text = super::text::read(path).map_err(|why| match why.place() {
            Some((line, column)) => crate::Error::from(ScenarioFileError {
                file: path.display().to_string(),
                line,
                column,
                key: None,
                message: format!("the course policy: {why}"),
            }),
            None => crate::Error::path(path, format!("the course policy: {why}")),
        })?;
        Ok(CoursePolicy::parse(
            &path.display().to_string(),
            &text,
            variants,
        )?)
    }

    /// The policy of one dialect: its defaults, then the file's top-level options, then its
    /// own table's.
    pub fn policy(&self, game: &dyn Game, dialect: &Dialect) -> Policy {
        let mut policy = Policy::defaults(dialect.policy.options());
        for (key, value) in &self.common {
            policy.set(key, value.clone());
        }
        let own = self
            .dialects
            .iter()
            .filter(|d| d.game == game.name() && d.dialect == dialect.name);
        for (key, value) in own.flat_map(|d| &d.values) {
            policy.set(key, value.clone());
        }
        policy.source = Some(self.file.clone());
        policy
    }
}

fn read_document(file: &str, root: &Table, variants: &Catalogue) -> Result<CoursePolicy, Problem> {
    let mut policy = CoursePolicy {
        file: file.to_string(),
        common: Vec::new(),
        dialects: Vec::new(),
        battery_seed: None,
    };
    for (name, _) in root.iter() {
        let (key, item) = root.get_key_value(name).expect("a key of this table");
        if name == BATTERY_SEED {
            let seed = item.as_integer().filter(|n| *n >= 0).ok_or_else(|| {
                problem(
                    item.span().or(key.span()),
                    name,
                    "expected a whole number of at least 0 (the seed of every rule battery)",
                )
            })?;
            policy.battery_seed = Some(seed as u64);
            continue;
        }
        if let Some(option) = COMMON.iter().find(|o| o.key == name) {
            policy
                .common
                .push((option.key, read_value(option, item, name)?));
            continue;
        }
        let Some(game) = games::find(name) else {
            return Err(problem(
                key.span(),
                name,
                format!(
                    "unknown option; the top level takes {}, {BATTERY_SEED} (for every dialect) and one [GAME.DIALECT] table per dialect (games: {})",
                    COMMON.iter().map(|o| o.key).collect::<Vec<_>>().join(", "),
                    games::names().join(", ")
                ),
            ));
        };
        let dialects = item.as_table_like().ok_or_else(|| {
            problem(
                item.span().or(key.span()),
                name,
                format!(
                    "expected a table of dialects, such as [{name}.{}]",
                    game.dialects()[0].name
                ),
            )
        })?;
        for (dialect_name, table) in dialects.iter() {
            let path = format!("{name}.{dialect_name}");
            let (dialect_key, _) = dialects
                .get_key_value(dialect_name)
                .expect("a key of this table");
            let dialect = variants
                .lookup_dialect(game, dialect_name)
                .map_err(|e| problem(dialect_key.span(), &path, e.to_string()))?;
            let table = table.as_table_like().ok_or_else(|| {
                problem(
                    table.span().or(dialect_key.span()),
                    &path,
                    "expected a table of options",
                )
            })?;
            let known = options_of(dialect.policy.options());
            let mut values = Vec::new();
            for (option_name, value) in table.iter() {
                let (option_key, _) = table
                    .get_key_value(option_name)
                    .expect("a key of this table");
                let path = format!("{path}.{option_name}");
                let option = known.iter().find(|o| o.key == option_name).ok_or_else(|| {
                    problem(
                        option_key.span(),
                        &path,
                        format!(
                            "{}/{} has no such option; it takes {}",
                            game.name(),
                            dialect.name,
                            known.iter().map(|o| o.key).collect::<Vec<_>>().join(", ")
                        ),
                    )
                })?;
                values.push((option.key, read_value(option, value, &path)?));
            }
            policy.dialects.push(DialectSettings {
                game: game.name(),
                dialect: dialect.name,
                values,
            });
        }
    }
    Ok(policy)
}

/// The value of `option` in `item`, checked against its kind and choices.
fn read_value(option: &PolicyOption, item: &Item, path: &str) -> Result<Value, Problem> {
    let wrong = |expected: String| problem(item.span(), path, expected);
    let word_ok = |word: &str| option.choices.is_empty() || option.choices.contains(&word);
    let choices = || {
        option
            .choices
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match option.default {
        DefaultValue::Flag(_) => item
            .as_bool()
            .map(Value::Flag)
            .ok_or_else(|| wrong("expected true or false".into())),
        DefaultValue::Word(_) => match item.as_str() {
            Some(word) if word_ok(word) => Ok(Value::Word(word.to_string())),
            _ => Err(wrong(format!("expected one of {}", choices()))),
        },
        DefaultValue::Share(_) => {
            let number = item
                .as_float()
                .or_else(|| item.as_integer().map(|i| i as f64));
            match number {
                Some(share) if (0.0..=1.0).contains(&share) => Ok(Value::Share(share)),
                _ => Err(wrong("expected a number from 0 to 1".into())),
            }
        }
        DefaultValue::Words(_) => {
            let expected = if option.choices.is_empty() {
                "expected a list of strings".to_string()
            } else {
                format!("expected a list of {}", choices())
            };
            let array = item.as_array().ok_or_else(|| wrong(expected.clone()))?;
            let mut words = Vec::new();
            for value in array.iter() {
                match value.as_str() {
                    Some(word) if word_ok(word) => words.push(word.to_string()),
                    _ => return Err(problem(value.span(), path, expected)),
                }
            }
            Ok(Value::Words(words))
        }
    }
}

/// The course file nearest above `path` (a scenario file or a folder): in its folder or any
/// folder above it.
pub fn find_beside(path: &Path) -> Option<PathBuf> {
    let absolute = std::fs::canonicalize(path).ok()?;
    let start = if absolute.is_dir() {
        absolute.as_path()
    } else {
        absolute.parent()?
    };
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|candidate| candidate.is_file())
}
