//! A set of squares packed into a `u64` (bit `i` is the square with index `i`).

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bitboard(pub(crate) u64);

impl Bitboard {
    pub(crate) const EMPTY: Bitboard = Bitboard(0);
    pub(crate) const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub(crate) const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub(crate) const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

    pub(crate) const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of a rank (`0` = rank 1).
    pub(crate) const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * (rank as u32 & 7)))
    }

    pub(crate) const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(crate) const fn non_empty(self) -> bool {
        self.0 != 0
    }

    pub(crate) const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub(crate) const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square in the set.
    pub(crate) const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(self.0.trailing_zeros()))
        }
    }

    /// The set shifted by a whole square offset (`+8` = one rank up, `+1` = one file
    /// right); the caller masks out squares that wrapped around the board's edge.
    pub(crate) const fn shift(self, delta: i8) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta as u32)
        } else {
            Bitboard(self.0 >> (-delta) as u32)
        }
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

/// Iterates the squares of a set from a1 upwards.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_and_counts() {
        let bb = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::H8);
        assert_eq!(bb.count(), 2);
        assert!(bb.more_than_one());
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::A1, Square::H8]);
        assert!(!Bitboard::from_square(Square::E1).more_than_one());
        assert_eq!(Bitboard::rank(0).shift(8), Bitboard::rank(1));
        assert_eq!(Bitboard::rank(7).shift(8), Bitboard::EMPTY);
        assert_eq!(Bitboard::rank(1).shift(-8), Bitboard::rank(0));
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
        assert!(!Bitboard::LIGHT_SQUARES.contains(Square::A1));
    }
}
