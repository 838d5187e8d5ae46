//! `boardgrade grade` and `boardgrade merge`: submissions and specs to a configuration, then
//! grading, and the class's files written from the results.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use boardgrade::execution::python;
use boardgrade::grade::class::{self, ClassSummary};
use boardgrade::grade::manifest::{self, Manifest, Member};
use boardgrade::grade::{self, GradeConfig, GradeEvent, Skipped, Store, SubmissionResult};
use boardgrade::report::class::{summary_text, ClassReporter};
use boardgrade::report::class_html::class_report;
use boardgrade::report::json::ClassDocument;
use boardgrade::report::{gradescope, junit, prairielearn};
use boardgrade::scenario::{sources, Scenario};
use boardgrade::{atomic, cancel, Error};

use super::args::{GradeArgs, GradeFormat, MergeArgs, ReportFormat, ReportRequest, ScenarioFilter};
use super::exit;
use super::test::{hidden_paths, python_candidate, run_config, sandbox, warn_exposed};

/// The class files every run writes to `--out`, by name.
const CLASS_FILES: [&str; 4] = ["grades.csv", "gradebook.csv", "summary.txt", "summary.json"];

fn json(value: &impl serde::Serialize) -> Result<Vec<u8>, Error> {
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::Usage(format!("cannot encode: {e}")))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A class's results and what to write them as.
struct ClassFiles<'a> {
    results: &'a [SubmissionResult],
    summary: &'a ClassSummary,
    skipped: &'a [Skipped],
    assignment: &'a str,
}

impl ClassFiles<'_> {
    fn render(&self, format: ReportFormat) -> Result<Vec<u8>, Error> {
        Ok(match format {
            ReportFormat::Html => {
                class_report(self.results, self.summary, "boardgrade class report").into_bytes()
            }
            ReportFormat::Json => json(&ClassDocument::new(
                self.results,
                self.summary,
                self.skipped,
            ))?,
            ReportFormat::Junit => junit::junit(self.results).into_bytes(),
            ReportFormat::Csv => class::csv(self.results).into_bytes(),
            ReportFormat::Summary => summary_text(self.summary).into_bytes(),
            ReportFormat::Gradebook => class::gradebook(self.results, self.assignment).into_bytes(),
        })
    }

    /// The class files in `out` and every `--report`, each written whole or not at all.
    fn write(&self, out: &Path, reports: &[ReportRequest]) -> Result<(), Error> {
        let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
            (out.join(CLASS_FILES[0]), self.render(ReportFormat::Csv)?),
            (
                out.join(CLASS_FILES[1]),
                self.render(ReportFormat::Gradebook)?,
            ),
            (
                out.join(CLASS_FILES[2]),
                self.render(ReportFormat::Summary)?,
            ),
            (out.join(CLASS_FILES[3]), json(self.summary)?),
        ];
        for request in reports {
            files.push((request.path.clone(), self.render(request.format)?));
        }
        files
            .iter()
            .try_for_each(|(path, bytes)| atomic::write(path, bytes))
    }
}

/// Removes the class files of an earlier run, which an interrupted run leaves stale.
fn remove_stale(out: &Path) {
    for name in CLASS_FILES {
        let _ = std::fs::remove_file(out.join(name));
    }
}

/// Standard output that stops being written once its reader has gone (`| head`), and
/// remembers that it did.
struct Stdout {
    broken: bool,
    error: Option<std::io::Error>,
}

impl Stdout {
    fn new() -> Self {
        Stdout {
            broken: false,
            error: None,
        }
    }

    /// Runs a write unless the reader has gone; a broken pipe is remembered, not fatal.
    fn write(&mut self, write: impl FnOnce() -> std::io::Result<()>) {
        if self.broken || self.error.is_some() {
            return;
        }
        match write() {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.broken = true,
            Err(e) => self.error = Some(e),
        }
    }
}

