//! An exact histogram of integer values: a dense count per value between the smallest and the
//! largest value seen. Game lengths are bounded by the game's cap, and every other distribution a
//! game records (war depth, cycle period, margins, points) is small, so dense storage is exact,
//! compact and fast; no approximation (as HdrHistogram's buckets would be) is needed.
//!
//! Moments are exact integer sums; quantiles use the nearest-rank definition (the smallest value
//! whose cumulative count reaches ceil(p * n); Hyndman & Fan 1996, definition 1 for p in (0, 1]).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// Value of `counts[0]`.
    offset: i64,
    counts: Vec<u64>,
    total: u64,
}

impl Histogram {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn add(&mut self, value: i64) {
        self.add_n(value, 1);
    }

    #[inline]
    pub fn add_n(&mut self, value: i64, n: u64) {
        if n == 0 {
            return;
        }
        if self.counts.is_empty() {
            self.offset = value;
            self.counts.push(0);
        } else if value < self.offset {
            let grow = (self.offset - value) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.offset = value;
        }
        let at = (value - self.offset) as usize;
        if at >= self.counts.len() {
            self.counts.resize(at + 1, 0);
        }
        self.counts[at] += n;
        self.total += n;
    }

    pub fn merge(&mut self, other: &Histogram) {
        for (value, n) in other.iter() {
            self.add_n(value, n);
        }
    }

    /// Number of values recorded.
    /// Whether the histogram is one `add` could have made: its total is the sum of its counts, and
    /// the first and last counts are not zero (the stored range is tight).
    pub fn is_consistent(&self) -> bool {
        let sum = self.counts.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        sum == Some(self.total)
            && (self.counts.is_empty() || (self.counts[0] > 0 && *self.counts.last().expect("non-empty") > 0))
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// (value, count) for every value with a non-zero count, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, &n)| (self.offset + i as i64, n))
    }

    pub fn count_of(&self, value: i64) -> u64 {
        if value < self.offset {
            return 0;
        }
        self.counts.get((value - self.offset) as usize).copied().unwrap_or(0)
    }

    pub fn sum(&self) -> i128 {
        self.iter().map(|(v, n)| v as i128 * n as i128).sum()
    }

    pub fn sum_sq(&self) -> u128 {
        self.iter().map(|(v, n)| (v.unsigned_abs() as u128).pow(2) * n as u128).sum()
    }

    pub fn min(&self) -> Option<i64> {
        self.iter().next().map(|(v, _)| v)
    }

    pub fn max(&self) -> Option<i64> {
        self.iter().last().map(|(v, _)| v)
    }

    /// Nearest-rank quantile, `p` in (0, 1].
    pub fn quantile(&self, p: f64) -> Option<i64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((p * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (v, n) in self.iter() {
            seen += n;
            if seen >= rank {
                return Some(v);
            }
        }
        self.max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_moments_of_one_to_hundred() {
        let mut h = Histogram::new();
        for v in (1..=100).rev() {
            h.add(v);
        }
        assert_eq!(h.total(), 100);
        assert_eq!(h.sum(), 5050);
        assert_eq!(h.sum_sq(), 338_350);
        assert_eq!(h.quantile(0.5), Some(50));
        assert_eq!(h.quantile(0.9), Some(90));
        assert_eq!(h.quantile(0.99), Some(99));
        assert_eq!(h.quantile(1.0), Some(100));
        assert_eq!((h.min(), h.max()), (Some(1), Some(100)));
    }

    #[test]
    fn merge_is_order_independent_and_handles_negative_values() {
        let mut a = Histogram::new();
        let mut b = Histogram::new();
        for v in [5, -3, 5, 9] {
            a.add(v);
        }
        for v in [-10, 0, 5] {
            b.add(v);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab.iter().collect::<Vec<_>>(), ba.iter().collect::<Vec<_>>());
        assert_eq!(ab.count_of(5), 3);
        assert_eq!(ab.sum(), 5 - 3 + 5 + 9 - 10 + 5);
        assert_eq!(ab.min(), Some(-10));
    }
}
