//! Contrasts between the points of a sweep played on common deals: a setting's effect averaged
//! over the other settings, and interactions, each with a paired 95% interval.
//!
//! Every point of a run plays game `i` from the same seed, so game `i` (or, where seats rotate,
//! the deal group holding it) is one independent draw of *all* points at once: the **unit of
//! independence is the deal group**, the same index range in every point. A point's value is a
//! ratio `r_p = Σ_g Y_gp / Σ_g M_gp` (a mean over games: `M` counts games; a share of a random
//! subset, such as the first player's share of decided games: `M` counts the decided games). A
//! contrast `c = Σ_p w_p r_p` (a main effect: `+1/C` on the points at one level and `-1/C` on the
//! matching points at the reference level, `C` cells of the other settings) is estimated by the
//! same sum of ratios, and its variance by linearisation over the deal groups (the ratio
//! estimator's variance of Cochran, *Sampling Techniques*, 3rd ed., 1977, §6.3-6.4, extended to a
//! linear combination of ratios measured on the same units, as in §6.13 on the variance of a
//! difference of ratio estimates):
//!
//! ```text
//! u_g    = Σ_p w_p (Y_gp - r_p M_gp) / Σ_g M_gp
//! var(c) = G / (G - 1) · Σ_g u_g²
//! ```
//!
//! Luck shared by the points of one deal cancels inside `u_g`, which is what makes small effects
//! visible (common random numbers, Law & Kelton, *Simulation Modeling and Analysis*, §11.2).
//! Points whose deals differ are still measured correctly: their draws are independent, and
//! `Σ u_g²` then estimates the sum of their variances.
//!
//! What is kept is exact and mergeable: the number of groups, each variable's sum and every
//! product of two variables over the groups (`Σ_g v_i v_j`, the variables being each point's `Y`
//! and `M`), in 128-bit integers; any contrast is computed from them after the games, and the
//! result is the same whatever order partial sums merged in.

use super::interval::{Interval, Method, Z95};

/// Exact co-moments of the per-group totals `(Y_p, M_p)` of `k` points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoSums {
    pub points: usize,
    pub groups: u64,
    /// `Σ_g v_i`, the variables in order `Y_0, M_0, Y_1, M_1, ...`.
    pub sum: Vec<i128>,
    /// `Σ_g v_i v_j` for `i <= j`, row by row of the upper triangle.
    pub products: Vec<i128>,
}

impl CoSums {
    pub fn new(points: usize) -> CoSums {
        let v = 2 * points;
        CoSums { points, groups: 0, sum: vec![0; v], products: vec![0; v * (v + 1) / 2] }
    }

    fn index(&self, i: usize, j: usize) -> usize {
        let (i, j) = if i <= j { (i, j) } else { (j, i) };
        let v = 2 * self.points;
        // Row r of the triangle holds v - r entries: row i starts after i v - i (i - 1) / 2.
        i * v - i * i.saturating_sub(1) / 2 + (j - i)
    }

    /// Adds one deal group: `values[2 p]` is point `p`'s total `Y`, `values[2 p + 1]` its `M`.
    pub fn add_group(&mut self, values: &[i64]) {
        debug_assert_eq!(values.len(), 2 * self.points);
        self.groups += 1;
        let v = values.len();
        let mut at = 0;
        for i in 0..v {
            let a = values[i] as i128;
            self.sum[i] += a;
            if a == 0 {
                at += v - i;
                continue;
            }
            for (slot, &b) in self.products[at..at + v - i].iter_mut().zip(&values[i..]) {
                *slot += a * b as i128;
            }
            at += v - i;
        }
    }

    pub fn merge(&mut self, o: &CoSums) {
        if self.points == 0 && self.groups == 0 {
            *self = o.clone();
            return;
        }
        self.groups += o.groups;
        for (a, b) in self.sum.iter_mut().zip(&o.sum) {
            *a += b;
        }
        for (a, b) in self.products.iter_mut().zip(&o.products) {
            *a += b;
        }
    }

    fn product(&self, i: usize, j: usize) -> f64 {
        self.products[self.index(i, j)] as f64
    }

    /// Point `p`'s value `Σ Y / Σ M` (NaN without a denominator).
    pub fn value(&self, p: usize) -> f64 {
        let m = self.sum[2 * p + 1];
        if m == 0 { f64::NAN } else { self.sum[2 * p] as f64 / m as f64 }
    }

