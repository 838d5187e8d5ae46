//! Dialect `csc110` (seed 001): the whole program, driven by the course's starter `main()`.
//!
//! The starter loops until a king is gone: print the board, prompt for an index (an integer)
//! and a direction (`l` or `r`), and only if `is_valid_move` holds play the move, pass the turn
//! and check for the end of the game. An invalid move prints the board again and prompts the
//! same player, with no message.

use super::engine::{Board, Direction, Side};
use super::events::{self, Event};
use super::inputs::{own_cells, refused_positions};
use super::render::render;
use crate::games::rule_events::EventLog;
use crate::games::{OptionsOnly, Reply, Session};
use crate::policy::{DefaultValue, PolicyOption};

/// The course's own grader strips trailing whitespace from each line, so by default a space
/// after the board's last `|` costs nothing (a course file can make it `exact`). Seed 001's
/// program is one whole game: a debug print left in would fail every game scenario, so by
/// default a line the game never prints is noted there and judged by the scenario about
/// printing alone (`extra_lines = "noted"`; a course file can make it `judged`).
pub static POLICY: OptionsOnly = OptionsOnly(&[
    PolicyOption {
        key: "whitespace",
        default: DefaultValue::Word("trailing"),
        choices: &["exact", "trailing"],
        about: "the course's own grader ignores trailing whitespace on each line",
    },
    PolicyOption {
        key: crate::policy::EXTRA_LINES,
        default: DefaultValue::Word("noted"),
        choices: &["judged", "noted"],
        about: "a line the game never prints is noted in the game scenarios and judged by the scenario about printing",
    },
]);

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    AwaitIndex,
    AwaitDirection(i64),
    /// The program has ended: a king was taken, or input that `int()` rejects crashed it.
    Ended,
}

/// The reference program.
pub struct Csc110 {
    board: Board,
    player: Side,
    phase: Phase,
    /// Whether the move being typed (or just typed) is refused: its index is not one of the
    /// player's pieces, its direction is neither `l` nor `r`, or the index was no integer.
    refused: bool,
    /// The rule events reached, when counted.
    events: EventLog<Event>,
}

impl Csc110 {
    pub fn new() -> Self {
        Csc110 {
            board: Board::start(),
            player: Side::White,
            phase: Phase::AwaitIndex,
            refused: false,
            events: EventLog::default(),
        }
    }

    fn turn_prompt(&self) -> String {
        format!(
            "{}\n{} enter index:\n",
            render(&self.board),
            side_name(self.player)
        )
    }

    fn play(&mut self, position: i64, direction: &str) -> String {
        if !self.board.is_valid_move(position, self.player) {
            return self.turn_prompt();
        }
        // The starter hands any other text to the student's `move`, whose handout only
        // defines `l` and `r`: the reference leaves the board as it is (never tested).
        let direction = match direction {
            "l" => Some(Direction::Left),
            "r" => Some(Direction::Right),
            _ => None,
        };
        if let Some(direction) = direction {
            // Valid moves never fail; the board stays as it is if one somehow did.
            let made = self.board.play(position, direction);
            self.events.note_with(|| events::of_move(&made, direction));
        }
        self.player = self.player.opponent();
        let board = &self.board;
        self.events.note_with(|| [events::of_game_end(board)]);
        match self.board.winner() {
            Some(winner) => {
                self.phase = Phase::Ended;
                format!("{}\n{} wins!\n", render(&self.board), side_name(winner))
            }
            None => self.turn_prompt(),
        }
    }
}

impl Default for Csc110 {
    fn default() -> Self {
        Self::new()
    }
}

/// Python's `int()` on a typed line: surrounding whitespace allowed, an optional sign.
fn python_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

impl Session for Csc110 {
    fn opening(&mut self) -> Reply {
        Reply::new(self.turn_prompt())
    }

