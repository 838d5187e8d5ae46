//! Text made safe inside XML, SVG and HTML, for every report written in them.

/// `text` with markup characters escaped; control characters that XML 1.0 cannot carry at
/// all are written as `\xNN`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(
            escape("<a href='x'>&\"\u{1}</a>\n"),
            "&lt;a href=&apos;x&apos;&gt;&amp;&quot;\\x01&lt;/a&gt;\n"
        );
    }
}
