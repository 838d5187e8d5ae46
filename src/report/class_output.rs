//! What `grade` shows while and after grading a class, in the format asked for: lines for
//! people ([`super::class::ClassReporter`]), or one document on stdout at the end (JSON,
//! JUnit) with a progress line per submission on stderr.

use std::io::{self, Write};

use indicatif::ProgressBar;

use super::class::ClassReporter;
use super::class_files::Platform;
use super::class_render::{notice, ClassOutput};
use super::format::{self, ClassReport, Grader};
use super::junit;
use super::style::Style;
use crate::compare::visible::show_one_line;
use crate::grade::class_run::{ClassEvent, Graded};
use crate::grade::GradeEvent;

/// The output formats of `boardgrade grade`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GradeFormat {
    /// A line per submission and the class summary.
    Human,
    /// Every result as one JSON document on stdout.
    Json,
    /// Gradescope's results.json, written to --out.
    Gradescope,
    /// PrairieLearn's external-grader results.json, written to --out.
    Prairielearn,
    /// JUnit XML on stdout.
    Junit,
}

impl GradeFormat {
    /// The platform whose results the format writes for each submission, if it is one.
    pub fn platform(self) -> Option<Platform> {
        match self {
            GradeFormat::Gradescope => Some(Platform::Gradescope),
            GradeFormat::Prairielearn => Some(Platform::Prairielearn),
            GradeFormat::Human | GradeFormat::Json | GradeFormat::Junit => None,
        }
    }
}

/// A reporter of `format`: results to `out`, notes to `err`, and, for people, progress on
/// `progress`.
pub fn class_reporter<'a, O: Write + 'a, E: Write + 'a>(
    format: GradeFormat,
    out: O,
    err: E,
    progress: ProgressBar,
    style: Style,
) -> Box<dyn ClassOutput + 'a> {
    match format {
        GradeFormat::Human => Box::new(ClassReporter::new(out, err, progress, style)),
        _ => Box::new(DocumentReporter { format, out, err }),
    }
}

/// A document at the end (none for a platform's format, whose results are files), and a
/// line per submission on `err` meanwhile.
struct DocumentReporter<O: Write, E: Write> {
    format: GradeFormat,
    out: O,
    err: E,
}

impl<O: Write, E: Write> ClassOutput for DocumentReporter<O, E> {
    fn event(&mut self, event: &ClassEvent<'_>) -> io::Result<()> {
        match event {
            ClassEvent::Grade(GradeEvent::Finished {
                result,
                done,
                total,
                ..
            }) => writeln!(
                self.err,
                "[{done}/{total}] {} {}/{}",
                show_one_line(&result.id),
                result.score,
                result.max_score
            ),
            _ => notice(&mut self.err, event),
        }
    }

    fn finish(&mut self, graded: &Graded) -> io::Result<()> {
        let bytes = match self.format {
            GradeFormat::Json => {
                let mut document =
                    ClassReport::new(&graded.results, &graded.summary, &graded.skipped);
                document.grader = graded.grading.as_ref().map(|g| Grader {
                    sandbox: g.sandbox.as_str().to_string(),
                    sandbox_missing: g.sandbox.missing(),
                    jobs: g.jobs,
                    max_rss_kib: g.max_rss_kib,
                });
                format::encode(&document)
            }
            GradeFormat::Junit => junit::junit(&graded.results).into_bytes(),
            GradeFormat::Human | GradeFormat::Gradescope | GradeFormat::Prairielearn => Vec::new(),
        };
        self.out.write_all(&bytes)?;
        self.out.flush()
    }
}

/// A writer whose reader may go away (`| head`): once it has, writes are dropped and that
/// is remembered; the first other failure is kept for the end. Either way the run goes on,
/// so every file on disk is still written.
pub struct CutShort<W: Write> {
    inner: W,
    cut: bool,
    error: Option<io::Error>,
}

impl<W: Write> CutShort<W> {
    pub fn new(inner: W) -> Self {
        CutShort {
            inner,
            cut: false,
            error: None,
        }
    }

    /// Whether the reader went away before everything was written.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// The first failure other than the reader going away.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    fn absorb<T>(&mut self, result: io::Result<T>, dropped: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.cut = true;
                Ok(dropped)
            }
            Err(e) => {
                self.error = Some(e);
                Ok(dropped)
            }
            ok => ok,
        }
    }
}

impl<W: Write> Write for CutShort<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.cut || self.error.is_some() {
            return Ok(buf.len());
        }
        let written = self.inner.write(buf);
        self.absorb(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.cut || self.error.is_some() {
            return Ok(());
        }
        let flushed = self.inner.flush();
        self.absorb(flushed, ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that has gone after `room` bytes.
    struct Closing {
        room: usize,
        kind: io::ErrorKind,
    }

    impl Write for Closing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from(self.kind));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_reader_gone_is_remembered_and_later_writes_dropped() {
        let mut out = CutShort::new(Closing {
            room: 4,
            kind: io::ErrorKind::BrokenPipe,
        });
        assert!(out.write_all(b"abcdefgh").is_ok());
        assert!(out.was_cut());
        assert!(writeln!(out, "more").is_ok());
        assert!(out.take_error().is_none());
    }

    #[test]
    fn another_failure_is_kept_for_the_end() {
        let mut out = CutShort::new(Closing {
            room: 0,
            kind: io::ErrorKind::PermissionDenied,
        });
        assert!(out.write_all(b"x").is_ok());
        assert!(!out.was_cut());
        let error = out.take_error().map(|e| e.kind());
        assert_eq!(error, Some(io::ErrorKind::PermissionDenied));
    }
}
