//! The loaded Python runner (`--python-runner fork`) against a fresh interpreter per scenario
//! (`--python-runner fresh`), through the real binary: a class graded both ways gives the
//! same grades.csv and the same verdicts, details and stderr for every scenario, hostile
//! submissions and imports it cannot fork from included; those fall back and say so.

mod common;

use std::path::{Path, PathBuf};

use common::{boardgrade, make_class, root};
use serde_json::Value;

/// Grades `class` against `specs` with `runner`: (grades.csv, results by submission id).
fn grade(class: &Path, specs: &Path, out: &Path, runner: &str, sandbox: &str) -> (String, Value) {
    let output = boardgrade()
        .args([
            "grade",
            class.to_str().unwrap(),
            "--specs",
            specs.to_str().unwrap(),
        ])
        .args([
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
            "--jobs",
            "2",
        ])
        .args(["--python-runner", runner, "--sandbox", sandbox])
        .args(["--memory-limit", "512", "--output-limit", "65536"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{runner}: not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    (csv, report)
}

/// Scratch folders are named after the grader's pid: equal runs differ only there.
fn without_scratch_names(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    for (i, part) in text.split("boardgrade-").enumerate() {
        if i == 0 {
            kept.push_str(part);
            continue;
        }
        // `PID-XXXXXX/` is the scratch folder's own name.
        let rest = part.split_once('/').map_or("", |(_, rest)| rest);
        kept.push_str("boardgrade-*/");
        kept.push_str(rest);
    }
    kept
}

/// Each submission's scenarios as they would be reported, timings left out.
fn scenarios(report: &Value) -> Vec<(String, Vec<String>)> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let scenarios = r["scenarios"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    let fields = s.as_object_mut().unwrap();
                    fields.remove("duration_ms");
                    if fields["verdict"] == "timeout" {
                        // "no end after 6.01s of wall-clock time", "killed at the CPU-time
                        // limit" or the call limit (whose message is the stderr's last
                        // line): which comes first depends on the machine's load.
                        fields.remove("detail");
                        fields.remove("stderr_tail");
                    }
                    without_scratch_names(&s.to_string())
                })
                .collect();
            (r["id"].as_str().unwrap().to_string(), scenarios)
        })
        .collect()
}

/// How the grader ran submission `id` (its runner notes), which its notes leave out.
fn notes_of(report: &Value, id: &str) -> Vec<String> {
    let result = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"));
    let said = |key: &str| -> Vec<String> {
        (result[key].as_array().into_iter().flatten())
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        !said("notes").iter().any(|n| n.contains("fresh Python")),
        "{id}: runner notes among the notes"
    );
    said("runner_notes")
}

fn both_runners_agree(class: &Path, specs: &Path, sandbox: &str) -> Value {
    let dir = class.parent().unwrap();
    let (fork_csv, fork) = grade(class, specs, &dir.join("out-fork"), "fork", sandbox);
    let (fresh_csv, fresh) = grade(class, specs, &dir.join("out-fresh"), "fresh", sandbox);
    assert_eq!(fork_csv, fresh_csv, "{sandbox}: grades.csv");
    let (fork_scenarios, fresh_scenarios) = (scenarios(&fork), scenarios(&fresh));
    assert_eq!(fork_scenarios.len(), fresh_scenarios.len());
    for ((id, forked), (_, fresh)) in fork_scenarios.iter().zip(&fresh_scenarios) {
        for (a, b) in forked.iter().zip(fresh) {
            assert_eq!(a, b, "{sandbox}: {id}");
        }
    }
    // The old path never says anything about a runner.
    for (id, _) in &fresh_scenarios {
        assert!(
            !notes_of(&fresh, id)
                .iter()
                .any(|n| n.contains("Python process")),
            "{id}"
        );
    }
    fork
}

fn sandboxes() -> Vec<&'static str> {
    let mut sandboxes = vec!["limits"];
    if boardgrade::execution::sandbox::bwrap_works() {
        sandboxes.push("bwrap");
    }
    sandboxes
}

const ONE_D: &str = "one_d_chess.py";

