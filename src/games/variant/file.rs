//! Reading a variant file. Every problem names the file, line, column and key.

use std::ops::Range;

use toml_edit::{ImDocument, TableLike};

use super::{Derived, Inherit};
use crate::error::ScenarioFileError;
use crate::games::{self, Dialect, Game, OptionError};

/// The keys every variant file has; all others are the game's.
const OWN_KEYS: &[&str] = &["game", "base", "name", "handout", "scenarios"];

/// A variant file, read and checked.
pub struct VariantFile {
    pub game: &'static dyn Game,
    pub base: &'static Dialect,
    pub name: String,
    /// Where `name` is in the file, for later messages about it.
    pub name_offset: usize,
    /// The seed file its scenarios cite by default, when not the base's.
    pub handout: Option<String>,
    pub inherit: Option<Inherit>,
    pub derived: Derived,
}

/// A problem at a key (a dotted path) of the file.
struct Problem {
    key: String,
    message: String,
}

fn problem(key: &str, message: impl Into<String>) -> Problem {
    Problem {
        key: key.to_string(),
        message: message.into(),
    }
}

/// Reads the variant file `file` (its text `source`).
pub fn parse(file: &str, source: &str) -> Result<VariantFile, ScenarioFileError> {
    let document = ImDocument::parse(source).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        ScenarioFileError::at(file, source, offset, None, e.message().trim().to_string())
    })?;
    let root = document.as_table();
    let at = |p: Problem| {
        let offset = span_of(root, &p.key).map_or(0, |s| s.start);
        ScenarioFileError::at(file, source, offset, Some(&p.key), p.message)
    };
    let table: toml::Table = toml::from_str(source)
        .map_err(|e| ScenarioFileError::at(file, source, 0, None, e.message().to_string()))?;
    read(root, table).map_err(at)
}

fn string<'a>(table: &'a toml::Table, key: &str) -> Result<Option<&'a str>, Problem> {
    match table.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(problem(
            key,
            format!("expected a string, found {}", other.type_str()),
        )),
    }
}

fn required<'a>(table: &'a toml::Table, key: &str, what: &str) -> Result<&'a str, Problem> {
    string(table, key)?.ok_or_else(|| problem(key, format!("a variant file needs `{key}`: {what}")))
}

fn read(root: &toml_edit::Table, mut table: toml::Table) -> Result<VariantFile, Problem> {
    let game_name = required(&table, "game", "the game it is a variant of")?;
    let game = games::lookup(game_name).map_err(|e| problem("game", e.to_string()))?;
    let base_name = required(&table, "base", "the built-in dialect it derives from")?;
    let base = game
        .dialects()
        .iter()
        .find(|d| d.name == base_name)
        .ok_or_else(|| {
            let known: Vec<&str> = game.dialects().iter().map(|d| d.name).collect();
            problem(
                "base",
                format!(
                    "{} has no built-in dialect {base_name:?}; a variant derives from one of {}",
                    game.name(),
                    known.join(", ")
                ),
            )
        })?;
    let name = required(
        &table,
        "name",
        "the variant's own name, which scenarios give as `dialect`",
    )?;
    check_name(game, name)?;
    let handout = string(&table, "handout")?.map(str::to_string);
    let inherit = match table.get("scenarios") {
        None => None,
        Some(value) => Some(read_inherit(value)?),
    };
    let name = name.to_string();
    let name_offset = span_of(root, "name").map_or(0, |s| s.start);
    for key in OWN_KEYS {
        table.remove(*key);
    }
    let derived = match game.variants() {
        Some(variants) => variants.derive(base, &table),
        None => Err(OptionError::new(
            "base",
            format!(
                "{}/{} has nothing a variant can change",
                game.name(),
                base.name
            ),
        )),
    }
    .map_err(|e| problem(&e.key, e.message))?;
    Ok(VariantFile {
        game,
        base,
        name,
        name_offset,
        handout,
        inherit,
        derived,
    })
}

