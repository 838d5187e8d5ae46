//! How a game ends: checkmate and stalemate from the rules of play, and the draw rules
//! (insufficient material, fifty moves, threefold repetition) that a game may apply.

use super::bitboard::Bitboard;
use super::board::Board;
use super::castling::CastlingRights;
use super::position::Position;
use super::types::{Color, Role, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Checkmate { winner: Color },
    Draw(DrawReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Stalemate,
    InsufficientMaterial,
    FiftyMoves,
    ThreefoldRepetition,
}

impl Position {
    /// Checkmate or stalemate when the side to move has no legal move; `None` otherwise.
    /// The optional draw rules are separate: [`Position::is_insufficient_material`],
    /// [`Position::is_fifty_move_draw`] and [`Repetitions`].
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() > 0 {
            None
        } else if self.is_check() {
            Some(Outcome::Checkmate {
                winner: !self.turn(),
            })
        } else {
            Some(Outcome::Draw(DrawReason::Stalemate))
        }
    }

    /// Neither side can ever mate: only kings, plus either a single knight or bishop, or
    /// any number of bishops that all stand on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let board = &self.board;
        let heavy =
            board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
        if heavy.non_empty() {
            return false;
        }
        let knights = board.by_role(Role::Knight);
        let bishops = board.by_role(Role::Bishop);
        let minors = (knights | bishops).count();
        let bishops_one_colour = (bishops & Bitboard::LIGHT_SQUARES).is_empty()
            || (bishops & !Bitboard::LIGHT_SQUARES).is_empty();
        minors <= 1 || (knights.is_empty() && bishops_one_colour)
    }

    /// Fifty moves by each side without a capture or pawn move.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock() >= 100
    }

    /// What makes two positions "the same" for repetition: placement, side to move,
    /// castling rights, and the en passant square only when a capture there is legal.
    pub fn repetition_key(&self) -> PositionKey {
        let ep_square = self
            .ep_square
            .filter(|_| self.legal_moves().iter().any(|m| m.is_en_passant()));
        PositionKey {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square,
        }
    }
}

/// See [`Position::repetition_key`]. Compared exactly, so there are no hash collisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
}

/// The positions of a game since its last capture or pawn move, for threefold repetition.
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    keys: Vec<PositionKey>,
}

impl Repetitions {
    /// A history holding only `start`.
    pub fn new(start: &Position) -> Repetitions {
        let mut history = Repetitions::default();
        history.record(start);
        history
    }

    /// Adds the position reached by a move. A capture or pawn move (clock back at zero)
    /// makes every earlier position unreachable, so those are forgotten.
    pub fn record(&mut self, pos: &Position) {
        if pos.halfmove_clock() == 0 {
            self.keys.clear();
        }
        self.keys.push(pos.repetition_key());
    }

    /// How often the last recorded position has occurred.
    pub fn current_count(&self) -> usize {
        match self.keys.last() {
            Some(last) => self.keys.iter().filter(|k| *k == last).count(),
            None => 0,
        }
    }

    /// The last recorded position has occurred at least three times.
    pub fn is_threefold(&self) -> bool {
        self.current_count() >= 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid FEN")
    }

    #[test]
    fn checkmate_and_stalemate() {
        // Fool's mate.
        let mut p = Position::startpos();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = p.parse_uci(uci).unwrap();
            p.play(m).unwrap();
        }
        assert!(p.is_check());
        assert_eq!(
            p.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert!(!stalemate.is_check());
        assert_eq!(
            stalemate.outcome(),
            Some(Outcome::Draw(DrawReason::Stalemate))
        );
        assert_eq!(Position::startpos().outcome(), None);
        // In check but not mate.
        assert_eq!(pos("7k/8/8/8/8/8/8/K6R b - - 0 1").outcome(), None);
    }

    #[test]
    fn insufficient_material() {
        assert!(pos("8/8/8/8/8/8/8/K6k w - - 0 1").is_insufficient_material());
        assert!(pos("8/8/8/8/8/8/8/KN5k w - - 0 1").is_insufficient_material());
        assert!(pos("8/8/8/8/8/8/8/KB5k w - - 0 1").is_insufficient_material());
        // b1 and g8 are both light squares; f8 is dark.
        assert!(pos("6b1/8/8/8/8/8/8/KB5k w - - 0 1").is_insufficient_material());
        assert!(!pos("5b2/8/8/8/8/8/8/KB5k w - - 0 1").is_insufficient_material());
        assert!(!pos("8/8/8/8/8/8/8/KNN4k w - - 0 1").is_insufficient_material());
        assert!(!pos("8/8/8/8/8/8/P7/K6k w - - 0 1").is_insufficient_material());
        assert!(!Position::startpos().is_insufficient_material());
    }

    #[test]
    fn fifty_moves() {
        assert!(!pos("7k/8/8/8/8/8/8/KR6 w - - 99 80").is_fifty_move_draw());
        assert!(pos("7k/8/8/8/8/8/8/KR6 w - - 100 80").is_fifty_move_draw());
    }

    #[test]
    fn threefold_repetition_by_knight_shuffles() {
        let mut p = Position::startpos();
        let mut history = Repetitions::new(&p);
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for (i, uci) in shuffle.iter().cycle().take(8).enumerate() {
            let m = p.parse_uci(uci).unwrap();
            p.play(m).unwrap();
            history.record(&p);
            assert_eq!(history.is_threefold(), i == 7, "after move {}", i + 1);
        }
        assert_eq!(history.current_count(), 3);
    }

    #[test]
    fn en_passant_square_counts_only_when_capturable() {
        // After e2e4 no black pawn can take en passant: same key as with no ep square.
        let with_ep = pos("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
        let without = pos("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(with_ep.repetition_key(), without.repetition_key());
        let capturable = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
        let not_now = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
        assert_ne!(capturable.repetition_key(), not_now.repetition_key());
    }
}