/// The scenarios to grade with: every file of `specs` (the bundled specs when none) must load,
/// and some scenario must pass the filter.
pub fn graded_scenarios(specs: &[PathBuf], only: &ScenarioFilter) -> Result<Vec<Scenario>, Error> {
    let files = if specs.is_empty() {
        sources::bundled()
    } else {
        sources::from_paths(specs)?
    };
    let loaded = only.load(&files)?;
    if let Some(error) = loaded.errors.first() {
        // Grading against part of the specs would be unfair: stop before any submission runs.
        return Err(Error::Scenario(error.clone()));
    }
    let scenarios: Vec<_> = loaded
        .scenarios
        .into_iter()
        .filter(|s| only.keeps(s))
        .collect();
    if scenarios.is_empty() {
        return Err(Error::Usage(
            "no scenarios match the given specs and filters".into(),
        ));
    }
    Ok(scenarios)
}

pub fn run(args: &GradeArgs) -> Result<i32, Error> {
    let scenarios = graded_scenarios(&args.specs, &args.only)?;
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
    let mut reporter = ClassReporter::new(
        std::io::stdout().lock(),
        show_progress.then(std::io::stderr),
        args.color.style(),
    );
    let mut stdout = Stdout::new();
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
        remove_stale(&args.out);
        eprintln!(
            "interrupted: {} of {} submission(s) graded and stored; grades.csv and the summary \
             are written when a run finishes (run again with --resume)",
            results.len(),
            submissions.len()
        );
        return Ok(exit::INTERRUPTED);
    }
    let summary = class::summarize(&results);
    ClassFiles {
        results: &results,
        summary: &summary,
        skipped: &manifest.skipped,
        assignment: &args.assignment,
    }
    .write(&args.out, &args.reports)?;
    manifest.complete = true;
    manifest.write(&args.out)?;

    match args.format {
        GradeFormat::Human => stdout.write(|| reporter.summary(&summary)),
        GradeFormat::Json => {
            let document = serde_json::json!({
                "version": boardgrade::report::json::FORMAT_VERSION,
                "boardgrade": env!("CARGO_PKG_VERSION"),
                "class": summary,
                "skipped": manifest.skipped,
                "grader": {
                    "sandbox": config.sandbox.as_str(),
                    "sandbox_missing": config.sandbox.missing(),
                    "jobs": config.jobs,
                    "max_rss_kib": boardgrade::execution::own_peak_rss_kib(),
                },
                "submissions": results,
            });
            let bytes = json(&document)?;
            stdout.write(|| std::io::stdout().lock().write_all(&bytes));
        }
        GradeFormat::Junit => {
            let xml = junit::junit(&results);
            stdout.write(|| std::io::stdout().lock().write_all(xml.as_bytes()));
        }
        GradeFormat::Gradescope => {
            let options = gradescope::Options {
                format: args.feedback,
                note: String::new(),
            };
            write_each(&results, &args.out, "gradescope", |r| {
                gradescope::results(r, &options)
            })?;
        }
        GradeFormat::Prairielearn => {
            let note = format!("sandbox: {}", config.sandbox.as_str());
            write_each(&results, &args.out, "prairielearn", |r| {
                prairielearn::results(r, &note)
            })?;
        }
    }
    stdout.write(|| std::io::stdout().lock().flush());
    if let Some(e) = stdout.error {
        return Err(Error::io("cannot write to stdout", e));
    }
    Ok(if !results.iter().all(|r| r.passed()) {
        exit::FAILED
    } else if stdout.broken {
        // The files are complete, but the report on stdout was cut: never success.
        exit::BROKEN_PIPE
    } else {
        exit::SUCCESS
    })
}

/// A platform's results file per submission: `OUT/results.json` for one submission (what the
/// platform reads), `OUT/FOLDER/ID.json` for a class.
fn write_each<T: serde::Serialize>(
    results: &[SubmissionResult],
    out: &Path,
    folder: &str,
    document: impl Fn(&SubmissionResult) -> T,
) -> Result<(), Error> {
    for result in results {
        let file = if results.len() == 1 {
            out.join("results.json")
        } else {
            out.join(folder).join(format!("{}.json", result.id))
        };
        atomic::write(&file, &json(&document(result))?)?;
    }
    Ok(())
}

/// `boardgrade merge`: the results of partitioned runs joined, written as one run would.
pub fn merge(args: &MergeArgs) -> Result<i32, Error> {
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
    Ok(if results.iter().all(|r| r.passed()) {
        exit::SUCCESS
    } else {
        exit::FAILED
    })
}
