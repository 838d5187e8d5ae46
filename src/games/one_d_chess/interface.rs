//! The data of the `project5` call protocol that a variant may change: the Python name and
//! argument order of each handout function, the tokens, the winner's messages, the entry
//! file. The reference reads it to answer, and the Python adapter gets it as JSON, so a
//! variant needs no new code. `project5.json` holds the handout's values.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::engine::CELLS;
use crate::games::variant_keys::{overlay, quoted, string, table};
use crate::games::OptionError;

/// The functions the reference can answer (the protocol's command names), with the
/// arguments each takes in the handout's order. A variant renames, reorders, drops or adds
/// among these; any other function would need new rules.
pub const ROLES: &[(&str, &[&str])] = &[
    ("create_board", &[]),
    ("printable_board", &["board"]),
    ("is_valid_move", &["board", "position", "player"]),
    ("move", &["board", "position", "direction"]),
    ("move_king", &["board", "position", "direction"]),
    ("move_knight", &["board", "position", "direction"]),
    ("is_game_over", &["board"]),
    // Fall 2023's text of the handout: "White", "Black" or None.
    ("whos_the_winner", &["board"]),
];

/// One handout function as a submission defines it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub name: String,
    /// The argument names of [`ROLES`], in the order the function takes them.
    pub args: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    pub white: String,
    pub black: String,
    pub left: String,
    pub right: String,
    /// An empty cell in the board list.
    pub empty: String,
    /// What `whos_the_winner` returns for each side (`None` while both kings stand).
    pub white_winner: String,
    pub black_winner: String,
}

/// One thing `is_game_over` prints when a side wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Printed {
    Message,
    Board,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Messages {
    pub white_wins: String,
    pub black_wins: String,
    /// What `is_game_over` prints when White wins, in order (nothing when empty).
    pub white_wins_prints: Vec<Printed>,
    pub black_wins_prints: Vec<Printed>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub cells: usize,
}

/// How `is_valid_move` reads a negative position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NegativePositions {
    /// Off the board: seed 000 asserts `is_valid_move(board, -1, "BLACK") == False`, where
    /// `board[-1]` is Black's king.
    #[default]
    OffBoard,
    /// Either off the board or counted from the end, as Python's lists count: seed 001 asks
    /// only for "a valid index into the board list", and leaves that open.
    Either,
}

impl NegativePositions {
    /// The word a variant file writes.
    pub fn as_str(self) -> &'static str {
        match self {
            NegativePositions::OffBoard => "off_board",
            NegativePositions::Either => "either",
        }
    }
}

/// Everything a variant may change, with the handout's values by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interface {
    pub entry_file: String,
    /// By protocol command name (a key of [`ROLES`]); a dropped function is absent.
    pub functions: BTreeMap<String, Function>,
    pub tokens: Tokens,
    pub messages: Messages,
    pub board: Shape,
    #[serde(default)]
    pub negative_positions: NegativePositions,
}

/// The JSON of the handout's interface, as the built-in adapter is given it.
pub const HANDOUT_JSON: &str = include_str!("project5.json");

/// Seed 000's interface.
pub static HANDOUT: LazyLock<Interface> =
    LazyLock::new(|| serde_json::from_str(HANDOUT_JSON).expect("project5.json is valid"));

/// Seed 001's functions as the starter code's constants spell their arguments (`'White'`,
/// `'l'`, `'   '` for an empty cell), with `is_game_over` printing the board, then the
/// winner's message, for either side.
pub const CSC110_FUNCTIONS_JSON: &str = include_str!("csc110_functions.json");

pub static CSC110_FUNCTIONS: LazyLock<Interface> = LazyLock::new(|| {
    serde_json::from_str(CSC110_FUNCTIONS_JSON).expect("csc110_functions.json is valid")
});

fn role_args(role: &str) -> Option<&'static [&'static str]> {
    ROLES
        .iter()
        .find(|(r, _)| *r == role)
        .map(|(_, args)| *args)
}

impl Interface {
    /// Whether the protocol command `role` calls a function in this interface.
    pub fn has(&self, role: &str) -> bool {
        self.functions.contains_key(role)
    }

    /// The names a submission defines, in [`ROLES`] order.
    pub fn defines(&self) -> Vec<String> {
        ROLES
            .iter()
            .filter_map(|(role, _)| self.functions.get(*role).map(|f| f.name.clone()))
            .collect()
    }

