//! The indices of the first few games in which something happened, so any rare event can be
//! replayed with `warsim play --game-index I`. Keeping the smallest indices (not the first seen)
//! makes the result independent of thread scheduling and merge order.

use serde::{Deserialize, Serialize};

/// How many example games are kept per outcome and per counter.
pub const KEEP: usize = 5;

/// The kept indices, ascending, in a fixed array: every counter of every chunk of games has one,
/// so a growing list would allocate (twice) for each counter that fires in a chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct Examples {
    games: [u64; KEEP],
    len: u8,
}

/// The saved form: the kept indices as a list.
#[derive(Serialize, Deserialize)]
struct Stored {
    games: Vec<u64>,
}

impl From<Examples> for Stored {
    fn from(e: Examples) -> Stored {
        Stored { games: e.games().to_vec() }
    }
}

impl TryFrom<Stored> for Examples {
    type Error = String;

    fn try_from(s: Stored) -> Result<Examples, String> {
        if s.games.len() > KEEP || !s.games.is_sorted_by(|a, b| a < b) {
            return Err(format!("example games must be at most {KEEP} ascending indices"));
        }
        let mut e = Examples::default();
        e.games[..s.games.len()].copy_from_slice(&s.games);
        e.len = s.games.len() as u8;
        Ok(e)
    }
}

impl Examples {
    /// Offers a game index; kept if it is among the `KEEP` smallest seen.
    #[inline]
    pub fn offer(&mut self, game: u64) {
        let len = self.len as usize;
        if len == KEEP && game >= self.games[KEEP - 1] {
            return;
        }
        let at = self.games[..len].partition_point(|&g| g < game);
        if at < len && self.games[at] == game {
            return;
        }
        // Shift the larger ones up by one; the largest falls off when the array is full.
        let end = (len + 1).min(KEEP);
        self.games.copy_within(at..end - 1, at + 1);
        self.games[at] = game;
        self.len = end as u8;
    }

    pub fn merge(&mut self, other: &Examples) {
        for &g in other.games() {
            self.offer(g);
        }
    }

    pub fn games(&self) -> &[u64] {
        &self.games[..self.len as usize]
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
        let mut ab = a;
        ab.merge(&b);
        let mut ba = b;
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.games(), &[1, 2, 3, 5, 7]);
    }

    #[test]
    fn a_repeated_index_is_kept_once_and_a_short_list_grows_in_order() {
        let mut a = Examples::default();
        for g in [9, 4, 9, 4, 6] {
            a.offer(g);
        }
        assert_eq!(a.games(), &[4, 6, 9]);
        a.offer(5);
        assert_eq!(a.games(), &[4, 5, 6, 9]);
    }

    #[test]
    fn saved_as_a_list_and_read_back_only_if_sorted_and_short() {
        let mut a = Examples::default();
        for g in [8, 2, 5] {
            a.offer(g);
        }
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(text, r#"{"games":[2,5,8]}"#);
        assert_eq!(serde_json::from_str::<Examples>(&text).unwrap(), a);
        assert!(serde_json::from_str::<Examples>(r#"{"games":[5,2]}"#).is_err());
        assert!(serde_json::from_str::<Examples>(r#"{"games":[2,2]}"#).is_err(), "each index once");
        let full = serde_json::from_str::<Examples>(r#"{"games":[1,2,3,4,5]}"#).unwrap();
        assert_eq!(full.games(), &[1, 2, 3, 4, 5]);
        assert!(serde_json::from_str::<Examples>(r#"{"games":[1,2,3,4,5,6]}"#).is_err());
    }
}
