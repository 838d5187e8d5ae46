//! The handout's optional challenges and the board size, as one validated set of options.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The side of the square board. The handout plays on 8 x 8; earlier semesters used 6 x 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "usize", into = "usize")]
pub enum BoardSize {
    Six,
    #[default]
    Eight,
}

impl BoardSize {
    /// The largest supported side; squares are never further out than this.
    pub const MAX: usize = 8;

    /// The number of rows (and of columns).
    pub const fn get(self) -> usize {
        match self {
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }
}

impl TryFrom<usize> for BoardSize {
    type Error = OptionsError;

    fn try_from(size: usize) -> Result<Self, Self::Error> {
        match size {
            6 => Ok(BoardSize::Six),
            8 => Ok(BoardSize::Eight),
            other => Err(OptionsError::UnsupportedSize(other)),
        }
    }
}

impl From<BoardSize> for usize {
    fn from(size: BoardSize) -> usize {
        size.get()
    }
}

/// Where challenge 2's move counter goes when challenge 1's score line is on too. The
/// handout says only "in addition to 1, show a move counter above the board": its example
/// counter carries the score, so the reference prints it alone, and a program that keeps the
/// score line and adds the counter beside it has done the challenge as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterPlace {
    /// The counter line takes the score line's place.
    #[default]
    Alone,
    /// The counter line, then the score line.
    AboveScore,
    /// The score line, then the counter line.
    BelowScore,
}

/// The order of the two piece counts at the end of the game. The handout's one example
/// (`There are no more moves for w`, `b has 3 pieces`, `w has 2 pieces`) shows the opponent's
/// count first; its text names no order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountOrder {
    /// The opponent's count, then the stuck player's (the handout's example).
    #[default]
    OpponentFirst,
    /// The stuck player's count, then the opponent's.
    StuckFirst,
}

/// Why a set of options was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionsError {
    #[error("unsupported pown-chess board size {0}: only 6 and 8 are allowed")]
    UnsupportedSize(usize),
}

/// How the simulated student program behaves beyond the handout's required part.
///
/// The default is the handout's required program: 8 x 8, no score line, no move counter, and
/// an invalid move forfeits the turn. The size is a [`BoardSize`], so an options value can
/// never name an unsupported board; [`PownOptions::with_size`] validates a plain number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PownOptions {
    /// Challenge 1: a centred `w: 8 b: 8` line above the board.
    pub score_header: bool,
    /// Challenge 2: a centred `Move #17 -- w: 5 b:4` line above the board (it carries the
    /// score, so it takes the place of the score line).
    pub move_counter: bool,
    /// Where the counter goes when the score line is on too.
    pub counter_place: CounterPlace,
    /// Challenge 3: after `INVALID MOVE` the same player is asked again.
    pub reprompt_invalid: bool,
    /// The order of the piece counts at the end of the game.
    pub count_order: CountOrder,
    /// A typed square counts only as written: upper-case letter, no space around it (the
    /// handout's "be MEAN to players who can't type"). Off: surrounding white space is
    /// ignored and a lower-case letter is read as upper case.
    pub strict_input: bool,
    /// The side of the board.
    pub size: BoardSize,
    /// The board shown once more before the end-of-game lines, as a game loop that shows
    /// the board and then asks whether the player can move prints it. The handout's example
    /// shows no board there.
    pub board_before_end: bool,
}

impl PownOptions {
    /// The default options on a board of `size` x `size`; only 6 and 8 are accepted.
    pub fn with_size(size: usize) -> Result<Self, OptionsError> {
        Ok(PownOptions {
            size: BoardSize::try_from(size)?,
            ..PownOptions::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_the_required_program_on_eight_by_eight() {
        let options = PownOptions::default();
        assert_eq!(options.size.get(), 8);
        assert!(!options.score_header && !options.move_counter && !options.reprompt_invalid);
    }

    #[test]
    fn only_six_and_eight_are_valid_sizes() {
        assert_eq!(PownOptions::with_size(6).unwrap().size, BoardSize::Six);
        assert_eq!(PownOptions::with_size(8).unwrap().size, BoardSize::Eight);
        for bad in [0, 1, 5, 7, 9, 64, usize::MAX] {
            assert_eq!(
                PownOptions::with_size(bad),
                Err(OptionsError::UnsupportedSize(bad))
            );
        }
    }

    #[test]
    fn deserializes_with_defaults_and_validates_size() {
        let options: PownOptions =
            serde_json::from_str(r#"{"size": 6, "reprompt_invalid": true}"#).unwrap();
        assert_eq!(options.size, BoardSize::Six);
        assert!(options.reprompt_invalid && !options.score_header);
        assert!(serde_json::from_str::<PownOptions>(r#"{"size": 7}"#).is_err());
        assert!(serde_json::from_str::<PownOptions>(r#"{"colour": 1}"#).is_err());
    }
}
