//! Paired differences between two scenario points, game by game or deal group by deal group.
//!
//! For a per-game quantity, `x_i` is the baseline's value in game `i` and `y_i` the other point's
//! (same master seed and index, hence the same deal when both deal alike). Two 95% intervals for
//! the difference of means:
//!
//! - **paired**: from `d_i = y_i - x_i`, `mean(d) +- z * sd(d) / sqrt(n)`, the large-sample interval
//!   for a mean difference of paired samples (J. A. Rice, *Mathematical Statistics and Data
//!   Analysis*, 3rd ed., 2007, §11.3.1). Common random numbers make `x_i` and `y_i` positively
//!   correlated, so `var(d) = var(x) + var(y) - 2 cov(x, y)` is smaller than the unpaired variance
//!   (Law & Kelton, *Simulation Modeling and Analysis*, §11.2, "common random numbers").
//! - **unpaired**: `mean(y) - mean(x) +- z * sqrt(s_x^2 / n + s_y^2 / n)`, the large-sample
//!   two-sample interval that ignores the pairing (Rice §11.2.1): what two independent runs give.
//!
//! The paired interval also serves differences measured inside one run, a game against its own
//! counterfactual (a card with and without its text, `PairedSums::of_differences`), and tells how
//! many pairs a wanted half-width takes at the measured spread (`games_for`): `n = (z * sd / h)^2`,
//! the sample size of a normal interval of half-width `h` (Rice §7.3.3, the same large-sample
//! interval solved for `n`).
//!
//! Where games come in deal groups (rotated seats in either point), the unit is the group of the
//! two points' common deals: `x`, `y` and `d` are group totals, each with the group's number of
//! games as its denominator, and both intervals use the ratio estimator over the groups
//! (`stats::group`; Cochran 1977, §6.3-6.4): the paired one on `D_g = T_g(y) - T_g(x)`, the
//! unpaired one adding the two means' variances. With one game per group these are the formulas
//! above, computed as above.
//!
//! Rates are means of 0/1 values, so both apply to them unchanged. Every sum is an exact integer, so
//! partial sums merge exactly in any order; only the final division is floating point.

use super::group::{GroupSums, Merge};
use super::interval::{Interval, Method, Z95, mean_sd};

/// Exact sums over paired groups of games: `x` is the baseline's total in a group, `y` the other
/// point's total in the same games, `d = y - x`; each group's denominator is its number of games.
/// A group is the games that share a deal in either point (a rotation set); where games are
/// independent every game is its own group and the intervals are the classic ones above.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairedSums {
    /// Games of each point.
    pub n: u64,
    pub x: GroupSums,
    pub y: GroupSums,
    pub d: GroupSums,
}

impl Merge for PairedSums {
    fn merge(&mut self, o: &PairedSums) {
        self.n += o.n;
        self.x.merge(&o.x);
        self.y.merge(&o.y);
        self.d.merge(&o.d);
    }
}

impl PairedSums {
    /// Adds one game as its own group.
    #[inline]
    pub fn add(&mut self, x: i64, y: i64) {
        self.add_group(x, y, 1);
    }

    /// Adds one group of `games` games whose totals are `x` (baseline) and `y` (other point).
    #[inline]
    pub fn add_group(&mut self, x: i64, y: i64, games: u64) {
        self.n += games;
        self.x.add(x, games);
        self.y.add(y, games);
        self.d.add(y - x, games);
    }

    pub fn merge(&mut self, o: &PairedSums) {
        Merge::merge(self, o);
    }

    /// Sums of `n` differences alone, each its own group: their sum and the sum of their squares
    /// (the values of each side unknown), for `paired` and `games_for`.
    pub fn of_differences(n: u64, sum_d: i128, sum_d2: u128) -> PairedSums {
        PairedSums { n, d: GroupSums::of_games(n, sum_d, sum_d2), ..PairedSums::default() }
    }

    /// Pairs whose paired interval would have half-width `half` at the measured spread of the
    /// differences (never below 2, the fewest pairs with an interval at all; `None` with fewer
    /// than 2 groups measured). See `games_for`.
    pub fn games_for(&self, half: f64) -> Option<u64> {
        games_for(&self.d, half)
    }

    /// Mean of the baseline's values.
    pub fn mean_x(&self) -> f64 {
        self.x.ratio_estimate()
    }

    /// Mean of the other point's values.
    pub fn mean_y(&self) -> f64 {
        self.y.ratio_estimate()
    }

    /// Mean difference and its 95% interval from the paired differences (per game, or from the
    /// group totals of the differences: `GroupSums::mean`).
    pub fn paired(&self) -> Interval {
        self.d.mean()
    }

    /// Difference of means and its 95% interval as if the two samples were independent: the
    /// variances of the two means add (each from its group totals when games come in groups).
    pub fn unpaired(&self) -> Interval {
        let d = self.mean_y() - self.mean_x();
        let half = if self.x.is_single_games() && self.y.is_single_games() {
            let (_, sx) = mean_sd(self.x.moments.t, self.x.moments.t2, self.n);
            let (_, sy) = mean_sd(self.y.moments.t, self.y.moments.t2, self.n);
            let n = self.n as f64;
            Z95 * (sx * sx / n + sy * sy / n).sqrt()
        } else {
            Z95 * (self.x.ratio_variance() + self.y.ratio_variance()).sqrt()
        };
        Interval {
            estimate: d,
            low: d - half,
            high: d + half,
            method: Method::Unpaired,
            units: self.d.groups,
        }
    }
}

