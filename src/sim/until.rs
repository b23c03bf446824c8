//! `--until METRIC:HALFWIDTH`: play until a metric's 95% interval is narrow enough.
//!
//! Reproducibility rules the design: the stopping test is made only after a deterministic number
//! of games (10,000, then doubling: 20,000, 40,000, ..., each moved up to the next multiple of the
//! point's deal-group size so that a look never splits a group of games sharing a deal), and looks only at the exact statistics of
//! games `0..n`, so the same command always stops after the same games and writes the same files,
//! whatever the threads, the blocks, or interruptions and resumes in between.

use std::fmt;

use crate::error::UsageError;
use crate::record::Layout;
use crate::stats::{Accumulator, Interval, metric};

/// Games before the first stopping test; each later test is after twice as many.
pub const FIRST_STEP: u64 = 10_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Until {
    /// A metric name of `stats::metric`'s vocabulary.
    pub metric: String,
    pub half_width: f64,
    /// The text as given, for the manifest and the saved state.
    pub raw: String,
}

impl Until {
    /// Parses `METRIC:HALFWIDTH`; the metric is checked against the points later (`check`).
    pub fn parse(raw: &str) -> Result<Until, UsageError> {
        let (metric, hw) = raw.rsplit_once(':').ok_or_else(|| {
            UsageError(format!(
                "--until '{raw}' should be METRIC:HALFWIDTH, e.g. length_mean:0.5 or win_rate:0.001"
            ))
        })?;
        let half_width: f64 = hw
            .trim()
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x > 0.0)
            .ok_or_else(|| UsageError(format!("--until '{raw}': HALFWIDTH must be a positive number")))?;
        Ok(Until { metric: metric.trim().to_string(), half_width, raw: raw.to_string() })
    }

    /// The metric must name something of every point; otherwise the error lists what is allowed.
    pub fn check(&self, layouts: &[&Layout]) -> Result<(), UsageError> {
        if layouts.iter().all(|l| metric::resolve(&self.metric, l).is_some()) {
            return Ok(());
        }
        Err(UsageError(format!(
            "--until: '{}' is not a metric of every point (metrics: {})",
            self.metric,
            metric::common_names(layouts).join(", ")
        )))
    }

    /// The metric's 95% interval over the games in `acc`.
    pub fn interval(&self, layout: &Layout, acc: &Accumulator) -> Interval {
        metric::resolve(&self.metric, layout)
            .expect("metric checked before the run")
            .quantity
            .interval(layout, acc)
    }

    /// Whether the interval is narrow enough (NaN, as with too few games, is not).
    pub fn met(&self, layout: &Layout, acc: &Accumulator) -> bool {
        self.interval(layout, acc).half_width() <= self.half_width
    }

    /// Whether a stopping test is made after `done` games, in deal groups of `group` games.
    pub fn is_test_point(done: u64, group: u64) -> bool {
        done >= FIRST_STEP && Self::next_test_point(done - 1, group) == done
    }

    /// The first test point after `done` games: 10,000 times a power of two, moved up to a
    /// multiple of `group`.
    pub fn next_test_point(done: u64, group: u64) -> u64 {
        let group = group.max(1);
        let mut n = FIRST_STEP;
        loop {
            let look = n.div_ceil(group).saturating_mul(group);
            if look > done {
                return look;
            }
            n = n.saturating_mul(2);
        }
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_points_double_from_ten_thousand() {
        assert_eq!(Until::next_test_point(0, 1), 10_000);
        assert_eq!(Until::next_test_point(10_000, 1), 20_000);
        assert_eq!(Until::next_test_point(25_000, 2), 40_000);
        assert!(Until::is_test_point(80_000, 1) && !Until::is_test_point(30_000, 1));
        assert!(!Until::is_test_point(0, 1) && !Until::is_test_point(9_999, 1));
        // Three-game deal groups: the looks move up to whole groups.
        assert_eq!(Until::next_test_point(0, 3), 10_002);
        assert_eq!(Until::next_test_point(10_002, 3), 20_001);
        assert!(Until::is_test_point(10_002, 3) && !Until::is_test_point(10_000, 3));
    }

    #[test]
    fn parses() {
        let u = Until::parse("length_mean:0.5").unwrap();
        assert_eq!((u.metric.as_str(), u.half_width), ("length_mean", 0.5));
        assert!(Until::parse("length_mean").is_err());
        assert!(Until::parse("length_mean:-1").is_err());
        assert!(Until::parse("length_mean:x").is_err());
    }
}
