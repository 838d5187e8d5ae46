//! The `ecs198f` course-policy options: spellings of `play_move`'s answer that real classes
//! accept (`O-O`, `Ng1f3`), and upper-case move strings (`E2E4`) taken as moves.

use std::borrow::Cow;

use crate::games::{GameOptions, PolicyRules};
use crate::policy::{DefaultValue, Policy, PolicyOption};

const CASTLING_O: &str = "accept_castling_o";
const PIECE_LETTER: &str = "accept_upper_piece_letter";
const UPPER_MOVES: &str = "accept_upper_case_moves";

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
];

/// The policy rules of chess.
pub struct Spellings;

impl PolicyRules for Spellings {
    fn options(&self) -> &'static [PolicyOption] {
        OPTIONS
    }

    /// An answer line `'...'` in the one spelling compared: `0-0` castling and a lower-case piece
    /// letter, where the policy accepts the others.
    fn canonical<'a>(&self, policy: &Policy, line: &'a str) -> Cow<'a, str> {
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

    /// Under `accept_upper_case_moves`, the scenario's options with the reference also taking
    /// upper-case move strings.
    fn variants(&self, policy: &Policy, options: &GameOptions) -> Vec<GameOptions> {
        if !policy.flag(UPPER_MOVES) || options.contains_key(UPPER_CASE_MOVES_OPTION) {
            return Vec::new();
        }
        let mut variant = options.clone();
        variant.insert(UPPER_CASE_MOVES_OPTION.into(), toml::Value::Boolean(true));
        vec![variant]
    }
}
