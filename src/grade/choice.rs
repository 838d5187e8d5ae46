//! Which of a submission's runs is its grade, when its file answers more than one dialect of a
//! family the course grades (a base and its variant, or two variants): a project5 file with a
//! helper that happens to be named `whos_the_winner` answers project5-fall2023 too, and must
//! not lose points for a name its handout left free. Each fitting dialect is graded, and the
//! better share of the points is kept: hidden scenarios count as the score counts them, and a
//! tie keeps the dialect routing chose. A run the grader failed on is no grade, and never lets
//! another run win: the submission is then not graded. Runs are tried in turn, the routed
//! dialect first, and a run that settles the matter (the grader failed, the file does not
//! load) ends the trying.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::points::{Points, Share};

/// A dialect a submission was graded as too, whose result was not kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tried {
    /// The dialect.
    pub dialect: String,
    /// Points earned under it (hidden scenarios included).
    pub score: Points,
    /// Points there were to earn under it.
    pub max_score: Points,
}

/// What a result graded as `kept` says of the `others` tried: `graded as project5 (also
/// tried project5-fall2023: 35/41)`.
pub fn note(kept: &str, others: &[Tried]) -> String {
    let others: Vec<String> = others
        .iter()
        .map(|t| format!("{}: {}/{}", t.dialect, t.score, t.max_score))
        .collect();
    format!("graded as {kept} (also tried {})", others.join("; "))
}

/// The same for a student who may not see every scenario yet: no score of the others,
/// which count scenarios the student cannot see.
pub fn note_for_students(kept: &str, others: &[Tried]) -> String {
    let others: Vec<&str> = others.iter().map(|t| t.dialect.as_str()).collect();
    format!(
        "graded as {kept} (also tried {}; the better result is kept)",
        others.join(", ")
    )
}

/// What the choice needs to know of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    /// The dialect it was graded as.
    pub dialect: String,
    pub score: Points,
    pub max_score: Points,
    /// Why the grader (not the submission) failed on it, when it did.
    pub grader_failed: Option<String>,
    /// Whether the file loaded: one that did not load under one dialect does not under
    /// another (it is the same file), so no other is tried.
    pub loads: bool,
}

impl Scored {
    fn share(&self) -> Share {
        Share::of(self.score, self.max_score)
    }

    /// Whether the runs after it are not tried.
    fn settles(&self) -> bool {
        self.grader_failed.is_some() || !self.loads
    }
}

/// The run kept, of those tried.
#[derive(Debug)]
pub struct Kept<T> {
    /// The run kept: the better, or the routed one when the submission is not graded.
    pub run: T,
    /// Its place among the tries (0: the dialect routing chose).
    pub index: usize,
    /// The dialects tried too and not kept, with their scores (none when the submission is
    /// not graded: then no score is anything to compare).
    pub others: Vec<Tried>,
    /// Why the submission is not graded when the grader failed on a run other than the one
    /// kept (the kept run says so itself when it failed).
    pub grader_failed: Option<String>,
}

/// Grades each of `tries` runs with `grade` in turn (0 first, the routed dialect) and keeps
/// the better; a run that settles the matter ends the trying.
pub fn keep_better<T>(tries: usize, mut grade: impl FnMut(usize) -> (T, Scored)) -> Kept<T> {
    let mut runs: Vec<(T, Scored)> = Vec::with_capacity(tries);
    for index in 0..tries.max(1) {
        let (run, scored) = grade(index);
        let settles = scored.settles();
        runs.push((run, scored));
        if settles {
            break;
        }
    }
    let scored: Vec<&Scored> = runs.iter().map(|(_, s)| s).collect();
    let failed = scored
        .iter()
        .enumerate()
        .find(|(_, s)| s.grader_failed.is_some());
    let (index, grader_failed) = match failed {
        // The routed run failed: it says so itself.
        Some((0, _)) => (0, None),
        Some((_, other)) => (
            0,
            Some(format!(
                "the file answers {} too, and grading it as {} failed: {}",
                other.dialect,
                other.dialect,
                other.grader_failed.as_deref().unwrap_or_default()
            )),
        ),
        None => (better(&scored), None),
    };
    let others = scored
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != index && grader_failed.is_none())
        .map(|(_, s)| Tried {
            dialect: s.dialect.clone(),
            score: s.score,
            max_score: s.max_score,
        })
        .collect();
    let run = runs.swap_remove(index).0;
    Kept {
        run,
        index,
        others,
        grader_failed,
    }
}

