//! Writing scenario files: the file-level keys an instructor fills in, then one
//! `[[scenario]]` per game with each step's expectation written out, in the layout of the
//! bundled specs (one inline table per step when every answer is one line, else a
//! `[[scenario.steps]]` table per step with multi-line strings).

use super::setup::{Invalid, Setup};
use crate::error::Error;
use crate::games::Protocol;
use crate::points::Points;
use crate::scenario::Visibility;

/// Longest one-line answer still written in an inline step table.
const INLINE_WIDTH: usize = 100;

/// The file-level keys: defaults for every scenario of the file.
#[derive(Debug, Clone)]
pub struct FileHead {
    /// Comment lines at the top of the file (without the `# `).
    pub comments: Vec<String>,
    /// The handout section the scenarios exercise.
    pub section: String,
    pub points: Points,
    pub visibility: Visibility,
    pub tags: Vec<String>,
}

/// One step as written: the line sent and the reference's answer (none: the step takes the
/// reference's answer when it runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenStep {
    pub send: String,
    pub expect: Option<String>,
    /// Other answers the reference accepts.
    pub accept: Vec<String>,
}

/// One scenario as written.
#[derive(Debug, Clone)]
pub struct ScenarioText {
    pub name: String,
    /// Comment lines above the scenario's table.
    pub comments: Vec<String>,
    /// The output before the first line (program protocols).
    pub opening: Option<String>,
    pub steps: Vec<WrittenStep>,
}

impl ScenarioText {
    /// A scenario that sends `lines`, expecting what the reference answers; an error when
    /// the lines are no valid scenario.
    pub fn from_reference(
        setup: &Setup,
        name: &str,
        lines: &[String],
    ) -> Result<Result<ScenarioText, Invalid>, Error> {
        let transcript = match setup.replay(lines)? {
            Ok(transcript) => transcript,
            Err(invalid) => return Ok(Err(invalid)),
        };
        let opening =
            (setup.dialect.protocol == Protocol::Program).then(|| transcript.opening.text.clone());
        let steps = lines
            .iter()
            .zip(transcript.replies)
            .map(|(send, reply)| WrittenStep {
                send: send.clone(),
                expect: Some(reply.text),
                accept: reply.also_accepted,
            })
            .collect();
        Ok(Ok(ScenarioText {
            name: name.to_string(),
            comments: Vec::new(),
            opening,
            steps,
        }))
    }

    /// The same scenario with the lines only: each step takes the reference's answer when
    /// it runs, so the file stays small and follows the reference.
    pub fn lines_only(mut self) -> ScenarioText {
        self.opening = None;
        for step in &mut self.steps {
            step.expect = None;
            step.accept.clear();
        }
        self
    }

    /// Whether every text fits an inline step table.
    fn is_compact(&self) -> bool {
        let short =
            |text: &str| text.len() <= INLINE_WIDTH && !text.trim_end_matches('\n').contains('\n');
        self.opening.as_deref().is_none_or(short)
            && self
                .steps
                .iter()
                .all(|s| s.expect.as_deref().is_none_or(short) && s.accept.iter().all(|a| short(a)))
    }
}

/// The text of a scenario file holding `scenarios`.
pub fn file_text(setup: &Setup, head: &FileHead, scenarios: &[ScenarioText]) -> String {
    let mut out = String::new();
    for comment in &head.comments {
        out.push_str(&comment_line(comment));
    }
    out.push_str(&format!(
        "game = {}\n",
        toml_string(setup.game.name(), false)
    ));
    out.push_str(&format!(
        "dialect = {}\n",
        toml_string(setup.dialect.name, false)
    ));
    out.push_str(&format!(
        "handout = {{ seed = {}, section = {} }}\n",
        toml_string(setup.dialect.handout, false),
        toml_string(&head.section, false)
    ));
    out.push_str(&format!("points = {}\n", head.points));
    out.push_str(&format!(
        "visibility = {}\n",
        toml_string(head.visibility.as_str(), false)
    ));
    if !head.tags.is_empty() {
        let tags: Vec<String> = head.tags.iter().map(|t| toml_string(t, false)).collect();
        out.push_str(&format!("tags = [{}]\n", tags.join(", ")));
    }
    if !setup.options.is_empty() {
        let options: Vec<String> = setup
            .options
            .iter()
            .map(|(key, value)| format!("{key} = {value}"))
            .collect();
        out.push_str(&format!("options = {{ {} }}\n", options.join(", ")));
    }
    for scenario in scenarios {
        out.push('\n');
        scenario_table(&mut out, scenario);
    }
    out
}

