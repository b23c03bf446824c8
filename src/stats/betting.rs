//! Betting confidence sequences for rates and shares (`warsim tune`'s intervals of bounded
//! metrics): valid at every look from the first game on, always inside [0, 1], and never of zero
//! width, whatever the number of events (a plug-in standard deviation is 0 until the first event,
//! so a normal-type sequence says [0, 0] after any number of eventless games).
//!
//! Method: Waudby-Smith & Ramdas, "Estimating means of bounded random variables by betting",
//! JRSS-B 86 (2024), the hedged capital process with predictable plug-in bets (their section 4,
//! "PrPl-EB" bets truncated at `C / m`). For each candidate value r of the mean, a gambler bets
//! against r on every observation; under the true r both capitals are non-negative martingales,
//! so by Ville's inequality the chance that either ever reaches 2 / alpha is at most alpha, and
//! the sequence is every r whose capitals are both below 2 / alpha.
//!
//! An observation is one deal group (`Layout::group_size` games: a deal replayed with the seats
//! rotated is one observation, since its games are not independent), holding `t` games with the
//! event among `m` games that count (`m` = every game for a rate; the decided games for a share
//! of decided games). Under the true ratio r = E t / E m, `(t - r m) / size` has mean 0 and lies in
//! [-r, 1 - r], so the bounded-mean bet applies to the ratio too (a rate is the case m = size).
//!
//! Mergeable: the bets are a fixed grid of sizes, not chosen from the data, and the capital is
//! their average (Waudby-Smith & Ramdas' "diversified Kelly" mixture, their section 5.6), which is
//! itself a martingale and so needs no predictable choice. An observation then enters every
//! capital only through its (t, m), so a candidate keeps one histogram of (t, m) counts: exact
//! integers that add in any order, so shards, threads and resumes give the same interval. The
//! mixture costs the threshold ln(GRID) against the single best bet of the grid, whose sizes are
//! a factor sqrt(2) apart from `TRUNCATION` down to 1/4,000 of it (the best bet for up to 10^8
//! observations of a share near one half).

use serde::{Deserialize, Serialize};

use super::{Interval, Method};

/// The largest bet against r, as a fraction of the most it may be: `C / r` (or `C / (1 - r)`).
/// Waudby-Smith & Ramdas use 1/2 or 3/4; the larger lets a run without events close in faster.
const TRUNCATION: f64 = 0.75;
/// Bet sizes of the mixture: `TRUNCATION * 2^(-g/2)` for g in `0..GRID`.
const GRID: usize = 24;
/// Bisection steps on the boundaries: 2^-60 of the unit interval.
const STEPS: u32 = 60;

/// One metric's observations for one candidate: how many observations had each (t, m).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games per observation (0: the metric is not bounded and keeps no tally).
    pub size: u32,
    /// Observations per (t, m), indexed by `bin(t, m)`.
    pub counts: Vec<u64>,
}

/// The histogram index of `t` events among `m` counted games (`t <= m`).
pub fn bin(t: u32, m: u32) -> usize {
    (m as usize * (m as usize + 1)) / 2 + t as usize
}

/// Bins of a histogram of observations of `size` games.
pub fn bins(size: u32) -> usize {
    if size == 0 { 0 } else { bin(size, size) + 1 }
}

/// The (t, m) of each bin, in bin order.
fn pairs(size: u32) -> impl Iterator<Item = (u32, u32)> {
    (0..=size).flat_map(|m| (0..=m).map(move |t| (t, m)))
}

impl Tally {
    /// An empty tally of observations of `size` games (0 for a metric without one).
    pub fn new(size: u32) -> Tally {
        Tally { size, counts: vec![0; bins(size)] }
    }

    pub fn bounded(&self) -> bool {
        self.size > 0
    }

    /// Adds an observation of `t` events among `m` counted games (`t` above `m` cannot happen for
    /// the metrics warsim bounds; it would be counted as `m`).
    #[inline]
    pub fn add(&mut self, t: i64, m: i64) {
        let m = (m.max(0) as u32).min(self.size);
        let t = (t.max(0) as u32).min(m);
        self.counts[bin(t, m)] += 1;
    }

