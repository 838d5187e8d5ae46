//! A small seeded random number generator (SplitMix64).
//!
//! Scenario generation, fuzzing and the random players must be reproducible from a seed on
//! every platform and every version of boardgrade, which a general-purpose RNG crate does not
//! promise; SplitMix64 is tiny, fast and fixed forever.

/// Deterministic generator: the same seed gives the same sequence everywhere.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` must be non-zero), without modulo bias worth noticing
    /// for the small bounds boardgrade uses.
    pub fn below(&mut self, bound: usize) -> usize {
        debug_assert!(bound > 0);
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        (self.below(denominator as usize) as u32) < numerator
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_bounded() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], Rng::new(43).next_u64());
        let mut c = Rng::new(7);
        let mut seen = [false; 6];
        for _ in 0..200 {
            let v = c.below(6);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s), "all values of 0..6 appear");
    }
}
