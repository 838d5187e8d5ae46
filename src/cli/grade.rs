//! `boardgrade grade` and `boardgrade merge`: submissions and specs to a configuration, then
//! grading, and the class's files written from the results.

use std::io::{IsTerminal, Write};

use boardgrade::execution::python;
use boardgrade::grade::class;
use boardgrade::grade::manifest::{self, Manifest, Member};
use boardgrade::grade::{self, GradeConfig, GradeEvent, Store};
use boardgrade::report::class::ClassReporter;
use boardgrade::report::format::{self, ClassReport, Grader};
use boardgrade::report::gradescope::FeedbackFormat;
use boardgrade::report::junit;
use boardgrade::{cancel, Error};

use super::args::{GradeArgs, GradeFormat, MergeArgs};
use super::console::Stdout;
use super::exit::Status;
use super::outputs::{self, ClassFiles};
use super::resolve::{self, hidden_paths, python_candidate, run_config, sandbox, warn_exposed};

pub fn run(args: &GradeArgs) -> Result<Status, Error> {
    let scenarios = resolve::graded_scenarios(&args.specs, &args.only)?;
    let discovery = grade::discover(
        &args.submissions,
        &grade::entry_files(&scenarios, args.entry.as_deref()),
        Some(&args.out),
        args.one_submission,
    )?;
    // The whole class is discovered, then this run's share kept with each one's place.
    let (members, submissions): (Vec<Member>, Vec<grade::Submission>) = discovery
        .submissions
        .into_iter()
        .enumerate()
        .filter(|(_, s)| args.partition.is_none_or(|p| p.keeps(&s.id)))
        .map(|(position, s)| {
            let member = Member {
                id: s.id.clone(),
                position,
            };
            (member, s)
        })
        .unzip();
    resolve::platform_reports(&args.reports, submissions.len())?;
    let interpreter = python::resolve(&python_candidate(&args.run.python_bin))?;
    let run = run_config(&args.run);
    let store = Store::open(&args.out.join("submissions"))?;
    let config = GradeConfig {
        jobs: run.jobs,
        limits: run.limits,
        interpreter,
        entry: args.entry.clone(),
        store: Some(store),
        resume: args.resume,
        sandbox: sandbox(&args.run),
        hidden: hidden_paths(&args.specs),
        runner: args.run.python_runner,
    };
    warn_exposed(config.sandbox, &config.hidden);
    let mut manifest = Manifest::new(args.partition, members, discovery.skipped);
    manifest.write(&args.out)?;
    for skipped in &manifest.skipped {
        eprintln!("skipped {}: {}", skipped.path, skipped.why);
    }

    let show_progress = args.format == GradeFormat::Human && std::io::stderr().is_terminal();
    let progress = match show_progress {
        true => indicatif::ProgressBar::new(0),
        false => indicatif::ProgressBar::hidden(),
    };
    let mut reporter = ClassReporter::new(
        std::io::stdout().lock(),
        progress,
        resolve::style(args.color),
    );
    let mut stdout = Stdout::default();
    let results = grade::grade_all(
        &submissions,
        &scenarios,
        &config,
        &mut |event: GradeEvent<'_>| {
            if args.format == GradeFormat::Human {
                stdout.write(|| reporter.event(&event));
            } else if let GradeEvent::Finished {
                result,
                done,
                total,
                ..
            } = event
            {
                eprintln!(
                    "[{done}/{total}] {} {}/{}",
                    result.id, result.score, result.max_score
                );
            }
        },
    );

    if cancel::is_requested() || results.len() != submissions.len() {
        // A class file from a run that did not finish would look complete: none is written,
        // and those of an earlier run go. The stored results stay for --resume.
        outputs::remove_stale(&args.out);
        eprintln!(
            "interrupted: {} of {} submission(s) graded and stored; grades.csv and the summary \
             are written when a run finishes (run again with --resume)",
            results.len(),
            submissions.len()
        );
        return Err(Error::Interrupted);
    }
    let summary = class::summarize(&results);
    let files = ClassFiles {
        results: &results,
        summary: &summary,
        skipped: &manifest.skipped,
        assignment: &args.assignment,
        feedback: args.feedback,
        note: format!("sandbox: {}", config.sandbox.as_str()),
    };
    files.write(&args.out, &args.reports)?;
    manifest.complete = true;
    manifest.write(&args.out)?;

    match args.format {
        GradeFormat::Human => stdout.write(|| reporter.summary(&summary)),
        GradeFormat::Json => {
            let mut document = ClassReport::new(&results, &summary, &manifest.skipped);
            document.grader = Some(Grader {
                sandbox: config.sandbox.as_str().to_string(),
                sandbox_missing: config.sandbox.missing(),
                jobs: config.jobs,
                max_rss_kib: boardgrade::execution::own_peak_rss_kib(),
            });
            let bytes = format::encode(&document);
            stdout.write(|| std::io::stdout().lock().write_all(&bytes));
        }
        GradeFormat::Junit => {
            let xml = junit::junit(&results);
            stdout.write(|| std::io::stdout().lock().write_all(xml.as_bytes()));
        }
        GradeFormat::Gradescope => files.write_gradescope(&args.out)?,
        GradeFormat::Prairielearn => files.write_prairielearn(&args.out)?,
    }
    stdout.write(|| std::io::stdout().lock().flush());
    if let Some(e) = stdout.error {
        return Err(Error::io("cannot write to stdout", e));
    }
    Ok(if !results.iter().all(|r| r.passed()) {
        Status::Failed
    } else if stdout.broken {
        // The files are complete, but the report on stdout was cut: never success.
        Status::OutputCut
    } else {
        Status::Passed
    })
}

/// `boardgrade merge`: the results of partitioned runs joined, written as one run would.
pub fn merge(args: &MergeArgs) -> Result<Status, Error> {
    let (results, skipped) = manifest::join(&args.parts)?;
    let store = Store::open(&args.out.join("submissions"))?;
    for result in &results {
        store.save(result)?;
    }
    let summary = class::summarize(&results);
    ClassFiles {
        results: &results,
        summary: &summary,
        skipped: &skipped,
        assignment: &args.assignment,
        feedback: FeedbackFormat::default(),
        note: String::new(),
    }
    .write(&args.out, &args.reports)?;
    let members = results
        .iter()
        .enumerate()
        .map(|(position, r)| Member {
            id: r.id.clone(),
            position,
        })
        .collect();
    let mut joined = Manifest::new(None, members, skipped);
    joined.complete = true;
    joined.write(&args.out)?;
    println!(
        "joined {} run(s): {} submission(s) in {}",
        args.parts.len(),
        results.len(),
        args.out.display()
    );
    Ok(Status::from_passed(results.iter().all(|r| r.passed())))
}
