//! Paired play: game `i` of a baseline point and game `i` of each other point, in one pass, so that
//! a comparison can use the per-game differences without storing millions of records.
//!
//! Game `i` of every point is seeded only from (master seed, `i`) and the deal is the first use of
//! the game's RNG, so two points with the same deck see the same deal in game `i` (common random
//! numbers). For each pair and each per-game `Quantity` the pass keeps exact integer sums of the
//! baseline's values, the other point's values, their squares, and the differences and their squares
//! (`stats::PairedSums`, which also gives the intervals). The unit is the **paired group**: the
//! games that share a deal in either point (the least common multiple of the two points' deal-group
//! sizes, `Layout::group_size`; one game where both deal afresh), whose totals in the two points
//! are one paired observation: `D_g = T_g(other) - T_g(baseline)`. Chunks hold whole groups of
//! every point, so sums are integers over closed groups and chunks merge exactly in any order: the
//! result is the same for any thread count. The pass also returns every point's ordinary `Accumulator`, identical to the
//! one `runner::play_range` gives for the same games.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::games::Point;
use crate::stats::contrast::CoSums;
use crate::stats::{Accumulator, PairedSums, Quantity};

/// Games per chunk: the baseline's per-game values of one chunk are held while the other points
/// play the same games.
pub const CHUNK: u64 = 4_096;

/// One pair to compare: point `other` against point `baseline`, on these quantities
/// (`(baseline's quantity, other's quantity)`, usually the same metric read from each layout).
#[derive(Clone, Debug)]
pub struct PairPlan {
    pub baseline: usize,
    pub other: usize,
    pub quantities: Vec<(Quantity, Quantity)>,
}

/// One metric read at every point for the effects of a sweep's settings (`stats::contrast`): per
/// point the per-game quantity summed (`Y`) and its denominator (`M`: `None` counts games), or
/// `None` where the point does not have the metric (its `Y` and `M` stay 0).
#[derive(Clone, Debug)]
pub struct EffectPlan {
    pub per_point: Vec<Option<(Quantity, Option<Quantity>)>>,
}

/// What the pass returns: each point's accumulator, each pair's sums (one per quantity), and each
/// effect metric's co-moments over the deal groups of all points.
pub struct PairedResult {
    pub accumulators: Vec<Accumulator>,
    pub sums: Vec<Vec<PairedSums>>,
    pub effects: Vec<CoSums>,
}

