//! Groups of games as the unit of observation.
//!
//! Games that share a deal (the rotations of one deal over the seats; a game and its
//! counterfactual replays; game `i` of two compared points) are not independent draws: their
//! results are correlated, positively or negatively. The independent unit is the **deal group**,
//! and every interval of a quantity measured on games built in groups is computed from group
//! totals. For a per-game quantity `y` (a length, 1/0 for a win, a counter) and a per-game
//! denominator `x` (1 for a mean over games; 1/0 for "decided" in a share of decided games; a
//! card's count for a per-card rate), group `g` contributes its totals `T_g = Σ y` and `m_g = Σ x`.
//!
//! **Ratio estimator** (Cochran, *Sampling Techniques*, 3rd ed., 1977, §6.3-6.4 for the ratio
//! estimate and its variance, and §9A.2 for clusters of unequal size whose mean per element is such
//! a ratio):
//!
//! ```text
//! r      = Σ T_g / Σ m_g
//! var(r) = G / (G - 1) · Σ (T_g - r m_g)² / (Σ m_g)²
//! ```
//!
//! with `G` groups and the 95% interval `r ± z sqrt(var(r))`. It holds for any correlation inside a
//! group and any (random) denominator, as long as the groups are independent draws; the
//! `G / (G - 1)` factor makes it the usual sample variance when every group is one game. What it
//! needs is kept as exact, mergeable integer sums (`GroupSums`: G, ΣT, Σm, ΣT², Σm², ΣTm), so
//! partial results merge exactly in any order as long as no group straddles two of them.
//!
//! Where every group is one game with a denominator of 1 (independent games), the classic
//! intervals are kept: Wilson for a 0/1 quantity (`rate`), the normal interval of a mean for any
//! other (`mean`). `rate` and `mean` decide that from the sums themselves, so the same code path
//! serves grouped and ungrouped points.

use serde::{Deserialize, Serialize};

use super::interval::{Interval, Method, Z95, mean_interval, wilson};

/// Exact sums over groups of one quantity: `groups` groups, `Σ T_g`, `Σ m_g`, `Σ T_g²`, `Σ m_g²` and
/// `Σ T_g m_g`. `T_g` may be negative (paired differences); `m_g` never is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSums {
    pub groups: u64,
    #[serde(flatten)]
    pub moments: Moments,
}

/// The sums of `GroupSums` without the group count, for a store that counts its groups once for
/// many quantities (a group whose totals are both 0 then costs nothing: `add` skips it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub t: i128,
    pub m: u128,
    pub t2: u128,
    pub m2: u128,
    pub tm: i128,
}

impl Moments {
    /// Adds one group's totals.
    #[inline]
    pub fn add(&mut self, t: i64, m: u64) {
        // Products of two 64-bit numbers, widened once (a full 128-bit multiply costs three).
        let (a, mi) = (t.unsigned_abs() as u128, m as u128);
        self.t += t as i128;
        self.m += mi;
        self.t2 += a * a;
        self.m2 += mi * mi;
        let tm = (a * mi) as i128;
        self.tm += if t < 0 { -tm } else { tm };
    }

    /// Adds one group whose quantity totals 0 (`add(0, m)` without its zero terms).
    #[inline]
    pub fn add_denominator(&mut self, m: u64) {
        let mi = m as u128;
        self.m += mi;
        self.m2 += mi * mi;
    }

    /// Adds the numerator terms of one group (`add(t, m)` without its denominator's own sums,
    /// which `add_denominators` adds for many groups at once).
    #[inline]
    pub fn add_numerator(&mut self, t: i64, m: u64) {
        let (a, mi) = (t.unsigned_abs() as u128, m as u128);
        self.t += t as i128;
        self.t2 += a * a;
        let tm = (a * mi) as i128;
        self.tm += if t < 0 { -tm } else { tm };
    }

