//! miniChess (hexapawn on an `n x n` board): reference rules, players and a perfect solver.
//!
//! - `board`: the validated [`Board`] and [`Color`];
//! - `rules`: [`Move`] generation in a documented order, applying moves, the win conditions;
//! - `render`: text grids for reports;
//! - `eval`, `alphabeta`, `players`: players of graded strength behind [`Player`];
//! - `solver`: the game-theoretic value of a position;
//! - `game`: whole games between two players.

mod alphabeta;
mod bits;
mod board;
mod eval;
mod game;
mod players;
mod render;
mod rules;
mod solver;

#[cfg(test)]
mod tests;

pub use alphabeta::{best_move, AlphaBetaPlayer};
pub use board::{Board, BoardError, Color, EMPTY, MAX_SIZE, MIN_SIZE};
pub use eval::evaluate;
pub use game::{play_game, EndReason, GameRecord};
pub use players::{GreedyPlayer, PerfectPlayer, Player, RandomPlayer};
pub use render::render_grid;
pub use rules::{Move, MoveError, Status, Win, WinReason};
pub use solver::{Solution, SolveError, Solver, SolverStats, Value};
