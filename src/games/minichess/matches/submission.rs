//! The submission as a [`Player`]: on its turn, its own two functions called as the course's
//! driver calls them, and every way that can go wrong turned into a lost turn.

use crate::compare::framed;
use crate::games::matches::{Conversation, Stop};
use crate::games::minichess::dialect::Functions;
use crate::games::minichess::notation::{self, Rows};
use crate::games::minichess::{render_grid, Board, Color, Move, Player};

/// Most characters of a wrong answer quoted in a game's ending.
const QUOTE: usize = 160;

/// Why the submission lost its turn.
pub(super) struct Failure {
    pub text: String,
    pub stop: Option<Stop>,
}

impl From<Stop> for Failure {
    fn from(stop: Stop) -> Self {
        Failure {
            text: format!("the program stopped: {}", stop.detail),
            stop: Some(stop),
        }
    }
}

impl Failure {
    fn protocol(text: String) -> Self {
        Failure { text, stop: None }
    }
}

/// The submission as a player: its own two functions, called as the course's driver does.
pub(super) struct Submission<'a> {
    functions: &'static Functions,
    conversation: &'a mut dyn Conversation,
    /// Why it lost its last turn, if it did.
    pub failure: Option<Failure>,
}

impl<'a> Submission<'a> {
    pub fn new(functions: &'static Functions, conversation: &'a mut dyn Conversation) -> Self {
        Submission {
            functions,
            conversation,
            failure: None,
        }
    }
}

impl Player for Submission<'_> {
    fn name(&self) -> String {
        "the submission".into()
    }

    fn choose(&mut self, board: &Board, color: Color) -> Option<Move> {
        match self.turn(board, color) {
            Ok(mv) => Some(mv),
            Err(failure) => {
                self.failure = Some(failure);
                None
            }
        }
    }
}

impl Submission<'_> {
    fn turn(&mut self, board: &Board, color: Color) -> Result<Move, Failure> {
        let (maker, chooser) = (self.functions.maker, self.functions.chooser);
        let answer = self.ask(&self.functions.maker_line(board, color))?;
        let offered: Vec<Rows> = notation::read_rows_list(&answer).ok_or_else(|| {
            Failure::protocol(format!(
                "{maker} answered {}, not a list of boards",
                quote(&answer)
            ))
        })?;
        if offered.is_empty() {
            return Err(Failure::protocol(format!(
                "{maker} returned no boards, but {color} had {} move(s) on\n{}",
                board.moves(color).len(),
                render_grid(board, None)
            )));
        }
        let answer = self.ask(&self.functions.chooser_line(&offered, color))?;
        let chosen = notation::read_rows(&answer).ok_or_else(|| {
            Failure::protocol(format!(
                "{chooser} answered {}, not a board",
                quote(&answer)
            ))
        })?;
        if !offered.contains(&chosen) {
            return Err(Failure::protocol(format!(
                "{chooser} returned {}, which is not one of the {} board(s) it was given",
                quote(&notation::rows_text(&chosen)),
                offered.len()
            )));
        }
        notation::board_of(&chosen)
            .ok()
            .and_then(|next| board.move_to(color, &next))
            .ok_or_else(|| {
                Failure::protocol(format!(
                    "{chooser} chose {}, which is not a legal move ({maker} offered it)",
                    quote(&notation::rows_text(&chosen))
                ))
            })
    }

    /// Sends one call and reads its answer: the return value of its framed response (`=`
    /// lines up to the closing `.`). Printed lines and `!changed-input` belong to the call
    /// and are passed over: in a game only the answers count. A line without a frame is
    /// taken whole as the answer.
    fn ask(&mut self, line: &str) -> Result<String, Failure> {
        self.conversation.send(line)?;
        let mut value = String::new();
        let mut error = None;
        loop {
            let answer = self.conversation.read_line()?;
            if answer == framed::END {
                break;
            }
            if let Some(raised) = answer.strip_prefix("!error ") {
                error = Some(raised.to_string());
            } else if let Some(part) = answer.strip_prefix('=') {
                value.push_str(part);
            } else if !answer.starts_with([':', '!']) {
                // A line without a frame: the program does not frame its answers, and this
                // line is all of it.
                return Ok(answer);
            }
        }
        match error {
            Some(error) => Err(Failure::protocol(format!(
                "{} raised {}",
                line.split_whitespace().next().unwrap_or(""),
                quote(&error)
            ))),
            None => Ok(value),
        }
    }
}

fn quote(text: &str) -> String {
    if text.chars().count() > QUOTE {
        format!("`{}...`", text.chars().take(QUOTE).collect::<String>())
    } else {
        format!("`{text}`")
    }
}