    /// The contrast `Σ_p w_p r_p` and its 95% interval over the deal groups (see the module
    /// comment); undefined with fewer than two groups or a weighted point without a denominator.
    pub fn contrast(&self, weights: &[f64]) -> Interval {
        let undefined = Interval::undefined(Method::Ratio);
        if self.groups < 2 || weights.len() != self.points {
            return undefined;
        }
        let used: Vec<usize> = (0..self.points).filter(|&p| weights[p] != 0.0).collect();
        if used.iter().any(|&p| self.sum[2 * p + 1] == 0) {
            return undefined;
        }
        let r: Vec<f64> = (0..self.points).map(|p| self.value(p)).collect();
        let estimate: f64 = used.iter().map(|&p| weights[p] * r[p]).sum();
        let a = |p: usize| weights[p] / self.sum[2 * p + 1] as f64;
        let mut s = 0.0;
        for &p in &used {
            for &q in &used {
                let (yp, mp, yq, mq) = (2 * p, 2 * p + 1, 2 * q, 2 * q + 1);
                let e = self.product(yp, yq) - r[q] * self.product(yp, mq) - r[p] * self.product(mp, yq)
                    + r[p] * r[q] * self.product(mp, mq);
                s += a(p) * a(q) * e;
            }
        }
        let g = self.groups as f64;
        let var = (g / (g - 1.0) * s).max(0.0);
        let half = Z95 * var.sqrt();
        Interval {
            estimate,
            low: estimate - half,
            high: estimate + half,
            method: Method::Ratio,
            units: self.groups,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(points: usize, groups: &[Vec<i64>]) -> CoSums {
        let mut s = CoSums::new(points);
        for g in groups {
            s.add_group(g);
        }
        s
    }

    #[test]
    fn the_triangle_holds_every_product_once() {
        let s = sums(2, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        let v = [[1, 2, 3, 4], [5, 6, 7, 8]];
        for i in 0..4 {
            for j in 0..4 {
                let want: i64 = v.iter().map(|g| g[i] * g[j]).sum();
                assert_eq!(s.product(i, j), want as f64, "({i}, {j})");
            }
        }
    }

    #[test]
    fn a_difference_of_two_means_is_the_paired_interval() {
        // One game per group (M = 1): x = 10, 20, 30, 40 and y = 12, 21, 35, 44. d = 2, 1, 5, 4:
        // mean 3, sample variance 10/3, half-width z sqrt(10/3) / 2 (as `PairedSums::paired`).
        let g: Vec<Vec<i64>> =
            [(10, 12), (20, 21), (30, 35), (40, 44)].iter().map(|&(x, y)| vec![x, 1, y, 1]).collect();
        let c = sums(2, &g).contrast(&[-1.0, 1.0]);
        assert!((c.estimate - 3.0).abs() < 1e-12);
        assert!((c.half_width() - Z95 * (10.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-9, "{c:?}");
        assert_eq!((c.units, c.method), (4, Method::Ratio));
    }

    #[test]
    fn a_main_effect_averages_the_differences_over_the_other_setting() {
        // A 2 x 2 sweep: setting A (off, on) x setting B (lo, hi), points in that order:
        // (off, lo), (off, hi), (on, lo), (on, hi). Per deal the values are a base luck b_g plus
        // A's effect 4 and B's 1 and an interaction 2 when both are set: every deal's contrast is
        // exactly ((b+4) - b + (b+1+4+2) - (b+1)) / 2 = 5, so the estimate is 5 with no width.
        let luck = [3, 9, 1, 7, 5];
        let g: Vec<Vec<i64>> = luck.iter().map(|&b| vec![b, 1, b + 1, 1, b + 4, 1, b + 7, 1]).collect();
        let s = sums(4, &g);
        let main = s.contrast(&[-0.5, -0.5, 0.5, 0.5]);
        assert!((main.estimate - 5.0).abs() < 1e-12 && main.half_width() < 1e-6, "{main:?}");
        let interaction = s.contrast(&[1.0, -1.0, -1.0, 1.0]);
        assert!((interaction.estimate - 2.0).abs() < 1e-12 && interaction.half_width() < 1e-6);
        // The points alone vary with the luck: their unpaired difference would be wide.
        let lone = sums(1, &luck.iter().map(|&b| vec![b, 1]).collect::<Vec<_>>()).contrast(&[1.0]);
        assert!(lone.half_width() > 1.0);
    }

    #[test]
    fn a_share_of_a_random_subset_is_linearised() {
        // Point 0: the share Y/M per deal; point 1 the same deals with one more success. With a
        // single point, the contrast [1] is the ratio estimator of `stats::group`: r = 5/8 and
        // var = G/(G-1) Σ (Y - r M)² / (Σ M)².
        let g = vec![vec![1, 2, 2, 2], vec![2, 3, 3, 3], vec![2, 3, 2, 3]];
        let s = sums(2, &g);
        let one = s.contrast(&[1.0, 0.0]);
        let r = 5.0 / 8.0;
        let resid: f64 =
            [(1.0, 2.0), (2.0, 3.0), (2.0, 3.0)].iter().map(|(y, m)| (y - r * m) * (y - r * m)).sum();
        let var = 1.5 * resid / 64.0;
        assert!((one.estimate - r).abs() < 1e-12);
        assert!((one.half_width() - Z95 * var.sqrt()).abs() < 1e-12, "{one:?}");
        // The difference: 7/8 - 5/8; per deal u = (Y1 - r1 M1 - Y0 + r0 M0) / 8.
        let d = s.contrast(&[-1.0, 1.0]);
        assert!((d.estimate - 0.25).abs() < 1e-12);
        let r1 = 7.0 / 8.0;
        let u: f64 = [(1.0, 2.0, 2.0, 2.0), (2.0, 3.0, 3.0, 3.0), (2.0, 3.0, 2.0, 3.0)]
            .iter()
            .map(|(y0, m0, y1, m1)| ((y1 - r1 * m1) - (y0 - r * m0)) / 8.0)
            .map(|u| u * u)
            .sum();
        assert!((d.half_width() - Z95 * (1.5 * u).sqrt()).abs() < 1e-12, "{d:?}");
    }

    #[test]
    fn merging_parts_equals_one_pass() {
        let g: Vec<Vec<i64>> = (0..30).map(|i| vec![i % 7, 1, (i * 5) % 11, 1 + i % 2]).collect();
        let whole = sums(2, &g);
        let mut a = sums(2, &g[..11]);
        a.merge(&sums(2, &g[11..]));
        assert_eq!(a, whole);
        let mut empty = CoSums::default();
        empty.merge(&whole);
        assert_eq!(empty, whole);
        assert!(sums(2, &g[..1]).contrast(&[1.0, -1.0]).estimate.is_nan());
    }
}
