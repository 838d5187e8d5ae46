//! `boardgrade grade` and `boardgrade merge`: the class run resolved and its reporter
//! chosen; the run itself is the library's (`grade::class_run`).

use std::io::IsTerminal;

use boardgrade::grade::class_run::{self, ClassRequest, Graded};
use boardgrade::report::class::joined;
use boardgrade::report::class_files::ClassFiles;
use boardgrade::report::class_output::{class_reporter, CutShort, GradeFormat};
use boardgrade::Error;

use super::args::{GradeArgs, MergeArgs};
use super::console::say;
use super::exit::Status;
use super::resolve;

pub fn run(args: &GradeArgs) -> Result<Status, Error> {
    let (scenarios, variants) = resolve::graded_scenarios(&args.specs, &args.only)?;
    let config = resolve::grade_config(args, variants)?;
    let request = ClassRequest {
        submissions: args.submissions.clone(),
        one_submission: args.one_submission,
        out: args.out.clone(),
        partition: args.partition,
    };
    let files = ClassFiles {
        assignment: args.assignment.clone(),
        feedback: args.feedback,
        reports: args.reports.clone(),
        each: args.format.platform(),
    };
    let progress = match args.format == GradeFormat::Human && std::io::stderr().is_terminal() {
        true => indicatif::ProgressBar::new(0),
        false => indicatif::ProgressBar::hidden(),
    };
    let mut stdout = CutShort::new(std::io::stdout().lock());
    let mut reporter = class_reporter(
        args.format,
        &mut stdout,
        std::io::stderr(),
        progress,
        resolve::style(args.color),
    );
    let mut report_error = None;
    let mut keep = |written: std::io::Result<()>| {
        if let Err(e) = written {
            report_error.get_or_insert(e);
        }
    };
    let graded = class_run::run(&request, &scenarios, config, &files, &mut |event| {
        keep(reporter.event(&event))
    })?;
    keep(reporter.finish(&graded));
    drop(reporter);
    if let Some(e) = report_error.or_else(|| stdout.take_error()) {
        return Err(Error::io("cannot write to stdout", e));
    }
    Ok(status(&graded, stdout.was_cut()))
}

/// A class run is a batch job: it succeeded when every submission was graded, whatever the
/// grades; one the grader failed on is its own code. A report on stdout cut short is never
/// a success (the files are complete).
fn status(graded: &Graded, cut: bool) -> Status {
    match (graded.all_graded(), cut) {
        (false, _) => Status::NotGraded,
        (true, true) => Status::OutputCut,
        (true, false) => Status::Passed,
    }
}

/// `boardgrade merge`: the results of partitioned runs joined, written as one run would.
pub fn merge(args: &MergeArgs) -> Result<Status, Error> {
    let files = ClassFiles {
        assignment: args.assignment.clone(),
        reports: args.reports.clone(),
        ..ClassFiles::default()
    };
    let graded = class_run::merge(&args.parts, &args.out, &files)?;
    say(&joined(args.parts.len(), &graded, &args.out))?;
    Ok(status(&graded, false))
}
