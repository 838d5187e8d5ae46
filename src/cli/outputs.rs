//! The files a class's results are written as: the class files every `grade` and `merge`
//! writes to `--out`, each `--report FORMAT=PATH`, and the platforms' per-submission
//! results, all from the same results and each written whole or not at all.

use std::path::{Path, PathBuf};

use boardgrade::grade::class::{self, ClassSummary};
use boardgrade::grade::{Skipped, SubmissionResult};
use boardgrade::report::class::summary_text;
use boardgrade::report::class_html::class_report;
use boardgrade::report::format::{self, ClassReport, SummaryFile};
use boardgrade::report::gradescope::{self, FeedbackFormat};
use boardgrade::report::{junit, prairielearn};
use boardgrade::{atomic, Error};

use super::args::{ReportFormat, ReportRequest};

/// The class files every run writes to `--out`, by name.
const CLASS_FILES: [&str; 4] = ["grades.csv", "gradebook.csv", "summary.txt", "summary.json"];

/// A class's results and what to write them as.
pub struct ClassFiles<'a> {
    pub results: &'a [SubmissionResult],
    pub summary: &'a ClassSummary,
    pub skipped: &'a [Skipped],
    pub assignment: &'a str,
    /// How Gradescope results write each test's feedback.
    pub feedback: FeedbackFormat,
    /// A line for the top of a platform's results (the sandbox in use).
    pub note: String,
}

impl ClassFiles<'_> {
    fn render(&self, format: ReportFormat) -> Result<Vec<u8>, Error> {
        Ok(match format {
            ReportFormat::Html => {
                class_report(self.results, self.summary, "boardgrade class report").into_bytes()
            }
            ReportFormat::Json => {
                format::encode(&ClassReport::new(self.results, self.summary, self.skipped))
            }
            ReportFormat::Junit => junit::junit(self.results).into_bytes(),
            ReportFormat::Csv => class::csv(self.results).into_bytes(),
            ReportFormat::Summary => summary_text(self.summary).into_bytes(),
            ReportFormat::Gradebook => class::gradebook(self.results, self.assignment).into_bytes(),
            ReportFormat::Gradescope => format::encode(&self.gradescope(self.one()?)),
            ReportFormat::Prairielearn => format::encode(&self.prairielearn(self.one()?)),
        })
    }

    /// The one submission a platform's results are for.
    fn one(&self) -> Result<&SubmissionResult, Error> {
        match self.results {
            [one] => Ok(one),
            _ => Err(super::resolve::one_submission_only(self.results.len())),
        }
    }

    fn gradescope(&self, result: &SubmissionResult) -> gradescope::Results {
        let options = gradescope::Options {
            format: self.feedback,
            note: String::new(),
        };
        gradescope::results(result, &options)
    }

    fn prairielearn(&self, result: &SubmissionResult) -> prairielearn::Results {
        prairielearn::results(result, &self.note)
    }

    /// The class files in `out` and every `--report`, each written whole or not at all.
    pub fn write(&self, out: &Path, reports: &[ReportRequest]) -> Result<(), Error> {
        let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
            (out.join(CLASS_FILES[0]), self.render(ReportFormat::Csv)?),
            (
                out.join(CLASS_FILES[1]),
                self.render(ReportFormat::Gradebook)?,
            ),
            (
                out.join(CLASS_FILES[2]),
                self.render(ReportFormat::Summary)?,
            ),
            (
                out.join(CLASS_FILES[3]),
                format::encode(&SummaryFile::new(self.summary)),
            ),
        ];
        for request in reports {
            files.push((request.path.clone(), self.render(request.format)?));
        }
        files
            .iter()
            .try_for_each(|(path, bytes)| atomic::write(path, bytes))
    }

    /// Gradescope's results for each submission: `OUT/results.json` for one (what the
    /// platform reads), `OUT/gradescope/ID.json` for a class.
    pub fn write_gradescope(&self, out: &Path) -> Result<(), Error> {
        self.write_each(out, "gradescope", |r| format::encode(&self.gradescope(r)))
    }

    /// PrairieLearn's results for each submission, laid out as Gradescope's.
    pub fn write_prairielearn(&self, out: &Path) -> Result<(), Error> {
        self.write_each(out, "prairielearn", |r| {
            format::encode(&self.prairielearn(r))
        })
    }

    fn write_each(
        &self,
        out: &Path,
        folder: &str,
        document: impl Fn(&SubmissionResult) -> Vec<u8>,
    ) -> Result<(), Error> {
        for result in self.results {
            let file = if self.results.len() == 1 {
                out.join("results.json")
            } else {
                out.join(folder).join(format!("{}.json", result.id))
            };
            atomic::write(&file, &document(result))?;
        }
        Ok(())
    }
}

/// Removes the class files of an earlier run, which an interrupted run leaves stale.
pub fn remove_stale(out: &Path) {
    for name in CLASS_FILES {
        let _ = std::fs::remove_file(out.join(name));
    }
}
