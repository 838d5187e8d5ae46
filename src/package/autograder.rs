//! What `run_autograder` does inside Gradescope's container (`boardgrade gradescope
//! --run-autograder`): the script hands over to the binary at once, and the binary
//!
//! 1. closes the autograder's source folder (binary, specs, script) to every other user;
//! 2. checks that the machine gives the least protection the package was built for (student
//!    programs without the network too, unless the course allowed it), and refuses to grade
//!    unprotected (a `results.json` that says so, for the course staff);
//! 3. grades the submission in a child process whose results go to a folder only root can
//!    open, and waits for it;
//! 4. kills whatever student process is left, then writes `results.json` itself from the
//!    child's results and names the sandbox in it; results the grader failed in (a sandbox
//!    that passed its check, then failed while grading) are refused as in step 2, so no
//!    student takes a grader's failure for a grade.
//!
//! Nothing a student process wrote is ever copied: a submission cannot reach the child's
//! results folder, and a missing or unreadable result becomes a zero with a message.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use super::Network;
use crate::error::Error;
use crate::execution::sandbox::{self, student, Sandbox};
use crate::report::gradescope;
use crate::report::package::Report;

/// The autograder's folders (Gradescope's `/autograder`, or `AUTOGRADER_ROOT`).
#[derive(Debug, Clone)]
pub struct Layout {
    pub root: PathBuf,
}

impl Layout {
    /// `AUTOGRADER_ROOT`, else `/autograder`.
    pub fn from_env() -> Layout {
        Layout {
            root: root_from_env("AUTOGRADER_ROOT", "/autograder"),
        }
    }

    pub fn source(&self) -> PathBuf {
        self.root.join("source")
    }

    pub fn submission(&self) -> PathBuf {
        self.root.join("submission")
    }

    pub fn results(&self) -> PathBuf {
        self.root.join("results")
    }
}

/// Grades the submission of `layout` with `binary` (this boardgrade), under the strongest
/// sandbox available and at least `required`, the network closed as `network` says;
/// `grade_args` go to `boardgrade grade`.
pub fn run(
    layout: &Layout,
    binary: &Path,
    required: Sandbox,
    network: Network,
    grade_args: &[String],
) -> Result<Report, Error> {
    let results_dir = layout.results();
    std::fs::create_dir_all(&results_dir)
        .map_err(|e| Error::io(format!("cannot create {}", results_dir.display()), e))?;
    let results = results_dir.join("results.json");
    lock_down(layout)?;
    let sandbox = match choose_sandbox(required, network) {
        Ok(sandbox) => sandbox,
        Err(why) => {
            write_json(&results, &refusal(&why, required))?;
            return Ok(Report {
                sandbox: None,
                refused: Some(why),
                killed_after: 0,
                results,
            });
        }
    };
    let described = sandbox.describe();
    let Graded {
        document: graded,
        status,
        killed_after,
    } = grade_privately(
        binary,
        &layout.submission(),
        &layout.source().join("specs"),
        "gradescope",
        sandbox,
        grade_args,
        |v| v.get("score").is_some_and(Value::is_number),
    )?;
    // A run the grader failed in (a sandbox that passed its probe, then failed every
    // scenario) is refused as an unsafe machine is: the reason shown, no grade.
    if let Some(why) = graded.as_ref().and_then(grader_failure) {
        write_json(&results, &refusal(&why, required))?;
        return Ok(Report {
            sandbox: Some(described),
            refused: Some(why),
            killed_after,
            results,
        });
    }
    let document = match graded {
        Some(mut document) => {
            name_sandbox(&mut document, &described);
            document
        }
        None => {
            let mut results = gradescope::not_graded(
                format!(
                    "The autograder could not grade this submission (boardgrade grade: \
                     {status}). Please tell the course staff."
                ),
                None,
            );
            results
                .extra_data
                .insert("sandbox".into(), json!(described));
            json!(results)
        }
    };
    write_json(&results, &document)?;
    Ok(Report {
        sandbox: Some(described),
        refused: None,
        killed_after,
        results,
    })
}

/// `var`'s folder, else `default`: where a platform mounts the grader's files.
pub(crate) fn root_from_env(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default))
}

/// What a grading child left behind.
pub(crate) struct Graded {
    /// Its results document, when it wrote one of the platform's shape.
    pub document: Option<Value>,
    /// How the child ended, for the message when it left no results.
    pub status: String,
    /// Student processes still running after it, killed.
    pub killed_after: usize,
}

