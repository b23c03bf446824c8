//! `comparisons.csv` and the comparison rows the terminal, the plots and the report page show.
//!
//! The rows come from the exact sums of a paired pass (`stats::PairedSums`, which documents the
//! paired and unpaired intervals and their sources); this module only names and formats them. A row
//! whose two points do not deal alike (decided by the plan from the games' own settings) says
//! `pairing = none` and leaves the paired interval empty.

use std::io::Write;

use super::format::real;
use crate::stats::{Interval, PairedSums};

/// One row of `comparisons.csv`.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub scenario: String,
    pub baseline: String,
    pub metric: String,
    pub is_rate: bool,
    pub games: u64,
    pub baseline_value: f64,
    pub value: f64,
    pub difference: f64,
    /// `None` when the pairing does not apply.
    pub paired: Option<Interval>,
    pub unpaired: Interval,
}

impl Comparison {
    pub fn pairing(&self) -> &'static str {
        if self.paired.is_some() { "paired" } else { "none" }
    }

    /// The interval to read: paired where it applies, else unpaired.
    pub fn best(&self) -> Interval {
        self.paired.unwrap_or(self.unpaired)
    }
}

/// One compared pair as the plan made it: the points' labels, whether their deals are the same,
/// and the metric names of `sums` in order.
pub struct ComparedPair<'a> {
    pub baseline: &'a str,
    pub other: &'a str,
    pub paired: bool,
    pub metrics: &'a [(String, bool)],
}

/// Turns the sums of a paired pass into rows, one per pair and metric (`(name, is_rate)`).
pub fn rows(pairs: &[ComparedPair], sums: &[Vec<PairedSums>]) -> Vec<Comparison> {
    let mut out = Vec::new();
    for (pair, sums) in pairs.iter().zip(sums) {
        for ((name, is_rate), s) in pair.metrics.iter().zip(sums) {
            let unpaired = s.unpaired();
            out.push(Comparison {
                scenario: pair.other.to_string(),
                baseline: pair.baseline.to_string(),
                metric: name.clone(),
                is_rate: *is_rate,
                games: s.n,
                baseline_value: s.mean_x(),
                value: s.mean_y(),
                difference: unpaired.estimate,
                paired: pair.paired.then(|| s.paired()),
                unpaired,
            });
        }
    }
    out
}

/// Writes `comparisons.csv`.
pub fn write_csv(rows: &[Comparison], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    w.write_record([
        "scenario",
        "baseline",
        "metric",
        "games",
        "baseline_value",
        "value",
        "difference",
        "paired_ci95_low",
        "paired_ci95_high",
        "unpaired_ci95_low",
        "unpaired_ci95_high",
        "pairing",
    ])?;
    for r in rows {
        let (pl, ph) = r.paired.map_or((String::new(), String::new()), |i| (real(i.low), real(i.high)));
        w.write_record([
            r.scenario.clone(),
            r.baseline.clone(),
            r.metric.clone(),
            r.games.to_string(),
            real(r.baseline_value),
            real(r.value),
            real(r.difference),
            pl,
            ph,
            real(r.unpaired.low),
            real(r.unpaired.high),
            r.pairing().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}
