//! Perft: the number of legal move sequences of a given length, the standard check of a
//! move generator against published tables.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::movegen::ForEach;
use super::moves::Move;
use super::position::Position;

impl Position {
    /// Leaf count of the legal move tree `depth` plies deep (1 at depth 0). Positions where
    /// the game ended earlier contribute nothing.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut nodes = 0;
                self.generate(&mut ForEach(|m| {
                    let mut child = *self;
                    child.play_unchecked(m);
                    nodes += child.perft(depth - 1);
                }));
                nodes
            }
        }
    }

    /// Perft split by first move: `(uci, leaf count)` sorted by move text. Empty at depth 0.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.divide_parallel(depth, 1)
    }

    /// [`Position::perft`] with the first moves' subtrees shared among `threads` threads.
    pub fn perft_parallel(&self, depth: u32, threads: usize) -> u64 {
        if depth < 2 || threads < 2 {
            return self.perft(depth);
        }
        self.divide_parallel(depth, threads)
            .iter()
            .map(|(_, nodes)| nodes)
            .sum()
    }

    /// [`Position::divide`] with the first moves' subtrees shared among `threads` threads
    /// (each takes the next unclaimed move, so uneven subtrees still balance).
    pub fn divide_parallel(&self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let moves = self.legal_moves();
        let next = AtomicUsize::new(0);
        let subtree = |m: Move| {
            let mut child = *self;
            child.play_unchecked(m);
            (m.uci(), child.perft(depth - 1))
        };
        let work = || {
            let mut done = Vec::new();
            while let Some(&m) = moves.get(next.fetch_add(1, Ordering::Relaxed)) {
                done.push(subtree(m));
            }
            done
        };
        let mut split: Vec<(String, u64)> = if threads < 2 {
            work()
        } else {
            std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads.min(moves.len()))
                    .map(|_| scope.spawn(work))
                    .collect();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        };
        split.sort();
        split
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::startpos();
        let split = pos.divide(3);
        assert_eq!(split.len(), 20);
        assert_eq!(split.first(), Some(&("a2a3".to_string(), 380)));
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), pos.perft(3));
        assert_eq!(pos.perft(0), 1);
        assert!(pos.divide(0).is_empty());
    }

    #[test]
    fn parallel_counts_equal_serial_ones() {
        let pos = Position::startpos();
        assert_eq!(pos.divide_parallel(3, 2), pos.divide(3));
        assert_eq!(pos.perft_parallel(3, 2), 8902);
        assert_eq!(pos.perft_parallel(1, 4), 20);
        assert_eq!(pos.perft_parallel(0, 4), 1);
    }
}
