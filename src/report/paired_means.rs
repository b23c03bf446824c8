//! Reading the paired means of a keyed table (`record::PairedMean`): a point's per-card (or
//! per-pair) effect, measured game by game against its own counterfactual, as a mean with its
//! paired 95% interval (`stats::paired`) in the unit the files show, and the paired games that
//! would give it a ±1 percentage-point interval at its measured spread. Shared by the CSV files,
//! the report page and its plot, so they cannot disagree.

use crate::record::{CardTable, PairTable, PairedMean};
use crate::stats::accumulator::CounterStats;
use crate::stats::{Interval, PairedSums};

/// The half-width the `games_for_1pt` columns aim at: one percentage point.
pub const ONE_POINT: f64 = 0.01;

/// One row's paired mean.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// Paired games measured.
    pub n: u64,
    /// The mean difference and its paired 95% interval (NaN where undefined).
    pub interval: Interval,
    /// Paired games for a ±1 point interval (`None` with fewer than 2 measured).
    pub games_for_1pt: Option<u64>,
}

impl Estimate {
    /// Whether the interval excludes 0.
    pub fn clear(&self) -> bool {
        self.interval.low > 0.0 || self.interval.high < 0.0
    }

    /// How far the interval lies from 0 at its nearest end (0 when it contains 0): the distance
    /// from 0 the data support with 95% confidence.
    pub fn sure_distance(&self) -> f64 {
        if self.n < 2 || !self.clear() { 0.0 } else { self.interval.low.abs().min(self.interval.high.abs()) }
    }
}

/// Paired mean `m` of the row whose counters start at `row_first` in `counters`.
pub fn estimate(counters: &[CounterStats], row_first: usize, m: &PairedMean) -> Estimate {
    let total = |c: usize| counters[row_first + c].total;
    let n = total(m.n) as u64;
    let sums = PairedSums::of_differences(n, total(m.up) as i128 - total(m.down) as i128, total(m.sq));
    let unit = m.per_unit as f64;
    let raw =
        if n == 0 { Interval { estimate: f64::NAN, low: f64::NAN, high: f64::NAN } } else { sums.paired() };
    let interval = Interval { estimate: raw.estimate / unit, low: raw.low / unit, high: raw.high / unit };
    Estimate { n, interval, games_for_1pt: sums.games_for(ONE_POINT * unit) }
}

/// Paired mean `m` of card `k` of `t`.
pub fn of_card(counters: &[CounterStats], t: &CardTable, k: usize, m: &PairedMean) -> Estimate {
    estimate(counters, t.first as usize + k * t.columns.len(), m)
}

/// Paired mean `m` of pair `k` of `t`.
pub fn of_pair(counters: &[CounterStats], t: &PairTable, k: usize, m: &PairedMean) -> Estimate {
    estimate(counters, t.first as usize + k * t.columns.len(), m)
}

/// The columns a paired mean `name` adds to a file: the mean, its interval, and the games for a
/// ±1 point interval.
pub fn headers(name: &str) -> [String; 4] {
    [
        name.to_string(),
        format!("{name}_ci95_low"),
        format!("{name}_ci95_high"),
        format!("{name}_games_for_1pt"),
    ]
}

/// Those columns' cells (empty where undefined).
pub fn cells(e: &Estimate) -> [String; 4] {
    use super::format::real;
    let i = e.interval;
    [real(i.estimate), real(i.low), real(i.high), e.games_for_1pt.map(|g| g.to_string()).unwrap_or_default()]
}
