//! The games: one folder per game, each behind the `Game` trait.
pub mod chess;
pub mod minichess;
pub mod one_d_chess;
pub mod pown_chess;
