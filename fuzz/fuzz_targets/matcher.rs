//! The output matcher on any expectation and output: it never panics, and an expectation
//! without wildcards matches, in exact mode, exactly the output equal to it (and that output
//! in either mode).
#![no_main]

use boardgrade::compare::{match_steps, prepare, CompareMode, StepPattern};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mode = if mode % 2 == 0 {
        CompareMode::Exact
    } else {
        CompareMode::TrailingWhitespace
    };
    // The expectation, its alternatives and the output, separated by NUL bytes.
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.split('\0');
    let expected = parts.next().unwrap_or_default();
    let actual = parts.next_back().unwrap_or_default();
    let others: Vec<&str> = parts.collect();
    let pattern = StepPattern::new(expected, &others);
    let prepared = prepare(actual.as_bytes(), mode);
    let matched = match_steps(std::slice::from_ref(&pattern), &prepared, mode);
    if others.is_empty() && !pattern.has_wildcards() {
        if mode == CompareMode::Exact {
            assert_eq!(
                matched.is_ok(),
                expected == actual,
                "{expected:?} against {actual:?}"
            );
        } else if expected == actual {
            assert!(
                matched.is_ok(),
                "{expected:?} against itself, trailing blanks ignored"
            );
        }
    }
});