    /// Adds the denominator sums `m` (of the groups' `m`) and `m2` (of their squares).
    #[inline]
    pub fn add_denominators(&mut self, m: u128, m2: u128) {
        self.m += m;
        self.m2 += m2;
    }

    pub fn merge(&mut self, o: &Moments) {
        self.t += o.t;
        self.m += o.m;
        self.t2 += o.t2;
        self.m2 += o.m2;
        self.tm += o.tm;
    }

    /// These sums over `groups` groups (groups not added had both totals 0).
    pub fn over(self, groups: u64) -> GroupSums {
        GroupSums { groups, moments: self }
    }
}

/// Partial results that combine exactly and in any order.
pub trait Merge {
    fn merge(&mut self, other: &Self);
}

impl Merge for GroupSums {
    fn merge(&mut self, o: &GroupSums) {
        self.groups += o.groups;
        self.moments.merge(&o.moments);
    }
}

impl GroupSums {
    /// Adds one group's totals `t` (of the quantity) and `m` (of its denominator).
    #[inline]
    pub fn add(&mut self, t: i64, m: u64) {
        self.groups += 1;
        self.moments.add(t, m);
    }

    /// The sums of `n` independent games, each its own group with denominator 1, from the sum and
    /// the sum of squares of their values.
    pub fn of_games(n: u64, sum: i128, sum_sq: u128) -> GroupSums {
        let moments = Moments { t: sum, m: n as u128, t2: sum_sq, m2: n as u128, tm: sum };
        GroupSums { groups: n, moments }
    }

    /// Whether every group is one unit of denominator 1 (`Σm = Σm² = G` forces every `m_g = 1`).
    pub fn is_single_games(&self) -> bool {
        let g = self.groups as u128;
        self.moments.m == g && self.moments.m2 == g
    }

    /// The estimate `Σ T / Σ m` (NaN when `Σ m = 0`).
    pub fn ratio_estimate(&self) -> f64 {
        self.moments.t as f64 / self.moments.m as f64
    }

    /// The ratio estimator's variance (Cochran §6.3-6.4): `G/(G-1) Σ (T_g - r m_g)² / (Σ m)²`. The
    /// sum of squares is computed exactly in integers as `(M² ΣT² - 2 M T ΣTm + T² Σm²) / M²`
    /// (with `T = ΣT_g`, `M = Σm_g`) when that fits, so it never loses digits to cancellation.
    /// NaN with fewer than 2 groups or `Σ m = 0`.
    pub fn ratio_variance(&self) -> f64 {
        let s = &self.moments;
        if self.groups < 2 || s.m == 0 {
            return f64::NAN;
        }
        let g = self.groups as f64;
        let mf = s.m as f64;
        let exact = (|| {
            let m = i128::try_from(s.m).ok()?;
            let m2 = m.checked_mul(m)?;
            let a = m2.checked_mul(i128::try_from(s.t2).ok()?)?;
            let b = m.checked_mul(s.t)?.checked_mul(s.tm)?.checked_mul(2)?;
            let c = s.t.checked_mul(s.t)?.checked_mul(i128::try_from(s.m2).ok()?)?;
            a.checked_sub(b)?.checked_add(c)
        })();
        let spread = match exact {
            // Σ (T_g M - T m_g)² / M², divided by M² once more for var(r).
            Some(x) => x.max(0) as f64 / (mf * mf) / (mf * mf),
            None => {
                let r = s.t as f64 / mf;
                let ss = s.t2 as f64 - 2.0 * r * s.tm as f64 + r * r * s.m2 as f64;
                ss.max(0.0) / (mf * mf)
            }
        };
        g / (g - 1.0) * spread
    }

    /// The ratio estimator's 95% interval (`Method::Ratio`, one unit per group).
    pub fn ratio(&self) -> Interval {
        let r = self.ratio_estimate();
        let half = Z95 * self.ratio_variance().sqrt();
        Interval { estimate: r, low: r - half, high: r + half, method: Method::Ratio, units: self.groups }
    }

