//! Per-submission result files, written atomically as each submission finishes, so an
//! interrupted run loses nothing and `--resume` can skip what is done.
//!
//! A stored result is keyed by the exact submission: its file is named after the student's
//! name and a hash of it (two names that clean up to the same file name never share one), and
//! it is reused only for the same name, the same files (content hash), the same scenarios
//! (their hashes) and the same sandbox, limits, runner and interpreter.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{fingerprint, Plan, SubmissionResult};
use crate::error::Error;

/// What a stored result was graded from, which `--resume` must find again to reuse it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumeKey {
    /// The hash of the submission's files when graded.
    pub content_hash: String,
    /// The hashes of the scenarios it was graded against, sorted.
    pub scenario_hashes: Vec<String>,
    /// What it was graded under (sandbox, limits, runner, interpreter).
    pub graded_under: String,
}

/// A stored result: the published submission report with its key beside its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    #[serde(flatten)]
    pub result: SubmissionResult,
    #[serde(flatten)]
    pub key: ResumeKey,
}

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
    /// current files and scenarios, graded under the run's sandbox, limits, runner and
    /// interpreter (the plan's key); one the grader failed on is never reused (it needs its
    /// re-run).
    pub fn load(&self, plan: &Plan) -> Option<SubmissionResult> {
        let stored = self.load_id(&plan.submission.id)?;
        (stored.key == plan.key && !stored.result.needs_rerun).then_some(stored.result)
    }

    /// The stored result of the submission named `id`, whatever it was graded from.
    pub fn load_id(&self, id: &str) -> Option<Stored> {
        let text = std::fs::read(self.file(id)).ok()?;
        let stored: Stored = serde_json::from_slice(&text).ok()?;
        (stored.result.id == id).then_some(stored)
    }

    /// Writes the result next to its final name, then renames it into place.
    pub fn save(&self, stored: &Stored) -> Result<(), Error> {
        let text = serde_json::to_vec_pretty(stored).map_err(|e| Error::encode("a result", e))?;
        crate::atomic::write(&self.file(&stored.result.id), &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(id: &str) -> Stored {
        let result: SubmissionResult = serde_json::from_value(serde_json::json!({
            "id": id, "path": id, "dialect": "project5", "score": 1.5, "max_score": 2.0,
            "error": null, "elapsed_ms": 5, "scenarios": [],
            "summary": {
                "passed": 0, "failed": 0, "errors": 0, "score": 0.0, "max_score": 0.0,
                "verdicts": {},
            },
        }))
        .expect("a submission result");
        Stored {
            result,
            key: ResumeKey {
                content_hash: "c0ffee".into(),
                scenario_hashes: vec!["a1".into(), "b2".into()],
                graded_under: "sandbox bwrap".into(),
            },
        }
    }

    #[test]
    fn a_stored_result_is_the_published_report_with_its_key_beside_its_fields() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let written = stored("Jane Q/late");
        store.save(&written).unwrap();
        let file = std::fs::read_dir(dir.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(file.path()).unwrap()).unwrap();
        assert_eq!(json["id"], "Jane Q/late");
        assert_eq!(json["score"], 1.5);
        assert_eq!(json["content_hash"], "c0ffee");
        assert_eq!(json["graded_under"], "sandbox bwrap");
        // The report itself carries no key: what the class report publishes is the result.
        let report = serde_json::to_value(&written.result).unwrap();
        assert!(report.get("content_hash").is_none(), "{report}");
        assert_eq!(store.load_id("Jane Q/late"), Some(written));
        assert_eq!(store.load_id("Jane Q"), None);
    }
}
