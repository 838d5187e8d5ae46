//! A bounded, line-based diff of expected against actual output with invisible differences
//! made visible.

use similar::{ChangeTag, TextDiff};

use super::style::Style;
use crate::compare::visible::show_line;

/// Most diff lines shown.
const MAX_DIFF_LINES: usize = 40;

/// `- expected` / `+ actual` lines with two lines of context around each change.
pub fn render(expected: &str, actual: &str, style: Style, indent: &str) -> String {
    let diff = TextDiff::from_lines(expected, actual);
    let mut out = Vec::new();
    let mut shown = 0;
    let mut hidden = 0;
    for (group_index, group) in diff.grouped_ops(2).iter().enumerate() {
        if group_index > 0 {
            out.push(format!("{indent}  {}", style.dim("...")));
        }
        for op in group {
            for change in diff.iter_changes(op) {
                if shown >= MAX_DIFF_LINES {
                    hidden += 1;
                    continue;
                }
                shown += 1;
                let value = change.value();
                let body = value.strip_suffix('\n').unwrap_or(value);
                let mut line = show_line(body);
                if !value.ends_with('\n') {
                    line.push_str(" ⏎ (no newline at the end)");
                }
                out.push(match change.tag() {
                    ChangeTag::Delete => format!("{indent}{}", style.red(&format!("- {line}"))),
                    ChangeTag::Insert => format!("{indent}{}", style.green(&format!("+ {line}"))),
                    ChangeTag::Equal => format!("{indent}{}", style.dim(&format!("  {line}"))),
                });
            }
        }
    }
    if hidden > 0 {
        out.push(format!(
            "{indent}  {}",
            style.dim(&format!("[{hidden} more diff lines]"))
        ));
    }
    if out.is_empty() && expected != actual {
        out.push(format!(
            "{indent}(the outputs differ only in their line endings)"
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_space_and_missing_newline_are_visible() {
        let plain = Style { color: false };
        let out = render("| a |\nend\n", "| a | \nend", plain, "");
        assert!(out.contains("- | a |\n"), "{out}");
        assert!(out.contains("+ | a |·\n"), "{out}");
        assert!(out.contains("+ end ⏎ (no newline at the end)"), "{out}");
    }

    #[test]
    fn long_diffs_are_cut() {
        let expected: String = (0..100).map(|i| format!("{i}\n")).collect();
        let actual: String = (0..100).map(|i| format!("x{i}\n")).collect();
        let out = render(&expected, &actual, Style { color: false }, "");
        assert!(out.lines().count() <= 42);
        assert!(out.ends_with("[160 more diff lines]"), "{out}");
    }
}
