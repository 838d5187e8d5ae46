//! The scenario loader on any text: a file that is not a scenario file is an error naming
//! the file and a line and column inside it, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

const FILE: &str = "fuzzed.toml";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(error) = boardgrade::scenario::load::parse_file(FILE, text) {
        assert_eq!(error.file, FILE);
        let lines = text.split('\n').count();
        assert!(
            (1..=lines).contains(&error.line),
            "line {} of {lines}: {error}",
            error.line
        );
        assert!(error.column >= 1, "column 0: {error}");
    }
});
