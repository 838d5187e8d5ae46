//! The Python files of a submission, read for a code check: the entry file (the one the
//! dialect, or `--entry`, names) and every other `.py` file of a submission folder. Only
//! regular files are read (a link could point anywhere on the grader's machine), each up to a
//! size, so a check never reads more than the submission itself.
//!
//! A file goes to the checker as its exact bytes, each byte the character of its value
//! (U+0000 to U+00FF, which JSON carries unchanged), and the checker decodes them as Python
//! does when it runs the file (byte order mark, coding cookie, universal newlines): the text
//! judged is the text that would run, whatever encoding the file declares.
//!
//! Whatever the submission's tree holds, the only error is an entry file not found (as
//! running the submission would give). What is not read (a file over the size, a file past
//! the most read, a folder or file the walk cannot open) is marked `unread`, and every rule
//! that would read it gives a finding: the check is the student's `wrong`, never the grader's
//! `error`.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Error;

/// Largest file read; a larger one is not read (a part of a file could hide the rest).
const MAX_FILE_BYTES: u64 = 2 << 20;
/// Most files read from one submission folder, the entry file among them.
const MAX_FILES: usize = 500;
/// Most bytes read from one submission's files, the entry file's first: far more than any
/// handout's answer, and what the checker reads within its limits.
const MAX_TOTAL_BYTES: u64 = 8 << 20;

/// One file as the checker gets it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceFile {
    /// The path relative to the submission (the file's name for a single file).
    pub name: String,
    /// The file's bytes, each as the character of its value; empty when not read.
    pub source: String,
    /// Whether it is the submission's entry file.
    pub entry: bool,
    /// Why the file is not read, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}

impl SourceFile {
    /// The file at `path`, read, or marked with why it is not.
    fn at(path: &Path, name: String, entry: bool) -> Self {
        let (source, unread) = match bytes_as_chars(path) {
            Ok(source) => (source, None),
            Err(why) => (String::new(), Some(why)),
        };
        SourceFile {
            name,
            source,
            entry,
            unread,
        }
    }

    /// A record of what is not read.
    fn not_read(name: String, why: String) -> Self {
        SourceFile {
            name,
            source: String::new(),
            entry: false,
            unread: Some(why),
        }
    }
}

/// A `.py` file of a submission folder, or a part of the folder the walk could not open.
struct Found {
    path: PathBuf,
    name: String,
    unread: Option<String>,
}

/// The files of the submission at `path` whose entry file is `entry_file` (a path such as
/// `pychess/logic/chess_logic.py` for a layout in folders). An error when no entry file is
/// found, as running the submission would give.
pub fn read(path: &Path, entry_file: &str) -> Result<Vec<SourceFile>, Error> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
    if meta.is_file() {
        let name = path.file_name().map_or_else(
            || entry_file.to_string(),
            |n| n.to_string_lossy().to_string(),
        );
        return Ok(vec![SourceFile::at(path, name, true)]);
    }
    let found = python_files(path);
    let entry = entry_index(&found, entry_file)
        .ok_or_else(|| Error::path(path, format!("no {entry_file} in this folder")))?;
    Ok(read_found(found, entry))
}

/// Every `.py` file under `root` (hidden folders and files left out, links not followed),
/// by name, with a record for each part of the tree the walk could not open.
fn python_files(root: &Path) -> Vec<Found> {
    let walk = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    let relative = |path: &Path| {
        let name = path.strip_prefix(root).unwrap_or(path).to_string_lossy();
        if name.is_empty() {
            ".".to_string()
        } else {
            name.to_string()
        }
    };
    let mut found = Vec::new();
    for step in walk {
        match step {
            Ok(entry) => {
                let name = relative(entry.path());
                // `.PY` too: the grader runs such an entry file as Python does.
                let python =
                    (entry.path().extension()).is_some_and(|x| x.eq_ignore_ascii_case("py"));
                if entry.file_type().is_file() && python {
                    found.push(Found {
                        path: entry.into_path(),
                        name,
                        unread: None,
                    });
                }
            }
            // The submission's own tree (a path too long, a folder that cannot be opened):
            // what is in that part is not known, so it is marked, and the walk goes on.
            Err(error) => {
                let path = error.path().unwrap_or(root).to_path_buf();
                found.push(Found {
                    name: relative(&path),
                    path,
                    unread: Some(walk_failure(&error)),
                });
            }
        }
    }
    found
}

