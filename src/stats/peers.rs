//! Judging each member of a family against its peers by a reference one outlier cannot move
//! (`docs/balance.md`): the median of the peers' true values.
//!
//! Each member has an interval `[L, U]`, all of them holding together with probability 1 - alpha
//! (Bonferroni over the family). When they all hold, the k-th smallest of the peers' true values
//! lies between the k-th smallest `L` and the k-th smallest `U` (order statistics are monotone), so
//! the peers' median lies in `[L_(lower middle), U_(upper middle)]`. A member is `Above` when its
//! `L` exceeds that range's top and `Below` when its `U` is under its bottom: then, with
//! probability at least 1 - alpha over the whole family, every such statement is true. A member's
//! own interval never enters its reference (leave-one-out), so an outlier among identical peers is
//! flagged and its peers are not.

use super::bisect::Side;

/// One member's statement against its peers.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The peers' median estimate (the search's target); NaN without peers.
    pub reference: f64,
    /// The range that holds the peers' true median when every interval holds.
    pub range: (f64, f64),
    /// Above or below the peers' median (None: not shown, or no peers).
    pub side: Option<Side>,
}

fn sorted(mut xs: Vec<f64>) -> Vec<f64> {
    xs.sort_by(f64::total_cmp);
    xs
}

/// The median of `xs` (the mean of the two middle ones for an even count); NaN when empty.
pub fn median(xs: &[f64]) -> f64 {
    let s = sorted(xs.to_vec());
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// Judges every member: `estimates[i]` with its simultaneous interval `intervals[i]` (None: not
/// measured, neither judged nor a peer), peers being the other measured members of the same
/// `group`.
pub fn judge(estimates: &[f64], intervals: &[Option<(f64, f64)>], group: &[u32]) -> Vec<Judgement> {
    (0..estimates.len())
        .map(|i| {
            let peers: Vec<usize> = (0..estimates.len())
                .filter(|&j| j != i && group[j] == group[i] && intervals[j].is_some())
                .collect();
            let none = Judgement { reference: f64::NAN, range: (f64::NAN, f64::NAN), side: None };
            let (Some((low, high)), false) = (intervals[i], peers.is_empty()) else { return none };
            let n = peers.len();
            let lows = sorted(peers.iter().map(|&j| intervals[j].map_or(f64::NAN, |x| x.0)).collect());
            let highs = sorted(peers.iter().map(|&j| intervals[j].map_or(f64::NAN, |x| x.1)).collect());
            // Lower middle of the lows, upper middle of the highs: the whole range any median of
            // the peers' true values may take.
            let range = (lows[(n - 1) / 2], highs[n / 2]);
            let side = if low > range.1 {
                Some(Side::Above)
            } else if high < range.0 {
                Some(Side::Below)
            } else {
                None
            };
            let reference = median(&peers.iter().map(|&j| estimates[j]).collect::<Vec<_>>());
            Judgement { reference, range, side }
        })
        .collect()
}

/// The two-sided normal quantile for `m` simultaneous comparisons at family-wise `ALPHA`
/// (1.96 for one).
pub fn bonferroni_z(m: usize) -> f64 {
    normal_quantile(1.0 - super::sequence::ALPHA / (2.0 * m.max(1) as f64))
}

/// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9;
/// P. J. Acklam, "An algorithm for computing the inverse normal cumulative distribution
/// function", 2003).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -39.69683028665376,
        220.9460984245205,
        -275.9285104469687,
        138.357751867269,
        -30.66479806614716,
        2.506628277459239,
    ];
    const B: [f64; 5] =
        [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
    const C: [f64; 6] = [
        -0.007784894002430293,
        -0.3223964580411365,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_outlier_among_identical_peers_is_flagged_alone() {
        // Nine designs of one group: eight at 0.1 ± 0.05, one at 0.6 ± 0.05.
        let mut est = vec![0.1; 9];
        est[4] = 0.6;
        let iv: Vec<_> = est.iter().map(|&e| Some((e - 0.05, e + 0.05))).collect();
        let j = judge(&est, &iv, &[0; 9]);
        assert_eq!(j[4].side, Some(Side::Above));
        assert!((j[4].reference - 0.1).abs() < 1e-12);
        // The pooled mean of the group (0.156) would have put every peer's 0.15 below it.
        assert!(j.iter().enumerate().all(|(i, x)| i == 4 || x.side.is_none()));
    }

    #[test]
    fn the_range_is_the_middle_order_statistics_of_the_peers_bounds() {
        let est = [0.0, 1.0, 2.0, 3.0, 10.0];
        let iv: Vec<_> = est.iter().map(|&e| Some((e - 0.5, e + 0.5))).collect();
        let j = judge(&est, &iv, &[0; 5]);
        // Member 4's peers 0, 1, 2, 3: lows -0.5 0.5 1.5 2.5 (lower middle 0.5), highs 0.5 1.5
        // 2.5 3.5 (upper middle 2.5); median of estimates 1.5.
        assert_eq!((j[4].range, j[4].reference, j[4].side), ((0.5, 2.5), 1.5, Some(Side::Above)));
        // Member 0: peers 1, 2, 3, 10: range (1.5, 3.5): its high 0.5 is below.
        assert_eq!(j[0].side, Some(Side::Below));
        // Member 2 sits in its peers' range.
        assert_eq!(j[2].side, None);
    }

    #[test]
    fn groups_and_unmeasured_members_are_kept_apart() {
        let est = [0.0, 5.0, 0.0, 5.0];
        let iv = [Some((-0.1, 0.1)), Some((4.9, 5.1)), None, Some((4.9, 5.1))];
        let j = judge(&est, &iv, &[0, 1, 0, 1]);
        // Member 0's only peer (2) was not measured: no reference, no verdict.
        assert!(j[0].side.is_none() && j[0].reference.is_nan());
        assert!(j[1].side.is_none() && j[3].side.is_none() && j[2].side.is_none());
        assert!(median(&[]).is_nan() && median(&[3.0, 1.0]) == 2.0);
    }
}