fn scenario_table(out: &mut String, scenario: &ScenarioText) {
    for comment in &scenario.comments {
        out.push_str(&comment_line(comment));
    }
    out.push_str("[[scenario]]\n");
    out.push_str(&format!("name = {}\n", toml_string(&scenario.name, false)));
    let compact = scenario.is_compact();
    if let Some(opening) = &scenario.opening {
        out.push_str(&format!("opening = {}\n", toml_string(opening, !compact)));
    }
    if compact {
        out.push_str("steps = [\n");
        for step in &scenario.steps {
            out.push_str(&format!("  {{ send = {}", toml_string(&step.send, false)));
            if let Some(expect) = &step.expect {
                out.push_str(&format!(", expect = {}", toml_string(expect, false)));
            }
            if !step.accept.is_empty() {
                out.push_str(&format!(", accept = {}", string_array(&step.accept, false)));
            }
            out.push_str(" },\n");
        }
        out.push_str("]\n");
    } else {
        for step in &scenario.steps {
            out.push_str("\n[[scenario.steps]]\n");
            out.push_str(&format!("send = {}\n", toml_string(&step.send, false)));
            if let Some(expect) = &step.expect {
                out.push_str(&format!("expect = {}\n", toml_string(expect, true)));
            }
            if !step.accept.is_empty() {
                out.push_str(&format!("accept = {}\n", string_array(&step.accept, true)));
            }
        }
    }
}

fn comment_line(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(if line.is_empty() { "#" } else { "# " });
        out.push_str(line);
        out.push('\n');
    }
    if text.is_empty() {
        out.push_str("#\n");
    }
    out
}

fn string_array(items: &[String], multiline: bool) -> String {
    let items: Vec<String> = items.iter().map(|a| toml_string(a, multiline)).collect();
    if multiline {
        format!("[\n{},\n]", items.join(",\n"))
    } else {
        format!("[{}]", items.join(", "))
    }
}

/// `text` as a TOML basic string. With `multiline`, text of several lines is written as a
/// `"""` string whose lines are the text's own lines, as the bundled specs write boards.
pub fn toml_string(text: &str, multiline: bool) -> String {
    let multiline = multiline && text.trim_end_matches('\n').contains('\n');
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(if multiline { "\"\"\"\n" } else { "\"" });
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' if multiline => out.push('\n'),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push_str(if multiline { "\"\"\"" } else { "\"" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_string(encoded: &str) -> String {
        let table: toml::Table = format!("v = {encoded}").parse().expect("valid TOML");
        table["v"].as_str().expect("a string").to_string()
    }

    #[test]
    fn strings_round_trip_through_toml() {
        for text in [
            "",
            "False\n",
            "a\nb",
            "\nleading newline\n",
            "quotes \"\"\" and \\ backslash",
            "tab\tand \r and \u{1}",
            "w move: ",
            "ends with a quote\"",
        ] {
            assert_eq!(parse_string(&toml_string(text, false)), text, "{text:?}");
            assert_eq!(parse_string(&toml_string(text, true)), text, "{text:?}");
        }
        assert!(toml_string("a\nb\n", true).starts_with("\"\"\"\na\nb\n"));
        assert_eq!(toml_string("False\n", true), "\"False\\n\"");
    }

    #[test]
    fn points_are_written_plainly() {
        assert_eq!(Points::whole(2).to_string(), "2");
        assert_eq!(Points::exact(0.125).unwrap().to_string(), "0.125");
    }
}
