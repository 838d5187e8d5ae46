//! Line numbers of places in a scenario file's text. Every scenario and step records the
//! line it starts on; counting the newlines from the file's start for each made loading
//! quadratic (a recorded game of 40,000 steps took minutes to load), so the offsets where
//! lines start are found once and each place is looked up among them.

/// Where each line of a text starts.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(source: &str) -> LineIndex {
        let newlines = source.bytes().enumerate().filter(|&(_, b)| b == b'\n');
        LineIndex {
            starts: std::iter::once(0)
                .chain(newlines.map(|(at, _)| at + 1))
                .collect(),
        }
    }

    /// The 1-based line of byte `offset` (past the end: the last line).
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ScenarioFileError;

    #[test]
    fn each_offset_is_on_the_line_counting_newlines_gives() {
        let source = "a = 1\n\n[[scenario]]\nname = \"x\"\n";
        let lines = LineIndex::new(source);
        for offset in 0..=source.len() + 3 {
            assert_eq!(
                lines.line(offset),
                ScenarioFileError::line_col(source, offset).0,
                "offset {offset}"
            );
        }
        assert_eq!(LineIndex::new("").line(0), 1);
    }
}