    fn respond(&mut self, line: &str) -> Reply {
        let text = match self.phase {
            Phase::AwaitIndex => match python_int(line) {
                Some(position) => {
                    let (board, player) = (&self.board, self.player);
                    self.events
                        .note_with(|| [events::of_validity(board, position, player)]);
                    self.refused = !self.board.is_valid_move(position, self.player);
                    self.phase = Phase::AwaitDirection(position);
                    format!("{} enter direction (l or r):\n", side_name(self.player))
                }
                None => {
                    // `int(input())` raises ValueError: the program stops (on stderr).
                    self.refused = true;
                    self.phase = Phase::Ended;
                    String::new()
                }
            },
            Phase::AwaitDirection(position) => {
                self.refused |= !matches!(line, "l" | "r");
                self.phase = Phase::AwaitIndex;
                self.play(position, line)
            }
            Phase::Ended => String::new(),
        };
        Reply::new(text)
    }

    fn is_finished(&self) -> bool {
        self.phase == Phase::Ended
    }

    fn count_rule_events(&mut self) {
        self.events.start();
    }

    fn take_rule_events(&mut self) -> Vec<&'static str> {
        self.events.take()
    }

    /// The player's pieces at the index prompt, `l` and `r` at the direction prompt.
    fn legal_inputs(&self) -> Vec<String> {
        match self.phase {
            Phase::AwaitIndex => own_cells(&self.board, self.player)
                .iter()
                .map(usize::to_string)
                .collect(),
            Phase::AwaitDirection(_) => vec!["l".to_string(), "r".to_string()],
            Phase::Ended => Vec::new(),
        }
    }

    /// Indexes `is_valid_move` refuses (the starter then asks for the direction anyway and
    /// prints the board again).
    fn illegal_inputs(&self) -> Vec<String> {
        match self.phase {
            Phase::AwaitIndex => refused_positions(&self.board, self.player)
                .iter()
                .map(i64::to_string)
                .collect(),
            _ => Vec::new(),
        }
    }

    fn rejected(&self) -> bool {
        self.refused
    }

    fn to_move(&self) -> Option<&'static str> {
        Some(side_name(self.player))
    }

    /// Scenarios type only integers for the index and `l` or `r` for the direction.
    fn is_defined(&self, line: &str) -> bool {
        match self.phase {
            Phase::AwaitIndex => python_int(line).is_some(),
            Phase::AwaitDirection(_) => matches!(line, "l" | "r"),
            Phase::Ended => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_move_reprompts_the_same_player_silently() {
        let mut s = Csc110::new();
        let opening = s.opening().text;
        assert!(opening.ends_with(
            "|\n+-----------------------------------------------------+\nWhite enter index:\n"
        ));
        assert_eq!(s.respond("7").text, "White enter direction (l or r):\n");
        assert_eq!(s.respond("l").text, opening);
        s.respond("2");
        assert!(s.respond("r").text.ends_with("Black enter index:\n"));
    }

    #[test]
    fn the_example_game_ends_with_the_winner() {
        let mut s = Csc110::new();
        s.opening();
        let moves = [
            ("2", "r"),
            ("6", "l"),
            ("1", "r"),
            ("4", "l"),
            ("0", "r"),
            ("7", "l"),
            ("3", "r"),
            ("8", "l"),
        ];
        for (index, direction) in moves {
            s.respond(index);
            s.respond(direction);
            assert!(!s.is_finished());
        }
        s.respond("2");
        let last = s.respond("r").text;
        assert!(last.ends_with("+\nWhite wins!\n"), "{last}");
        assert!(s.is_finished());
    }

    #[test]
    fn a_non_integer_index_ends_the_program() {
        let mut s = Csc110::new();
        s.opening();
        assert_eq!(s.respond("two").text, "");
        assert!(s.is_finished());
        assert_eq!(python_int(" -3 "), Some(-3));
        assert_eq!(python_int("3.0"), None);
    }
}
