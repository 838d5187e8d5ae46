//! Delta debugging (ddmin): the shortest list of items, found by removing chunks, for which
//! a test still holds. Each test may run a submission, so results are cached and the
//! number of tests is bounded.

use std::collections::HashMap;
use std::hash::Hash;

/// The result of a shrink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk<T> {
    pub items: Vec<T>,
    /// Tests run (cached answers not counted).
    pub tests: usize,
    /// Whether the budget ran out before the list was minimal.
    pub exhausted: bool,
}

/// Removes chunks of `items` (halves, then quarters, ... down to single items) while `test`
/// still holds for what is left; `test` must hold for `items`. At most `budget` tests run.
/// The result is 1-minimal (no single item can be removed) unless the budget ran out.
pub fn ddmin<T: Clone + Eq + Hash>(
    items: Vec<T>,
    budget: usize,
    test: &mut dyn FnMut(&[T]) -> bool,
) -> Shrunk<T> {
    let mut cache: HashMap<Vec<T>, bool> = HashMap::new();
    let mut tests = 0;
    let mut check = |candidate: &[T], tests: &mut usize| -> Option<bool> {
        if let Some(&known) = cache.get(candidate) {
            return Some(known);
        }
        if *tests >= budget {
            return None;
        }
        *tests += 1;
        let holds = test(candidate);
        cache.insert(candidate.to_vec(), holds);
        Some(holds)
    };
    let mut items = items;
    let mut chunks = 2;
    while !items.is_empty() {
        let size = items.len().div_ceil(chunks);
        let mut reduced = false;
        let mut start = 0;
        while start < items.len() {
            let end = (start + size).min(items.len());
            let candidate: Vec<T> = items[..start]
                .iter()
                .chain(&items[end..])
                .cloned()
                .collect();
            match check(&candidate, &mut tests) {
                None => {
                    return Shrunk {
                        items,
                        tests,
                        exhausted: true,
                    }
                }
                Some(true) => {
                    items = candidate;
                    reduced = true;
                    // The same start now names the next chunk.
                }
                Some(false) => start = end,
            }
        }
        if reduced {
            chunks = (chunks - 1).max(2);
        } else if size <= 1 {
            break;
        } else {
            chunks = (chunks * 2).min(items.len());
        }
    }
    Shrunk {
        items,
        tests,
        exhausted: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_items_that_matter() {
        let items: Vec<u32> = (0..40).collect();
        // Fails when 7, 23 and 31 are all present, in order.
        let mut test = |c: &[u32]| {
            let pos = |x| c.iter().position(|&y| y == x);
            matches!((pos(7), pos(23), pos(31)), (Some(a), Some(b), Some(d)) if a < b && b < d)
        };
        let shrunk = ddmin(items, 1000, &mut test);
        assert_eq!(shrunk.items, vec![7, 23, 31]);
        assert!(!shrunk.exhausted);
        assert!(shrunk.tests < 200, "{}", shrunk.tests);
    }

    #[test]
    fn stops_at_the_budget() {
        let shrunk = ddmin((0..100).collect::<Vec<u32>>(), 3, &mut |c| c.contains(&50));
        assert!(shrunk.exhausted);
        assert_eq!(shrunk.tests, 3);
        assert!(shrunk.items.contains(&50));
    }

    #[test]
    fn may_remove_everything() {
        let shrunk = ddmin(vec![1, 2, 3], 10, &mut |_| true);
        assert!(shrunk.items.is_empty());
    }
}
