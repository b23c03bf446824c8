//! Paired play: game `i` of a baseline point and game `i` of each other point, in one pass, so that
//! a comparison can use the per-game differences without storing millions of records.
//!
//! Game `i` of every point is seeded only from (master seed, `i`) and the deal is the first use of
//! the game's RNG, so two points with the same deck see the same deal in game `i` (common random
//! numbers). For each pair and each per-game `Quantity` the pass keeps exact integer sums of the
//! baseline's values, the other point's values, their squares, and the differences and their squares
//! (`PairedSums`). Sums are integers, so chunks merge exactly in any order: the result is the same for
//! any thread count. The pass also returns every point's ordinary `Accumulator`, identical to the
//! one `runner::play_range` gives for the same games.

use rayon::prelude::*;

use crate::games::Point;
use crate::record::{GameRecord, Layout, OutcomeKind};
use crate::stats::Accumulator;

/// Games per chunk: the baseline's per-game values of one chunk are held while the other points
/// play the same games.
pub const CHUNK: u64 = 4_096;

/// A per-game integer quantity read from a `GameRecord`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// The game's length.
    Length,
    /// 1 if the game ended in one of these outcome indices, else 0.
    Ended(Vec<u16>),
    /// The value of counter `i` in the game.
    Counter(usize),
    /// 1 if counter `i` fired in the game, else 0.
    Fired(usize),
}

impl Quantity {
    #[inline]
    pub fn of(&self, rec: &GameRecord) -> i64 {
        match self {
            Quantity::Length => rec.length as i64,
            Quantity::Ended(set) => set.contains(&rec.outcome) as i64,
            Quantity::Counter(i) => rec.counters[*i] as i64,
            Quantity::Fired(i) => (rec.counters[*i] > 0) as i64,
        }
    }

    /// True for 0/1 quantities, whose means are rates.
    pub fn is_rate(&self) -> bool {
        matches!(self, Quantity::Ended(_) | Quantity::Fired(_))
    }
}

/// The headline metrics of a layout, by name: `length_mean`, `<outcome>_rate` per outcome kind,
/// `<outcome>_rate seat=S policy=P` per outcome row that has a seat, team or policy,
/// `<event>_mean_per_game` and `<event>_share_of_games` per counter.
pub fn metrics(layout: &Layout) -> Vec<(String, Quantity)> {
    let mut out = vec![("length_mean".to_string(), Quantity::Length)];
    let mut kinds: Vec<OutcomeKind> = layout.outcomes.iter().map(|o| o.kind).collect();
    kinds.sort();
    kinds.dedup();
    for kind in kinds {
        let set: Vec<u16> = layout
            .outcomes
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == kind)
            .map(|(i, _)| i as u16)
            .collect();
        out.push((format!("{}_rate", kind.name()), Quantity::Ended(set)));
    }
    for (i, o) in layout.outcomes.iter().enumerate() {
        let mut qualifiers = Vec::new();
        if let Some(s) = o.seat {
            qualifiers.push(format!("seat={s}"));
        }
        if let Some(t) = &o.team {
            qualifiers.push(format!("team={t}"));
        }
        if let Some(p) = &o.policy {
            qualifiers.push(format!("policy={p}"));
        }
        if !qualifiers.is_empty() {
            out.push((
                format!("{}_rate {}", o.kind.name(), qualifiers.join(" ")),
                Quantity::Ended(vec![i as u16]),
            ));
        }
    }
    for (i, name) in layout.counters.iter().enumerate() {
        out.push((format!("{name}_mean_per_game"), Quantity::Counter(i)));
        out.push((format!("{name}_share_of_games"), Quantity::Fired(i)));
    }
    out
}

/// Exact sums over paired games: `x` is the baseline's value, `y` the other point's, `d = y - x`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairedSums {
    pub n: u64,
    pub sum_x: i128,
    pub sum_x2: u128,
    pub sum_y: i128,
    pub sum_y2: u128,
    pub sum_d: i128,
    pub sum_d2: u128,
}

