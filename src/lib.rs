//! boardgrade: reference engines, scenario harness and grader for board-game assignments.
//!
//! The library never prints: commands build a [`harness`] run whose events go to a
//! [`report`] chosen by the caller.
//!
//! Layers, each module using only those on its own line or above (checked by
//! `tests/architecture.rs`):
//! 1. `error`, `verdict`, `points`, `rng`, `shrink`, `cancel`, `pool`, `atomic`, `bundled`: base.
//! 2. `compare`, `policy`: comparing output, and the course-policy vocabulary.
//! 3. `execution`: running student code, told what to lay out as plain data.
//! 4. `games`: each game behind the `Game` trait, its dialects and the course variants.
//! 5. `scenario`: scenario files, and the course files beside them.
//! 6. `harness`: running scenarios and judging outcomes.
//! 7. `grade`, `author`: grading classes, and writing scenarios.
//! 8. `report`: every output, from the events and results above.
//! 9. `package`: autograder packages.
//! 10. `cli` (the binary's), `toy_game` (the toy game's end-to-end tests).

pub mod atomic;
pub mod author;
pub mod bundled;
pub mod cancel;
pub mod compare;
pub mod error;
pub mod execution;
pub mod games;
pub mod grade;
pub mod harness;
pub mod package;
pub mod points;
pub mod policy;
pub mod pool;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod shrink;
#[cfg(test)]
mod toy_game;
pub mod verdict;

pub use error::{Error, Result};