/// Why the walk could not go on at an error, without the grader's own paths.
fn walk_failure(error: &walkdir::Error) -> String {
    if error.loop_ancestor().is_some() {
        return "cannot be read: a link loop".into();
    }
    match error.io_error() {
        Some(io) => format!("cannot be read: {io}"),
        None => "cannot be read".into(),
    }
}

/// The entry file among `found`: the layout's path, or its end when the folder is inside the
/// layout (`logic/chess_logic.py` in `pychess/`); the shallowest when several fit.
fn entry_index(found: &[Found], entry_file: &str) -> Option<usize> {
    let fits = |name: &str| {
        name == entry_file
            || entry_file.ends_with(&format!("/{name}"))
            || name.ends_with(&format!("/{entry_file}"))
    };
    (found.iter().enumerate())
        .filter(|(_, f)| f.unread.is_none() && fits(&f.name))
        .min_by_key(|(_, f)| f.name.matches('/').count())
        .map(|(i, _)| i)
}

/// The files of `found` read, in order: the entry file always, the others up to the most
/// read in all; those past it are counted in one record.
fn read_found(found: Vec<Found>, entry: usize) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut others = 0;
    let mut left = 0;
    // The entry file's bytes come first in the budget, wherever it is in the walk.
    let size = |file: &Found| std::fs::metadata(&file.path).map_or(0, |m| m.len());
    let mut budget = MAX_TOTAL_BYTES.saturating_sub(found.get(entry).map_or(0, size));
    for (index, file) in found.into_iter().enumerate() {
        let is_entry = index == entry;
        if !is_entry && others == MAX_FILES - 1 {
            left += 1;
            continue;
        }
        others += usize::from(!is_entry);
        let over_budget = !is_entry && file.unread.is_none() && {
            let bytes = size(&file);
            let over = bytes > budget;
            budget = budget.saturating_sub(bytes);
            over
        };
        files.push(match file.unread {
            Some(why) => SourceFile::not_read(file.name, why),
            None if over_budget => SourceFile::not_read(
                file.name,
                format!(
                    "past the first {} MiB of .py files, which is all the checks read",
                    MAX_TOTAL_BYTES >> 20
                ),
            ),
            None => SourceFile::at(&file.path, file.name, is_entry),
        });
    }
    if left > 0 {
        files.push(SourceFile::not_read(
            format!("({left} more .py files)"),
            format!("past the first {MAX_FILES} .py files, which are all the checks read"),
        ));
    }
    files
}

