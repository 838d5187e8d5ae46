//! Full chess: the reference engine (bitboard move generation, FEN, perft, game-end
//! rules) and the `ChessLogic` semantics of the `ecs198f` dialect.

mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod epd;
mod fen;
mod logic;
mod magic;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
mod position;
mod types;

pub use castling::CastlingRights;
pub use fen::FenError;
pub use logic::{ChessLogic, ChessOptions};
pub use moves::Move;
pub use outcome::{DrawReason, Outcome, PositionKey, Repetitions};
pub use position::{IllegalMove, Position};
pub use types::{CastlingSide, Color, Piece, Role, Square};
