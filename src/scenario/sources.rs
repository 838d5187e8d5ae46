//! Where scenario files come from: paths on disk (files or folders, walked in sorted order)
//! or the specs bundled into the binary.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::course::{self, CoursePolicy};
use super::load::parse_file_in;
use super::text::TextError;
use super::Scenario;
use crate::error::{Error, ScenarioFileError};
use crate::games::variant::{self, Catalogue, Variant};

mod inherit;

/// The text of one scenario file and the name it is reported under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Where it is on disk (`None` for the bundled specs): its course file is looked for
    /// from there.
    pub path: Option<PathBuf>,
}

impl SourceFile {
    /// A variant file (`variant.toml`) rather than scenarios.
    pub fn is_variant(&self) -> bool {
        variant::is_file(Path::new(&self.name))
    }
}

/// The `specs/` folder as it was when boardgrade was built.
pub fn bundled() -> Vec<SourceFile> {
    crate::bundled::FILES
        .iter()
        .filter(|(name, _)| is_spec_file(Path::new(name)))
        .map(|(name, text)| SourceFile {
            name: format!("specs/{name}"),
            text: (*text).to_string(),
            path: None,
        })
        .collect()
}

/// A `.toml` file other than a course file: scenarios or a variant.
fn is_spec_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
        && path
            .file_name()
            .is_none_or(|name| name != course::FILE_NAME)
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
                if entry.file_type().is_file() && is_spec_file(entry.path()) {
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
    let text = super::text::read(path).map_err(|why| Error::path(path, why.to_string()))?;
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
    /// The variants the files define, and the bundled ones.
    pub variants: Catalogue,
}

/// Loads every file under the course policy found beside it (see [`load_with`]).
pub fn load_all(files: &[SourceFile]) -> Loaded {
    let (variants, read) = read_variants(files);
    load_with(files, variants, read, None)
}

/// Loads every file under the course policy in the file `course` (see [`load_with`]); a
/// course file that does not load is an error.
pub fn load_under(files: &[SourceFile], course: &Path) -> Result<Loaded, Error> {
    let (variants, read) = read_variants(files);
    let course = CoursePolicy::read(course, &variants)?;
    Ok(load_with(files, variants, read, Some(&course)))
}

/// Loads every file, each under `course` when given, else under the course file nearest
/// above it (for the bundled specs, a bundled one), else its dialects' defaults. A course
/// file that does not load is an error, and the scenario files under it are not loaded.
///
/// The variant files among them, and beside them on disk, were read first into `variants`
/// (scenarios name their variants; `read` says how each file went); a variant's inherited
/// scenarios (the base dialect's, from the folder its file names) are loaded as the
/// variant's.
fn load_with(
    files: &[SourceFile],
    variants: Catalogue,
    read: Vec<VariantRead>,
    course: Option<&CoursePolicy>,
) -> Loaded {
    let mut loaded = Loaded::default();
    let mut inherited: Vec<(SourceFile, &'static Variant)> = Vec::new();
    for (file, read) in read {
        match read.and_then(|found| Ok((inherit::base_files(&file, found)?, found))) {
            Ok((base, found)) => inherited.extend(base.into_iter().map(|f| (f, found))),
            Err(error) => loaded.errors.push(error),
        }
    }
    let own = files.iter().filter(|f| !f.is_variant()).map(|f| (f, None));
    let jobs = own.chain(inherited.iter().map(|(f, v)| (f, Some(*v))));
    // Each file's course file is read first (once for all the files under it); the scenario
    // files are then parsed on every core, most of loading, and taken in their order.
    let mut found: HashMap<String, Result<CoursePolicy, ScenarioFileError>> = HashMap::new();
    let mut parses: Vec<(&SourceFile, Option<&'static Variant>, Option<String>)> = Vec::new();
    for (file, variant) in jobs {
        let policy = match course {
            Some(_) => None,
            None => match course_source(file) {
                None => None,
                Some((name, text)) => {
                    let new = !found.contains_key(&name);
                    let parsed = found.entry(name.clone()).or_insert_with(|| match text {
                        Ok(text) => CoursePolicy::parse(&name, &text, &variants),
                        Err(why) => {
                            let message = format!("the course policy: {why}");
                            let mut error = ScenarioFileError::at(&name, "", 0, None, message);
                            if let Some((line, column)) = why.place() {
                                (error.line, error.column) = (line, column);
                            }
                            Err(error)
                        }
                    });
                    match parsed {
                        Ok(_) => Some(name),
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
        parses.push((file, variant, policy));
    }
    let parse = |_: usize, (file, _, _): &(&SourceFile, _, _)| {
        parse_file_in(&file.name, &file.text, &variants)
    };
    crate::pool::ordered(
        &parses,
        crate::pool::default_jobs(),
        parse,
        |index, parsed| {
            let (_, variant, policy) = &parses[index];
            let policy = course.or_else(|| {
                let found = found.get(policy.as_deref()?)?;
                found.as_ref().ok()
            });
            match parsed {
                Ok(scenarios) => loaded.scenarios.extend(
                    scenarios
                        .into_iter()
                        .filter_map(|s| match variant {
                            None => Some(s),
                            Some(variant) => inherit::retarget(s, variant),
                        })
                        .map(|s| under(s, policy)),
                ),
                // A base file that does not load is reported once, as itself.
                Err(error) if !loaded.errors.contains(&error) => loaded.errors.push(error),
                Err(_) => {}
            }
            ControlFlow::Continue(())
        },
    );
    loaded.variants = variants;
    loaded
}

/// A variant file read: the variant, or why it does not load.
pub type VariantRead = (SourceFile, Result<&'static Variant, ScenarioFileError>);

/// Reads the variant files among `files`, and those beside its scenario files on disk, so
/// that their scenarios may name them: the catalogue of the bundled variants and these, and
/// each file with the variant or why it does not load.
pub fn read_variants(files: &[SourceFile]) -> (Catalogue, Vec<VariantRead>) {
    let mut variants = Catalogue::with_bundled();
    let read = inherit::variant_files(files)
        .into_iter()
        .map(|(file, unread)| {
            let read = match unread {
                Some(error) => Err(error),
                None => variants.read(&file.name, &file.text),
            };
            (file, read)
        })
        .collect();
    (variants, read)
}

/// The scenario under `course`'s policy, when there is one.
fn under(mut scenario: Scenario, course: Option<&CoursePolicy>) -> Scenario {
    if let Some(course) = course {
        scenario.policy = course.policy(scenario.game, scenario.dialect);
        if let Some(seed) = course.battery_seed {
            super::battery::reseed(&mut scenario, seed);
        }
    }
    scenario
}

/// The name and text (or why it cannot be read) of the course file that governs `file`, if
/// any.
fn course_source(file: &SourceFile) -> Option<(String, Result<String, TextError>)> {
    match &file.path {
        Some(path) => {
            let course = course::find_beside(path)?;
            let text = super::text::read(&course);
            Some((course.display().to_string(), text))
        }
        None => {
            let relative = file.name.strip_prefix("specs/")?;
            Path::new(relative).ancestors().skip(1).find_map(|dir| {
                let name = dir
                    .join(course::FILE_NAME)
                    .to_string_lossy()
                    .replace('\\', "/");
                crate::bundled::FILES
                    .iter()
                    .find(|(bundled, _)| *bundled == name)
                    .map(|(bundled, text)| (format!("specs/{bundled}"), Ok(text.to_string())))
            })
        }
    }
}
