//! Dialect `ecs198f` (seed 004): the call protocol over a `ChessLogic` object, as
//! `specs/chess/PROTOCOL.md` writes it down.
//!
//! - `play_move MOVE` answers the returned string as Python prints its repr (`'e2e4'`,
//!   `''`); `play_move` alone plays the empty string;
//! - `board` answers the `board` field as 8 lines, rank 8 first, `.` for an empty square;
//! - `result` answers the `result` field's repr;
//! - `new_game` starts a new game (a new `ChessLogic()`), answering nothing: a battery
//!   plays many games in one session.

use std::borrow::Cow;

use super::attacks::{king_attacks, knight_attacks};
use super::interface::{Interface, HANDOUT};
use super::logic::{ChessLogic, ChessOptions};
use super::notation::parse_move;
use super::position::Position;
use super::render::board_lines;
use super::rules::{classify, classify_text, Event, History};
use super::spellings;
use super::types::{Color, Role, Square};
use crate::games::rule_events::EventLog;
use crate::games::{
    bool_option, check_option_keys, GameOptions, OptionError, Part, PartsTable, Reply, Response,
    Session,
};

/// The parts of an ecs198f response a scenario may judge: whether `play_move` accepted the
/// move (a non-empty answer) or refused it (`''`), the notation string it returned, the
/// `board` field and the `result` field. Rule scenarios judge the state (`accepted`,
/// `board`, `result`), notation scenarios the `notation`.
pub const PARTS: &[&str] = &["accepted", "notation", "board", "result"];

/// ecs198f's responses in parts: `!` lines are tags, the rest the return value.
pub static PARTS_TABLE: PartsTable = PartsTable {
    names: PARTS,
    split: |_, text| Response::from_text(text),
    parts: response_parts,
};

/// The named parts of a response to `command` (see [`PARTS`]).
pub fn response_parts(command: &str, response: &Response) -> Vec<Part> {
    let value = response.value.clone().unwrap_or_default();
    let (mut accepted, mut notation, mut board, mut result) = Default::default();
    match command.split_whitespace().next().unwrap_or("") {
        "play_move" => {
            accepted = match value.trim_end() {
                "" => String::new(),
                "''" | "\"\"" => "refused\n".to_string(),
                answer if spellings::is_message(answer) => {
                    format!("{}\n", spellings::REFUSED_WITH_MESSAGE)
                }
                _ => "accepted\n".to_string(),
            };
            notation = value;
        }
        "board" => board = value,
        "result" => result = value,
        _ => notation = value,
    }
    vec![
        Part::new("accepted", accepted),
        Part::new("notation", notation),
        Part::new("board", board),
        Part::new("result", result),
    ]
}

/// The keys of a scenario's `options` table.
pub const OPTION_KEYS: &[&str] = &["draw_rules", "lenient_notation", "upper_case_moves"];

/// What a scenario's `options` ask of the game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScenarioOptions {
    /// End the game drawn on insufficient material, fifty moves and threefold repetition.
    pub draw_rules: bool,
    /// Also accept answers that spell castling `O-O` / `O-O-O` or the piece letter in upper
    /// case (`Ng1f3`). The moves sent stay the handout's strict `e2e4` form either way.
    pub lenient_notation: bool,
    /// Play an upper-case move string (`E2E4`) as the move it names, as a submission may
    /// under the course policy's `accept_upper_case_moves`.
    pub upper_case_moves: bool,
}

impl ScenarioOptions {
    pub fn parse(options: &GameOptions) -> Result<ScenarioOptions, OptionError> {
        check_option_keys(options, OPTION_KEYS)?;
        Ok(ScenarioOptions {
            draw_rules: bool_option(options, "draw_rules")?,
            lenient_notation: bool_option(options, "lenient_notation")?,
            upper_case_moves: bool_option(options, "upper_case_moves")?,
        })
    }

    /// A reference game under these options. Its input stays strict: lenient notation
    /// widens what graders accept in answers, not what scenarios send.
    pub fn new_game(&self) -> ChessLogic {
        ChessLogic::new(ChessOptions {
            draw_rules: self.draw_rules,
            lenient_notation: false,
        })
    }
}

/// The reference answering the ecs198f commands, or a variant's.
pub struct Ecs198f {
    game: ChessLogic,
    options: ScenarioOptions,
    /// How its answers are spelled.
    interface: &'static Interface,
    /// Whether the last command was a move answered `''` or a command answered `!error`.
    refused: bool,
    /// The rule events its moves reached, when counted, and the history that tells them.
    events: EventLog<Event>,
    history: History,
}

impl Ecs198f {
    /// Seed 004's `ChessLogic`.
    pub fn new(options: ScenarioOptions) -> Self {
        Self::with(options, &HANDOUT)
    }

    /// A variant's.
    pub fn with(options: ScenarioOptions, interface: &'static Interface) -> Self {
        Ecs198f {
            game: options.new_game(),
            options,
            interface,
            refused: false,
            events: EventLog::default(),
            history: History::default(),
        }
    }