    /// Reads a variant's keys over the handout's values.
    pub fn derive(keys: &toml::Table) -> Result<Interface, OptionError> {
        let mut interface = HANDOUT.clone();
        for (key, value) in keys {
            match key.as_str() {
                "entry_file" => interface.entry_file = string(value, key)?,
                "functions" => interface.read_functions(table(value, key)?)?,
                "tokens" => interface.tokens = overlay(&interface.tokens, value, key)?,
                "messages" => interface.messages = overlay(&interface.messages, value, key)?,
                "board" => interface.board = overlay(&interface.board, value, key)?,
                "negative_positions" => {
                    interface.negative_positions = value.clone().try_into().map_err(|_| {
                        OptionError::new(key.clone(), "is \"off_board\" or \"either\"")
                    })?
                }
                _ => {
                    return Err(OptionError::new(
                        key.clone(),
                        "not something a project5 variant can change (it changes entry_file, negative_positions, functions, tokens, messages and board)",
                    ))
                }
            }
        }
        interface.check()?;
        Ok(interface)
    }

    fn read_functions(&mut self, table: &toml::Table) -> Result<(), OptionError> {
        for (role, value) in table {
            let key = format!("functions.{role}");
            let Some(args) = role_args(role) else {
                let known: Vec<&str> = ROLES.iter().map(|(r, _)| *r).collect();
                return Err(OptionError::new(
                    key,
                    format!(
                        "the reference has no rules for a function `{role}`: a variant renames, reorders, drops or adds among {}; anything else needs new rules",
                        known.join(", ")
                    ),
                ));
            };
            match value {
                toml::Value::Boolean(false) => {
                    self.functions.remove(role);
                }
                _ => {
                    let default = self.functions.get(role).cloned().unwrap_or(Function {
                        name: role.clone(),
                        args: args.iter().map(|a| a.to_string()).collect(),
                    });
                    let function: Function = overlay(&default, value, &key)?;
                    check_args(&function.args, args, &key)?;
                    self.functions.insert(role.clone(), function);
                }
            }
        }
        Ok(())
    }

    /// What a table of overlays cannot check alone: names and tokens that are told apart.
    fn check(&self) -> Result<(), OptionError> {
        if self.board.cells != CELLS {
            return Err(OptionError::new(
                "board.cells",
                format!(
                    "the reference plays 1D chess on {CELLS} cells; a board of {} needs new rules",
                    self.board.cells
                ),
            ));
        }
        let mut names: Vec<(&str, &str)> = Vec::new();
        for (role, function) in &self.functions {
            if !is_identifier(&function.name) {
                return Err(OptionError::new(
                    format!("functions.{role}.name"),
                    format!("{:?} is not a Python name", function.name),
                ));
            }
            if let Some((other, _)) = names.iter().find(|(_, n)| *n == function.name) {
                return Err(OptionError::new(
                    format!("functions.{role}.name"),
                    format!("`{}` already names {other}", function.name),
                ));
            }
            names.push((role, &function.name));
        }
        let t = &self.tokens;
        for (key, value) in [
            ("white", &t.white),
            ("black", &t.black),
            ("left", &t.left),
            ("right", &t.right),
            ("empty", &t.empty),
            ("white_winner", &t.white_winner),
            ("black_winner", &t.black_winner),
        ] {
            if value.contains(['\'', '"', '\\', '\n']) {
                return Err(OptionError::new(
                    format!("tokens.{key}"),
                    "a token holds no quote, backslash or newline",
                ));
            }
        }
        for (first, second, a, b) in [
            ("white", "black", &t.white, &t.black),
            ("left", "right", &t.left, &t.right),
            (
                "white_winner",
                "black_winner",
                &t.white_winner,
                &t.black_winner,
            ),
        ] {
            if a == b {
                return Err(OptionError::new(
                    format!("tokens.{second}"),
                    format!("tokens.{first} and tokens.{second} are both {a:?}"),
                ));
            }
        }
        // Wire words are single words: a token with a space is typed as its canonical word.
        for (key, value) in [("tokens.white", &t.white), ("tokens.black", &t.black)] {
            if value.is_empty() {
                return Err(OptionError::new(key, "a player token is not empty"));
            }
        }
        for (key, prints) in [
            (
                "messages.white_wins_prints",
                &self.messages.white_wins_prints,
            ),
            (
                "messages.black_wins_prints",
                &self.messages.black_wins_prints,
            ),
        ] {
            let twice = prints
                .iter()
                .enumerate()
                .any(|(i, p)| prints[..i].contains(p));
            if twice {
                return Err(OptionError::new(
                    key,
                    "is_game_over prints the message and the board once each at most",
                ));
            }
        }
        Ok(())
    }

