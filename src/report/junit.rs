//! JUnit XML for CI, written with `quick-junit`: a test suite per submission (or one for a
//! `test` run), a test case per scenario.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::details::details;
use super::style::Style;
use crate::grade::SubmissionResult;
use crate::harness::{Outcome, Verdict};

fn seconds(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

fn case(o: &Outcome) -> TestCase {
    let status = match o.verdict {
        Verdict::Pass => TestCaseStatus::success(),
        verdict => {
            let kind = if verdict == Verdict::Error {
                NonSuccessKind::Error
            } else {
                NonSuccessKind::Failure
            };
            let mut status = TestCaseStatus::non_success(kind);
            status
                .set_type(verdict.as_str())
                .set_message(o.detail.as_deref().unwrap_or(verdict.as_str()))
                .set_description(details(o, Style { color: false }, true));
            status
        }
    };
    let mut case = TestCase::new(o.name.as_str(), status);
    case.set_classname(format!("{}.{}", o.game, o.dialect))
        .set_time(seconds(o.duration_ms));
    case.extra.insert("file".into(), o.file.as_str().into());
    case
}

/// One suite: `outcomes`, and a `grading` case in error when the submission could not be
/// graded at all.
fn suite(name: &str, outcomes: &[Outcome], problem: Option<String>, elapsed_ms: u64) -> TestSuite {
    let mut suite = TestSuite::new(name);
    suite.set_time(seconds(elapsed_ms));
    if let Some(problem) = problem {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status.set_message(problem);
        let mut case = TestCase::new("grading", status);
        case.set_classname(name);
        suite.add_test_case(case);
    }
    suite.add_test_cases(outcomes.iter().map(case));
    suite
}

fn xml(report: &Report) -> String {
    // Serialising to memory fails only on a bug in the writer: say so in the document.
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- the JUnit report could not be written: {e} -->\n"))
}

/// A class: a suite per submission.
pub fn junit(results: &[SubmissionResult]) -> String {
    let mut report = Report::new("boardgrade");
    report.add_test_suites(
        results
            .iter()
            .map(|r| suite(&r.id, &r.scenarios, r.problem(), r.elapsed_ms)),
    );
    xml(&report)
}

/// One `test` run against `target`: one suite.
pub fn junit_run(target: &str, outcomes: &[Outcome]) -> String {
    let mut report = Report::new("boardgrade");
    let elapsed = outcomes.iter().map(|o| o.duration_ms).sum();
    report.add_test_suite(suite(target, outcomes, None, elapsed));
    xml(&report)
}