/// A name scenarios can give as `dialect`: a word not taken by a built-in dialect.
fn check_name(game: &dyn Game, name: &str) -> Result<(), Problem> {
    let word = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !word {
        return Err(problem(
            "name",
            format!("{name:?} is not a dialect name: use letters, digits, `-` and `_`"),
        ));
    }
    if game.dialects().iter().any(|d| d.name == name) {
        return Err(problem(
            "name",
            format!(
                "{name:?} is a built-in dialect of {}; a variant needs a name of its own",
                game.name()
            ),
        ));
    }
    Ok(())
}

fn read_inherit(value: &toml::Value) -> Result<Inherit, Problem> {
    let table = value.as_table().ok_or_else(|| {
        problem(
            "scenarios",
            "expected a table: { from = \"../BASE\", skip = [\"FILE.toml\", \"SCENARIO NAME\"] }",
        )
    })?;
    if let Some(key) = table
        .keys()
        .find(|k| !["from", "skip"].contains(&k.as_str()))
    {
        return Err(problem(
            &format!("scenarios.{key}"),
            "unknown key; `scenarios` takes `from` and `skip`",
        ));
    }
    let from = match table.get("from") {
        Some(toml::Value::String(from)) => from.clone(),
        _ => {
            return Err(problem(
                "scenarios.from",
                "expected the folder of the base dialect's scenarios, relative to this file (\"../project5\")",
            ))
        }
    };
    let skip = match table.get("skip") {
        None => Vec::new(),
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| problem("scenarios.skip", "expected a list of strings"))?,
        Some(_) => return Err(problem("scenarios.skip", "expected a list of strings")),
    };
    Ok(Inherit { from, skip })
}

/// Where the key at the dotted `path` is in the file: the key itself, or the deepest table
/// on the way that exists.
fn span_of(root: &toml_edit::Table, path: &str) -> Option<Range<usize>> {
    let mut table: &dyn TableLike = root;
    let mut found = None;
    let mut words = path.split('.').peekable();
    while let Some(word) = words.next() {
        let Some((key, item)) = table.get_key_value(word) else {
            break;
        };
        found = key.span().or_else(|| item.span()).or(found);
        match item.as_table_like() {
            Some(inner) if words.peek().is_some() => table = inner,
            _ => break,
        }
    }
    found
}

/// The byte offset of the key at the dotted `path` in a variant file's text (0 when the text
/// does not parse or lacks it), for messages about it.
pub fn key_offset(source: &str, path: &str) -> usize {
    ImDocument::parse(source)
        .ok()
        .and_then(|document| span_of(document.as_table(), path))
        .map_or(0, |span| span.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(source: &str) -> String {
        match parse("v.toml", source) {
            Ok(_) => panic!("accepted: {source}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_generic_keys_are_checked_with_their_place() {
        assert_eq!(
            error("game = \"one-d-chess\"\nbase = \"project9\"\nname = \"x\"\n"),
            "v.toml:2:1: key `base`: one-d-chess has no built-in dialect \"project9\"; a variant derives from one of project5, csc110, csc110-functions"
        );
        assert_eq!(
            error("game = \"one-d-chess\"\nbase = \"project5\"\nname = \"csc110\"\n"),
            "v.toml:3:1: key `name`: \"csc110\" is a built-in dialect of one-d-chess; a variant needs a name of its own"
        );
        assert!(error("game = \"go\"\nbase = \"x\"\nname = \"y\"\n")
            .starts_with("v.toml:1:1: key `game`: unknown game \"go\""));
        assert!(error("base = \"x\"\n").contains("key `game`: a variant file needs `game`"));
        assert!(error(
            "game = \"one-d-chess\"\nbase = \"project5\"\nname = \"y\"\n[scenarios]\nfrom = \"../p\"\nskp = []\n"
        )
        .starts_with("v.toml:6:1: key `scenarios.skp`: unknown key"));
    }
}
