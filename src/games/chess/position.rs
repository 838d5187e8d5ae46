//! The game state (placement, side to move, castling rights, en passant square, clocks) and
//! how a move changes it.

use super::board::Board;
use super::castling::{self, CastlingRights};
use super::moves::{Move, MoveKind};
use super::types::{Color, Piece, Role, Square};

/// A legal chess position. Every constructor ([`Position::startpos`],
/// [`Position::from_fen`]) checks legality, and [`Position::play`] only accepts legal moves,
/// so a `Position` is always one a game could be in (one king each, side not to move not in
/// check, consistent castling and en passant state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Set after every double pawn step, as FEN writes it; move generation decides whether an
    /// en passant capture is actually possible.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}

/// A move that is not legal in the position it was offered to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move `{uci}` in position {fen}")]
pub struct IllegalMove {
    pub uci: String,
    pub fen: String,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The initial position of a game.
    pub fn startpos() -> Position {
        Position {
            board: Board::standard(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The square skipped by the last move if it was a double pawn step.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Starts at 1 and grows after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        match self.board.king_of(self.turn) {
            Some(king) => self
                .board
                .attackers(king, !self.turn, self.board.occupied())
                .non_empty(),
            None => false,
        }
    }

    /// The legal move from `from` to `to`, with `promotion` naming the new piece for a pawn
    /// reaching the last rank (and `None` otherwise).
    pub fn find_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
        self.legal_moves()
            .into_iter()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
    }

    /// The legal move written in UCI notation (`e2e4`, `e7e8q`, `e1g1`).
    pub fn parse_uci(&self, uci: &str) -> Option<Move> {
        let (from, to) = (uci.get(0..2)?, uci.get(2..4)?);
        let promotion = match uci.get(4..)? {
            "" => None,
            "q" => Some(Role::Queen),
            "r" => Some(Role::Rook),
            "b" => Some(Role::Bishop),
            "n" => Some(Role::Knight),
            _ => return None,
        };
        self.find_move(Square::parse(from)?, Square::parse(to)?, promotion)
    }

    /// Plays `m` if it is legal here; otherwise leaves the position as it was.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove {
                uci: m.uci(),
                fen: self.to_fen(),
            })
        }
    }

    /// Plays a move known to be legal here (one just generated for this position).
    #[inline]
    pub(crate) fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let (from, to) = (m.from(), m.to());
        self.ep_square = None;
        self.halfmove_clock = if m.role() == Role::Pawn || m.is_capture() {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        match m.kind() {
            MoveKind::Normal => {
                if m.is_capture() {
                    self.board.remove(to);
                }
                self.board.relocate(from, to);
            }
            MoveKind::DoublePush => {
                self.board.relocate(from, to);
                self.ep_square = Square::from_coords(from.file(), (from.rank() + to.rank()) / 2);
            }
            MoveKind::EnPassant => {
                if let Some(victim) = Square::from_coords(to.file(), from.rank()) {
                    self.board.remove(victim);
                }
                self.board.relocate(from, to);
            }
            MoveKind::Castle(side) => {
                let path = castling::path(us, side);
                self.board.relocate(path.king_from, path.king_to);
                self.board.relocate(path.rook_from, path.rook_to);
            }
            MoveKind::Promotion(role) => {
                self.board.remove(from);
                if m.is_capture() {
                    self.board.remove(to);
                }
                self.board.put(to, Piece::new(us, role));
            }
        }
        self.castling = self.castling.after_move(from, to);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = !us;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_uci(pos: &mut Position, moves: &[&str]) {
        for uci in moves {
            let m = pos
                .parse_uci(uci)
                .unwrap_or_else(|| panic!("{uci} not legal"));
            pos.play(m).unwrap();
        }
    }

    #[test]
    fn clocks_and_en_passant_square() {
        let mut pos = Position::startpos();
        play_uci(&mut pos, &["e2e4"]);
        assert_eq!(pos.ep_square(), Square::parse("e3"));
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (0, 1));
        play_uci(&mut pos, &["g8f6"]);
        assert_eq!(pos.ep_square(), None);
        assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (1, 2));
    }

    #[test]
    fn illegal_move_leaves_position_untouched() {
        let mut pos = Position::startpos();
        let mut other = Position::startpos();
        play_uci(&mut other, &["e2e4", "e7e5"]);
        let queen_move = other.parse_uci("d1h5").unwrap();
        let before = pos;
        let err = pos.play(queen_move).unwrap_err();
        assert_eq!(err.uci, "d1h5");
        assert_eq!(pos, before);
        assert_eq!(pos.parse_uci("e2e5"), None);
        assert_eq!(pos.parse_uci("e2"), None);
        assert_eq!(pos.parse_uci("e2e4x"), None);
        assert_eq!(pos.parse_uci("é2e4"), None);
    }

    #[test]
    fn castling_moves_the_rook_and_drops_rights() {
        let mut pos =
            Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid FEN");
        play_uci(&mut pos, &["e1g1"]);
        assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        play_uci(&mut pos, &["e8c8"]);
        assert_eq!(pos.to_fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    }

    #[test]
    fn capturing_a_rook_on_its_home_square_removes_that_right() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1").unwrap();
        play_uci(&mut pos, &["g2a8"]);
        assert_eq!(pos.castling_rights().to_fen(), "KQk");
        assert!(pos.parse_uci("e8c8").is_none());
        assert!(pos.parse_uci("e8g8").is_some());
    }

    #[test]
    fn moving_a_rook_away_and_back_loses_the_right() {
        let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        play_uci(&mut pos, &["h1h2", "a8a7", "h2h1", "a7a8"]);
        assert_eq!(pos.castling_rights().to_fen(), "Qk");
        assert!(pos.parse_uci("e1g1").is_none());
    }

    #[test]
    fn promotion_replaces_the_pawn() {
        let mut pos = Position::from_fen("1r5k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let promotions: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.promotion().is_some())
            .map(Move::uci)
            .collect();
        assert_eq!(promotions.len(), 8, "{promotions:?}");
        play_uci(&mut pos, &["a7b8n"]);
        assert_eq!(pos.to_fen(), "1N5k/8/8/8/8/8/8/K7 b - - 0 1");
    }
}
