//! The Python files of a submission, read for a code check: the entry file (the one the
//! dialect, or `--entry`, names) and every other `.py` file of a submission folder. Only
//! regular files are read (a link could point anywhere on the grader's machine), each up to a
//! size, so a check never reads more than the submission itself.

use std::path::Path;

use serde::Serialize;

use crate::error::Error;

/// Largest file read; larger ones are not a student's source.
const MAX_FILE_BYTES: u64 = 2 << 20;
/// Most files read from one submission folder.
const MAX_FILES: usize = 500;

/// One file as the checker gets it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceFile {
    /// The path relative to the submission (the file's name for a single file).
    pub name: String,
    pub source: String,
    /// Whether it is the submission's entry file.
    pub entry: bool,
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
        return Ok(vec![SourceFile {
            name,
            source: text(path)?,
            entry: true,
        }]);
    }
    let mut files = Vec::new();
    let walk = walkdir::WalkDir::new(path)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for found in walk {
        let found = found.map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
        let relative = found.path().strip_prefix(path).unwrap_or(found.path());
        let name = relative.to_string_lossy().to_string();
        if !found.file_type().is_file() || !name.ends_with(".py") {
            continue;
        }
        if files.len() == MAX_FILES {
            break;
        }
        files.push(SourceFile {
            entry: false,
            source: text(found.path())?,
            name,
        });
    }
    // The entry file: the layout's path, or its end when the folder is inside the layout
    // (`logic/chess_logic.py` in `pychess/`); the shallowest when several fit.
    let fits = |name: &str| {
        name == entry_file
            || entry_file.ends_with(&format!("/{name}"))
            || name.ends_with(&format!("/{entry_file}"))
    };
    let entry = files
        .iter()
        .enumerate()
        .filter(|(_, f)| fits(&f.name))
        .min_by_key(|(_, f)| f.name.matches('/').count())
        .map(|(i, _)| i)
        .ok_or_else(|| Error::path(path, format!("no {entry_file} in this folder")))?;
    files[entry].entry = true;
    Ok(files)
}

/// A file's text: UTF-8 (a byte order mark dropped), a byte that does not decode replaced.
fn text(path: &Path) -> Result<String, Error> {
    use std::io::Read;
    let file = std::fs::File::open(path)
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(files[0].source, "x = 1\n");
        // The folder inside the layout.
        let inner = read(&dir.path().join("pychess"), "pychess/logic/chess_logic.py").unwrap();
        assert!(inner
            .iter()
            .any(|f| f.entry && f.name == "logic/chess_logic.py"));
        assert!(read(&logic, "main.py").is_err());
    }
}
