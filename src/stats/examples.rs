//! The indices of the first few games in which something happened, so any rare event can be
//! replayed with `warsim play --game-index I`. Keeping the smallest indices (not the first seen)
//! makes the result independent of thread scheduling and merge order.

use serde::{Deserialize, Serialize};

/// How many example games are kept per outcome and per counter.
pub const KEEP: usize = 5;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Examples {
    games: Vec<u64>,
}

impl Examples {
    /// Offers a game index; kept if it is among the `KEEP` smallest seen.
    #[inline]
    pub fn offer(&mut self, game: u64) {
        if self.games.len() == KEEP && game >= self.games[KEEP - 1] {
            return;
        }
        let at = self.games.partition_point(|&g| g < game);
        if self.games.get(at) == Some(&game) {
            return;
        }
        self.games.insert(at, game);
        self.games.truncate(KEEP);
    }

    pub fn merge(&mut self, other: &Examples) {
        for &g in &other.games {
            self.offer(g);
        }
    }

    pub fn games(&self) -> &[u64] {
        &self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_smallest_whatever_the_order() {
        let mut a = Examples::default();
        for g in [40, 3, 99, 7, 12, 5, 60, 1] {
            a.offer(g);
        }
        assert_eq!(a.games(), &[1, 3, 5, 7, 12]);
        let mut b = Examples::default();
        for g in [2, 100] {
            b.offer(g);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.games(), &[1, 2, 3, 5, 7]);
    }
}
