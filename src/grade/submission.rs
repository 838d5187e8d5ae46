//! Finding submissions: one file or folder, or a class folder holding one per subfolder or
//! file. Every member of a class folder is either a submission or listed as skipped, with
//! the reason.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// One student's work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    /// The student's name as given (the folder's whole name, or a file's name without
    /// `.py`), unique in the run. Never rewritten: `john.smith` and `john.doe` stay apart.
    pub id: String,
    /// The file, or the folder holding the student's files.
    pub path: PathBuf,
    /// Whether the modules beside a one-file submission are the student's own: in a
    /// student's check of a file in their project folder they are (its helper modules);
    /// in a class folder they are other students' files.
    pub own_folder: bool,
}

impl Submission {
    /// The folder of a one-file submission whose neighbours are the student's own (a
    /// relative file's is `.`); `None` for a folder, or a file in a class folder.
    pub fn own_folder_of_file(&self) -> Option<PathBuf> {
        if !self.own_folder || !self.path.is_file() {
            return None;
        }
        Some(match self.path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        })
    }
}

/// A member of a class folder that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Skipped {
    pub path: String,
    pub why: String,
}

/// What a set of paths holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    pub submissions: Vec<Submission>,
    pub skipped: Vec<Skipped>,
}

/// True when `dir` holds one of the entry files itself (it is one submission, not a class).
fn holds_entry(dir: &Path, entries: &[&str]) -> bool {
    entries.iter().any(|entry| dir.join(entry).is_file())
}

/// Why a member of a class folder is not a submission, if it is not.
fn skip_reason(path: &Path, out: Option<&Path>) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy();
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        return Some("a symbolic link (a submission is a real file or folder)");
    }
    if let (Some(out), Ok(real)) = (out, std::fs::canonicalize(path)) {
        if out.starts_with(&real) {
            return Some("the results folder (--out) or a folder holding it");
        }
    }
    if name.starts_with('.') || name.starts_with('_') {
        return Some("its name starts with `.` or `_` (hidden or tool files)");
    }
    if meta.is_file() && path.extension().is_none_or(|e| e != "py") {
        return Some("not a folder or a .py file");
    }
    None
}

/// The submissions named by `paths`. A file, or a folder holding an entry file (`entries`:
/// the dialects' entry files, or the `--entry` file), is one submission; any other folder is
/// a class: each subfolder and each `.py` file in it is a submission. `out`, the results
/// folder, is never a submission. With `each_one`, every path is one submission whatever it
/// holds (an upload whose solution has a name of its own is not mistaken for a class).
pub fn discover(
    paths: &[PathBuf],
    entries: &[&str],
    out: Option<&Path>,
    each_one: bool,
) -> Result<Discovery, Error> {
    let out = out.and_then(resolve);
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
        if each_one || meta.is_file() || holds_entry(path, entries) {
            found.push(path.clone());
            continue;
        }
        let mut members: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Error::path(path, format!("cannot list: {e}")))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .collect();
        members.sort();
        let before = found.len();
        for member in members {
            match skip_reason(&member, out.as_deref()) {
                Some(why) => skipped.push(Skipped {
                    path: member.display().to_string(),
                    why: why.to_string(),
                }),
                None => found.push(member),
            }
        }
        if found.len() == before {
            return Err(Error::path(
                path,
                "no submissions here (no entry file, subfolder or .py file)",
            ));
        }
    }
    let mut used = HashSet::new();
    let submissions = found
        .into_iter()
        .map(|path| {
            let id = unique_id(&path, entries, &mut used);
            Submission {
                id,
                path,
                own_folder: false,
            }
        })
        .collect();
    Ok(Discovery {
        submissions,
        skipped,
    })
}

/// `path` with its links resolved, also when it does not exist yet (its parent is).
fn resolve(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok().or_else(|| {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = std::fs::canonicalize(parent.unwrap_or(Path::new("."))).ok()?;
        Some(parent.join(path.file_name()?))
    })
}

