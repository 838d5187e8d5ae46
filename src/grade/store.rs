//! Per-submission result files, written atomically as each submission finishes, so an
//! interrupted run loses nothing and `--resume` can skip what is done.

use std::path::{Path, PathBuf};

use super::SubmissionResult;
use crate::error::Error;

/// The folder of result files.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn open(dir: &Path) -> Result<Store, Error> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    fn file(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// The stored result of a submission, if a complete one exists.
    pub fn load(&self, id: &str) -> Option<SubmissionResult> {
        let text = std::fs::read(self.file(id)).ok()?;
        serde_json::from_slice(&text).ok()
    }

    /// Writes the result next to its final name, then renames it into place.
    pub fn save(&self, result: &SubmissionResult) -> Result<(), Error> {
        let path = self.file(&result.id);
        let temporary = self.dir.join(format!(".{}.json.partial", result.id));
        let text = serde_json::to_vec_pretty(result)
            .map_err(|e| Error::Usage(format!("cannot encode a result: {e}")))?;
        std::fs::write(&temporary, text)
            .and_then(|_| std::fs::rename(&temporary, &path))
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
    }
}
