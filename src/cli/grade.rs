//! `boardgrade grade`: submissions and specs to a configuration, then grading and reports.

use std::io::{IsTerminal, Write};
use std::path::Path;

use boardgrade::execution::python;
use boardgrade::grade::{self, class, GradeConfig, GradeEvent, Store};
use boardgrade::report::class::{summary_text, ClassReporter};
use boardgrade::report::class_html::class_report;
use boardgrade::report::{gradescope, junit};
use boardgrade::scenario::sources;
use boardgrade::{cancel, Error};

use super::args::{GradeArgs, GradeFormat, ReportFormat};
use super::exit;
use super::test::{hidden_paths, python_candidate, run_config, sandbox};

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    std::fs::write(path, bytes)
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}

pub fn run(args: &GradeArgs) -> Result<i32, Error> {
    let files = if args.specs.is_empty() {
        sources::bundled()
    } else {
        sources::from_paths(&args.specs)?
    };
    let loaded = args.only.load(&files)?;
    if let Some(error) = loaded.errors.first() {
        // Grading against part of the specs would be unfair: stop before any submission runs.
        return Err(Error::Scenario(error.clone()));
    }
    let scenarios: Vec<_> = loaded
        .scenarios
        .into_iter()
        .filter(|s| args.only.keeps(s))
        .collect();
    if scenarios.is_empty() {
        return Err(Error::Usage(
            "no scenarios match the given specs and filters".into(),
        ));
    }
    let discovery = grade::discover(
        &args.submissions,
        &grade::entry_files(&scenarios, args.entry.as_deref()),
        Some(&args.out),
    )?;
    let submissions = &discovery.submissions;
    let interpreter = python::resolve(&python_candidate(&args.run.python_bin))?;
    let run = run_config(&args.run);
    let config = GradeConfig {
        jobs: run.jobs,
        limits: run.limits,
        interpreter,
        entry: args.entry.clone(),
        store: Some(Store::open(&args.out.join("submissions"))?),
        resume: args.resume,
        sandbox: sandbox(&args.run),
        hidden: hidden_paths(&args.specs),
    };

    let show_progress = args.format == GradeFormat::Human && std::io::stderr().is_terminal();
    let mut reporter = ClassReporter::new(
        std::io::stdout().lock(),
        show_progress.then(std::io::stderr),
        args.color.style(),
    );
    let mut io_error = None;
    for skipped in &discovery.skipped {
        eprintln!("skipped {}: {}", skipped.path, skipped.why);
    }
    let results = grade::grade_all(
        submissions,
        &scenarios,
        &config,
        &mut |event: GradeEvent<'_>| {
            if args.format == GradeFormat::Human {
                if let Err(e) = reporter.event(&event) {
                    io_error.get_or_insert(e);
                }
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
    if let Some(e) = io_error {
        return Err(Error::io("cannot write the report", e));
    }

    let summary = class::summarize(&results);
    write_file(
        &args.out.join("grades.csv"),
        class::csv(&results).as_bytes(),
    )?;
    write_file(
        &args.out.join("summary.txt"),
        summary_text(&summary).as_bytes(),
    )?;
    let summary_json =
        serde_json::to_vec_pretty(&summary).map_err(|e| Error::Usage(e.to_string()))?;
    write_file(&args.out.join("summary.json"), &summary_json)?;
    for request in &args.reports {
        let text = match request.format {
            ReportFormat::Html => class_report(&results, &summary, "boardgrade class report"),
        };
        write_file(&request.path, text.as_bytes())?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |e| Error::io("cannot write to stdout", e);
    match args.format {
        GradeFormat::Human => reporter.summary(&summary).map_err(io)?,
        GradeFormat::Json => {
            let document = serde_json::json!({
                "version": boardgrade::report::json::FORMAT_VERSION,
                "boardgrade": env!("CARGO_PKG_VERSION"),
                "class": summary,
                "grader": {
                    "sandbox": config.sandbox.as_str(),
                    "sandbox_missing": config.sandbox.missing(),
                    "jobs": config.jobs,
                    "max_rss_kib": boardgrade::execution::own_peak_rss_kib(),
                },
                "submissions": results,
            });
            serde_json::to_writer_pretty(&mut out, &document)
                .map_err(|e| Error::Usage(e.to_string()))?;
            writeln!(out).map_err(io)?;
        }
        GradeFormat::Junit => out
            .write_all(junit::junit(&results).as_bytes())
            .map_err(io)?,
        GradeFormat::Gradescope => {
            for result in &results {
                let file = if results.len() == 1 {
                    args.out.join("results.json")
                } else {
                    args.out
                        .join("gradescope")
                        .join(format!("{}.json", result.id))
                };
                let options = gradescope::Options {
                    format: args.feedback,
                    note: String::new(),
                };
                let document = gradescope::results(result, &options);
                let bytes = serde_json::to_vec_pretty(&document)
                    .map_err(|e| Error::Usage(e.to_string()))?;
                write_file(&file, &bytes)?;
            }
        }
    }
    Ok(if cancel::is_requested() {
        exit::INTERRUPTED
    } else if results.len() == submissions.len() && results.iter().all(|r| r.passed()) {
        exit::SUCCESS
    } else {
        exit::FAILED
    })
}
