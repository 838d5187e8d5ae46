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
    /// A dialect of no game.
    #[error("unknown dialect {name:?}; expected one of {known}")]
    AnyDialect { name: String, known: String },
    /// A built-in dialect to start a variant from that the game does not have.
    #[error("{game} has no built-in dialect {dialect:?} (see `boardgrade games`)")]
    NotInGame { game: &'static str, dialect: String },
    /// A built-in dialect to start a variant from that no game has.
    #[error("no built-in dialect {name:?}; give GAME/DIALECT (see `boardgrade games`)")]
    NoBuiltIn { name: String },
    /// A built-in dialect name that several games have.
    #[error("{name:?} is a dialect of several games; give GAME/DIALECT")]
    Ambiguous { name: String },
    /// A dialect to start a variant from that has nothing a variant can change.
    #[error("{game}/{dialect} has nothing a variant can change")]
    NothingToVary {
        game: &'static str,
        dialect: &'static str,
    },
    #[error("unknown dialect {name:?} of {game}; expected one of {known}")]
    Dialect {
        name: String,
        game: &'static str,
        known: String,
    },
}

/// A command-line value that cannot be used, or one that is missing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// `flag value`: what is wrong with it.
    #[error("{flag} {value:?}: {problem}")]
    Value {
        flag: &'static str,
        value: String,
        problem: String,
    },
    /// Something the command needs and was not given.
    #[error("give {what}")]
    Missing { what: &'static str },
    /// A report `test` does not write.
    #[error("`test` writes json and junit reports; {} is a report of `grade`", path.display())]
    NotATestReport { path: PathBuf },
}

impl FlagError {
    /// `value` of `flag`, and why it cannot be used.
    pub fn value(flag: &'static str, value: impl ToString, problem: impl Into<String>) -> Self {
        FlagError::Value {
            flag,
            value: value.to_string(),
            problem: problem.into(),
        }
    }
}

/// A class that cannot be graded or joined as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClassError {
    /// A platform's results (one submission's) asked of a class.
    #[error(
        "a platform's results are one submission's, and {found} were found: use \
         --format gradescope or --format prairielearn for a class"
    )]
    OneSubmissionOnly { found: usize },
    /// Nothing in the specs and filters to grade or test with.
    #[error("no scenarios match the given {given} and filters")]
    NoScenarios { given: &'static str },
    /// Scenario files given that did not load, and no valid scenario left beside them:
    /// nothing to run, and no dialect to route a submission to.
    #[error(
        "no valid scenario remains to run: {invalid} scenario file(s) did not load (each named \
         in the report with its line, column and key){}",
        if *.filtered { ", and none of the others is selected" } else { "" }
    )]
    NoValidScenario { invalid: usize, filtered: bool },
    /// Scenario files of the specs graded with that do not load (more than one; one is an
    /// [`Error::Scenario`]): grading against part of the specs would be unfair.
    #[error(
        "{} scenario files do not load, and grading against part of the specs would be \
         unfair:{}",
        .0.len(),
        .0.iter().map(|e| format!("\n    {e}")).collect::<String>()
    )]
    InvalidSpecs(Vec<ScenarioFileError>),
    /// A Python submission tested against scenarios of several dialects that its code does
    /// not choose between.
    #[error(
        "{why}; the scenarios cover several dialects ({}): choose one with --game and --dialect",
        .dialects.join(", ")
    )]
    SeveralDialects { why: String, dialects: Vec<String> },
    /// A variant a specs file enables that none of the specs graded holds.
    #[error(
        "{file}: key `{key}`: no variant {name:?} among the specs graded (they hold {})",
        held(.graded)
    )]
    VariantNotGraded {
        file: String,
        key: &'static str,
        name: String,
        graded: Vec<String>,
    },
    /// Partitioned runs that split the class differently.
    #[error("the runs split the class into different numbers of shares")]
    SharesDiffer,
    /// Partitioned runs graded against different scenarios.
    #[error(
        "{first} and {other} were graded against different scenarios ({}): grade every share \
         against the same specs",
        files.join(", ")
    )]
    ScenariosDiffer {
        first: String,
        other: String,
        files: Vec<String>,
    },
    /// Partitioned runs short of some shares.
    #[error("missing share(s) {}", .missing.join(", "))]
    MissingShares { missing: Vec<String> },
    /// The grader could not read a submission's files (its probe failed): not the
    /// submission's fault.
    #[error("the grader could not read the submission: {why}")]
    GraderFailed { why: String },
    /// The probe that reads what submissions define did not answer.
    #[error("the Python probe that reads what submissions define failed ({why}): {stderr}")]
    Probe { why: String, stderr: String },
}

