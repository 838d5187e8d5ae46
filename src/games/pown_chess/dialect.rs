//! Pown chess behind the `Game` trait: the `pown` dialect's reference program, its options,
//! its board reader and its accepted spellings.

use std::borrow::Cow;

use super::battery::CAPTURES;
use super::functions;
use super::lenient::canonical_line;
use super::messages::{self, INVALID_MOVE};
use super::options::PownOptions;
use super::policy;
use super::program::PownProgram;
use super::square::{Color, Square};
use crate::execution::PythonLaunch;
use crate::games::board_text::{BoardDrawing, Piece, Side};
use crate::games::{
    BoardReader, CaseShrink, Dialect, DivergentStep, FoundBoard, Game, GameOptions, OptionError,
    Origin, Protocol, Reply, RuleEvent, Session,
};

static DIALECTS: &[Dialect] = &[
    Dialect {
        name: "pown",
        protocol: Protocol::Program,
        handout: "002_242b462b5409f7c0.txt",
        asks_python3: false,
        entry_file: "pown-chess.py",
        // The handout asks for a whole script that "MUST define and use" `display_board()`
        // and `moves_remaining(color)` and keeps the board in "a single game_board variable"
        // (a top-level assignment, not a def): a file that binds most of them is a pown
        // program whatever it is called.
        defines: &["display_board", "moves_remaining", "game_board"],
        python: PythonLaunch::Program { stubs: &[] },
        session: |table| {
            Ok(Box::new(Program {
                program: PownProgram::new(options(table)?),
                refused: false,
            }))
        },
        graded_with: None,
        parts: None,
        policy: &policy::Challenges,
        // One game per family, typed into the whole program.
        battery: Some(&super::battery::PownBattery),
        origin: Origin::BuiltIn,
    },
    functions::DIALECT,
];

/// The game `pown-chess`.
pub struct PownChess;

/// The reference program, and whether it refused the last line typed.
struct Program {
    program: PownProgram,
    refused: bool,
}

impl Session for Program {
    fn opening(&mut self) -> Reply {
        Reply::new(self.program.opening())
    }

    fn respond(&mut self, line: &str) -> Reply {
        let text = self.program.input(line);
        self.refused = text.starts_with(INVALID_MOVE);
        Reply::new(text)
    }

    fn is_finished(&self) -> bool {
        self.program.is_finished()
    }

    fn count_rule_events(&mut self) {
        self.program.count_rule_events();
    }

    fn take_rule_events(&mut self) -> Vec<&'static str> {
        self.program.take_rule_events()
    }

    /// The squares of the powns the player to move can move.
    fn legal_inputs(&self) -> Vec<String> {
        if self.program.is_finished() {
            return Vec::new();
        }
        let board = self.program.board();
        board
            .movable_pieces(board.to_move())
            .map(|square| square.to_string())
            .collect()
    }

    /// Every other square of the board (empty, the opponent's, a pown that cannot move) and
    /// names of squares off the board: each is `INVALID MOVE`.
    fn illegal_inputs(&self) -> Vec<String> {
        if self.program.is_finished() {
            return Vec::new();
        }
        let board = self.program.board();
        let movable: Vec<Square> = board.movable_pieces(board.to_move()).collect();
        let n = board.size().get();
        let mut inputs: Vec<String> = board
            .squares()
            .filter(|square| !movable.contains(square))
            .map(|square| square.to_string())
            .collect();
        inputs.push(format!("{}1", Square::col_letter(n)));
        inputs.push("A0".to_string());
        inputs.push(format!("A{}", n + 1));
        inputs
    }

    fn rejected(&self) -> bool {
        self.refused
    }

    fn to_move(&self) -> Option<&'static str> {
        Some(match self.program.board().to_move() {
            Color::White => "w",
            Color::Black => "b",
        })
    }

    /// Every line typed before the end of the game has an answer the handout defines.
    fn is_defined(&self, _line: &str) -> bool {
        !self.program.is_finished()
    }
}

/// Reads the scenario's `options` table (`score_header`, `move_counter`, `reprompt_invalid`,
/// `size`), naming the key at fault.
fn options(table: &GameOptions) -> Result<PownOptions, OptionError> {
    toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e: toml::de::Error| {
            let message = e.message().trim().to_string();
            let key = message
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split('`').next())
                .map(str::to_string)
                .or_else(|| table.keys().find(|k| message.contains(k.as_str())).cloned())
                .unwrap_or_else(|| "options".to_string());
            OptionError::new(key, message)
        })
}

