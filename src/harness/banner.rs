//! Lines a whole program prints before its opening (a title, a welcome line, a helper
//! module's print at import time). They are part of the opening, so the scenario about the
//! opening judges them; every other scenario judges the game played after them and only
//! notes them, so that one extra line at the start does not fail every scenario.

use crate::compare::reads::READ_MARK;
use crate::compare::visible;

/// Most banner lines quoted in the note.
const QUOTED: usize = 2;

/// The lines `stdout` prints before its opening beyond the `reference_opening`'s own, and
/// `stdout` without them. `None` when the program never asked for input (the opening cannot
/// be told from the rest) or printed no more opening lines than the reference.
pub(crate) fn without_banner(
    stdout: &[u8],
    reference_opening: &str,
) -> Option<(Vec<String>, Vec<u8>)> {
    let opening_end = stdout
        .windows(READ_MARK.len())
        .position(|w| w == READ_MARK)?;
    let opening = &stdout[..opening_end];
    let expected_lines = reference_opening.split_inclusive('\n').count();
    let lines: Vec<&[u8]> = opening.split_inclusive(|&b| b == b'\n').collect();
    let extra = lines.len().checked_sub(expected_lines).filter(|&n| n > 0)?;
    let banner_bytes: usize = lines[..extra].iter().map(|l| l.len()).sum();
    let banner = lines[..extra]
        .iter()
        .map(|l| {
            visible::lossless(l)
                .trim_end_matches(['\n', '\r'])
                .to_string()
        })
        .collect();
    let mut rest = stdout[banner_bytes..].to_vec();
    rest.shrink_to_fit();
    Some((banner, rest))
}

/// The note shown on a scenario that passed over the banner.
pub(crate) fn banner_note(banner: &[String]) -> String {
    let quoted: Vec<String> = banner
        .iter()
        .take(QUOTED)
        .map(|l| format!("`{}`", visible::show_line(l)))
        .collect();
    let more = banner.len().saturating_sub(QUOTED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(
        "printed {} line(s) before the opening: {}{more}; the scenario about the opening \
         judges them, this one judges the game after them",
        banner.len(),
        quoted.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_lines_before_the_first_read_are_the_banner() {
        let stdout = b"Welcome!\nboard\nprompt: \0boardgrade:read\0moved\n";
        let (banner, rest) = without_banner(stdout, "board\nprompt: ").unwrap();
        assert_eq!(banner, vec!["Welcome!".to_string()]);
        assert_eq!(rest, b"board\nprompt: \0boardgrade:read\0moved\n");
        assert!(without_banner(b"board\nprompt: \0boardgrade:read\0", "board\nprompt: ").is_none());
        assert!(without_banner(b"Welcome!\nboard\nprompt: ", "board\nprompt: ").is_none());
    }
}
