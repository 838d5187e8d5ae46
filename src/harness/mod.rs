//! The harness: expectations from the reference ([`expectation`]), runs ([`run`]), verdicts
//! ([`judge`]) and their results ([`outcome`]).

mod apart;
mod banner;
mod calls;
mod classify;
mod code;
pub mod ending;
pub mod expectation;
pub mod judge;
pub mod matchplay;
pub mod outcome;
pub mod run;
pub mod scoring;
mod shortest;
mod stray;

pub use code::{check_all, Checks};
pub use expectation::Expected;
pub use outcome::{Divergence, Finding, Outcome, Verdict};
pub use run::{run_all, run_all_checked, run_one, Event, RunConfig, Summary};