fn held(names: &[String]) -> String {
    match names {
        [] => "none".to_string(),
        names => names.join(", "),
    }
}

/// A scenario, recording or fuzzing run the authoring commands cannot make.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthorError {
    /// A variant file given as the dialect of another game.
    #[error("{path} is a variant of {variant_of}, not of {game}")]
    OtherGame {
        path: String,
        variant_of: &'static str,
        game: &'static str,
    },
    /// The reference refuses the game's options.
    #[error("option `{key}`: {message}")]
    Option { key: String, message: String },
    /// Lines the reference made that do not make a valid scenario.
    #[error("{what} is invalid: {why}")]
    Invalid { what: String, why: String },
    /// A call protocol's scenario with no line.
    #[error("nothing was recorded: a scenario of a call protocol needs at least one line")]
    NothingRecorded,
    /// The program under test cannot be run at all, so no game can tell anything.
    #[error("the target could not be run: {detail}")]
    TargetUnusable { detail: String },
    /// A new variant file that would not load.
    #[error("the new variant would not load: {}", .0.message)]
    NewVariant(ScenarioFileError),
}

/// A package that cannot be built as asked.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A variant whose base scenarios the package would leave out.
    #[error(
        "{variant} inherits the scenarios of {from}, which the package would not hold: give \
         --specs the folder that holds both (specs/GAME)"
    )]
    BaseLeftOut { variant: String, from: String },
    /// A name that would place a file outside the folder it belongs in.
    #[error(
        "--question {name:?} is not a folder name: give one name without `/`, `.` or `..` \
         (the question is written under OUT/questions/)"
    )]
    NotAFolderName { name: String },
    #[error("cannot write {}: {source}", path.display())]
    Zip {
        path: PathBuf,
        #[source]
        source: zip::result::ZipError,
    },
}

/// What keeps student programs from being run at all on this machine: the interpreter, the
/// sandbox's users.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(
        "student programs run as an unprivileged user, who cannot run the Python at {} ({} is \
         not open to other users); name one they can run with --python-bin or \
         BOARDGRADE_PYTHON (e.g. /usr/bin/python3)",
        python.display(),
        closed.display()
    )]
    PythonUnreachable { python: PathBuf, closed: PathBuf },
    #[error("{} is Python {version}; boardgrade needs Python 3.8 or later", python.display())]
    PythonTooOld { python: PathBuf, version: String },
    #[error(
        "cannot run Python ({why}); install python3 or name it with --python-bin or \
         BOARDGRADE_PYTHON"
    )]
    PythonNotStarted { why: String },
    #[error(
        "the Python at {} does not start inside the sandbox ({sandbox}): {why}; name one that \
         does with --python-bin or BOARDGRADE_PYTHON, or choose another --sandbox",
        python.display()
    )]
    PythonInSandbox {
        python: PathBuf,
        sandbox: &'static str,
        why: String,
    },
    #[error("{} did not answer as a Python 3 interpreter: {stderr}", python.display())]
    NotPython { python: PathBuf, stderr: String },
    #[error("all {size} student user ids from {first} are in use by other graders")]
    NoStudentIds { first: u32, size: u32 },
    /// The root-only folder of student user leases cannot be made or trusted (why).
    #[error("{0}")]
    LeaseFolder(String),
    /// A Python submission's target without an interpreter, or the reference asked for a
    /// process: a mistake of the caller, not of the user.
    #[error("{0}")]
    Misuse(&'static str),
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
    #[error(transparent)]
    Flag(#[from] FlagError),
    #[error(transparent)]
    Class(#[from] ClassError),
    #[error(transparent)]
    Author(#[from] AuthorError),
    #[error(transparent)]
    Package(#[from] PackageError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A file of another format than the scenario file's that does not parse (a perft
    /// suite), with the line at fault in `message`.
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    /// A document that cannot be encoded as JSON.
    #[error("cannot encode {what}: {source}")]
    Encode {
        what: String,
        #[source]
        source: serde_json::Error,
    },
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

    pub fn encode(what: impl Into<String>, source: serde_json::Error) -> Self {
        Error::Encode {
            what: what.into(),
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
