//! `--until METRIC:HALFWIDTH`: play until a metric's 95% confidence sequence is narrow enough.
//!
//! The stopping interval is anytime-valid (`stats::sequence`): it covers the metric at every look
//! at once with 95% probability, so stopping at the first narrow enough look does not lower its
//! coverage, as a fixed-n interval looked at repeatedly does. The run reports the interval it
//! stopped on (`summary.csv`'s `until_*` columns, `manifest.json`'s `until_intervals`). Its
//! boundary is tuned to be tightest at `TUNED_AT` games, the third look: from the first look to the
//! seventh (10,000 to 640,000 games) it is within 10% of the narrowest width a sequence tuned for
//! that very look could have, so the tuning costs little wherever the run stops.
//!
//! Reproducibility rules the design: the stopping test is made only after a deterministic number
//! of games (10,000, then doubling: 20,000, 40,000, ..., each moved up to the next multiple of the
//! point's deal-group size so that a look never splits a group of games sharing a deal), and looks only at the exact statistics of
//! games `0..n`, so the same command always stops after the same games and writes the same files,
//! whatever the threads, the blocks, or interruptions and resumes in between.

use std::fmt;

use crate::error::UsageError;
use crate::record::Layout;
use crate::stats::sequence::{ALPHA, rho2_tightest_at};
use crate::stats::{Accumulator, Interval, metric};

