//! Variant files among the specs, and the base dialect's scenarios a variant runs as its own.

use std::path::{Component, Path, PathBuf};

use super::{from_paths, is_spec_file, SourceFile};
use crate::error::ScenarioFileError;
use crate::games::variant::{self, Variant};
use crate::policy::Policy;
use crate::scenario::Scenario;

/// The variant files among `files`, then those beside its scenario files on disk (a
/// scenario file given alone still finds the variant it names), each once; one beside them
/// that is not text comes with why (the line and column of its first byte that is not
/// UTF-8), never left out in silence.
pub fn variant_files(files: &[SourceFile]) -> Vec<(SourceFile, Option<ScenarioFileError>)> {
    let mut found: Vec<(SourceFile, Option<ScenarioFileError>)> = files
        .iter()
        .filter(|f| f.is_variant())
        .map(|f| (f.clone(), None))
        .collect();
    for file in files.iter().filter(|f| !f.is_variant()) {
        let Some(beside) = file
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(|dir| dir.join(variant::FILE_NAME))
        else {
            continue;
        };
        let known = found
            .iter()
            .any(|(f, _)| f.path.as_deref() == Some(beside.as_path()));
        if !known && beside.is_file() {
            let name = beside.display().to_string();
            let (text, unread) = match crate::scenario::text::read(&beside) {
                Ok(text) => (text, None),
                Err(why) => {
                    let mut error = ScenarioFileError::at(&name, "", 0, None, why.to_string());
                    if let Some((line, column)) = why.place() {
                        (error.line, error.column) = (line, column);
                    }
                    (String::new(), Some(error))
                }
            };
            found.push((
                SourceFile {
                    name,
                    text,
                    path: Some(beside),
                },
                unread,
            ));
        }
    }
    found
}

/// The scenario files of the folder a variant inherits from (none when it inherits nothing).
pub fn base_files(
    file: &SourceFile,
    variant: &Variant,
) -> Result<Vec<SourceFile>, ScenarioFileError> {
    let Some(inherit) = &variant.inherit else {
        return Ok(Vec::new());
    };
    let at = |message: String| {
        let offset = variant::key_offset(&file.text, "scenarios.from");
        ScenarioFileError::at(
            &file.name,
            &file.text,
            offset,
            Some("scenarios.from"),
            message,
        )
    };
    let files = match &file.path {
        _ if inherit.from == variant::FROM_BUNDLED => bundled_folder(&format!(
            "specs/{}/{}",
            variant.game.name(),
            variant.base().name
        )),
        Some(path) => {
            let folder = lexical(&path.parent().unwrap_or(Path::new(".")).join(&inherit.from));
            if !folder.is_dir() {
                return Err(at(format!(
                    "{} is not a folder of scenarios",
                    folder.display()
                )));
            }
            from_paths(&[folder]).map_err(|e| at(e.to_string()))?
        }
        None => {
            let folder = lexical(
                &Path::new(&file.name)
                    .parent()
                    .unwrap_or(Path::new(""))
                    .join(&inherit.from),
            );
            let prefix = folder.to_string_lossy().replace('\\', "/");
            bundled_folder(&prefix)
        }
    };
    if files.is_empty() {
        return Err(at(format!(
            "{} holds no scenarios of {}",
            inherit.from,
            variant.base().name
        )));
    }
    Ok(files
        .into_iter()
        .filter(|f| is_spec_file(Path::new(&f.name)) && !variant::is_file(Path::new(&f.name)))
        .collect())
}

/// The bundled files under `prefix` (`specs/GAME/DIALECT`).
fn bundled_folder(prefix: &str) -> Vec<SourceFile> {
    crate::bundled::FILES
        .iter()
        .map(|(name, text)| (format!("specs/{name}"), text))
        .filter(|(name, _)| name.starts_with(&format!("{prefix}/")))
        .map(|(name, text)| SourceFile {
            name,
            text: (*text).to_string(),
            path: None,
        })
        .collect()
}

/// `a/b/../c` as `a/c`, without asking the file system (the bundled specs are no files).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A scenario of the base dialect as one of the variant's, unless the variant skips it
/// (by file or scenario name) or cannot run it (a step calls a function it drops).
///
/// A written expectation states the base handout's text; where the variant answers a step
/// otherwise (its own winner's message, another token), the variant's answer takes its
/// place, as a course option's does.
pub fn retarget(mut scenario: Scenario, variant: &'static Variant) -> Option<Scenario> {
    // A rule battery runs under a variant that plays one (its lines call what the base's
    // call); under another, the variant may rename or change what the battery calls.
    let plays_battery = variant.dialect.battery.is_some();
    if !std::ptr::eq(scenario.dialect, variant.base()) || (scenario.is_battery() && !plays_battery)
    {
        return None;
    }
    let inherit = variant.inherit.as_ref()?;
    let file_name = Path::new(&scenario.file)
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if inherit
        .skip
        .iter()
        .any(|s| *s == scenario.name || *s == file_name)
    {
        return None;
    }
    // A battery's steps expect what the variant's own reference answers when it runs:
    // there is nothing written to respell.
    if !scenario.is_battery() {
        respell(&mut scenario, variant)?;
    }
    scenario.dialect = variant.dialect;
    scenario.policy = Policy::defaults(variant.dialect.policy.options());
    Some(scenario)
}

/// The base scenario's steps with the variant's answers where it answers otherwise; `None`
/// when a step calls what the variant does not define.
fn respell(scenario: &mut Scenario, variant: &'static Variant) -> Option<()> {
    let mut session = scenario
        .game
        .start(variant.dialect, &scenario.options)
        .ok()?;
    let mut base = scenario
        .game
        .start(scenario.dialect, &scenario.options)
        .ok()?;
    if session.opening() != base.opening() {
        scenario.opening = None;
    }
    let mut steps = scenario.steps.to_vec();
    for step in &mut steps {
        if !session.is_defined(&step.send) {
            return None;
        }
        if session.respond(&step.send) != base.respond(&step.send) {
            step.expect = None;
            step.accept.clear();
        }
    }
    scenario.steps = steps.into();
    Some(())
}
