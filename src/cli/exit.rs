//! Exit codes, and the one place a command's end (what it found, or the error that stopped
//! it) becomes one. The table is documented in the README's "Exit codes" and in `--help`.

use boardgrade::{cancel, Error};

/// Every scenario passed, or the command did its job (`grade`, `merge`: every submission
/// was graded, whatever the grades).
pub const SUCCESS: i32 = 0;
/// `test`: some scenario did not pass (`bless --check`: an expectation would change; `fuzz`: a
/// failure was found; `coverage`: a rule event is never reached; the Gradescope autograder
/// refused to grade).
pub const FAILED: i32 = 1;
/// Bad invocation, an invalid scenario file, or a file that cannot be read or written.
pub const INVALID: i32 = 2;
/// `grade`, `merge`: some submission could not be graded because the grader failed (a
/// harness or sandbox error, not the student's code); it is marked "not graded: needs a
/// re-run" and `--resume` grades it again. Every other submission was graded.
pub const NOT_GRADED: i32 = 3;
/// Stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it): whatever the run had
/// found so far, it did not finish.
pub const INTERRUPTED: i32 = 130;
/// The reader of stdout went away before the report was written (`| head`), as a program
/// killed by SIGPIPE reports it (128 + 13); files written to disk are complete.
pub const BROKEN_PIPE: i32 = 141;

/// The line `--help` ends with: the table above, in short.
pub const HELP: &str = "Exit codes: 0 all scenarios passed, or the command did its job \
(grade, merge: every submission graded, whatever the grades); 1 some scenario did not pass; \
2 bad invocation, an invalid scenario file or a file that cannot be read or written; 3 \
(grade, merge) a submission could not be graded because the grader failed: it needs a \
re-run; 130 interrupted (Ctrl-C, SIGTERM, SIGHUP); 141 stdout closed early (`| head`) after a run \
that passed.";

/// How a command that ran to its end ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything passed, or the command did its job.
    Passed,
    /// Something did not pass.
    Failed,
    /// Some submission could not be graded: the grader failed on it.
    NotGraded,
    /// Some input was invalid (a scenario file that does not load), though the command
    /// went on with the rest.
    Invalid,
    /// The report on stdout was cut short by its reader; the rest passed.
    OutputCut,
}

impl Status {
    /// `Passed` when `passed`, else `Failed`.
    pub fn from_passed(passed: bool) -> Status {
        if passed {
            Status::Passed
        } else {
            Status::Failed
        }
    }
}

/// The exit code of a command's end. A run stopped by Ctrl-C or SIGTERM is 130 whatever it
/// returned; a broken pipe is never success.
pub fn code(result: &Result<Status, Error>) -> i32 {
    if cancel::is_requested() {
        return INTERRUPTED;
    }
    match result {
        Ok(Status::Passed) => SUCCESS,
        Ok(Status::Failed) => FAILED,
        Ok(Status::Invalid) => INVALID,
        Ok(Status::NotGraded) => NOT_GRADED,
        Ok(Status::OutputCut) => BROKEN_PIPE,
        Err(error) if is_broken_pipe(error) => BROKEN_PIPE,
        Err(
            Error::Scenario(_)
            | Error::Lookup(_)
            | Error::Path { .. }
            | Error::Flag(_)
            | Error::Class(_)
            | Error::Author(_)
            | Error::Package(_)
            | Error::Setup(_)
            | Error::Parse { .. }
            | Error::Encode { .. }
            | Error::Io { .. },
        ) => INVALID,
        Err(Error::Interrupted) => INTERRUPTED,
    }
}

/// The message for an error, if it deserves one: a reader that went away (`| head`) does
/// not, nor an interruption (the command said what it kept).
pub fn message(error: &Error) -> Option<String> {
    let silent = is_broken_pipe(error) || matches!(error, Error::Interrupted);
    (!silent).then(|| format!("boardgrade: error: {error}"))
}

fn is_broken_pipe(error: &Error) -> bool {
    matches!(error, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}
