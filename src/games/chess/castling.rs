//! Castling rights and the fixed squares castling involves in standard chess.

use super::bitboard::Bitboard;
use super::types::{CastlingSide, Color, Square};

/// Which of the four castling moves are still allowed by king and rook history (whether
/// one is playable now is up to move generation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(u8);

const fn bit(color: Color, side: CastlingSide) -> u8 {
    let side_bit = match side {
        CastlingSide::KingSide => 1,
        CastlingSide::QueenSide => 2,
    };
    match color {
        Color::White => side_bit,
        Color::Black => side_bit << 2,
    }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & bit(color, side) != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(crate) const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | bit(color, side))
    }

    /// Rights left after a move from `from` to `to`: moving the king or a rook from its
    /// home square, or capturing on a rook's home square, loses the matching right.
    #[inline]
    pub(crate) fn after_move(self, from: Square, to: Square) -> CastlingRights {
        CastlingRights(self.0 & KEEP[from.index()] & KEEP[to.index()])
    }

    /// FEN notation: a subset of `KQkq` in that order, or `-`.
    pub fn to_fen(self) -> String {
        let text: String = [
            (Color::White, CastlingSide::KingSide, 'K'),
            (Color::White, CastlingSide::QueenSide, 'Q'),
            (Color::Black, CastlingSide::KingSide, 'k'),
            (Color::Black, CastlingSide::QueenSide, 'q'),
        ]
        .into_iter()
        .filter(|&(color, side, _)| self.has(color, side))
        .map(|(_, _, c)| c)
        .collect();
        if text.is_empty() {
            "-".to_string()
        } else {
            text
        }
    }
}

/// Per square, the rights that survive a move touching it.
static KEEP: [u8; 64] = {
    let mut keep = [0b1111u8; 64];
    keep[Square::E1.index()] &=
        !(bit(Color::White, CastlingSide::KingSide) | bit(Color::White, CastlingSide::QueenSide));
    keep[Square::E8.index()] &=
        !(bit(Color::Black, CastlingSide::KingSide) | bit(Color::Black, CastlingSide::QueenSide));
    keep[Square::H1.index()] &= !bit(Color::White, CastlingSide::KingSide);
    keep[Square::A1.index()] &= !bit(Color::White, CastlingSide::QueenSide);
    keep[Square::H8.index()] &= !bit(Color::Black, CastlingSide::KingSide);
    keep[Square::A8.index()] &= !bit(Color::Black, CastlingSide::QueenSide);
    keep
};

/// The squares of one castling move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlingPath {
    pub(crate) king_from: Square,
    pub(crate) king_to: Square,
    pub(crate) rook_from: Square,
    pub(crate) rook_to: Square,
    /// Squares between king and rook, which must be empty.
    pub(crate) must_be_empty: Bitboard,
    /// Squares the king crosses or lands on, which must not be attacked.
    pub(crate) king_crosses: Bitboard,
}

pub(crate) const fn path(color: Color, side: CastlingSide) -> CastlingPath {
    let (king_from, king_to, rook_from, rook_to, empty_mask, crossed_mask) = match side {
        // Files as bit masks within the back rank: b=1<<1 ... g=1<<6.
        CastlingSide::KingSide => (4, 6, 7, 5, 0b0110_0000u64, 0b0110_0000u64),
        CastlingSide::QueenSide => (4, 2, 0, 3, 0b0000_1110u64, 0b0000_1100u64),
    };
    let rank = color.back_rank();
    let shift = 8 * rank as u32;
    CastlingPath {
        king_from: Square::new_masked((rank * 8 + king_from) as u32),
        king_to: Square::new_masked((rank * 8 + king_to) as u32),
        rook_from: Square::new_masked((rank * 8 + rook_from) as u32),
        rook_to: Square::new_masked((rank * 8 + rook_to) as u32),
        must_be_empty: Bitboard(empty_mask << shift),
        king_crosses: Bitboard(crossed_mask << shift),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_are_lost_by_touching_home_squares() {
        let all = CastlingRights::ALL;
        assert_eq!(all.to_fen(), "KQkq");
        let after_rook_capture = all.after_move(Square::A8, Square::H1);
        assert_eq!(after_rook_capture.to_fen(), "Qk");
        assert_eq!(all.after_move(Square::E8, Square::D8).to_fen(), "KQ");
        assert_eq!(CastlingRights::NONE.to_fen(), "-");
    }

    #[test]
    fn paths() {
        let p = path(Color::Black, CastlingSide::QueenSide);
        assert_eq!(
            (p.king_from, p.king_to, p.rook_from, p.rook_to),
            (Square::E8, Square::C8, Square::A8, Square::D8)
        );
        assert_eq!(p.must_be_empty.count(), 3);
        assert!(!p.king_crosses.contains(Square::from_coords(1, 7).unwrap()));
    }
}
