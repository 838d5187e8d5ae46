//! The variants an author can name: those in a `specs/` folder, then the bundled ones of
//! other names. A local variant file that does not load is kept with its error; a bundled
//! one that a local file of the same name replaces is left out.

use std::path::Path;

use crate::error::ScenarioFileError;
use crate::games::variant::{self, Variant};

/// Every variant found under `local` (when it is a folder), then those bundled, each name of
/// a game once.
pub fn found(local: &Path) -> Vec<Result<&'static Variant, ScenarioFileError>> {
    let mut files: Vec<(String, String)> = Vec::new();
    if local.is_dir() {
        for entry in walkdir::WalkDir::new(local)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.file_name() == variant::FILE_NAME)
        {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                files.push((entry.path().display().to_string(), text));
            }
        }
    }
    let local_count = files.len();
    files.extend(variant::bundled());
    let mut found = Vec::new();
    let mut listed: Vec<(&str, &str)> = Vec::new();
    for (index, (file, text)) in files.iter().enumerate() {
        match variant::register(file, text) {
            Ok(variant) => {
                let key = (variant.game.name(), variant.name);
                if !listed.contains(&key) {
                    listed.push(key);
                    found.push(Ok(variant));
                }
            }
            // A bundled variant that a local file of the same name replaces.
            Err(_) if index >= local_count => {}
            Err(error) => found.push(Err(error)),
        }
    }
    found
}
