//! The table of an event: each entrant's record, and its place.
//!
//! The record is games won, drawn and lost; the "best overall record" is the most points, a win 2
//! and a draw 1 (so without draws: the most games won). Entrants level on points are told apart by
//! their score difference (what each game counts inside it, e.g. rounds won minus rounds lost),
//! then by the points they took from one another's games (head to head, within the level group
//! only). Entrants still level share the place (standard competition ranking: 1, 1, 3), first
//! place included.
//!
//! One finished table is one observation of `standings.csv`'s intervals: the games of an event are
//! not independent (they may share what it dealt), its tables are. So the record keeps, per event,
//! each entrant's games won (`Table::won`) and points (`Table::points`) and the products of every
//! two entrants' points, from which `stats::ratings` computes the win rates' and the ratings'
//! intervals over events.

use std::fmt::Write as _;

/// One event's results so far, reused from event to event (nothing allocates once sized).
#[derive(Clone, Debug, Default)]
pub struct Table {
    n: usize,
    pub won: Vec<u32>,
    pub drawn: Vec<u32>,
    pub lost: Vec<u32>,
    /// Score for minus score against, summed over the entrant's games.
    pub diff: Vec<i64>,
    /// `beat[i * n + j]`: games `i` won against `j`; `drew` likewise (both directions).
    beat: Vec<u32>,
    drew: Vec<u32>,
    /// Each entrant's place, from 1; equal places are shared.
    pub place: Vec<u32>,
    order: Vec<usize>,
    h2h: Vec<u32>,
}

impl Table {
    /// A cleared table for `n` entrants.
    pub fn reset(&mut self, n: usize) {
        self.n = n;
        for v in [&mut self.won, &mut self.drawn, &mut self.lost, &mut self.place] {
            v.clear();
            v.resize(n, 0);
        }
        self.diff.clear();
        self.diff.resize(n, 0);
        for v in [&mut self.beat, &mut self.drew] {
            v.clear();
            v.resize(n * n, 0);
        }
        self.h2h.clear();
        self.h2h.resize(n, 0);
    }

    pub fn entrants(&self) -> usize {
        self.n
    }

    /// Enters one game between `a` and `b`: the winner (`None`: drawn) and each one's score.
    pub fn enter(&mut self, a: usize, b: usize, winner: Option<usize>, score: [u32; 2]) {
        let d = score[0] as i64 - score[1] as i64;
        self.diff[a] += d;
        self.diff[b] -= d;
        match winner {
            Some(w) => {
                let l = if w == a { b } else { a };
                self.won[w] += 1;
                self.lost[l] += 1;
                self.beat[w * self.n + l] += 1;
            }
            None => {
                self.drawn[a] += 1;
                self.drawn[b] += 1;
                self.drew[a * self.n + b] += 1;
                self.drew[b * self.n + a] += 1;
            }
        }
    }

    /// Games `i` won against `j`.
    pub fn beat(&self, i: usize, j: usize) -> u32 {
        self.beat[i * self.n + j]
    }

    /// Games `i` and `j` drew.
    pub fn drew(&self, i: usize, j: usize) -> u32 {
        self.drew[i * self.n + j]
    }

    /// Points: 2 a win, 1 a draw.
    pub fn points(&self, i: usize) -> u32 {
        2 * self.won[i] + self.drawn[i]
    }

    /// Entrant `e`'s share of first place in units of 1/`unit` (after `rank`): `unit / k` when `k`
    /// entrants share it, 0 when `e` is not first. `unit` is a multiple of every `k`
    /// (`super::share_unit`).
    pub fn first_share(&self, e: usize, unit: u64) -> i64 {
        if self.place[e] != 1 {
            return 0;
        }
        let k = self.place.iter().filter(|&&p| p == 1).count() as u64;
        debug_assert_eq!(unit % k, 0, "a share unit divisible by every first-place size");
        (unit / k) as i64
    }

