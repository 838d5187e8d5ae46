//! A battery failure's "shortest case" is a hint to replay: each one printed must fail on the
//! submission when replayed as it reads, not merely reach the same rule on the reference.

mod common;

use common::{failures, notes, test_json};

/// The handout's pown chess program, with a `b` pown on row 2 unable to step to row 1. The
/// reference takes any step forward for the same case, whoever types it: a case shortened on
/// the reference alone can end in White typing the square, which this program plays right.
fn b_row_2_stuck(dir: &std::path::Path) -> String {
    let correct = std::fs::read_to_string("fixtures/pown-chess/pown-chess.py").unwrap();
    let check = "    if target not in game_board:\n";
    assert!(correct.contains(check));
    let buggy = correct.replace(
        check,
        "    if target not in game_board or target[1:] == '1':\n",
    );
    let file = dir.join("pown-chess.py");
    std::fs::write(&file, buggy).unwrap();
    file.to_str().unwrap().to_string()
}

/// The lines a pown note names, the line typed last included.
fn typed(note: &str) -> Option<Vec<String>> {
    let rest = note.strip_prefix("shortest case")?;
    if let Some(last) = rest.strip_prefix(": ") {
        let last = last.strip_suffix(" typed at the opening")?;
        return Some(vec![last.trim_matches('"').to_string()]);
    }
    let (head, lines) = rest.split_once("): ")?;
    let (_, last) = head.split_once(", then ")?;
    let mut all: Vec<String> = lines.split("; ").map(str::to_string).collect();
    all.push(last.trim_matches('"').to_string());
    Some(all)
}

#[test]
fn every_shortest_case_of_a_pown_battery_fails_when_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let program = b_row_2_stuck(dir.path());
    let (_, report) = test_json(&["specs/pown-chess/pown/battery.toml", "--python", &program]);
    let cases: Vec<Vec<String>> = failures(&report)
        .iter()
        .flat_map(|(_, _, divergence)| notes(divergence).into_iter().filter_map(typed))
        .collect();
    assert!(!cases.is_empty(), "no shortest case: {report:#}");
    for case in cases {
        let steps: Vec<String> = (case.iter())
            .map(|line| format!("  {{ send = \"{line}\" }},\n"))
            .collect();
        let file = dir.path().join("replay.toml");
        std::fs::write(
            &file,
            format!(
                "game = \"pown-chess\"\ndialect = \"pown\"\nname = \"replay\"\nsteps = [\n{}]\n",
                steps.concat()
            ),
        )
        .unwrap();
        let (_, replayed) = test_json(&[file.to_str().unwrap(), "--python", &program]);
        let failed = failures(&replayed);
        let [(_, verdict, divergence)] = failed.as_slice() else {
            panic!("{case:?} passes when replayed: {replayed:#}");
        };
        assert_eq!(verdict, "wrong", "{case:?}");
        // It fails at the line the case names last, as the battery's game did.
        assert_eq!(divergence["step"], case.len(), "{case:?}: {divergence:#}");
    }
}
