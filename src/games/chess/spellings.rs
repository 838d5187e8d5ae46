//! The `ecs198f` course-policy options: spellings of `play_move`'s answer that real classes
//! accept (`O-O`, `Ng1f3`), upper-case move strings (`E2E4`) taken as moves, and a message
//! in place of `''` for a refused move (seed 004's item 7: "an appropriate message should be
//! returned"). Which games end drawn is `draw_reading`'s.

use std::borrow::Cow;

use super::draw_reading;
use crate::games::{GameOptions, PolicyRules};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const CASTLING_O: &str = "accept_castling_o";
const PIECE_LETTER: &str = "accept_upper_piece_letter";
const UPPER_MOVES: &str = "accept_upper_case_moves";
const INVALID_ANSWER: &str = "invalid_move_answer";
const ANY_MESSAGE: &str = "empty_or_message";

/// The scenario option under which the reference plays an upper-case move string as the
/// move it names (see `ecs198f::ScenarioOptions`).
pub const UPPER_CASE_MOVES_OPTION: &str = "upper_case_moves";

const OPTIONS: &[PolicyOption] = &[
    PolicyOption {
        key: CASTLING_O,
        default: DefaultValue::Flag(false),
        choices: &[],
        about: "castling may be answered `'O-O'` / `'O-O-O'` (letter O), the spelling of many handouts, besides the handout's `'0-0'` / `'0-0-0'`",
    },
    PolicyOption {
        key: PIECE_LETTER,
        default: DefaultValue::Flag(false),
        choices: &[],
        about: "the piece letter of an answer may be upper case (`'Ng1f3'` for `'ng1f3'`)",
    },
    PolicyOption {
        key: UPPER_MOVES,
        default: DefaultValue::Flag(false),
        choices: &[],
        about: "a submission may also take an upper-case move string (`E2E4`) as the move it names, where the handout refuses it",
    },
    PolicyOption {
        key: INVALID_ANSWER,
        default: DefaultValue::Word("empty"),
        choices: &["empty", ANY_MESSAGE],
        about: "what play_move returns for a refused move: `''` only (`empty`), or also any message that is no move notation (`empty_or_message`)",
    },    draw_reading::OPTION,
];

/// Whether a quoted answer is a message rather than a move: two characters or more (so no
/// `result` value), and not shaped like any spelling of a move's notation.
pub fn is_message(answer: &str) -> bool {
    let Some(text) = unquote(answer) else {
        return false;
    };
    text.chars().count() >= 2 && !is_notation(text)
}

/// `'text'` or `"text"` without its quotes.
fn unquote(answer: &str) -> Option<&str> {
    ['\'', '"']
        .iter()
        .find_map(|q| answer.strip_prefix(*q).and_then(|a| a.strip_suffix(*q)))
}

/// Shaped like a move's notation in any spelling a class might use: castling with `0` or
/// `O`, or an optional piece letter, the from-square, an optional `x`, the to-square and an
/// optional promotion.
fn is_notation(text: &str) -> bool {
    if matches!(text, "0-0" | "0-0-0" | "O-O" | "O-O-O") {
        return true;
    }
    let mut rest = text.trim_start_matches(|c| "kqrbnKQRBN".contains(c));
    if text.len() - rest.len() > 1 {
        return false;
    }
    let square = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
    };
    if !square(rest) {
        return false;
    }
    rest = rest[2..].strip_prefix('x').unwrap_or(&rest[2..]);
    if !square(rest) {
        return false;
    }
    rest = &rest[2..];
    rest.is_empty() || (rest.len() == 2 && rest.starts_with('=') && "QRBNqrbn".contains(&rest[1..]))
}

/// The `accepted` part of a `play_move` answered with a message that is no move notation:
/// a refusal, compared as one where the course accepts a message (`invalid_move_answer`).
pub const REFUSED_WITH_MESSAGE: &str = "refused, with a message";

/// The policy rules of chess.
pub struct Spellings;

impl PolicyRules for Spellings {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// An answer line `'...'` in the one spelling compared: `0-0` castling and a lower-case piece
    /// letter, where the policy accepts the others.
    fn canonical<'a>(&self, policy: &Policy, line: &'a str) -> Cow<'a, str> {
        if policy.word(INVALID_ANSWER) == ANY_MESSAGE {
            if line == REFUSED_WITH_MESSAGE {
                return Cow::Borrowed("refused");
            }
            if is_message(line) {
                return Cow::Borrowed("''");
            }
        }
        let Some(answer) = line.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')) else {
            return Cow::Borrowed(line);
        };
        if policy.flag(CASTLING_O) && matches!(answer, "O-O" | "O-O-O") {
            return Cow::Owned(format!("'{}'", answer.replace('O', "0")));
        }
        let mut chars = answer.chars();
        if let (Some(letter @ ('K' | 'Q' | 'R' | 'B' | 'N')), Some('a'..='h')) =
            (chars.next(), chars.next())
        {
            if policy.flag(PIECE_LETTER) {
                return Cow::Owned(format!("'{}{}'", letter.to_ascii_lowercase(), &answer[1..]));
            }
        }
        Cow::Borrowed(line)
    }

    /// The draw rules, where the course requires them.
    fn required(&self, policy: &Policy, options: &GameOptions) -> Option<GameOptions> {
        draw_reading::required(policy, options)
    }

    /// The scenario's options under the other draw reading, where the course accepts either;
    /// under `accept_upper_case_moves`, each of those (the scenario's own included) with the
    /// reference also taking upper-case move strings.
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        let readings: Vec<GameOptions> = std::iter::once(options.clone())
            .chain(draw_reading::other_reading(policy, options))
            .collect();
        let upper = policy.flag(UPPER_MOVES) && !options.contains_key(UPPER_CASE_MOVES_OPTION);
        let mut all = Vec::new();
        for reading in readings {
            if upper {
                let mut variant = reading.clone();
                variant.insert(UPPER_CASE_MOVES_OPTION.into(), toml::Value::Boolean(true));
                all.push(variant);
            }
            if &reading != options {
                all.push(reading);
            }
        }
        all
    }
}

#[cfg(test)]
mod message_tests {
    use super::*;

    #[test]
    fn a_message_is_any_quoted_answer_but_a_move_or_a_result() {
        for message in ["'Invalid move'", "\"Illegal: e2e5\"", "'no'", "'e2e9'"] {
            assert!(is_message(message), "{message}");
        }
        for answer in [
            "''", "'w'", "'d'", "'e2e4'", "'ng1f3'", "'Ng1xf3'", "'g7g8=Q'", "'0-0'", "'O-O-O'",
            "None", "True",
        ] {
            assert!(!is_message(answer), "{answer}");
        }
    }
}
