//! `boardgrade gradescope`: check the specs, then write the autograder zip.

use boardgrade::package::{write_zip, Package};
use boardgrade::report::gradescope::FeedbackFormat;
use boardgrade::scenario::sources;
use boardgrade::Error;

use super::args::GradescopeArgs;
use super::exit;

pub fn run(args: &GradescopeArgs) -> Result<i32, Error> {
    // A zip whose specs do not load would fail every student: refuse to build it.
    let loaded = sources::load_all(&sources::from_paths(&args.specs)?);
    if let Some(error) = loaded.errors.first() {
        return Err(Error::Scenario(error.clone()));
    }
    let mut grade_args = Vec::new();
    for (flag, value) in [
        ("--game", &args.only.game),
        ("--dialect", &args.only.dialect),
        ("--entry", &args.entry),
    ] {
        if let Some(value) = value {
            grade_args.extend([flag.to_string(), value.clone()]);
        }
    }
    for (flag, values) in [
        ("--tag", &args.only.tag),
        ("--skip-tag", &args.only.skip_tag),
    ] {
        for value in values {
            grade_args.extend([flag.to_string(), value.clone()]);
        }
    }
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
