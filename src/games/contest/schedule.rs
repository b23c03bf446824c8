//! The order an event plays its games in: a round robin by the circle method.
//!
//! With `n` entrants (one more, a bye, when `n` is odd) entrant 0 stays put and the others turn
//! one place per round, so each of the `n - 1` rounds (`n` with a bye) pairs everyone once and every
//! pair meets exactly once over the event (Kirkman's construction; see e.g. Harary and Moser,
//! "The theory of round robin tournaments", Amer. Math. Monthly 73 (1966) 231-246). Within a round
//! the pairs are listed from the fixed entrant outwards. In a pair, seat 0 goes to the lower-numbered
//! entrant in even-numbered events and to the higher-numbered one in odd-numbered events, so a run
//! that repeats the event rotates the seats of every meeting.

use crate::seed::{GameSeed, mix64};

/// One game of the schedule: the round it belongs to (from 0) and the two entrants, lower first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeting {
    pub round: u16,
    pub low: u16,
    pub high: u16,
}

impl Meeting {
    /// The entrants at seat 0 and seat 1 in event number `event`.
    #[inline]
    pub fn seats(self, event: u64) -> [usize; 2] {
        if event.is_multiple_of(2) {
            [self.low as usize, self.high as usize]
        } else {
            [self.high as usize, self.low as usize]
        }
    }
}

/// Salt of the games' seeds, so that no game of an event replays its deal's stream.
const GAME_SALT: u64 = 0x7047_6e5f_6761_6d65;

/// The seed of meeting `k` of event `event`, whose schedule has `games` meetings: a game can play
/// an event's games again on their own seeds.
pub fn game_seed(event: GameSeed, games: usize, k: usize) -> GameSeed {
    GameSeed::new(mix64(event.master ^ GAME_SALT), event.index * games as u64 + k as u64)
}

/// Every meeting of a round robin of `n` entrants, round by round: `n (n - 1) / 2` of them.
pub fn round_robin(n: usize) -> Vec<Meeting> {
    if n < 2 {
        return Vec::new();
    }
    // Places 0..m on the circle; place `m - 1` is the bye when `n` is odd.
    let m = n + n % 2;
    let mut out = Vec::with_capacity(n * (n - 1) / 2);
    for round in 0..m - 1 {
        // Place 0 holds entrant 0; place p > 0 holds entrant 1 + (p - 1 + round) % (m - 1).
        let at = |p: usize| if p == 0 { 0 } else { 1 + (p - 1 + round) % (m - 1) };
        for k in 0..m / 2 {
            let (a, b) = (at(k), at(m - 1 - k));
            if a >= n || b >= n {
                continue;
            }
            out.push(Meeting { round: round as u16, low: a.min(b) as u16, high: a.max(b) as u16 });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_once_and_nobody_twice_in_a_round() {
        for n in 2..=12 {
            let s = round_robin(n);
            assert_eq!(s.len(), n * (n - 1) / 2, "n={n}");
            let mut met = vec![false; n * n];
            for m in &s {
                assert!(m.low < m.high);
                let k = m.low as usize * n + m.high as usize;
                assert!(!met[k], "n={n}: {m:?} twice");
                met[k] = true;
            }
            let rounds = s.iter().map(|m| m.round).max().unwrap() as usize + 1;
            assert_eq!(rounds, if n % 2 == 0 { n - 1 } else { n }, "n={n}");
            for r in 0..rounds as u16 {
                let mut busy = vec![false; n];
                for m in s.iter().filter(|m| m.round == r) {
                    for e in [m.low, m.high] {
                        assert!(!busy[e as usize], "n={n}: entrant {e} twice in round {r}");
                        busy[e as usize] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_round_of_four_and_the_seats_of_a_repeat() {
        let s = round_robin(4);
        let first: Vec<(u16, u16)> = s.iter().filter(|m| m.round == 0).map(|m| (m.low, m.high)).collect();
        assert_eq!(first, [(0, 3), (1, 2)]);
        assert_eq!(s[0].seats(0), [0, 3]);
        assert_eq!(s[0].seats(1), [3, 0]);
    }
}
