//! The reference answering a dialect's two functions, line by line, as a correct
//! submission under the adapter would.

use super::board::{Board, Color};
use super::chooser::ReferenceChooser;
use super::events::{self, Event};
use super::functions::{Call, Functions};
use super::notation::{board_text, boards_text, rows_of};
use super::players::{PerfectPlayer, Player};
use super::render::render_grid;
use crate::games::rule_events::EventLog;
use crate::games::{Reply, Session};

/// Board sizes whose start positions authoring tools begin their games from (larger boards
/// make long lines and slow reference choices).
const AUTHORED_SIZES: std::ops::RangeInclusive<usize> = 3..=5;

/// Positions the perfect player may search for one suggested move: a fraction of a second,
/// falling back to alpha-beta on boards it cannot settle.
const SUGGESTION_BUDGET: u64 = 2_000_000;

/// A reference session of one dialect.
pub struct CallSession {
    functions: &'static Functions,
    chooser: ReferenceChooser,
    /// The position of the last `move_maker` call with a defined answer, and the colour it
    /// asked about. The functions keep no state; authoring tools walk through a game by
    /// asking next for the moves of one of its answers.
    position: Option<(Board, Color)>,
    /// Whether the last command could not be answered.
    refused: bool,
    /// The rule events reached, when counted.
    events: EventLog<Event>,
}

impl CallSession {
    pub fn new(functions: &'static Functions) -> Self {
        CallSession {
            functions,
            chooser: ReferenceChooser::default(),
            position: None,
            refused: false,
            events: EventLog::default(),
        }
    }

    /// Whether the protocol defines the answer to `call`: never the moves of a finished game,
    /// never a choice among no boards.
    fn defined(call: &Call) -> bool {
        match call {
            Call::Maker { board, color } => board.outcome(*color).is_none(),
            Call::Chooser { boards, .. } => !boards.is_empty(),
        }
    }

    /// The line that plays `mover`'s move to `next` in an authored game: the `move_maker`
    /// call for the opponent's moves there, or, when the move ends the game (the moves of a
    /// finished game are never asked for), `move_chooser` on that one board.
    fn input_for(&self, next: &Board, mover: Color) -> String {
        let opponent = mover.opponent();
        if next.outcome(opponent).is_none() {
            self.functions.maker_line(next, opponent)
        } else {
            self.functions.chooser_line(&[rows_of(next)], mover)
        }
    }

    /// The game's position after `call`, if it plays a move in the authored game.
    fn advance(&self, call: &Call) -> Option<(Board, Color)> {
        match call {
            Call::Maker { board, color } if board.outcome(*color).is_none() => {
                Some((*board, *color))
            }
            Call::Chooser { boards, color } if boards.len() == 1 => {
                let (board, to_move) = self.position.as_ref()?;
                (to_move == color && board.successors(*color).contains(&boards[0]))
                    .then(|| (boards[0], color.opponent()))
            }
            _ => None,
        }
    }

    fn answer(&mut self, call: Call) -> Result<Reply, String> {
        match call {
            // Every board one move away, in the rules' order (the handout's, for its example);
            // order does not count when answers are compared.
            Call::Maker { board, color } => Ok(Reply::new(format!(
                "{}\n",
                boards_text(&board.successors(color))
            ))),
            // The reference's choice, and every other board of the list as equally correct:
            // a chooser is judged on legality here and on strength in matches.
            Call::Chooser { boards, color } => {
                let index = self.chooser.choose(&boards, color).ok_or_else(|| {
                    format!(
                        "ValueError: {}() got no boards to choose from",
                        self.functions.chooser
                    )
                })?;
                let line = |b: &Board| format!("{}\n", board_text(b));
                Ok(boards
                    .iter()
                    .fold(Reply::new(line(&boards[index])), |reply, b| {
                        reply.or(line(b))
                    }))
            }
        }
    }
}

impl Session for CallSession {
    fn opening(&mut self) -> Reply {
        Reply::default()
    }

