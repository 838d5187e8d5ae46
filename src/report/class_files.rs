//! The files a class's results are written as: the class files every `grade` and `merge`
//! writes to `--out`, each `--report FORMAT=PATH`, and the platforms' per-submission
//! results, all from the same results and each written whole or not at all.

use std::path::{Path, PathBuf};

use super::class::summary_text;
use super::class_html::class_report;
use super::format::{self, ClassReport, SummaryFile};
use super::gradescope::{self, FeedbackFormat};
use super::{junit, prairielearn};
use crate::error::{ClassError, Error};
use crate::grade::class;
use crate::grade::class_run::{ClassWriter, Graded};
use crate::grade::SubmissionResult;

/// The class files every run writes to `--out`, by name.
const CLASS_FILES: [&str; 4] = ["grades.csv", "gradebook.csv", "summary.txt", "summary.json"];

/// The formats `--report` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// The class report: one self-contained HTML page.
    Html,
    /// Every result as one JSON document (`test`: schemas/test.schema.json, `grade`:
    /// schemas/grade.schema.json).
    Json,
    /// JUnit XML: a suite per submission, a case per scenario.
    Junit,
    /// A row per submission, a column per scenario.
    Csv,
    /// The class summary as text.
    Summary,
    /// One column for the assignment's total, students as named, for an LMS to import.
    Gradebook,
    /// Gradescope's results.json (one submission).
    Gradescope,
    /// PrairieLearn's external-grader results.json (one submission).
    Prairielearn,
}

impl ReportFormat {
    /// Whether `test` writes this format (the others are a class's).
    pub fn is_test_report(self) -> bool {
        matches!(self, ReportFormat::Json | ReportFormat::Junit)
    }

    /// Whether the format is one submission's (a platform's results).
    pub fn is_one_submissions(self) -> bool {
        matches!(self, ReportFormat::Gradescope | ReportFormat::Prairielearn)
    }
}

/// One `--report FORMAT=PATH`.
#[derive(Debug, Clone)]
pub struct ReportRequest {
    pub format: ReportFormat,
    pub path: PathBuf,
}

/// A grading platform whose results are one submission's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Gradescope,
    Prairielearn,
}

impl Platform {
    /// The folder of a class's results for the platform, one file per submission.
    fn folder(self) -> &'static str {
        match self {
            Platform::Gradescope => "gradescope",
            Platform::Prairielearn => "prairielearn",
        }
    }
}

/// What a class's results are written as.
#[derive(Debug, Clone, Default)]
pub struct ClassFiles {
    /// The assignment's column name in gradebook.csv.
    pub assignment: String,
    /// How Gradescope results write each test's feedback.
    pub feedback: FeedbackFormat,
    /// Each `--report FORMAT=PATH`.
    pub reports: Vec<ReportRequest>,
    /// A platform's results for each submission, written to the results folder.
    pub each: Option<Platform>,
}

/// A class's results and what to write them as.
struct Rendering<'a> {
    files: &'a ClassFiles,
    graded: &'a Graded,
    /// A line for the top of a platform's results (the sandbox in use).
    note: String,
}

impl Rendering<'_> {
    fn render(&self, format: ReportFormat) -> Result<Vec<u8>, Error> {
        let (results, summary) = (&self.graded.results, &self.graded.summary);
        Ok(match format {
            ReportFormat::Html => {
                class_report(results, summary, "boardgrade class report").into_bytes()
            }
            ReportFormat::Json => {
                format::encode(&ClassReport::new(results, summary, &self.graded.skipped))
            }
            ReportFormat::Junit => junit::junit(results).into_bytes(),
            ReportFormat::Csv => class::csv(results).into_bytes(),
            ReportFormat::Summary => summary_text(summary).into_bytes(),
            ReportFormat::Gradebook => {
                class::gradebook(results, &self.files.assignment).into_bytes()
            }
            ReportFormat::Gradescope => self.platform(Platform::Gradescope, self.one()?),
            ReportFormat::Prairielearn => self.platform(Platform::Prairielearn, self.one()?),
        })
    }

    /// The one submission a platform's results are for.
    fn one(&self) -> Result<&SubmissionResult, Error> {
        match self.graded.results.as_slice() {
            [one] => Ok(one),
            results => Err(ClassError::OneSubmissionOnly {
                found: results.len(),
            }
            .into()),
        }
    }

    /// A platform's results for one submission.
    fn platform(&self, platform: Platform, result: &SubmissionResult) -> Vec<u8> {
        match platform {
            Platform::Gradescope => {
                let options = gradescope::Options {
                    format: self.files.feedback,
                    note: String::new(),
                };
                format::encode(&gradescope::results(result, &options))
            }
            Platform::Prairielearn => format::encode(&prairielearn::results(result, &self.note)),
        }
    }

    /// The class files in `out` and every `--report`, each written whole or not at all.
    fn write(&self, out: &Path) -> Result<(), Error> {
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
                format::encode(&SummaryFile::new(&self.graded.summary)),
            ),
        ];
        for request in &self.files.reports {
            files.push((request.path.clone(), self.render(request.format)?));
        }
        files
            .iter()
            .try_for_each(|(path, bytes)| crate::atomic::write(path, bytes))?;
        match self.files.each {
            Some(platform) => self.write_each(out, platform),
            None => Ok(()),
        }
    }

    /// A platform's results for each submission: `OUT/results.json` for one (what the
    /// platform reads), `OUT/FOLDER/ID.json` for a class.
    fn write_each(&self, out: &Path, platform: Platform) -> Result<(), Error> {
        let results = &self.graded.results;
        for result in results {
            let file = if results.len() == 1 {
                out.join("results.json")
            } else {
                out.join(platform.folder())
                    .join(format!("{}.json", result.id))
            };
            crate::atomic::write(&file, &self.platform(platform, result))?;
        }
        Ok(())
    }
}

impl ClassWriter for ClassFiles {
    fn check(&self, submissions: usize) -> Result<(), Error> {
        match self.reports.iter().any(|r| r.format.is_one_submissions()) && submissions != 1 {
            true => Err(ClassError::OneSubmissionOnly { found: submissions }.into()),
            false => Ok(()),
        }
    }

    fn write(&self, graded: &Graded, out: &Path) -> Result<(), Error> {
        let note = match &graded.grading {
            Some(grading) => format!("sandbox: {}", grading.sandbox.as_str()),
            None => String::new(),
        };
        Rendering {
            files: self,
            graded,
            note,
        }
        .write(out)
    }

    fn remove_stale(&self, out: &Path) {
        for name in CLASS_FILES {
            let _ = std::fs::remove_file(out.join(name));
        }
    }
}
