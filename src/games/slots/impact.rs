//! Each card design's causal impact on its owner's chance to win (`impact`,
//! `docs/rules/slots.md`): every game is played again with a design's text removed from one
//! seat's copies (same printed value, no abilities), on the same deal: the same seed gives the
//! same pools, deck shuffles, seat streams and chance stream, so the two games differ only by the
//! text (common random numbers). The owner's score is win 2, draw 1, loss 0 half-points; a design's
//! paired difference is its owner's score as written minus without its text. With `pairs`, every
//! two designs of a seat's pool are also removed together, and the pair's interaction
//! `W - W(-a) - W(-b) + W(-a,-b)` (their joint impact minus the sum of their own) is recorded.
//!
//! Differences go into the per-card table's paired columns (`n`, sum of the positive ones, sum of
//! the negative ones' sizes, sum of squares), so the report reads a mean and its paired interval
//! from exact sums. The counterfactual games reuse the thread's scratch: nothing is allocated.

use super::card::{POOL, SEATS, TEXTLESS};
use super::cardset::CardSet;
use super::pools::Pools;
use super::rules::End;
use crate::record::{CardCounters, GameRecord, LayoutBuilder, PairedMean};

/// What the `impact` setting asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impact {
    /// Nothing beyond the game as written.
    None,
    /// Each design with its text removed.
    Cards,
    /// Each design, and each two designs of a pool together.
    Pairs,
}

impl Impact {
    /// The setting's values, in order.
    pub const NAMES: &'static [&'static str] = &["none", "cards", "pairs"];

    pub fn parse(s: &str) -> Option<Impact> {
        match s {
            "none" => Some(Impact::None),
            "cards" => Some(Impact::Cards),
            "pairs" => Some(Impact::Pairs),
            _ => None,
        }
    }
}

/// The per-card columns the impact adds after the game's own: paired games measured, the sums of
/// the positive and of the negative differences' sizes, and of their squares (half-points).
pub const IMPACT_COLUMNS: &[&str] = &["impact_n", "impact_up", "impact_down", "impact_sq"];

/// The columns of each pair (`card_pairs.csv`): paired games measured, then the joint impact
/// `W - W(-a,-b)` and the interaction `W - W(-a) - W(-b) + W(-a,-b)`, each as positive and negative
/// sums and the sum of squares (half-points).
pub const PAIR_COLUMNS: &[&str] = &[
    "paired_games",
    "joint_up",
    "joint_down",
    "joint_sq",
    "interaction_up",
    "interaction_down",
    "interaction_sq",
];

/// Half-points per point of a win chance (the owner's score: win 2, draw 1, loss 0).
const HALVES: u32 = 2;

/// Where the measures of one point go.
#[derive(Clone, Copy, Debug)]
pub struct ImpactTable {
    cards: CardCounters,
    /// The first impact column of the per-card table.
    first: usize,
    /// The pair table, with `pairs`.
    pairs: Option<CardCounters>,
    /// Designs in the set: pair `(a, b)`, `a < b`, is row `pair_row(a, b)`.
    designs: usize,
}

impl ImpactTable {
    /// Declares the impact's paired column (after the per-card table with `IMPACT_COLUMNS` at
    /// `first`) and, with `pairs`, the pair table over the set's first `designs` keys.
    pub fn declare(
        b: &mut LayoutBuilder,
        impact: Impact,
        cards: CardCounters,
        first: usize,
        designs: usize,
    ) -> ImpactTable {
        let mean = |name: &str, at: usize, n: usize| PairedMean {
            name: name.into(),
            n,
            up: at,
            down: at + 1,
            sq: at + 2,
            per_unit: HALVES,
        };
        b.card_paired(vec![mean("impact", first + 1, first)]);
        let pairs = (impact == Impact::Pairs).then(|| {
            let keys =
                (0..designs as u32).flat_map(|a| (a + 1..designs as u32).map(move |b| (a, b))).collect();
            b.card_pairs(keys, PAIR_COLUMNS, vec![mean("joint", 1, 0), mean("interaction", 4, 0)])
        });
        ImpactTable { cards, first, pairs, designs }
    }

