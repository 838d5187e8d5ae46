//! The rays of the sliding pieces, walked square by square: slow, and used only to build
//! the attack tables (the magic tables, the square-pair lines) and to check them. Apart from
//! both so that neither table module needs the other.

use super::types::Square;

pub(crate) const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares reached by sliding from `sq` along `directions`, each ray stopping at (and
/// including) the first square of `occupied`. Slow; used to build tables.
pub(crate) const fn slide(sq: Square, directions: &[(i8, i8)], occupied: u64) -> u64 {
    let mut attacks = 0;
    let mut i = 0;
    while i < directions.len() {
        let (df, dr) = directions[i];
        let mut current = sq;
        while let Some(next) = current.offset(df, dr) {
            let bit = 1u64 << next.index();
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            current = next;
        }
        i += 1;
    }
    attacks
}
