//! The library's errors. The CLI is the one place that turns them into messages and exit
//! codes.

use std::fmt;
use std::path::PathBuf;

/// A scenario file that cannot be used, with the place and key at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioFileError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub key: Option<String>,
    pub message: String,
}

impl ScenarioFileError {
    /// An error at byte `offset` of `source`.
    pub fn at(file: &str, source: &str, offset: usize, key: Option<&str>, message: String) -> Self {
        let (line, column) = Self::line_col(source, offset);
        ScenarioFileError {
            file: file.to_string(),
            line,
            column,
            key: key.map(str::to_string),
            message,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(source.len());
        let before = source.get(..offset).unwrap_or(source);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }
}

impl fmt::Display for ScenarioFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(key) = &self.key {
            write!(f, "key `{key}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// A game or dialect name that names nothing, with the names that would have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("unknown game {name:?}; expected one of {known}")]
    Game { name: String, known: String },
    #[error("unknown dialect {name:?} of {game}; expected one of {known}")]
    Dialect {
        name: String,
        game: &'static str,
        known: String,
    },
}

/// Everything that can stop a boardgrade command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Scenario(#[from] ScenarioFileError),
    /// A game or dialect name that names nothing.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// A path given on the command line that cannot be read.
    #[error("{}: {message}", path.display())]
    Path { path: PathBuf, message: String },
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// A platform's results (one submission's) asked of a class.
    #[error(
        "a platform's results are one submission's, and {found} were found: use \
         --format gradescope or --format prairielearn for a class"
    )]
    OneSubmissionOnly { found: usize },
    /// Stopped by Ctrl-C or SIGTERM before the run finished.
    #[error("interrupted")]
    Interrupted,
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    pub fn path(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Path {
            path: path.into(),
            message: message.into(),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
