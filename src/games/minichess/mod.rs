//! miniChess (hexapawn on an `n x n` board): reference rules, players and a perfect solver.
//!
//! - `board`: the validated [`Board`] and [`Color`];
//! - `rules`: [`Move`] generation in a documented order, applying moves, the win conditions;
//! - `render`: text grids for reports;
//! - `eval`, `alphabeta`, `players`: players of graded strength behind [`Player`];
//! - `solver`: the game-theoretic value of a position;
//! - `game`: whole games between two players;
//! - `dialect`, `notation`, `session`, `chooser`, `explain`, `adapter.py`: the call protocol of
//!   the handout's two functions (specs/minichess/PROTOCOL.md), its reference and its reports;
//! - `matches`: a submission playing whole games against the players above.

mod alphabeta;
mod battery;
mod bits;
mod board;
mod chooser;
mod color;
pub mod dialect;
mod eval;
mod events;
mod explain;
mod functions;
mod game;
pub mod matches;
pub mod notation;
mod parts;
mod player;
mod players;
mod render;
mod rule_named;
mod rules;
mod session;
mod slices;
mod solver;

#[cfg(test)]
mod tests;

pub use alphabeta::{best_move, AlphaBetaPlayer};
pub use board::{Board, BoardError, Color, EMPTY, MAX_SIZE, MIN_SIZE};
pub use chooser::ReferenceChooser;
pub use eval::evaluate;
pub use game::{play_game, EndReason, GameRecord};
pub use players::{GreedyPlayer, PerfectPlayer, Player, RandomPlayer};
pub use render::render_grid;
pub use rules::{Move, MoveError, Status, Win, WinReason};
pub use solver::{Solution, SolveError, Solver, SolverStats, Value};

use std::borrow::Cow;

use crate::games::matches::MatchPlay;
use crate::games::{BoardReader, Dialect, DivergentStep, Game, RuleEvent};

/// The game's name on the command line and in scenario files.
pub const NAME: &str = "minichess";

/// The game `minichess`.
pub struct MiniChess;

impl Game for MiniChess {
    fn name(&self) -> &'static str {
        NAME
    }

    fn dialects(&self) -> &'static [Dialect] {
        &dialect::DIALECTS
    }

    fn match_play(&self) -> Option<&dyn MatchPlay> {
        Some(&matches::MiniChessMatches)
    }

    /// Answers are one-line lists, explained by `explain` rather than compared cell by
    /// cell; a line holding one board is read for pictures.
    fn board_reader(&self) -> &dyn BoardReader {
        &render::MiniChessBoards
    }

    /// A list of boards is compared as a multiset: its boards are sorted (duplicates stay).
    /// Boards and lists are rewritten in the protocol's spacing, so only their values count.
    fn normalize_line<'a>(&self, _dialect: &Dialect, line: &'a str) -> Cow<'a, str> {
        let rewritten = if let Some(mut boards) = notation::read_rows_list(line) {
            boards.sort();
            notation::rows_list_text(&boards)
        } else if let Some(rows) = notation::read_rows(line) {
            notation::rows_text(&rows)
        } else {
            return Cow::Borrowed(line);
        };
        if rewritten == line {
            Cow::Borrowed(line)
        } else {
            Cow::Owned(rewritten)
        }
    }

    fn rule_events(&self) -> &'static [RuleEvent] {
        events::Event::ALL
    }

    fn explain(&self, step: &DivergentStep<'_>) -> Vec<String> {
        match dialect::functions(step.dialect.name) {
            Some(functions) => {
                let sent = step.sent.last().copied().unwrap_or("");
                explain::explain(functions, sent, step.expected, step.actual)
            }
            None => Vec::new(),
        }
    }
}
