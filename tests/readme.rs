//! The README's console examples and every `--help`, run as snapshot tests, so the README
//! and the help cannot drift from what the binary prints. `[..]` in an expected line
//! matches any text (an interpreter's version, the sandbox), a line `...` any lines.
//! `TRYCMD=overwrite cargo test --test readme` rewrites the help snapshots after a change.

#[test]
fn readme_examples_and_help_are_what_the_binary_prints() {
    trycmd::TestCases::new()
        .default_bin_name("boardgrade")
        .env("NO_COLOR", "1")
        .case("README.md")
        .case("tests/cmd/*.toml");
}
