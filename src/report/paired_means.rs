//! Reading the paired means of a keyed table (`record::PairedMean`): a point's per-card (or
//! per-pair) effect, measured game by game against its own counterfactual, as a mean with its
//! 95% interval in the unit the files show, and the paired games that would give it a ±1
//! percentage-point interval at its measured spread. Shared by the CSV files, the report page and
//! its plot, so they cannot disagree.
//!
//! The unit of observation is the deal group (`stats::group`): one group per deal holds every
//! rotation of it and every counterfactual replay of those games, so a card's group total is the
//! sum of its paired differences over the group, and its denominator the number of them. The mean
//! is the ratio estimator over the groups (the normal interval of the differences where each game
//! is its own group and measured the card once).

use std::sync::Arc;

use super::PointResult;
use crate::record::{CardTable, PairTable, PairedMean};
use crate::stats::tracked::{Key, Plan};
use crate::stats::{Accumulator, GroupSums, Interval};

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

/// Paired mean `m` from its group sums (differences counted in `1 / m.per_unit` of the unit shown).
pub fn estimate(sums: Option<GroupSums>, m: &PairedMean) -> Estimate {
    let sums = sums.unwrap_or_default();
    let n = sums.moments.m as u64;
    let unit = m.per_unit as f64;
    let raw = if n == 0 { Interval::undefined(crate::stats::Method::Ratio) } else { sums.mean() };
    let games_for_1pt = crate::stats::paired::games_for(&sums, ONE_POINT * unit);
    Estimate { n, interval: raw.scaled(unit), games_for_1pt }
}

/// Paired mean `m` (one of `t.paired`) of card `k` of `t`.
pub fn of_card(acc: &Accumulator, plan: &Plan, t: &CardTable, k: usize, m: &PairedMean) -> Estimate {
    let i = t.paired.iter().position(|x| x == m).expect("a paired mean of the table");
    estimate(acc.sums(plan, &Key::CardPaired(k, i)), m)
}

/// Paired mean `m` (one of `t.paired`) of pair `k` of `t`.
pub fn of_pair(acc: &Accumulator, plan: &Plan, t: &PairTable, k: usize, m: &PairedMean) -> Estimate {
    let i = t.paired.iter().position(|x| x == m).expect("a paired mean of the table");
    estimate(acc.sums(plan, &Key::PairPaired(k, i)), m)
}

/// The plan of a point's statistics.
fn plan(p: &PointResult) -> Arc<Plan> {
    p.acc.plan(&p.layout)
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

/// The paired mean the report ranks a pair table by, when the table has it (else its last).
pub const RANK_PAIRS_BY: &str = "interaction";

/// A point's per-card table, the paired mean it is ranked by, and its rows (card, estimate).
pub type RankedCards<'a> = (&'a CardTable, &'a PairedMean, Vec<(usize, Estimate)>);

/// A point's cards ranked by its per-card table's first paired mean, highest first (ties by the
/// table's order), each measured at least twice; `None` when the point has no paired mean, or its
/// table is read as feedback to makers (a tournament's: its means are per event, not a change of
/// one game's chance, and the designers' section shows them, `html_makers`).
pub fn ranked_cards(p: &PointResult) -> Option<RankedCards<'_>> {
    let t = p.layout.cards.as_ref().filter(|t| t.makers.is_none())?;
    let m = t.paired.first()?;
    let plan = plan(p);
    let mut rows: Vec<(usize, Estimate)> =
        (0..t.keys.len()).map(|k| (k, of_card(&p.acc, &plan, t, k, m))).filter(|(_, e)| e.n >= 2).collect();
    rows.sort_by(|a, b| b.1.interval.estimate.total_cmp(&a.1.interval.estimate).then(a.0.cmp(&b.0)));
    Some((t, m, rows))
}

/// The `n` first and `n` last rows of a ranking (every row when there are at most `2n`).
pub fn ends<T>(rows: &[T], n: usize) -> (&[T], &[T]) {
    if rows.len() <= 2 * n { (rows, &[]) } else { (&rows[..n], &rows[rows.len() - n..]) }
}

/// One ranked pair: its row, the paired mean it is ranked by, and the others in the table's order.
pub struct RankedPair {
    pub row: usize,
    pub by: Estimate,
    pub all: Vec<Estimate>,
}

/// A point's pairs, furthest from 0 first by the ranked paired mean (`RANK_PAIRS_BY`): by the
/// distance of its interval's nearest end from 0 (what the data show with 95% confidence), then by
/// the size of the estimate, then in the table's order. At most `n` pairs.
pub fn ranked_pairs(p: &PointResult, n: usize) -> Option<(&CardTable, &PairTable, usize, Vec<RankedPair>)> {
    let cards = p.layout.cards.as_ref()?;
    let t = cards.pairs.as_deref()?;
    let by = t.paired.iter().position(|m| m.name == RANK_PAIRS_BY).or(t.paired.len().checked_sub(1))?;
    let plan = plan(p);
    let mut rows: Vec<RankedPair> = (0..t.pairs.len())
        .map(|k| {
            let all: Vec<Estimate> = t.paired.iter().map(|m| of_pair(&p.acc, &plan, t, k, m)).collect();
            RankedPair { row: k, by: all[by], all }
        })
        .filter(|r| r.by.n >= 2)
        .collect();
    rows.sort_by(|a, b| {
        let size = |r: &RankedPair| r.by.interval.estimate.abs();
        b.by.sure_distance()
            .total_cmp(&a.by.sure_distance())
            .then(size(b).total_cmp(&size(a)))
            .then(a.row.cmp(&b.row))
    });
    rows.truncate(n);
    Some((cards, t, by, rows))
}