/// Grades `submission` (one student's, whatever its files are named) against `specs` in a
/// child whose results go to a folder only the grader can open, out of every student's
/// reach whatever the student's processes do meanwhile; then kills every student process
/// left. `complete` says whether a results document has the platform's shape.
pub(crate) fn grade_privately(
    binary: &Path,
    submission: &Path,
    specs: &Path,
    format: &str,
    sandbox: Sandbox,
    grade_args: &[String],
    complete: fn(&Value) -> bool,
) -> Result<Graded, Error> {
    let private = tempfile::Builder::new()
        .prefix("boardgrade-results-")
        .tempdir()
        .map_err(|e| Error::io("cannot create a private results folder", e))?;
    let out = private.path().join("out");
    let status = Command::new(binary)
        .arg("grade")
        .arg(submission)
        .arg("--one-submission")
        .arg("--specs")
        .arg(specs)
        .args(["--format", format, "--sandbox", sandbox.as_str(), "--out"])
        .arg(&out)
        .args(grade_args)
        .status();
    let killed_after = if student::grader_is_root() {
        student::kill_unleased()
    } else {
        0
    };
    let document = std::fs::read_to_string(out.join("results.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .filter(complete);
    Ok(Graded {
        document,
        status: status.map_or_else(|e| e.to_string(), |s| s.to_string()),
        killed_after,
    })
}

/// Closes the source folder (binary, specs, scripts) and the results folder to every user but
/// the grader's.
fn lock_down(layout: &Layout) -> Result<(), Error> {
    close_to_others(&[layout.source(), layout.results()])
}

/// Closes each folder of `dirs` that exists to every user but the grader's.
pub(crate) fn close_to_others(dirs: &[PathBuf]) -> Result<(), Error> {
    for dir in dirs {
        if dir.is_dir() {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| Error::io(format!("cannot protect {}", dir.display()), e))?;
        }
    }
    Ok(())
}

/// The strongest sandbox here, if it gives at least `required`.
pub(crate) fn choose_sandbox(required: Sandbox, network: Network) -> Result<Sandbox, String> {
    let available = Sandbox::strongest();
    if required == Sandbox::Bwrap && available < Sandbox::Bwrap {
        let why = sandbox::bwrap_probe().err().unwrap_or_default();
        return Err(format!(
            "the package requires bubblewrap, which cannot run here: {why}"
        ));
    }
    if required >= Sandbox::Limits && !student::grader_is_root() {
        return Err(format!(
            "the package requires the `{}` sandbox, which runs student programs as a user of \
             their own: the autograder must run as root",
            required.as_str()
        ));
    }
    let chosen = available.max(required);
    match network.refusal(chosen.open_network()) {
        Some(why) => Err(why),
        None => Ok(chosen),
    }
}

/// Why the grader failed, when the results say it did (`needs_rerun`).
fn grader_failure(document: &Value) -> Option<String> {
    let extra = document.get("extra_data")?;
    extra
        .get(gradescope::NEEDS_RERUN)
        .and_then(Value::as_bool)
        .filter(|&failed| failed)?;
    let why = extra.get("error").and_then(Value::as_str).unwrap_or("");
    Some(format!("the grader failed while grading: {why}"))
}

/// The results of a refused run: nothing graded, the reason for the course staff.
fn refusal(why: &str, required: Sandbox) -> Value {
    let mut results = gradescope::not_graded(
        "The autograder could not grade this submission safely on this machine, so this is \
         not a grade. The course staff can see why; please tell them."
            .to_string(),
        Some(("autograder sandbox", format!("Not graded: {why}"))),
    );
    results.extra_data.extend([
        ("sandbox".to_string(), Value::Null),
        ("required_sandbox".to_string(), json!(required.as_str())),
        ("refused".to_string(), json!(why)),
    ]);
    json!(results)
}

/// Adds the sandbox to `document`'s extra data.
fn name_sandbox(document: &mut Value, described: &str) {
    if let Some(object) = document.as_object_mut() {
        let extra = object.entry("extra_data").or_insert_with(|| json!({}));
        if let Some(extra) = extra.as_object_mut() {
            extra.insert("sandbox".into(), json!(described));
        }
    }
}

/// Writes `value` to `path` through a file beside it, so a reader sees all of it or none.
pub(crate) fn write_json(path: &Path, value: &Value) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    let staging = path.with_extension("json.partial");
    std::fs::write(&staging, text)
        .and_then(|()| std::fs::rename(&staging, path))
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}