impl PairedSums {
    #[inline]
    pub fn add(&mut self, x: i64, y: i64) {
        let d = y as i128 - x as i128;
        self.n += 1;
        self.sum_x += x as i128;
        self.sum_x2 += (x.unsigned_abs() as u128).pow(2);
        self.sum_y += y as i128;
        self.sum_y2 += (y.unsigned_abs() as u128).pow(2);
        self.sum_d += d;
        self.sum_d2 += d.unsigned_abs().pow(2);
    }

    pub fn merge(&mut self, o: &PairedSums) {
        self.n += o.n;
        self.sum_x += o.sum_x;
        self.sum_x2 += o.sum_x2;
        self.sum_y += o.sum_y;
        self.sum_y2 += o.sum_y2;
        self.sum_d += o.sum_d;
        self.sum_d2 += o.sum_d2;
    }
}

/// One pair to compare: point `other` against point `baseline`, on these quantities
/// (`(baseline's quantity, other's quantity)`, usually the same metric read from each layout).
#[derive(Clone, Debug)]
pub struct PairPlan {
    pub baseline: usize,
    pub other: usize,
    pub quantities: Vec<(Quantity, Quantity)>,
}

/// What the pass returns: each point's accumulator, and each pair's sums (one per quantity).
pub struct PairedResult {
    pub accumulators: Vec<Accumulator>,
    pub sums: Vec<Vec<PairedSums>>,
}

impl PairedResult {
    fn empty(points: &[&dyn Point], pairs: &[PairPlan]) -> Self {
        PairedResult {
            accumulators: points.iter().map(|p| Accumulator::new(p.layout())).collect(),
            sums: pairs.iter().map(|p| vec![PairedSums::default(); p.quantities.len()]).collect(),
        }
    }

    fn merge(mut self, other: PairedResult) -> Self {
        for (a, b) in self.accumulators.iter_mut().zip(&other.accumulators) {
            a.merge(b);
        }
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
        self
    }
}

/// Plays games `first..first + count` of every point once, over the current rayon pool, and sums
/// each pair's per-game differences. `tick` gets the number of point-games played per chunk.
pub fn play_paired(
    points: &[&dyn Point],
    pairs: &[PairPlan],
    master: u64,
    first: u64,
    count: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> PairedResult {
    let chunks = count.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let start = first + c * CHUNK;
            let n = (first + count).min(start + CHUNK) - start;
            let mut part = PairedResult::empty(points, pairs);
            // values[p][q * n + g]: pair p's baseline-side quantity q in game g of the chunk.
            let mut values: Vec<Vec<i64>> =
                pairs.iter().map(|p| vec![0; p.quantities.len() * n as usize]).collect();
            let mut order: Vec<usize> = pairs.iter().map(|p| p.baseline).collect();
            order.sort();
            order.dedup();
            // Baselines first, so their values are ready when the other points play.
            let others = (0..points.len()).filter(|i| !order.contains(i));
            for (k, point) in order.clone().into_iter().chain(others).map(|k| (k, points[k])) {
                let acc = &mut part.accumulators[k];
                let sums = &mut part.sums;
                point.play_each(master, start, n, &mut |i, rec| {
                    acc.record(i, rec);
                    let g = (i - start) as usize;
                    for (p, plan) in pairs.iter().enumerate() {
                        if plan.baseline == k {
                            for (q, (qx, _)) in plan.quantities.iter().enumerate() {
                                values[p][q * n as usize + g] = qx.of(rec);
                            }
                        }
                        if plan.other == k {
                            for (q, (_, qy)) in plan.quantities.iter().enumerate() {
                                sums[p][q].add(values[p][q * n as usize + g], qy.of(rec));
                            }
                        }
                    }
                });
                tick(n);
            }
            part
        })
        .reduce(|| PairedResult::empty(points, pairs), PairedResult::merge)
}
