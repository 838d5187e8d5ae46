//! A class at a glance: a CSV of scores, each scenario's failure rate, and the submissions
//! that failed the same way.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::mistake::{first_difference, Difference, MistakeKey};
use super::sheet::{self, Cell};
use super::SubmissionResult;
use crate::harness::{Outcome, Verdict};
use crate::points::Points;

/// One scenario across the class.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScenarioStat {
    pub name: String,
    pub file: String,
    pub failed: usize,
    pub graded: usize,
    pub failure_rate: f64,
}

/// Submissions that made the same mistake: the same verdict and the same difference in
/// the output, in one scenario or across several (an upper-case letter in every move
/// string is one group naming each scenario). `scenario`, `step`, `send`, `expected` and
/// `actual` describe its first occurrence.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FailureGroup {
    pub scenario: String,
    pub verdict: Verdict,
    pub step: Option<usize>,
    pub send: Option<String>,
    pub expected: Option<String>,
    pub actual: Option<String>,
    /// What differs, when output was compared.
    pub difference: Option<Difference>,
    /// Every scenario where the mistake shows, in order of first appearance.
    pub scenarios: Vec<String>,
    /// Each submission once.
    pub submissions: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ClassSummary {
    pub submissions: usize,
    pub fully_passed: usize,
    /// Submissions not graded, those that need a re-run included.
    pub not_graded: usize,
    /// Submissions the grader failed on (a harness or sandbox error): not graded until
    /// they are run again, and kept out of the mean.
    pub needs_rerun: Vec<String>,
    /// Submissions whose file does not load: scored 0, kept out of the failure rates (no
    /// scenario ran).
    pub did_not_load: Vec<DidNotLoad>,
    /// The mean score of the submissions graded (those that need a re-run left out).
    pub mean_score: f64,
    /// The largest maximum of the submissions (they differ when variants with different
    /// totals are graded together).
    pub max_score: Points,
    /// The smallest maximum of the submissions.
    pub min_max_score: Points,
    /// The mean of each submission's score over its own maximum (0 to 1).
    pub mean_share: f64,
    /// Most failed first.
    pub scenarios: Vec<ScenarioStat>,
    /// Largest first; only failures shared by two or more submissions.
    pub common_failures: Vec<FailureGroup>,
}

/// A submission whose file does not load, and the interpreter's message.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DidNotLoad {
    pub submission: String,
    pub error: String,
}

/// A scenario's key across submissions (names are unique within a file).
fn key(file: &str, name: &str) -> (String, String) {
    (file.to_string(), name.to_string())
}

pub fn summarize(results: &[SubmissionResult]) -> ClassSummary {
    let mut stats: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for result in results {
        for o in &result.scenarios {
            if o.verdict == Verdict::Error {
                continue;
            }
            let entry = stats.entry(key(&o.file, &o.name)).or_default();
            entry.1 += 1;
            if !o.verdict.passed() {
                entry.0 += 1;
                failures.push((result.id.as_str(), o));
            }
        }
    }
    let mut common_failures: Vec<FailureGroup> = group_failures(failures)
        .into_iter()
        .filter(|g| g.submissions.len() >= 2)
        .collect();
    common_failures.sort_by(|a, b| {
        b.submissions
            .len()
            .cmp(&a.submissions.len())
            .then_with(|| b.scenarios.len().cmp(&a.scenarios.len()))
            .then_with(|| a.scenario.cmp(&b.scenario))
    });
    let mut scenarios: Vec<ScenarioStat> = stats
        .into_iter()
        .map(|((file, name), (failed, graded))| ScenarioStat {
            name,
            file,
            failed,
            graded,
            failure_rate: if graded == 0 {
                0.0
            } else {
                failed as f64 / graded as f64
            },
        })
        .collect();
    scenarios.sort_by(|a, b| {
        b.failed
            .cmp(&a.failed)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.name.cmp(&b.name))
    });
    // A submission that needs a re-run has no grade to average.
    let graded: Vec<&SubmissionResult> = results.iter().filter(|r| !r.needs_rerun).collect();
    ClassSummary {
        submissions: results.len(),
        fully_passed: results.iter().filter(|r| r.passed()).count(),
        not_graded: results.iter().filter(|r| r.error.is_some()).count(),
        needs_rerun: results
            .iter()
            .filter(|r| r.needs_rerun)
            .map(|r| r.id.clone())
            .collect(),
        did_not_load: results
            .iter()
            .filter_map(|r| {
                Some(DidNotLoad {
                    submission: r.id.clone(),
                    error: r.does_not_load.as_ref()?.to_string(),
                })
            })
            .collect(),
        mean_score: if graded.is_empty() {
            0.0
        } else {
            graded.iter().map(|r| r.score).sum::<Points>().as_f64() / graded.len() as f64
        },
        max_score: results
            .iter()
            .map(|r| r.max_score)
            .max()
            .unwrap_or_default(),
        min_max_score: results
            .iter()
            .map(|r| r.max_score)
            .min()
            .unwrap_or_default(),
        mean_share: if graded.is_empty() {
            0.0
        } else {
            let share = |r: &&SubmissionResult| r.score.ratio(r.max_score);
            graded.iter().map(share).sum::<f64>() / graded.len() as f64
        },
        scenarios,
        common_failures,
    }
}

