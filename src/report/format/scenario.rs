//! One scenario's result and a run's totals, as the JSON formats publish them: the
//! harness's own types, defined once ([`Outcome`], [`Summary`]) and published under these
//! names.

pub use crate::harness::{Outcome as ScenarioResult, Summary as Totals};
