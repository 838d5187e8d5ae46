//! Lines a whole program prints that the game never prints: a debug print left in
//! (`checking 2 White`). Where a scenario notes them (`extra_lines = "noted"`), the game is
//! judged without them and they are noted, so that one stray print fails the scenario about
//! printing only, not every game the program plays. A line the game does print somewhere in
//! the scenario (a board line, a prompt) is never stray: a program that prints the board
//! twice still fails.

use std::collections::HashSet;

use crate::compare::reads::READ_MARK;
use crate::compare::visible;

/// Most stray lines quoted in the note.
const QUOTED: usize = 2;

/// The lines of `stdout` that no expected output holds (`expected`: the texts the scenario
/// expects, step by step), printed where `noted` says they are noted (given how many reads
/// came before them: 0 for the opening), and `stdout` without them. A line is what is
/// printed between two line ends or reads; a prompt's line, ended by a read, is never
/// stray. `None` when no line is stray.
pub(crate) fn without_stray(
    stdout: &[u8],
    expected: &[String],
    noted: impl Fn(usize) -> bool,
) -> Option<(Vec<String>, Vec<u8>)> {
    let known: HashSet<&str> = expected
        .iter()
        .flat_map(|text| text.lines())
        .map(str::trim_end)
        .collect();
    let mut stray = Vec::new();
    let mut kept = Vec::with_capacity(stdout.len());
    let mut reads = 0;
    for piece in pieces(stdout) {
        let is_line = piece.ends_with(b"\n");
        let text = String::from_utf8_lossy(piece);
        let text = text.trim_end();
        if is_line && !known.contains(text) && noted(reads) {
            stray.push(visible::lossless(text.as_bytes()));
        } else {
            kept.extend_from_slice(piece);
        }
        if piece.ends_with(READ_MARK) {
            reads += 1;
        }
    }
    (!stray.is_empty()).then_some((stray, kept))
}

/// `stdout` cut after each line end and each read mark.
pub(super) fn pieces(stdout: &[u8]) -> Vec<&[u8]> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < stdout.len() {
        if stdout[at] == b'\n' {
            at += 1;
            pieces.push(&stdout[start..at]);
            start = at;
        } else if stdout[at..].starts_with(READ_MARK) {
            at += READ_MARK.len();
            pieces.push(&stdout[start..at]);
            start = at;
        } else {
            at += 1;
        }
    }
    if start < stdout.len() {
        pieces.push(&stdout[start..]);
    }
    pieces
}

/// The note shown on a scenario that passed without its stray lines.
pub(crate) fn stray_note(stray: &[String]) -> String {
    let quoted: Vec<String> = stray
        .iter()
        .take(QUOTED)
        .map(|l| format!("`{}`", visible::show_line(l)))
        .collect();
    let more = stray.len().saturating_sub(QUOTED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "printed {} line(s) the game never prints: {}{more}; the scenario about printing \
         judges them, this one judges the game without them",
        stray.len(),
        quoted.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_no_expectation_holds_is_stray_a_known_line_or_a_prompt_is_not() {
        let expected = vec!["board\nprompt: ".to_string(), "board\n".to_string()];
        let stdout = b"board\nprompt: \0boardgrade:read\0checking 2\nboard\n";
        let (stray, rest) = without_stray(stdout, &expected, |_| true).unwrap();
        assert_eq!(stray, vec!["checking 2".to_string()]);
        assert_eq!(rest, b"board\nprompt: \0boardgrade:read\0board\n");
        // A board printed twice is no stray line: it is judged.
        let twice = b"board\nboard\nprompt: \0boardgrade:read\0";
        assert!(without_stray(twice, &expected, |_| true).is_none());
        // A prompt that differs ends at a read, not a line end: it is judged.
        let differs = b"board\nPrompt? \0boardgrade:read\0";
        assert!(without_stray(differs, &expected, |_| true).is_none());
    }

    #[test]
    fn only_the_lines_printed_where_strays_are_noted_are_left_out() {
        let expected = vec!["board\nprompt: ".to_string(), "board\n".to_string()];
        let stdout = b"debug 0\nboard\nprompt: \0boardgrade:read\0debug 1\nboard\n";
        // Noted after the first read only: the opening's stray line stays, to be judged.
        let (stray, rest) = without_stray(stdout, &expected, |reads| reads == 1).unwrap();
        assert_eq!(stray, vec!["debug 1".to_string()]);
        assert_eq!(rest, b"debug 0\nboard\nprompt: \0boardgrade:read\0board\n");
        let (stray, _) = without_stray(stdout, &expected, |reads| reads == 0).unwrap();
        assert_eq!(stray, vec!["debug 0".to_string()]);
        assert!(without_stray(stdout, &expected, |_| false).is_none());
    }
}
