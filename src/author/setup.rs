//! One game, dialect and options to author for: reference sessions, replays that check a
//! list of lines is a valid scenario, and in-memory scenarios to run through the harness.

use std::time::Duration;

use crate::compare::CompareMode;
use crate::error::{AuthorError, Error};
use crate::games::variant::Catalogue;
use crate::games::{self, Dialect, Game, GameOptions, Reply, Session};
use crate::points::Points;
use crate::scenario::{HandoutDef, Kind, Scenario, Step, Visibility};

/// What authoring works on.
#[derive(Debug, Clone)]
pub struct Setup {
    pub game: &'static dyn Game,
    pub dialect: &'static Dialect,
    pub options: GameOptions,
}

/// The reference's answers to a list of lines.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// What it printed before the first line.
    pub opening: Reply,
    /// Its answer to each line, in order.
    pub replies: Vec<Reply>,
    /// For each line, whether the rules refused it.
    pub refused: Vec<bool>,
    /// For each line, whether it was one of the game's probes of the position.
    pub probes: Vec<bool>,
    /// Whether the program had ended by itself after the last line.
    pub finished: bool,
}

/// The variant of `game` that the variant file at `path` defines.
fn variant_file(game: &dyn Game, path: &str) -> Result<&'static Dialect, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::path(path, format!("cannot read the variant file: {e}")))?;
    let found = crate::games::variant::read(path, &text)?;
    if found.game.name() != game.name() {
        return Err(AuthorError::OtherGame {
            path: path.to_string(),
            variant_of: found.game.name(),
            game: game.name(),
        }
        .into());
    }
    Ok(found.dialect)
}

/// Why a list of lines is not a valid scenario.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("line {index} ({line:?}) is sent after the game is over")]
    AfterEnd { index: usize, line: String },
    #[error("line {index} ({line:?}) has no answer the protocol defines at that point")]
    Undefined { index: usize, line: String },
}

impl Invalid {
    /// The error of `what` (a recording, a game) being invalid this way.
    pub fn of(&self, what: &str) -> Error {
        AuthorError::Invalid {
            what: what.to_string(),
            why: self.to_string(),
        }
        .into()
    }
}

impl Setup {
    /// The game of that name in `dialect` (its first when `None`), with `options` checked.
    pub fn new(game: &str, dialect: Option<&str>, options: GameOptions) -> Result<Setup, Error> {
        let game = games::lookup(game)?;
        let dialect = match dialect {
            None => &game.dialects()[0],
            Some(path) if path.ends_with(".toml") => variant_file(game, path)?,
            Some(name) => Catalogue::bundled().lookup_dialect(game, name)?,
        };
        let setup = Setup {
            game,
            dialect,
            options,
        };
        setup.session()?;
        Ok(setup)
    }

    /// A fresh reference session.
    pub fn session(&self) -> Result<Box<dyn Session>, Error> {
        self.game.start(self.dialect, &self.options).map_err(|e| {
            Error::from(AuthorError::Option {
                key: e.key,
                message: e.message,
            })
        })
    }

    /// A fresh session that has printed its opening and read `lines`, whatever they are.
    pub fn session_after(&self, lines: &[String]) -> Result<Box<dyn Session>, Error> {
        let mut session = self.session()?;
        session.opening();
        for line in lines {
            session.respond(line);
        }
        Ok(session)
    }

    /// Plays `lines` on the reference, each checked to be defined when it is sent.
    pub fn replay(&self, lines: &[String]) -> Result<Result<Transcript, Invalid>, Error> {
        let mut session = self.session()?;
        let opening = session.opening();
        let mut transcript = Transcript {
            opening,
            replies: Vec::with_capacity(lines.len()),
            refused: Vec::with_capacity(lines.len()),
            probes: Vec::with_capacity(lines.len()),
            finished: false,
        };
        for (index, line) in lines.iter().enumerate() {
            let place = || (index + 1, line.clone());
            if session.is_finished() {
                let (index, line) = place();
                return Ok(Err(Invalid::AfterEnd { index, line }));
            }
            if !session.is_defined(line) {
                let (index, line) = place();
                return Ok(Err(Invalid::Undefined { index, line }));
            }
            transcript
                .probes
                .push(session.probe_inputs().contains(line));
            transcript.replies.push(session.respond(line));
            transcript.refused.push(session.rejected());
        }
        transcript.finished = session.is_finished();
        Ok(Ok(transcript))
    }

    /// `game/dialect`.
    pub fn id(&self) -> String {
        format!("{}/{}", self.game.name(), self.dialect.name)
    }

    /// A scenario held in memory whose steps send `lines` and expect the reference's answers,
    /// to run through the harness.
    pub fn scenario(&self, name: &str, lines: &[String], time_limit: Duration) -> Scenario {
        Scenario {
            file: format!("({name})"),
            line: 1,
            name: name.to_string(),
            game: self.game,
            dialect: self.dialect,
            handout: HandoutDef {
                seed: Some(self.dialect.handout.to_string()),
                section: None,
            },
            points: Points::whole(1),
            partial_credit: false,
            group: None,
            visibility: Visibility::Hidden,
            hidden_message: None,
            tags: Vec::new(),
            time_limit,
            compare: CompareMode::Exact,
            extra_lines: None,
            judge: None,
            options: self.options.clone(),
            policy: crate::policy::Policy::defaults(self.dialect.policy.options()),
            opening: None,
            steps: lines
                .iter()
                .enumerate()
                .map(|(i, send)| Step::sending(send.clone(), i + 1))
                .collect(),
            kind: Kind::Steps,
        }
    }
}
