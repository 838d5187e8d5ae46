//! boardgrade: reference engines, scenario harness and grader for board-game assignments.
//!
//! The library never prints: commands build a [`harness`] run whose events go to a
//! [`report`] chosen by the caller.

pub mod atomic;
pub mod author;
pub mod cancel;
pub mod compare;
pub mod error;
pub mod execution;
pub mod games;
pub mod grade;
pub mod harness;
pub mod package;
pub mod policy;
pub mod pool;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod variant;
pub mod verdict;

pub use error::{Error, Result};
