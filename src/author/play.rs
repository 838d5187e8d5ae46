//! Playing a game in a terminal: the person's lines go through a [`Recorder`] (so an
//! illegal one is explained and not played), and with an opponent the reference answers
//! each of the person's moves with one of its own.

use super::record::{Fed, Recorder};
use super::setup::Setup;
use crate::error::Error;
use crate::rng::Rng;

/// Most lines one reference move may take (a move of the csc110 program is two).
const MOST_LINES_PER_MOVE: usize = 8;

/// What a line typed at `play`'s prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayCommand {
    /// `:quit`: stop playing.
    Quit,
    /// `?`: list the legal inputs.
    ListInputs,
    /// Anything else: a move to play (`:N` plays the N-th legal input).
    Move,
}

impl PlayCommand {
    pub fn of(line: &str) -> PlayCommand {
        match line.trim() {
            ":quit" => PlayCommand::Quit,
            "?" => PlayCommand::ListInputs,
            _ => PlayCommand::Move,
        }
    }
}

/// A game being played.
pub struct Play {
    recorder: Recorder,
    /// Whether the reference plays the other side.
    against: bool,
    /// The side the person plays: the side to move when they first move.
    side: Option<&'static str>,
    rng: Rng,
}

impl Play {
    /// A game of `setup`; with `against`, the reference plays the side the person does not
    /// (a strong move where the game has a player for it, else a random legal one from
    /// `seed`).
    pub fn new(setup: Setup, against: bool, seed: u64) -> Result<Play, Error> {
        Ok(Play {
            recorder: Recorder::new(setup, false)?,
            against,
            side: None,
            rng: Rng::new(seed),
        })
    }

    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// True when the game is over: the program ended or no move is legal.
    pub fn is_over(&self) -> bool {
        self.recorder.is_over() || self.recorder.session().legal_inputs().is_empty()
    }

    /// The person's line (`:N` plays the N-th legal input, see [`Recorder::expand`]): the
    /// line sent and what became of it.
    pub fn feed(&mut self, line: &str) -> Result<(String, Fed), Error> {
        let line = self.recorder.expand(line);
        let before = self.recorder.session().to_move();
        let fed = self.recorder.feed(&line)?;
        if matches!(fed, Fed::Recorded { .. }) && self.side.is_none() {
            self.side = before;
        }
        Ok((line, fed))
    }

    /// The reference's move when it is its turn: each line it sent with the answer.
    pub fn reference_move(&mut self) -> Result<Vec<(String, Fed)>, Error> {
        let mut played = Vec::new();
        while self.against && played.len() < MOST_LINES_PER_MOVE && !self.is_over() {
            let session = self.recorder.session();
            let turn = session.to_move();
            if self.side.is_none() || turn.is_none() || turn == self.side {
                break;
            }
            let line = match session.strong_input() {
                Some(line) => line,
                None => match self.rng.pick(&session.legal_inputs()) {
                    Some(line) => line.clone(),
                    None => break,
                },
            };
            let fed = self.recorder.feed(&line)?;
            played.push((line, fed));
        }
        Ok(played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_answers_each_move() {
        let setup = Setup::new("one-d-chess", Some("csc110"), Default::default()).unwrap();
        let mut play = Play::new(setup, true, 1).unwrap();
        play.feed("2").unwrap();
        assert!(play.reference_move().unwrap().is_empty(), "mid-move");
        play.feed("r").unwrap();
        let answer = play.reference_move().unwrap();
        assert_eq!(answer.len(), 2, "{answer:?}");
        assert_eq!(play.recorder().session().to_move(), Some("White"));
    }

    #[test]
    fn minichess_moves_by_number_against_the_perfect_player() {
        let setup = Setup::new("minichess", Some("ecs10"), Default::default()).unwrap();
        let mut play = Play::new(setup, true, 1).unwrap();
        play.feed(":1").unwrap(); // the 3 x 3 start
        play.feed(":1").unwrap();
        let answer = play.reference_move().unwrap();
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert_eq!(play.recorder().lines().len(), 3);
    }
}
