//! Files written whole or not at all: a reader (or a run after a crash) sees the old file
//! or the new one, never half of one.

use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path` (creating the folder if needed).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let failed = |e| Error::io(format!("cannot write {}", path.display()), e);
    std::fs::create_dir_all(dir).map_err(failed)?;
    let mut file = tempfile::Builder::new()
        .prefix(".boardgrade-")
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(failed)?;
    file.write_all(bytes).map_err(failed)?;
    file.as_file().sync_all().map_err(failed)?;
    file.persist(path).map_err(|e| failed(e.error))?;
    Ok(())
}
