//! Recording a scenario: lines go to the reference one at a time; each one it answers is
//! recorded with its answer as the expectation, and one the rules refuse (or the protocol
//! leaves undefined) is shown with the reason and left out.

use super::setup::Setup;
use super::write::{FileHead, ScenarioText};
use crate::error::{AuthorError, Error};
use crate::games::{Protocol, Reply, Session};
use crate::scenario::Visibility;

/// Most legal inputs named when explaining a refusal.
const LEGAL_SHOWN: usize = 16;

/// What became of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fed {
    /// Recorded with the reference's answer; `refused` when the rules refused it and it was
    /// kept on request (an illegal attempt the scenario tests).
    Recorded { reply: Reply, refused: bool },
    /// Not recorded: the reference's answer and why.
    Refused { reply: Reply, reason: String },
    /// The game is over; the program reads nothing more.
    Ended,
}

/// What a line typed at `record`'s prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordCommand {
    /// `:done`: write the scenario.
    Done,
    /// `?`: list the legal inputs.
    ListInputs,
    /// `:undo`: take back the last line.
    Undo,
    /// Anything else: a line to send (`:N` sends the N-th legal input).
    Send,
}

impl RecordCommand {
    pub fn of(line: &str) -> RecordCommand {
        match line.trim() {
            ":done" => RecordCommand::Done,
            "?" => RecordCommand::ListInputs,
            ":undo" => RecordCommand::Undo,
            _ => RecordCommand::Send,
        }
    }
}

/// The lines of a transcript read from `reader` (named `name` in messages): blank lines
/// and `#` comments skipped, line endings removed.
pub fn transcript(reader: impl std::io::BufRead, name: &str) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    for line in reader.lines() {
        let line = line.map_err(|e| Error::io(format!("cannot read {name}"), e))?;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        lines.push(line.to_string());
    }
    Ok(lines)
}

/// A recording in progress.
pub struct Recorder {
    setup: Setup,
    session: Box<dyn Session>,
    opening: Reply,
    lines: Vec<String>,
    /// Record lines the rules refuse (when the protocol defines their answer).
    keep_refused: bool,
}

impl Recorder {
    pub fn new(setup: Setup, keep_refused: bool) -> Result<Recorder, Error> {
        let mut session = setup.session()?;
        let opening = session.opening();
        Ok(Recorder {
            setup,
            session,
            opening,
            lines: Vec::new(),
            keep_refused,
        })
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// What the reference printed before any line.
    pub fn opening(&self) -> &Reply {
        &self.opening
    }

    /// The reference as it stands after the recorded lines.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    pub fn is_over(&self) -> bool {
        self.session.is_finished()
    }

    /// Sends `line` to the reference and records it, unless it is refused.
    pub fn feed(&mut self, line: &str) -> Result<Fed, Error> {
        if self.session.is_finished() {
            return Ok(Fed::Ended);
        }
        let defined = self.session.is_defined(line);
        let legal = self.session.legal_inputs();
        let reply = self.session.respond(line);
        let refused = self.session.rejected();
        if defined && (!refused || self.keep_refused) {
            self.lines.push(line.to_string());
            return Ok(Fed::Recorded { reply, refused });
        }
        // Back to the state before the line: the recorded lines again on a fresh reference
        // (a refused move may have been half typed, as an index awaiting its direction).
        self.session = self.setup.session_after(&self.lines)?;
        let reason = if defined {
            format!("refused by the rules; {}", legal_now(&legal))
        } else {
            format!(
                "the protocol defines no answer to this line here; {}",
                legal_now(&legal)
            )
        };
        Ok(Fed::Refused { reply, reason })
    }

    /// `:N` as the N-th legal input now (1-based), for games whose inputs are long to type
    /// (miniChess boards); anything else as typed.
    pub fn expand(&self, line: &str) -> String {
        line.strip_prefix(':')
            .and_then(|n| n.trim().parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.session.legal_inputs().get(i).cloned())
            .unwrap_or_else(|| line.to_string())
    }

    /// Takes back the last recorded line; false when there is none.
    pub fn undo(&mut self) -> Result<bool, Error> {
        if self.lines.pop().is_none() {
            return Ok(false);
        }
        self.session = self.setup.session_after(&self.lines)?;
        Ok(true)
    }

