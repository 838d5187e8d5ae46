//! Legal move generation. Moves are produced legal from the start (no make-and-test):
//! the king steps only to unattacked squares, in check the other pieces may only capture
//! the checker or block, pinned pieces stay on their pin line, and en passant, whose two
//! vanishing pawns can expose the king in ways pins do not describe, is tested by replaying
//! the occupancy change.
//!
//! Generation writes into a [`MoveSink`], so the same code fills a list, calls a closure per
//! move, or only counts (perft's last ply counts whole target sets at once).

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use super::bitboard::Bitboard;
use super::board::Board;
use super::castling;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::types::{CastlingSide, Color, Piece, Role, Square};

/// Receives generated moves.
pub(crate) trait MoveSink {
    fn push(&mut self, m: Move);

    /// Plain moves of the `role` on `from` to each square of `targets`.
    #[inline]
    fn push_targets(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(
                role,
                from,
                to,
                board.role_at(to),
                MoveKind::Normal,
            ));
        }
    }

    /// Non-promoting pawn moves to each square of `targets`, each from the square `delta`
    /// behind it.
    #[inline]
    fn push_pawn_moves(&mut self, board: &Board, targets: Bitboard, delta: i8, kind: MoveKind) {
        for to in targets {
            let from = origin(to, delta);
            self.push(Move::new(Role::Pawn, from, to, board.role_at(to), kind));
        }
    }

    /// The four promotions of the pawn moves to each square of `targets`.
    #[inline]
    fn push_promotions(&mut self, board: &Board, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = origin(to, delta);
            for role in Role::PROMOTIONS {
                self.push(Move::new(
                    Role::Pawn,
                    from,
                    to,
                    board.role_at(to),
                    MoveKind::Promotion(role),
                ));
            }
        }
    }
}

#[inline]
fn origin(to: Square, delta: i8) -> Square {
    Square::new_masked((to.index() as i32 - delta as i32) as u32)
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// Counts moves without building them.
#[derive(Default)]
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_targets(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn push_pawn_moves(&mut self, _: &Board, targets: Bitboard, _: i8, _: MoveKind) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn push_promotions(&mut self, _: &Board, targets: Bitboard, _: i8) {
        self.0 += 4 * u64::from(targets.count());
    }
}

/// Calls a closure for each move.
pub(crate) struct ForEach<F>(pub(crate) F);

impl<F: FnMut(Move)> MoveSink for ForEach<F> {
    #[inline]
    fn push(&mut self, m: Move) {
        (self.0)(m);
    }
}

impl Position {
    /// Every legal move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        moves
    }

    /// Number of legal moves.
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate(&mut counter);
        counter.0
    }

    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S) {
        let Some(king) = self.board.king_of(self.turn) else {
            return;
        };
        let gen = Generator::new(self, king);
        gen.king_steps(sink);
        if gen.checkers.more_than_one() {
            return;
        }
        let target = match gen.checkers.first() {
            Some(checker) => between(king, checker) | Bitboard::from_square(checker),
            None => {
                gen.castling(sink);
                !gen.ours
            }
        };
        gen.pieces(sink, target);
        gen.pawns(sink, target);
        gen.en_passant(sink);
    }
}

/// Per-position facts shared by the generation steps.
struct Generator<'a> {
    pos: &'a Position,
    board: &'a Board,
    us: Color,
    them: Color,
    king: Square,
    ours: Bitboard,
    occupied: Bitboard,
    checkers: Bitboard,
    pinned: Bitboard,
}