    fn play_move(&mut self, mv: &str) -> Reply {
        let mv = match self.options.upper_case_moves {
            true => Cow::Owned(mv.to_ascii_lowercase()),
            false => Cow::Borrowed(mv),
        };
        let before = self.events.is_on().then(|| self.game.clone());
        let answer = self.game.play_move(&mv);
        if let Some(before) = before {
            self.note(&before, &mv, !answer.is_empty());
        }
        self.refused = answer.is_empty();
        let reply = Reply::new(format!("{}\n", py_str(&self.interface.spell(&answer))));
        match lenient_spelling(&answer) {
            Some(other) if self.options.lenient_notation => reply
                .or(format!("{}\n", py_str(&answer)))
                .or(format!("{}\n", py_str(&other))),
            _ => reply,
        }
    }

    /// Counts the rule `mv` exercised in the game `before` it, and remembers it in the
    /// history when it was `played`.
    fn note(&mut self, before: &ChessLogic, mv: &str, played: bool) {
        let position = before.position();
        let parsed = parse_move(position, mv, before.options().lenient_notation);
        let event = match (before.outcome(), parsed) {
            (Some(_), _) => Event::MoveAfterTheEnd,
            (None, Some(m)) => classify(position, &self.history, m.from(), m.to()).event,
            (None, None) => classify_text(position, &self.history, mv).event,
        };
        self.events.note(event);
        if let Some(m) = parsed.filter(|_| played) {
            self.history.record(position, &m);
        }
    }
}

/// The other spelling a lenient grader accepts: `O-O` for `0-0`, an upper-case piece letter.
fn lenient_spelling(answer: &str) -> Option<String> {
    if answer.starts_with("0-0") {
        return Some(answer.replace('0', "O"));
    }
    let first = answer.chars().next().filter(|c| "kqrbn".contains(*c))?;
    Some(format!("{}{}", first.to_ascii_uppercase(), &answer[1..]))
}

impl Session for Ecs198f {
    fn opening(&mut self) -> Reply {
        Reply::default()
    }

    fn respond(&mut self, line: &str) -> Reply {
        self.refused = false;
        let reply = self.answer(line);
        self.refused |= reply.text.starts_with("!error");
        reply
    }

    fn is_finished(&self) -> bool {
        false
    }

    /// Every legal move of the side to move, as `play_move FROMTO` (a promotion is always to
    /// a queen, so it is sent without a letter); nothing once the game is over.
    fn legal_inputs(&self) -> Vec<String> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        let mut inputs: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(|m| format!("play_move {}{}", m.from(), m.to()))
            .collect();
        inputs.sort();
        inputs.dedup();
        inputs
    }

    /// Moves students get wrong, each answered `''`: the king into check or castling when it
    /// may not, pawn steps that are blocked or capture nothing, knight jumps that a pin, a
    /// check or an own piece forbids, a move of the other side, malformed strings; after the
    /// end of the game, any move.
    fn illegal_inputs(&self) -> Vec<String> {
        let legal = self.legal_inputs();
        let mut inputs: Vec<String> = attempts(self.game.position())
            .into_iter()
            .map(|(from, to)| format!("play_move {from}{to}"))
            .filter(|input| !legal.contains(input))
            .collect();
        inputs.extend(["play_move e2", "play_move e9e4"].map(String::from));
        inputs
    }

    fn probe_inputs(&self) -> Vec<String> {
        ["board", "result"].map(String::from).to_vec()
    }

    fn rejected(&self) -> bool {
        self.refused
    }

    /// Every `play_move` of one word (malformed ones answer `''`), `board` and `result`.
    fn is_defined(&self, line: &str) -> bool {
        matches!(
            line.split_whitespace().collect::<Vec<_>>().as_slice(),
            ["play_move"] | ["play_move", _] | ["board"] | ["result"] | ["new_game"]
        )
    }

    fn to_move(&self) -> Option<&'static str> {
        Some(match self.game.position().turn() {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    fn count_rule_events(&mut self) {
        self.events.start();
    }

    fn take_rule_events(&mut self) -> Vec<&'static str> {
        self.events.take()
    }

    fn board_view(&self) -> Option<String> {
        let status = match self.game.result() {
            "" if self.game.position().turn() == Color::White => "white to move",
            "" => "black to move",
            "w" => "white won",
            "b" => "black won",
            _ => "drawn",
        };
        Some(format!(
            "{}{status}\n",
            board_lines(&self.game.board_rows())
        ))
    }
}

