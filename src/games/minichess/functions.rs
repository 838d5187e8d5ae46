//! A miniChess dialect's two functions (names, and the order of their arguments) and the
//! command lines that call them: written and read here, so that the dialect table
//! (`dialect.rs`) and the reference session that answers them (`session.rs`) need not know
//! each other.

use super::board::{Board, Color};
use super::notation::{self, Rows};

/// The two functions of a dialect and how they take their arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Functions {
    /// The move generator: a board and a color to the list of boards one move away.
    pub maker: &'static str,
    /// The move chooser: a list of boards and a color to one of those boards.
    pub chooser: &'static str,
    /// True when the color comes first (`generateMoves(color, board)`).
    pub color_first: bool,
}

/// A protocol command, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    Maker { board: Board, color: Color },
    Chooser { boards: Vec<Board>, color: Color },
}

impl Functions {
    /// The command line asking for the moves of `color` on `board`.
    pub fn maker_line(&self, board: &Board, color: Color) -> String {
        self.line(self.maker, notation::board_text(board), color)
    }

    /// The command line asking to choose among `boards` (as a submission gave them).
    pub fn chooser_line(&self, boards: &[Rows], color: Color) -> String {
        self.line(self.chooser, notation::rows_list_text(boards), color)
    }

    fn line(&self, function: &str, boards: String, color: Color) -> String {
        if self.color_first {
            format!("{function} {} {boards}", color.code())
        } else {
            format!("{function} {boards} {}", color.code())
        }
    }

    /// Reads a command line: one of the two function names, then its arguments as JSON
    /// values in the dialect's order. The message of an error reads like Python's.
    pub fn parse(&self, line: &str) -> Result<Call, String> {
        let line = line.trim();
        let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let is_maker = if name == self.maker {
            true
        } else if name == self.chooser {
            false
        } else {
            return Err(format!("UnknownCommand: '{name}'"));
        };
        let values = notation::json_values(rest).map_err(|e| format!("ValueError: {e}"))?;
        let [first, second] = values.as_slice() else {
            return Err(format!(
                "TypeError: {name}() takes 2 arguments but {} were given",
                values.len()
            ));
        };
        let (boards, color) = if self.color_first {
            (second, first)
        } else {
            (first, second)
        };
        let color = notation::color_from_value(color).map_err(|e| format!("ValueError: {e}"))?;
        let invalid = |e: String| format!("ValueError: {e}");
        if is_maker {
            let rows = notation::rows_from_value(boards, "the board").map_err(invalid)?;
            let board = notation::board_of(&rows).map_err(invalid)?;
            Ok(Call::Maker { board, color })
        } else {
            let list = notation::rows_list_from_value(boards, "the list").map_err(invalid)?;
            let boards = list
                .iter()
                .map(|rows| notation::board_of(rows))
                .collect::<Result<Vec<_>, _>>()
                .map_err(invalid)?;
            Ok(Call::Chooser { boards, color })
        }
    }
}
