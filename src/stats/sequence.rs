//! Confidence sequences: intervals that hold at every look at once, so a run may look after every
//! block and stop whenever it likes (`--until`, the racing of `tune`) without losing coverage.
//!
//! A fixed-n interval covers 95% of the time at one pre-chosen n; looked at after every block and
//! used to decide when to stop, it covers less (the run stops when the interval happens to be
//! narrow, which for skewed quantities is when the mean happens to be low). A confidence sequence
//! (CS) bounds the whole path: P(some look misses) <= alpha.
//!
//! Formula: the asymptotic CS with the normal-mixture boundary (Waudby-Smith, Arbour, Sinha,
//! Kennedy & Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences",
//! Annals of Statistics 2024, arXiv:2103.06476, Theorem 2.2; the boundary is Robbins' normal mixture,
//! Robbins 1970, in the form of Howard, Ramdas, McAuliffe & Sekhon, "Time-uniform, nonparametric,
//! nonasymptotic confidence sequences", Annals of Statistics 49, 2021, eq. (14)). Over n
//! independent observations with mean m and standard deviation s:
//!
//! ```text
//! m +- s * radius(n),   radius(n) = sqrt( 2 (n rho2 + 1) / (n^2 rho2) * ln( sqrt(n rho2 + 1) / alpha ) )
//! ```
//!
//! `rho2` > 0 chooses where the boundary is tightest; it must be fixed before the data are seen.
//! With `rho2 = (-2 ln alpha + ln(-2 ln alpha + 1)) / n*` (Howard et al. 2021, section 3.5) it is
//! tightest near n* observations, where for alpha = 0.05 it is 1.55 times as wide as the fixed-n
//! normal interval (so the same width costs about 2.4 times the observations at n*).
//!
//! For a rate the same boundary is inverted like Wilson's score interval: the set of p with
//! |p_hat - p| <= sqrt(p (1 - p)) radius(n), which is Wilson's interval with z^2 / n replaced by
//! radius(n)^2 (so it stays in [0, 1] and is not empty or zero-wide when no game had the event).
//!
//! An observation is whatever is independent: a game, or a group of games sharing a deal.

use super::group::GroupSums;
use super::interval::{Interval, Method, mean_sd};

/// The error rate of warsim's sequences: 95% coverage over all looks together.
pub const ALPHA: f64 = 0.05;

/// The mixture's `rho2` that makes the boundary tightest near `n_star` observations.
pub fn rho2_tightest_at(n_star: f64, alpha: f64) -> f64 {
    let l = -2.0 * alpha.ln();
    (l + (l + 1.0).ln()) / n_star
}

/// The half-width per unit standard deviation after `n` observations (NaN for n = 0).
pub fn radius(n: f64, alpha: f64, rho2: f64) -> f64 {
    if n <= 0.0 {
        return f64::NAN;
    }
    let v = n * rho2 + 1.0;
    (2.0 * v / (n * n * rho2) * (v.sqrt() / alpha).ln()).sqrt()
}

/// The confidence sequence of a mean at `n` observations with mean `mean` and standard deviation
/// `sd`.
pub fn mean_cs(mean: f64, sd: f64, n: u64, alpha: f64, rho2: f64) -> Interval {
    let half = if n >= 2 { sd * radius(n as f64, alpha, rho2) } else { f64::NAN };
    Interval { estimate: mean, low: mean - half, high: mean + half, method: Method::Sequence, units: n }
}

/// The confidence sequence of a ratio over deal groups (`stats::group`): each group one
/// observation, its linearised value `(T_g - r m_g) / mean m` having the standard deviation
/// `sqrt(G var(r))` for the ratio estimator's variance `var(r)` (Cochran §6.4).
pub fn group_cs(sums: &GroupSums, alpha: f64, rho2: f64) -> Interval {
    let g = sums.groups;
    let sd = (sums.ratio_variance() * g as f64).sqrt();
    mean_cs(sums.ratio_estimate(), sd, g, alpha, rho2)
}

/// `mean_cs` from exact sums of values and of squares.
pub fn mean_cs_of_sums(sum: i128, sum_sq: u128, n: u64, alpha: f64, rho2: f64) -> Interval {
    let (mean, sd) = mean_sd(sum, sum_sq, n);
    mean_cs(mean, sd, n, alpha, rho2)
}