/// Units of denominator (paired games, or measured differences) whose interval of the mean of
/// `sums` would have half-width `half` at the measured spread, rounded up and never below 2.
/// Independent units: `(z sd / half)²`, the sample size of a normal interval of half-width `half`
/// (Rice §7.3.3, the large-sample interval solved for `n`). Groups: the units measured times
/// `(h / half)²` for the current half-width `h`, as the ratio estimator's variance falls as one
/// over the number of groups at the same mix of groups. `None` with fewer than 2 groups.
pub fn games_for(sums: &GroupSums, half: f64) -> Option<u64> {
    if sums.groups < 2 {
        return None;
    }
    let need = if sums.is_single_games() {
        let (_, sd) = mean_sd(sums.moments.t, sums.moments.t2, sums.groups);
        (Z95 * sd / half).powi(2)
    } else {
        let h = Z95 * sums.ratio_variance().sqrt();
        sums.moments.m as f64 * (h / half).powi(2)
    };
    need.is_finite().then(|| (need.ceil() as u64).max(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answer_paired_and_unpaired() {
        // Pairs (x, y): (10, 12), (20, 21), (30, 35), (40, 44). d = 2, 1, 5, 4: mean 3,
        // sample variance ((1 + 4 + 4 + 1) / 3) = 10/3, so the half-width is z * sqrt(10/3) / 2.
        let mut s = PairedSums::default();
        for (x, y) in [(10, 12), (20, 21), (30, 35), (40, 44)] {
            s.add(x, y);
        }
        let p = s.paired();
        assert!((p.estimate - 3.0).abs() < 1e-12);
        assert!((p.half_width() - Z95 * (10.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12, "{p:?}");
        // x: mean 25, variance 500/3; y: mean 28, variance (256 + 49 + 49 + 256) / 3 = 610/3.
        let u = s.unpaired();
        assert!((u.estimate - 3.0).abs() < 1e-12);
        let half = Z95 * ((500.0 / 3.0 + 610.0 / 3.0) / 4.0f64).sqrt();
        assert!((u.half_width() - half).abs() < 1e-9, "{u:?} vs {half}");
        assert!(p.half_width() < u.half_width());
        assert_eq!((s.mean_x(), s.mean_y()), (25.0, 28.0));
    }

    #[test]
    fn differences_alone_give_the_same_interval_and_the_games_a_width_takes() {
        // d = 2, 1, 5, 4 as above: mean 3, sd sqrt(10/3).
        let s = PairedSums::of_differences(4, 12, 4 + 1 + 25 + 16);
        let p = s.paired();
        assert!((p.estimate - 3.0).abs() < 1e-12);
        assert!((p.half_width() - Z95 * (10.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12, "{p:?}");
        // Half-width 1 needs (z * sd)^2 = 3.8415 * 10/3 = 12.8 pairs: 13.
        assert_eq!(s.games_for(1.0), Some(13));
        // A difference that is always 0 has width 0 at any n: the fewest pairs with an interval.
        assert_eq!(PairedSums::of_differences(50, 0, 0).games_for(0.01), Some(2));
        assert_eq!(PairedSums::of_differences(1, 2, 4).games_for(0.01), None);
        // d = +-1 with equal frequency: sd^2 = 10,000/9,999, so +-0.01 takes 3.8415 * 1.0001 * 10^4
        // = 38,418.4 pairs: 38,419.
        let coin = PairedSums::of_differences(10_000, 0, 10_000);
        assert_eq!(coin.games_for(0.01), Some(38_419));
    }

    #[test]
    fn groups_of_two_games_pair_their_totals() {
        // Groups of 2 games, totals (x, y): (1, 3), (2, 2), (0, 3). D = 2, 0, 3 over m = 2 each:
        // r = 5/6; residuals 1/3, -5/3, 4/3, squares 42/9; var = 3/2 · 42/9 / 36 = 7/36.
        let mut s = PairedSums::default();
        for (x, y) in [(1, 3), (2, 2), (0, 3)] {
            s.add_group(x, y, 2);
        }
        let p = s.paired();
        assert_eq!((p.method, p.units, s.n), (Method::Ratio, 3, 6));
        assert!((p.estimate - 5.0 / 6.0).abs() < 1e-12);
        assert!((p.half_width() - Z95 * (7.0f64 / 36.0).sqrt()).abs() < 1e-12, "{p:?}");
        let u = s.unpaired();
        assert_eq!(u.method, Method::Unpaired);
        let half = Z95 * (s.x.ratio_variance() + s.y.ratio_variance()).sqrt();
        assert!((u.half_width() - half).abs() < 1e-12 && (u.estimate - 5.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn merging_halves_equals_one_pass() {
        let pairs: Vec<(i64, i64)> = (0..40).map(|i| (i * 3 % 7, i * 5 % 11 - 4)).collect();
        let mut whole = PairedSums::default();
        let (mut a, mut b) = (PairedSums::default(), PairedSums::default());
        for (i, &(x, y)) in pairs.iter().enumerate() {
            whole.add(x, y);
            if i % 3 == 0 { &mut a } else { &mut b }.add(x, y);
        }
        b.merge(&a);
        assert_eq!(b, whole);
    }
}
