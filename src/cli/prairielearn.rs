//! `boardgrade prairielearn`: check the specs, then write PrairieLearn's external grader.

use boardgrade::grade::{dialects_of, entry_files};
use boardgrade::package::prairielearn::{write_layout, Package};
use boardgrade::Error;

use super::args::PrairielearnArgs;
use super::exit::Status;
use super::resolve;

/// A random (version 4) UUID for the new question.
fn new_uuid() -> String {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ (u64::from(std::process::id()) << 32);
    let mut rng = boardgrade::rng::Rng::new(seed);
    let (a, b) = (rng.next_u64(), rng.next_u64());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

pub fn run(args: &PrairielearnArgs) -> Result<Status, Error> {
    // Course files whose specs do not load would fail every student: refuse to write them.
    let scenarios = resolve::graded_scenarios(&args.specs, &args.only)?;
    let title = args.title.clone().unwrap_or_else(|| {
        let dialects: Vec<String> = dialects_of(&scenarios)
            .iter()
            .map(|d| d.name.to_string())
            .collect();
        format!("{} ({})", scenarios[0].game.name(), dialects.join(", "))
    });
    let entry = match &args.entry {
        Some(entry) => vec![entry.clone()],
        None => entry_files(&scenarios, None)
            .iter()
            .map(|f| f.to_string())
            .collect(),
    };
    let binary = resolve::own_binary()?;
    let package = Package {
        specs: args.specs.clone(),
        binary,
        grade_args: resolve::grade_args(&args.only, args.entry.as_deref()),
        policy: resolve::policy_file(args.only.policy.as_ref(), &args.specs),
        question: args.question.clone(),
        title,
        image: args.image.clone(),
        entry_files: entry,
        time_limits: scenarios.iter().map(|s| s.time_limit.as_secs()).sum(),
        uuid: new_uuid(),
    };
    write_layout(&package, &args.out)?;
    println!(
        "wrote {} ({} scenario(s)): copy serverFilesCourse/ and questions/ into the course",
        args.out.display(),
        scenarios.len()
    );
    Ok(Status::Passed)
}
