//! Dialect variants: a course's own version of a built-in dialect (renamed functions, other
//! tokens and messages, a function added or dropped), written as data in a variant file
//! (`variant.toml`) and answered by the game's reference engine without new code.
//!
//! A variant file names its game, the built-in dialect it derives from and its own name;
//! every other key is the game's to read ([`Derive::derive`]), and a key
//! that would need new rules is refused with its place in the file. A variant, once read,
//! is a dialect like any other: scenarios name it, grading routes submissions to it.
//!
//! The variants a run knows are a [`Catalogue`], built once (the bundled ones, then the
//! course's own files) and passed to what names dialects. One name means one variant: a
//! second file that defines the same name differently is an error, never a silent choice.

mod catalogue;
mod file;
mod template;

use std::any::Any;
use std::path::Path;

pub use catalogue::Catalogue;
pub use file::{key_offset, parse, VariantFile};
pub use template::template;

use crate::error::ScenarioFileError;
use crate::execution::PythonLaunch;
use crate::games::battery::Battery;
use crate::games::{Dialect, Game, GameOptions, OptionError, Origin, Session};

/// The name of a variant file: `specs/<game>/<variant>/variant.toml`, beside the variant's
/// own scenarios.
pub const FILE_NAME: &str = "variant.toml";

/// What a game lets a course change of its dialects, as data, and how its reference
/// answers the variant made.
pub trait Derive: Sync {
    /// Every key a variant of `dialect` may change, with the dialect's value, as commented
    /// TOML (what `boardgrade variant new` writes). `None`: the dialect has no variants.
    fn keys(&self, dialect: &Dialect) -> Option<String>;

    /// Reads the keys of a variant of `base` (its file without `game`, `base`, `name`,
    /// `handout`, `scenarios`). A key that is unknown, ill-typed, or asks for something the
    /// reference cannot answer is an error naming it (a dotted path: `functions.castle`).
    fn derive(&self, base: &'static Dialect, keys: &toml::Table) -> Result<Derived, OptionError>;

    /// Starts a reference session of a variant it derived.
    fn start_variant(
        &self,
        variant: &Dialect,
        options: &GameOptions,
    ) -> Result<Box<dyn Session>, OptionError>;
}

/// What a game makes of a variant's keys.
pub struct Derived {
    /// The file name a submission of the variant is expected to have.
    pub entry_file: String,
    /// The names a submission of the variant defines (routing tells variants apart by them).
    pub defines: Vec<String>,
    /// The Python adapter that serves the variant, its names and tokens given as data.
    pub adapter: Option<String>,
    /// The game's own reading of the keys, for its reference sessions.
    pub data: Box<dyn Any + Send + Sync>,
    /// The rule battery the variant plays, where its game gives it one (none by default: a
    /// variant may rename what a battery's lines call).
    pub battery: Option<&'static dyn Battery>,
}

/// A variant read from its file.
pub struct Variant {
    pub name: &'static str,
    pub game: &'static dyn Game,
    /// The file it was read from, as named in messages.
    pub file: String,
    /// The file's text: the same name read again is the same variant only if this matches.
    pub source: String,
    /// The base dialect's scenarios it runs too (see [`Inherit`]).
    pub inherit: Option<Inherit>,
    /// The variant as a dialect (its value carries the game's reading of the keys).
    pub dialect: &'static Dialect,
}

/// `scenarios.from` for the base dialect's scenarios bundled into the binary.
pub const FROM_BUNDLED: &str = "bundled";

/// The base dialect's scenarios a variant runs as its own: the scenario files in `from` (a
/// folder, relative to the variant file, or [`FROM_BUNDLED`]) whose dialect is the base,
/// except the files and scenarios named in `skip`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inherit {
    pub from: String,
    pub skip: Vec<String>,
}

impl Variant {
    /// The built-in dialect it derives from.
    pub fn base(&self) -> &'static Dialect {
        self.dialect.base()
    }
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Variant")
            .field("name", &self.name)
            .field("game", &self.game.name())
            .field("base", &self.base().name)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl Derived {
    /// A variant served by the Python `adapter` script of its base, given `interface` (the
    /// game's reading of the keys) as JSON data; `key` names the table a failure is about.
    pub fn served_by<T: serde::Serialize + Any + Send + Sync>(
        adapter: &str,
        interface: T,
        entry_file: String,
        defines: Vec<String>,
        key: &str,
    ) -> Result<Derived, OptionError> {
        let json = serde_json::to_string_pretty(&interface)
            .map_err(|e| OptionError::new(key, e.to_string()))?;
        Ok(Derived {
            entry_file,
            defines,
            adapter: Some(format!("{adapter}\nserve_interface({json})\n")),
            data: Box::new(interface),
            battery: None,
        })
    }

    /// The same, playing `battery`.
    pub fn with_battery(self, battery: &'static dyn Battery) -> Derived {
        Derived {
            battery: Some(battery),
            ..self
        }
    }
}

/// Whether `path` names a variant file.
pub fn is_file(path: &Path) -> bool {
    path.file_name().is_some_and(|name| name == FILE_NAME)
}

/// Every bundled variant file, as (name, text).
pub fn bundled() -> Vec<(String, String)> {
    crate::bundled::FILES
        .iter()
        .filter(|(name, _)| is_file(Path::new(name)))
        .map(|(name, text)| (format!("specs/{name}"), (*text).to_string()))
        .collect()
}

/// Reads the variant file `file` (its text `source`) into a variant. It lives as long as the
/// program, as every dialect does.
pub fn read(file: &str, source: &str) -> Result<&'static Variant, ScenarioFileError> {
    Ok(leaked(parse(file, source)?, file, source))
}

/// The variant `parsed` (read from `file`, its text `source`) defines, for the program's life.
fn leaked(parsed: VariantFile, file: &str, source: &str) -> &'static Variant {
    Box::leak(Box::new(build(parsed, file, source)))
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn build(parsed: VariantFile, file: &str, source: &str) -> Variant {
    let VariantFile {
        game,
        base,
        name,
        handout,
        inherit,
        derived,
        ..
    } = parsed;
    let name = leak(name);
    let python = match (derived.adapter, base.python) {
        (Some(script), base_launch) => PythonLaunch::Adapter {
            script: leak(script),
            call_limit: match base_launch {
                PythonLaunch::Adapter { call_limit, .. } => call_limit,
                PythonLaunch::Program { .. } => None,
            },
            stubs: base_launch.stubs(),
        },
        (None, base_launch) => base_launch,
    };
    let defines: Vec<&'static str> = derived.defines.into_iter().map(leak).collect();
    let data: &'static (dyn Any + Send + Sync) = Box::leak(derived.data);
    let dialect: &'static Dialect = Box::leak(Box::new(Dialect {
        name,
        protocol: base.protocol,
        handout: handout.map_or(base.handout, leak),
        asks_python3: base.asks_python3,
        entry_file: leak(derived.entry_file),
        defines: Box::leak(defines.into_boxed_slice()),
        python,
        // A variant starts through its game (`Derive::start_variant`, given this value).
        session: base.session,
        graded_with: base.graded_with,
        // It answers as its base does, its names and tokens aside.
        parts: base.parts,
        policy: base.policy,
        battery: derived.battery,
        origin: Origin::Variant { base, data },
    }));
    Variant {
        name,
        game,
        file: file.to_string(),
        source: source.to_string(),
        inherit,
        dialect,
    }
}
