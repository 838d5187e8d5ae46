//! `boardgrade gradescope`: check the specs, then write the autograder zip.

use boardgrade::package::autograder::{self, Layout};
use boardgrade::package::{write_zip, Package};
use boardgrade::report::gradescope::FeedbackFormat;
use boardgrade::scenario::sources;
use boardgrade::Error;
use std::path::PathBuf;

use super::args::GradescopeArgs;
use super::exit;

pub fn run(args: &GradescopeArgs) -> Result<i32, Error> {
    if args.run_autograder {
        return run_autograder(args);
    }
    // A zip whose specs do not load would fail every student: refuse to build it.
    let loaded = args.only.load(&sources::from_paths(&args.specs)?)?;
    if let Some(error) = loaded.errors.first() {
        return Err(Error::Scenario(error.clone()));
    }
    let mut grade_args = args.only.grade_args(args.entry.as_deref());
    if args.feedback == FeedbackFormat::Text {
        grade_args.extend(["--feedback".to_string(), "text".to_string()]);
    }
    let binary =
        std::env::current_exe().map_err(|e| Error::io("cannot find the boardgrade binary", e))?;
    write_zip(
        &Package {
            specs: args.specs.clone(),
            binary,
            grade_args,
            sandbox: args.sandbox,
            policy: policy_file(args.only.policy.as_ref(), &args.specs),
        },
        &args.out,
    )?;
    println!(
        "wrote {} ({} scenario(s)); upload it as the assignment's autograder",
        args.out.display(),
        loaded.scenarios.len()
    );
    Ok(exit::SUCCESS)
}

/// Inside Gradescope: grade, then write results.json; the log is the instructor's.
fn run_autograder(args: &GradescopeArgs) -> Result<i32, Error> {
    let binary =
        std::env::current_exe().map_err(|e| Error::io("cannot find the boardgrade binary", e))?;
    let report = autograder::run(&Layout::from_env(), &binary, args.sandbox, &args.grade_args)?;
    if let Some(why) = &report.refused {
        println!("boardgrade: NOT GRADED: {why}");
        eprintln!("boardgrade: NOT GRADED: {why}");
        return Ok(exit::FAILED);
    }
    if let Some(sandbox) = &report.sandbox {
        println!("boardgrade: graded under the sandbox {sandbox}");
    }
    if report.killed_after > 0 {
        println!(
            "boardgrade: killed {} student process(es) still running after grading",
            report.killed_after
        );
    }
    println!("boardgrade: wrote {}", report.results.display());
    Ok(exit::SUCCESS)
}

/// The course policy to ship: the one given, else the one nearest above the first specs
/// path, when it lies outside the specs copied (one inside them is copied with them).
pub fn policy_file(given: Option<&PathBuf>, specs: &[PathBuf]) -> Option<PathBuf> {
    if let Some(given) = given {
        return Some(given.clone());
    }
    let first = specs.first()?;
    let found = boardgrade::policy::find_beside(first)?;
    let copied = std::fs::canonicalize(first).ok()?;
    let root = if copied.is_dir() {
        copied.as_path()
    } else {
        copied.parent()?
    };
    (!found.starts_with(root)).then_some(found)
}