    /// The 95% interval of a mean per unit of denominator: the normal interval of a mean when
    /// every group is one game of denominator 1, else the ratio estimator's.
    pub fn mean(&self) -> Interval {
        if self.is_single_games() {
            mean_interval(self.moments.t, self.moments.t2, self.groups)
        } else {
            self.ratio()
        }
    }

    /// The 95% interval of the mean of a count per unit of denominator (an event's count per game:
    /// never negative): the mean's interval with its low end at 0 at least (a count's mean is not
    /// below 0, so cutting loses no coverage); with no event at all, a rate's interval of no
    /// event (`rate`), not a point at 0.
    pub fn count_mean(&self) -> Interval {
        if self.moments.t == 0 {
            return Interval {
                method: if self.is_single_games() { Method::Wilson } else { Method::Ratio },
                ..self.rate()
            };
        }
        let i = self.mean();
        Interval { low: i.low.max(0.0), ..i }
    }

    /// The 95% interval of a rate: Wilson when every group is one game of denominator 1 whose
    /// value is 0 or 1 (`ΣT² = ΣT`: independent Bernoulli trials), else the ratio estimator's.
    /// The ratio interval is cut to [0, 1]: a rate lies there, so cutting loses no coverage, and a
    /// few small groups would otherwise print impossible bounds such as 108%.
    pub fn rate(&self) -> Interval {
        let s = &self.moments;
        let bernoulli = s.t >= 0 && s.t2 == s.t as u128;
        if self.is_single_games() && bernoulli {
            return wilson(s.t as u64, self.groups);
        }
        // Every game of every group a success (or none): the groups spread zero, and the ratio
        // interval would shrink to a point, as if all-successes proved a rate of exactly 1. Treat
        // each group as one trial instead: Wilson over the groups, which never claims more than
        // that many independent agreeing units show.
        let none = s.t2 == 0;
        // Σ (T_g - m_g)² = 0: every group's total equals its game count.
        let all = s.t2.checked_add(s.m2) == (s.tm.max(0) as u128).checked_mul(2);
        if s.m > 0 && (none || all) {
            // Only groups with games in the denominator are trials; the sums do not count them,
            // but (Σm)² / Σm² is at most their number (Cauchy-Schwarz), so it is a safe count.
            let m2 = s.m2.max(1);
            let with = (s.m.saturating_mul(s.m)).div_ceil(m2).min(self.groups as u128) as u64;
            let trials = with.max(1);
            return Interval {
                estimate: self.ratio_estimate(),
                ..wilson(s.t.signum() as u64 * trials, trials)
            };
        }
        let i = self.ratio();
        Interval { low: i.low.max(0.0), high: i.high.min(1.0), ..i }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn a_rate_that_is_all_successes_or_none_keeps_an_interval_over_its_groups() {
        // 40 groups of 3 games, every game a success: the ratio spread is 0, but 40 agreeing
        // deals do not prove a rate of exactly 1. Wilson over 40 units: low = 40 / (40 + z²).
        let all = sums(&[(3, 3); 40]);
        let r = all.rate();
        assert_eq!((r.estimate, r.high, r.units), (1.0, 1.0, 40));
        assert!(close(r.low, 40.0 / (40.0 + Z95 * Z95), 1e-12), "{r:?}");
        let none = sums(&[(0, 3); 40]).rate();
        assert_eq!((none.estimate, none.low), (0.0, 0.0));
        assert!(close(none.high, Z95 * Z95 / (40.0 + Z95 * Z95), 1e-12), "{none:?}");
        // A group total of 2 over 1 game is no all-successes share.
        assert_eq!(sums(&[(2, 1), (0, 1), (1, 1)]).rate().method, Method::Ratio);
        // One failure among them: the ratio interval again.
        // Groups with no game in the denominator are no trials: 4 games alone in 4 of 20 groups.
        let mut sparse = [(0, 0); 20];
        sparse[..4].fill((1, 1));
        let r = sums(&sparse).rate();
        assert_eq!((r.estimate, r.units), (1.0, 4), "{r:?}");
        let mut mixed = [(3, 3); 40];
        mixed[0] = (2, 3);
        assert_eq!(sums(&mixed).rate().method, Method::Ratio);
    }

    #[test]
    fn a_count_mean_never_goes_below_zero_nor_shrinks_to_zero() {
        // One game in 1,000 with 3 events: the normal interval reaches below 0.
        let mut s = GroupSums::of_games(1000, 3, 9);
        assert!(s.mean().low < 0.0);
        let c = s.count_mean();
        assert_eq!((c.low, c.estimate), (0.0, 0.003));
        assert_eq!(c.high, s.mean().high);
        // No event: the bound of no event in 1,000 games, not [0, 0].
        s = GroupSums::of_games(1000, 0, 0);
        assert_eq!(s.count_mean().high, wilson(0, 1000).high);
        assert_eq!(sums(&[(0, 2); 30]).count_mean().high, wilson(0, 30).high);
    }

    #[test]
    fn a_rate_of_few_groups_stays_inside_zero_and_one() {
        // Groups of two games with 2, 2 and 1 wins: r = 5/6, and the ratio interval's half-width
        // z * sqrt(3/2 * (1/9 + 1/9 + 4/9) / 36) = 0.3266 would reach 1.16.
        let s = sums(&[(2, 2), (2, 2), (1, 2)]);
        let raw = s.ratio();
        assert!(raw.high > 1.0, "{raw:?}");
        let r = s.rate();
        assert_eq!(r.high, 1.0);
        assert!(close(r.low, raw.low, 1e-12) && close(r.estimate, 5.0 / 6.0, 1e-12), "{r:?}");
    }

    fn sums(groups: &[(i64, u64)]) -> GroupSums {
        let mut s = GroupSums::default();
        for &(t, m) in groups {
            s.add(t, m);
        }
        s
    }

    #[test]
    fn ratio_of_a_hand_computed_example() {
        // Groups (T, m): (3, 2), (1, 2), (4, 3), (0, 1). Σ T = 8, Σ m = 8: r = 1.
        // Residuals T - r m: 1, -1, 1, -1; Σ squares 4. var = 4/3 * 4 / 64 = 1/12.
        let s = sums(&[(3, 2), (1, 2), (4, 3), (0, 1)]);
        assert_eq!(
            (s.groups, s.moments.t, s.moments.m, s.moments.t2, s.moments.m2, s.moments.tm),
            (4, 8, 8, 26, 18, 20)
        );
        assert!(close(s.ratio_variance(), 1.0 / 12.0, 1e-15), "{}", s.ratio_variance());
        let i = s.ratio();
        assert_eq!((i.estimate, i.method, i.units), (1.0, Method::Ratio, 4));
        assert!(close(i.half_width(), Z95 * (1.0f64 / 12.0).sqrt(), 1e-12), "{i:?}");
    }

    #[test]
    fn a_share_of_a_random_subset() {
        // First player's wins among decided games, pairs of rotated games: (wins, decided) per
        // deal (1, 2), (1, 1), (0, 1), (2, 2), (0, 0). r = 4/6; residuals 1-4/3, 1-2/3, -2/3,
        // 2-4/3, 0 = -1/3, 1/3, -2/3, 2/3, 0: Σ squares 10/9. var = 5/4 * 10/9 / 36.
        let s = sums(&[(1, 2), (1, 1), (0, 1), (2, 2), (0, 0)]);
        let i = s.rate();
        assert_eq!(i.method, Method::Ratio, "a random denominator is never Wilson's");
        assert!(close(i.estimate, 4.0 / 6.0, 1e-15));
        assert!(close(s.ratio_variance(), 1.25 * 10.0 / 9.0 / 36.0, 1e-15), "{}", s.ratio_variance());
    }

    #[test]
    fn single_games_keep_wilson_and_the_normal_mean() {
        // 3 of 10 independent games: exactly Wilson's interval.
        let r = sums(&[(1, 1), (1, 1), (1, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1), (0, 1)]);
        assert!(r.is_single_games());
        assert_eq!(r.rate(), wilson(3, 10));
        assert_eq!(r.rate().method, Method::Wilson);
        // Lengths 1..=5 as single games: exactly the normal interval, equal to the ratio's (the
        // G/(G-1) factor makes it the sample variance).
        let l = sums(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]);
        assert_eq!(l, GroupSums::of_games(5, 15, 55));
        let (n, q) = (l.mean(), l.ratio());
        assert_eq!((n.method, n.units), (Method::Normal, 5));
        assert!(close(n.half_width(), q.half_width(), 1e-12), "{n:?} {q:?}");
        // A value of 2 in one game is no Bernoulli trial: not Wilson.
        assert_eq!(sums(&[(2, 1), (0, 1), (1, 1)]).rate().method, Method::Ratio);
    }