impl Game for PownChess {
    fn name(&self) -> &'static str {
        "pown-chess"
    }

    fn dialects(&self) -> &'static [Dialect] {
        DIALECTS
    }

    fn board_reader(&self) -> &dyn BoardReader {
        &PownBoards
    }

    fn rule_events(&self) -> &'static [RuleEvent] {
        super::events::Event::ALL
    }

    /// The whole program's divergence as the rule of the move typed last, as the reference
    /// applies it to the position the moves before it left (a battery's games are long), or
    /// before any, as what the opening shows.
    fn explain(&self, step: &DivergentStep<'_>) -> Vec<String> {
        let (Protocol::Program, Ok(options)) = (step.dialect.protocol, options(step.options))
        else {
            return Vec::new();
        };
        let mut program = PownProgram::new(options);
        let Some((last, before)) = step.sent.split_last() else {
            return vec![format!("the opening: {}", program.opening_rule())];
        };
        program.opening();
        for line in before {
            program.advance(line);
        }
        if program.is_finished() {
            return Vec::new();
        }
        let rule = format!(
            "line {} typed ({last:?}): {}",
            before.len() + 1,
            program.rule_for(last)
        );
        vec![rule]
    }

    /// The line typed last and the lines before it, as the reference sees its case.
    fn shortest_case(&self, step: &DivergentStep<'_>) -> Option<Box<dyn CaseShrink>> {
        let (Protocol::Program, Ok(options)) = (step.dialect.protocol, options(step.options))
        else {
            return None;
        };
        let (last, before) = step.sent.split_last()?;
        let case = super::shortest::case(options, before, last)?;
        Some(Box::new(case))
    }

    fn normalize_line<'a>(&self, _dialect: &Dialect, line: &'a str) -> Cow<'a, str> {
        canonical_line(line)
    }

    /// The capture line: printed at every capture of every game, judged by the scenarios
    /// about captures.
    fn judged_apart(&self, dialect: &Dialect, line: &str) -> Option<&'static str> {
        (dialect.protocol == Protocol::Program && messages::is_powns_line(line)).then_some(CAPTURES)
    }
}

/// Reads the printed boards: a column header, rule lines and numbered row lines.
pub struct PownBoards;

/// `3  | w |   | b |`: the row number and the cells.
fn row_line(line: &str) -> Option<(u32, Vec<String>)> {
    let text = line.trim_start();
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let row: u32 = digits.parse().ok()?;
    let cells = text[digits.len()..]
        .trim()
        .strip_prefix('|')?
        .strip_suffix('|')?;
    let cells: Vec<String> = cells
        .split('|')
        .map(|c| match c.trim() {
            "" => "empty".to_string(),
            other => other.to_string(),
        })
        .collect();
    Some((row, cells))
}

fn frame_line(line: &str) -> bool {
    let text = line.trim();
    let rule = !text.is_empty() && text.chars().all(|c| c == '+' || c == '-') && text.contains('+');
    let header = !text.is_empty()
        && text
            .split_whitespace()
            .all(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()));
    rule || header
}

impl BoardReader for PownBoards {
    fn find_boards(&self, text: &str) -> Vec<FoundBoard> {
        let lines: Vec<&str> = text.lines().collect();
        let mut boards = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            if !(row_line(lines[i]).is_some() || frame_line(lines[i])) {
                i += 1;
                continue;
            }
            let first = i;
            let mut cells = Vec::new();
            while i < lines.len() {
                if let Some((row, values)) = row_line(lines[i]) {
                    for (col, value) in values.into_iter().enumerate() {
                        let letter = char::from(b'A' + (col as u8).min(25));
                        cells.push((format!("{letter}{row}"), value));
                    }
                } else if !frame_line(lines[i]) {
                    break;
                }
                i += 1;
            }
            if !cells.is_empty() {
                boards.push(FoundBoard {
                    first_line: first,
                    line_count: i - first,
                    cells,
                });
            }
        }
        boards
    }

    fn drawing(&self) -> Option<&dyn BoardDrawing> {
        Some(self)
    }
}

impl BoardDrawing for PownBoards {
    /// The cells of the first printed row (`A1`, `B1`, ...: a letter, then the row number).
    fn columns(&self, board: &FoundBoard) -> usize {
        let row = |name: &str| name.get(1..).map(str::to_string);
        let first = board.cells.first().and_then(|(name, _)| row(name));
        board
            .cells
            .iter()
            .take_while(|(name, _)| row(name) == first)
            .count()
    }

    fn piece(&self, content: &str) -> Option<Piece> {
        match content {
            "empty" => None,
            "w" => Some(Piece::new("♙", Side::White)),
            "b" => Some(Piece::new("♟", Side::Black)),
            other => Some(Piece::new(other, Side::Unknown)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_text::{canonical, cell_diffs};

    #[test]
    fn names_squares_and_sees_misalignment_as_presentation() {
        let start = PownProgram::new(PownOptions::default()).opening();
        let boards = PownBoards.find_boards(&start);
        assert_eq!(boards.len(), 1);
        assert_eq!(boards[0].cells.len(), 64);
        assert_eq!(boards[0].cells[0], ("A1".to_string(), "w".to_string()));
        let moved = start
            .replacen("2  |   |", "2  | w |", 1)
            .replacen("1  | w |", "1  |   |", 1);
        let named: Vec<String> = cell_diffs(&PownBoards, &start, &moved)
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            named,
            ["A1: expected w, got empty", "A2: expected empty, got w"]
        );
        let shifted = start.replace("1  |", "1 |");
        assert_ne!(shifted, start);
        assert_eq!(
            canonical(&PownBoards, &shifted),
            canonical(&PownBoards, &start)
        );
    }

    #[test]
    fn options_are_read_and_typos_named() {
        let pown = PownChess.dialect("pown").unwrap();
        let mut table = GameOptions::new();
        table.insert("size".into(), toml::Value::Integer(6));
        assert!(PownChess.start(pown, &table).is_ok());
        table.insert("score_heder".into(), toml::Value::Boolean(true));
        let error = PownChess.start(pown, &table).err().unwrap();
        assert_eq!(error.key, "score_heder");
        let mut table = GameOptions::new();
        table.insert("size".into(), toml::Value::Integer(7));
        assert_eq!(PownChess.start(pown, &table).err().unwrap().key, "size");
    }
}
