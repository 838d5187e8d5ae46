//! Sliding-piece attacks by "fancy" magic bitboards: for each square the relevant
//! blockers are multiplied by a constant whose top bits index a table of precomputed attack
//! sets. The constants are this engine's own: for each square, candidates were drawn as
//! the AND of three `crate::rng::Rng` outputs (seed `0x5EED_CAFE`, squares a1 to h8, rooks
//! then bishops) until one mapped every blocker set without a harmful collision. The test
//! below checks exactly that property for every embedded constant.

use super::bitboard::Bitboard;
use super::rays::{slide, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use super::types::Square;
use std::sync::LazyLock;

#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x008000A040048010, 0x1240006000D00040, 0x8100200100400810, 0x82000410400A0160,
    0x008022800C000800, 0xA200260004010810, 0x0500050002002084, 0x5200002400448201,
    0x40458000C0012184, 0x0200802000844000, 0x0501001341002000, 0xA442001089220240,
    0x0809000408021100, 0x0002008410420028, 0x0082808081000200, 0x004600020040A411,
    0x164010800081604A, 0x0C40404001A01008, 0x0000410020010090, 0x0850808050022800,
    0x8240310008004500, 0x8014818014000200, 0x0240040022081041, 0x4008120020804409,
    0x0228208080064002, 0x4001C00040201000, 0x0254100280200880, 0x5000100100086100,
    0x3023000500100800, 0x8300020080800400, 0x4000182400420350, 0x0044064A00009104,
    0x0180002004400040, 0x0040400090802001, 0x0400801000802002, 0x0C04811004800800,
    0x0081080080800400, 0x0021800400801A00, 0x0000080204001001, 0x0108010062000084,
    0x0048400024808001, 0x2020C02010004000, 0x0220002031010040, 0x2008081200220040,
    0x4314004080080800, 0x020200882C020011, 0x2111288611040010, 0x0002408400420001,
    0x0008204000800080, 0x0002401484200580, 0x4001600481100080, 0x2012100028008080,
    0x0001000410280100, 0x0064001008200401, 0x0048305102080400, 0x0200041108804200,
    0x00800028C1008111, 0xC084204000110081, 0x8001002000340841, 0x0800210098151001,
    0x0801000408000291, 0x4003000804000203, 0x8000208801161014, 0x1000040110238042,
];

#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x00C1020405408500, 0x00104200C1020010, 0x0204086485010104, 0x034404009020A810,
    0x00011040890240C0, 0x080201100A000040, 0x0003008820184080, 0x8002004048041101,
    0x0000121010050044, 0x00235010115504A0, 0x0002100404D0C040, 0x0000090C09002001,
    0x4000140C20020000, 0x0040008804400000, 0x0404008808082440, 0x0610412084442040,
    0x0088004008110440, 0x0C28013102258400, 0x0882001404001200, 0x300800292080A000,
    0x0D0A100401200000, 0x0282200410082800, 0x9102A02048080880, 0x0000A20105031022,
    0x1084400120022408, 0x0008208806840100, 0x00640A0004080110, 0x4001004004040036,
    0x3401010002F14004, 0x10828A2042021000, 0x412242028C010701, 0x4002008441440089,
    0x0101700800408804, 0x4004060200095000, 0x0000202808040800, 0x0002A02060080080,
    0x0040088020020202, 0x00010A0280080804, 0x600218014019044A, 0x94011A008800A401,
    0x8464100884040A48, 0x0004070B08081000, 0x0000402410004100, 0x4208104010400200,
    0xA004080100408C00, 0x0152081005201100, 0x0220840400800040, 0x9001020400442101,
    0x0002089018090014, 0x0841010510A20001, 0x00C0208048080000, 0x0CC1002084040220,
    0x2002402002540008, 0x0040081011021000, 0x052410BC08208000, 0x8220014102088000,
    0x00E20140480808D1, 0x4010450090846000, 0x0200905042280400, 0x34802000328C1400,
    0x04504882100A0881, 0x0414000803A80600, 0x0800040848683080, 0x0228A004004A0020,
];

/// Lookup parameters of one square for one kind of slider.
#[derive(Clone, Copy, Default)]
struct Entry {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

impl Entry {
    #[inline]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset + ((occupied.0 & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
    }
}

struct Tables {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    attacks: Vec<Bitboard>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The squares whose occupancy matters for a slider on `sq`: its rays without the last
/// square of each (a piece there cannot block anything further).
pub(crate) const fn relevant_mask(sq: Square, directions: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < directions.len() {
        let (df, dr) = directions[i];
        let mut current = sq;
        while let Some(next) = current.offset(df, dr) {
            if next.offset(df, dr).is_some() {
                mask |= 1 << next.index();
            }
            current = next;
        }
        i += 1;
    }
    mask
}

/// Every subset of `mask`, by the carry-rippler trick.
pub(crate) fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
}

impl Tables {
    fn build() -> Tables {
        let mut tables = Tables {
            rook: [Entry::default(); 64],
            bishop: [Entry::default(); 64],
            attacks: Vec::new(),
        };
        for (entries, directions, magics) in [
            (&mut tables.rook, &ROOK_DIRECTIONS, &ROOK_MAGICS),
            (&mut tables.bishop, &BISHOP_DIRECTIONS, &BISHOP_MAGICS),
        ] {
            for (index, entry) in entries.iter_mut().enumerate() {
                let sq = Square::new_masked(index as u32);
                let mask = relevant_mask(sq, directions);
                let bits = mask.count_ones();
                *entry = Entry {
                    mask,
                    factor: magics[index],
                    shift: 64 - bits,
                    offset: tables.attacks.len(),
                };
                tables
                    .attacks
                    .resize(entry.offset + (1 << bits), Bitboard::EMPTY);
                for blockers in subsets(mask) {
                    let slot = entry.index(Bitboard(blockers));
                    tables.attacks[slot] = Bitboard(slide(sq, directions, blockers));
                }
            }
        }
        tables
    }
}

#[inline]
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let tables = &*TABLES;
    tables.attacks[tables.rook[sq.index()].index(occupied)]
}

#[inline]
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let tables = &*TABLES;
    tables.attacks[tables.bishop[sq.index()].index(occupied)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A magic is good when blocker sets that land on the same slot have the same attacks.
    fn collision_free(sq: Square, directions: &[(i8, i8)], factor: u64) -> bool {
        let mask = relevant_mask(sq, directions);
        let shift = 64 - mask.count_ones();
        let mut seen = vec![None; 1 << mask.count_ones()];
        subsets(mask).all(|blockers| {
            let slot = (blockers.wrapping_mul(factor) >> shift) as usize;
            let attacks = slide(sq, directions, blockers);
            *seen[slot].get_or_insert(attacks) == attacks
        })
    }

    #[test]
    fn embedded_magics_are_collision_free() {
        for index in 0..64u32 {
            let sq = Square::new_masked(index);
            assert!(collision_free(
                sq,
                &ROOK_DIRECTIONS,
                ROOK_MAGICS[index as usize]
            ));
            assert!(collision_free(
                sq,
                &BISHOP_DIRECTIONS,
                BISHOP_MAGICS[index as usize]
            ));
        }
    }
}