/// What makes failures of one scenario one group: the file and name of the scenario, the
/// verdict, and what differs.
type InScenario = (String, String, Verdict, Within);

/// What differs in a failure: the mistake and its values as written, or (no output compared)
/// the step it ended at.
#[derive(PartialEq, Eq, Hash)]
enum Within {
    Differs(MistakeKey, String, String),
    AtStep(Option<usize>),
}

/// What joins groups of several scenarios: the verdict, the mistake, and for a mistake known
/// by its shape, the submissions that show it (none for one known by its values).
type Across = (Verdict, MistakeKey, Vec<String>);

/// Failures (a submission and a scenario it failed) grouped by mistake, in order of first
/// appearance. First within each scenario: the same verdict and the same difference (or, with
/// no output to compare, a crash or a timeout, the same step). Then across scenarios: the
/// same mistake however it is written where the values say so ([`MistakeKey::Values`]), and
/// where only their shape does ([`MistakeKey::Shape`]), when the same submissions show it.
fn group_failures(failures: Vec<(&str, &Outcome)>) -> Vec<FailureGroup> {
    let mut in_scenarios: Vec<(Option<MistakeKey>, FailureGroup)> = Vec::new();
    let mut found: HashMap<InScenario, usize> = HashMap::new();
    for (submission, o) in failures {
        let d = o.first_divergence.as_ref();
        let difference = d.and_then(|d| first_difference(&d.expected, &d.actual));
        let within = match &difference {
            Some(diff) => {
                Within::Differs(diff.key.clone(), diff.expected.clone(), diff.actual.clone())
            }
            None => Within::AtStep(d.map(|d| d.step)),
        };
        let key = (o.file.clone(), o.name.clone(), o.verdict, within);
        let at = *found.entry(key).or_insert_with(|| {
            let mistake = difference.as_ref().map(|diff| diff.key.clone());
            in_scenarios.push((
                mistake,
                FailureGroup {
                    scenario: o.name.clone(),
                    verdict: o.verdict,
                    step: d.map(|d| d.step),
                    send: d.and_then(|d| d.send.clone()),
                    expected: d.map(|d| d.expected.clone()),
                    actual: d.map(|d| d.actual.clone()),
                    difference,
                    scenarios: vec![o.name.clone()],
                    submissions: Vec::new(),
                },
            ));
            in_scenarios.len() - 1
        });
        let submissions = &mut in_scenarios[at].1.submissions;
        if !submissions.iter().any(|s| s == submission) {
            submissions.push(submission.to_string());
        }
    }
    let mut groups: Vec<FailureGroup> = Vec::new();
    let mut joined: HashMap<Across, usize> = HashMap::new();
    for (mistake, group) in in_scenarios {
        // A failure with no output compared (a crash, a timeout) stays in its scenario.
        let across = mistake.map(|mistake| {
            let who = match mistake {
                MistakeKey::Values(..) => Vec::new(),
                MistakeKey::Shape(..) => {
                    let mut who = group.submissions.clone();
                    who.sort();
                    who
                }
            };
            (group.verdict, mistake, who)
        });
        match across.as_ref().and_then(|across| joined.get(across)) {
            Some(&at) => {
                let into = &mut groups[at];
                for name in group.scenarios {
                    if !into.scenarios.contains(&name) {
                        into.scenarios.push(name);
                    }
                }
                for submission in group.submissions {
                    if !into.submissions.contains(&submission) {
                        into.submissions.push(submission);
                    }
                }
            }
            None => {
                if let Some(across) = across {
                    joined.insert(across, groups.len());
                }
                groups.push(group);
            }
        }
    }
    groups
}

