//! Making invisible differences visible, and bounding what a report shows.

/// Most characters of one line shown in a report.
pub const MAX_LINE_CHARS: usize = 160;

/// Bytes as text: invalid UTF-8 shown as `\xNN`.
pub fn lossless(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// `text` with every character that would command a terminal instead of showing shown as
/// text: C0 controls but the newline and the tab as their symbols (`␛`, `␍`, `␇`), DEL as `␡`,
/// C1 controls (an 8-bit CSI) and the bidirectional overrides as `\u{9b}`. What a program
/// printed can then neither clear, retitle or redraw the instructor's terminal, nor hide or
/// reorder the report's own text.
pub fn show_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\0'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            '\u{7f}' => out.push('␡'),
            '\u{80}'..='\u{9f}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

/// A name (a student's, a member of a class folder, a file), or a one-line message that may
/// hold one (a note, a grader's error, why a file does not load), as one line:
/// [`show_controls`], and its newlines and tabs as symbols too, so no name can start a line
/// of its own in a report (`eve\nalice   33/33  all passed`).
pub fn show_one_line(name: &str) -> String {
    name.split('\n')
        .map(|part| show_controls(part).replace('\t', "␉"))
        .collect::<Vec<_>>()
        .join("␊")
}

/// One line with trailing blanks, tabs and carriage returns shown (`·`, `→`, `␍`), cut to
/// [`MAX_LINE_CHARS`].
pub fn show_line(line: &str) -> String {
    let body = line.trim_end_matches([' ', '\t', '\r']);
    let tail = &line[body.len()..];
    let mut out: String = show_controls(&body.replace('\t', "→"));
    for c in tail.chars() {
        out.push(match c {
            ' ' => '·',
            '\t' => '→',
            _ => '␍',
        });
    }
    cut_to_line(out)
}

/// `text` cut to [`MAX_LINE_CHARS`], saying how many characters were left off.
pub fn cut_to_line(text: String) -> String {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => format!(
            "{}… ({} more characters)",
            &text[..cut],
            text[cut..].chars().count()
        ),
        None => text,
    }
}

/// The first `max_lines` lines of `text` (whole lines), and how many were left out.
pub fn head_lines(text: &str, max_lines: usize) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.len() <= max_lines {
        return (text.to_string(), 0);
    }
    (lines[..max_lines].concat(), lines.len() - max_lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_become_visible() {
        assert_eq!(show_line("| BKi | "), "| BKi |·");
        assert_eq!(show_line("a\tb\t"), "a→b→");
        assert_eq!(lossless(b"ok \xff\xfe"), "ok \\xFF\\xFE");
        assert!(show_line(&"x".repeat(500)).ends_with("(340 more characters)"));
        assert_eq!(head_lines("a\nb\nc\n", 2), ("a\nb\n".to_string(), 1));
        assert_eq!(
            show_controls("\x1b[2J\ra\tb\n\u{9b}1m\u{202e}x\x7f"),
            "␛[2J␍a\tb\n\\u{9b}1m\\u{202e}x␡"
        );
        assert_eq!(show_line("x\ry\x1b"), "x␍y␛");
        assert_eq!(show_one_line("eve\nalice\t33/33\x1b"), "eve␊alice␉33/33␛");
    }
}
