//! The variants an author can name: those in a `specs/` folder, then the bundled ones of
//! other names. A local variant file that does not load is kept with its error; a bundled
//! one that a local file of the same name replaces is left out. And a new variant file,
//! started from a built-in dialect.

use std::path::{Path, PathBuf};

use crate::error::{AuthorError, Error, LookupError, ScenarioFileError};
use crate::games::variant::{self, Catalogue, Variant};
use crate::games::{self, Dialect, Game};

/// Every variant found under `local` (when it is a folder), then those bundled, each name of
/// a game once.
pub fn found(local: &Path) -> Vec<Result<&'static Variant, ScenarioFileError>> {
    let mut files: Vec<(String, String)> = Vec::new();
    if local.is_dir() {
        for entry in walkdir::WalkDir::new(local)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && e.file_name() == variant::FILE_NAME)
        {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                files.push((entry.path().display().to_string(), text));
            }
        }
    }
    let mut local = Catalogue::default();
    let mut found = Vec::new();
    let mut listed: Vec<(&str, &str)> = Vec::new();
    for (file, text) in &files {
        match local.read(file, text) {
            Ok(variant) => {
                let key = (variant.game.name(), variant.name);
                if !listed.contains(&key) {
                    listed.push(key);
                    found.push(Ok(variant));
                }
            }
            Err(error) => found.push(Err(error)),
        }
    }
    // The bundled ones a local file of the same name does not replace.
    for variant in Catalogue::bundled().variants() {
        if !listed.contains(&(variant.game.name(), variant.name)) {
            found.push(Ok(variant));
        }
    }
    found
}

/// A variant file written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub path: PathBuf,
    pub game: &'static str,
    /// The built-in dialect it starts from.
    pub base: &'static str,
    pub name: String,
}

/// The built-in dialect `GAME/DIALECT`, or `DIALECT` when one game alone has it.
fn base_dialect(base: &str) -> Result<(&'static dyn Game, &'static Dialect), Error> {
    if let Some((game, dialect)) = base.split_once('/') {
        let game = games::lookup(game)?;
        let found = game.dialects().iter().find(|d| d.name == dialect);
        return match found {
            Some(dialect) => Ok((game, dialect)),
            None => Err(LookupError::NotInGame {
                game: game.name(),
                dialect: dialect.to_string(),
            }
            .into()),
        };
    }
    let found: Vec<(&'static dyn Game, &'static Dialect)> = games::REGISTRY
        .iter()
        .flat_map(|g| g.dialects().iter().map(move |d| (*g, d)))
        .filter(|(_, d)| d.name == base)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(LookupError::NoBuiltIn {
            name: base.to_string(),
        }
        .into()),
        _ => Err(LookupError::Ambiguous {
            name: base.to_string(),
        }
        .into()),
    }
}

/// Writes a variant file of `base` (GAME/DIALECT, or a dialect name only one game has)
/// named `name` to `out` (default: specs/GAME/NAME/variant.toml): every key a variant may
/// change, with the base's value, commented. An existing file is never overwritten.
pub fn create(base: &str, name: &str, out: Option<&Path>) -> Result<Created, Error> {
    let (game, dialect) = base_dialect(base)?;
    let path = out.map_or_else(
        || {
            PathBuf::from("specs")
                .join(game.name())
                .join(name)
                .join(variant::FILE_NAME)
        },
        PathBuf::from,
    );
    // The base's scenarios beside the new file's folder, else those built in.
    let beside = path
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join(dialect.name));
    let from = match beside {
        Some(folder) if folder.is_dir() => format!("../{}", dialect.name),
        _ => variant::FROM_BUNDLED.to_string(),
    };
    let text = variant::template(game, dialect, name, &from)?;
    // The file must load as written: a name taken or ill-formed is refused here.
    variant::parse("(new variant)", &text).map_err(AuthorError::NewVariant)?;
    if path.exists() {
        return Err(Error::path(&path, "already exists; not overwritten"));
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| Error::io(format!("cannot create {}", folder.display()), e))?;
    }
    crate::atomic::write(&path, text.as_bytes())?;
    Ok(Created {
        path,
        game: game.name(),
        base: dialect.name,
        name: name.to_string(),
    })
}
