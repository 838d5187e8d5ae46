//! `boardgrade list`: the scenarios bundled into the binary (or of the files given), a
//! line each: game, dialect, file and line, name, and what marks it (tags, visibility).

use boardgrade::report::author::listing;
use boardgrade::scenario::Scenario;
use boardgrade::Error;

use super::args::ListArgs;
use super::console::say;
use super::exit::Status;
use super::resolve;

pub fn run(args: &ListArgs) -> Result<Status, Error> {
    let loaded = resolve::load(&args.only, &resolve::files(&args.paths)?)?;
    let only = resolve::filter(&args.only, &loaded.variants)?;
    for error in &loaded.errors {
        eprintln!("boardgrade: error: {error}");
    }
    let kept: Vec<&Scenario> = loaded
        .scenarios
        .iter()
        .filter(|s| resolve::keeps(only, s, resolve::DialectFilter::Own))
        .filter(|s| {
            args.filter
                .as_ref()
                .is_none_or(|f| s.name.contains(f.as_str()))
        })
        .collect();
    say(&listing::scenarios(&kept))?;
    Ok(if loaded.errors.is_empty() {
        Status::Passed
    } else {
        Status::Invalid
    })
}
