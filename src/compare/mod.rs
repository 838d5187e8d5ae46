//! Comparing output with expectations: patterns ([`pattern`]), matching a whole output
//! stream step by step ([`matcher`]), and text made readable for reports ([`visible`]).

pub mod framed;
pub mod matcher;
pub mod mode;
pub mod pattern;
pub mod reads;
pub mod visible;

pub use matcher::{later_mismatches, match_split, match_steps, prepare, Mismatch};
pub use mode::{CompareMode, ExtraLines};
pub use pattern::{Segment, StepPattern};