    /// The keys a variant may change, with this interface's values, as commented TOML.
    pub fn keys_text(&self) -> String {
        let mut text = String::new();
        text.push_str("# The file a submission is expected to have (a hint: grading reads what files define).\n");
        text.push_str(&format!("entry_file = {}\n\n", quoted(&self.entry_file)));
        text.push_str(&format!(
            "# How is_valid_move reads a negative position: \"off_board\" (seed 000's asserts), or\n\
             # \"either\" off the board or counted from the end, as Python's lists count.\n\
             negative_positions = \"{}\"\n\n",
            self.negative_positions.as_str()
        ));
        text.push_str(
            "# The handout's functions, by the protocol command that calls them (scenarios keep\n\
             # these command names): each function's Python `name` and its `args` in the order\n\
             # it takes them. `NAME = false` drops a function (the scenarios that call it are left\n\
             # out). The reference can answer no other function.\n\
             [functions]\n",
        );
        for (role, args) in ROLES {
            let line = match self.functions.get(*role) {
                Some(f) => format!("{role} = {}\n", function_text(f)),
                None => format!(
                    "# {role} = {}    # not asked for: uncomment to add it\n",
                    function_text(&Function {
                        name: role.to_string(),
                        args: args.iter().map(|a| a.to_string()).collect(),
                    })
                ),
            };
            text.push_str(&line);
        }
        let t = &self.tokens;
        text.push_str(&format!(
            "\n# The words a function receives and returns. Scenarios send the handout's words\n\
             # (WHITE, BLACK, LEFT, RIGHT, EMPTY in set_board) or these; the adapter passes these.\n\
             [tokens]\n\
             white = {}           # the player argument of is_valid_move\n\
             black = {}\n\
             left = {}             # the direction argument of the moves\n\
             right = {}\n\
             empty = {}            # an empty cell in the board list\n\
             white_winner = {}     # what whos_the_winner returns (None while both kings stand)\n\
             black_winner = {}\n",
            quoted(&t.white),
            quoted(&t.black),
            quoted(&t.left),
            quoted(&t.right),
            quoted(&t.empty),
            quoted(&t.white_winner),
            quoted(&t.black_winner),
        ));
        let m = &self.messages;
        text.push_str(&format!(
            "\n# What is_game_over prints when a king is gone: the message and the board, in the\n\
             # order listed (\"message\", \"board\"); [] prints nothing (it only returns True).\n\
             [messages]\n\
             white_wins = {}\n\
             black_wins = {}\n\
             white_wins_prints = {}\n\
             black_wins_prints = {}\n",
            quoted(&m.white_wins),
            quoted(&m.black_wins),
            prints_text(&m.white_wins_prints),
            prints_text(&m.black_wins_prints),
        ));
        text.push_str(&format!(
            "\n# The board: the reference plays on {CELLS} cells only.\n[board]\ncells = {}\n",
            self.board.cells
        ));
        text
    }
}

fn function_text(function: &Function) -> String {
    let args: Vec<String> = function.args.iter().map(|a| quoted(a)).collect();
    format!(
        "{{ name = {}, args = [{}] }}",
        quoted(&function.name),
        args.join(", ")
    )
}

