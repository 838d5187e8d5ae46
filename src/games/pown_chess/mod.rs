//! Pown chess (seed 002): the reference engine of the `pown-chess/pown` dialect.
//!
//! The dialect follows the program protocol: the student's whole program is the game, so the
//! reference is [`PownProgram`], a state machine that prints exactly what a correct student
//! program prints. The rules live in [`Board`]; `specs/pown-chess/PROTOCOL.md` documents the
//! protocol and the rule decisions.

mod battery;
mod board;
mod dialect;
mod events;
mod functions;
mod lenient;
mod messages;
mod options;
mod policy;
mod program;
mod render;
mod shortest;
mod square;

pub use board::{Board, InvalidMove, MoveOutcome, SetupError};
pub use dialect::{PownBoards, PownChess};
pub use lenient::{canonical_line, lenient_alternatives};
pub use messages::{GAME_OVER, INVALID_MOVE, TIE};
pub use options::{BoardSize, CountOrder, CounterPlace, OptionsError, PownOptions};
pub use program::{end_of_game, transcript, PownProgram};
pub use render::{board_width, center, display_board, render_grid};
pub use square::{Color, Square};
