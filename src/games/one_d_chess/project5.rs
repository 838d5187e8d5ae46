//! Dialect `project5` (seed 000): the call protocol over the handout's functions, and its
//! variants: the names, tokens and messages come from an [`Interface`].

use super::engine::{Board, Direction, Kind, Piece, Side, CELLS};
use super::events::{self, Event};
use super::inputs::{own_cells, refused_positions};
use super::interface::{Interface, NegativePositions, Printed, HANDOUT};
use super::policy::{EITHER_ORDER, PRINTS_BOARD, REVERSED};
use super::render::{list_repr, render};
use crate::games::rule_events::EventLog;
use crate::games::{
    bool_option, check_option_keys, GameOptions, OptionError, Part, PartsTable, Reply, Response,
    Session,
};

/// The handout's words on the wire: scenarios send these whatever a variant calls them.
const WIRE_EMPTY: &str = "EMPTY";

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "WHITE",
        Side::Black => "BLACK",
    }
}

fn direction_word(direction: Direction) -> &'static str {
    match direction {
        Direction::Left => "LEFT",
        Direction::Right => "RIGHT",
    }
}

/// A command of the protocol, parsed.
#[derive(Clone, Copy)]
pub(super) enum Command {
    /// Set-up: the session's board becomes this one, no student code called.
    SetBoard(Board),
    CreateBoard,
    PrintableBoard,
    IsValidMove(i64, Side),
    Move(i64, Direction, Option<Kind>),
    IsGameOver,
    WhosTheWinner,
    ShowBoard,
}

/// The value a word names: the handout's word for it or the interface's token.
fn token<T: Copy>(word: &str, what: &str, choices: [(T, &str, &String); 2]) -> Result<T, String> {
    choices
        .iter()
        .find(|(_, handout, own)| word == *handout || word == own.as_str())
        .map(|(value, _, _)| *value)
        .ok_or_else(|| {
            format!(
                "ValueError: {what} must be {} or {}, got {word:?}",
                choices[0].2, choices[1].2
            )
        })
}

/// Reads a command line. A player or direction is the handout's word or the interface's.
pub(super) fn parse(line: &str, interface: &Interface) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let tokens = &interface.tokens;
    let position = |word: &str| {
        word.parse::<i64>()
            .map_err(|_| format!("ValueError: position must be an integer, got {word:?}"))
    };
    let side = |word: &str| {
        token(
            word,
            "player",
            [
                (Side::White, side_word(Side::White), &tokens.white),
                (Side::Black, side_word(Side::Black), &tokens.black),
            ],
        )
    };
    let direction = |word: &str| {
        token(
            word,
            "direction",
            [
                (
                    Direction::Left,
                    direction_word(Direction::Left),
                    &tokens.left,
                ),
                (
                    Direction::Right,
                    direction_word(Direction::Right),
                    &tokens.right,
                ),
            ],
        )
    };
    let name = words.first().copied().unwrap_or("");
    let known = matches!(name, "set_board" | "board") || interface.has(name);
    let command = match words.as_slice() {
        _ if !known => return Err(format!("UnknownCommand: {line:?}")),
        ["set_board", cells @ ..] => parse_cells(cells, &tokens.empty).map(Command::SetBoard)?,
        ["create_board"] => Command::CreateBoard,
        // `copy`: the student's function gets a copy of the board (the reference never
        // changes it either way).
        ["printable_board"] | ["printable_board", "copy"] => Command::PrintableBoard,
        ["is_valid_move", pos, player] => Command::IsValidMove(position(pos)?, side(player)?),
        [name @ ("move" | "move_king" | "move_knight"), pos, dir] => {
            let kind = match *name {
                "move_king" => Some(Kind::King),
                "move_knight" => Some(Kind::Knight),
                _ => None,
            };
            Command::Move(position(pos)?, direction(dir)?, kind)
        }
        ["is_game_over"] => Command::IsGameOver,
        ["whos_the_winner"] => Command::WhosTheWinner,
        ["board"] => Command::ShowBoard,
        _ => return Err(format!("UnknownCommand: {line:?}")),
    };
    Ok(command)
}