/// The student's name for `path`: a folder's whole name; a file's name without `.py`, or
/// its folder's name when the file is an entry file (`alice/one_d_chess.py` is alice's).
/// A name already used gets the file's whole name, then a number.
fn unique_id(path: &Path, entries: &[&str], used: &mut HashSet<String>) -> String {
    let whole = |p: &Path| p.file_name().map(|n| n.to_string_lossy().to_string());
    let base = if path.is_file() {
        let is_entry = entries.iter().any(|e| path.ends_with(e));
        let parent = path.parent().and_then(whole).filter(|_| is_entry);
        parent.or_else(|| {
            path.file_stem()
                .map(|n| n.to_string_lossy().to_string())
                .filter(|_| path.extension().is_some_and(|e| e == "py"))
                .or_else(|| whole(path))
        })
    } else {
        whole(path)
    }
    .unwrap_or_else(|| "submission".to_string());
    let mut candidates = vec![base.clone()];
    candidates.extend(whole(path).filter(|w| *w != base));
    for candidate in candidates {
        if used.insert(candidate.clone()) {
            return candidate;
        }
    }
    (2..)
        .map(|n| format!("{base} ({n})"))
        .find(|c| used.insert(c.clone()))
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_folder_is_split_names_kept_whole_and_skips_listed() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        std::fs::create_dir_all(class.join("alice")).unwrap();
        std::fs::write(class.join("alice/one_d_chess.py"), "").unwrap();
        std::fs::create_dir_all(class.join("bob smith")).unwrap();
        std::fs::create_dir_all(class.join("john.smith")).unwrap();
        std::fs::create_dir_all(class.join("john.doe")).unwrap();
        std::fs::create_dir_all(class.join("_template")).unwrap();
        std::fs::create_dir_all(class.join("results")).unwrap();
        std::fs::write(class.join("carol.py"), "").unwrap();
        std::fs::write(class.join("notes.txt"), "").unwrap();
        std::fs::create_dir_all(class.join(".git")).unwrap();
        std::os::unix::fs::symlink(class.join("alice"), class.join("alias")).unwrap();
        let found = discover(
            std::slice::from_ref(&class),
            &["one_d_chess.py"],
            Some(&class.join("results")),
            false,
        )
        .unwrap();
        let ids: Vec<&str> = found.submissions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            ["alice", "bob smith", "carol", "john.doe", "john.smith"]
        );
        let skipped: Vec<(String, &str)> = found
            .skipped
            .iter()
            .map(|s| {
                let name = Path::new(&s.path).file_name().unwrap();
                (name.to_string_lossy().to_string(), s.why.as_str())
            })
            .collect();
        let names: Vec<&str> = skipped.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [".git", "_template", "alias", "notes.txt", "results"]
        );
        assert!(skipped[2].1.contains("symbolic link"), "{skipped:?}");
        assert!(skipped[4].1.contains("--out"), "{skipped:?}");
    }

    #[test]
    fn the_same_student_twice_gets_distinct_names() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path();
        std::fs::create_dir_all(class.join("alice")).unwrap();
        std::fs::write(class.join("alice/one_d_chess.py"), "").unwrap();
        std::fs::write(class.join("alice.py"), "").unwrap();
        let found = discover(
            &[
                class.join("alice"),
                class.join("alice/one_d_chess.py"),
                class.join("alice.py"),
            ],
            &["one_d_chess.py"],
            None,
            false,
        )
        .unwrap();
        let ids: Vec<&str> = found.submissions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alice", "one_d_chess.py", "alice.py"]);
    }

    #[test]
    fn each_one_keeps_an_upload_without_an_entry_file_one_submission() {
        let dir = tempfile::tempdir().unwrap();
        let upload = dir.path().join("submission");
        std::fs::create_dir(&upload).unwrap();
        std::fs::write(
            upload.join("My Solution (2).py"),
            "def create_board(): pass\n",
        )
        .unwrap();
        std::fs::write(upload.join("test_mine.py"), "def test_x(): pass\n").unwrap();
        let entries = ["one_d_chess.py"];
        let as_class = discover(std::slice::from_ref(&upload), &entries, None, false).unwrap();
        assert_eq!(
            as_class.submissions.len(),
            2,
            "without each_one it is a class"
        );
        let whole = discover(std::slice::from_ref(&upload), &entries, None, true).unwrap();
        assert_eq!(whole.submissions.len(), 1);
        assert_eq!(whole.submissions[0].id, "submission");
    }

    #[test]
    fn an_entry_file_keeps_a_folder_one_submission() {
        let dir = tempfile::tempdir().unwrap();
        let alice = dir.path().join("alice");
        std::fs::create_dir_all(&alice).unwrap();
        std::fs::write(alice.join("my chess.py"), "").unwrap();
        std::fs::write(alice.join("test_chess.py"), "").unwrap();
        let found = discover(std::slice::from_ref(&alice), &["my chess.py"], None, false).unwrap();
        assert_eq!(found.submissions.len(), 1);
        assert_eq!(found.submissions[0].id, "alice");
    }
}
