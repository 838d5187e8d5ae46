//! What the packaging commands say: the package written, and, inside Gradescope, the
//! autograder's log (on stdout, which Gradescope shows the instructor).

use std::path::{Path, PathBuf};

/// How a run went, for the instructor-visible log.
#[derive(Debug, Clone)]
pub struct Report {
    /// The sandbox used (with what it lacks here), or none when grading was refused.
    pub sandbox: Option<String>,
    /// Why the submission was not graded, when it was not.
    pub refused: Option<String>,
    /// Student processes killed after grading (a daemon that outlived its scenario).
    pub killed_after: usize,
    /// The results file written.
    pub results: PathBuf,
}

/// A package written to `out`, holding `scenarios` scenarios, and what to do with it.
pub fn written(out: &Path, scenarios: usize, then: &str) -> String {
    format!("wrote {} ({scenarios} scenario(s)){then}\n", out.display())
}

/// What to do with the Gradescope zip.
pub const GRADESCOPE_NEXT: &str = "; upload it as the assignment's autograder";
/// What to do with PrairieLearn's course files.
pub const PRAIRIELEARN_NEXT: &str = ": copy serverFilesCourse/ and questions/ into the course";

/// The autograder's log: how it graded and where the results are, or why it refused.
pub fn autograder_log(report: &Report) -> String {
    if let Some(why) = &report.refused {
        return refused(why);
    }
    let mut log = String::new();
    if let Some(sandbox) = &report.sandbox {
        log.push_str(&format!("boardgrade: graded under the sandbox {sandbox}\n"));
    }
    if report.killed_after > 0 {
        log.push_str(&format!(
            "boardgrade: killed {} student process(es) still running after grading\n",
            report.killed_after
        ));
    }
    log.push_str(&format!("boardgrade: wrote {}\n", report.results.display()));
    log
}

/// Why the autograder refused to grade (said on both streams).
pub fn refused(why: &str) -> String {
    format!("boardgrade: NOT GRADED: {why}\n")
}