impl<'a> Generator<'a> {
    #[inline]
    fn new(pos: &'a Position, king: Square) -> Generator<'a> {
        let board = &pos.board;
        let us = pos.turn;
        let them = !us;
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let checkers = board.attackers(king, them, occupied);
        Generator {
            pos,
            board,
            us,
            them,
            king,
            ours,
            occupied,
            checkers,
            pinned: pinned(board, king, us, occupied),
        }
    }

    #[inline]
    fn attacked(&self, sq: Square, occupied: Bitboard) -> bool {
        self.board.attackers(sq, self.them, occupied).non_empty()
    }

    fn king_steps<S: MoveSink>(&self, sink: &mut S) {
        // Without the king, so a slider's ray continues past it: stepping back along the
        // line of a check is not an escape.
        let occupied = self.occupied ^ Bitboard::from_square(self.king);
        for to in king_attacks(self.king) & !self.ours {
            if !self.attacked(to, occupied) {
                sink.push(Move::new(
                    Role::King,
                    self.king,
                    to,
                    self.board.role_at(to),
                    MoveKind::Normal,
                ));
            }
        }
    }

    fn castling<S: MoveSink>(&self, sink: &mut S) {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if !self.pos.castling.has(self.us, side) {
                continue;
            }
            let path = castling::path(self.us, side);
            let playable = path.king_from == self.king
                && self.board.piece_at(path.rook_from) == Some(Piece::new(self.us, Role::Rook))
                && (self.occupied & path.must_be_empty).is_empty()
                && !path
                    .king_crosses
                    .into_iter()
                    .any(|sq| self.attacked(sq, self.occupied));
            if playable {
                sink.push(Move::new(
                    Role::King,
                    self.king,
                    path.king_to,
                    None,
                    MoveKind::Castle(side),
                ));
            }
        }
    }

    /// Knights, bishops, rooks and queens.
    fn pieces<S: MoveSink>(&self, sink: &mut S, target: Bitboard) {
        for from in self.board.pieces(self.us, Role::Knight) & !self.pinned {
            sink.push_targets(
                self.board,
                Role::Knight,
                from,
                knight_attacks(from) & target,
            );
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.board.pieces(self.us, role) {
                let attacks = match role {
                    Role::Bishop => bishop_attacks(from, self.occupied),
                    Role::Rook => rook_attacks(from, self.occupied),
                    _ => queen_attacks(from, self.occupied),
                };
                let mut targets = attacks & target;
                if self.pinned.contains(from) {
                    targets &= line(self.king, from);
                }
                sink.push_targets(self.board, role, from, targets);
            }
        }
    }

    fn pawns<S: MoveSink>(&self, sink: &mut S, target: Bitboard) {
        let pawns = self.board.pieces(self.us, Role::Pawn);
        self.pawn_group(sink, pawns & !self.pinned, target);
        for from in pawns & self.pinned {
            self.pawn_group(
                sink,
                Bitboard::from_square(from),
                target & line(self.king, from),
            );
        }
    }

    /// Pushes and captures of a set of pawns that may all move to `target`.
    fn pawn_group<S: MoveSink>(&self, sink: &mut S, pawns: Bitboard, target: Bitboard) {
        let (forward, last_rank, double_step_rank) = match self.us {
            Color::White => (8i8, Bitboard::rank(7), Bitboard::rank(3)),
            Color::Black => (-8i8, Bitboard::rank(0), Bitboard::rank(4)),
        };
        let empty = !self.occupied;
        let single = pawns.shift(forward) & empty;
        let double = single.shift(forward) & empty & double_step_rank & target;
        let single = single & target;
        sink.push_pawn_moves(self.board, single & !last_rank, forward, MoveKind::Normal);
        sink.push_promotions(self.board, single & last_rank, forward);
        sink.push_pawn_moves(self.board, double, 2 * forward, MoveKind::DoublePush);

        let theirs = self.board.by_color(self.them);
        // Towards the a-file a step must not wrap onto the h-file, and the other way round.
        for (delta, no_wrap) in [
            (forward - 1, !Bitboard::FILE_H),
            (forward + 1, !Bitboard::FILE_A),
        ] {
            let captures = pawns.shift(delta) & no_wrap & theirs & target;
            sink.push_pawn_moves(self.board, captures & !last_rank, delta, MoveKind::Normal);
            sink.push_promotions(self.board, captures & last_rank, delta);
        }
    }

    fn en_passant<S: MoveSink>(&self, sink: &mut S) {
        let Some(ep) = self.pos.ep_square else {
            return;
        };
        for from in pawn_attacks(self.them, ep) & self.board.pieces(self.us, Role::Pawn) {
            let Some(victim) = Square::from_coords(ep.file(), from.rank()) else {
                continue;
            };
            if self.en_passant_is_safe(from, ep, victim) {
                sink.push(Move::new(
                    Role::Pawn,
                    from,
                    ep,
                    Some(Role::Pawn),
                    MoveKind::EnPassant,
                ));
            }
        }
    }

