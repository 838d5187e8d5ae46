//! The part of an output that differs, so one mistake made in many scenarios (an upper-case
//! letter in every move string) is recognised as one, and shown by what differs rather than
//! by lines that look the same.

use serde::Serialize;

/// The first place where expected and actual output differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Difference {
    /// The first differing line, expected and actual (`None`: no such line).
    pub expected_line: Option<String>,
    pub actual_line: Option<String>,
    /// Within those lines, the words that differ (whole words, for reading), as written: a
    /// report quotes them once. The whole line where no word differs (a space, a quote), and
    /// [`NO_LINE`] where the output has no such line.
    pub expected: String,
    pub actual: String,
    /// What identifies the mistake across scenarios.
    #[serde(skip)]
    pub key: MistakeKey,
}

/// What identifies one mistake wherever it shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MistakeKey {
    /// The characters that differ, or only the direction of a change of letter case (`n` for
    /// `N` and `b` for `B` are one mistake): the same mistake in any scenario.
    Values(String, String),
    /// A value where none was expected, or none where one was, with only the value's shape
    /// kept (letters, digits and the signs between them). The value follows the position (a
    /// pawn that takes nothing answers `f7xg6` in one game and `c7xb6` in another), so one bug
    /// has many values; its shape alone cannot tell two bugs apart, so it makes one mistake
    /// only where the same submissions show it.
    Shape(String, String),
}

/// What a [`Difference`] shows for a line the output does not have.
pub const NO_LINE: &str = "(no line)";

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offsets of the changed middle of `a` and `b`: after their common prefix, before
/// their common suffix (in characters).
fn changed_middle(a: &str, b: &str) -> ((usize, usize), (usize, usize)) {
    let prefix: usize = a
        .chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a_rest, b_rest) = (&a[prefix..], &b[prefix..]);
    let suffix: usize = a_rest
        .chars()
        .rev()
        .zip(b_rest.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    ((prefix, a.len() - suffix), (prefix, b.len() - suffix))
}

/// Widens `range` of `text` to whole words.
fn widen(text: &str, (start, end): (usize, usize)) -> &str {
    let start = text[..start]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(start, |(i, _)| i);
    let end = end
        + text[end..]
            .char_indices()
            .take_while(|(_, c)| is_word(*c))
            .last()
            .map_or(0, |(i, c)| i + c.len_utf8());
    &text[start..end]
}

/// What identifies a difference: see [`MistakeKey`].
fn key(expected: &str, actual: &str) -> MistakeKey {
    if expected != actual && expected.to_lowercase() == actual.to_lowercase() {
        let upper = actual.chars().any(char::is_uppercase);
        let case = if upper { "upper case" } else { "lower case" };
        return MistakeKey::Values("letter case".to_string(), case.to_string());
    }
    if expected.is_empty() != actual.is_empty() {
        return MistakeKey::Shape(shape(expected), shape(actual));
    }
    MistakeKey::Values(expected.to_string(), actual.to_string())
}

/// `text` with each run of lower-case letters as `a`, of upper-case letters as `A` and of
/// digits as `9`: `f7xg6` and `c7xb6` are both `a9a9`, `0-0-0` is `9-9-9`.
fn shape(text: &str) -> String {
    let mut shape = String::new();
    for c in text.chars() {
        let class = match c {
            c if c.is_numeric() => '9',
            c if c.is_uppercase() => 'A',
            c if c.is_alphabetic() => 'a',
            c => c,
        };
        if !(shape.ends_with(class) && matches!(class, '9' | 'A' | 'a')) {
            shape.push(class);
        }
    }
    shape
}

/// Where `expected` and `actual` first differ; `None` when they do not.
pub fn first_difference(expected: &str, actual: &str) -> Option<Difference> {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    loop {
        match (e.next(), a.next()) {
            (None, None) => {
                // Same lines: only a final newline or trailing whitespace differs.
                return (expected != actual).then(|| Difference {
                    expected_line: None,
                    actual_line: None,
                    expected: expected.rsplit('\n').next().unwrap_or("").to_string(),
                    actual: actual.rsplit('\n').next().unwrap_or("").to_string(),
                    key: MistakeKey::Values(expected.to_string(), actual.to_string()),
                });
            }
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => {
                let (line_e, line_a) = (x.unwrap_or(""), y.unwrap_or(""));
                let (range_e, range_a) = changed_middle(line_e, line_a);
                let shown = |line: Option<&str>, range| match line {
                    None => NO_LINE.to_string(),
                    Some(text) if widen(text, range).is_empty() => text.to_string(),
                    Some(text) => widen(text, range).to_string(),
                };
                return Some(Difference {
                    expected: shown(x, range_e),
                    actual: shown(y, range_a),
                    key: key(&line_e[range_e.0..range_e.1], &line_a[range_a.0..range_a.1]),
                    expected_line: x.map(str::to_string),
                    actual_line: y.map(str::to_string),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_letter_is_one_mistake_across_moves() {
        let knight = first_difference("'ng1f3'\n", "'Ng1f3'\n").unwrap();
        let bishop = first_difference("'bf8c5'\n", "'Bf8c5'\n").unwrap();
        assert_eq!(knight.key, bishop.key);
        let lower = first_difference("'Ng1f3'\n", "'ng1f3'\n").unwrap();
        assert_ne!(knight.key, lower.key);
        assert_eq!(
            (knight.expected.as_str(), knight.actual.as_str()),
            ("ng1f3", "Ng1f3")
        );
    }

    #[test]
    fn the_first_differing_line_is_shown_not_the_first_line() {
        let board = "+---+\n| a | b |\n+---+\n";
        let other = "+---+\n| a | c |\n+---+\n";
        let d = first_difference(board, other).unwrap();
        assert_eq!(d.expected_line.as_deref(), Some("| a | b |"));
        assert_eq!((d.expected.as_str(), d.actual.as_str()), ("b", "c"));
        let short = first_difference("False\nWhite wins!\n", "False\n").unwrap();
        assert_eq!(short.actual, NO_LINE);
        assert_eq!(short.expected, "White wins!");
        let spaces = first_difference("| x |\n", "| x | \n").unwrap();
        assert_ne!(spaces.expected, spaces.actual, "{spaces:?}");
        // A value is kept as written, for a report to quote once.
        let refused = first_difference("''\n", "'Ng1f3'\n").unwrap();
        assert_eq!(
            (refused.expected.as_str(), refused.actual.as_str()),
            ("''", "Ng1f3")
        );
        assert!(first_difference("same\n", "same\n").is_none());
    }

    #[test]
    fn a_value_where_none_was_expected_is_known_by_its_shape() {
        let taken = |expected: &str, actual: &str| first_difference(expected, actual).unwrap();
        let (one, other) = (taken("''\n", "'f7xg6'\n"), taken("''\n", "'c7xb6'\n"));
        assert_eq!(one.key, other.key);
        assert_eq!(one.key, MistakeKey::Shape(String::new(), "a9a9".into()));
        // Shown as written all the same.
        assert_eq!(one.actual, "f7xg6");
        let refused = taken("'0-0-0'\n", "''\n");
        assert_eq!(
            refused.key,
            MistakeKey::Shape("9-9-9".into(), String::new())
        );
        // A missing line is a value missing.
        let short = taken("False\nWhite wins!\n", "False\n");
        assert_eq!(short.key, MistakeKey::Shape("Aa a!".into(), String::new()));
        // Two values: what differs is kept, not its shape.
        assert_eq!(
            taken("'e2e4'\n", "'e2e5'\n").key,
            MistakeKey::Values("4".into(), "5".into())
        );
    }
}
