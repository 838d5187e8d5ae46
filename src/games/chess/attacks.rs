//! Attack sets: leaper tables and square-pair geometry computed at compile time, sliding
//! attacks through the magic tables.

use super::bitboard::Bitboard;
use super::magic;
use super::rays::{slide, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use super::types::{Color, Square};

const KNIGHT_DELTAS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let from = Square::new_masked(sq);
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            if let Some(to) = from.offset(deltas[i].0, deltas[i].1) {
                bits |= 1 << to.index();
            }
            i += 1;
        }
        table[sq as usize] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// `[between, line]` for every ordered pair of squares; see [`between`] and [`line`].
const fn pair_tables() -> [[[Bitboard; 64]; 64]; 2] {
    let mut tables = [[[Bitboard::EMPTY; 64]; 64]; 2];
    let all_directions = [ROOK_DIRECTIONS, BISHOP_DIRECTIONS];
    let mut a = 0;
    while a < 64 {
        let from = Square::new_masked(a);
        let mut family = 0;
        while family < 2 {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = all_directions[family][d];
                let full_line = slide(from, &[(df, dr), (-df, -dr)], 0) | (1 << a);
                let mut passed = 0u64;
                let mut current = from;
                while let Some(next) = current.offset(df, dr) {
                    tables[0][a as usize][next.index()] = Bitboard(passed);
                    tables[1][a as usize][next.index()] = Bitboard(full_line);
                    passed |= 1 << next.index();
                    current = next;
                }
                d += 1;
            }
            family += 1;
        }
        a += 1;
    }
    tables
}

static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_DELTAS);
static KING: [Bitboard; 64] = leaper_table(&KING_DELTAS);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];
static PAIRS: [[[Bitboard; 64]; 64]; 2] = pair_tables();

#[inline]
pub(crate) fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline]
pub(crate) fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub(crate) fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline]
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::rook_attacks(sq, occupied)
}

#[inline]
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::bishop_attacks(sq, occupied)
}

#[inline]
pub(crate) fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; empty
/// otherwise.
#[inline]
pub(crate) fn between(a: Square, b: Square) -> Bitboard {
    PAIRS[0][a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge); empty when they
/// are not aligned or equal.
#[inline]
pub(crate) fn line(a: Square, b: Square) -> Bitboard {
    PAIRS[1][a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn set(squares: &[&str]) -> Bitboard {
        squares
            .iter()
            .fold(Bitboard::EMPTY, |bb, s| bb | Bitboard::from_square(sq(s)))
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")), set(&["b3", "c2"]));
        assert_eq!(king_attacks(sq("h8")), set(&["g8", "g7", "h7"]));
        assert_eq!(pawn_attacks(Color::White, sq("a2")), set(&["b3"]));
        assert_eq!(pawn_attacks(Color::Black, sq("e7")), set(&["d6", "f6"]));
    }

    #[test]
    fn geometry() {
        assert_eq!(between(sq("a1"), sq("d4")), set(&["b2", "c3"]));
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("c1"), sq("f1")), Bitboard::rank(0));
        assert!(line(sq("b2"), sq("c3")).contains(sq("h8")));
        assert!(line(sq("b2"), sq("c3")).contains(sq("a1")));
    }

    #[test]
    fn sliders_match_the_slow_reference() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..2000 {
            let s = Square::new_masked(rng.below(64) as u32);
            let occ = rng.next_u64() & rng.next_u64();
            assert_eq!(
                rook_attacks(s, Bitboard(occ)).0,
                slide(s, &ROOK_DIRECTIONS, occ)
            );
            assert_eq!(
                bishop_attacks(s, Bitboard(occ)).0,
                slide(s, &BISHOP_DIRECTIONS, occ)
            );
        }
    }
}
