//! Authoring scenarios with the reference engines as the oracle: record a transcript
//! ([`record`]), rewrite expectations ([`bless`]), generate random games ([`generate`]),
//! hunt for a submission's first wrong answer and shrink it ([`fuzz`], [`shrink`]), and play
//! in a terminal ([`play`]). Scenario files are written by [`write`].
//!
//! Like the rest of the library, nothing here prints: each command returns data (and file
//! texts) for the command line to show and save.

pub mod bless;
pub mod fuzz;
pub mod generate;
pub mod play;
pub mod record;
pub mod setup;
pub mod shrink;
pub mod write;

pub use setup::{Invalid, Setup, Transcript};
