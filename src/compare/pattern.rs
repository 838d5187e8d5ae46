//! What a step expects: its text, where a line of only `...` matches any number of lines,
//! and other texts that are accepted too.

/// A piece of an expected text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Text(String),
    /// Any number of whole lines (written `...` on a line of its own).
    AnyLines,
}

/// The line that stands for any number of lines.
pub const ANY_LINES: &str = "...";

/// The expectation of one step: one or more accepted outputs, the first canonical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepPattern {
    alternatives: Vec<Vec<Segment>>,
}

fn segments(text: &str) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == ANY_LINES {
            out.push(Segment::AnyLines);
        } else if let Some(Segment::Text(previous)) = out.last_mut() {
            previous.push_str(line);
        } else {
            out.push(Segment::Text(line.to_string()));
        }
    }
    out
}

impl StepPattern {
    /// `primary`, then each of `others`, all accepted; `...` lines are wildcards.
    pub fn new<S: AsRef<str>>(primary: &str, others: &[S]) -> Self {
        let mut alternatives = vec![segments(primary)];
        for other in others {
            let parsed = segments(other.as_ref());
            if !alternatives.contains(&parsed) {
                alternatives.push(parsed);
            }
        }
        StepPattern { alternatives }
    }

    pub fn alternatives(&self) -> &[Vec<Segment>] {
        &self.alternatives
    }

    /// The first accepted output, as written.
    pub fn canonical(&self) -> String {
        render(&self.alternatives[0])
    }

    /// The same pattern with every line of its texts rewritten by `f`.
    pub fn map_lines(&self, f: &dyn Fn(&str) -> String) -> StepPattern {
        self.rewrite_texts(&|text| {
            text.split_inclusive('\n')
                .map(|line| match line.strip_suffix('\n') {
                    Some(body) => f(body) + "\n",
                    None => f(line),
                })
                .collect()
        })
    }

    /// The same pattern without the whole lines (ended by a newline) `drop` picks.
    pub fn without_lines(&self, drop: &dyn Fn(&str) -> bool) -> StepPattern {
        self.rewrite_texts(&|text| {
            text.split_inclusive('\n')
                .filter(|line| !line.strip_suffix('\n').is_some_and(drop))
                .collect()
        })
    }

    /// The same pattern with each of its texts rewritten by `f` (wildcards kept).
    fn rewrite_texts(&self, f: &dyn Fn(&str) -> String) -> StepPattern {
        StepPattern {
            alternatives: self
                .alternatives
                .iter()
                .map(|alt| {
                    alt.iter()
                        .map(|seg| match seg {
                            Segment::Text(t) => Segment::Text(f(t)),
                            Segment::AnyLines => Segment::AnyLines,
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// Whether any alternative has wildcards.
    pub fn has_wildcards(&self) -> bool {
        self.alternatives
            .iter()
            .flatten()
            .any(|s| *s == Segment::AnyLines)
    }
}

/// Segments back to text, wildcards as `...` lines.
pub fn render(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Text(t) => out.push_str(t),
            Segment::AnyLines => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(ANY_LINES);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_lines_split_the_text() {
        let p = StepPattern::new("a\n...\nb\n", &["c\n"]);
        assert_eq!(
            p.alternatives()[0],
            [
                Segment::Text("a\n".into()),
                Segment::AnyLines,
                Segment::Text("b\n".into())
            ]
        );
        assert_eq!(p.alternatives().len(), 2);
        assert_eq!(p.canonical(), "a\n...\nb\n");
        assert!(p.has_wildcards());
        assert!(!StepPattern::new("a ... b\n", &[] as &[&str]).has_wildcards());
    }
}
