//! `boardgrade bless`: rewrite expectations from the reference, showing each change as a
//! diff; `--fill` also writes the missing ones; `--check` only reports.

use std::path::PathBuf;

use boardgrade::author::bless::{bless_files, Mode};
use boardgrade::report::author::bless::BlessReporter;
use boardgrade::scenario::sources;
use boardgrade::Error;

use super::args::BlessArgs;
use super::exit::Status;
use super::resolve;

pub fn run(args: &BlessArgs) -> Result<Status, Error> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        args.paths.clone()
    };
    let files = sources::from_paths(&paths)?;
    let mut report = BlessReporter::new(
        std::io::stdout().lock(),
        std::io::stderr(),
        resolve::style(args.color),
    );
    let mut written = Ok(());
    let mode = if args.fill { Mode::Fill } else { Mode::Rewrite };
    let totals = bless_files(files, mode, args.check, &mut |event| {
        if written.is_ok() {
            written = report.event(&event);
        }
    })?;
    written
        .and_then(|()| report.finish(&totals, args.check))
        .map_err(|e| Error::io("cannot write to stdout", e))?;
    Ok(if totals.invalid {
        Status::Invalid
    } else {
        Status::from_passed(!(args.check && totals.steps > 0))
    })
}
