//! A toy game for the tests only, the proof that a game is this folder plus one line in
//! [`crate::games::REGISTRY`]: the scenario loader, the harness, the targets and the match
//! runner take it as they take the real games, and none of them names it (its end-to-end
//! tests are `src/toy_game.rs`).
//!
//! `counter`, dialect `tally` (a call protocol): `add N` adds N to a running total and
//! answers the total. Its match play: against the `adder` player, each game has the
//! submission answer `size` additions of 1; it wins when every answer is right.

use crate::execution::PythonLaunch;
use crate::games::board_text::NoBoards;
use crate::games::matches::{Conversation, GameResult, MatchDef, MatchPlay, Stop};
use crate::games::{
    check_option_keys, BoardReader, Dialect, Game, OptionError, Origin, Protocol, Reply, Session,
    NO_POLICY_RULES,
};

static DIALECTS: &[Dialect] = &[Dialect {
    name: "tally",
    protocol: Protocol::Call,
    handout: "none",
    asks_python3: false,
    entry_file: "tally.py",
    defines: &["add"],
    python: PythonLaunch::Adapter {
        script: "",
        call_limit: None,
        stubs: &[],
    },
    session: |options| {
        check_option_keys(options, &[])?;
        Ok(Box::new(Tally { total: 0 }))
    },
    graded_with: None,
    parts: None,
    policy: &NO_POLICY_RULES,
    battery: None,
    origin: Origin::BuiltIn,
}];

/// The game `counter`.
pub struct Counter;

impl Game for Counter {
    fn name(&self) -> &'static str {
        "counter"
    }

    fn dialects(&self) -> &'static [Dialect] {
        DIALECTS
    }

    fn board_reader(&self) -> &dyn BoardReader {
        &NoBoards
    }

    fn match_play(&self) -> Option<&dyn MatchPlay> {
        Some(&Adder)
    }
}

/// The reference: a running total.
struct Tally {
    total: i64,
}

impl Session for Tally {
    fn opening(&mut self) -> Reply {
        Reply::default()
    }

    fn respond(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["add", n] => match n.parse::<i64>() {
                Ok(n) => {
                    self.total += n;
                    Reply::new(format!("{}\n", self.total))
                }
                Err(e) => Reply::error(format!("ValueError: {e}")),
            },
            _ => Reply::error(format!("UnknownCommand: {line:?}")),
        }
    }

    fn is_finished(&self) -> bool {
        false
    }

    fn legal_inputs(&self) -> Vec<String> {
        (1..=9).map(|n| format!("add {n}")).collect()
    }

    fn illegal_inputs(&self) -> Vec<String> {
        vec!["add x".into()]
    }
}

/// The `adder` player's matches.
struct Adder;

impl MatchPlay for Adder {
    fn check(&self, _dialect: &Dialect, def: &MatchDef) -> Result<(), OptionError> {
        match def.opponents.iter().position(|o| o != "adder") {
            Some(i) => Err(OptionError::new(
                format!("opponents[{i}]"),
                "the only player is \"adder\"",
            )),
            None => Ok(()),
        }
    }

    fn play(
        &self,
        _dialect: &Dialect,
        def: &MatchDef,
        conversation: &mut dyn Conversation,
    ) -> Result<Vec<GameResult>, String> {
        let mut games = Vec::new();
        for &size in &def.sizes {
            for color in ["white", "black"] {
                for _ in 0..def.games {
                    games.push(one_game(size, color, def.seed, conversation));
                }
            }
        }
        Ok(games)
    }
}

fn one_game(
    size: usize,
    color: &str,
    seed: u64,
    conversation: &mut dyn Conversation,
) -> GameResult {
    let mut result = GameResult {
        opponent: "adder".into(),
        size,
        color: color.into(),
        winning_side: None,
        seed,
        won: true,
        forfeit: false,
        ending: "every sum right".into(),
        moves: Vec::new(),
        final_board: String::new(),
        stop: None,
    };
    // Each game starts from zero: the conversation's total is whatever it was, so the
    // expected answers follow the first one.
    let mut expected = None;
    for _ in 0..size {
        let answer = conversation
            .send("add 1")
            .and_then(|()| read_response(conversation));
        let answer = match answer {
            Ok(answer) => answer,
            Err(stop) => {
                result.ending = format!("the program stopped: {}", stop.detail);
                result.stop = Some(stop);
                result.won = false;
                result.forfeit = true;
                return result;
            }
        };
        let got = answer
            .strip_prefix('=')
            .and_then(|v| v.trim().parse::<i64>().ok());
        if expected.is_some_and(|e| got != Some(e)) || got.is_none() {
            result.ending = format!("answered {answer:?}");
            result.won = false;
            return result;
        }
        expected = got.map(|g| g + 1);
        result.moves.push(answer);
    }
    result
}

/// The lines of one framed response up to its end line `.`, joined.
fn read_response(conversation: &mut dyn Conversation) -> Result<String, Stop> {
    let mut lines = Vec::new();
    loop {
        let line = conversation.read_line()?;
        if line == "." {
            return Ok(lines.join("\n"));
        }
        lines.push(line);
    }
}