/// Moves a player may try, legal or not: the mover's king to each neighbour and two files
/// over (castling), its knights' jumps, its pawns' steps and captures, and the other side's
/// pawns one step on; none onto a piece of the same colour.
fn attempts(position: &Position) -> Vec<(Square, Square)> {
    let mover = position.turn();
    let forward: i8 = if mover == Color::White { 1 } else { -1 };
    let mut moves = Vec::new();
    for from in (0..64).filter_map(Square::from_index) {
        let Some(piece) = position.piece_at(from) else {
            continue;
        };
        let steps = |deltas: &[(i8, i8)]| -> Vec<Square> {
            deltas
                .iter()
                .filter_map(|&(df, dr)| from.offset(df, dr * forward))
                .collect()
        };
        let targets: Vec<Square> = match (piece.color == mover, piece.role) {
            (true, Role::King) => king_attacks(from)
                .chain(steps(&[(2, 0), (-2, 0)]))
                .collect(),
            (true, Role::Knight) => knight_attacks(from).collect(),
            (true, Role::Pawn) => steps(&[(0, 1), (0, 2), (-1, 1), (1, 1)]),
            (false, Role::Pawn) => steps(&[(0, -1)]),
            _ => Vec::new(),
        };
        // A piece onto one of its own is refused by any program: not worth an attempt.
        let open = |to: &Square| {
            position
                .piece_at(*to)
                .is_none_or(|p| p.color != piece.color)
        };
        moves.extend(targets.into_iter().filter(open).map(|to| (from, to)));
    }
    moves
}

impl Ecs198f {
    fn answer(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The adapter's answers to malformed commands, word for word.
        let usage = |name: &str, arity: usize| {
            Reply::new(format!(
                "!error UsageError: {name} takes {arity} argument(s)\n"
            ))
        };
        match words.as_slice() {
            [] => Reply::default(),
            ["play_move"] => self.play_move(""),
            ["play_move", mv] => self.play_move(mv),
            ["play_move", ..] => usage("play_move", 1),
            ["new_game"] => {
                self.game = self.options.new_game();
                self.history = History::default();
                Reply::default()
            }
            ["board"] => Reply::new(board_lines(&self.game.board_rows())),
            ["result"] => Reply::new(format!("{}\n", py_str(self.game.result()))),
            [name @ ("board" | "result" | "new_game"), ..] => usage(name, 0),
            [other, ..] => Reply::error(format!("UnknownCommand: {}", py_str(other))),
        }
    }
}

/// A string as Python's `repr` prints it.
pub fn py_str(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || ('\u{7f}'..='\u{a0}').contains(&c) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(options: &str) -> Ecs198f {
        let table: GameOptions = options.parse().expect("TOML options");
        Ecs198f::new(ScenarioOptions::parse(&table).expect("valid options"))
    }

    fn answer(s: &mut Ecs198f, line: &str) -> String {
        s.respond(line).text
    }

    #[test]
    fn answers_moves_board_and_result() {
        let mut s = session("");
        assert_eq!(answer(&mut s, "play_move e2e4"), "'e2e4'\n");
        assert_eq!(answer(&mut s, "play_move e2e4"), "''\n");
        assert_eq!(answer(&mut s, "play_move"), "''\n");
        assert_eq!(answer(&mut s, "play_move g8f6"), "'ng8f6'\n");
        assert_eq!(
            answer(&mut s, "board"),
            "rnbqkb.r\npppppppp\n.....n..\n........\n....P...\n........\nPPPP.PPP\nRNBQKBNR\n"
        );
        assert_eq!(answer(&mut s, "result"), "''\n");
        assert_eq!(answer(&mut s, ""), "");
    }

    #[test]
    fn malformed_commands_answer_as_the_adapter_does() {
        let mut s = session("");
        assert_eq!(
            answer(&mut s, "play_move e2 e4"),
            "!error UsageError: play_move takes 1 argument(s)\n"
        );
        assert_eq!(
            answer(&mut s, "board now"),
            "!error UsageError: board takes 0 argument(s)\n"
        );
        assert_eq!(answer(&mut s, "undo it"), "!error UnknownCommand: 'undo'\n");
    }

    #[test]
    fn lenient_notation_accepts_other_spellings_of_answers_only() {
        let mut strict = session("");
        assert!(strict.respond("play_move g1f3").also_accepted.is_empty());
        let mut s = session("lenient_notation = true");
        let reply = s.respond("play_move g1f3");
        assert_eq!(reply.text, "'ng1f3'\n");
        assert_eq!(reply.also_accepted, ["'Ng1f3'\n"]);
        assert!(s.respond("play_move e7e5").also_accepted.is_empty());
        assert_eq!(
            answer(&mut s, "play_move Nf3g1"),
            "''\n",
            "input stays strict"
        );
        assert_eq!(lenient_spelling("0-0-0").as_deref(), Some("O-O-O"));
        assert_eq!(lenient_spelling("").as_deref(), None);
    }

    #[test]
    fn options_are_checked() {
        let table: GameOptions = "draw_rule = true".parse().unwrap();
        assert_eq!(ScenarioOptions::parse(&table).unwrap_err().key, "draw_rule");
        let table: GameOptions = "draw_rules = 1".parse().unwrap();
        assert!(ScenarioOptions::parse(&table)
            .unwrap_err()
            .message
            .contains("true or false"));
    }

    #[test]
    fn python_repr_of_strings() {
        assert_eq!(py_str(""), "''");
        assert_eq!(py_str("it's"), "\"it's\"");
        assert_eq!(py_str("'\""), "'\\'\"'");
        assert_eq!(py_str("a\\b\n\t\u{1}"), "'a\\\\b\\n\\t\\x01'");
        assert_eq!(py_str("é"), "'é'");
    }
}