    fn respond(&mut self, line: &str) -> Reply {
        let call = self.functions.parse(line);
        if let Some(position) = call.as_ref().ok().and_then(|c| self.advance(c)) {
            self.position = Some(position);
        }
        if let Ok(call) = &call {
            self.events.note_with(|| match call {
                Call::Maker { board, color } => events::of_maker(board, *color),
                Call::Chooser { boards, color } => events::of_chooser(boards, *color),
            });
        }
        let answer = call.and_then(|call| self.answer(call));
        self.refused = answer.is_err();
        match answer {
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

    /// The moves of a start position for white, before any; then a game played one call at
    /// a time: the moves of each position one move on from the last (see `input_for`);
    /// nothing once the game is over.
    fn legal_inputs(&self) -> Vec<String> {
        match &self.position {
            None => AUTHORED_SIZES
                .filter_map(|n| Board::start(n).ok())
                .map(|board| self.functions.maker_line(&board, Color::White))
                .collect(),
            Some((board, color)) if board.outcome(*color).is_none() => board
                .successors(*color)
                .iter()
                .map(|next| self.input_for(next, *color))
                .collect(),
            Some(_) => Vec::new(),
        }
    }

    /// A choice among the moves of the current position.
    fn probe_inputs(&self) -> Vec<String> {
        let Some((board, color)) = &self.position else {
            return Vec::new();
        };
        if board.outcome(*color).is_some() {
            return Vec::new();
        }
        let moves: Vec<_> = board.successors(*color).iter().map(rows_of).collect();
        if moves.is_empty() {
            return Vec::new();
        }
        vec![self.functions.chooser_line(&moves, *color)]
    }

    fn rejected(&self) -> bool {
        self.refused
    }

    fn is_defined(&self, line: &str) -> bool {
        self.functions
            .parse(line)
            .is_ok_and(|call| Self::defined(&call))
    }

    fn to_move(&self) -> Option<&'static str> {
        self.position.as_ref().map(|(_, color)| match color {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    /// The perfect player's move in the current position (alpha-beta where it cannot settle
    /// the position quickly).
    fn strong_input(&self) -> Option<String> {
        let (board, color) = self.position.as_ref()?;
        if board.outcome(*color).is_some() {
            return None;
        }
        let mv = PerfectPlayer::with_budget(SUGGESTION_BUDGET).choose(board, *color)?;
        let next = board.apply(&mv).ok()?;
        Some(self.input_for(&next, *color))
    }

    fn board_view(&self) -> Option<String> {
        let (board, color) = self.position.as_ref()?;
        let name = |color: Color| match color {
            Color::White => "white (1)",
            Color::Black => "black (2)",
        };
        let status = match board.outcome(*color) {
            None => format!("{} to move", name(*color)),
            Some(win) => format!("{} won", name(win.winner)),
        };
        Some(format!("{}{status}\n", render_grid(board, None)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::dialect::functions;
    use super::*;

    #[test]
    fn answers_the_handouts_example() {
        let mut s = CallSession::new(functions("ecs10").unwrap());
        assert_eq!(
            s.respond("move_maker [[0,1,1],[1,0,0],[2,2,2]] 2").text,
            "[[[0, 1, 1], [2, 0, 0], [2, 0, 2]], [[0, 1, 1], [1, 2, 0], [2, 0, 2]], \
             [[0, 1, 1], [1, 0, 2], [2, 2, 0]]]\n"
        );
        let reply = s.respond(
            "move_chooser [[[0,1,1],[2,0,0],[2,0,2]], [[0,1,1],[1,2,0],[2,0,2]], \
             [[0,1,1],[1,0,2],[2,2,0]]] 2",
        );
        assert_eq!(reply.text, "[[0, 1, 1], [2, 0, 0], [2, 0, 2]]\n");
        assert_eq!(reply.also_accepted.len(), 2);
    }

    #[test]
    fn hexapawn_takes_the_color_first() {
        let mut s = CallSession::new(functions("hexapawn").unwrap());
        assert_eq!(
            s.respond("generateMoves 1 [[0,0,0],[1,0,0],[2,2,2]]").text,
            "[[[0, 0, 0], [0, 0, 0], [2, 1, 2]]]\n"
        );
        assert!(s
            .respond("move_maker [[0,0,0],[1,0,0],[2,2,2]] 1")
            .text
            .starts_with("!error UnknownCommand"));
    }

    #[test]
    fn bad_input_is_an_error_line() {
        let mut s = CallSession::new(functions("ecs10").unwrap());
        assert!(s
            .respond("move_chooser [] 1")
            .text
            .starts_with("!error ValueError"));
        assert!(s
            .respond("move_maker [[9]] 1")
            .text
            .starts_with("!error ValueError"));
        for line in [
            "move_maker [[1e999,0,0],[0,0,0],[0,0,0]] 1",
            "move_maker [[0,0,0],[0,0,0],[0,0,0]] 18446744073709551617",
            "move_maker [[0,0,0],[0,-1,0],[0,0,0]] 1",
            "move_maker [[0,0,0],[0,0,0],[0,0,0]] 1 2",
            "move_chooser [[[0,0,0],[0,0,0],[0,0,0]], [[1]]] 1",
            "move_chooser [[[0,0,0],[0,0,0],[0,0,0]]] 0",
            "move_maker {} 1",
            "move_maker",
            "",
        ] {
            assert!(s.respond(line).text.starts_with("!error "), "{line}");
        }
    }
}
