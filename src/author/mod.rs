//! Authoring scenarios with the reference engines as the oracle: record a transcript
//! ([`record`]), rewrite expectations ([`bless`]), generate random games ([`generate`]),
//! hunt for a submission's first wrong answer and shrink it ([`fuzz`], [`shrink`]), play in
//! a terminal ([`play`]), find the variants to name ([`variants`]), check the chess
//! engine's move counts ([`perft`]) and measure which rules the scenarios reach
//! ([`coverage`]). Scenario files are written by [`write`]; [`engine`]
//! serves a reference session over any pair of streams.
//!
//! Like the rest of the library, nothing here prints: each command returns data (and file
//! texts) or tells events, which `report::author` renders.

pub mod bless;
pub mod coverage;
pub mod engine;
pub mod fuzz;
pub mod generate;
pub mod perft;
pub mod play;
pub mod record;
pub mod setup;
pub use crate::shrink;
pub mod variants;
pub mod write;

pub use setup::{Invalid, Setup, Transcript};
