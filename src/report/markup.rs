//! Markup made readable as XML 1.0, for the reports written in SVG and HTML. The `maud`
//! templates escape the markup characters of everything they interpolate; what XML cannot
//! carry at all, escaped or not, is most C0 control characters, which a submission's name
//! or output may hold. They are written as `\xNN`, once over the finished markup: the
//! templates' own text holds none, so only interpolated text changes.

use maud::{Markup, PreEscaped};

/// `markup` with each control character that XML 1.0 forbids written as `\xNN`.
pub fn xml_safe(markup: Markup) -> Markup {
    let text = markup.into_string();
    if !text.chars().any(forbidden) {
        return PreEscaped(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if forbidden(c) {
            out.push_str(&format!("\\x{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    PreEscaped(out)
}

/// A character XML 1.0 cannot carry: C0 controls other than tab, newline and return.
fn forbidden(c: char) -> bool {
    (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t')
}

#[cfg(test)]
mod tests {
    use super::*;
    use maud::html;

    #[test]
    fn interpolated_text_is_escaped_and_its_controls_made_visible() {
        let text = "<a href='x'>&\"\u{1}</a>\n";
        let markup = xml_safe(html! { p title=(text) { (text) } });
        assert_eq!(
            markup.into_string(),
            "<p title=\"&lt;a href='x'&gt;&amp;&quot;\\x01&lt;/a&gt;\n\">\
             &lt;a href='x'&gt;&amp;&quot;\\x01&lt;/a&gt;\n</p>"
        );
    }
}
