//! boardgrade: reference engines, scenario harness and grader for board-game assignments.
pub mod games;
pub mod rng;
