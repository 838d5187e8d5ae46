//! Where a whole program asked for input: boardgrade's Python launcher writes a read marker
//! on stdout each time the program asks for a line, after everything printed before it. The
//! output is split there, so each typed line owns exactly what followed it. Output without
//! markers (the reference, `--cmd` programs), or with a read of the whole input at once, is
//! one stream, matched step by step as before.

/// Written before each line the program reads (`input()`, `readline()`).
pub const READ_MARK: &[u8] = b"\0boardgrade:read\0";
/// Written when the program reads the whole input at once: lines can no longer be told apart.
pub const BULK_MARK: &[u8] = b"\0boardgrade:bulk\0";

/// A program's output without its markers, and where it asked for input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reads {
    /// The output, markers removed.
    pub output: Vec<u8>,
    /// Where in `output` each line was asked for, in order; `None` when the output cannot be
    /// split (no markers, or a bulk read).
    pub points: Option<Vec<usize>>,
}

/// Takes the markers out of `stdout`.
pub fn split(stdout: &[u8]) -> Reads {
    let mut output = Vec::with_capacity(stdout.len());
    let mut points = Vec::new();
    let mut bulk = false;
    let mut rest = stdout;
    while let Some(at) = find(rest, b"\0boardgrade:") {
        output.extend_from_slice(&rest[..at]);
        let tail = &rest[at..];
        if tail.starts_with(READ_MARK) {
            points.push(output.len());
            rest = &tail[READ_MARK.len()..];
        } else if tail.starts_with(BULK_MARK) {
            bulk = true;
            rest = &tail[BULK_MARK.len()..];
        } else {
            output.push(tail[0]);
            rest = &tail[1..];
        }
    }
    output.extend_from_slice(rest);
    Reads {
        output,
        points: (!bulk && !points.is_empty()).then_some(points),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The output's stretch for each of `count` expectations (the opening, then each step): the
/// text before the first read, then between reads. Reads past the last step (the program
/// asking again at the end of its input) stay with the last step; steps the program never
/// asked for get nothing.
pub fn stretches(len: usize, points: &[usize], count: usize) -> Vec<std::ops::Range<usize>> {
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(points.iter().copied())
        .take(count)
        .collect();
    starts.resize(count, len);
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(len));
    starts.iter().zip(ends).map(|(&s, e)| s..e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_come_out_and_mark_the_reads() {
        let stdout = b"board\nWhite enter index:\n\0boardgrade:read\0White enter direction:\n\0boardgrade:read\0";
        let reads = split(stdout);
        assert_eq!(
            reads.output,
            b"board\nWhite enter index:\nWhite enter direction:\n"
        );
        assert_eq!(reads.points, Some(vec![25, 48]));
        assert_eq!(split(b"plain\n").points, None);
        let bulk = split(b"a\0boardgrade:bulk\0b\0boardgrade:read\0");
        assert_eq!((bulk.output.as_slice(), bulk.points), (&b"ab"[..], None));
        // A NUL the program printed itself stays.
        assert_eq!(split(b"x\0y\0boardgrade:z").output, b"x\0y\0boardgrade:z");
    }

    #[test]
    fn each_expectation_gets_its_stretch() {
        assert_eq!(stretches(10, &[3, 6], 3), vec![0..3, 3..6, 6..10]);
        // Asked again at the end of input: the last step keeps the rest.
        assert_eq!(stretches(10, &[3, 6, 8], 3), vec![0..3, 3..6, 6..10]);
        // Stopped asking (died, or the game ended): later steps get nothing.
        assert_eq!(stretches(10, &[3], 4), vec![0..3, 3..10, 10..10, 10..10]);
    }
}