/// A file's bytes, each as the character of its value, or why they are not read: a file
/// larger than [`MAX_FILE_BYTES`] is not read at all, as a part of it could hide the rest.
fn bytes_as_chars(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "larger than {} MiB: the checks read whole files only",
            MAX_FILE_BYTES >> 20
        ));
    }
    Ok(bytes.into_iter().map(char::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a source stands for.
    fn bytes(file: &SourceFile) -> Vec<u8> {
        file.source
            .chars()
            .map(|c| u8::try_from(c).unwrap())
            .collect()
    }

    #[test]
    fn a_folder_gives_every_python_file_and_marks_the_entry() {
        let dir = tempfile::tempdir().unwrap();
        let logic = dir.path().join("pychess/logic");
        std::fs::create_dir_all(&logic).unwrap();
        std::fs::write(logic.join("chess_logic.py"), "\u{feff}x = 1\n").unwrap();
        std::fs::write(logic.join("utils.py"), "y = 2\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not code").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("secret.py")).unwrap();
        let files = read(dir.path(), "pychess/logic/chess_logic.py").unwrap();
        let names: Vec<(&str, bool)> = files.iter().map(|f| (f.name.as_str(), f.entry)).collect();
        assert_eq!(
            names,
            [
                ("pychess/logic/chess_logic.py", true),
                ("pychess/logic/utils.py", false)
            ]
        );
        // The byte order mark is sent: the checker drops it, as Python does.
        assert_eq!(bytes(&files[0]), b"\xef\xbb\xbfx = 1\n");
        // The folder inside the layout.
        let inner = read(&dir.path().join("pychess"), "pychess/logic/chess_logic.py").unwrap();
        assert!(inner
            .iter()
            .any(|f| f.entry && f.name == "logic/chess_logic.py"));
        assert!(read(&logic, "main.py").is_err());
    }

    #[test]
    fn a_file_goes_to_the_checker_as_its_exact_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("main.py");
        // A coding cookie the checker decodes, a byte that is not UTF-8, a NUL, a CR LF.
        let raw = b"# -*- coding: unicode_escape -*-\n#\\nglobal x\r\n\xff\x00\xe9\n".to_vec();
        std::fs::write(&path, &raw).unwrap();
        let files = read(&path, "main.py").unwrap();
        let [file] = &files[..] else {
            panic!("one file: {files:?}");
        };
        assert_eq!(
            (file.name.as_str(), file.entry, &file.unread),
            ("main.py", true, &None)
        );
        let json = serde_json::to_string(file).unwrap();
        assert!(!json.contains("unread"), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        let sent: Vec<u8> = (back["source"].as_str().unwrap().chars())
            .map(|c| u8::try_from(c).unwrap())
            .collect();
        assert_eq!(sent, raw);
    }

    #[test]
    fn a_file_over_the_size_is_marked_not_read_never_cut() {
        let dir = tempfile::tempdir().unwrap();
        let cap = MAX_FILE_BYTES as usize;
        std::fs::write(dir.path().join("main.py"), vec![b'#'; cap]).unwrap();
        std::fs::write(dir.path().join("big.py"), vec![b'#'; cap + 1]).unwrap();
        let files = read(dir.path(), "main.py").unwrap();
        let big = &files[0];
        assert_eq!((big.name.as_str(), big.source.as_str()), ("big.py", ""));
        assert_eq!(
            big.unread.as_deref(),
            Some("larger than 2 MiB: the checks read whole files only")
        );
        assert_eq!((files[1].source.len(), &files[1].unread), (cap, &None));
        // The entry file over the size is read by no rule, each of which then finds it.
        let entry = read(&dir.path().join("big.py"), "main.py").unwrap();
        assert!(entry[0].entry && entry[0].unread.is_some());
    }

    #[test]
    fn the_entry_file_is_read_wherever_it_sorts_and_the_files_past_the_most_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..MAX_FILES + 20 {
            std::fs::write(dir.path().join(format!("a{i:04}.py")), "x = 1\n").unwrap();
        }
        std::fs::write(dir.path().join("zz_main.py"), "def main():\n    pass\n").unwrap();
        let files = read(dir.path(), "zz_main.py").unwrap();
        assert_eq!(files.len(), MAX_FILES + 1);
        let read_files = &files[..MAX_FILES];
        assert!(read_files.iter().all(|f| f.unread.is_none()));
        assert_eq!(read_files.iter().filter(|f| f.entry).count(), 1);
        let entry = &read_files[MAX_FILES - 1];
        assert_eq!((entry.name.as_str(), entry.entry), ("zz_main.py", true));
        let more = &files[MAX_FILES];
        assert_eq!(
            (more.name.as_str(), more.entry),
            ("(21 more .py files)", false)
        );
        assert!(more.unread.is_some());
    }

    #[test]
    fn a_tree_the_walk_cannot_open_is_marked_not_a_failure() {
        // A path longer than the system opens (PATH_MAX, 4096 on Linux), made by moving one
        // deep folder into another, each made where its path is short enough.
        let dir = tempfile::tempdir().unwrap();
        let part = "d".repeat(250);
        let deep = |top: &str| {
            let mut path = dir.path().join(top);
            for _ in 0..9 {
                path.push(&part);
            }
            std::fs::create_dir_all(&path).unwrap();
            path
        };
        let first = deep("one");
        deep("two");
        std::fs::rename(dir.path().join("two"), first.join("two")).unwrap();
        std::fs::write(dir.path().join("main.py"), "def main():\n    pass\n").unwrap();
        let files = read(dir.path(), "main.py").unwrap();
        assert!(files.iter().any(|f| f.entry && f.unread.is_none()));
        let marked: Vec<&SourceFile> = files.iter().filter(|f| f.unread.is_some()).collect();
        assert!(!marked.is_empty(), "{files:?}");
        assert!(marked
            .iter()
            .all(|f| !f.entry && f.name.starts_with("one/")));
    }
}