/// The confidence sequence of a rate: `k` events in `n` independent trials (score inversion).
pub fn rate_cs(k: u64, n: u64, alpha: f64, rho2: f64) -> Interval {
    if n == 0 {
        return Interval::undefined(Method::Sequence);
    }
    let p = k as f64 / n as f64;
    let c = radius(n as f64, alpha, rho2).powi(2);
    let centre = (p + c / 2.0) / (1.0 + c);
    let half = (p * (1.0 - p) * c + c * c / 4.0).sqrt() / (1.0 + c);
    let low = if k == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if k == n { 1.0 } else { (centre + half).min(1.0) };
    Interval { estimate: p, low, high, method: Method::Sequence, units: n }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::interval::{Z95, wilson};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Expected values computed independently in Python 3 (`math` only) from the formulas above:
    /// `rho2 = (-2*log(a) + log(-2*log(a) + 1)) / ns` and
    /// `r = sqrt(2*(n*rho2+1)/(n*n*rho2) * log(sqrt(n*rho2+1)/a))` with a = 0.05.
    #[test]
    fn boundary_matches_an_independent_calculation() {
        let rho2 = rho2_tightest_at(40_000.0, 0.05);
        assert!(close(rho2, 0.000_198_403_865_043_439, 1e-15), "{rho2}");
        assert!(close(radius(10_000.0, 0.05, rho2), 0.032_642_933_718_264, 1e-12));
        assert!(close(radius(40_000.0, 0.05, rho2), 0.015_176_044_951_882, 1e-12));
        assert!(close(radius(1e6, 0.05, rho2), 0.003_368_038_713_597, 1e-12));
        assert!(close(radius(100.0, 0.05, 0.01), 0.365_639_487_136_385, 1e-12));
        // Values 1..=5 (mean 3, sd sqrt 2.5), rho2 = 0.5.
        let m = mean_cs_of_sums(15, 55, 5, 0.05, 0.5);
        assert!(
            close(m.low, 0.748_120_948_869_068, 1e-12) && close(m.high, 5.251_879_051_130_931, 1e-12),
            "{m:?}"
        );
        // 30 events in 10,000 trials, tightest at 40,000.
        let r = rate_cs(30, 10_000, 0.05, rho2);
        assert!(
            close(r.low, 0.001_667_955_094_197, 1e-12) && close(r.high, 0.005_390_085_254_147, 1e-12),
            "{r:?}"
        );
    }

    #[test]
    fn at_its_tuning_point_it_is_about_one_and_a_half_times_the_fixed_interval() {
        let n = 40_000.0;
        let ratio = radius(n, ALPHA, rho2_tightest_at(n, ALPHA)) * n.sqrt() / Z95;
        assert!(close(ratio, 1.549, 0.001), "{ratio}");
        // Away from the tuning point it is wider, on both sides.
        let rho2 = rho2_tightest_at(n, ALPHA);
        for other in [10_000.0, 640_000.0] {
            assert!(radius(other, ALPHA, rho2) * f64::sqrt(other) / Z95 > ratio + 0.05);
        }
    }

    #[test]
    fn over_single_games_the_group_sequence_is_the_mean_sequence() {
        // Values 1..=5 as five one-game groups: the ratio estimator's G var(r) is the sample
        // variance, so the two sequences agree.
        let g = GroupSums::of_games(5, 15, 55);
        let (a, b) = (group_cs(&g, 0.05, 0.5), mean_cs_of_sums(15, 55, 5, 0.05, 0.5));
        assert!(close(a.low, b.low, 1e-9) && close(a.high, b.high, 1e-9), "{a:?} {b:?}");
    }

    #[test]
    fn the_rate_sequence_is_wilson_with_the_boundary_in_place_of_z() {
        // Wilson's centre over n' trials with z^2 / n' equal to the boundary's c = radius(n)^2 is
        // the sequence's centre: the same formula with c in place of z^2 / n.
        let rho2 = rho2_tightest_at(40_000.0, ALPHA);
        let (k, n) = (120u64, 10_000u64);
        let c = radius(n as f64, ALPHA, rho2).powi(2);
        let n_equiv = Z95 * Z95 / c; // Wilson over n_equiv trials with the same observed share.
        let cs = rate_cs(k, n, ALPHA, rho2);
        let p = k as f64 / n as f64;
        let w_centre = (p + Z95 * Z95 / (2.0 * n_equiv)) / (1.0 + Z95 * Z95 / n_equiv);
        assert!(close((cs.low + cs.high) / 2.0, w_centre, 1e-12));
        // And it is wider than the fixed-n Wilson interval at the same n.
        let w = wilson(k, n);
        assert!(cs.low < w.low && cs.high > w.high);
        // No event: starts at exactly 0 and has a positive width.
        let none = rate_cs(0, n, ALPHA, rho2);
        assert!(none.low == 0.0 && none.high > 0.0);
    }
}