    /// The file head of a recording: how it was made, and what to fill in.
    pub fn head(&self) -> FileHead {
        FileHead {
            comments: vec![format!(
                "Recorded with `boardgrade record {} --dialect {}`: expectations are the \
                 reference's answers.",
                self.setup.game.name(),
                self.setup.dialect.name
            )],
            section: "(fill in the handout section)".to_string(),
            points: crate::points::Points::whole(1),
            visibility: Visibility::Visible,
            tags: Vec::new(),
        }
    }

    /// The recorded lines as a scenario with the reference's answers; a call protocol's
    /// needs at least one.
    pub fn scenario(&self, name: &str) -> Result<ScenarioText, Error> {
        if self.lines.is_empty() && self.setup.dialect.protocol == Protocol::Call {
            return Err(AuthorError::NothingRecorded.into());
        }
        ScenarioText::from_reference(&self.setup, name, &self.lines)?
            .map_err(|invalid| invalid.of("the recording"))
    }
}

/// `legal now: B1, C1, ...`, or that there is no legal move.
fn legal_now(legal: &[String]) -> String {
    if legal.is_empty() {
        return "no move is legal now".to_string();
    }
    let mut shown: Vec<&str> = legal.iter().take(LEGAL_SHOWN).map(String::as_str).collect();
    if legal.len() > LEGAL_SHOWN {
        shown.push("...");
    }
    format!("legal now: {}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(game: &str, dialect: &str) -> Recorder {
        let setup = Setup::new(game, Some(dialect), Default::default()).unwrap();
        Recorder::new(setup, false).unwrap()
    }

    #[test]
    fn refused_moves_are_shown_and_left_out() {
        let mut r = recorder("pown-chess", "pown");
        assert!(matches!(
            r.feed("B1").unwrap(),
            Fed::Recorded { refused: false, .. }
        ));
        match r.feed("B1").unwrap() {
            Fed::Refused { reply, reason } => {
                assert!(reply.text.starts_with("INVALID MOVE"), "{}", reply.text);
                assert!(reason.contains("legal now: A8"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        // Still black's turn: the refused line was taken back.
        assert!(matches!(
            r.feed("B8").unwrap(),
            Fed::Recorded { refused: false, .. }
        ));
        assert_eq!(r.lines(), ["B1", "B8"]);
    }

    #[test]
    fn a_refused_index_is_taken_back_before_its_direction() {
        let mut r = recorder("one-d-chess", "csc110");
        assert!(matches!(r.feed("7").unwrap(), Fed::Refused { .. }));
        assert!(matches!(r.feed("two").unwrap(), Fed::Refused { .. }));
        r.feed("2").unwrap();
        r.feed("r").unwrap();
        assert_eq!(r.lines(), ["2", "r"]);
        assert_eq!(r.session().to_move(), Some("Black"));
        assert!(r.undo().unwrap());
        assert_eq!(r.lines(), ["2"]);
    }

    #[test]
    fn undefined_commands_are_not_recorded() {
        let mut r = recorder("one-d-chess", "project5");
        r.feed("create_board").unwrap();
        match r.feed("move 4 LEFT").unwrap() {
            Fed::Refused { reply, .. } => assert!(reply.text.starts_with("!error")),
            other => panic!("{other:?}"),
        }
        assert_eq!(r.lines(), ["create_board"]);
    }

    #[test]
    fn a_transcript_skips_blank_lines_and_comments_and_keeps_the_rest_as_typed() {
        let text = "# moves\r\nmove 1 2\r\n\n   \n  # indented, so a line\nK 3\n";
        let lines = transcript(text.as_bytes(), "stdin").expect("a transcript");
        assert_eq!(lines, ["move 1 2", "  # indented, so a line", "K 3"]);
    }

    #[test]
    fn prompt_words_are_commands_and_anything_else_is_sent() {
        assert_eq!(RecordCommand::of(" :done "), RecordCommand::Done);
        assert_eq!(RecordCommand::of("?"), RecordCommand::ListInputs);
        assert_eq!(RecordCommand::of(":undo"), RecordCommand::Undo);
        assert_eq!(RecordCommand::of(":quit"), RecordCommand::Send);
        assert_eq!(RecordCommand::of(":2"), RecordCommand::Send);
    }
}
