//! Match scenarios against hostile submissions: a verdict always comes back, in bounded time,
//! and one crash costs one game, not the match.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// A small match: 3x3 and 4x4 against random, one game per colour and size.
const MATCH: &str = r#"game = "minichess"
dialect = "ecs10"

[[scenario]]
name = "strength"
time_limit = 4

[scenario.match]
opponents = ["random"]
sizes = [3, 4]
seed = 5

[[scenario.match.award]]
points = 1
min_win_rate = 0.0
"#;

/// The random-chooser fixture with its chooser's body replaced by `body`.
fn submission(dir: &Path, body: &str) -> String {
    let source = std::fs::read_to_string("fixtures/minichess/ecs10/random-chooser.py").unwrap();
    let changed = source.replace("    return random.choice(mlist)\n", body);
    assert_ne!(changed, source);
    let path = dir.join("prog67.py");
    std::fs::write(&path, changed).unwrap();
    path.to_str().unwrap().to_string()
}

/// The one scenario's JSON outcome, and how long grading took.
fn play(body: &str) -> (Value, Duration) {
    play_match(MATCH, body)
}

/// [`play`] on the match `spec`.
fn play_match(spec_text: &str, body: &str) -> (Value, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("match.toml");
    std::fs::write(&spec, spec_text).unwrap();
    let program = submission(dir.path(), body);
    let started = Instant::now();
    let output = Command::cargo_bin("boardgrade")
        .unwrap()
        .args(["test", spec.to_str().unwrap(), "--python", &program])
        .args(["--format", "json", "--output-limit", "100000"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    (report["scenarios"][0].clone(), elapsed)
}

fn games_won_on(outcome: &Value, size: u64) -> u64 {
    outcome["matches"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["size"] == size)
        .map(|r| r["won"].as_u64().unwrap())
        .sum()
}

#[test]
fn a_chooser_that_hangs_times_out_within_the_limit() {
    let (outcome, elapsed) = play(
        "    import time\n    if len(mlist[0]) == 4:\n        time.sleep(60)\n    return mlist[0]\n",
    );
    assert_eq!(outcome["verdict"], "timeout", "{outcome:#}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    let detail = outcome["detail"].as_str().unwrap();
    assert!(detail.contains("time limit"), "{detail}");
    assert_eq!(outcome["matches"]["games"], 4);
}

#[test]
fn a_late_move_loses_that_game_alone() {
    // Its first 4x4 choice takes 3 s, past the match's 2 s for one call (a marker file
    // remembers): that game is lost, the program is started again, and the other 4x4 game
    // is played out; the 20 s of answering in all are not spent by the late call.
    let (outcome, elapsed) = play_match(
        &MATCH.replace("time_limit = 4", "time_limit = 20"),
        "    import os, time\n    if len(mlist[0]) == 4 and not os.path.exists('slow'):\n        \
         open('slow', 'w').close()\n        time.sleep(3)\n    return mlist[0]\n",
    );
    assert_eq!(outcome["verdict"], "timeout", "{outcome:#}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    let detail = outcome["detail"].as_str().unwrap();
    assert!(
        detail.contains("no answer within the match's time limit for one call (2s)"),
        "{detail}"
    );
    assert!(!detail.contains("more game(s)"), "{detail}");
    assert_eq!(outcome["matches"]["games"], 4);
    let lost = outcome["matches"]["lost_games"].as_array().unwrap();
    let late: Vec<&Value> = lost
        .iter()
        .filter(|g| g["ending"].as_str().unwrap().contains("for one call"))
        .collect();
    assert_eq!(late.len(), 1, "{lost:#?}");
    assert_eq!(late[0]["size"], 4);
    // The other 4x4 game was played out, not forfeited.
    let other = lost
        .iter()
        .find(|g| g["size"] == 4 && g["color"] != late[0]["color"]);
    if let Some(game) = other {
        assert_eq!(game["forfeit"], false, "{game:#}");
    }
}

#[test]
fn a_program_that_never_answers_ends_within_its_bounds() {
    // Late on every call: each game costs the limit for one call, until the answering time
    // of the whole match (4 s) is spent; every game is lost and the scenario ends.
    let (outcome, elapsed) = play("    import time\n    time.sleep(60)\n");
    assert_eq!(outcome["verdict"], "timeout", "{outcome:#}");
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert_eq!(outcome["matches"]["games"], 4);
    let won: u64 = games_won_on(&outcome, 3) + games_won_on(&outcome, 4);
    assert_eq!(won, 0);
}

#[test]
fn a_crash_loses_one_game_and_the_program_is_started_again() {
    // It dies on its first 4x4 move only (a marker file remembers), so the games after are
    // played by a fresh program.
    let (outcome, _) = play(
        "    import os\n    if len(mlist[0]) == 4 and not os.path.exists('crashed'):\n        \
         open('crashed', 'w').close()\n        os._exit(3)\n    return mlist[0]\n",
    );
    assert_eq!(outcome["verdict"], "crash", "{outcome:#}");
    // Points come from the record: the award needs no wins.
    assert_eq!(outcome["score"], 1.0);
    let lost: Vec<&str> = outcome["matches"]["lost_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["ending"].as_str().unwrap())
        .collect();
    assert!(
        lost.iter().any(|e| e.contains("exited with status 3")),
        "{lost:?}"
    );
    // Only the game of the crash was lost to it: the program was started again for the
    // next one, which black played out.
    assert_eq!(outcome["matches"]["games"], 4);
    let black_on_4x4 = outcome["matches"]["lost_games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["size"] == 4 && g["color"] == "black");
    if let Some(game) = black_on_4x4 {
        assert_eq!(game["forfeit"], false, "{game:#}");
    } else {
        assert_eq!(games_won_on(&outcome, 4), 1);
    }
}

#[test]
fn a_program_that_floods_stdout_hits_the_output_limit() {
    let (outcome, elapsed) = play("    while True:\n        print('x' * 1000)\n");
    assert_eq!(outcome["verdict"], "output-limit", "{outcome:#}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
}

/// A debug print in the chooser prints on every call: more in all than the output limit,
/// and more in one call than is shown. Each call's answer is held to the limit, not the
/// whole match, so the match is played and judged on its moves.
#[test]
fn a_chooser_that_prints_on_every_call_plays_its_match() {
    let (outcome, _) = play("    print('thinking ' * 2000)\n    return random.choice(mlist)\n");
    assert_eq!(outcome["verdict"], "pass", "{outcome:#}");
    assert_eq!(outcome["matches"]["games"], 4, "{outcome:#}");
    let lost = outcome["matches"]["lost_games"].to_string();
    assert!(!lost.contains("printed more than"), "{lost}");
}

#[test]
fn a_raising_chooser_loses_its_games_with_the_error_named() {
    let (outcome, _) = play("    raise ValueError('no idea')\n");
    assert_eq!(
        outcome["verdict"], "pass",
        "min_win_rate 0 is met by any record"
    );
    let ending = outcome["matches"]["lost_games"][0]["ending"]
        .as_str()
        .unwrap();
    assert!(
        ending.contains("move_chooser raised `ValueError: no idea`"),
        "{ending}"
    );
}