/// The place of the run with the best share; the first of equals (the routed one first).
fn better(scored: &[&Scored]) -> usize {
    let mut best = 0;
    for (index, run) in scored.iter().enumerate().skip(1) {
        if run.share() > scored[best].share() {
            best = index;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dialect: &str, score: i64, max: i64) -> Scored {
        Scored {
            dialect: dialect.to_string(),
            score: Points::whole(score),
            max_score: Points::whole(max),
            grader_failed: None,
            loads: true,
        }
    }

    /// Keeps among `runs`, recording which were tried.
    fn keep(runs: &[Scored]) -> (Kept<String>, Vec<usize>) {
        let mut tried = Vec::new();
        let kept = keep_better(runs.len(), |index| {
            tried.push(index);
            (runs[index].dialect.clone(), runs[index].clone())
        });
        (kept, tried)
    }

    #[test]
    fn the_better_share_is_kept_and_the_other_named() {
        let (kept, tried) = keep(&[run("project5-fall2023", 35, 41), run("project5", 40, 40)]);
        assert_eq!(
            (kept.run.as_str(), kept.index, tried),
            ("project5", 1, vec![0, 1])
        );
        assert_eq!(
            note(&kept.run, &kept.others),
            "graded as project5 (also tried project5-fall2023: 35/41)"
        );
        assert_eq!(
            note_for_students(&kept.run, &kept.others),
            "graded as project5 (also tried project5-fall2023; the better result is kept)"
        );
        assert_eq!(kept.grader_failed, None);
    }

    #[test]
    fn a_tie_keeps_the_routed_dialect_and_one_run_says_nothing() {
        let (kept, _) = keep(&[run("a", 20, 40), run("b", 10, 20)]);
        assert_eq!(kept.run, "a");
        assert_eq!(
            note(&kept.run, &kept.others),
            "graded as a (also tried b: 10/20)"
        );
        let (kept, tried) = keep(&[run("a", 1, 2)]);
        assert_eq!(
            (kept.run.as_str(), kept.others, tried),
            ("a", vec![], vec![0])
        );
    }

    #[test]
    fn a_grader_failure_is_never_a_grade_whichever_run_it_was() {
        let failed = |mut s: Scored| {
            s.grader_failed = Some("the sandbox broke".into());
            s
        };
        // The other run failed: the routed one is kept, marked not graded, however good.
        let (kept, _) = keep(&[run("a", 40, 40), failed(run("b", 0, 41))]);
        assert_eq!(kept.index, 0);
        assert_eq!(kept.others, vec![]);
        assert_eq!(
            kept.grader_failed.as_deref(),
            Some("the file answers b too, and grading it as b failed: the sandbox broke")
        );
        // The routed run failed: nothing else is tried, and it says so itself.
        let (kept, tried) = keep(&[failed(run("a", 0, 40)), run("b", 41, 41)]);
        assert_eq!((kept.index, tried, kept.grader_failed), (0, vec![0], None));
    }

    #[test]
    fn a_file_that_does_not_load_is_tried_once() {
        let mut broken = run("a", 0, 40);
        broken.loads = false;
        let (kept, tried) = keep(&[broken, run("b", 41, 41)]);
        assert_eq!(
            (kept.run.as_str(), tried, kept.others),
            ("a", vec![0], vec![])
        );
    }
}
