//! `boardgrade coverage`: the bundled specs reach every rule event of every reference (a rule
//! no scenario reaches is one a submission can break for free), and the command names the
//! events a smaller set of scenarios never reaches, with exit code 1.

use std::process::Command;

use boardgrade::author::coverage::measure;
use boardgrade::games::REGISTRY;
use boardgrade::scenario::sources;

fn boardgrade(args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardgrade"))
        .args(args)
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

#[test]
fn the_bundled_specs_reach_every_rule_event_of_every_reference() {
    let loaded = sources::load_all(&sources::bundled());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let coverage = measure(&loaded.scenarios);
    for game in REGISTRY {
        let rows = coverage.rows.iter().filter(|r| r.game == game.name());
        assert_eq!(rows.count(), game.rule_events().len(), "{}", game.name());
    }
    let never: Vec<String> = coverage
        .unreached()
        .map(|r| format!("{}: {} ({})", r.game, r.event, r.family))
        .collect();
    assert!(never.is_empty(), "never reached:\n{}", never.join("\n"));
    assert!(coverage.skipped.is_empty(), "{:?}", coverage.skipped);
}

#[test]
fn every_game_counts_rule_events() {
    for game in REGISTRY {
        assert!(
            !game.rule_events().is_empty(),
            "{} counts none",
            game.name()
        );
    }
}

#[test]
fn a_few_scenarios_leave_events_unreached_and_exit_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("castle.toml");
    std::fs::write(
        &file,
        r#"
game = "chess"
dialect = "ecs198f"

[[scenario]]
name = "a castle"
steps = [
  { send = "play_move e2e4" }, { send = "play_move e7e5" }, { send = "play_move g1f3" },
  { send = "play_move b8c6" }, { send = "play_move f1c4" }, { send = "play_move g8f6" },
  { send = "play_move e1g1" },
]
"#,
    )
    .unwrap();
    let (text, code) = boardgrade(&["coverage", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    let castle = text
        .lines()
        .find(|l| l.contains("king-side castle"))
        .unwrap();
    assert!(
        castle.contains(" 1  ") && castle.contains("castle.toml (a castle)"),
        "{text}"
    );
    let never = text
        .lines()
        .find(|l| l.contains("queen-side castle"))
        .unwrap();
    assert!(never.ends_with("NEVER REACHED"), "{text}");
    assert!(text.contains("never: chess: capture"), "{text}");

    let (json, code) = boardgrade(&["coverage", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = value["rows"].as_array().unwrap();
    let castle = rows
        .iter()
        .find(|r| r["event"] == "king-side castle")
        .unwrap();
    assert_eq!(castle["count"], 1);
    assert_eq!(castle["first"]["scenario"], "a castle");
}

#[test]
fn the_bundled_specs_pass_with_exit_zero() {
    let (text, code) = boardgrade(&["coverage", "--game", "chess"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("NEVER REACHED"), "{text}");
    assert!(text.ends_with(" rule events reached\n"), "{text}");
}