/// The parts of a project5 response a scenario may judge: the board list `create_board`
/// and `board` answer, the text `printable_board` shows (what it printed, then what it
/// returned), the value `is_valid_move` and `is_game_over` return, and whatever a call
/// printed.
pub const PARTS: &[&str] = &["board", "text", "value", "printed"];

/// project5's responses in parts, for the dialects whose functions it serves.
pub static PARTS_TABLE: PartsTable = PartsTable {
    names: PARTS,
    split: split_response,
    parts: response_parts,
};

/// The command name of a protocol line.
fn command_name(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// A response written as text in framed form: the moves print (they return nothing),
/// `is_game_over` prints and then returns its last line, `printable_board` returns
/// everything unless its last line is `None` (a board printed, nothing returned), the others
/// return everything.
pub fn split_response(command: &str, text: &str) -> Response {
    let mut response = Response::from_text(text);
    if response.error.is_some() {
        return response;
    }
    let value = response.value.take().unwrap_or_default();
    match command_name(command) {
        "move" | "move_king" | "move_knight" => response.printed = value,
        "is_game_over" => {
            let (printed, last) = split_last_line(&value);
            response.printed = printed.to_string();
            response.value = (!last.is_empty()).then(|| last.to_string());
        }
        "printable_board" if split_last_line(&value).1.trim_end() == NONE => {
            let (printed, last) = split_last_line(&value);
            response.printed = printed.to_string();
            response.value = Some(last.to_string());
        }
        _ => response.value = (!value.is_empty()).then_some(value),
    }
    response
}

/// `text` up to its last line, and its last line.
fn split_last_line(text: &str) -> (&str, &str) {
    let body = text.strip_suffix('\n').unwrap_or(text);
    match body.rfind('\n') {
        Some(at) => (&text[..=at], &text[at + 1..]),
        None => ("", text),
    }
}

/// What a call that returns nothing answers.
const NONE: &str = "None";

/// The named parts of a response to `command` (see [`PARTS`]). The text of `printable_board`
/// is what it printed, then what it returned: the board a program that prints it shows.
/// `printable_board copy` shows the handout's picture in a scenario about another function:
/// what it printed is its text only, so a scenario judging what that function prints does
/// not judge it.
pub fn response_parts(command: &str, response: &Response) -> Vec<Part> {
    let picture_only = command.split_whitespace().eq(["printable_board", "copy"]);
    let mut value = response.value.clone().unwrap_or_default();
    let mut printed = response.printed.clone();
    if command_name(command) == "printable_board" {
        value.insert_str(0, &printed);
    }
    if picture_only {
        printed.clear();
    }
    let value_part = match command_name(command) {
        "create_board" | "board" => "board",
        "printable_board" => "text",
        _ => "value",
    };
    let mut parts = vec![Part::new("printed", printed)];
    parts.extend(["board", "text", "value"].into_iter().map(|name| {
        Part::new(
            name,
            if name == value_part {
                value.clone()
            } else {
                String::new()
            },
        )
    }));
    parts
}

/// The cells of a `set_board` command: nine of `WKi`, `WKn`, `BKi`, `BKn`, and `EMPTY` (or
/// the interface's empty token) for an empty cell.
pub(super) fn parse_cells(words: &[&str], empty: &str) -> Result<Board, String> {
    if words.len() != CELLS {
        return Err(format!(
            "ValueError: set_board takes {CELLS} cells, got {}",
            words.len()
        ));
    }
    let mut cells = [None; CELLS];
    for (cell, word) in cells.iter_mut().zip(words) {
        *cell = match *word {
            code if code == WIRE_EMPTY || code == empty => None,
            code => Some(Piece::from_code(code).ok_or_else(|| {
                format!("ValueError: a cell is WKi, WKn, BKi, BKn or {WIRE_EMPTY}, got {code:?}")
            })?),
        };
    }
    Ok(Board::from_cells(cells))
}

/// The reference answering the project5 commands, or a variant's.
#[derive(Clone)]
pub struct Project5 {
    interface: &'static Interface,
    board: Board,
    /// Whether `create_board` was called (a scenario starts with it, as the handout's do).
    created: bool,
    /// Whose move it is in the game that authoring tools play: the handout's functions take
    /// no turns, so this only alternates the sides of generated moves.
    turn: Side,
    /// Whether the last command could not be carried out.
    refused: bool,
    /// Whether `is_game_over` prints the message and the board in the other order.
    reversed: bool,
    /// Whether `is_game_over` is also answered in the other order at each call.
    either_order: bool,
    /// Whether `printable_board` prints the board and returns nothing (a reading of seed
    /// 000 a course may accept).
    prints_board: bool,
    /// The rule events reached, when counted.
    events: EventLog<Event>,
}

/// A string as Python's `repr` writes it (tokens hold no quote or backslash).
pub(super) fn py_str(text: &str) -> String {
    format!("'{text}'")
}

impl Project5 {
    /// Seed 000's functions.
    pub fn new() -> Self {
        Self::with(&HANDOUT)
    }

    /// The board as the functions called so far left it.
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// A variant's functions.
    pub fn with(interface: &'static Interface) -> Self {
        Project5 {
            interface,
            board: Board::start(),
            created: false,
            turn: Side::White,
            refused: false,
            reversed: false,
            either_order: false,
            prints_board: false,
            events: EventLog::default(),
        }
    }

    /// A variant's functions under a scenario's options: the readings of seed 000 a course
    /// may accept, printing the message and the board of `is_game_over` in the other order
    /// (`game_over_reversed`) or accepting either order at each call
    /// (`game_over_either_order`), and `printable_board` printing the board
    /// (`printable_board_prints`).
    pub fn with_options(
        interface: &'static Interface,
        options: &GameOptions,
    ) -> Result<Self, OptionError> {
        check_option_keys(options, &[REVERSED, EITHER_ORDER, PRINTS_BOARD])?;
        Ok(Project5 {
            reversed: bool_option(options, REVERSED)?,
            either_order: bool_option(options, EITHER_ORDER)?,
            prints_board: bool_option(options, PRINTS_BOARD)?,
            ..Self::with(interface)
        })
    }

    fn board_list(&self) -> Reply {
        Reply::new(format!(
            "{}\n",
            list_repr(&self.board, &self.interface.tokens.empty)
        ))
    }

    fn run(&mut self, command: Command) -> Result<Reply, String> {
        let truth = |b: bool| if b { "True\n" } else { "False\n" };
        Ok(match command {
            Command::SetBoard(board) => {
                self.board = board;
                self.created = true;
                Reply::new("")
            }
            Command::CreateBoard => {
                self.board = Board::start();
                self.created = true;
                self.turn = Side::White;
                self.board_list()
            }
            Command::PrintableBoard if self.prints_board => {
                Reply::new(format!("{}\n{NONE}\n", render(&self.board)))
            }
            Command::PrintableBoard => Reply::new(format!("{}\n", render(&self.board))),
            Command::IsValidMove(position, side) => {
                let board = &self.board;
                self.events
                    .note_with(|| [events::of_validity(board, position, side)]);
                let valid = self.board.is_valid_move(position, side);
                let from_the_end = position < 0
                    && self.interface.negative_positions == NegativePositions::Either
                    && self.board.is_valid_move(position + CELLS as i64, side);
                let reply = Reply::new(truth(valid));
                if from_the_end {
                    reply.or(truth(true))
                } else {
                    reply
                }
            }
            Command::Move(position, direction, kind) => {
                let mut after = self.board;
                let made = match kind {
                    Some(kind) => after.play_kind(position, direction, kind),
                    None => after.play(position, direction),
                };
                self.events.note_with(|| events::of_move(&made, direction));
                made.map_err(|e| format!("InvalidMove: {e}"))?;
                self.board = after;
                self.turn = self.turn.opponent();
                Reply::new("")
            }
            Command::IsGameOver => {
                let board = &self.board;
                self.events.note_with(|| [events::of_game_end(board)]);
                self.game_over_reply()
            }
            Command::WhosTheWinner => {
                let tokens = &self.interface.tokens;
                Reply::new(match self.board.winner() {
                    None => "None\n".to_string(),
                    Some(Side::White) => format!("{}\n", py_str(&tokens.white_winner)),
                    Some(Side::Black) => format!("{}\n", py_str(&tokens.black_winner)),
                })
            }
            Command::ShowBoard => self.board_list(),
        })
    }

    /// Seed 000's example prints `White wins!` then the board; graders accept the message
    /// with or without the board (DESIGN.md, rule decisions), however the board is drawn:
    /// drawing it is printable_board's concern, judged by its own scenarios. A variant
    /// chooses the messages and what is printed in which order; under `game_over_either_order`
    /// the other order is accepted at each call, so a program that prints the board first for
    /// both winners (or the message first for both) passes a scenario where each side wins.
    fn game_over_reply(&self) -> Reply {
        let messages = &self.interface.messages;
        let (message, prints) = match self.board.winner() {
            None => return Reply::new("False\n"),
            Some(Side::White) => (&messages.white_wins, &messages.white_wins_prints),
            Some(Side::Black) => (&messages.black_wins, &messages.black_wins_prints),
        };
        let text = |reversed: bool, board: &str| {
            let mut ordered: Vec<&Printed> = prints.iter().collect();
            if reversed {
                ordered.reverse();
            }
            let mut text: String = ordered
                .iter()
                .map(|p| match p {
                    Printed::Message => format!("{message}\n"),
                    Printed::Board => format!("{board}\n"),
                })
                .collect();
            text.push_str("True\n");
            text
        };
        let orders = if self.either_order {
            vec![self.reversed, !self.reversed]
        } else {
            vec![self.reversed]
        };
        let board = render(&self.board);
        let mut reply = Reply::new(text(self.reversed, &board));
        for reversed in orders {
            reply = reply.or(text(reversed, &board));
            if prints.contains(&Printed::Board) {
                reply = reply.or(text(reversed, "..."));
            }
        }
        reply
    }
}

impl Default for Project5 {
    fn default() -> Self {
        Self::new()
    }
}

impl Session for Project5 {
    fn opening(&mut self) -> Reply {
        Reply::default()
    }

    fn respond(&mut self, line: &str) -> Reply {
        let result = parse(line, self.interface).and_then(|command| self.run(command));
        self.refused = result.is_err();
        match result {
            Ok(reply) => reply,
            Err(error) => Reply::error(error),
        }
    }

    fn is_finished(&self) -> bool {
        false
    }

    fn count_rule_events(&mut self) {
        self.events.start();
    }

    fn take_rule_events(&mut self) -> Vec<&'static str> {
        self.events.take()
    }

    /// `create_board` first; then every move of the side to move, through `move` and
    /// through the function of the piece's kind; nothing once a king is gone.
    fn legal_inputs(&self) -> Vec<String> {
        if !self.created {
            let start = if self.interface.has("create_board") {
                "create_board".to_string()
            } else {
                format!(
                    "set_board {}",
                    Board::start()
                        .cells()
                        .map(|c| c.map_or(WIRE_EMPTY, |p| p.code()))
                        .join(" ")
                )
            };
            return vec![start];
        }
        if self.board.winner().is_some() {
            return Vec::new();
        }
        let mut inputs = Vec::new();
        for cell in own_cells(&self.board, self.turn) {
            let kind = match self.board.cells()[cell].map(|p| p.kind) {
                Some(Kind::King) => "move_king",
                _ => "move_knight",
            };
            for direction in ["LEFT", "RIGHT"] {
                for function in ["move", kind] {
                    if self.interface.has(function) {
                        inputs.push(format!("{function} {cell} {direction}"));
                    }
                }
            }
        }
        inputs
    }

    /// `is_valid_move` on cells the side to move may not move from (its answer is `False`):
    /// the handout defines no other refusal, and its commands that cannot be carried out
    /// (a move from an empty cell) are never sent.
    fn illegal_inputs(&self) -> Vec<String> {
        if !self.created || !self.interface.has("is_valid_move") {
            return Vec::new();
        }
        refused_positions(&self.board, self.turn)
            .into_iter()
            .map(|p| format!("is_valid_move {p} {}", side_word(self.turn)))
            .collect()
    }

    fn probe_inputs(&self) -> Vec<String> {
        [
            "printable_board",
            "board",
            "is_game_over",
            "whos_the_winner",
        ]
        .into_iter()
        .filter(|command| *command == "board" || self.interface.has(command))
        .map(String::from)
        .collect()
    }

    fn rejected(&self) -> bool {
        self.refused
    }

    /// Any command the reference carries out: the handout leaves the others undefined.
    fn is_defined(&self, line: &str) -> bool {
        parse(line, self.interface).is_ok_and(|command| self.clone().run(command).is_ok())
    }

    fn to_move(&self) -> Option<&'static str> {
        Some(side_word(self.turn))
    }

    fn board_view(&self) -> Option<String> {
        Some(format!("{}\n", render(&self.board)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(session: &mut Project5, line: &str) -> String {
        session.respond(line).text
    }

    #[test]
    fn answers_the_handout_functions() {
        let mut s = Project5::new();
        assert_eq!(
            answer(&mut s, "create_board"),
            "['WKi', 'WKn', 'WKn', 'EMPTY', 'EMPTY', 'EMPTY', 'BKn', 'BKn', 'BKi']\n"
        );
        assert_eq!(answer(&mut s, "is_valid_move -1 BLACK"), "False\n");
        assert_eq!(answer(&mut s, "is_valid_move 6 BLACK"), "True\n");
        assert_eq!(answer(&mut s, "move_knight 6 LEFT"), "");
        assert_eq!(
            answer(&mut s, "board"),
            "['WKi', 'WKn', 'WKn', 'EMPTY', 'BKn', 'EMPTY', 'EMPTY', 'BKn', 'BKi']\n"
        );
        assert!(answer(&mut s, "move_king 1 LEFT").starts_with("!error InvalidMove"));
        assert!(answer(&mut s, "jump 1").starts_with("!error UnknownCommand"));
        assert_eq!(answer(&mut s, "is_game_over"), "False\n");
    }

    #[test]
    fn game_over_accepts_the_message_with_or_without_the_board() {
        let mut s = Project5::new();
        // Black's king eats its own knights and White's knight; White's king eats its own
        // knight; Black's king takes White's.
        for line in [
            "move 8 LEFT",
            "move 7 LEFT",
            "move 6 LEFT",
            "move 0 RIGHT",
            "move 2 LEFT",
        ] {
            assert_eq!(s.respond(line).text, "");
        }
        let reply = s.respond("is_game_over");
        assert!(
            reply.text.ends_with("Black wins!\nTrue\n"),
            "{}",
            reply.text
        );
        assert_eq!(reply.also_accepted, ["...\nBlack wins!\nTrue\n"]);
    }

    #[test]
    fn either_order_accepts_the_other_order_at_each_call() {
        let options: GameOptions = [(EITHER_ORDER.to_string(), toml::Value::Boolean(true))]
            .into_iter()
            .collect();
        let mut s = Project5::with_options(&HANDOUT, &options).unwrap();
        assert_eq!(
            s.respond("set_board WKi EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY")
                .text,
            ""
        );
        let board = render(&s.board);
        let reply = s.respond("is_game_over");
        assert_eq!(reply.text, format!("White wins!\n{board}\nTrue\n"));
        assert_eq!(
            reply.also_accepted,
            [
                "White wins!\n...\nTrue\n".to_string(),
                format!("{board}\nWhite wins!\nTrue\n"),
                "...\nWhite wins!\nTrue\n".to_string(),
            ]
        );
        // Without the option, one order only.
        let mut strict = Project5::new();
        strict.respond("set_board WKi EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY EMPTY");
        assert_eq!(
            strict.respond("is_game_over").also_accepted,
            ["White wins!\n...\nTrue\n"]
        );
    }

    #[test]
    fn a_picture_step_counts_what_printable_board_prints_as_its_text() {
        let printed = Response {
            printed: "| WKi |\n".into(),
            ..Response::default()
        };
        let part = |command: &str, name: &str| {
            response_parts(command, &printed)
                .into_iter()
                .find(|part| part.name == name)
                .map(|part| part.text)
                .unwrap_or_default()
        };
        assert_eq!(part("printable_board", "printed"), "| WKi |\n");
        assert_eq!(part("printable_board", "text"), "| WKi |\n");
        assert_eq!(part("printable_board copy", "printed"), "");
        assert_eq!(part("printable_board copy", "text"), "| WKi |\n");
        let mut s = Project5::new();
        assert_eq!(
            answer(&mut s, "printable_board copy"),
            answer(&mut s, "printable_board")
        );
        assert!(answer(&mut s, "printable_board twice").starts_with("!error UnknownCommand"));
    }
}
