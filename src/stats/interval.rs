//! 95% confidence intervals.
//!
//! - Rates: the Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
//!   statistical inference", JASA 22, 1927; recommended by Brown, Cai & DasGupta, "Interval
//!   Estimation for a Binomial Proportion", Statistical Science 16, 2001). Unlike the Wald interval
//!   it stays inside [0, 1] and is sensible for rare events (0 of n gives [0, 3.84/(n+3.84)]).
//! - Means: the normal (central limit) interval mean +- z * s / sqrt(n), with the sample standard
//!   deviation s computed from exact integer sums.
//!
//! Both assume independent units. Games built in groups that share a deal get their intervals from
//! group totals instead (`stats::group`); every `Interval` says which method made it and over how
//! many independent units.

/// The 0.975 quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// How an interval was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Wilson's score interval of a rate over independent trials.
    Wilson,
    /// The normal interval of a mean over independent units.
    Normal,
    /// The ratio (cluster) estimator over independent groups (`stats::group`).
    Ratio,
    /// The two-sample interval of a difference of means of two independent samples.
    Unpaired,
    /// An anytime-valid confidence sequence (`stats::sequence`), valid at every look at once.
    Sequence,
    /// A betting confidence sequence of a bounded mean (`stats::betting`), valid at every look.
    Betting,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Wilson => "wilson",
            Method::Normal => "normal",
            Method::Ratio => "ratio",
            Method::Unpaired => "unpaired",
            Method::Sequence => "confidence_sequence",
            Method::Betting => "betting_confidence_sequence",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// The formula that made it.
    pub method: Method,
    /// The independent units it rests on: games for `Wilson` and `Normal` over games, groups for
    /// `Ratio`.
    pub units: u64,
}

impl Interval {
    /// No estimate: every figure NaN.
    pub fn undefined(method: Method) -> Interval {
        Interval { estimate: f64::NAN, low: f64::NAN, high: f64::NAN, method, units: 0 }
    }

    /// The same interval with every figure divided by `unit` (a count in a finer unit, such as
    /// half-points, shown in the file's unit).
    pub fn scaled(self, unit: f64) -> Interval {
        Interval { estimate: self.estimate / unit, low: self.low / unit, high: self.high / unit, ..self }
    }

    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// Wilson 95% interval for `k` successes in `n` trials. With `n = 0` everything is NaN.
pub fn wilson(k: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval::undefined(Method::Wilson);
    }
    let units = n;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // Clamp away rounding at the ends: 0 successes must give exactly 0 as the low end.
    let low = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if k == n { 1.0 } else { (centre + half).min(1.0) };
    Interval { estimate: p, low, high, method: Method::Wilson, units }
}

/// Mean and sample standard deviation from exact sums of values and of squares over `n` values.
pub fn mean_sd(sum: i128, sum_sq: u128, n: u64) -> (f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let nf = n as f64;
    let mean = sum as f64 / nf;
    if n < 2 {
        return (mean, f64::NAN);
    }
    // n * sum_sq - sum^2 is exact in integers (it is n^2 times the population variance).
    let n_i = n as i128;
    let spread = (n_i as u128).checked_mul(sum_sq).and_then(|a| {
        let b = sum.unsigned_abs().checked_mul(sum.unsigned_abs())?;
        a.checked_sub(b)
    });
    let var = match spread {
        Some(s) => s as f64 / (nf * (nf - 1.0)),
        None => (sum_sq as f64 - (sum as f64) * mean) / (nf - 1.0),
    };
    (mean, var.max(0.0).sqrt())
}

/// Normal 95% interval for a mean from exact sums.
pub fn mean_interval(sum: i128, sum_sq: u128, n: u64) -> Interval {
    let (mean, sd) = mean_sd(sum, sum_sq, n);
    let half = if n >= 2 { Z95 * sd / (n as f64).sqrt() } else { f64::NAN };
    Interval { estimate: mean, low: mean - half, high: mean + half, method: Method::Normal, units: n }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_published_values() {
        // Brown, Cai & DasGupta (2001), and any textbook: 5 of 10 gives [0.2366, 0.7634].
        let i = wilson(5, 10);
        assert!(close(i.low, 0.236_593, 1e-5) && close(i.high, 0.763_407, 1e-5), "{i:?}");
        // 0 of 10: [0, z^2/(n+z^2)] = [0, 0.27753].
        let z = wilson(0, 10);
        assert_eq!(z.low, 0.0);
        assert!(close(z.high, 3.841_459 / 13.841_459, 1e-6), "{z:?}");
        // 10 of 10 mirrors it.
        let all = wilson(10, 10);
        assert_eq!(all.high, 1.0);
        assert!(close(all.low, 10.0 / 13.841_459, 1e-6), "{all:?}");
        // 81 of 263 (Newcombe 1998, Table I): [0.2553, 0.3662].
        let n = wilson(81, 263);
        assert!(close(n.low, 0.2553, 1e-4) && close(n.high, 0.3662, 1e-4), "{n:?}");
    }

    #[test]
    fn mean_interval_of_known_sample() {
        // Values 1..=5: mean 3, sample sd sqrt(2.5).
        let sum = 15i128;
        let sum_sq = 55u128;
        let (m, sd) = mean_sd(sum, sum_sq, 5);
        assert!(close(m, 3.0, 1e-12) && close(sd, 2.5f64.sqrt(), 1e-12));
        let i = mean_interval(sum, sum_sq, 5);
        assert!(close(i.half_width(), Z95 * 2.5f64.sqrt() / 5f64.sqrt(), 1e-12));
        // A constant sample has zero width.
        let c = mean_interval(70, 700, 7);
        assert!(close(c.low, 10.0, 1e-12) && close(c.high, 10.0, 1e-12));
    }

    #[test]
    fn mean_of_negative_values() {
        // -2, 0, 2: mean 0, sd 2.
        let (m, sd) = mean_sd(0, 8, 3);
        assert!(close(m, 0.0, 1e-12) && close(sd, 2.0, 1e-12));
    }
}
