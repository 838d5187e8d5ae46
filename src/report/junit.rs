//! JUnit XML for CI: a test suite per submission, a test case per scenario.

use std::fmt::Write as _;

use super::details::details;
use super::markup::escape;
use super::style::Style;
use crate::grade::SubmissionResult;
use crate::harness::Verdict;

pub fn junit(results: &[SubmissionResult]) -> String {
    let plain = Style { color: false };
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let tests: usize = results.iter().map(|r| r.scenarios.len().max(1)).sum();
    let failures: usize = results
        .iter()
        .map(|r| r.summary.failed - r.summary.errors)
        .sum();
    let errors: usize = results
        .iter()
        .map(|r| r.summary.errors + usize::from(r.problem().is_some()))
        .sum();
    let _ = writeln!(xml, "<testsuites name=\"boardgrade\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">");
    for r in results {
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3}\">",
            escape(&r.id),
            r.scenarios.len().max(1),
            r.summary.failed - r.summary.errors,
            r.summary.errors + usize::from(r.problem().is_some()),
            r.elapsed_ms as f64 / 1000.0
        );
        if let Some(error) = &r.problem() {
            let _ = writeln!(xml, "    <testcase name=\"grading\" classname=\"{}\"><error message=\"{}\"/></testcase>", escape(&r.id), escape(error));
        }
        for o in &r.scenarios {
            let _ = write!(
                xml,
                "    <testcase name=\"{}\" classname=\"{}.{}\" file=\"{}\" time=\"{:.3}\"",
                escape(&o.name),
                escape(&o.game),
                escape(&o.dialect),
                escape(&o.file),
                o.duration_ms as f64 / 1000.0
            );
            match o.verdict {
                Verdict::Pass => xml.push_str("/>\n"),
                verdict => {
                    let element = if verdict == Verdict::Error {
                        "error"
                    } else {
                        "failure"
                    };
                    let _ = writeln!(
                        xml,
                        ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
                        verdict.as_str(),
                        escape(o.detail.as_deref().unwrap_or(verdict.as_str())),
                        escape(&details(o, plain, true))
                    );
                }
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}
