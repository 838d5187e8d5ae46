//! The call protocols' framed responses: every command sent gets exactly one response, its
//! lines tagged by what they carry and ended by a line `.`, so output is always charged to
//! the command that produced it (see the call protocols' `PROTOCOL.md`).
//!
//! ```text
//! :TEXT       one line the call printed
//! =TEXT       one line of the return value
//! !error M    the call raised, or the command could not be carried out
//! !TAG TEXT   a finding about the call (`!changed-input BOARD`)
//! .           the end of the response
//! ```

/// The line that ends a response.
pub const END: &str = ".";
const PRINTED: char = ':';
const VALUE: char = '=';
const ERROR: &str = "error";

/// One command's response.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Response {
    /// What the call printed, each line ended by a newline.
    pub printed: String,
    /// The return value's lines, each ended by a newline; `None` when the command returns
    /// nothing.
    pub value: Option<String>,
    /// The error message of `!error`.
    pub error: Option<String>,
    /// Other `!TAG TEXT` lines, in order.
    pub tags: Vec<(String, String)>,
    /// Lines that carry no tag: a program that does not frame its responses.
    pub unframed: String,
    /// Whether the response's `.` arrived (false when the program stopped mid-response).
    pub complete: bool,
}

impl Response {
    /// The response as reports show it and as scenarios' `expect` is written: printed text,
    /// tag lines, then the return value or the `!error` line.
    pub fn text(&self) -> String {
        let mut text = self.unframed.clone();
        text.push_str(&self.printed);
        for (tag, rest) in &self.tags {
            text.push_str(&format!("!{tag} {rest}\n"));
        }
        match &self.error {
            Some(error) => text.push_str(&format!("!{ERROR} {error}\n")),
            None => text.push_str(self.value.as_deref().unwrap_or("")),
        }
        text
    }

    /// The response on the wire.
    pub fn encode(&self) -> String {
        let mut wire = String::new();
        let mut lines = |prefix: char, text: &str| {
            for line in text.lines() {
                wire.push(prefix);
                wire.push_str(line);
                wire.push('\n');
            }
        };
        lines(PRINTED, &self.unframed);
        lines(PRINTED, &self.printed);
        for (tag, rest) in &self.tags {
            wire.push_str(&format!("!{tag} {rest}\n"));
        }
        match &self.error {
            Some(error) => wire.push_str(&format!("!{ERROR} {error}\n")),
            None => {
                if let Some(value) = &self.value {
                    for line in value.strip_suffix('\n').unwrap_or(value).split('\n') {
                        wire.push(VALUE);
                        wire.push_str(line);
                        wire.push('\n');
                    }
                }
            }
        }
        wire.push_str(END);
        wire.push('\n');
        wire
    }

    /// A logical response text split the generic way: `!error` and `!TAG` lines are tags,
    /// everything else is the return value. Games whose commands also print say otherwise
    /// (see `Dialect::split_response`).
    pub fn from_text(text: &str) -> Response {
        let mut response = Response {
            complete: true,
            ..Response::default()
        };
        let mut value = String::new();
        for line in text.split_inclusive('\n') {
            let body = line.strip_suffix('\n').unwrap_or(line);
            match tag_line(body) {
                Some((tag, rest)) if tag == ERROR => response.error = Some(rest.to_string()),
                Some((tag, rest)) => response.tags.push((tag.to_string(), rest.to_string())),
                None => {
                    value.push_str(body);
                    value.push('\n');
                }
            }
        }
        if !value.is_empty() {
            response.value = Some(value);
        }
        response
    }
}

/// `!TAG REST` as (TAG, REST).
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('!')?;
    let (tag, text) = rest.split_once(' ').unwrap_or((rest, ""));
    (!tag.is_empty() && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then_some((tag, text))
}

/// A program's whole framed output, response by response.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Responses {
    pub responses: Vec<Response>,
    /// Whether some line carried no tag (the program does not frame its responses).
    pub unframed: bool,
}

/// Splits a program's stdout into its responses. The last one is incomplete when the output
/// stops before its `.`; an output that ends right after a `.` has no incomplete response.
pub fn decode(stdout: &[u8]) -> Responses {
    let text = String::from_utf8_lossy(stdout);
    let mut out = Responses::default();
    let mut current: Option<Response> = None;
    let mut value: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let response = current.get_or_insert_with(Response::default);
        if body == END {
            response.value = value.take();
            response.complete = true;
            out.responses.extend(current.take());
            continue;
        }
        if let Some(printed) = body.strip_prefix(PRINTED) {
            response.printed.push_str(printed);
            response.printed.push('\n');
        } else if let Some(line) = body.strip_prefix(VALUE) {
            let value = value.get_or_insert_with(String::new);
            value.push_str(line);
            value.push('\n');
        } else if let Some((tag, rest)) = tag_line(body) {
            if tag == ERROR {
                response.error = Some(rest.to_string());
            } else {
                response.tags.push((tag.to_string(), rest.to_string()));
            }
        } else {
            out.unframed = true;
            response.unframed.push_str(body);
            response.unframed.push('\n');
        }
    }
    if let Some(mut response) = current {
        response.value = value;
        out.responses.push(response);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_split_at_their_ends() {
        let wire = ":White wins!\n=True\n.\n.\n!error NameError: name 'move' is not defined\n.\n=['a',\n=  'b']\n.\n:half";
        let decoded = decode(wire.as_bytes());
        assert!(!decoded.unframed);
        let r = &decoded.responses;
        assert_eq!(r.len(), 5);
        assert_eq!(r[0].printed, "White wins!\n");
        assert_eq!(r[0].value.as_deref(), Some("True\n"));
        assert_eq!(r[0].text(), "White wins!\nTrue\n");
        assert_eq!(
            r[1],
            Response {
                complete: true,
                ..Response::default()
            }
        );
        assert_eq!(
            r[2].text(),
            "!error NameError: name 'move' is not defined\n"
        );
        assert_eq!(r[3].value.as_deref(), Some("['a',\n  'b']\n"));
        assert!(!r[4].complete);
        assert_eq!(r[4].printed, "half\n");
    }

    #[test]
    fn encoding_and_decoding_agree() {
        let response = Response {
            printed: "debug\n".into(),
            value: Some("+--+\n| x |\n+--+\n".into()),
            tags: vec![("changed-input".into(), "[[1]]".into())],
            complete: true,
            ..Response::default()
        };
        let wire = response.encode();
        assert_eq!(
            wire,
            ":debug\n!changed-input [[1]]\n=+--+\n=| x |\n=+--+\n.\n"
        );
        assert_eq!(decode(wire.as_bytes()).responses, vec![response]);
    }

    #[test]
    fn unframed_output_is_kept_and_flagged() {
        let decoded = decode(b"False\nTrue\n");
        assert!(decoded.unframed);
        assert_eq!(decoded.responses.len(), 1);
        assert_eq!(decoded.responses[0].text(), "False\nTrue\n");
        assert!(!decoded.responses[0].complete);
    }

    #[test]
    fn logical_texts_split_into_tags_and_value() {
        let r = Response::from_text("!changed-input [[0]]\n[[1]]\n");
        assert_eq!(r.tags, vec![("changed-input".into(), "[[0]]".into())]);
        assert_eq!(r.value.as_deref(), Some("[[1]]\n"));
        assert_eq!(r.text(), "!changed-input [[0]]\n[[1]]\n");
        let r = Response::from_text("!error ValueError: bad\n");
        assert_eq!(r.error.as_deref(), Some("ValueError: bad"));
        assert_eq!(Response::from_text("").value, None);
    }
}
