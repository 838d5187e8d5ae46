//! Per-submission result files, written atomically as each submission finishes, so an
//! interrupted run loses nothing and `--resume` can skip what is done.
//!
//! A stored result is keyed by the exact submission: its file is named after the student's
//! name and a hash of it (two names that clean up to the same file name never share one), and
//! it is reused only for the same name, the same files (content hash), the same scenarios
//! (their hashes) and the same sandbox, limits, runner and interpreter.

use std::path::{Path, PathBuf};

use super::{fingerprint, Plan, SubmissionResult};
use crate::error::Error;

/// The folder of result files.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// A name safe as a file name (the hash beside it keeps names apart).
fn file_safe(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .take(60)
        .map(|c| {
            if c.is_alphanumeric() || "-_@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "submission".to_string()
    } else {
        cleaned
    }
}

impl Store {
    pub fn open(dir: &Path) -> Result<Store, Error> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, id: &str) -> PathBuf {
        self.dir
            .join(format!("{}-{}.json", file_safe(id), fingerprint::short(id)))
    }

    /// The stored result of exactly this submission, if a complete one exists for its
    /// current files and scenarios, graded under `conditions` (the run's sandbox, limits,
    /// runner and interpreter); one the grader failed on is never reused (it needs its
    /// re-run).
    pub fn load(&self, plan: &Plan, conditions: &str) -> Option<SubmissionResult> {
        let result = self.load_id(&plan.submission.id)?;
        (result.content_hash == plan.content_hash
            && result.scenario_hashes == plan.scenario_hashes
            && result.graded_under == conditions
            && !result.needs_rerun)
            .then_some(result)
    }

    /// The stored result of the submission named `id`, whatever it was graded from.
    pub fn load_id(&self, id: &str) -> Option<SubmissionResult> {
        let text = std::fs::read(self.file(id)).ok()?;
        let result: SubmissionResult = serde_json::from_slice(&text).ok()?;
        (result.id == id).then_some(result)
    }

    /// Writes the result next to its final name, then renames it into place.
    pub fn save(&self, result: &SubmissionResult) -> Result<(), Error> {
        let text = serde_json::to_vec_pretty(result).map_err(|e| Error::encode("a result", e))?;
        crate::atomic::write(&self.file(&result.id), &text)
    }
}