    pub fn merge(&mut self, o: &Tally) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
    }

    /// Observations, events and counted games.
    pub fn totals(&self) -> (u64, u64, u64) {
        let (mut n, mut t, mut m) = (0, 0, 0);
        for (c, (bt, bm)) in self.counts.iter().zip(pairs(self.size)) {
            n += c;
            t += c * bt as u64;
            m += c * bm as u64;
        }
        (n, t, m)
    }

    /// The log of the mixture's capital betting that the ratio is above r (`up`) or below it.
    fn log_capital(&self, r: f64, up: bool) -> f64 {
        let size = self.size as f64;
        let cap = if up { TRUNCATION / r } else { TRUNCATION / (1.0 - r) };
        let mut logs = [0.0f64; GRID];
        for (g, log) in logs.iter_mut().enumerate() {
            let l = (TRUNCATION * 0.5f64.powf(g as f64 / 2.0)).min(cap);
            for (&c, (bt, bm)) in self.counts.iter().zip(pairs(self.size)) {
                if c > 0 {
                    let x = (bt as f64 - r * bm as f64) / size;
                    *log += c as f64 * (if up { l * x } else { -l * x }).ln_1p();
                }
            }
        }
        // ln of the average of exp(logs), without overflow.
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        top + (logs.iter().map(|&x| (x - top).exp()).sum::<f64>() / GRID as f64).ln()
    }

    /// Where the capital betting "above r" (`up`) falls below `limit` as r grows from 0 (the
    /// low end), or the one betting "below r" reaches it (the high end); each is monotone in r.
    fn boundary(&self, limit: f64, up: bool) -> f64 {
        let (start, end) = if up { (0.0, 1.0) } else { (1.0, 0.0) };
        if self.log_capital(start, up) < limit {
            return start;
        }
        // `inside` stays where the capital has reached the limit (r excluded), `outside` where not.
        let (mut inside, mut outside) = (start, end);
        for _ in 0..STEPS {
            let mid = 0.5 * (inside + outside);
            if self.log_capital(mid, up) >= limit { inside = mid } else { outside = mid }
        }
        outside
    }

    /// The sequence at error rate `alpha`: every r where neither half of the hedged capital has
    /// reached 1 / alpha (Waudby-Smith & Ramdas' hedged process with weights 1/2). The capital on
    /// "above r" falls as r grows and the one on "below r" rises, so each boundary is found by
    /// bisection.
    pub fn interval(&self, alpha: f64) -> Interval {
        let (n, t, m) = self.totals();
        let estimate = if m == 0 { f64::NAN } else { t as f64 / m as f64 };
        let limit = (2.0 / alpha).ln();
        let low = self.boundary(limit, true);
        let high = self.boundary(limit, false);
        Interval { estimate, low: low.min(high), high: high.max(low), method: Method::Betting, units: n }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::GameSeed;
    use rand_core::Rng;

    fn uniform(rng: &mut impl Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A tally of single games with `k` events in `n`.
    fn games(k: u64, n: u64) -> Tally {
        let mut t = Tally::new(1);
        t.counts[bin(1, 1)] = k;
        t.counts[bin(0, 1)] = n - k;
        t
    }

    #[test]
    fn bins_cover_every_pair_once() {
        for size in 1..=12 {
            let all: Vec<usize> = pairs(size).map(|(t, m)| bin(t, m)).collect();
            assert_eq!(all, (0..bins(size)).collect::<Vec<_>>());
        }
        assert_eq!((bins(0), bins(1), bins(12)), (0, 3, 91));
    }

    #[test]
    fn no_event_gives_an_interval_from_zero_with_a_width() {
        // None in 100,000 games. The largest bet, 0.75 / (1 - r), wins a factor (1 + 0.75 r / (1 -
        // r)) per game; alone it reaches 2 GRID / alpha at r0 below (9.1 in 100,000 at alpha =
        // 0.05), and the other bets of the mixture only add to the capital, so the bound lies a
        // little under r0. The exact fixed-n bound is 3.69 in 100,000; a sequence valid at every
        // look pays for that.
        let i = games(0, 100_000).interval(0.05);
        assert_eq!((i.low, i.estimate), (0.0, 0.0));
        let q = (((2.0 * GRID as f64 / 0.05).ln() / 100_000.0).exp() - 1.0) / 0.75;
        let expected = q / (1.0 + q);
        assert!(i.high <= expected && i.high > 0.9 * expected, "{i:?} vs {expected}");
        // Every event: the mirror image.
        let i = games(100_000, 100_000).interval(0.05);
        assert!(i.high == 1.0 && 1.0 - i.low <= expected && 1.0 - i.low > 0.9 * expected, "{i:?}");
    }

    #[test]
    fn an_even_share_gives_a_symmetric_interval_a_little_wider_than_a_fixed_one() {
        // 5,000 events in 10,000 games: symmetric about 0.5, inside [0, 1], wider than the
        // fixed-n Wilson interval (+-0.0098) as a sequence must be, and less than twice as wide.
        let i = games(5_000, 10_000).interval(0.05);
        assert!(((i.low + i.high) / 2.0 - 0.5).abs() < 1e-9, "{i:?}");
        let half = (i.high - i.low) / 2.0;
        assert!(half > 0.0098 && half < 0.0196, "{half}");
    }

    #[test]
    fn it_covers_the_truth_at_every_look_at_least_as_promised() {
        // 400 replicate runs of a rate of 2%, looked at after each of 8 doublings (100 to 12,800
        // games); a run fails if any look misses. At alpha = 0.1 at most 10% may fail; over 400
        // runs the binomial 95% upper limit of a true 10% is 13.0% (52 runs): assert at most that.
        let (p, alpha) = (0.02, 0.1);
        let mut rng = GameSeed::new(11, 0).rng();
        let mut failed = 0;
        for _ in 0..400 {
            let mut t = Tally::new(1);
            let mut n = 0u64;
            let mut miss = false;
            for look in 0..8 {
                while n < 100u64 << look {
                    t.add((uniform(&mut rng) < p) as i64, 1);
                    n += 1;
                }
                let i = t.interval(alpha);
                miss |= !(i.low <= p && p <= i.high);
            }
            failed += miss as u32;
        }
        assert!(failed <= 52, "{failed} of 400 runs missed at some look");
    }

    #[test]
    fn a_share_of_decided_games_is_the_ratio_of_events_to_counted_games() {
        // Observations of 2 games (a rotated deal): the share is 0.6 of the decided games; the
        // undecided ones count for nothing. Coverage of the ratio over replicate runs at alpha =
        // 0.1: at most 10% may miss (binomial 95% upper limit over 300 runs: 13.5%, 40 runs).
        let (p_decided, share) = (0.7, 0.6);
        let mut rng = GameSeed::new(12, 0).rng();
        let mut failed = 0;
        for _ in 0..300 {
            let mut tally = Tally::new(2);
            for _ in 0..2_000 {
                let (mut t, mut m) = (0, 0);
                for _ in 0..2 {
                    if uniform(&mut rng) < p_decided {
                        m += 1;
                        t += (uniform(&mut rng) < share) as i64;
                    }
                }
                tally.add(t, m);
            }
            let i = tally.interval(0.1);
            assert!(i.low > 0.0 && i.high < 1.0 && i.low < i.estimate && i.estimate < i.high);
            failed += !(i.low <= share && share <= i.high) as u32;
        }
        assert!(failed <= 40, "{failed} of 300");
    }

    #[test]
    fn tallies_merge_by_adding() {
        let (mut a, mut b) = (Tally::new(1), Tally::new(1));
        for i in 0..500 {
            (if i % 2 == 0 { &mut a } else { &mut b }).add((i % 7 == 0) as i64, 1);
        }
        a.merge(&b);
        assert_eq!(a, games(72, 500));
        assert_eq!(a.totals(), (500, 72, 500));
    }

    #[test]
    fn without_counted_games_nothing_is_known() {
        let mut t = Tally::new(1);
        t.add(0, 0);
        let i = t.interval(0.05);
        assert!(i.estimate.is_nan() && i.low == 0.0 && i.high == 1.0, "{i:?}");
        // An event outside the counted games is counted as one of them (never out of bounds).
        t.add(1, 0);
        t.add(3, 1);
        assert_eq!(t.totals(), (3, 1, 1));
    }
}