    /// Whether our king is safe once the pawn on `from` has taken `victim` by moving to
    /// `to`. Covers the pawn being pinned, the capture resolving (or not) a check, and the
    /// two pawns leaving a rank together with a rook or queen behind them.
    fn en_passant_is_safe(&self, from: Square, to: Square, victim: Square) -> bool {
        let victim_bb = Bitboard::from_square(victim);
        let occupied =
            (self.occupied ^ Bitboard::from_square(from) ^ victim_bb) | Bitboard::from_square(to);
        let theirs = self.board.by_color(self.them) & !victim_bb;
        let board = self.board;
        let attackers = (rook_attacks(self.king, occupied) & board.rook_sliders())
            | (bishop_attacks(self.king, occupied) & board.bishop_sliders())
            | (knight_attacks(self.king) & board.by_role(Role::Knight))
            | (pawn_attacks(self.us, self.king) & board.by_role(Role::Pawn));
        (attackers & theirs).is_empty()
    }
}

/// Our pieces that are the only piece between our king and an enemy slider aiming at it.
fn pinned(board: &Board, king: Square, us: Color, occupied: Bitboard) -> Bitboard {
    let snipers = ((rook_attacks(king, Bitboard::EMPTY) & board.rook_sliders())
        | (bishop_attacks(king, Bitboard::EMPTY) & board.bishop_sliders()))
        & board.by_color(!us);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers;
        }
    }
    pinned & board.by_color(us)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut list: Vec<String> = pos.legal_moves().iter().map(Move::uci).collect();
        list.sort();
        assert_eq!(pos.count_legal_moves(), list.len() as u64);
        list
    }

    #[test]
    fn en_passant_is_refused_when_both_pawns_leave_the_kings_rank() {
        // After ...d7-d5 the white pawn on e5 could take on d6, but that would clear the
        // fifth rank between the king on a5 and the rook on h5.
        let list = moves("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2");
        assert!(!list.contains(&"e5d6".to_string()), "{list:?}");
        let list = moves("8/8/8/K2pP3/8/8/8/7k w - d6 0 2");
        assert!(list.contains(&"e5d6".to_string()), "{list:?}");
    }

    #[test]
    fn en_passant_only_right_after_the_double_step() {
        assert!(moves("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").contains(&"e5d6".to_string()));
        assert!(!moves("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2").contains(&"e5d6".to_string()));
    }

    #[test]
    fn en_passant_can_capture_a_checking_pawn() {
        // The pawn that just stepped to d5 gives check; taking it en passant is an evasion.
        let list = moves("8/8/8/2Pp4/4K3/8/8/7k w - d6 0 2");
        assert!(list.contains(&"c5d6".to_string()), "{list:?}");
    }

    #[test]
    fn pinned_pieces_stay_on_the_pin_line() {
        // A bishop pinned on the e-file cannot move; a rook pinned there slides along it.
        let list = moves("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1");
        assert!(list.iter().all(|m| !m.starts_with("e2")), "{list:?}");
        let list = moves("4r2k/8/8/8/4R3/8/8/4K3 w - - 0 1");
        let rook: Vec<&String> = list.iter().filter(|m| m.starts_with("e4")).collect();
        assert_eq!(rook, ["e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8"]);
    }

    #[test]
    fn castling_needs_empty_and_unattacked_squares() {
        // Rook f8 covers f1: no king-side castling; b1 attacked does not stop 0-0-0.
        let list = moves("1r1k1r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!list.contains(&"e1g1".to_string()));
        assert!(list.contains(&"e1c1".to_string()));
        // In check: no castling at all.
        let list = moves("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!list.iter().any(|m| m == "e1g1" || m == "e1c1"));
        // A piece between king and rook.
        let list = moves("3k4/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
        assert!(!list.contains(&"e1c1".to_string()));
        assert!(list.contains(&"e1g1".to_string()));
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        // Rook a1 and bishop b4 both check; the knight could take the rook but may not.
        let list = moves("4k3/8/8/8/1b6/1N6/8/r3K3 w - - 0 1");
        assert!(list.iter().all(|m| m.starts_with("e1")), "{list:?}");
    }
}
