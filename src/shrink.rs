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
/// still holds for what is left; `test` must hold for `items`. Then, since a game's moves
/// alternate between the players, it tries removing two neighbouring items at every place
/// (a move and its answer), and goes back to chunks when that helps. At most `budget` tests
/// run. The result is 1-minimal (no single item can be removed) unless the budget ran out.
pub fn ddmin<T: Clone + Eq + Hash>(
    items: Vec<T>,
    budget: usize,
    test: &mut dyn FnMut(&[T]) -> bool,
) -> Shrunk<T> {
    let mut shrinker = Shrinker {
        cache: HashMap::new(),
        tests: 0,
        budget,
        test,
    };
    let mut items = items;
    let (items, exhausted) = loop {
        let left = match shrinker.chunks(items) {
            Ok(left) => left,
            Err(left) => break (left, true),
        };
        match shrinker.pairs(&left) {
            None => break (left, true),
            Some(None) => break (left, false),
            Some(Some(smaller)) => items = smaller,
        }
    };
    Shrunk {
        items,
        tests: shrinker.tests,
        exhausted,
    }
}

struct Shrinker<'t, T> {
    cache: HashMap<Vec<T>, bool>,
    tests: usize,
    budget: usize,
    test: &'t mut dyn FnMut(&[T]) -> bool,
}

impl<T: Clone + Eq + Hash> Shrinker<'_, T> {
    /// Whether the test holds for `candidate`; `None` once the budget is spent.
    fn check(&mut self, candidate: &[T]) -> Option<bool> {
        if let Some(&known) = self.cache.get(candidate) {
            return Some(known);
        }
        if self.tests >= self.budget {
            return None;
        }
        self.tests += 1;
        let holds = (self.test)(candidate);
        self.cache.insert(candidate.to_vec(), holds);
        Some(holds)
    }

    /// The ddmin loop over complements of chunks: `Err` with what is left when the budget
    /// ran out.
    fn chunks(&mut self, mut items: Vec<T>) -> Result<Vec<T>, Vec<T>> {
        let mut chunks = 2;
        while !items.is_empty() {
            let size = items.len().div_ceil(chunks);
            let mut reduced = false;
            let mut start = 0;
            while start < items.len() {
                let end = (start + size).min(items.len());
                let candidate = without(&items, start, end);
                match self.check(&candidate) {
                    None => return Err(items),
                    // The same start now names the next chunk.
                    Some(true) => {
                        items = candidate;
                        reduced = true;
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
        Ok(items)
    }

    /// A smaller list without two neighbouring items, if any holds: `None` when the budget
    /// ran out, `Some(None)` when none holds.
    fn pairs(&mut self, items: &[T]) -> Option<Option<Vec<T>>> {
        for start in 0..items.len().saturating_sub(1) {
            let candidate = without(items, start, start + 2);
            if self.check(&candidate)? {
                return Some(Some(candidate));
            }
        }
        Some(None)
    }
}

/// `items` without `items[start..end]`.
fn without<T: Clone>(items: &[T], start: usize, end: usize) -> Vec<T> {
    items[..start]
        .iter()
        .chain(&items[end..])
        .cloned()
        .collect()
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
    fn removes_pairs_that_only_go_together() {
        // Items alternate like two players' moves: removing one breaks the parity.
        let items: Vec<u32> = (0..12).collect();
        let mut test = |c: &[u32]| {
            c.contains(&9)
                && c.iter()
                    .enumerate()
                    .all(|(i, &x)| i % 2 == (x % 2) as usize)
        };
        let shrunk = ddmin(items, 1000, &mut test);
        assert_eq!(shrunk.items, vec![8, 9]);
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
