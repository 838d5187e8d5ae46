//! `boardgrade coverage`: the rule events the scenarios reach on the reference, a table per
//! game; exit 1 when some event is never reached (or a scenario could not be replayed), 2
//! when a scenario file does not load.

use boardgrade::author::coverage::measure;
use boardgrade::report::author::coverage::{json, table};
use boardgrade::scenario::Scenario;
use boardgrade::Error;

use super::args::{CoverageArgs, CoverageFormat};
use super::console::say;
use super::exit::Status;
use super::resolve;

pub fn run(args: &CoverageArgs) -> Result<Status, Error> {
    let loaded = resolve::load(&args.only, &resolve::files(&args.paths)?)?;
    let only = resolve::filter(&args.only, &loaded.variants)?;
    for error in &loaded.errors {
        eprintln!("boardgrade: error: {error}");
    }
    let kept: Vec<Scenario> = loaded
        .scenarios
        .into_iter()
        .filter(|s| resolve::keeps(only, s, resolve::DialectFilter::Own))
        .collect();
    let coverage = measure(&kept);
    say(&match args.format {
        CoverageFormat::Text => table(&coverage),
        CoverageFormat::Json => json(&coverage),
    })?;
    Ok(if !loaded.errors.is_empty() {
        Status::Invalid
    } else {
        Status::from_passed(coverage.is_complete())
    })
}
