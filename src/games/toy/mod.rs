//! A toy game for the tests only, the proof that a game is this folder plus one line in
//! [`crate::games::REGISTRY`]: the scenario loader, the harness, the targets and the match
//! runner take it as they take the real games, and none of them names it.
//!
//! `counter`, dialect `tally` (a call protocol): `add N` adds N to a running total and
//! answers the total. Its match play: against the `adder` player, each game has the
//! submission answer `size` additions of 1; it wins when every answer is right.

use crate::execution::PythonLaunch;
use crate::games::board_text::NoBoards;
use crate::games::matches::{Conversation, GameResult, MatchDef, MatchPlay, Stop};
use crate::games::{
    check_option_keys, BoardReader, Dialect, Game, OptionError, Protocol, Reply, Session,
};

const DIALECTS: &[Dialect] = &[Dialect {
    name: "tally",
    protocol: Protocol::Call,
    handout: "none",
    entry_file: "tally.py",
    defines: &["add"],
    python: PythonLaunch::Adapter { script: "" },
    session: |options| {
        check_option_keys(options, &[])?;
        Ok(Box::new(Tally { total: 0 }))
    },
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

#[cfg(test)]
mod tests {
    use crate::execution::{Target, TargetSpec};
    use crate::harness::{run_all, Outcome, RunConfig, Verdict};
    use crate::scenario::load::parse_file;

    const STEPS: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "adds up"
steps = [{ send = "add 2" }, { send = "add 3", expect = "5\n" }]
"#;

    const MATCH: &str = r#"
game = "counter"
dialect = "tally"

[[scenario]]
name = "keeps adding"
time_limit = 10

[scenario.match]
opponents = ["adder"]
sizes = [3]

[[scenario.match.award]]
points = 2
min_win_rate = 1.0
"#;

    fn run(source: &str, target: TargetSpec) -> Vec<Outcome> {
        let scenarios = parse_file("counter.toml", source).expect("the toy's file loads");
        let target = Target::new(target, std::path::Path::new("python3")).expect("target");
        let config = RunConfig {
            jobs: 2,
            ..RunConfig::default()
        };
        run_all(&scenarios, &target, &config, "toy", &mut |_| {})
    }

    fn program(script: &str) -> TargetSpec {
        TargetSpec::Command(script.into())
    }

    const CORRECT: &str = "t=0; while read c n; do t=$((t+n)); echo =$t; echo .; done";
    const BUGGY: &str = "t=0; while read c n; do t=$((t+n+1)); echo =$t; echo .; done";

    #[test]
    fn a_scenario_of_the_toy_game_runs_against_the_reference_and_programs() {
        assert_eq!(run(STEPS, TargetSpec::Reference)[0].verdict, Verdict::Pass);
        assert_eq!(run(STEPS, program(CORRECT))[0].verdict, Verdict::Pass);
        let wrong = &run(STEPS, program(BUGGY))[0];
        assert_eq!(wrong.verdict, Verdict::Wrong);
        assert_eq!(wrong.first_divergence.as_ref().map(|d| d.step), Some(1));
    }

    #[test]
    fn the_toy_game_plays_matches_through_its_trait() {
        let passed = &run(MATCH, program(CORRECT))[0];
        assert_eq!(passed.verdict, Verdict::Pass, "{passed:?}");
        assert_eq!(passed.score, 2.0);
        assert_eq!(passed.matches.as_ref().map(|m| m.games), Some(2));
        let crashed = &run(MATCH, program("read line; exit 3"))[0];
        assert_eq!(crashed.verdict, Verdict::Crash, "{crashed:?}");
        assert_eq!(crashed.score, 0.0);
        let wrong = &run(MATCH, program("while read c n; do echo =x; echo .; done"))[0];
        assert_eq!(wrong.verdict, Verdict::Wrong, "{wrong:?}");
    }

    #[test]
    fn the_toy_game_checks_its_own_match_table() {
        let bad = MATCH.replace("[\"adder\"]", "[\"nobody\"]");
        let error = parse_file("counter.toml", &bad).unwrap_err().to_string();
        assert!(error.contains("match.opponents[0]"), "{error}");
        assert!(error.contains("the only player"), "{error}");
    }
}
