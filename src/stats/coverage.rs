//! A self-check of the intervals: synthetic data with a known answer, built in groups with a
//! chosen correlation inside a group, replicated many times; the share of replicates whose 95%
//! interval holds the truth must be 0.95 within three binomial standard errors of that share
//! (`TOLERANCE`). A regression in a formula moves the coverage out of the band; the old per-game
//! interval, checked on the same data, falls out of it where games are positively correlated, so
//! the check cannot pass vacuously.

use super::group::GroupSums;
use super::interval::{Interval, wilson};
use crate::seed::{GameRng, GameSeed, below};

/// Replicates per check.
const REPLICATES: u64 = 2_000;
/// Groups per replicate.
const GROUPS: u64 = 200;

/// Three binomial standard errors of a 95% coverage measured over `REPLICATES` replicates.
fn tolerance() -> f64 {
    3.0 * (0.95f64 * 0.05 / REPLICATES as f64).sqrt()
}

/// The share of `REPLICATES` replicates (each from its own seed) whose interval holds `truth`.
fn coverage(master: u64, truth: f64, replicate: impl Fn(&mut GameRng) -> Interval) -> f64 {
    let held = (0..REPLICATES)
        .filter(|&r| {
            let i = replicate(&mut GameSeed::new(master, r).rng());
            i.contains(truth)
        })
        .count();
    held as f64 / REPLICATES as f64
}

/// 1 with probability `tenths / 10`.
fn coin(rng: &mut GameRng, tenths: u32) -> i64 {
    (below(rng, 10) < tenths) as i64
}

/// One pair of 0/1 results with mean 1/2 and within-pair correlation `rho` (in tenths, -10..=10):
/// both 1 with probability (1 + rho) / 4, both 0 likewise, one of each otherwise.
fn pair(rng: &mut GameRng, rho_tenths: i32) -> (i64, i64) {
    let same = below(rng, 20) < (10 + rho_tenths) as u32;
    let first = coin(rng, 5);
    (first, if same { first } else { 1 - first })
}

/// Pairs of correlated wins: the group interval and the old per-game Wilson interval.
fn pairs(rng: &mut GameRng, rho_tenths: i32) -> (Interval, Interval) {
    let mut s = GroupSums::default();
    let mut wins = 0;
    for _ in 0..GROUPS {
        let (a, b) = pair(rng, rho_tenths);
        s.add(a + b, 2);
        wins += (a + b) as u64;
    }
    (s.rate(), wilson(wins, 2 * GROUPS))
}

fn assert_covers(what: &str, c: f64) {
    assert!((c - 0.95).abs() <= tolerance(), "{what}: coverage {c:.4}, not 0.95 ± {:.4}", tolerance());
}

#[test]
fn rates_over_positively_correlated_pairs_cover_and_the_per_game_interval_does_not() {
    // Correlation 0.6 inside a pair: the variance of a pair's total is 1.6 times the independent
    // one, so the per-game interval covers about P(|Z| < 1.96 / sqrt(1.6)) = 0.88.
    assert_covers("groups, rho 0.6", coverage(1, 0.5, |rng| pairs(rng, 6).0));
    let naive = coverage(1, 0.5, |rng| pairs(rng, 6).1);
    assert!(naive < 0.95 - tolerance(), "the per-game interval should under-cover: {naive:.4}");
}

#[test]
fn rates_over_negatively_correlated_pairs_cover_and_the_per_game_interval_is_too_wide() {
    // Correlation -0.6 (rotated seats cancelling deal luck): the per-game interval over-covers.
    assert_covers("groups, rho -0.6", coverage(2, 0.5, |rng| pairs(rng, -6).0));
    let naive = coverage(2, 0.5, |rng| pairs(rng, -6).1);
    assert!(naive > 0.95 + tolerance(), "the per-game interval should over-cover: {naive:.4}");
}

#[test]
fn means_over_groups_of_three_with_a_shared_deal_cover() {
    // Lengths y = a + e with a deal effect a shared by the 3 games of a group and a game's own e,
    // each uniform on 0..=10 (within-group correlation 1/2): mean 10.
    let replicate = |rng: &mut GameRng| {
        let mut s = GroupSums::default();
        for _ in 0..GROUPS {
            let a = below(rng, 11) as i64;
            let t: i64 = (0..3).map(|_| a + below(rng, 11) as i64).sum();
            s.add(t, 3);
        }
        s.mean()
    };
    assert_covers("means of groups of 3", coverage(3, 10.0, replicate));
}

#[test]
fn a_share_of_a_random_subset_covers() {
    // Rotated pairs of games on one deal of two kinds (equally likely). On a deal of the first
    // kind a game is decided with probability 0.9 and then won by the first player with
    // probability 0.7; on the second, 0.6 and 0.4. The first player's share of decided games is
    // (0.9·0.7 + 0.6·0.4) / (0.9 + 0.6) = 0.58.
    let replicate = |rng: &mut GameRng| {
        let mut s = GroupSums::default();
        for _ in 0..GROUPS {
            let (decide, win) = if coin(rng, 5) == 1 { (9, 7) } else { (6, 4) };
            let (mut wins, mut decided) = (0, 0);
            for _ in 0..2 {
                if coin(rng, decide) == 1 {
                    decided += 1;
                    wins += coin(rng, win);
                }
            }
            s.add(wins, decided);
        }
        s.rate()
    };
    assert_covers("first player's share of decided games", coverage(4, 0.58, replicate));
}
