//! The statistics of one scenario point: everything `summary.csv`, `outcomes.csv`, `events.csv`,
//! `lengths.csv` and `distributions.csv` need, kept as exact integers and mergeable in any order.

use serde::{Deserialize, Serialize};

use super::{Examples, Histogram};
use crate::record::{GameRecord, Layout};

/// Totals of one event counter over the games played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterStats {
    pub total: u128,
    pub sum_sq: u128,
    pub games_with: u64,
    pub examples: Examples,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accumulator {
    pub games: u64,
    pub length: Histogram,
    pub outcomes: Vec<u64>,
    pub outcome_examples: Vec<Examples>,
    pub counters: Vec<CounterStats>,
    pub distributions: Vec<Histogram>,
}

impl Accumulator {
    pub fn new(layout: &Layout) -> Self {
        Accumulator {
            games: 0,
            length: Histogram::new(),
            outcomes: vec![0; layout.outcomes.len()],
            outcome_examples: vec![Examples::default(); layout.outcomes.len()],
            counters: vec![CounterStats::default(); layout.counters.len()],
            distributions: vec![Histogram::new(); layout.distributions.len()],
        }
    }

    /// Adds game `game_index`'s record.
    #[inline]
    pub fn record(&mut self, game_index: u64, rec: &GameRecord) {
        self.games += 1;
        self.length.add(rec.length as i64);
        let o = rec.outcome as usize;
        self.outcomes[o] += 1;
        self.outcome_examples[o].offer(game_index);
        for (c, &v) in self.counters.iter_mut().zip(rec.counters.iter()) {
            if v > 0 {
                c.total += v as u128;
                c.sum_sq += (v as u128) * (v as u128);
                c.games_with += 1;
                c.examples.offer(game_index);
            }
        }
        for &(metric, value) in rec.observations() {
            self.distributions[metric as usize].add(value);
        }
    }

    /// Why these statistics cannot be those of `games` games of `layout`, if they cannot (a damaged
    /// or edited saved state).
    pub fn inconsistency(&self, layout: &Layout, games: u64) -> Option<String> {
        let sized = self.outcomes.len() == layout.outcomes.len()
            && self.outcome_examples.len() == layout.outcomes.len()
            && self.counters.len() == layout.counters.len()
            && self.distributions.len() == layout.distributions.len();
        if !sized {
            return Some("its statistics do not match its layout".into());
        }
        if self.games != games {
            return Some(format!("it counts {} games where {games} were played", self.games));
        }
        if self.length.total() != games || !self.length.is_consistent() {
            return Some(format!("its length histogram holds {} games, not {games}", self.length.total()));
        }
        if self.outcomes.iter().try_fold(0u64, |a, &c| a.checked_add(c)) != Some(games) {
            return Some(format!("its outcome counts do not add up to its {games} games"));
        }
        if let Some((i, _)) = self.counters.iter().enumerate().find(|(_, c)| c.games_with > games) {
            return Some(format!("counter {} fired in more games than were played", layout.counters[i]));
        }
        if let Some(i) = self.distributions.iter().position(|d| !d.is_consistent()) {
            return Some(format!("its histogram of {} is damaged", layout.distributions[i]));
        }
        None
    }

    pub fn merge(&mut self, other: &Accumulator) {
        self.games += other.games;
        self.length.merge(&other.length);
        for (a, b) in self.outcomes.iter_mut().zip(&other.outcomes) {
            *a += b;
        }
        for (a, b) in self.outcome_examples.iter_mut().zip(&other.outcome_examples) {
            a.merge(b);
        }
        for (a, b) in self.counters.iter_mut().zip(&other.counters) {
            a.total += b.total;
            a.sum_sq += b.sum_sq;
            a.games_with += b.games_with;
            a.examples.merge(&b.examples);
        }
        for (a, b) in self.distributions.iter_mut().zip(&other.distributions) {
            a.merge(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{OutcomeKey, OutcomeKind};

    fn layout() -> Layout {
        Layout {
            length_unit: "battles".into(),
            outcomes: vec![OutcomeKey::seat(OutcomeKind::Win, 0), OutcomeKey::plain(OutcomeKind::Draw)],
            counters: vec!["wars".into()],
            distributions: vec!["depth".into()],
            cards: None,
            entrants: None,
        }
    }

    fn game(length: u64, outcome: u16, wars: u64) -> GameRecord {
        let mut r = GameRecord::new(&layout());
        r.length = length;
        r.outcome = outcome;
        r.counters[0] = wars;
        r.observe(crate::record::Dist(0), wars as i64);
        r
    }

    #[test]
    fn split_and_merge_equals_one_pass() {
        let l = layout();
        let games: Vec<GameRecord> = (0..50).map(|i| game(10 + i % 7, (i % 3 == 0) as u16, i % 4)).collect();
        let mut whole = Accumulator::new(&l);
        for (i, g) in games.iter().enumerate() {
            whole.record(i as u64, g);
        }
        let mut left = Accumulator::new(&l);
        let mut right = Accumulator::new(&l);
        for (i, g) in games.iter().enumerate() {
            if i % 2 == 0 { &mut left } else { &mut right }.record(i as u64, g);
        }
        right.merge(&left);
        assert_eq!(right, whole);
        assert_eq!(whole.games, 50);
        assert_eq!(whole.outcomes, vec![33, 17]);
        let wars_total: u64 = (0..50).map(|i| i % 4).sum();
        assert_eq!(whole.counters[0].total, wars_total as u128);
        assert_eq!(whole.counters[0].games_with, (0..50).filter(|i| i % 4 != 0).count() as u64);
        assert_eq!(whole.counters[0].examples.games(), &[1, 2, 3, 5, 6]);
        assert_eq!(whole.outcome_examples[1].games(), &[0, 3, 6, 9, 12]);
    }
}
