//! Where scenario files come from: paths on disk (files or folders, walked in sorted order)
//! or the specs bundled into the binary.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use std::collections::HashMap;

use super::load::parse_file;
use super::Scenario;
use crate::error::{Error, ScenarioFileError};
use crate::policy::{self, CoursePolicy};

mod bundle {
    include!(concat!(env!("OUT_DIR"), "/bundled_specs.rs"));
}

/// The text of one scenario file and the name it is reported under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Where it is on disk (`None` for the bundled specs): its course file is looked for
    /// from there.
    pub path: Option<PathBuf>,
}

/// The `specs/` folder as it was when boardgrade was built.
pub fn bundled() -> Vec<SourceFile> {
    bundle::FILES
        .iter()
        .filter(|(name, _)| is_scenario_file(Path::new(name)))
        .map(|(name, text)| SourceFile {
            name: format!("specs/{name}"),
            text: (*text).to_string(),
            path: None,
        })
        .collect()
}

/// A `.toml` file other than a course file.
fn is_scenario_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
        && path
            .file_name()
            .is_none_or(|name| name != policy::FILE_NAME)
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
        path: Some(path.to_path_buf()),
    })
}

/// The scenarios of every file that loads, and an error for each file that does not.
#[derive(Debug, Default)]
pub struct Loaded {
    pub scenarios: Vec<Scenario>,
    pub errors: Vec<ScenarioFileError>,
}

/// Loads every file under the course policy found beside it (see [`load_under`]).
pub fn load_all(files: &[SourceFile]) -> Loaded {
    load_under(files, None)
}

/// Loads every file, each under `course` when given, else under the course file nearest
/// above it (for the bundled specs, a bundled one), else its dialects' defaults. A course
/// file that does not load is an error, and the scenario files under it are not loaded.
pub fn load_under(files: &[SourceFile], course: Option<&CoursePolicy>) -> Loaded {
    let mut loaded = Loaded::default();
    let mut found: HashMap<String, Result<CoursePolicy, ScenarioFileError>> = HashMap::new();
    for file in files {
        let policy = match course {
            Some(course) => Some(course),
            None => match course_source(file) {
                None => None,
                Some((name, text)) => {
                    let new = !found.contains_key(&name);
                    let parsed = found.entry(name.clone()).or_insert_with(|| match text {
                        Ok(text) => CoursePolicy::parse(&name, &text),
                        Err(message) => Err(ScenarioFileError::at(&name, "", 0, None, message)),
                    });
                    match parsed {
                        Ok(policy) => Some(&*policy),
                        Err(error) => {
                            if new {
                                loaded.errors.push(error.clone());
                            }
                            continue;
                        }
                    }
                }
            },
        };
        match parse_file(&file.name, &file.text) {
            Ok(scenarios) => loaded
                .scenarios
                .extend(scenarios.into_iter().map(|s| under(s, policy))),
            Err(error) => loaded.errors.push(error),
        }
    }
    loaded
}

/// The scenario under `course`'s policy, when there is one.
fn under(mut scenario: Scenario, course: Option<&CoursePolicy>) -> Scenario {
    if let Some(course) = course {
        scenario.policy = course.policy(scenario.game, scenario.dialect.name);
    }
    scenario
}

/// The name and text (or why it cannot be read) of the course file that governs `file`, if
/// any.
fn course_source(file: &SourceFile) -> Option<(String, Result<String, String>)> {
    match &file.path {
        Some(path) => {
            let course = policy::find_beside(path)?;
            let text = std::fs::read_to_string(&course)
                .map_err(|e| format!("cannot read the course policy: {e}"));
            Some((course.display().to_string(), text))
        }
        None => {
            let relative = file.name.strip_prefix("specs/")?;
            Path::new(relative).ancestors().skip(1).find_map(|dir| {
                let name = dir
                    .join(policy::FILE_NAME)
                    .to_string_lossy()
                    .replace('\\', "/");
                bundle::FILES
                    .iter()
                    .find(|(bundled, _)| *bundled == name)
                    .map(|(bundled, text)| (format!("specs/{bundled}"), Ok(text.to_string())))
            })
        }
    }
}