fn prints_text(prints: &[Printed]) -> String {
    let words: Vec<&str> = prints
        .iter()
        .map(|p| match p {
            Printed::Message => "\"message\"",
            Printed::Board => "\"board\"",
        })
        .collect();
    format!("[{}]", words.join(", "))
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The arguments of a function must be its role's, each once, in any order.
fn check_args(given: &[String], wanted: &[&str], key: &str) -> Result<(), OptionError> {
    let mut sorted: Vec<&str> = given.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    let mut expected = wanted.to_vec();
    expected.sort_unstable();
    if sorted == expected {
        return Ok(());
    }
    Err(OptionError::new(
        format!("{key}.args"),
        format!(
            "takes {}, each once, in any order; other arguments need new rules",
            if wanted.is_empty() {
                "no arguments".to_string()
            } else {
                wanted.join(", ")
            }
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> toml::Table {
        text.parse().unwrap()
    }

    fn refused(text: &str) -> OptionError {
        Interface::derive(&keys(text)).unwrap_err()
    }

    #[test]
    fn the_csc110_functions_interface_names_its_dialects_functions() {
        let dialect = crate::games::find("one-d-chess")
            .and_then(|game| game.dialect("csc110-functions"))
            .unwrap();
        assert_eq!(CSC110_FUNCTIONS.defines(), dialect.defines);
        assert_eq!(CSC110_FUNCTIONS.entry_file, dialect.entry_file);
        assert_eq!(dialect.graded_with, Some("csc110"));
    }

    #[test]
    fn the_handout_interface_names_seed_000s_functions() {
        // The dialect table and the interface the adapter is given agree.
        let dialect = crate::games::find("one-d-chess")
            .and_then(|g| g.dialect("project5"))
            .unwrap();
        assert_eq!(HANDOUT.defines(), dialect.defines);
        assert_eq!(HANDOUT.entry_file, dialect.entry_file);
        assert!(!HANDOUT.has("whos_the_winner"));
    }

    #[test]
    fn a_variant_renames_reorders_adds_and_drops() {
        let derived = Interface::derive(&keys(
            "[functions]\nis_valid_move = { name = \"valid\", args = [\"position\", \"player\", \"board\"] }\nwhos_the_winner = {}\nmove_king = false\n[tokens]\nleft = \"l\"\n[messages]\nwhite_wins_prints = []\n",
        ))
        .unwrap();
        assert_eq!(derived.functions["is_valid_move"].name, "valid");
        assert_eq!(derived.functions["whos_the_winner"].args, ["board"]);
        assert!(!derived.has("move_king"));
        assert_eq!(derived.tokens.left, "l");
        assert_eq!(derived.tokens.right, "RIGHT");
        assert!(derived.messages.white_wins_prints.is_empty());
        assert_eq!(derived.negative_positions, NegativePositions::OffBoard);
        let either = Interface::derive(&keys("negative_positions = \"either\"\n")).unwrap();
        assert_eq!(either.negative_positions, NegativePositions::Either);
        assert_eq!(
            CSC110_FUNCTIONS.negative_positions,
            NegativePositions::Either
        );
        assert_eq!(Interface::derive(&toml::Table::new()).unwrap(), *HANDOUT);
    }

    #[test]
    fn new_rules_are_refused_naming_the_key() {
        for (text, key) in [
            ("[board]\ncells = 10\n", "board.cells"),
            (
                "[functions]\ncastle = { name = \"castle\" }\n",
                "functions.castle",
            ),
            (
                "[functions]\nmove = { args = [\"board\", \"position\"] }\n",
                "functions.move.args",
            ),
            ("[rules]\nking_moves_one = true\n", "rules"),
            ("[tokens]\nup = \"u\"\n", "tokens.up"),
            ("[tokens]\nleft = 3\n", "tokens.left"),
            ("negative_positions = \"wrap\"\n", "negative_positions"),
            ("[tokens]\nleft = \"RIGHT\"\n", "tokens.right"),
            (
                "[functions]\nmove_king = { name = \"move\" }\n",
                "functions.move_king.name",
            ),
            (
                "[messages]\nwhite_wins_prints = [\"board\", \"board\"]\n",
                "messages.white_wins_prints",
            ),
        ] {
            assert_eq!(refused(text).key, key, "{text}");
        }
        assert!(refused("[board]\ncells = 10\n")
            .message
            .contains("needs new rules"));
    }

    #[test]
    fn the_keys_text_reads_back_as_the_same_interface() {
        let text = HANDOUT.keys_text();
        assert_eq!(Interface::derive(&keys(&text)).unwrap(), *HANDOUT);
        let text = CSC110_FUNCTIONS.keys_text();
        assert_eq!(
            Interface::derive(&keys(&text)).unwrap().negative_positions,
            NegativePositions::Either
        );
        assert!(
            text.contains("# whos_the_winner = { name = \"whos_the_winner\", args = [\"board\"] }")
        );
    }
}
