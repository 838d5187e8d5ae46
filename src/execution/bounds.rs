//! The least and the most each limit of a run may be set to, in one place for every flag and
//! scenario key that sets one. A limit so low that correct code cannot keep to it would charge
//! the grader's setting to every student (`--output-limit 0`: every scenario an
//! `output-limit`), so such a value is refused where it is given, naming the flag or key and
//! why, and never graded with. Only the memory limit can be turned off (0); the output cap
//! and the time limits are what keeps a submission from flooding or holding the grader, and
//! always hold.

use std::time::Duration;

/// The smallest output cap: a board or two, and the messages around them.
pub const LEAST_OUTPUT_BYTES: usize = 1 << 10;
/// The smallest memory limit, in MiB: below it the interpreter itself may not start.
pub const LEAST_MEMORY_MIB: u64 = 64;
/// The largest memory limit, in MiB (16 TiB): a byte count that cannot wrap around.
pub const MOST_MEMORY_MIB: u64 = 16 << 20;
/// The shortest time limit, import limit or time budget, in seconds: starting Python alone
/// can take a good part of a second on a loaded machine, and CPU time is limited in whole
/// seconds anyway.
pub const LEAST_SECONDS: f64 = 1.0;
/// The longest time limit of a scenario (or of one fuzzed game), in seconds.
pub const MOST_TIME_LIMIT_SECS: f64 = 3600.0;
/// The longest import limit or time budget, in seconds: far beyond any run, and within what
/// a [`Duration`] holds.
const MOST_SECONDS: f64 = 1e9;

/// A limit outside its bounds, and why it cannot be graded with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LimitError {
    #[error(
        "below {LEAST_OUTPUT_BYTES} bytes a correct program's own output would be cut and \
         charged to it as `output-limit`; give at least {LEAST_OUTPUT_BYTES} (the output cap \
         cannot be turned off)"
    )]
    OutputTooSmall,
    #[error(
        "below {LEAST_MEMORY_MIB} MiB the Python interpreter may not even start, and correct \
         programs would be charged for it; give at least {LEAST_MEMORY_MIB}, or 0 for no limit"
    )]
    MemoryTooSmall,
    #[error("at most {MOST_MEMORY_MIB} MiB (16 TiB), or 0 for no limit")]
    MemoryTooLarge,
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error(
        "below {LEAST_SECONDS} s, starting Python alone can use it up and correct code would \
         be charged for it; give seconds from {LEAST_SECONDS} to {most}"
    )]
    TooShort { most: f64 },
    #[error("seconds from {LEAST_SECONDS} to {most}")]
    TooLong { most: f64 },
}

/// An output cap in bytes.
pub fn output_bytes(bytes: usize) -> Result<usize, LimitError> {
    if bytes < LEAST_OUTPUT_BYTES {
        return Err(LimitError::OutputTooSmall);
    }
    Ok(bytes)
}

/// A memory limit in MiB, 0 for none.
pub fn memory_mib(mib: u64) -> Result<u64, LimitError> {
    match mib {
        0 => Ok(0),
        mib if mib < LEAST_MEMORY_MIB => Err(LimitError::MemoryTooSmall),
        mib if mib > MOST_MEMORY_MIB => Err(LimitError::MemoryTooLarge),
        mib => Ok(mib),
    }
}

/// A scenario's time limit (or one fuzzed game's), in seconds.
pub fn time_limit(seconds: f64) -> Result<Duration, LimitError> {
    within(seconds, MOST_TIME_LIMIT_SECS)
}

/// A time budget or an import limit, in seconds.
pub fn seconds(seconds: f64) -> Result<Duration, LimitError> {
    within(seconds, MOST_SECONDS)
}

fn within(seconds: f64, most: f64) -> Result<Duration, LimitError> {
    if seconds.is_nan() || seconds < LEAST_SECONDS {
        return Err(LimitError::TooShort { most });
    }
    if seconds > most {
        return Err(LimitError::TooLong { most });
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A number given as text (a flag's value), checked by `check`.
pub fn parse<T: std::str::FromStr + Copy, U>(
    text: &str,
    check: impl Fn(T) -> Result<U, LimitError>,
) -> Result<T, LimitError> {
    let value = text
        .parse::<T>()
        .map_err(|_| LimitError::NotANumber(text.to_string()))?;
    check(value).map(|_| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_refuses_what_correct_code_cannot_keep_to() {
        assert_eq!(output_bytes(0), Err(LimitError::OutputTooSmall));
        assert_eq!(output_bytes(1023), Err(LimitError::OutputTooSmall));
        assert_eq!(output_bytes(1024), Ok(1024));
        assert_eq!(memory_mib(0), Ok(0));
        assert_eq!(memory_mib(1), Err(LimitError::MemoryTooSmall));
        assert_eq!(memory_mib(64), Ok(64));
        assert_eq!(memory_mib(u64::MAX), Err(LimitError::MemoryTooLarge));
        for short in [0.0, 0.5, -1.0, f64::NAN] {
            assert!(matches!(
                time_limit(short),
                Err(LimitError::TooShort { .. })
            ));
            assert!(matches!(seconds(short), Err(LimitError::TooShort { .. })));
        }
        assert!(matches!(
            time_limit(3601.0),
            Err(LimitError::TooLong { .. })
        ));
        assert!(matches!(
            time_limit(f64::INFINITY),
            Err(LimitError::TooLong { .. })
        ));
        assert_eq!(seconds(540.0), Ok(Duration::from_secs(540)));
        assert_eq!(parse("2048", memory_mib), Ok(2048));
        assert!(matches!(
            parse::<u64, _>("lots", memory_mib),
            Err(LimitError::NotANumber(_))
        ));
    }
}
