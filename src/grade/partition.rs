//! `--partition K/N`: a share of a class, so N machines grade it together. The class is
//! ordered by a hash of each student's name and cut into N runs of consecutive students:
//! shares differ by at most one submission, and a student added later moves at most N - 1
//! others (those next to a cut), whatever the names.

use std::str::FromStr;

use sha2::{Digest, Sha256};

/// Share `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub index: u32,
    pub count: u32,
}

impl Partition {
    /// Which of the class's submissions, named `ids`, are in this share (in the same order).
    pub fn keeps(&self, ids: &[&str]) -> Vec<bool> {
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_cached_key(|&i| (Sha256::digest(ids[i].as_bytes()), ids[i]));
        let (class, count) = (ids.len() as u64, u64::from(self.count));
        let mut kept = vec![false; ids.len()];
        for (rank, &i) in order.iter().enumerate() {
            kept[i] = (rank as u64 * count / class) == u64::from(self.index - 1);
        }
        kept
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Partition {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected K/N with 1 <= K <= N (2/3, say), found {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Partition { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(names: &[String], count: u32) -> Vec<u32> {
        let ids: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut share = vec![0; names.len()];
        for index in 1..=count {
            let kept = Partition { index, count }.keeps(&ids);
            for (i, keep) in kept.into_iter().enumerate() {
                if keep {
                    assert_eq!(share[i], 0, "{} is in two shares", names[i]);
                    share[i] = index;
                }
            }
        }
        assert!(share.iter().all(|&s| s > 0), "a name in no share");
        share
    }

    #[test]
    fn every_name_falls_in_exactly_one_share_and_shares_differ_by_one_at_most() {
        for size in [0, 1, 3, 12, 13, 200] {
            let names: Vec<String> = (0..size).map(|i| format!("student {i}")).collect();
            for count in 1..=5 {
                let share = shares(&names, count);
                let sizes: Vec<usize> = (1..=count)
                    .map(|k| share.iter().filter(|&&s| s == k).count())
                    .collect();
                let (least, most) = (sizes.iter().min(), sizes.iter().max());
                assert!(
                    most.unwrap() - least.unwrap() <= 1,
                    "{size}/{count}: {sizes:?}"
                );
            }
        }
    }

    #[test]
    fn a_student_added_moves_at_most_one_fewer_than_the_shares() {
        for size in [1, 4, 12, 37, 100] {
            let names: Vec<String> = (0..size).map(|i| format!("{size}-student-{i}")).collect();
            for count in 1..=6 {
                let before = shares(&names, count);
                let mut more = names.clone();
                more.push(format!("late-{size}-{count}"));
                let after = shares(&more, count);
                let moved = before.iter().zip(&after).filter(|(a, b)| a != b).count();
                assert!(moved < count as usize, "{size}/{count}: {moved} moved");
            }
        }
    }

    #[test]
    fn shares_are_read_and_checked() {
        assert_eq!("2/3".parse(), Ok(Partition { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
    }
}
