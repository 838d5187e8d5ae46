//! Finding submissions: one file or folder, or a class folder holding one per subfolder or
//! file, and the dialect each one answers.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games::Dialect;

/// One student's work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// A name unique in the run (the folder or file name), used for result files.
    pub id: String,
    /// The file, or the folder holding the entry file.
    pub path: PathBuf,
}

fn name_of(path: &Path) -> String {
    path.file_stem()
        .or_else(|| path.file_name())
        .map_or_else(|| "submission".into(), |n| n.to_string_lossy().to_string())
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with(['.', '_']))
}

/// True when `dir` holds one of the entry files itself (it is one submission, not a class).
fn holds_entry(dir: &Path, entries: &[&str]) -> bool {
    entries.iter().any(|entry| dir.join(entry).is_file())
}

/// The submissions named by `paths`. A folder holding an entry file is one submission; any
/// other folder is a class: each subfolder and each `.py` file in it is a submission.
pub fn discover(paths: &[PathBuf], entries: &[&str]) -> Result<Vec<Submission>, Error> {
    let mut found = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
        if meta.is_file() || holds_entry(path, entries) {
            found.push(path.clone());
            continue;
        }
        let mut members: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Error::path(path, format!("cannot list: {e}")))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| !hidden(p) && (p.is_dir() || p.extension().is_some_and(|e| e == "py")))
            .collect();
        if members.is_empty() {
            return Err(Error::path(
                path,
                "no submissions here (no entry file, subfolder or .py file)",
            ));
        }
        members.sort();
        found.extend(members);
    }
    let mut used = HashSet::new();
    Ok(found
        .into_iter()
        .map(|path| {
            let base = if path.is_file() && entries.iter().any(|e| path.ends_with(e)) {
                // `alice/one_d_chess.py`: the student is the folder.
                path.parent().map_or_else(|| name_of(&path), name_of)
            } else {
                name_of(&path)
            };
            let mut id = sanitize(&base);
            let mut n = 2;
            while !used.insert(id.clone()) {
                id = format!("{}-{n}", sanitize(&base));
                n += 1;
            }
            Submission { id, path }
        })
        .collect())
}

/// A name safe as a file name.
fn sanitize(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() || cleaned.starts_with('.') {
        format!("submission{cleaned}")
    } else {
        cleaned
    }
}

/// The dialect a submission answers, among those being graded: the one whose entry file it
/// is or holds (`entry` overrides the file name looked for).
pub fn dialect_of(
    submission: &Submission,
    dialects: &[&'static Dialect],
    entry: Option<&str>,
) -> Result<&'static Dialect, String> {
    let path = &submission.path;
    let matches: Vec<&'static Dialect> = dialects
        .iter()
        .copied()
        .filter(|d| {
            let wanted = entry.unwrap_or(d.entry_file);
            if path.is_file() {
                Path::new(wanted).file_name() == path.file_name()
            } else {
                // The folder may be the entry's own folder or any above it
                // (`pychess/logic/chess_logic.py` is found from `pychess/` too).
                let parts: Vec<&std::ffi::OsStr> = Path::new(wanted).iter().collect();
                (0..parts.len()).any(|skip| {
                    path.join(parts[skip..].iter().collect::<PathBuf>())
                        .is_file()
                })
            }
        })
        .collect();
    match (matches.as_slice(), dialects) {
        ([only], _) => Ok(only),
        ([], [only]) if path.is_file() => Ok(only),
        ([], _) => {
            let wanted: Vec<&str> = dialects
                .iter()
                .map(|d| entry.unwrap_or(d.entry_file))
                .collect();
            Err(format!(
                "no entry file found: expected {}",
                wanted.join(" or ")
            ))
        }
        (several, _) => {
            let names: Vec<&str> = several.iter().map(|d| d.name).collect();
            Err(format!(
                "the submission fits several dialects ({}); grade one at a time",
                names.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_folder_is_split_and_ids_are_unique() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path();
        std::fs::create_dir_all(class.join("alice")).unwrap();
        std::fs::write(class.join("alice/one_d_chess.py"), "").unwrap();
        std::fs::create_dir_all(class.join("bob smith")).unwrap();
        std::fs::write(class.join("carol.py"), "").unwrap();
        std::fs::write(class.join("notes.txt"), "").unwrap();
        std::fs::create_dir_all(class.join(".git")).unwrap();
        let subs = discover(&[class.to_path_buf()], &["one_d_chess.py"]).unwrap();
        let ids: Vec<&str> = subs.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alice", "bob_smith", "carol"]);
        let one = discover(
            &[class.join("alice"), class.join("alice/one_d_chess.py")],
            &["one_d_chess.py"],
        )
        .unwrap();
        let ids: Vec<&str> = one.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alice", "alice-2"]);
    }
}
