//! Where scenario files come from: paths on disk (files or folders, walked in sorted order)
//! or the specs bundled into the binary.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::load::parse_file;
use super::Scenario;
use crate::error::{Error, ScenarioFileError};

mod bundle {
    include!(concat!(env!("OUT_DIR"), "/bundled_specs.rs"));
}

/// The text of one scenario file and the name it is reported under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// The `specs/` folder as it was when boardgrade was built.
pub fn bundled() -> Vec<SourceFile> {
    bundle::FILES
        .iter()
        .map(|(name, text)| SourceFile {
            name: format!("specs/{name}"),
            text: (*text).to_string(),
        })
        .collect()
}

fn is_scenario_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

/// Every `.toml` file named or found under the paths, in a stable order.
pub fn from_paths(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Error> {
    let mut files = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
        if meta.is_dir() {
            let mut found = 0;
            for entry in WalkDir::new(path).sort_by_file_name() {
                let entry = entry.map_err(|e| Error::path(path, format!("cannot walk: {e}")))?;
                if entry.file_type().is_file() && is_scenario_file(entry.path()) {
                    files.push(read(entry.path())?);
                    found += 1;
                }
            }
            if found == 0 {
                return Err(Error::path(
                    path,
                    "no scenario files (*.toml) in this folder",
                ));
            }
        } else {
            files.push(read(path)?);
        }
    }
    Ok(files)
}

fn read(path: &Path) -> Result<SourceFile, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::path(
            path,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })?;
    Ok(SourceFile {
        name: path.display().to_string(),
        text,
    })
}

/// The scenarios of every file that loads, and an error for each file that does not.
#[derive(Debug, Default)]
pub struct Loaded {
    pub scenarios: Vec<Scenario>,
    pub errors: Vec<ScenarioFileError>,
}

pub fn load_all(files: &[SourceFile]) -> Loaded {
    let mut loaded = Loaded::default();
    for file in files {
        match parse_file(&file.name, &file.text) {
            Ok(mut scenarios) => loaded.scenarios.append(&mut scenarios),
            Err(error) => loaded.errors.push(error),
        }
    }
    loaded
}
