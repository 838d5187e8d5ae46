//! Exit codes, documented in the README.

/// Every scenario passed (or the command did its job).
pub const SUCCESS: i32 = 0;
/// Some scenario did not pass.
pub const FAILED: i32 = 1;
/// Bad invocation or an invalid scenario file.
pub const INVALID: i32 = 2;
/// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;
/// The reader of stdout went away before the report was written (`| head`), as a program
/// killed by SIGPIPE reports it (128 + 13); files written to disk are complete.
pub const BROKEN_PIPE: i32 = 141;