impl PairedResult {
    fn empty(points: &[&dyn Point], pairs: &[PairPlan], effects: &[EffectPlan]) -> Self {
        PairedResult {
            accumulators: points.iter().map(|p| Accumulator::new(p.layout())).collect(),
            sums: pairs.iter().map(|p| vec![PairedSums::default(); p.quantities.len()]).collect(),
            effects: effects.iter().map(|_| CoSums::new(points.len())).collect(),
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
        for (a, b) in self.effects.iter_mut().zip(&other.effects) {
            a.merge(b);
        }
        self
    }
}

/// Plays games `first..first + count` of every point once, over the current rayon pool, and sums
/// each pair's per-game differences. `tick` gets the number of point-games played per chunk.
/// Chunks hold `chunk` games (at most `CHUNK`; see `chunk_for`), and none starts once `stop` is
/// raised: then the pass returns `None`, as it does when `stop` is raised while a chunk plays.
#[allow(clippy::too_many_arguments)]
pub fn play_paired(
    points: &[&dyn Point],
    pairs: &[PairPlan],
    master: u64,
    first: u64,
    count: u64,
    chunk: u64,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> Option<PairedResult> {
    play_paired_with(points, pairs, &[], master, first, count, chunk, stop, tick)
}

/// `play_paired`, also summing for each of `effects` every point's per-group totals into the
/// co-moments of a sweep's effects (`stats::contrast`). The unit is the deal group of all points
/// at once: the games whose indices share a deal in any point (the least common multiple of the
/// points' group sizes), one independent draw of every point.
#[allow(clippy::too_many_arguments)]
pub fn play_paired_with(
    points: &[&dyn Point],
    pairs: &[PairPlan],
    effects: &[EffectPlan],
    master: u64,
    first: u64,
    count: u64,
    chunk: u64,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> Option<PairedResult> {
    let every = points.iter().fold(1, |l, p| lcm(l, p.layout().group_size.max(1)));
    let chunk = crate::sim::runner::whole_groups(chunk.clamp(1, CHUNK), every);
    let chunks = count.div_ceil(chunk);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let start = first + c * chunk;
            let n = (first + count).min(start + chunk) - start;
            let mut part = PairedResult::empty(points, pairs, effects);
            // zs[e][(2 k + j) * n + g]: effect metric e's Y (j = 0) or M (j = 1) of point k in
            // game g of the chunk.
            let k_points = points.len();
            let mut zs: Vec<Vec<i64>> = effects.iter().map(|_| vec![0; 2 * k_points * n as usize]).collect();
            // xs[p][q * n + g], ys[p][q * n + g]: pair p's quantity q in game g of the chunk, in
            // the baseline and in the other point.
            let mut xs: Vec<Vec<i64>> =
                pairs.iter().map(|p| vec![0; p.quantities.len() * n as usize]).collect();
            let mut ys = xs.clone();
            let mut order: Vec<usize> = pairs.iter().map(|p| p.baseline).collect();
            order.sort();
            order.dedup();
            // Baselines first, so their values are ready when the other points play.
            let others = (0..points.len()).filter(|i| !order.contains(i));
            for (k, point) in order.clone().into_iter().chain(others).map(|k| (k, points[k])) {
                let acc = &mut part.accumulators[k];
                point.play_each(master, start, n, &mut |i, rec| {
                    acc.record(i, rec);
                    let g = (i - start) as usize;
                    for (p, plan) in pairs.iter().enumerate() {
                        if plan.baseline == k {
                            for (q, (qx, _)) in plan.quantities.iter().enumerate() {
                                xs[p][q * n as usize + g] = qx.of(rec);
                            }
                        }
                        if plan.other == k {
                            for (q, (_, qy)) in plan.quantities.iter().enumerate() {
                                ys[p][q * n as usize + g] = qy.of(rec);
                            }
                        }
                    }
                    for (e, plan) in effects.iter().enumerate() {
                        if let Some((y, m)) = &plan.per_point[k] {
                            zs[e][2 * k * n as usize + g] = y.of(rec);
                            zs[e][(2 * k + 1) * n as usize + g] = m.as_ref().map_or(1, |m| m.of(rec));
                        }
                    }
                });
                acc.finish_group();
                tick(n);
            }
            // One paired observation per group of the two points' common deals.
            for (p, plan) in pairs.iter().enumerate() {
                let size =
                    lcm(points[plan.baseline].layout().group_size, points[plan.other].layout().group_size);
                for q in 0..plan.quantities.len() {
                    let at = q * n as usize;
                    for g in (0..n as usize).step_by(size as usize) {
                        let end = (g + size as usize).min(n as usize);
                        let x: i64 = xs[p][at + g..at + end].iter().sum();
                        let y: i64 = ys[p][at + g..at + end].iter().sum();
                        part.sums[p][q].add_group(x, y, (end - g) as u64);
                    }
                }
            }
            // One observation of every point per group of games that share a deal in any point.
            let mut totals = vec![0i64; 2 * k_points];
            for (e, z) in zs.iter().enumerate() {
                for g in (0..n as usize).step_by(every as usize) {
                    let end = (g + every as usize).min(n as usize);
                    for (v, total) in totals.iter_mut().enumerate() {
                        *total = z[v * n as usize + g..v * n as usize + end].iter().sum();
                    }
                    part.effects[e].add_group(&totals);
                }
            }
            crate::sim::hooks::pause_at(crate::sim::hooks::Moment::Comparison);
            // A stop during the pass discards it, whichever chunks had finished: the pass is
            // all or nothing.
            (!stop.load(Ordering::Relaxed)).then_some(part)
        })
        .reduce(
            || Some(PairedResult::empty(points, pairs, effects)),
            |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a.merge(b)),
                _ => None,
            },
        )
}

/// The least common multiple of two group sizes: the games two points' deal groups both tile.
pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    let (a, b) = (a.max(1), b.max(1));
    let gcd = |mut x: u64, mut y: u64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b) * b
}

/// Games per chunk so that a chunk of the paired pass takes about `driver::CHUNK_SECONDS`: the
/// cost of one game of every point, measured on game `master`/0.
pub fn chunk_for(points: &[&dyn Point], master: u64) -> u64 {
    let started = std::time::Instant::now();
    for p in points {
        p.play_one(crate::seed::GameSeed::new(master, 0));
    }
    let per_game = started.elapsed().as_secs_f64().max(1e-9);
    (crate::sim::driver::CHUNK_SECONDS / per_game).clamp(1.0, CHUNK as f64) as u64
}