    /// The pair table's row of designs `a < b` (rows in the order `declare` gave them).
    fn pair_row(&self, a: usize, b: usize) -> usize {
        a * (2 * self.designs - a - 1) / 2 + (b - a - 1)
    }
}

/// Adds a paired difference `d` (half-points) to the three sums after column `at` of `row`.
#[inline]
fn add(rec: &mut GameRecord, t: CardCounters, row: usize, at: usize, d: i32) {
    let up = d.max(0) as u64;
    let down = (-d).max(0) as u64;
    rec.count(t.at(row, at), up);
    rec.count(t.at(row, at + 1), down);
    rec.count(t.at(row, at + 2), (d * d) as u64);
}

/// The owner's score in half-points: win 2, draw 1, loss 0.
#[inline]
pub fn score(end: End, seat: usize) -> i32 {
    match end {
        End::Won(s) if s == seat => 2,
        End::Won(_) => 0,
        End::Drawn => 1,
    }
}

/// The distinct designs with text that `measured` marks (`Rules::impact_of`; empty: all) in `seat`'s pool of the game
/// just played, in the set's order, into `out`; returns how many.
pub fn designs_of(
    set: Option<&CardSet>,
    measured: &[bool],
    pools: &Pools,
    seat: usize,
    out: &mut [u16; POOL],
) -> usize {
    let Some(set) = set else { return 0 };
    let mut n = 0;
    for id in pools.ids(seat) {
        let d = pools.design[id as usize];
        let of = measured.get(d as usize).copied().unwrap_or(measured.is_empty());
        if d != TEXTLESS && of && !set.abilities_of(d).is_empty() && !out[..n].contains(&d) {
            out[n] = d;
            n += 1;
        }
    }
    out[..n].sort_unstable();
    n
}

/// Measures a game just played as written and ending `written` against its counterfactuals,
/// and records the differences into `rec`. `replay(seat, designs)` plays the same deal again with
/// `designs` muted in `seat`'s pool; `of_seat`/`counts` are each seat's designs with text
/// (`designs_of`), read before any replay, which leaves a seat's copies without their text.
pub(super) fn measure(
    t: &ImpactTable,
    written: End,
    of_seat: &[[u16; POOL]; SEATS],
    counts: [usize; SEATS],
    mut replay: impl FnMut(usize, &[u16]) -> End,
    rec: &mut GameRecord,
) {
    let mut without = [0i32; POOL];
    for seat in 0..SEATS {
        let (designs, n) = (&of_seat[seat], counts[seat]);
        let w = score(written, seat);
        for j in 0..n {
            without[j] = score(replay(seat, &designs[j..=j]), seat);
            let row = designs[j] as usize;
            rec.count(t.cards.at(row, t.first), 1);
            add(rec, t.cards, row, t.first + 1, w - without[j]);
        }
        let Some(pairs) = t.pairs else { continue };
        for j in 0..n {
            for k in j + 1..n {
                let both = score(replay(seat, &[designs[j], designs[k]]), seat);
                let row = t.pair_row(designs[j] as usize, designs[k] as usize);
                rec.count(pairs.at(row, 0), 1);
                add(rec, pairs, row, 1, w - both);
                add(rec, pairs, row, 4, w - without[j] - without[k] + both);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_pair_rows() {
        assert_eq!((score(End::Won(1), 1), score(End::Won(0), 1), score(End::Drawn, 0)), (2, 0, 1));
        let t = ImpactTable {
            cards: crate::record::LayoutBuilder::new("slots").cards(vec![], &[], &[]),
            first: 0,
            pairs: None,
            designs: 4,
        };
        // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3): rows 0..6 in order.
        let rows: Vec<usize> =
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)].iter().map(|&(a, b)| t.pair_row(a, b)).collect();
        assert_eq!(rows, [0, 1, 2, 3, 4, 5]);
        assert!(Impact::NAMES.iter().all(|n| Impact::parse(n).is_some()));
        assert_eq!(Impact::parse("all"), None);
    }
}
