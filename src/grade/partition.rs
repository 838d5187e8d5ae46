//! `--partition K/N`: a stable share of a class, so N machines grade it together.

use std::str::FromStr;

use sha2::{Digest, Sha256};

/// Share `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub index: u32,
    pub count: u32,
}

impl Partition {
    /// True when the submission named `id` is in this share. The share depends on the name
    /// alone, so students added later never move the others.
    pub fn keeps(&self, id: &str) -> bool {
        let digest = Sha256::digest(id.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(first) % u64::from(self.count) == u64::from(self.index - 1)
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

    #[test]
    fn every_name_falls_in_exactly_one_share() {
        let names: Vec<String> = (0..200).map(|i| format!("student {i}")).collect();
        let shares: Vec<Partition> = (1..=3).map(|k| Partition { index: k, count: 3 }).collect();
        for name in &names {
            assert_eq!(shares.iter().filter(|p| p.keeps(name)).count(), 1, "{name}");
        }
        for share in &shares {
            let size = names.iter().filter(|n| share.keeps(n)).count();
            assert!((40..=90).contains(&size), "{share}: {size}");
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
