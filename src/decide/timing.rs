//! What a decision costs: wall time per decision (ns), per policy, in HDR histograms.
//!
//! A `Clock` sits with each policy of a game's line-up and times its decisions: every one for a
//! costly policy (search), one in `Clock::CHEAP` for the others, chosen by a countdown so the
//! sample is deterministic and the untimed decisions pay a decrement and a branch. What a run
//! collects is `stats::Timings`.

use std::time::Instant;

use hdrhistogram::Histogram;

pub use crate::stats::timings::Timings;
use crate::stats::timings::histogram;

/// Times one policy's decisions: every `every`-th one, counted down so the sample is the same
/// decisions every run.
#[derive(Clone, Debug)]
pub struct Clock {
    policy: String,
    every: u32,
    countdown: u32,
    decisions: Histogram<u64>,
}

impl Clock {
    /// The sampling rate of a cheap policy: one decision in 64 is timed, which keeps the clock's
    /// cost (two reads of the clock and one record) far below a `random` decision's.
    pub const CHEAP: u32 = 64;
    /// Every decision of a costly policy (search) is timed.
    pub const COSTLY: u32 = 1;

    pub fn new(policy: &str, every: u32) -> Clock {
        let every = every.max(1);
        Clock { policy: policy.to_string(), every, countdown: every, decisions: histogram() }
    }

    /// Runs `decide`, timing it if this decision is one of the sample.
    #[inline]
    pub fn time<T>(&mut self, decide: impl FnOnce() -> T) -> T {
        self.countdown -= 1;
        if self.countdown == 0 {
            return self.time_one(decide);
        }
        decide()
    }

    /// A decision of the sample, timed. Kept out of line, so that the untimed call is the one
    /// inlined into the caller's loop.
    #[cold]
    #[inline(never)]
    fn time_one<T>(&mut self, decide: impl FnOnce() -> T) -> T {
        self.countdown = self.every;
        let start = Instant::now();
        let out = decide();
        self.record(start);
        out
    }

    #[cold]
    fn record(&mut self, start: Instant) {
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.decisions.saturating_record(ns.max(1));
    }

    /// Decisions timed since the last hand-over.
    pub fn timed(&self) -> u64 {
        self.decisions.len()
    }

    /// Adds what was measured to `out` and starts afresh (the sampling phase goes on).
    pub fn hand_over(&mut self, out: &mut Timings) {
        if !self.decisions.is_empty() {
            out.add(&self.policy, &self.decisions);
            self.decisions.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cheap_clock_times_one_decision_in_every_and_costly_every_one() {
        let mut cheap = Clock::new("random", Clock::CHEAP);
        let mut costly = Clock::new("search", Clock::COSTLY);
        let mut asked = 0;
        for _ in 0..640 {
            cheap.time(|| asked += 1);
            costly.time(|| ());
        }
        assert_eq!(asked, 640, "every decision is made, timed or not");
        assert_eq!((cheap.timed(), costly.timed()), (10, 640));
        // The sample is by count: the 64th, 128th, ... decisions, whatever the thread or the time.
        let mut again = Clock::new("random", Clock::CHEAP);
        for _ in 0..63 {
            again.time(|| ());
        }
        assert_eq!(again.timed(), 0);
        again.time(|| ());
        assert_eq!(again.timed(), 1);
    }

    #[test]
    fn hand_over_moves_the_measures_and_resets_the_clock() {
        let mut clock = Clock::new("search", Clock::COSTLY);
        for _ in 0..5 {
            clock.time(|| std::hint::black_box(0));
        }
        let mut out = Timings::new();
        clock.hand_over(&mut out);
        clock.hand_over(&mut out);
        assert_eq!((out.timed("search"), clock.timed()), (5, 0));
        assert_eq!(out.policies().collect::<Vec<_>>(), vec!["search"]);
    }

    #[test]
    fn quantiles_and_merge_agree_with_recorded_values() {
        let mut a = Timings::new();
        let mut b = Timings::new();
        for ns in 1..=100u64 {
            a.record("greedy", ns * 1000);
        }
        b.record("greedy", 5_000_000);
        b.record("random", 40);
        a.merge(&b);
        assert_eq!(a.timed("greedy"), 101);
        assert_eq!(a.policies().collect::<Vec<_>>(), vec!["greedy", "random"]);
        // Two significant digits: every quantile within 1% of the exact one.
        let near = |got: Option<u64>, want: u64| {
            let got = got.unwrap() as f64;
            assert!((got - want as f64).abs() <= 0.01 * want as f64, "{got} vs {want}");
        };
        near(a.p50("greedy"), 51_000);
        near(a.p90("greedy"), 91_000);
        near(a.p99("greedy"), 100_000);
        near(a.max("greedy"), 5_000_000);
        near(a.max("random"), 40);
        assert_eq!(a.p50("search"), None);
        assert!(!a.is_empty() && Timings::new().is_empty());
    }
}
