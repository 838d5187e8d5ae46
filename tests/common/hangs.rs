//! A project5 class with the hangs a course meets beside correct submissions: a module that
//! sleeps at import, one whose `is_game_over` loops, one that reads its input at import
//! (`input()`, `sys.stdin`, file descriptor 0) and one whose import takes a second. Each is
//! the correct fixture with that one change, so a grade other than the expected one is the
//! grader's doing. Shared by `tests/hangs.rs` and the `hangs` section of `benches/grading.rs`.

use std::path::{Path, PathBuf};

/// The correct project5 submission every member is made from.
const CORRECT: &str = "fixtures/one-d-chess/project5/one_d_chess.py";

/// The members that are not plain copies of the correct submission: name, and its file
/// from the correct one's source.
pub fn hanging_members(correct: &str) -> Vec<(&'static str, String)> {
    let looping = correct.replacen(
        "def is_game_over(board):\n",
        "def is_game_over(board):\n    while True:\n        pass\n",
        1,
    );
    assert_ne!(looping, correct, "the fixture defines is_game_over");
    vec![
        (
            "sleeper",
            format!("import time\n\ntime.sleep(3600)\n{correct}"),
        ),
        ("looper", looping),
        (
            "reader",
            format!(
                "import os\nimport sys\nname = input(\"Your name? \")\nrest = sys.stdin.read()\n\
                 raw = os.read(0, 64)\n{correct}"
            ),
        ),
        ("slow", format!("import time\ntime.sleep(1)\n{correct}")),
    ]
}

/// Writes the class under `dir`: `correct` copies of the correct submission
/// (`correct-01`...) and the hanging members, each in a folder of its own. Returns the class
/// folder.
pub fn write_class(dir: &Path, correct: usize) -> PathBuf {
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CORRECT))
        .expect("the correct project5 fixture");
    let class = dir.join("class");
    let members = (1..=correct)
        .map(|n| (format!("correct-{n:02}"), source.clone()))
        .chain(
            hanging_members(&source)
                .into_iter()
                .map(|(name, text)| (name.to_string(), text)),
        );
    for (name, text) in members {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("one_d_chess.py"), text).unwrap();
    }
    class
}
