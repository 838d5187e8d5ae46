//! Perft: the number of legal move sequences of a given length, the standard check of a
//! move generator against published tables.

use super::movegen::ForEach;
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
        if depth == 0 {
            return Vec::new();
        }
        let mut split: Vec<(String, u64)> = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = *self;
                child.play_unchecked(m);
                (m.uci(), child.perft(depth - 1))
            })
            .collect();
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
}
