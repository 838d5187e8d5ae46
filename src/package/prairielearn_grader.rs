//! What PrairieLearn's entrypoint runs (`boardgrade prairielearn --run-grader`), as
//! [`super::autograder`] does on Gradescope:
//!
//! 1. closes the course's boardgrade folder (binary, script), the question's tests (the
//!    specs, hidden ones included) and the results folder to every other user, so a student
//!    program can neither run the grader's engine as an oracle, read a hidden scenario, nor
//!    write a result;
//! 2. checks that the machine gives the least protection the course files were written for
//!    (`bwrap` unless the course allowed `limits`), and otherwise grades nothing: a
//!    `results.json` with `gradable: false` and the reason, so no attempt is spent;
//! 3. grades the student's files in a child whose results go to a folder only the grader
//!    can open, kills whatever student process is left, and writes `results.json` itself.
//!
//! Nothing a student process wrote is ever copied: a missing or unreadable result is
//! `gradable: false` with a message.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::autograder::{
    choose_sandbox, close_to_others, grade_privately, root_from_env, write_json, Graded,
};
use super::Network;
use crate::error::Error;
use crate::execution::sandbox::Sandbox;
use crate::report::package::Report;

/// PrairieLearn's mounts (`/grade`, or `PL_GRADE_ROOT`).
#[derive(Debug, Clone)]
pub struct Layout {
    pub root: PathBuf,
}

impl Layout {
    /// `PL_GRADE_ROOT`, else `/grade`.
    pub fn from_env() -> Layout {
        Layout {
            root: root_from_env("PL_GRADE_ROOT", "/grade"),
        }
    }

    fn course(&self) -> PathBuf {
        self.root.join("serverFilesCourse").join("boardgrade")
    }

    fn tests(&self) -> PathBuf {
        self.root.join("tests")
    }

    fn results(&self) -> PathBuf {
        self.root.join("results").join("results.json")
    }
}

/// A result that is no grade: `message` for the student, no attempt spent.
fn not_gradable(message: String) -> Value {
    json!({"gradable": false, "score": 0, "message": message, "output": "", "tests": []})
}

/// Grades `layout`'s student files with `binary` (this boardgrade) under the strongest
/// sandbox here, at least `required`, the network closed as `network` says; `grade_args` go
/// to `boardgrade grade`.
pub fn run(
    layout: &Layout,
    binary: &Path,
    required: Sandbox,
    network: Network,
    grade_args: &[String],
) -> Result<Report, Error> {
    let results = layout.results();
    if let Some(dir) = results.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    // Only a file written after grading is a result: nothing left there before counts.
    let _ = std::fs::remove_file(&results);
    let results_dir = results.parent().map(Path::to_path_buf).unwrap_or_default();
    close_to_others(&[layout.course(), layout.tests(), results_dir])?;
    let sandbox = match choose_sandbox(required, network) {
        Ok(sandbox) => sandbox,
        Err(why) => {
            let message = format!(
                "The autograder could not grade this submission safely on this machine ({why}). \
                 This is not a grade and costs no attempt; please tell the course staff."
            );
            write_json(&results, &not_gradable(message))?;
            return Ok(Report {
                sandbox: None,
                refused: Some(why),
                killed_after: 0,
                results,
            });
        }
    };
    let Graded {
        document: graded,
        status,
        killed_after,
    } = grade_privately(
        binary,
        &layout.root.join("student"),
        &layout.tests().join("specs"),
        "prairielearn",
        sandbox,
        grade_args,
        |v| v.get("gradable").is_some_and(Value::is_boolean),
    )?;
    let document = graded.unwrap_or_else(|| {
        not_gradable(format!(
            "The autograder could not grade this submission (boardgrade grade: {status}). \
             Please tell the course staff."
        ))
    });
    write_json(&results, &document)?;
    Ok(Report {
        sandbox: Some(sandbox.describe()),
        refused: None,
        killed_after,
        results,
    })
}
