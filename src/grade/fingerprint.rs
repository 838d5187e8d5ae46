//! Content hashes that key stored results: a stored result is reused only for the same
//! submission files graded against the same scenarios.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::scenario::Scenario;

fn hex(digest: impl AsRef<[u8]>) -> String {
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 over a submission's files: each regular file's path inside the submission and
/// its bytes, in name order (links are not part of a submission and are left out). A file
/// that cannot be read makes a hash no stored result has.
pub fn submission(path: &Path) -> String {
    let mut hash = Sha256::new();
    for entry in walkdir::WalkDir::new(path)
        .follow_links(false)
        .sort_by_file_name()
    {
        let Ok(entry) = entry else {
            hash.update(b"\0unreadable");
            continue;
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(path).unwrap_or(entry.path());
        hash.update(relative.to_string_lossy().as_bytes());
        hash.update([0]);
        // Streamed through the hash, its length after it: a large file is never held whole.
        let copied = std::fs::File::open(entry.path())
            .and_then(|mut file| std::io::copy(&mut file, &mut hash));
        match copied {
            Ok(length) => hash.update(length.to_le_bytes()),
            Err(_) => hash.update(b"\0unreadable"),
        }
    }
    hex(hash.finalize())
}

/// The hash of a submission too large to read ([`super::extent`]): what it was refused for.
/// Stored results of it are reused only while it is refused for the same reason.
pub fn oversize(why: &super::extent::Oversize) -> String {
    let mut hash = Sha256::new();
    hash.update(b"\0oversize\0");
    hash.update(why.to_string().as_bytes());
    hex(hash.finalize())
}

/// SHA-256 of one scenario as loaded (every field, its dialect's adapter included) and of
/// the boardgrade version whose reference engines derive its expectations.
pub fn scenario(scenario: &Scenario) -> String {
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION").as_bytes());
    hash.update(format!("{scenario:?}").as_bytes());
    hex(hash.finalize())
}

/// Each scenario file of `scenarios` and the hash of its scenarios (in order): what
/// `merge` compares between the shares of a class.
pub fn scenario_files(scenarios: &[Scenario]) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, Sha256> = BTreeMap::new();
    for s in scenarios {
        files
            .entry(s.file.clone())
            .or_default()
            .update(self::scenario(s).as_bytes());
    }
    files
        .into_iter()
        .map(|(file, hash)| (file, hex(hash.finalize())))
        .collect()
}

/// A short hash of a text, for file names.
pub fn short(text: &str) -> String {
    hex(Sha256::digest(text.as_bytes()))[..12].to_string()
}
