//! How much a submission holds, measured from its folder's entries before any of its files
//! is read. The grader hashes a submission (for `--resume`), compiles its Python files and
//! copies it into every job's jail: a submission past these bounds (a sparse file of a
//! terabyte, a million files, a path longer than the system opens once it sits in a jail)
//! would stall the whole class run or fail the grader's own copy, which would mark it not
//! graded (`error`) by its own choice. Past them it is the student's: it is not graded, it
//! scores 0, and the reason names what is too large.

use std::path::Path;

/// Most bytes a submission's files may hold together (their apparent size: a sparse file
/// counts at its length, as a copy would write it).
pub const MAX_BYTES: u64 = 1 << 30;
/// Most files and folders in a submission.
pub const MAX_ENTRIES: usize = 50_000;
/// Longest path inside a submission, in bytes. The system opens paths up to 4096 bytes; a
/// jail puts its own folders (about a hundred bytes) in front of the submission's.
pub const MAX_PATH_BYTES: usize = 2048;

/// Why a submission is too large to grade.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Oversize {
    #[error("the submission is too large to grade: its files hold more than 1 GiB ({file} alone holds {bytes} bytes)")]
    Bytes { file: String, bytes: u64 },
    #[error(
        "the submission is too large to grade: it holds more than {MAX_ENTRIES} files and folders"
    )]
    Entries,
    #[error("the submission is too deep to grade: a path inside it is longer than {MAX_PATH_BYTES} bytes ({path})")]
    Path { path: String },
}

/// Shown of a path too long to show whole.
const SHOWN_PATH_CHARS: usize = 80;

/// Whether the submission at `path` (a file or a folder) is within the bounds. Links are
/// not followed (they are not part of a submission), and the walk stops at the first bound
/// passed, so a submission of millions of files costs no more than the bound.
pub fn check(path: &Path) -> Result<(), Oversize> {
    let mut bytes = 0u64;
    for (count, entry) in walkdir::WalkDir::new(path)
        .follow_links(false)
        .into_iter()
        .enumerate()
    {
        if count > MAX_ENTRIES {
            return Err(Oversize::Entries);
        }
        let entry = match entry {
            Ok(entry) => entry,
            // A folder too deep to open is the submission's own making.
            Err(e) if too_long(&e) => {
                let at = e.path().unwrap_or(path);
                return Err(Oversize::Path {
                    path: shown(at.strip_prefix(path).unwrap_or(at)),
                });
            }
            // Anything else the walk cannot read, the copy leaves out as well.
            Err(_) => continue,
        };
        let relative = entry.path().strip_prefix(path).unwrap_or(entry.path());
        if relative.as_os_str().len() > MAX_PATH_BYTES {
            return Err(Oversize::Path {
                path: shown(relative),
            });
        }
        if entry.file_type().is_file() {
            let size = entry.metadata().map_or(0, |m| m.len());
            bytes = bytes.saturating_add(size);
            if bytes > MAX_BYTES {
                return Err(Oversize::Bytes {
                    file: shown(if relative.as_os_str().is_empty() {
                        entry.path()
                    } else {
                        relative
                    }),
                    bytes: size,
                });
            }
        }
    }
    Ok(())
}

fn too_long(error: &walkdir::Error) -> bool {
    let name_too_long = rustix::io::Errno::NAMETOOLONG.raw_os_error();
    (error.io_error()).is_some_and(|e| e.raw_os_error() == Some(name_too_long))
}

/// A path as a message shows it: its start and end when it is long.
fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= SHOWN_PATH_CHARS {
        return text.into_owned();
    }
    let half = SHOWN_PATH_CHARS / 2;
    let start: String = chars[..half].iter().collect();
    let end: String = chars[chars.len() - half..].iter().collect();
    format!("{start}...{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordinary_submission_is_within_bounds() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("helpers")).unwrap();
        std::fs::write(dir.path().join("chess.py"), "x = 1\n").unwrap();
        std::fs::write(dir.path().join("helpers/board.py"), "y = 2\n").unwrap();
        assert_eq!(check(dir.path()), Ok(()));
        assert_eq!(check(&dir.path().join("chess.py")), Ok(()));
    }

    #[test]
    fn a_sparse_file_counts_at_its_length_and_is_never_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("chess.py"), "x = 1\n").unwrap();
        let huge = std::fs::File::create(dir.path().join("data.bin")).unwrap();
        huge.set_len(1 << 40).unwrap();
        let error = check(dir.path()).unwrap_err();
        assert_eq!(
            error,
            Oversize::Bytes {
                file: "data.bin".into(),
                bytes: 1 << 40
            }
        );
        assert!(error.to_string().contains("more than 1 GiB"), "{error}");
        // A one-file submission that is itself too large names itself.
        let alone = check(&dir.path().join("data.bin")).unwrap_err();
        assert!(matches!(alone, Oversize::Bytes { .. }), "{alone}");
    }

    #[test]
    fn too_many_files_or_too_deep_a_path_is_past_the_bounds() {
        let many = tempfile::tempdir().unwrap();
        for i in 0..=MAX_ENTRIES {
            std::fs::File::create(many.path().join(i.to_string())).unwrap();
        }
        assert_eq!(check(many.path()), Err(Oversize::Entries));

        let deep = tempfile::tempdir().unwrap();
        let mut folder = deep.path().to_path_buf();
        for _ in 0..25 {
            folder.push("d".repeat(100));
        }
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("notes.txt"), "hi").unwrap();
        let error = check(deep.path()).unwrap_err();
        let Oversize::Path { path } = &error else {
            panic!("{error}");
        };
        // Shown by its start and end, never whole.
        assert!(path.len() < 100 && path.contains("..."), "{path}");
    }
}
