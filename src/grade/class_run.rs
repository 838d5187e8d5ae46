//! A class run, from the submissions given to the class's files: the submissions found and
//! this run's share kept, each graded and stored, the run's record (`run.json`) kept true
//! to what was done, and the class's files written once, when the run finishes. `merge`
//! joins the results of partitioned runs and writes them as one run would.
//!
//! What the files are is the caller's (a [`ClassWriter`], which the report layer
//! provides); what is shown while grading goes to the caller's listener as [`ClassEvent`]s.

use std::path::{Path, PathBuf};

use super::class::{self, ClassSummary};
use super::manifest::{self, Manifest, Member};
use super::{discover, entry_files, grade_all, GradeConfig, GradeEvent, Partition, Store};
use super::{Skipped, Submission, SubmissionResult};
use crate::error::Error;
use crate::execution::Sandbox;
use crate::scenario::Scenario;

/// Which submissions a run grades, and where its results go.
#[derive(Debug, Clone)]
pub struct ClassRequest {
    /// Submission files or folders, or class folders holding them.
    pub submissions: Vec<PathBuf>,
    /// Each path is one submission, whatever it holds.
    pub one_submission: bool,
    /// The results folder.
    pub out: PathBuf,
    /// The share of the class this run grades.
    pub partition: Option<Partition>,
}

/// What a class run tells its listener.
#[derive(Debug)]
pub enum ClassEvent<'a> {
    /// A member of a class folder that is not a submission (told before grading starts).
    Skipped(&'a Skipped),
    Grade(GradeEvent<'a>),
    /// Stopped by Ctrl-C or SIGTERM: `graded` of `total` submissions were graded and stored,
    /// and no class file was written.
    Interrupted {
        graded: usize,
        total: usize,
    },
}

/// How a run graded, as the JSON output reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Grading {
    pub sandbox: Sandbox,
    /// Submissions graded at once.
    pub jobs: usize,
    /// The grader's own peak memory when the run finished, in KiB.
    pub max_rss_kib: u64,
}

/// A finished class: its results in the class's order and what is made of them.
#[derive(Debug, Clone)]
pub struct Graded {
    pub results: Vec<SubmissionResult>,
    pub summary: ClassSummary,
    pub skipped: Vec<Skipped>,
    /// How the run graded; `None` for results joined by `merge`.
    pub grading: Option<Grading>,
}

impl Graded {
    fn new(
        results: Vec<SubmissionResult>,
        skipped: Vec<Skipped>,
        grading: Option<Grading>,
    ) -> Self {
        Graded {
            summary: class::summarize(&results),
            results,
            skipped,
            grading,
        }
    }

    /// True when the grader graded every submission (none needs a re-run).
    pub fn all_graded(&self) -> bool {
        self.results.iter().all(|r| !r.needs_rerun)
    }
}

/// The files a finished class is written as.
pub trait ClassWriter {
    /// Refuses, before anything is graded, what could not be written for `submissions`
    /// submissions.
    fn check(&self, submissions: usize) -> Result<(), Error>;
    /// Writes every file of `graded` into `out` (and wherever else was asked), each whole
    /// or not at all.
    fn write(&self, graded: &Graded, out: &Path) -> Result<(), Error>;
    /// Removes from `out` the class files of an earlier run, which a run that did not
    /// finish would leave looking complete.
    fn remove_stale(&self, out: &Path);
}

/// Grades the class `request` names against `scenarios`, stores each result as it
/// finishes, and writes the class's files with `files` when every submission was graded.
/// A run stopped by Ctrl-C or SIGTERM writes no class file, removes those of an earlier
/// run, and ends in [`Error::Interrupted`]; the stored results stay for `--resume`.
pub fn run(
    request: &ClassRequest,
    scenarios: &[Scenario],
    mut config: GradeConfig,
    files: &dyn ClassWriter,
    listen: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<Graded, Error> {
    let discovery = discover(
        &request.submissions,
        &entry_files(scenarios, config.entry.as_deref()),
        Some(&request.out),
        request.one_submission,
    )?;
    // The whole class is discovered, then this run's share kept with each one's place.
    let ids: Vec<&str> = discovery
        .submissions
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    let kept = match request.partition {
        Some(partition) => partition.keeps(&ids),
        None => vec![true; ids.len()],
    };
    let (members, submissions): (Vec<Member>, Vec<Submission>) = discovery
        .submissions
        .into_iter()
        .enumerate()
        .filter(|(position, _)| kept[*position])
        .map(|(position, s)| {
            let member = Member {
                id: s.id.clone(),
                position,
            };
            (member, s)
        })
        .unzip();
    files.check(submissions.len())?;
    config.store = Some(Store::open(&request.out.join("submissions"))?);
    let mut manifest = Manifest::new(
        request.partition,
        members,
        discovery.skipped,
        super::fingerprint::scenario_files(scenarios),
    );
    manifest.write(&request.out)?;
    for skipped in &manifest.skipped {
        listen(ClassEvent::Skipped(skipped));
    }

    let results = grade_all(&submissions, scenarios, &config, &mut |event| {
        listen(ClassEvent::Grade(event))
    });
    if crate::cancel::is_requested() || results.len() != submissions.len() {
        files.remove_stale(&request.out);
        listen(ClassEvent::Interrupted {
            graded: results.len(),
            total: submissions.len(),
        });
        return Err(Error::Interrupted);
    }
    let grading = Grading {
        sandbox: config.sandbox,
        jobs: config.jobs,
        max_rss_kib: crate::execution::own_peak_rss_kib(),
    };
    let graded = Graded::new(results, manifest.skipped.clone(), Some(grading));
    files.write(&graded, &request.out)?;
    manifest.complete = true;
    manifest.write(&request.out)?;
    Ok(graded)
}

/// Joins the results of the partitioned runs `parts` into `out`: stored, written with
/// `files`, and recorded as one finished run.
pub fn merge(parts: &[PathBuf], out: &Path, files: &dyn ClassWriter) -> Result<Graded, Error> {
    let manifest::Joined {
        results,
        skipped,
        scenario_files,
    } = manifest::join(parts)?;
    let store = Store::open(&out.join("submissions"))?;
    for stored in &results {
        store.save(stored)?;
    }
    let results = results.into_iter().map(|stored| stored.result).collect();
    let graded = Graded::new(results, skipped, None);
    files.write(&graded, out)?;
    let members = graded
        .results
        .iter()
        .enumerate()
        .map(|(position, r)| Member {
            id: r.id.clone(),
            position,
        })
        .collect();
    let mut joined = Manifest::new(None, members, graded.skipped.clone(), scenario_files);
    joined.complete = true;
    joined.write(out)?;
    Ok(graded)
}
