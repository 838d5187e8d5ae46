//! Spellings a grader accepts besides the reference's own, line by line.
//!
//! Seed 002 prints the move line both with and without a final `!`, and its move counter
//! writes `b:4` where the score line writes `b: 4`; the centring of the optional title line is
//! the program's own choice. So:
//! - a move line `w moves from B1 to B2` (alone or after the prompt it answers) may end in `!`;
//! - the move counter may write `b: 4`;
//! - a title line (score or counter) may omit the spaces that centring puts on its right.

use super::square::Square;

/// The other accepted spellings of one line of reference output (without its newline); empty
/// when the line must match exactly. The line itself is never among them.
pub fn lenient_alternatives(line: &str) -> Vec<String> {
    if is_move_line(strip_prompt(line)) {
        return vec![format!("{line}!")];
    }
    let exact = if let Some(spaced) = spaced_counter(line) {
        vec![spaced, line.to_string()]
    } else if is_score_text(line.trim()) {
        vec![line.to_string()]
    } else {
        return Vec::new();
    };
    let mut all = Vec::new();
    for spelling in exact {
        let trimmed = spelling.trim_end().to_string();
        all.push(spelling);
        all.push(trimmed);
    }
    all.retain(|candidate| candidate != line);
    all.dedup();
    all
}

/// The line without the `w move: ` / `b move: ` prompt it may start with: the player's typing
/// is not echoed, so the answer follows the prompt on the same line of captured stdout.
fn strip_prompt(line: &str) -> &str {
    ["w move: ", "b move: "]
        .iter()
        .find_map(|prompt| line.strip_prefix(prompt))
        .unwrap_or(line)
}

/// `w moves from B1 to B2` exactly (no `!`).
fn is_move_line(text: &str) -> bool {
    let Some((color, rest)) = text.split_once(" moves from ") else {
        return false;
    };
    let Some((from, to)) = rest.split_once(" to ") else {
        return false;
    };
    matches!(color, "w" | "b")
        && [from, to]
            .iter()
            .all(|name| Square::parse(name).is_some_and(|square| square.to_string() == *name))
}

/// `w: 8 b: 8` (the score line's text, without centring).
fn is_score_text(text: &str) -> bool {
    parse_counts(text, "w: ", " b: ").is_some()
}

/// The counter line with `b: 4` instead of the handout's `b:4`, same centring.
fn spaced_counter(line: &str) -> Option<String> {
    let text = line.trim();
    let rest = text.strip_prefix("Move #")?;
    let (number, counts) = rest.split_once(" -- ")?;
    if !is_number(number) {
        return None;
    }
    parse_counts(counts, "w: ", " b:")?;
    Some(line.replacen(" b:", " b: ", 1))
}

/// `{first}N{second}M` with plain decimal numbers N and M.
fn parse_counts(text: &str, first: &str, second: &str) -> Option<()> {
    let (w, b) = text.strip_prefix(first)?.split_once(second)?;
    (is_number(w) && is_number(b)).then_some(())
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_may_end_with_an_exclamation_mark() {
        assert_eq!(
            lenient_alternatives("w moves from B1 to B2"),
            ["w moves from B1 to B2!"]
        );
        assert_eq!(
            lenient_alternatives("b move: b moves from F8 to F7"),
            ["b move: b moves from F8 to F7!"]
        );
    }

    #[test]
    fn other_lines_must_match_exactly() {
        for line in [
            "INVALID MOVE",
            "w move: INVALID MOVE",
            "b powns a w",
            "w moves from B1 to B2!",
            "x moves from B1 to B2",
            "w moves from b1 to B2",
            "w moves from B1 to B2 to B3",
            "There are no more moves for w",
            "b has 3 pieces",
            "b wins!!",
            "GAME OVER",
            "     A   B   C   D   E   F   G   H  ",
            "1  | w | w | w | w | w | w | w | w |",
            "",
        ] {
            assert!(lenient_alternatives(line).is_empty(), "{line:?}");
        }
    }

    #[test]
    fn score_line_may_drop_its_right_padding() {
        let line = format!("{}w: 8 b: 8{}", " ".repeat(13), " ".repeat(14));
        assert_eq!(
            lenient_alternatives(&line),
            [format!("{}w: 8 b: 8", " ".repeat(13))]
        );
    }

    #[test]
    fn counter_line_may_space_the_black_count_and_drop_its_padding() {
        let line = "        Move #17 -- w: 5 b:4        ";
        assert_eq!(
            lenient_alternatives(line),
            [
                "        Move #17 -- w: 5 b: 4        ",
                "        Move #17 -- w: 5 b: 4",
                "        Move #17 -- w: 5 b:4",
            ]
        );
    }
}

/// The one spelling every accepted spelling of `line` is compared in: a move line without
/// its `!`, a counter with `b:4`, a score or counter line without its right padding. Other
/// lines are returned as they are.
pub fn canonical_line(line: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if let Some(bare) = line.strip_suffix('!') {
        if is_move_line(strip_prompt(bare)) {
            return Cow::Owned(bare.to_string());
        }
    }
    let text = line.trim();
    let counter = text
        .strip_prefix("Move #")
        .and_then(|rest| rest.split_once(" -- "))
        .filter(|(number, counts)| {
            is_number(number)
                && (parse_counts(counts, "w: ", " b:").is_some()
                    || parse_counts(counts, "w: ", " b: ").is_some())
        });
    if counter.is_some() {
        return Cow::Owned(line.trim_end().replacen(" b: ", " b:", 1));
    }
    if is_score_text(text) {
        return Cow::Owned(line.trim_end().to_string());
    }
    Cow::Borrowed(line)
}

#[cfg(test)]
mod canonical_tests {
    use super::*;

    #[test]
    fn every_accepted_spelling_has_the_same_canonical_form() {
        for line in [
            "w moves from B1 to B2",
            "b move: b moves from F8 to F7",
            "             w: 8 b: 8              ",
            "        Move #17 -- w: 5 b:4         ",
        ] {
            for alternative in lenient_alternatives(line) {
                assert_eq!(
                    canonical_line(&alternative),
                    canonical_line(line),
                    "{alternative:?}"
                );
            }
        }
        assert_eq!(canonical_line("INVALID MOVE!"), "INVALID MOVE!");
        assert_eq!(canonical_line("b wins!!"), "b wins!!");
    }
}
