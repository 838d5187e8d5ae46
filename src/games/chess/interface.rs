//! The data of the `ecs198f` call protocol that a variant may change: the class, method and
//! field names, the entry file, and how `play_move`'s answer spells castling and the piece
//! letter (handouts write `O-O` as often as `0-0`). The reference reads it to answer, and the
//! Python adapter gets it as JSON. `ecs198f.json` holds seed 004's values.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::games::variant_keys::{overlay, quoted, string};
use crate::games::OptionError;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Methods {
    pub play_move: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fields {
    pub board: String,
    pub result: String,
}

/// How castling is spelled: with zeros (seed 004) or with the letter O.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Castling {
    #[serde(rename = "0-0")]
    Zeros,
    #[serde(rename = "O-O")]
    LetterO,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Letter {
    Lower,
    Upper,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notation {
    pub castling: Castling,
    pub piece_letter: Letter,
}

/// Everything a variant may change, with seed 004's values by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interface {
    pub entry_file: String,
    pub class: String,
    pub methods: Methods,
    pub fields: Fields,
    pub notation: Notation,
}

/// The JSON of seed 004's interface, as the built-in adapter is given it.
pub const HANDOUT_JSON: &str = include_str!("ecs198f.json");

/// Seed 004's interface.
pub static HANDOUT: LazyLock<Interface> =
    LazyLock::new(|| serde_json::from_str(HANDOUT_JSON).expect("ecs198f.json is valid"));

impl Interface {
    /// `play_move`'s answer (in seed 004's spelling: `0-0`, `ng1f3`) in this interface's.
    pub fn spell(&self, answer: &str) -> String {
        let castled = match self.notation.castling {
            Castling::LetterO if answer.starts_with("0-0") => answer.replace('0', "O"),
            _ => answer.to_string(),
        };
        // A piece letter is followed by a file (`bc8g4`); a pawn's file by a rank (`b7b8`).
        let mut chars = castled.chars();
        match (self.notation.piece_letter, chars.next(), chars.next()) {
            (Letter::Upper, Some(letter @ ('k' | 'q' | 'r' | 'b' | 'n')), Some('a'..='h')) => {
                format!("{}{}", letter.to_ascii_uppercase(), &castled[1..])
            }
            _ => castled,
        }
    }

    /// Reads a variant's keys over seed 004's values.
    pub fn derive(keys: &toml::Table) -> Result<Interface, OptionError> {
        let mut interface = HANDOUT.clone();
        for (key, value) in keys {
            match key.as_str() {
                "entry_file" => interface.entry_file = string(value, key)?,
                "class" => interface.class = string(value, key)?,
                "methods" => interface.methods = overlay(&interface.methods, value, key)?,
                "fields" => interface.fields = overlay(&interface.fields, value, key)?,
                "notation" => interface.notation = overlay(&interface.notation, value, key)?,
                _ => {
                    return Err(OptionError::new(
                        key.clone(),
                        "not something an ecs198f variant can change (it changes entry_file, class, methods, fields and notation)",
                    ))
                }
            }
        }
        for (key, name) in [
            ("class", &interface.class),
            ("methods.play_move", &interface.methods.play_move),
            ("fields.board", &interface.fields.board),
            ("fields.result", &interface.fields.result),
        ] {
            if !is_identifier(name) {
                return Err(OptionError::new(
                    key,
                    format!("{name:?} is not a Python name"),
                ));
            }
        }
        if interface.fields.board == interface.fields.result {
            return Err(OptionError::new(
                "fields.result",
                format!("`{}` already names the board", interface.fields.result),
            ));
        }
        Ok(interface)
    }

    /// The keys a variant may change, with this interface's values, as commented TOML.
    pub fn keys_text(&self) -> String {
        let castling = match self.notation.castling {
            Castling::Zeros => "0-0",
            Castling::LetterO => "O-O",
        };
        let letter = match self.notation.piece_letter {
            Letter::Lower => "lower",
            Letter::Upper => "upper",
        };
        format!(
            "# The file a submission is expected to have (a hint: grading reads what files define).\n\
             entry_file = {}\n\
             # The class the handout asks for (grading routes a submission by it).\n\
             class = {}\n\n\
             # The method that plays a move (scenarios keep the command name play_move).\n\
             [methods]\n\
             play_move = {}\n\n\
             # The fields the board and the result are read from (scenarios keep the commands\n\
             # board and result).\n\
             [fields]\n\
             board = {}\n\
             result = {}\n\n\
             # How play_move's answer spells castling (\"0-0\" or \"O-O\", and so \"0-0-0\" or\n\
             # \"O-O-O\") and the piece letter (\"lower\": 'ng1f3', or \"upper\": 'Ng1f3').\n\
             [notation]\n\
             castling = {}\n\
             piece_letter = {}\n",
            quoted(&self.entry_file),
            quoted(&self.class),
            quoted(&self.methods.play_move),
            quoted(&self.fields.board),
            quoted(&self.fields.result),
            quoted(castling),
            quoted(letter),
        )
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn derive(text: &str) -> Result<Interface, OptionError> {
        Interface::derive(&text.parse().unwrap())
    }

    #[test]
    fn a_variant_spells_castling_and_the_piece_letter() {
        let o = derive("[notation]\ncastling = \"O-O\"\n").unwrap();
        assert_eq!(o.spell("0-0"), "O-O");
        assert_eq!(o.spell("0-0-0"), "O-O-O");
        assert_eq!(o.spell("ng1f3"), "ng1f3");
        let upper = derive("[notation]\npiece_letter = \"upper\"\n").unwrap();
        assert_eq!(upper.spell("ng1xf3"), "Ng1xf3");
        assert_eq!(upper.spell("e2e4"), "e2e4");
        assert_eq!(upper.spell("b7b8=Q"), "b7b8=Q");
        assert_eq!(upper.spell("bc8g4"), "Bc8g4");
        assert_eq!(HANDOUT.spell("0-0"), "0-0");
    }

    #[test]
    fn what_would_need_new_rules_is_refused_naming_the_key() {
        for (text, key) in [
            ("[notation]\ncastling = \"castles\"\n", "notation.castling"),
            ("[notation]\npromotion = \"any\"\n", "notation.promotion"),
            ("[rules]\nchess960 = true\n", "rules"),
            ("class = \"Chess Logic\"\n", "class"),
            ("[fields]\nresult = \"board\"\n", "fields.result"),
        ] {
            assert_eq!(derive(text).unwrap_err().key, key, "{text}");
        }
    }

    #[test]
    fn the_keys_text_reads_back_as_the_same_interface() {
        let dialect = crate::games::find("chess")
            .and_then(|g| g.dialect("ecs198f"))
            .unwrap();
        assert_eq!(dialect.defines, [HANDOUT.class.as_str()]);
        assert_eq!(dialect.entry_file, HANDOUT.entry_file);
        assert_eq!(derive(&HANDOUT.keys_text()).unwrap(), *HANDOUT);
    }
}
