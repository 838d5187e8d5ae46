//! `boardgrade bless`: rewrite expectations from the reference, showing each change as a
//! diff; `--check` only reports.

use std::path::PathBuf;

use boardgrade::author::bless::{bless, Change};
use boardgrade::report::diff;
use boardgrade::scenario::sources;
use boardgrade::Error;

use super::args::BlessArgs;
use super::exit::Status;
use super::resolve;

fn heading(file: &str, change: &Change) -> String {
    let what = match &change.send {
        Some(send) => format!("step {} (`{send}`)", change.step),
        None => "the opening".to_string(),
    };
    format!("{file}:{}: {:?}, {what}", change.line, change.scenario)
}

pub fn run(args: &BlessArgs) -> Result<Status, Error> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        args.paths.clone()
    };
    let files = sources::from_paths(&paths)?;
    let style = resolve::style(args.color);
    let (mut changed_steps, mut changed_files, mut invalid) = (0, 0, false);
    // Variants first: scenario files name them. A variant file holds no expectations.
    for (_, read) in sources::read_variants(&files) {
        if let Err(error) = read {
            eprintln!("boardgrade: error: {error}");
            invalid = true;
        }
    }
    let files: Vec<_> = files.into_iter().filter(|f| !f.is_variant()).collect();
    for file in &files {
        let blessed = match bless(&file.name, &file.text) {
            Ok(blessed) => blessed,
            Err(error) => {
                eprintln!("boardgrade: error: {error}");
                invalid = true;
                continue;
            }
        };
        for note in &blessed.notes {
            eprintln!("note: {note}");
        }
        for change in &blessed.changes {
            println!("{}", heading(&file.name, change));
            println!("{}", diff::render(&change.old, &change.new, style, "    "));
        }
        if let Some(text) = &blessed.text {
            changed_steps += blessed.changes.len();
            changed_files += 1;
            if !args.check {
                std::fs::write(&file.name, text)
                    .map_err(|e| Error::path(&file.name, format!("cannot write: {e}")))?;
            }
        }
    }
    let verb = if args.check {
        "would change"
    } else {
        "changed"
    };
    println!(
        "{verb} {changed_steps} expectation(s) in {changed_files} of {} file(s)",
        files.len()
    );
    Ok(if invalid {
        Status::Invalid
    } else {
        Status::from_passed(!(args.check && changed_steps > 0))
    })
}