#[test]
fn a_call_protocol_class_grades_the_same_forked_and_fresh_and_says_where_it_fell_back() {
    for sandbox in sandboxes() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        make_class(
            &class,
            &[
                ("correct", "one-d-chess/project5/one_d_chess.py", ONE_D),
                (
                    "toplevel",
                    "one-d-chess/project5/quirk-toplevel-prints.py",
                    ONE_D,
                ),
                (
                    "main_at_import",
                    "one-d-chess/project5/quirk-main-at-import.py",
                    ONE_D,
                ),
                ("raises", "one-d-chess/project5/bug-move-raises.py", ONE_D),
                ("prints_at_import", "runner/import_prints.py", ONE_D),
                ("reads_stdin", "runner/import_reads_stdin.py", ONE_D),
                ("blocks", "runner/import_blocks.py", ONE_D),
                ("forks", "runner/import_forks.py", ONE_D),
                ("thread", "runner/import_thread.py", ONE_D),
                ("kills_runner", "runner/kills_runner.py", ONE_D),
                ("lists_fds", "runner/lists_fds.py", ONE_D),
            ],
        );
        let specs: PathBuf = root().join("specs/one-d-chess/project5");
        let fork = both_runners_agree(&class, &specs, sandbox);
        let fell_back = |id: &str, why: &str| {
            let notes = notes_of(&fork, id);
            assert!(
                notes
                    .iter()
                    .any(|n| n.contains("fresh Python process per scenario") && n.contains(why)),
                "{sandbox} {id}: {notes:?}"
            );
        };
        // Reads of stdin at import get end-of-input at once: the import never blocks the
        // runner, so nothing falls back.
        assert!(
            !notes_of(&fork, "blocks")
                .iter()
                .any(|n| n.contains("fresh Python process")),
            "{sandbox} blocks"
        );
        fell_back("forks", "starts a process");
        fell_back("thread", "starts a thread");
        fell_back("kills_runner", "ended 3 times");
        // A module-level `input()` meets the end of an empty input at load, as it would
        // without a terminal: it never takes a protocol line, so the import can be forked.
        for id in [
            "correct",
            "toplevel",
            "reads_stdin",
            "prints_at_import",
            "lists_fds",
            "raises",
        ] {
            assert!(notes_of(&fork, id).is_empty(), "{sandbox} {id} was forked");
        }
        let reads = fork["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "reads_stdin")
            .unwrap();
        assert_eq!(reads["score"], reads["max_score"], "{sandbox}: {reads:#}");
        // What the import wrote to stderr opens each scenario's stderr, as in a fresh process.
        let prints = fork["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "prints_at_import")
            .unwrap();
        let stderr = prints["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|s| s["stderr_tail"].as_str())
            .expect("a failing scenario shows its stderr");
        assert!(stderr.starts_with("loading one_d_chess\n"), "{stderr}");
        assert!(stderr.contains("NameError"), "{stderr}");
    }
}

#[test]
fn whole_programs_and_hostile_ones_grade_the_same_forked_and_fresh() {
    for sandbox in sandboxes() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        let mut members = vec![
            (
                "correct",
                "one-d-chess/csc110/chess.py".to_string(),
                "chess.py",
            ),
            (
                "debug_print",
                "one-d-chess/csc110/bug-debug-print.py".to_string(),
                "chess.py",
            ),
        ];
        for hostile in [
            "sleep_forever",
            "fork_count",
            "setsid_daemon",
            "background_child",
            "closes_stdout",
            "exits_nonzero",
            "invalid_utf8",
            "memory_hog",
        ] {
            members.push((hostile, format!("hostile/{hostile}.py"), "chess.py"));
        }
        let members: Vec<(&str, &str, &str)> = members
            .iter()
            .map(|(n, f, e)| (*n, f.as_str(), *e))
            .collect();
        make_class(&class, &members);
        let specs = dir.path().join("specs");
        std::fs::create_dir_all(&specs).unwrap();
        std::fs::copy(
            root().join("tests/selftest/hostile_game.toml"),
            specs.join("game.toml"),
        )
        .unwrap();
        let fork = both_runners_agree(&class, &specs, sandbox);
        let verdict = |id: &str| {
            let r = fork["submissions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["id"] == id)
                .unwrap();
            r["scenarios"][0]["verdict"].as_str().unwrap().to_string()
        };
        assert_eq!(verdict("correct"), "pass", "{sandbox}");
        assert_eq!(verdict("sleep_forever"), "timeout", "{sandbox}");
        assert_eq!(verdict("memory_hog"), "memory-limit", "{sandbox}");
    }
}

/// The submission `id` of `report`.
fn submission<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

/// At load (a set-up call of its own at the bottom), plants `json.py`, `inspect.py` and
/// `sitecustomize.py`, each exiting at once, wherever it can write on its `sys.path` and in
/// its folder.
const PLANTING: &str = r#"

def plant_modules():
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    for folder in set(sys.path + [os.getcwd(), here]):
        for name in ("json.py", "inspect.py", "sitecustomize.py"):
            try:
                with open(os.path.join(folder or ".", name), "x") as module:
                    module.write("import os\nos._exit(0)\n")
            except OSError:
                pass


plant_modules()
"#;

/// At load, leaves 20 sparse files of 16 MiB each in its folder: 320 MiB a copy would hold,
/// none of it written.
const SPARSE_FILES: &str = r#"

SPARSE = [
    open("sparse%02d.bin" % n, "wb").truncate(16 * 1024 * 1024 - 1)
    for n in range(20)
]
"#;

/// At load, keeps the runner from making itself undumpable (its scenarios could then trace
/// it, or write its memory through `/proc`): the runner's own prctl is swapped for nothing.
const KEEPS_DUMPABLE: &str = r#"

ADAPTER = __import__("sys").modules.get("boardgrade_adapter")
KEPT_OPEN = [
    setattr(runner, "_prctl", lambda *args: 0)
    for runner in [getattr(ADAPTER, "_fork_runner", None)]
    if runner is not None
]
"#;

/// At load, makes as many empty files and links to one file as its folder takes (up to
/// 30,000): each costs the grader a look whenever the folder is put back.
const FLOODS_ENTRIES: &str = r#"

def flood():
    import os
    os.mkdir("flood")
    made = 0
    try:
        open("flood/one", "w").close()
        for n in range(15000):
            open("flood/f%d" % n, "w").close()
            os.link("flood/one", "flood/l%d" % n)
            made += 2
    except OSError:
        pass
    return made


FLOOD = flood()
"#;

/// Adds `twin` to `class`: `of`'s file with `appended` at its end.
fn write_twin(class: &Path, of: &str, twin: &str, appended: &str) {
    let source = std::fs::read_to_string(class.join(of).join(ONE_D)).unwrap();
    std::fs::create_dir_all(class.join(twin)).unwrap();
    std::fs::write(class.join(twin).join(ONE_D), source + appended).unwrap();
}

/// project5's specs with create_board's file under a 2 s time limit (offloads_cpu.py's work
/// takes 3 s of CPU).
fn project5_with_short_create_board(specs: &Path) {
    std::fs::create_dir_all(specs).unwrap();
    for entry in std::fs::read_dir(root().join("specs/one-d-chess/project5")).unwrap() {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.ends_with("create_and_print.toml") {
            text = text.replace(
                "dialect = \"project5\"\n",
                "dialect = \"project5\"\ntime_limit = 2\n",
            );
            assert!(text.contains("time_limit = 2"));
        }
        std::fs::write(specs.join(path.file_name().unwrap()), text).unwrap();
    }
}

#[test]
fn what_an_import_does_to_the_runner_never_changes_a_grade() {
    for sandbox in sandboxes() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        let members = [
            (
                "plain",
                "one-d-chess/project5/bug-missing-move-knight.py",
                ONE_D,
            ),
            ("ignores_sigchld", "runner/ignores_sigchld.py", ONE_D),
            ("reaps_children", "runner/reaps_children.py", ONE_D),
            ("reaps_on_signal", "runner/reaps_on_signal.py", ONE_D),
            ("shared_page", "runner/shared_page.py", ONE_D),
            ("maps_in_each_copy", "runner/maps_in_each_copy.py", ONE_D),
            ("tmp_carried", "runner/tmp_carried.py", ONE_D),
            ("sysv_carried", "runner/sysv_carried.py", ONE_D),
            ("sysv_at_import", "runner/sysv_at_import.py", ONE_D),
            ("offloads_cpu", "runner/offloads_cpu.py", ONE_D),
            ("wakes_runner", "runner/wakes_runner.py", ONE_D),
            ("runs_code", "runner/runs_code_in_runner.py", ONE_D),
            ("writes_memory", "runner/writes_runner_memory.py", ONE_D),
            ("marks_runner", "runner/marks_runner.py", ONE_D),
            ("closes_std_fds", "runner/closes_std_fds.py", ONE_D),
            ("seeds_random", "runner/seeds_random.py", ONE_D),
        ];
        make_class(&class, &members);
        write_twin(&class, "ignores_sigchld", "plants_modules", PLANTING);
        write_twin(&class, "plain", "sparse_files", SPARSE_FILES);
        write_twin(&class, "plain", "keeps_dumpable", KEEPS_DUMPABLE);
        write_twin(&class, "plain", "floods_entries", FLOODS_ENTRIES);
        let specs = dir.path().join("specs");
        project5_with_short_create_board(&specs);
        // The same grades.csv and verdicts as fresh processes, scenario by scenario.
        let fork = both_runners_agree(&class, &specs, sandbox);
        let score = |id: &str| {
            let r = submission(&fork, id);
            (
                r["score"].as_f64().unwrap(),
                r["max_score"].as_f64().unwrap(),
            )
        };
        let (plain, max) = score("plain");
        assert!(plain > 0.0 && plain < max, "{sandbox}: {plain}/{max}");
        let ids = members.iter().map(|(id, _, _)| *id);
        let twins = [
            "plants_modules",
            "sparse_files",
            "keeps_dumpable",
            "floods_entries",
        ];
        for id in ids.clone().chain(twins) {
            let r = submission(&fork, id);
            for s in r["scenarios"].as_array().unwrap() {
                assert_ne!(s["verdict"], "error", "{sandbox} {id}: {s:#}");
                let stderr = s["stderr_tail"].as_str().unwrap_or_default();
                assert!(!stderr.contains("carried from"), "{sandbox} {id}: {stderr}");
            }
            assert_eq!(score(id).1, max, "{sandbox} {id}");
        }
        // What the import did is seen before any scenario is forked, or after the first one
        // the grader could not vouch for; a file left in /tmp is removed after each scenario.
        let fell_back = |id: &str, why: &str| {
            let notes = notes_of(&fork, id);
            assert!(
                notes
                    .iter()
                    .any(|n| n.contains("fresh Python process per scenario") && n.contains(why)),
                "{sandbox} {id}: {notes:?}"
            );
        };
        fell_back("ignores_sigchld", "ignores SIGCHLD");
        fell_back("plants_modules", "ignores SIGCHLD");
        // Files its import left that a copy would hold whole (sparse ones, past the room
        // its folder has) are not copied for its forks: each scenario imports afresh.
        fell_back("sparse_files", "its import left more in its folder");
        fell_back("reaps_children", "handles signals");
        fell_back("shared_page", "maps shared memory");
        // A mapping made in each copy before it is ready, its descriptor closed, is seen
        // there: that copy's scenario, and the next ones, run afresh.
        fell_back(
            "maps_in_each_copy",
            "a copy of the runner maps shared memory",
        );
        fell_back("sysv_at_import", "makes IPC objects");
        fell_back("writes_memory", "leaves a process running beside it");
        fell_back("keeps_dumpable", "keeps the runner open to its scenarios");
        // A signal sent to the runner stays pending there (it blocks them all), where a later
        // scenario could read it: the runner is not used again once a scenario left one.
        for id in ["offloads_cpu", "wakes_runner", "reaps_on_signal"] {
            fell_back(id, "left a signal pending for the runner");
        }
        // The runner runs nothing once loaded (every signal blocked, each scenario a copy the
        // grader makes): what the import left for a loop to run at each scenario never runs,
        // and no scenario may change the runner's scheduling or limits. Those submissions are
        // forked all along.
        for id in [
            "plain",
            "tmp_carried",
            "sysv_carried",
            "runs_code",
            "marks_runner",
            "closes_std_fds",
            "seeds_random",
        ] {
            let notes = notes_of(&fork, id);
            assert!(
                !notes.iter().any(|n| n.contains("Python process")),
                "{sandbox} {id} was not forked: {notes:?}"
            );
        }
        // Taking the scenarios' exit statuses, or closing the standard descriptors at import,
        // changes nothing: the grade is the plain one's.
        // Nor do modules its import planted where the harness imports from (what it wrote
        // is not where a fresh process starts, even once the runner gave way to them).
        for id in [
            "ignores_sigchld",
            "plants_modules",
            "sparse_files",
            "reaps_children",
            "reaps_on_signal",
            "closes_std_fds",
            "keeps_dumpable",
            "floods_entries",
        ] {
            assert_eq!(score(id), (plain, max), "{sandbox} {id}");
        }
        // A board drawn only with what an earlier scenario left is never drawn; the work
        // done by the runner outside the limit is stopped at the limit.
        for id in [
            "shared_page",
            "tmp_carried",
            "sysv_carried",
            "sysv_at_import",
            "offloads_cpu",
            "wakes_runner",
            "runs_code",
            "writes_memory",
            "marks_runner",
        ] {
            assert!(score(id).0 < plain, "{sandbox} {id}: {:?}", score(id));
        }
        let verdict = |id: &str, name: &str| {
            submission(&fork, id)["scenarios"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == name)
                .unwrap_or_else(|| panic!("no {name}"))["verdict"]
                .as_str()
                .unwrap()
                .to_string()
        };
        for id in ["offloads_cpu", "wakes_runner"] {
            assert_eq!(
                verdict(id, "create_board returns the starting list"),
                "timeout",
                "{sandbox} {id}"
            );
        }
        assert_eq!(
            verdict("plain", "create_board returns the starting list"),
            "pass",
            "{sandbox}"
        );
    }
}

/// The runner that forked each scenario of a JSON report (the `parent` line the fixture
/// draws instead of a board), by visibility: visible first, then hidden.
fn parents_by_visibility(scenarios: &Value) -> [Vec<String>; 2] {
    let mut parents: [Vec<String>; 2] = Default::default();
    for s in scenarios.as_array().unwrap() {
        let actual = s["first_divergence"]["actual"].as_str().unwrap_or_default();
        let Some(parent) = actual.lines().find(|l| l.contains("parent ")) else {
            continue;
        };
        let hidden = s["visibility"] == "hidden";
        parents[usize::from(hidden)].push(parent.to_string());
    }
    assert!(
        parents
            .iter()
            .all(|p| p.len() >= 2 && p.iter().all(|x| *x == p[0])),
        "each visibility's scenarios have one runner: {parents:?}"
    );
    parents
}

#[test]
fn a_runner_never_serves_a_visible_scenario_after_a_hidden_one() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    make_class(&class, &[("parent", "runner/names_its_parent.py", ONE_D)]);
    // printable_board's scenarios twice: hidden (the file sorts first), and as given.
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let visible =
        std::fs::read_to_string(root().join("specs/one-d-chess/project5/create_and_print.toml"))
            .unwrap();
    let hidden = visible.replace(
        "dialect = \"project5\"\n",
        "dialect = \"project5\"\nvisibility = \"hidden\"\n",
    );
    assert_ne!(hidden, visible);
    std::fs::write(specs.join("a_hidden.toml"), hidden).unwrap();
    std::fs::write(specs.join("b_visible.toml"), visible).unwrap();
    // One job: one jail, whose runners serve every scenario in turn (pids are the
    // machine's under `limits`).
    let output = boardgrade()
        .args(["grade", class.to_str().unwrap()])
        .args(["--specs", specs.to_str().unwrap()])
        .args(["--out", dir.path().join("out").to_str().unwrap()])
        .args(["--format", "json", "--jobs", "1", "--sandbox", "limits"])
        .args(["--python-runner", "fork"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    // `grade` runs the visible scenarios first: one runner then serves them all.
    let [visible, hidden] = parents_by_visibility(&submission(&report, "parent")["scenarios"]);
    assert_eq!(visible[0], hidden[0]);
    // So does `test`, which still reports them in the files' order, hidden first.
    let output = boardgrade()
        .args(["test", "--python"])
        .arg(class.join("parent"))
        .arg(&specs)
        .args(["--format", "json", "--jobs", "1", "--sandbox", "limits"])
        .args(["--python-runner", "fork"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let scenarios = report["scenarios"].as_array().unwrap();
    let half = scenarios.len() / 2;
    assert!(half >= 2 && scenarios.len() == 2 * half);
    assert!(scenarios[..half]
        .iter()
        .all(|s| s["visibility"] == "hidden"));
    assert!(scenarios[half..]
        .iter()
        .all(|s| s["visibility"] == "visible"));
    let [visible, hidden] = parents_by_visibility(&report["scenarios"]);
    assert_eq!(visible[0], hidden[0]);
}

/// Whether `listener` (non-blocking) has a connection waiting.
fn connection_waits(listener: &std::net::TcpListener) -> bool {
    match listener.accept() {
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
        Err(e) => panic!("accept: {e}"),
    }
}

#[test]
fn student_processes_reach_no_network_under_either_sandbox() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    make_class(&class, &[("calls_home", "runner/calls_home.py", ONE_D)]);
    let entry = class.join("calls_home").join(ONE_D);
    let text = std::fs::read_to_string(&entry).unwrap();
    assert!(text.contains("\nPORT = 0\n"));
    std::fs::write(
        &entry,
        text.replace("\nPORT = 0\n", &format!("\nPORT = {port}\n")),
    )
    .unwrap();
    // Outside any sandbox its import does reach the listener: the test can fail.
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg("import runpy, sys; runpy.run_path(sys.argv[1])")
        .arg(&entry)
        .status()
        .unwrap();
    assert!(status.success());
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(connection_waits(&listener), "the fixture does not connect");
    let specs = root().join("specs/one-d-chess/project5");
    for sandbox in sandboxes() {
        std::fs::remove_dir_all(dir.path().join("out-fork")).ok();
        std::fs::remove_dir_all(dir.path().join("out-fresh")).ok();
        let fork = both_runners_agree(&class, &specs, sandbox);
        let r = submission(&fork, "calls_home");
        assert_eq!(r["score"], r["max_score"], "{sandbox}: {r:#}");
        assert!(
            !connection_waits(&listener),
            "{sandbox}: a connection arrived"
        );
    }
}

/// One submission, `id` of `class`, run by `command` (`grade` on the class, or `test` on
/// the submission) against `specs` with `jobs`, no sandbox and `runner`: its scenarios and
/// its score, as `{"scenarios", "score", "max_score"}`.
fn graded_by(
    command: &str,
    class: &Path,
    id: &str,
    specs: &Path,
    jobs: &str,
    runner: &str,
) -> Value {
    let mut run = boardgrade();
    if command == "grade" {
        let out = class.with_file_name(format!("out-{id}-{jobs}-{runner}"));
        let _ = std::fs::remove_dir_all(&out);
        run.args(["grade", class.to_str().unwrap()])
            .args(["--specs", specs.to_str().unwrap()])
            .args(["--out", out.to_str().unwrap()]);
    } else {
        run.args(["test", "--python"])
            .arg(class.join(id))
            .arg(specs);
    }
    let output = run
        .args(["--format", "json", "--jobs", jobs, "--sandbox", "none"])
        .args(["--python-runner", runner])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    if command == "grade" {
        submission(&report, id).clone()
    } else {
        serde_json::json!({
            "scenarios": report["scenarios"],
            "score": report["summary"]["score"],
            "max_score": report["summary"]["max_score"],
        })
    }
}

#[test]
fn a_hidden_scenario_never_runs_beside_a_visible_one() {
    // Two scenarios, one visible and one hidden, that could run at once (two jobs, one
    // submission). The submission notes when its `is_game_over` starts and ends, and holds
    // the visible one's call for a second: were both running at once, the visible one could
    // read what the hidden one was sent (its process shares the submission's folder, /tmp
    // and runner) and print it into feedback the student sees.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls.log");
    let class = dir.path().join("class");
    make_class(
        &class,
        &[("eve", "one-d-chess/project5/one_d_chess.py", ONE_D)],
    );
    let entry = class.join("eve").join(ONE_D);
    let text = std::fs::read_to_string(&entry).unwrap();
    let noted = text.replace(
        "    if B_KING not in board:\n        print(\"White wins!\")",
        &format!(
            "    import os, time\n    \
             tag = \"visible\" if board[1] == W_KNIGHT else \"hidden\"\n    \
             with open({log:?}, \"a\") as f:\n        \
             f.write(\"%s start %f\\n\" % (tag, time.time()))\n    \
             if tag == \"visible\":\n        time.sleep(1.0)\n    \
             with open({log:?}, \"a\") as f:\n        \
             f.write(\"%s end %f\\n\" % (tag, time.time()))\n    \
             if B_KING not in board:\n        print(\"White wins!\")"
        ),
    );
    assert_ne!(noted, text);
    std::fs::write(&entry, noted).unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let scenario = |name: &str, board: &str, visibility: &str| {
        format!(
            "game = \"one-d-chess\"\ndialect = \"project5\"\nvisibility = \"{visibility}\"\n\n\
             [[scenario]]\nname = \"{name}\"\nsteps = [\n  \
             {{ send = \"set_board {board}\" }},\n  {{ send = \"is_game_over\" }},\n]\n"
        )
    };
    let visible = "WKi WKn EMPTY EMPTY EMPTY EMPTY EMPTY BKn BKi";
    let hidden = "WKi EMPTY WKn EMPTY EMPTY EMPTY EMPTY BKn BKi";
    std::fs::write(
        specs.join("a_hidden.toml"),
        scenario("hidden", hidden, "hidden"),
    )
    .unwrap();
    std::fs::write(
        specs.join("b_visible.toml"),
        scenario("visible", visible, "visible"),
    )
    .unwrap();
    for (command, runner) in [
        ("grade", "fork"),
        ("grade", "fresh"),
        ("test", "fork"),
        ("test", "fresh"),
    ] {
        let _ = std::fs::remove_file(&log);
        let eve = graded_by(command, &class, "eve", &specs, "2", runner);
        let runner = format!("{command} {runner}");
        assert_eq!(eve["score"], eve["max_score"], "{runner}: {eve:#}");
        let notes = std::fs::read_to_string(&log).unwrap();
        let at = |what: &str| -> f64 {
            let line = notes
                .lines()
                .find(|l| l.starts_with(what))
                .unwrap_or_else(|| panic!("{runner}: no {what:?} in {notes}"));
            line.rsplit(' ').next().unwrap().parse().unwrap()
        };
        assert!(
            at("hidden start") >= at("visible end"),
            "{runner}: the hidden scenario started while the visible one ran:\n{notes}"
        );
    }
}

#[test]
fn the_runner_the_import_check_loads_serves_the_scenarios_and_the_code_checks_take_none() {
    // One job, code checks and scenarios of one secrecy: the runner started to check the
    // import is the one that serves every scenario (the code checker runs first, in its
    // jail). With two jobs, the checker runs beside the scenarios in a jail of its own and
    // the two runners the import check loads serve them all. The submission notes each
    // import in a log.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("imports.log");
    let class = dir.path().join("class");
    make_class(
        &class,
        &[("ann", "one-d-chess/project5/one_d_chess.py", ONE_D)],
    );
    let entry = class.join("ann").join(ONE_D);
    let text = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        format!("_IMPORTED = open({log:?}, \"a\").write(\"import\\n\")\n{text}"),
    )
    .unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    for file in ["code.toml", "create_and_print.toml"] {
        std::fs::copy(
            root().join("specs/one-d-chess/project5").join(file),
            specs.join(file),
        )
        .unwrap();
    }
    for command in ["test", "grade"] {
        let _ = std::fs::remove_file(&log);
        let scenarios = graded_by(command, &class, "ann", &specs, "1", "fork")["scenarios"].clone();
        let verdicts: Vec<&str> = (scenarios.as_array().unwrap().iter())
            .map(|s| s["verdict"].as_str().unwrap())
            .collect();
        assert!(verdicts.len() > 4, "{command}: {verdicts:?}");
        assert!(
            verdicts.iter().all(|v| *v == "pass" || *v == "wrong"),
            "{command}: {verdicts:?}"
        );
        let imports = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            imports.lines().count(),
            1,
            "{command}: one runner, one import"
        );
    }
    // Two jobs and enough scenarios for both: the import check loads a runner for each job,
    // and those two serve every scenario, the hidden ones after the visible ones.
    let _ = std::fs::remove_file(&log);
    let project5 = root().join("specs/one-d-chess/project5");
    let report = graded_by("test", &class, "ann", &project5, "2", "fork");
    // Every scenario passes but, where the log's path makes the first line long, the line
    // length check.
    let verdicts = report["scenarios"].as_array().unwrap();
    let passed = verdicts.iter().filter(|s| s["verdict"] == "pass").count();
    assert!(verdicts.len() - passed <= 1, "{report:#}");
    assert!(passed > 30, "{report:#}");
    let imports = std::fs::read_to_string(&log).unwrap();
    assert_eq!(imports.lines().count(), 2, "two jobs, two runners");
}
