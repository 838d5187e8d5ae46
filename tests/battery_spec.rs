//! A scenario file's `battery` table as the loader reads it: one scenario per rule family,
//! seeded, and every bad key named.

use boardgrade::scenario::battery::reseed;
use boardgrade::scenario::load::parse_file;
use boardgrade::scenario::Kind;

const FILE: &str = r#"
game = "chess"
dialect = "ecs198f"
visibility = "hidden"

[[scenario]]
name = "rules"
points = 2
battery = { seed = 5, games = 2, plies = 12 }
"#;

#[test]
fn a_battery_is_one_scenario_per_family_with_its_own_points_and_parts() {
    let scenarios = parse_file("b.toml", FILE).unwrap();
    let names: Vec<&str> = scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names[0], "rules: move shape");
    assert!(names.contains(&"rules: castling"), "{names:?}");
    assert!(names.contains(&"rules: notation"), "{names:?}");
    for scenario in &scenarios {
        assert_eq!(scenario.points, boardgrade::points::Points::whole(2));
        assert_eq!(scenario.line, 7);
        assert!(scenario.steps.len() > 4, "{}", scenario.name);
        assert_eq!(scenario.steps[0].send, "new_game");
        assert_eq!(scenario.steps[0].line, 9);
        let Kind::Battery(source) = &scenario.kind else {
            panic!("{}: not a battery scenario", scenario.name)
        };
        assert_eq!(scenario.judge.as_deref(), Some(source.family.judge));
        assert_eq!(source.plan.seed, 5);
    }
    let chosen = FILE.replace("plies = 12", "plies = 12, families = [\"castling\"]");
    let scenarios = parse_file("b.toml", &chosen).unwrap();
    assert_eq!(scenarios.len(), 1);
    assert_eq!(scenarios[0].name, "rules: castling");
}

#[test]
fn another_seed_plays_other_games_and_the_same_seed_the_same() {
    let mut scenarios = parse_file("b.toml", FILE).unwrap();
    let first = scenarios[0].steps.clone();
    reseed(&mut scenarios[0], 6);
    assert_ne!(scenarios[0].steps, first);
    reseed(&mut scenarios[0], 5);
    assert_eq!(scenarios[0].steps, first);
}

#[test]
fn a_bad_battery_is_an_error_naming_its_key() {
    for (text, key) in [
        (
            FILE.replace("plies = 12", "plies = 12, families = [\"castle\"]"),
            "battery.families",
        ),
        (FILE.replace("games = 2", "games = 0"), "battery.games"),
        (
            FILE.replace("plies = 12", "plies = 100000"),
            "battery.plies",
        ),
        (FILE.replace("points = 2", "judge = [\"board\"]"), "judge"),
        (
            FILE.replace("points = 2", "steps = [{ send = \"board\" }]"),
            "steps",
        ),
        (
            FILE.replace(
                "dialect = \"ecs198f\"",
                "dialect = \"ecs198f\"\nbattery = { seed = 1 }",
            ),
            "battery",
        ),
        (
            FILE.replace(
                "game = \"chess\"\ndialect = \"ecs198f\"",
                "game = \"pown-chess\"\ndialect = \"pown-functions\"",
            ),
            "battery",
        ),
        (FILE.replace("seed = 5", "sead = 5"), "sead"),
    ] {
        let error = parse_file("b.toml", &text).unwrap_err();
        assert_eq!(error.key.as_deref(), Some(key), "{text}\n{error}");
        assert!(error.line > 1, "{error}");
    }
}
