//! The reference answering a dialect's two functions, line by line, as a correct
//! submission under the adapter would.

use super::board::Board;
use super::chooser::ReferenceChooser;
use super::dialect::{Call, Functions};
use super::notation::{board_text, boards_text};
use crate::games::{Reply, Session};

/// A reference session of one dialect.
pub struct CallSession {
    functions: &'static Functions,
    chooser: ReferenceChooser,
}

impl CallSession {
    pub fn new(functions: &'static Functions) -> Self {
        CallSession {
            functions,
            chooser: ReferenceChooser::default(),
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
        match self
            .functions
            .parse(line)
            .and_then(|call| self.answer(call))
        {
            Ok(reply) => reply,
            Err(error) => Reply::error(error),
        }
    }

    fn is_finished(&self) -> bool {
        false
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
