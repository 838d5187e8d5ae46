//! Dialect `pown-functions`: seed 002's required functions, called one by one in the
//! student's whole `pown-chess.py` (its game loop is not run). The handout says students
//! "MUST define and use" `display_board()` and `moves_remaining(color)`, with an explicit
//! example (`moves_remaining('w')` is 8 at the start); the program scenarios play whole games,
//! so these say whether each function does its own job. Graded with every `pown` program.

use super::board::Board;
use super::options::{BoardSize, PownOptions};
use super::render::display_board;
use super::square::Color;
use crate::execution::PythonLaunch;
use crate::games::{
    check_option_keys, printed_and_value, Dialect, Origin, PartsTable, Protocol, Reply, Response,
    Session, NO_POLICY_RULES,
};
use std::time::Duration;

pub static DIALECT: Dialect = Dialect {
    name: "pown-functions",
    protocol: Protocol::Call,
    handout: "002_242b462b5409f7c0.txt",
    asks_python3: false,
    entry_file: "pown-chess.py",
    defines: &["display_board", "moves_remaining"],
    python: PythonLaunch::Adapter {
        script: include_str!("functions_adapter.py"),
        // Each call counts or prints one board (microseconds).
        call_limit: Some(Duration::from_secs(2)),
        stubs: &[],
    },
    session: |options| {
        check_option_keys(options, &[])?;
        Ok(Box::new(Functions {
            board: Board::new(BoardSize::Eight),
        }))
    },
    graded_with: Some("pown"),
    parts: Some(&PARTS_TABLE),
    // The functions are the required program's, whatever challenges a course sets.
    policy: &NO_POLICY_RULES,
    battery: None,
    origin: Origin::BuiltIn,
};

/// The parts a response has: what `display_board` printed, what `moves_remaining` returned.
pub const PARTS: &[&str] = &["printed", "value"];

/// The reference: the handout's functions over one `game_board`.
struct Functions {
    board: Board,
}

fn color(word: &str) -> Result<Color, String> {
    match word {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(format!("ValueError: a color is w or b, got {other:?}")),
    }
}

impl Functions {
    fn run(&mut self, line: &str) -> Result<Reply, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["set_board", rows @ ..] => {
                self.board = Board::from_rows(BoardSize::Eight, Color::White, rows)
                    .map_err(|e| format!("ValueError: {e}"))?;
                Ok(Reply::new(""))
            }
            // The optional challenges show the score and a move counter above the board.
            ["display_board"] => {
                let grid = display_board(&self.board, &PownOptions::default(), 1);
                Ok(Reply::new(grid.clone()).or(format!("...\n{grid}")))
            }
            ["moves_remaining", side] => Ok(Reply::new(format!(
                "{}\n",
                self.board.moves_remaining(color(side)?)
            ))),
            _ => Err(format!("UnknownCommand: {line:?}")),
        }
    }
}

impl Session for Functions {
    fn opening(&mut self) -> Reply {
        Reply::default()
    }

    fn respond(&mut self, line: &str) -> Reply {
        self.run(line).unwrap_or_else(Reply::error)
    }

    fn is_finished(&self) -> bool {
        false
    }

    /// Calls that read the position: the functions take no turns, so any of them is a move
    /// for the authoring tools.
    fn legal_inputs(&self) -> Vec<String> {
        ["moves_remaining w", "moves_remaining b", "display_board"]
            .map(String::from)
            .to_vec()
    }

    fn is_defined(&self, line: &str) -> bool {
        let mut copy = Functions {
            board: self.board.clone(),
        };
        copy.run(line).is_ok()
    }
}

/// A response written as text: `display_board` prints, `moves_remaining` returns.
pub fn split_response(command: &str, text: &str) -> Response {
    let mut response = Response::from_text(text);
    if response.error.is_none() && command.split_whitespace().next() == Some("display_board") {
        response.printed = response.value.take().unwrap_or_default();
    }
    response
}

/// The functions' responses in parts: what `display_board` printed, what `moves_remaining`
/// returned.
static PARTS_TABLE: PartsTable = PartsTable {
    names: PARTS,
    split: split_response,
    parts: printed_and_value,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_remaining_is_eight_at_the_start_and_counts_movable_powns() {
        let mut s = (DIALECT.session)(&Default::default()).unwrap();
        assert_eq!(s.respond("moves_remaining w").text, "8\n");
        assert_eq!(s.respond("moves_remaining b").text, "8\n");
        let rows =
            "set_board ........ ........ ........ ........ ........ ........ b....... w.w.....";
        assert_eq!(s.respond(rows).text, "");
        // w on row 8 cannot move; b on A7 can (onto A6).
        assert_eq!(s.respond("moves_remaining w").text, "0\n");
        assert_eq!(s.respond("moves_remaining b").text, "1\n");
        assert!(s.respond("moves_remaining x").text.starts_with("!error"));
        assert!(s.respond("display_board").text.contains("| w |   | w |"));
    }
}
