//! `boardgrade test`: the resolved run, its events to the terminal report, and the further
//! reports written from the same run. A Python submission that does not load is one line:
//! nothing runs. Scenario files that leave no valid scenario are named, and nothing runs.

use boardgrade::compare::visible::show_one_line;
use boardgrade::error::ClassError;
use boardgrade::grade::pipeline::{not_loaded, run_kept};
use boardgrade::grade::RERUN;
use boardgrade::harness::{run_all, Event};
use boardgrade::report::{reporter, test_files};
use boardgrade::Error;

use super::args::TestArgs;
use super::exit::Status;
use super::resolve::{self, Subject};

pub fn run(args: &TestArgs) -> Result<Status, Error> {
    let run = resolve::test_run(args)?;
    let mut report = reporter(
        args.output.format,
        std::io::stdout().lock(),
        resolve::style(args.output.color),
        !args.output.quiet,
    );
    let io_error = |e| Error::io("cannot write the report", e);
    for error in &run.invalid {
        report.invalid_file(error).map_err(io_error)?;
    }
    for note in &run.notes {
        super::console::note(note);
    }
    let mut write_error = None;
    let mut listen = |event: Event<'_>| {
        if write_error.is_none() {
            if let Err(e) = report.event(&event) {
                write_error = Some(e);
            }
        }
    };
    // A grader failure on another dialect's run makes the check no grade.
    let mut not_graded = false;
    let outcomes = match &run.subject {
        Subject::Runs { target, scenarios } => {
            let outcomes = run_all(
                scenarios,
                target,
                &run.config,
                &run.target_name,
                &mut listen,
            );
            for note in target.runner_notes() {
                super::console::note(&note);
            }
            outcomes
        }
        Subject::Submission(runs) => {
            let ran = run_kept(runs, &run.config, &run.target_name, &mut listen);
            for note in ran.run.target.runner_notes().into_iter().chain(ran.note) {
                super::console::note(&note);
            }
            if let Some(why) = ran.grader_failed {
                eprintln!("boardgrade: not graded: {RERUN}: {}", show_one_line(&why));
                not_graded = true;
            }
            ran.outcomes
        }
        Subject::DoesNotLoad { error, scenarios } => {
            let outcomes = not_loaded(error, scenarios);
            write_error = report
                .does_not_load(&run.target_name, error, &outcomes)
                .err();
            outcomes
        }
        Subject::NothingValid { .. } => {
            write_error = report.nothing_to_run(&run.target_name).err();
            Vec::new()
        }
    };
    test_files::write(&args.reports, &run.target_name, &outcomes, &run.invalid)?;
    if let Some(e) = write_error {
        return Err(io_error(e));
    }
    if let Subject::NothingValid { filtered } = run.subject {
        return Err(ClassError::NoValidScenario {
            invalid: run.invalid.len(),
            filtered,
        }
        .into());
    }
    Ok(if !run.invalid.is_empty() {
        Status::Invalid
    } else {
        Status::from_passed(!not_graded && outcomes.iter().all(|o| o.verdict.passed()))
    })
}
