//! `--shard K/N`: which game indices of each scenario point one process of a cluster run plays.
//!
//! Games are a pure function of (master seed, game index), so any partition of the indices gives
//! the same statistics once merged. We use the simplest one: shard K (counted from 1) plays the
//! contiguous block `floor(G*(K-1)/N) .. floor(G*K/N)` of every point's `G` games, each end moved
//! down to a multiple of the point's deal-group size `n` (`Layout::group_size`) so that a group of
//! games sharing a deal is never split between two shards (the last shard ends at `G`). The blocks
//! of shards 1..N tile `0..G` exactly, differ in size by at most `n` games, and need no
//! coordination.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::UsageError;

/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 1..=n.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(raw: &str) -> Result<Shard, UsageError> {
        let bad = |why: &str| {
            UsageError(format!("--shard '{raw}': {why} (expected K/N with 1 <= K <= N, e.g. 2/8)"))
        };
        let (k, n) = raw.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let k: u64 = k.trim().parse().map_err(|_| bad("K is not a whole number"))?;
        let n: u64 = n.trim().parse().map_err(|_| bad("N is not a whole number"))?;
        if n == 0 || n > MAX_SHARDS {
            return Err(bad(&format!("N must be from 1 to {MAX_SHARDS}")));
        }
        if k == 0 || k > n {
            return Err(bad("K must be between 1 and N"));
        }
        Ok(Shard { k, n })
    }

    /// Whether `k` and `n` are a shard `parse` would accept (for states read from disk).
    pub fn is_valid(self) -> bool {
        (1..=MAX_SHARDS).contains(&self.n) && (1..=self.n).contains(&self.k)
    }

    /// The game indices this shard plays out of `games`, in groups of `group` games.
    pub fn range(self, games: u64, group: u64) -> Range<u64> {
        let group = group.max(1);
        let at = |i: u64| {
            if i == self.n {
                return games;
            }
            let raw = ((games as u128 * i as u128) / self.n as u128) as u64;
            raw - raw % group
        };
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { k: 2, n: 3 });
        for bad in ["3/2", "0/0", "0/3", "x/y", "3", "1/0", "-1/2", "1/100001", "1/18446744073709551615"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_tile_the_games() {
        for games in [0, 1, 5, 7, 100, 1_000_003] {
            for group in 1..=4 {
                for n in 1..=9 {
                    let mut next = 0;
                    for k in 1..=n {
                        let r = Shard { k, n }.range(games, group);
                        assert_eq!(r.start, next);
                        assert!(r.start.is_multiple_of(group), "a shard starts a deal group");
                        assert!(r.end == games || r.end.is_multiple_of(group), "{r:?} ends inside a group");
                        next = r.end;
                    }
                    assert_eq!(next, games);
                }
            }
        }
        // 10,000 games of 3-player rotations over 3 shards: 3,333 | 3,333 | 3,334 games.
        let ends: Vec<u64> = (1..=3).map(|k| Shard { k, n: 3 }.range(10_000, 3).end).collect();
        assert_eq!(ends, [3_333, 6_666, 10_000]);
    }
}