    /// Ranks the entrants (`place`) and returns how many share first place.
    pub fn rank(&mut self) -> usize {
        let n = self.n;
        self.order.clear();
        self.order.extend(0..n);
        let (won, drawn, diff) = (&self.won, &self.drawn, &self.diff);
        let key = |i: usize| (2 * won[i] + drawn[i], diff[i]);
        self.order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
        // Head to head within each group level on points and difference.
        let mut start = 0;
        while start < n {
            let k = key(self.order[start]);
            let end = (start..n).find(|&j| key(self.order[j]) != k).unwrap_or(n);
            for x in start..end {
                let i = self.order[x];
                self.h2h[i] = (start..end)
                    .map(|y| self.order[y])
                    .map(|j| 2 * self.beat[i * n + j] + self.drew[i * n + j])
                    .sum();
            }
            let h2h = &self.h2h;
            self.order[start..end].sort_by(|&a, &b| h2h[b].cmp(&h2h[a]).then(a.cmp(&b)));
            start = end;
        }
        let full = |i: usize| (key(i), self.h2h[i]);
        for x in 0..n {
            let i = self.order[x];
            self.place[i] = if x > 0 && full(self.order[x - 1]) == full(i) {
                self.place[self.order[x - 1]]
            } else {
                x as u32 + 1
            };
        }
        self.place.iter().filter(|&&p| p == 1).count()
    }
}

/// The final table as text, best first: place, entrant, won-drawn-lost, score difference.
pub fn table_text(t: &Table, names: &[String]) -> String {
    let mut order: Vec<usize> = (0..t.entrants()).collect();
    order.sort_by_key(|&e| (t.place[e], e));
    let mut s = String::from("Standings (place, entrant, won-drawn-lost, score difference):");
    for e in order {
        let _ = write!(
            s,
            "\n  {} {} {}-{}-{} {:+}",
            t.place[e], names[e], t.won[e], t.drawn[e], t.lost[e], t.diff[e]
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize, games: &[(usize, usize, Option<usize>, [u32; 2])]) -> Table {
        let mut t = Table::default();
        t.reset(n);
        for &(a, b, w, s) in games {
            t.enter(a, b, w, s);
        }
        t
    }

    #[test]
    fn most_wins_first_and_a_clean_sweep_alone() {
        let mut t = table(3, &[(0, 1, Some(1), [1, 2]), (0, 2, Some(2), [0, 2]), (1, 2, Some(1), [2, 1])]);
        assert_eq!(t.rank(), 1);
        assert_eq!(t.place, [3, 1, 2]);
    }

    #[test]
    fn a_cycle_is_split_by_score_difference() {
        // 0 beats 1 2-0, 1 beats 2 2-1, 2 beats 0 2-1: one win each; differences +1, 0, -1... of 0: +2 -1.
        let mut t = table(3, &[(0, 1, Some(0), [2, 0]), (1, 2, Some(1), [2, 1]), (2, 0, Some(2), [2, 1])]);
        assert_eq!(t.diff, [1, -1, 0]);
        assert_eq!(t.rank(), 1);
        assert_eq!(t.place, [1, 3, 2]);
    }

    #[test]
    fn head_to_head_splits_what_the_difference_cannot() {
        // 0 and 1 both 2-1 in games and level on difference; 0 beat 1.
        let games = [
            (0, 1, Some(0), [2, 1]),
            (0, 2, Some(2), [1, 2]),
            (0, 3, Some(0), [2, 0]),
            (1, 2, Some(1), [2, 1]),
            (1, 3, Some(1), [2, 0]),
            (2, 3, Some(3), [0, 2]),
        ];
        let mut t = table(4, &games);
        assert_eq!(&t.won, &[2, 2, 1, 1]);
        assert_eq!(t.diff[0], t.diff[1]);
        assert_eq!(t.rank(), 1);
        assert_eq!(t.place[..2], [1, 2]);
    }

    #[test]
    fn a_perfect_cycle_shares_first_place() {
        let mut t = table(3, &[(0, 1, Some(0), [2, 1]), (1, 2, Some(1), [2, 1]), (2, 0, Some(2), [2, 1])]);
        assert_eq!(t.rank(), 3);
        assert_eq!(t.place, [1, 1, 1]);
        assert_eq!([0, 1, 2].map(|e| t.first_share(e, 6)), [2, 2, 2]);
        assert_eq!(super::super::share_unit(9), 2520);
        assert_eq!(super::super::share_unit(16), 720_720);
    }

    #[test]
    fn draws_count_one_point_and_shared_places_skip() {
        let mut t = table(3, &[(0, 1, None, [1, 1]), (0, 2, Some(0), [2, 0]), (1, 2, Some(1), [2, 0])]);
        assert_eq!((t.points(0), t.points(1), t.points(2)), (3, 3, 0));
        assert_eq!(t.rank(), 2);
        assert_eq!(t.place, [1, 1, 3]);
        // Two share first place: half of it each, in sixths of three entrants.
        let unit = super::super::share_unit(3);
        assert_eq!(unit, 6);
        assert_eq!([0, 1, 2].map(|e| t.first_share(e, unit)), [3, 3, 0]);
    }
}
