//! Grading submissions: each one against the scenarios of its dialect, in parallel, each
//! result stored as it finishes.

pub mod class;
pub mod store;
pub mod submission;

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::execution::python::Interpreter;
use crate::execution::{Limits, Sandbox, Target, TargetSpec};
use crate::games::Dialect;
use crate::harness::{run_one, scoring, Outcome, Summary};
use crate::scenario::Scenario;
pub use store::Store;
pub use submission::{discover, Submission};

/// How to grade.
#[derive(Debug, Clone)]
pub struct GradeConfig {
    /// Submissions graded at once.
    pub jobs: usize,
    pub limits: Limits,
    pub interpreter: Interpreter,
    /// The entry file to look for instead of each dialect's.
    pub entry: Option<String>,
    /// Where results are stored; with `resume`, submissions already there are not graded again.
    pub store: Option<Store>,
    pub resume: bool,
    pub sandbox: Sandbox,
    /// Paths student programs must not see (the specs).
    pub hidden: Vec<PathBuf>,
}

/// One submission's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    pub id: String,
    pub path: String,
    pub dialect: Option<String>,
    pub score: f64,
    pub max_score: f64,
    /// Why it could not be graded at all (no entry file, say); `None` when it was.
    pub error: Option<String>,
    pub summary: Summary,
    pub scenarios: Vec<Outcome>,
    pub elapsed_ms: u64,
}

impl SubmissionResult {
    /// True when every scenario passed.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.summary.all_passed()
    }
}

/// What grading tells its listener.
#[derive(Debug)]
pub enum GradeEvent<'a> {
    Started {
        submissions: usize,
        resumed: usize,
    },
    Finished {
        result: &'a SubmissionResult,
        done: usize,
        total: usize,
        resumed: bool,
    },
    Done {
        results: &'a [SubmissionResult],
        elapsed_ms: u64,
    },
}

/// The dialects of the scenarios, each once, in order of appearance.
pub fn dialects_of(scenarios: &[Scenario]) -> Vec<&'static Dialect> {
    let mut dialects: Vec<&'static Dialect> = Vec::new();
    for s in scenarios {
        if !dialects.iter().any(|d| std::ptr::eq(*d, s.dialect)) {
            dialects.push(s.dialect);
        }
    }
    dialects
}

/// The entry files of the dialects being graded (or the override).
pub fn entry_files(scenarios: &[Scenario], entry: Option<&str>) -> Vec<&'static str> {
    match entry {
        Some(_) => Vec::new(),
        None => dialects_of(scenarios)
            .iter()
            .map(|d| d.entry_file)
            .collect(),
    }
}

/// Grades one submission.
pub fn grade_one(
    submission: &Submission,
    scenarios: &[Scenario],
    config: &GradeConfig,
) -> SubmissionResult {
    let started = Instant::now();
    let mut result = SubmissionResult {
        id: submission.id.clone(),
        path: submission.path.display().to_string(),
        dialect: None,
        score: 0.0,
        max_score: 0.0,
        error: None,
        summary: Summary::default(),
        scenarios: Vec::new(),
        elapsed_ms: 0,
    };
    let dialect = match submission::dialect_of(
        submission,
        &dialects_of(scenarios),
        config.entry.as_deref(),
    ) {
        Ok(dialect) => dialect,
        Err(why) => {
            result.error = Some(why);
            result.max_score = scenarios.iter().map(|s| s.points).sum();
            return result;
        }
    };
    result.dialect = Some(dialect.name.to_string());
    let mine: Vec<&Scenario> = scenarios
        .iter()
        .filter(|s| std::ptr::eq(s.dialect, dialect))
        .collect();
    let target = Target::with_interpreter(
        TargetSpec::Python(submission.path.clone()),
        Some(config.interpreter.clone()),
    )
    .map(|t| {
        t.with_entry(config.entry.clone())
            .with_sandbox(config.sandbox, config.hidden.clone())
    });
    let mut outcomes: Vec<Outcome> = match &target {
        Ok(target) => mine
            .iter()
            .map(|s| run_one(s, target, &config.limits))
            .collect(),
        Err(error) => {
            result.error = Some(error.to_string());
            Vec::new()
        }
    };
    scoring::apply_groups(&mut outcomes);
    result.summary = Summary::of(&outcomes);
    result.score = result.summary.score;
    result.max_score = if result.error.is_some() {
        mine.iter().map(|s| s.points).sum()
    } else {
        result.summary.max_score
    };
    result.scenarios = outcomes;
    result.elapsed_ms = started.elapsed().as_millis() as u64;
    result
}

/// Grades every submission (`config.jobs` at once) and returns the results in order.
pub fn grade_all(
    submissions: &[Submission],
    scenarios: &[Scenario],
    config: &GradeConfig,
    listen: &mut dyn FnMut(GradeEvent<'_>),
) -> Vec<SubmissionResult> {
    let started = Instant::now();
    let stored: Vec<Option<SubmissionResult>> = submissions
        .iter()
        .map(|s| {
            if config.resume {
                config.store.as_ref().and_then(|store| store.load(&s.id))
            } else {
                None
            }
        })
        .collect();
    let resumed = stored.iter().flatten().count();
    listen(GradeEvent::Started {
        submissions: submissions.len(),
        resumed,
    });
    let mut results: Vec<Option<SubmissionResult>> = vec![None; submissions.len()];
    let mut done = 0;
    for (index, previous) in stored.iter().enumerate() {
        if let Some(previous) = previous {
            done += 1;
            listen(GradeEvent::Finished {
                result: previous,
                done,
                total: submissions.len(),
                resumed: true,
            });
            results[index] = Some(previous.clone());
        }
    }
    let pending: Vec<usize> = (0..submissions.len())
        .filter(|&i| stored[i].is_none())
        .collect();
    crate::pool::each(
        &pending,
        config.jobs,
        |_, &index| {
            // Once Ctrl-C is pressed, nothing more is started.
            (!crate::cancel::is_requested())
                .then(|| (index, grade_one(&submissions[index], scenarios, config)))
        },
        |_, graded| {
            // A result finished after Ctrl-C may be cut short: it is neither stored nor
            // reported, and --resume grades that submission again.
            let Some((index, mut result)) = graded.filter(|_| !crate::cancel::is_requested())
            else {
                return ControlFlow::Break(());
            };
            if let Some(store) = &config.store {
                if let Err(error) = store.save(&result) {
                    result.error = Some(format!("the result could not be saved: {error}"));
                }
            }
            done += 1;
            listen(GradeEvent::Finished {
                result: &result,
                done,
                total: submissions.len(),
                resumed: false,
            });
            results[index] = Some(result);
            ControlFlow::Continue(())
        },
    );
    let results: Vec<SubmissionResult> = results.into_iter().flatten().collect();
    listen(GradeEvent::Done {
        results: &results,
        elapsed_ms: started.elapsed().as_millis() as u64,
    });
    results
}

/// Where a class's outputs go by default.
pub fn default_out_dir() -> PathBuf {
    PathBuf::from("boardgrade-results")
}