    #[test]
    fn equal_groups_give_the_variance_of_group_means() {
        // Groups of 2 games with totals 0, 2, 1, 1, 2: group means 0, 1, .5, .5, 1 (mean .6,
        // sample variance (0.36+0.16+0.01+0.01+0.16)/4 = 0.175); var(r) = 0.175 / 5.
        let s = sums(&[(0, 2), (2, 2), (1, 2), (1, 2), (2, 2)]);
        assert!(close(s.ratio_variance(), 0.175 / 5.0, 1e-15), "{}", s.ratio_variance());
        assert_eq!(s.mean().method, Method::Ratio);
    }

    #[test]
    fn negative_totals_and_too_few_groups() {
        // Paired differences per group: -2, 0, 2 over groups of one: mean 0, sd 2.
        let s = sums(&[(-2, 1), (0, 1), (2, 1)]);
        assert!(close(s.ratio_variance(), 4.0 / 3.0, 1e-15));
        assert!(sums(&[(1, 1)]).ratio().half_width().is_nan());
        assert!(sums(&[(0, 0), (0, 0)]).ratio().estimate.is_nan());
    }

    #[test]
    fn huge_sums_fall_back_to_floating_point() {
        // Totals so large that M² ΣT² overflows i128 (M = 4e9, ΣT² = 3e25): the floating-point
        // path gives the direct sum of squared residuals.
        let mut s = GroupSums::default();
        for k in 1..=4i64 {
            s.add(k * 1_000_000_000_000, 1_000_000_000);
        }
        let r = s.ratio_estimate();
        let direct: f64 =
            (1..=4).map(|k| (k as f64 * 1e12 - r * 1e9).powi(2)).sum::<f64>() * 4.0 / 3.0 / 16e18;
        let v = s.ratio_variance();
        assert!(close(v, direct, direct * 1e-9), "{v} vs {direct}");
    }

    #[test]
    fn split_and_merge_in_any_order_equals_one_pass() {
        // Pseudo-random groups from the crate's own generator, split at random into three parts.
        use rand_core::Rng;
        let mut rng = crate::seed::GameSeed::new(7, 0).rng();
        let groups: Vec<(i64, u64)> =
            (0..500).map(|_| ((rng.next_u32() % 41) as i64 - 20, (rng.next_u32() % 4) as u64)).collect();
        let whole = sums(&groups);
        let mut parts = [GroupSums::default(); 3];
        for &(t, m) in &groups {
            parts[(rng.next_u32() % 3) as usize].add(t, m);
        }
        let mut merged = parts[2];
        merged.merge(&parts[0]);
        merged.merge(&parts[1]);
        assert_eq!(merged, whole);
    }
}