/// Games before the first stopping test; each later test is after twice as many.
pub const FIRST_STEP: u64 = 10_000;
/// Games at which the stopping sequence is tightest (the third look).
pub const TUNED_AT: u64 = 4 * FIRST_STEP;
/// How the stopping interval is made, as `summary.csv` and `manifest.json` name it.
pub const METHOD: &str = "confidence_sequence_normal_mixture_95";

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
    pub fn check(&self, layouts: &[&Layout], game: &str) -> Result<(), UsageError> {
        if layouts.iter().all(|l| metric::resolve(&self.metric, l).is_some()) {
            return Ok(());
        }
        Err(UsageError(format!(
            "--until: '{}' is not a metric of every point{}",
            self.metric,
            metric::unknown(&self.metric, &metric::common_names(layouts), game)
        )))
    }

    /// The metric's 95% confidence sequence over the games in `acc`: the stopping interval.
    pub fn interval(&self, layout: &Layout, acc: &Accumulator) -> Interval {
        let quantity = metric::resolve(&self.metric, layout).expect("metric checked before the run").quantity;
        quantity.sequence(layout, acc, ALPHA, rho2(layout.group_size))
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

/// The mixture's tuning of the stopping sequence: tightest at `TUNED_AT` games, counted in deal
/// groups of `group_size` games (the sequence's observations).
pub fn rho2(group_size: u64) -> f64 {
    rho2_tightest_at(TUNED_AT as f64 / group_size.max(1) as f64, ALPHA)
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

    /// Uniform in (0, 1] from 53 random bits.
    fn uniform(rng: &mut crate::seed::GameRng) -> f64 {
        use rand_core::Rng;
        ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Exponential values with mean 1: skewed like game lengths (a low mean comes with a small
    /// spread, so a narrow early interval tends to sit low).
    fn exponential(rng: &mut crate::seed::GameRng) -> f64 {
        -uniform(rng).ln()
    }

    /// One sequential run on synthetic data drawn by `draw`: looks after `first`, `2 first`, ...
    /// observations (`looks` of them), stopping at the first look whose half-width is at most `h`.
    /// Returns (whether the interval stopped on covers `truth`, the look it stopped at).
    fn sequential_run(
        rng: &mut crate::seed::GameRng,
        draw: fn(&mut crate::seed::GameRng) -> f64,
        (first, looks, h, truth): (u64, u32, f64, f64),
        interval: &dyn Fn(f64, f64, u64) -> Interval,
    ) -> (bool, u32) {
        let (mut sum, mut sum_sq, mut n) = (0.0f64, 0.0f64, 0u64);
        for look in 0..looks {
            while n < first << look {
                let x = draw(rng);
                sum += x;
                sum_sq += x * x;
                n += 1;
            }
            let mean = sum / n as f64;
            let sd = ((sum_sq - n as f64 * mean * mean) / (n as f64 - 1.0)).max(0.0).sqrt();
            let i = interval(mean, sd, n);
            if i.half_width() <= h || look + 1 == looks {
                return (i.contains(truth), look);
            }
        }
        unreachable!("the last look always stops")
    }

    /// Misses, and runs stopped at the first look, over `RUNS` replicate sequential runs of
    /// exponential data with looks after 50, 100, ..., 1,600 values.
    fn replicate(h: f64, interval: &dyn Fn(f64, f64, u64) -> Interval) -> (u32, u32) {
        let mut rng = crate::seed::GameSeed::new(2026, 26).rng();
        let (mut missed, mut at_first) = (0, 0);
        for _ in 0..RUNS {
            let (covered, look) = sequential_run(&mut rng, exponential, (50, 6, h, 1.0), interval);
            missed += !covered as u32;
            at_first += (look == 0) as u32;
        }
        (missed, at_first)
    }

    /// The most misses 95% coverage allows over `runs` replicates: the expected 5% plus three
    /// binomial standard deviations (a correct interval fails this about once in 700 seeds).
    fn allowed_misses(runs: u32) -> f64 {
        let r = runs as f64;
        ALPHA * r + 3.0 * (r * ALPHA * (1.0 - ALPHA)).sqrt()
    }

    const RUNS: u32 = 4_000;

    /// The stopping rule `Until` applies, scaled down: the sequence is tightest at the third look.
    fn sequence(mean: f64, sd: f64, n: u64) -> Interval {
        crate::stats::sequence::mean_cs(mean, sd, n, ALPHA, rho2_tightest_at(4.0 * 50.0, ALPHA))
    }

    #[test]
    fn the_stopping_sequence_covers_the_mean_whatever_look_stops_the_run() {
        // The wider target makes at least a twentieth of the runs stop at the first look, the
        // narrower one makes most go on (the fixed-n test below stops at that narrower target).
        for (h, first_stops) in [(0.25, 0), (0.35, RUNS / 20)] {
            let (missed, at_first) = replicate(h, &sequence);
            assert!(at_first >= first_stops, "h {h}: only {at_first} runs stopped at the first look");
            assert!(f64::from(missed) <= allowed_misses(RUNS), "h {h}: {missed} of {RUNS} runs missed");
        }
    }

    #[test]
    fn the_stopping_sequence_of_a_rare_rate_covers_it() {
        // A 1% event, looks after 500, 1,000, ... trials, stopping at half-width 0.014 (about an
        // eighth of the runs stop at the first look): the score form of the sequence.
        fn event(rng: &mut crate::seed::GameRng) -> f64 {
            (uniform(rng) <= 0.01) as u8 as f64
        }
        let rho2 = rho2_tightest_at(4.0 * 500.0, ALPHA);
        let rate = |mean: f64, _sd: f64, n: u64| {
            crate::stats::sequence::rate_cs((mean * n as f64).round() as u64, n, ALPHA, rho2)
        };
        let mut rng = crate::seed::GameSeed::new(2026, 24).rng();
        let (mut missed, mut at_first) = (0, 0);
        for _ in 0..RUNS {
            let (covered, look) = sequential_run(&mut rng, event, (500, 6, 0.014, 0.01), &rate);
            missed += !covered as u32;
            at_first += (look == 0) as u32;
        }
        assert!(at_first >= RUNS / 20, "only {at_first} runs stopped at the first look");
        assert!(f64::from(missed) <= allowed_misses(RUNS), "{missed} of {RUNS} runs missed");
    }

    #[test]
    fn the_old_fixed_interval_looked_at_repeatedly_under_covers() {
        // The rule before the confidence sequence: the fixed-n normal interval at every look. Its
        // misses must exceed what 95% coverage allows, or the test above could pass vacuously.
        let fixed = |mean: f64, sd: f64, n: u64| crate::stats::Interval {
            estimate: mean,
            low: mean - crate::stats::interval::Z95 * sd / (n as f64).sqrt(),
            high: mean + crate::stats::interval::Z95 * sd / (n as f64).sqrt(),
            method: crate::stats::Method::Normal,
            units: n,
        };
        let (missed, at_first) = replicate(0.25, &fixed);
        assert!(at_first >= RUNS / 20, "only {at_first} runs stopped at the first look");
        assert!(f64::from(missed) > allowed_misses(RUNS), "{missed} of {RUNS} runs missed");
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