/// The scenarios of the results, each once, in order of appearance, with a column title:
/// its name, or its name and file where two scenarios share a name.
fn columns(results: &[SubmissionResult]) -> Vec<((String, String), String)> {
    let mut keys: Vec<(String, String)> = Vec::new();
    for o in results.iter().flat_map(|r| &r.scenarios) {
        let k = key(&o.file, &o.name);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let shared = |name: &str| keys.iter().filter(|(_, n)| n == name).count() > 1;
    keys.iter()
        .map(|(file, name)| {
            let title = if shared(name) {
                format!("{name} ({file})")
            } else {
                name.clone()
            };
            ((file.clone(), name.clone()), title)
        })
        .collect()
}

/// One row per submission, a column per scenario (its score), then the total.
pub fn csv(results: &[SubmissionResult]) -> String {
    let columns = columns(results);
    let mut header: Vec<Cell> = ["submission", "dialect", "score", "max_score"]
        .map(Cell::text)
        .to_vec();
    header.extend(columns.iter().map(|(_, title)| Cell::text(title.clone())));
    // The leaderboard's numbers, as Gradescope shows them (match scenarios only).
    let (standing_columns, standings) = super::leaderboard::class_columns(results);
    header.extend(standing_columns.into_iter().map(Cell::text));
    header.push(Cell::text("error"));
    let rows = results.iter().zip(&standings).map(|(result, standing)| {
        let mut row = vec![
            Cell::text(result.id.clone()),
            Cell::text(result.dialect.clone().unwrap_or_default()),
            Cell::number(result.score),
            Cell::number(result.max_score),
        ];
        row.extend(columns.iter().map(|((file, name), _)| {
            result
                .scenarios
                .iter()
                .find(|o| &o.file == file && &o.name == name)
                .map_or_else(Cell::empty, |o| Cell::number(o.score))
        }));
        row.extend(
            standing
                .iter()
                .map(|v| v.map_or_else(Cell::empty, |v| Cell::number(number(v)))),
        );
        row.push(Cell::text(result.problem().unwrap_or_default()));
        row
    });
    sheet::write(std::iter::once(header).chain(rows))
}

/// The gradebook an LMS imports: the student as named, and the assignment's total; a
/// submission that needs a re-run has no total (an empty cell, never a grade).
pub fn gradebook(results: &[SubmissionResult], assignment: &str) -> String {
    let header = vec![Cell::text("student"), Cell::text(assignment)];
    let rows = results.iter().map(|r| {
        let total = if r.needs_rerun {
            Cell::empty()
        } else {
            Cell::number(r.score)
        };
        vec![Cell::text(r.id.clone()), total]
    });
    sheet::write(std::iter::once(header).chain(rows))
}

/// A number (a mean, a count of games won) to three decimals.
pub fn round_score(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn number(x: f64) -> String {
    format!("{}", round_score(x))
}
