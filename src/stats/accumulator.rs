//! The statistics of one scenario point: everything `summary.csv`, `outcomes.csv`, `events.csv`,
//! `lengths.csv` and `distributions.csv` need, kept as exact integers and mergeable in any order.
//!
//! **One observation is one deal group** (`Layout::group_size` consecutive games that share a
//! deal, `stats::group`): per-game totals (counts, sums, histograms) are kept as before, and for
//! every tracked quantity (`stats::tracked`) the group moments its interval needs. The games of
//! the open group are summed into a buffer sized once (`OpenGroup::totals`, no allocation per
//! game), and the moments are updated once per group, when it closes: after its last game, or at
//! the end of a range of games (`finish_group`, for the last, shorter group of a run). Only
//! accumulators holding closed groups merge or are saved (`merge` asserts it), so a group never
//! straddles two partial results and merges stay exact and order-free.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::group::{GroupSums, Moments};
use super::interval::{Interval, Method};
use super::tracked::{self, Key, Plan, Terms};
use super::{Examples, Histogram};
use crate::record::{GameRecord, Layout};

/// Totals of one event counter over the games played. A counter of the per-card table keeps its
/// `total` only (the rest stays 0): nothing reads more of it, and a card set has hundreds.
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
    /// Closed deal groups.
    pub groups: u64,
    /// The group moments of every tracked quantity, in the order of `tracked::Plan::of(layout)`;
    /// a group whose two totals are 0 adds nothing to them (it is counted in `groups`).
    pub grouped: Vec<Moments>,
    /// The denominator sums of the per-game quantities (`Plan::per_game`) of the groups closed
    /// since the last `finish_group`, not yet added to their `grouped` moments: the same for all
    /// of them (the groups' games), so a group adds it once, not once per quantity. Always zero
    /// once a range of games is finished, so it is never saved.
    #[serde(skip)]
    pending: Pending,
    /// The open group (fresh accumulators only; a saved one only merges).
    #[serde(skip)]
    open: Open,
    /// The layout's plan, once asked for (`plan`).
    #[serde(skip)]
    plan: PlanCache,
}

/// A lazily built plan; equal to any other (it is derived from the layout, not a result).
#[derive(Clone, Debug, Default)]
struct PlanCache(std::sync::OnceLock<Arc<Plan>>);

impl PartialEq for PlanCache {
    fn eq(&self, _: &PlanCache) -> bool {
        true
    }
}

impl Eq for PlanCache {}

/// `Accumulator::pending`: the sums of a group's games and of their squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pending {
    m: u128,
    m2: u128,
}

/// The games of the group being played, summed per term of the plan.
#[derive(Clone, Debug)]
struct OpenGroup {
    plan: Arc<Plan>,
    terms: Terms,
    totals: Vec<i64>,
    games: u64,
    size: u64,
    /// The totals are wide (`SPARSE_WIDTH`: a card set's per-card table): the counters the group
    /// touched are listed in `touched` (each once, so it never outgrows its capacity) and only
    /// their terms are cleared when it closes, not kilobytes of zeros.
    sparse: bool,
    touched: Vec<u32>,
}

/// Totals wider than this many terms (2 KB) are cleared entry by entry (`OpenGroup::sparse`).
const SPARSE_WIDTH: usize = 256;

/// Records with more counters than this (2 KB) are cleared counter by counter (`take`).
const LIST_WIDTH: usize = 256;

/// The counters of the record being read: left as they are by `record`, each cleared once read
/// by `take`.
trait Slots: AsRef<[u64]> {
    fn clear(&mut self, i: usize);
}

impl Slots for &[u64] {
    #[inline(always)]
    fn clear(&mut self, _: usize) {}
}

impl Slots for &mut [u64] {
    #[inline(always)]
    fn clear(&mut self, i: usize) {
        self[i] = 0;
    }
}

/// An optional open group; equal to any other (it is scratch, not a result).
#[derive(Clone, Debug, Default)]
struct Open(Option<Box<OpenGroup>>);

impl PartialEq for Open {
    fn eq(&self, _: &Open) -> bool {
        true
    }
}

impl Eq for Open {}

/// Where one game's counters are summed (`Accumulator::count`): the counters' totals and, with
/// `TOTALS`, the open group's value and fired terms.
struct Sums<'a, const TOTALS: bool, const SPARSE: bool> {
    stats: &'a mut [CounterStats],
    values: &'a mut [i64],
    fired: &'a mut [i64],
    touched: &'a mut Vec<u32>,
    game_index: u64,
}

impl<const TOTALS: bool, const SPARSE: bool> Sums<'_, TOTALS, SPARSE> {
    /// Adds counters `range` of `counters` (`CARD`: of the per-card table, whose total and value
    /// term are all that is read).
    #[inline(always)]
    fn add<const CARD: bool, S: Slots>(&mut self, counters: &mut S, range: std::ops::Range<usize>) {
        // Checked once here, so that no counter read below is checked again.
        assert!(range.end <= counters.as_ref().len() && range.end <= self.stats.len());
        assert!(!TOTALS || range.end <= self.values.len() && range.end <= self.fired.len());
        for i in range {
            self.one::<CARD, S>(counters, i, counters.as_ref()[i]);
        }
    }

    /// Adds counter `i` of `counters`, whose value is `v`.
    #[inline(always)]
    fn one<const CARD: bool, S: Slots>(&mut self, counters: &mut S, i: usize, v: u64) {
        if v == 0 {
            return;
        }
        counters.clear(i);
        let c = &mut self.stats[i];
        c.total += v as u128;
        if TOTALS {
            // A counter's value term is 0 until the group's first game that counts it.
            if SPARSE && self.values[i] == 0 {
                self.touched.push(i as u32);
            }
            self.values[i] += v as i64;
        }
        if !CARD {
            c.sum_sq += (v as u128) * (v as u128);
            c.games_with += 1;
            c.examples.offer(self.game_index);
            if TOTALS {
                self.fired[i] += 1;
            }
        }
    }
}

impl Accumulator {
    pub fn new(layout: &Layout) -> Self {
        Accumulator::with_plan(layout, Arc::new(Plan::of(layout)))
    }

    /// `new`, with `plan` (`Plan::of(layout)`) built once by the caller for many accumulators.
    pub fn with_plan(layout: &Layout, plan: Arc<Plan>) -> Self {
        // `close_group` reads the plan's indices without bounds checks.
        assert!(plan.fits(), "a plan whose indices exceed its sizes");
        let open = OpenGroup {
            terms: Terms::of(layout),
            totals: vec![0; plan.width],
            games: 0,
            size: layout.group_size.max(1),
            sparse: plan.width > SPARSE_WIDTH,
            touched: Vec::with_capacity(if plan.width > SPARSE_WIDTH { layout.counters.len() } else { 0 }),
            plan: plan.clone(),
        };
        Accumulator {
            games: 0,
            length: Histogram::new(),
            outcomes: vec![0; layout.outcomes.len()],
            outcome_examples: vec![Examples::default(); layout.outcomes.len()],
            counters: vec![CounterStats::default(); layout.counters.len()],
            distributions: vec![Histogram::new(); layout.distributions.len()],
            groups: 0,
            grouped: vec![Moments::default(); plan.keys.len()],
            pending: Pending::default(),
            open: Open(Some(Box::new(open))),
            plan: PlanCache(plan.into()),
        }
    }

    /// The plan of `layout`, the layout these statistics are of (built once per accumulator).
    pub fn plan(&self, layout: &Layout) -> Arc<Plan> {
        self.plan.0.get_or_init(|| Arc::new(Plan::of(layout))).clone()
    }

    /// Adds game `game_index`'s record. Games come in index order; a group starts at a multiple of
    /// the group size and closes after its last game.
    #[inline]
    pub fn record(&mut self, game_index: u64, rec: &GameRecord) {
        self.observe(rec);
        self.record_counters(game_index, rec.length, rec.outcome, &*rec.counters);
    }

    /// `record`, then clears `rec` for the next game. A wide record (`LIST_WIDTH`: a card set's
    /// per-card table, kilobytes of counters, most of them 0 in any one game) is not rewritten
    /// whole: its counters are read one by one anyway, so each the game set is cleared as it is
    /// read. A narrow one is reset whole (a few stores cost less than a store per counter set).
    #[inline]
    pub fn take(&mut self, game_index: u64, rec: &mut GameRecord) {
        if !Accumulator::clears_by_list(rec) {
            self.record(game_index, rec);
            rec.reset();
            return;
        }
        self.observe(rec);
        self.record_counters(game_index, rec.length, rec.outcome, &mut *rec.counters);
        rec.clear_counted();
    }

    /// Whether `take` clears `rec` counter by counter (a wide record) rather than whole.
    #[inline]
    pub fn clears_by_list(rec: &GameRecord) -> bool {
        rec.counters.len() > LIST_WIDTH
    }

    /// The distributions' values of `rec`.
    #[inline(always)]
    fn observe(&mut self, rec: &GameRecord) {
        for &(metric, value) in rec.observations() {
            self.distributions[metric as usize].add(value);
        }
    }

    /// `record` but the distributions, from the game's length, outcome and counters (each cleared
    /// once read where they are `&mut`, `Slots`).
    #[inline(always)]
    fn record_counters<S: Slots>(&mut self, game_index: u64, length: u64, outcome: u16, counters: S) {
        let open = self.open.0.as_deref_mut().expect("a saved accumulator only merges");
        debug_assert!(
            open.games > 0 || game_index.is_multiple_of(open.size),
            "game {game_index} opens no group"
        );
        if open.plan.keys.is_empty() {
            // Nothing is tracked by group (War, Scourge: every game its own group, no ratio):
            // the group totals are never read, so they are not kept.
            self.count::<false, false, S>(game_index, length, outcome, counters);
            self.groups += 1;
            return;
        }
        if open.sparse {
            self.count::<true, true, S>(game_index, length, outcome, counters);
        } else {
            self.count::<true, false, S>(game_index, length, outcome, counters);
        }
        let open = self.open.0.as_deref_mut().expect("a fresh accumulator");
        open.games += 1;
        if open.games == open.size {
            self.close_group();
        }
    }

    /// The per-game sums of a game's counters, and with `TOTALS` the open group's totals
    /// (listing the counters first touched in the group with `SPARSE`).
    #[inline(always)]
    fn count<const TOTALS: bool, const SPARSE: bool, S: Slots>(
        &mut self,
        game_index: u64,
        length: u64,
        outcome: u16,
        mut counters: S,
    ) {
        let open = self.open.0.as_deref_mut().expect("a fresh accumulator");
        let at = open.terms;
        // The totals split once into their parts: held in locals, the compiler keeps their
        // addresses and lengths in registers rather than reloading them at every counter set.
        let (head, rest) = open.totals.split_at_mut(if TOTALS { at.values } else { 0 });
        let (values, fired) = rest.split_at_mut(if TOTALS { at.fired - at.values } else { 0 });
        let touched = &mut open.touched;
        self.games += 1;
        self.length.add(length as i64);
        let o = outcome as usize;
        self.outcomes[o] += 1;
        self.outcome_examples[o].offer(game_index);
        if TOTALS {
            head[tracked::GAMES] += 1;
            head[tracked::LENGTH] += length as i64;
            head[at.rows + o] += 1;
        }
        let n = counters.as_ref().len();
        let stats = &mut self.counters[..n];
        // The counters before and after the per-card table, then the table, whose counters keep
        // their totals and value terms only: three plain loops, no test of the range per counter.
        let (cards, cards_end) = at.card_counters;
        let mut sums = Sums::<TOTALS, SPARSE> { stats, values, fired, touched, game_index };
        sums.add::<false, S>(&mut counters, 0..cards.min(n));
        sums.add::<true, S>(&mut counters, cards.min(n)..cards_end.min(n));
        sums.add::<false, S>(&mut counters, cards_end.min(n)..n);
    }

    /// Closes the open group, if it holds any game, and brings every quantity's group sums up to
    /// date: after the last game of a range (whose last group, if the range ends inside one, is
    /// the run's last, shorter group).
    pub fn finish_group(&mut self) {
        self.close_group();
        self.settle();
    }

    /// Closes the open group, if it holds any game.
    fn close_group(&mut self) {
        let Some(open) = self.open.0.as_deref_mut() else { return };
        if open.games == 0 {
            return;
        }
        let (plan, totals) = (&open.plan, &open.totals[..]);
        // The plan's indices were checked against its sizes when the accumulator was made
        // (`Plan::fits`), and the open group's totals and the moments have those sizes: the
        // quantities are read without a bounds check each (about a fifth of this loop's cost).
        assert!(self.grouped.len() == plan.keys.len() && totals.len() == plan.width);
        // SAFETY: `n < plan.width == totals.len()` for every term of `per_game` and of `single`
        // (`Plan::fits`, asserted in `with_plan`; the plan is shared and never changed after).
        let term = |n: u32| unsafe { *totals.get_unchecked(n as usize) };
        let grouped = &mut self.grouped[..];
        // Once per group for every quantity. A per-game quantity's denominator is the group's
        // games, the same for all of them (added to `pending`), and in most groups its numerator
        // is 0 (a counter that did not fire, a row not reached): then it costs a read.
        let games = totals[tracked::GAMES];
        for &(k, n) in &plan.per_game {
            let t = term(n);
            if t != 0 {
                // SAFETY: `k < plan.keys.len() == grouped.len()` (`Plan::fits`, the assertion).
                unsafe { grouped.get_unchecked_mut(k as usize) }.add_numerator(t, games as u64);
            }
        }
        if !plan.per_game.is_empty() {
            let g = games as u128;
            self.pending.m += g;
            self.pending.m2 += g * g;
        }
        // The others: most are one term over one term (card rates), their terms listed with
        // them; in most groups both are 0 (a card not played), and then it costs two reads.
        for &(k, n, d) in &plan.one_over_one {
            let (t, m) = (term(n), term(d));
            if t | m == 0 {
                continue;
            }
            // SAFETY: `k < plan.keys.len() == grouped.len()` (`Plan::fits`, the assertion).
            let sums = unsafe { grouped.get_unchecked_mut(k as usize) };
            if t != 0 {
                sums.add(t, m as u64);
            } else {
                sums.add_denominator(m as u64);
            }
        }
        for &k in &plan.many {
            let k = k as usize;
            let (t, m) = (plan.eval(plan.num[k], totals), plan.eval(plan.den[k], totals));
            let sums = &mut grouped[k];
            if t != 0 {
                sums.add(t, m as u64);
            } else if m != 0 {
                sums.add_denominator(m as u64);
            }
        }
        self.groups += 1;
        if open.sparse {
            // Only the games, length and rows terms and the touched counters' terms are non-zero.
            let at = open.terms;
            // Split once, so that the loop below stores without reloading the vector each time.
            let (head, fired) = open.totals.split_at_mut(at.fired);
            let (head, values) = head.split_at_mut(at.values);
            head.fill(0);
            for &i in &open.touched {
                values[i as usize] = 0;
                fired[i as usize] = 0;
            }
            open.touched.clear();
        } else {
            open.totals.fill(0);
        }
        open.games = 0;
    }

    /// Adds `pending` to the per-game quantities' moments.
    fn settle(&mut self) {
        let Some(open) = self.open.0.as_deref() else { return };
        if self.pending == Pending::default() {
            return;
        }
        let p = std::mem::take(&mut self.pending);
        for &(k, _) in &open.plan.per_game {
            self.grouped[k as usize].add_denominators(p.m, p.m2);
        }
    }

    /// Games of the open group (0 when every group is closed).
    fn open_games(&self) -> u64 {
        self.open.0.as_ref().map_or(0, |o| o.games)
    }

    /// The group sums of `key` (`None` if `plan`, the layout's, has no such quantity). Where every
    /// game is its own group, the per-game quantities are their per-game sums.
    pub fn sums(&self, plan: &Plan, key: &Key) -> Option<GroupSums> {
        let n = self.games;
        if plan.single_games {
            let counter = |c: usize| self.counters.get(c);
            match key {
                Key::Length => return Some(GroupSums::of_games(n, self.length.sum(), self.length.sum_sq())),
                Key::Rows(rows) => {
                    let t: u64 =
                        rows.iter().map(|&r| self.outcomes.get(r as usize).copied()).sum::<Option<u64>>()?;
                    return Some(GroupSums::of_games(n, t as i128, t as u128));
                }
                Key::OfDecided(rows) => {
                    // Independent games: the decided ones are the trials (Wilson's on them).
                    let count = |rows: &[u16]| -> Option<u64> {
                        rows.iter().map(|&r| self.outcomes.get(r as usize).copied()).sum()
                    };
                    let (t, decided) = (count(rows)?, count(&plan.win_rows)?);
                    return Some(GroupSums::of_games(decided, t as i128, t as u128));
                }
                Key::Value(c) => {
                    return counter(*c).map(|c| GroupSums::of_games(n, c.total as i128, c.sum_sq));
                }
                Key::Fired(c) => {
                    return counter(*c)
                        .map(|c| GroupSums::of_games(n, c.games_with as i128, c.games_with as u128));
                }
                _ => {}
            }
        }
        let k = plan.find(key)?;
        let mut moments = self.grouped[k];
        if plan.is_per_game(k) {
            moments.add_denominators(self.pending.m, self.pending.m2);
        }
        Some(moments.over(self.groups))
    }

    /// The 95% interval of `key` over deal groups (`GroupSums::rate` for rates, `mean` for means):
    /// Wilson and the normal interval where games are independent, the ratio estimator's where
    /// they come in groups or the denominator is random. NaN when the plan has no such quantity.
    pub fn interval(&self, plan: &Plan, key: &Key) -> Interval {
        let method = if self.groups > 0 && !plan.single_games { Method::Ratio } else { Method::Normal };
        match self.sums(plan, key) {
            Some(s) if key.is_rate() => s.rate(),
            // A counter's events per game: a count, never negative.
            Some(s) if matches!(key, Key::Value(_)) => s.count_mean(),
            Some(s) => s.mean(),
            None => Interval::undefined(method),
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
        if self.grouped.len() != Plan::of(layout).keys.len() {
            return Some("its group sums do not match its layout".into());
        }
        let size = layout.group_size.max(1);
        if self.groups > games || self.groups < games.div_ceil(size) {
            return Some(format!("it counts {} deal groups of {size} games for {games} games", self.groups));
        }
        None
    }

    /// Adds `other`'s games. Both must hold closed groups only.
    pub fn merge(&mut self, other: &Accumulator) {
        assert!(
            self.open_games() == 0 && other.open_games() == 0,
            "only accumulators of closed deal groups merge"
        );
        self.groups += other.groups;
        for (a, b) in self.grouped.iter_mut().zip(&other.grouped) {
            a.merge(b);
        }
        // Sums of groups closed but not yet settled in `other` (games recorded without a
        // `finish_group`) are added where they belong: to its plan's per-game quantities.
        if other.pending != Pending::default() {
            let open = other.open.0.as_deref().expect("only a fresh accumulator has unsettled groups");
            for &(k, _) in &open.plan.per_game {
                self.grouped[k as usize].add_denominators(other.pending.m, other.pending.m2);
            }
        }
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
    use crate::stats::tracked::Key;

    fn layout() -> Layout {
        let outcomes = vec![OutcomeKey::seat(OutcomeKind::Win, 0), OutcomeKey::plain(OutcomeKind::Draw)];
        Layout {
            distributions: vec!["depth".into()],
            ..Layout::plain("battles", outcomes, vec!["wars".into()])
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

    /// Taking a game (`take`) records what `record` records and leaves the record cleared, for a
    /// narrow record (reset whole) and for a wide one (only the counters the game set cleared).
    #[test]
    fn taking_a_game_records_it_and_clears_the_record() {
        for width in [3, LIST_WIDTH + 40] {
            let l = Layout {
                distributions: vec!["depth".into()],
                ..Layout::plain("battles", layout().outcomes, (0..width).map(|k| format!("c{k}")).collect())
            };
            let (mut recorded, mut taken) = (Accumulator::new(&l), Accumulator::new(&l));
            let mut reused = GameRecord::new(&l);
            for i in 0..7u64 {
                let mut r = GameRecord::new(&l);
                (r.length, r.outcome) = (10 + i, (i % 2) as u16);
                for k in (i as usize % 3..width).step_by(5 + i as usize) {
                    r.counters[k] = i + k as u64;
                }
                r.observe(crate::record::Dist(0), i as i64);
                recorded.record(i, &r);
                reused.clone_from(&r);
                taken.take(i, &mut reused);
                let clear = GameRecord::new(&l);
                assert_eq!(
                    (reused.length, reused.outcome, reused.observations()),
                    (0, 0, clear.observations())
                );
                assert!(
                    reused.counters.iter().all(|&c| c == 0),
                    "width {width}, game {i}: a counter left set"
                );
            }
            recorded.finish_group();
            taken.finish_group();
            assert_eq!(recorded, taken, "width {width}");
            assert_eq!(serde_json::to_string(&recorded).unwrap(), serde_json::to_string(&taken).unwrap());
        }
    }

    /// A wide record with a per-card table (read in three runs: the counters before the table,
    /// the table, the counters after it) is taken as `record` reads it, over several groups.
    #[test]
    fn taking_a_game_with_a_per_card_table_records_what_record_does() {
        let mut b = crate::record::LayoutBuilder::new("rounds");
        b.seat_wins(2);
        let wars = b.counter("wars");
        let keys: Vec<String> = (0..70).map(|k| format!("d{k}")).collect();
        let table = b.cards(keys, &["kept", "played", "won", "tied"], &[("win_rate", 2, 1)]);
        let (mut l, _) = b.finish();
        l.group_size = 3;
        let (mut recorded, mut taken) = (Accumulator::new(&l), Accumulator::new(&l));
        let mut reused = GameRecord::new(&l);
        assert!(Accumulator::clears_by_list(&reused), "a table wide enough to be cleared by list");
        for i in 0..11u64 {
            // Game i deals designs i, 7i and 13i modulo 70, some of their columns at 0.
            let mut r = GameRecord::new(&l);
            (r.length, r.outcome) = (20 + i, (i % 2) as u16);
            r.count(wars, i % 3);
            for d in [i, 7 * i, 13 * i] {
                for c in 0..4 {
                    r.count(table.at(d as usize % 70, c), (i + c as u64) % 3);
                }
            }
            recorded.record(i, &r);
            reused.clone_from(&r);
            taken.take(i, &mut reused);
            assert!(reused.counters.iter().all(|&c| c == 0), "game {i}: a counter left set");
        }
        recorded.finish_group();
        taken.finish_group();
        assert!(
            recorded.counters[0].games_with > 0
                && recorded.counters.iter().filter(|c| c.total > 0).count() > 40
        );
        assert_eq!(recorded, taken);
        assert_eq!(serde_json::to_string(&recorded).unwrap(), serde_json::to_string(&taken).unwrap());
    }

    #[test]
    fn a_per_card_counter_keeps_its_total_and_an_event_counter_everything() {
        let mut l = layout();
        let cards = ["a", "b", "c"];
        for card in cards {
            l.counters.extend([format!("card {card} played"), format!("card {card} won")]);
        }
        l.cards = Some(crate::record::CardTable {
            keys: cards.map(String::from).to_vec(),
            columns: vec!["played".into(), "won".into()],
            rates: vec![("win_rate".into(), 1, 0)],
            paired: Vec::new(),
            first: 1,
            pairs: None,
            makers: None,
            class: Vec::new(),
        });
        let mut acc = Accumulator::new(&l);
        // (wars, a played, a won, b played, b won, c played, c won), one game each.
        let games = [[3u64, 2, 1, 0, 0, 1, 1], [0, 3, 3, 2, 0, 0, 0], [0; 7]];
        for (i, counts) in games.iter().enumerate() {
            let mut r = GameRecord::new(&l);
            for (c, &v) in counts.iter().enumerate() {
                r.counters[c] = v;
            }
            acc.record(i as u64, &r);
        }
        acc.finish_group();
        let wars = &acc.counters[0];
        assert_eq!((wars.total, wars.sum_sq, wars.games_with, wars.examples.games()), (3, 9, 1, &[0u64][..]));
        let totals: Vec<u128> = acc.counters[1..].iter().map(|c| c.total).collect();
        assert_eq!(totals, [5, 4, 2, 0, 1, 1]);
        for (k, c) in acc.counters[1..].iter().enumerate() {
            let rest = (c.sum_sq, c.games_with, c.examples.games().len());
            assert_eq!(rest, (0, 0, 0), "per-card counter {k} keeps its total only");
        }
        // The card rates read the totals, one game a group: a won 4 of 5 plays; b none of 2 (a
        // group whose numerator is 0 adds its denominator's sums only).
        let plan = acc.plan(&l);
        let a = acc.sums(&plan, &Key::CardRate(0, 0)).unwrap();
        assert_eq!((a.groups, a.moments.t, a.moments.m), (3, 4, 5));
        assert_eq!((a.moments.t2, a.moments.m2, a.moments.tm), (1 + 9, 4 + 9, 2 + 9));
        let b = acc.sums(&plan, &Key::CardRate(1, 0)).unwrap();
        assert_eq!((b.moments.t, b.moments.m, b.moments.t2, b.moments.m2, b.moments.tm), (0, 2, 0, 4, 0));
        // Every rate is one term over one term, read without the general sums.
        let at = Terms::of(&l);
        assert_eq!(
            plan.single[plan.find(&Key::CardRate(2, 0)).unwrap()],
            ((at.values + 6) as u32, (at.values + 5) as u32)
        );
        assert!(plan.single.iter().all(|&(n, _)| n != tracked::MANY));
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

    /// `layout()` with deal groups of 3 games.
    fn threes() -> Layout {
        Layout { group_size: 3, ..layout() }
    }

    #[test]
    fn groups_close_after_their_last_game_and_the_last_short_group_at_the_end() {
        let l = threes();
        let mut acc = Accumulator::new(&l);
        // Games 0-2 and 3-5 are groups; game 6 is the run's last, shorter group.
        for i in 0..7u64 {
            acc.record(i, &game(10 + i, (i % 2) as u16, i % 3));
        }
        assert_eq!(acc.groups, 2, "game 6 is still open");
        acc.finish_group();
        assert_eq!(acc.groups, 3);
        let plan = acc.plan(&l);
        // Lengths per group: 10+11+12, 13+14+15, 16 over 3, 3, 1 games.
        let s = acc.sums(&plan, &Key::Length).unwrap();
        assert_eq!((s.groups, s.moments.t, s.moments.m), (3, 91, 7));
        assert_eq!(
            (s.moments.t2, s.moments.m2, s.moments.tm),
            (33u128 * 33 + 42 * 42 + 16 * 16, 19, 33 * 3 + 42 * 3 + 16)
        );
        // Wars fired in games 1, 2, 4, 5: twice in each full group, never in game 6.
        let fired = acc.sums(&plan, &Key::Fired(0)).unwrap();
        assert_eq!((fired.moments.t, fired.moments.t2), (4, 8));
        assert_eq!(acc.inconsistency(&l, 7), None);
    }

    /// A group closed by `record` adds its games to the per-game quantities' denominators only at
    /// `finish_group`; until then reading and merging count them all the same.
    #[test]
    fn groups_closed_by_record_read_and_merge_as_settled_ones() {
        let l = threes();
        let games: Vec<GameRecord> = (0..12).map(|i| game(3 + i % 5, (i % 4 == 0) as u16, i % 2)).collect();
        let mut settled = Accumulator::new(&l);
        let mut unsettled = Accumulator::new(&l);
        for (i, g) in games.iter().enumerate() {
            settled.record(i as u64, g);
            unsettled.record(i as u64, g);
        }
        settled.finish_group();
        assert_ne!(unsettled.grouped, settled.grouped, "the denominators wait for finish_group");
        let plan = settled.plan(&l);
        assert!(!plan.per_game.is_empty());
        for key in &plan.keys {
            assert_eq!(unsettled.sums(&plan, key), settled.sums(&plan, key), "{key:?}");
        }
        let mut merged = Accumulator::new(&l);
        merged.merge(&unsettled);
        assert_eq!(merged, settled);
        unsettled.finish_group();
        assert_eq!(unsettled, settled);
    }

    /// Wide totals (a card table's worth of counters) clear only what a group touched: the next
    /// group starts from zeros all the same.
    #[test]
    fn wide_totals_clear_the_touched_counters_between_groups() {
        let l = Layout { counters: (0..300).map(|i| format!("c{i}")).collect(), group_size: 2, ..layout() };
        let games: Vec<GameRecord> = [[(7, 3)].as_slice(), &[(7, 1), (250, 2)], &[(250, 5)], &[]]
            .iter()
            .map(|counts| {
                let mut g = GameRecord::new(&l);
                g.length = 4;
                for &(c, v) in counts.iter() {
                    g.counters[c] = v;
                }
                g
            })
            .collect();
        let mut acc = Accumulator::new(&l);
        assert!(acc.open.0.as_ref().unwrap().sparse);
        for (i, g) in games.iter().enumerate() {
            acc.record(i as u64, g);
        }
        acc.finish_group();
        let plan = acc.plan(&l);
        let moments = |key: Key| {
            let s = acc.sums(&plan, &key).unwrap();
            (s.groups, s.moments.t, s.moments.t2, s.moments.m, s.moments.m2)
        };
        // Group totals: counter 7 (4, 0), counter 250 (2, 5); fired (2, 0) and (1, 1).
        assert_eq!(moments(Key::Value(7)), (2, 4, 16, 4, 8));
        assert_eq!(moments(Key::Value(250)), (2, 7, 4 + 25, 4, 8));
        assert_eq!(moments(Key::Fired(7)), (2, 2, 4, 4, 8));
        assert_eq!(moments(Key::Fired(250)), (2, 2, 2, 4, 8));
        assert_eq!(moments(Key::Value(8)), (2, 0, 0, 4, 8));
        let mut parts = Accumulator::new(&l);
        for half in games.chunks(2).enumerate() {
            let mut part = Accumulator::new(&l);
            for (j, g) in half.1.iter().enumerate() {
                part.record((2 * half.0 + j) as u64, g);
            }
            part.finish_group();
            parts.merge(&part);
        }
        assert_eq!(parts, acc);
    }

    /// `close_group` reads the plan's indices without bounds checks: a plan whose indices
    /// exceed its sizes is refused when the accumulator is made.
    #[test]
    #[should_panic(expected = "a plan whose indices exceed its sizes")]
    fn a_plan_whose_indices_exceed_its_sizes_is_refused() {
        let l = threes();
        let mut plan = Plan::of(&l);
        assert!(plan.fits());
        plan.per_game[0].1 = plan.width as u32;
        assert!(!plan.fits());
        Accumulator::with_plan(&l, Arc::new(plan));
    }

    /// Two seats rotated over two agents, deals of 2 games, and a draw row.
    fn rotated_duel() -> Layout {
        let win = |seat: usize, policy: &str| OutcomeKey {
            policy: Some(policy.into()),
            ..OutcomeKey::seat(OutcomeKind::Win, seat)
        };
        Layout {
            outcomes: vec![
                win(0, "a"),
                win(0, "b"),
                win(1, "a"),
                win(1, "b"),
                OutcomeKey::plain(OutcomeKind::Draw),
            ],
            group_size: 2,
            ..layout()
        }
    }

    #[test]
    fn shares_of_decided_games_sum_each_deal_over_its_decided_games() {
        let l = rotated_duel();
        let mut acc = Accumulator::new(&l);
        // Deals: (a wins at seat 0, a wins at seat 1), (draw, b wins at seat 0), (b at 1, a at 0).
        for (i, outcome) in [0u16, 2, 4, 1, 3, 0].into_iter().enumerate() {
            let mut g = game(9, 0, 0);
            g.outcome = outcome;
            acc.record(i as u64, &g);
        }
        let plan = acc.plan(&l);
        let sums = |rows: Vec<u16>| {
            let s = acc.sums(&plan, &Key::OfDecided(rows)).unwrap();
            (s.groups, s.moments.t, s.moments.m, s.moments.t2, s.moments.m2, s.moments.tm)
        };
        // Agent a: 2, 0, 1 of 2, 1, 2 decided games; the draw is in no denominator.
        assert_eq!(sums(vec![0, 2]), (3, 3, 5, 4 + 1, 4 + 1 + 4, 4 + 2));
        // Seat 0: 1, 1, 1 of the same.
        assert_eq!(sums(vec![0, 1]), (3, 3, 5, 3, 9, 2 + 1 + 2));
        let a = acc.interval(&plan, &Key::OfDecided(vec![0, 2]));
        assert!((a.estimate - 0.6).abs() < 1e-12, "{a:?}");
        // Where every game is its own deal, Wilson's on the decided games.
        let single = Layout { group_size: 1, ..l };
        let mut acc = Accumulator::new(&single);
        for (i, outcome) in [0u16, 2, 4, 1, 3, 0].into_iter().enumerate() {
            let mut g = game(9, 0, 0);
            g.outcome = outcome;
            acc.record(i as u64, &g);
        }
        let plan = acc.plan(&single);
        assert_eq!(acc.interval(&plan, &Key::OfDecided(vec![0, 2])), crate::stats::wilson(3, 5));
    }

    #[test]
    #[should_panic(expected = "closed deal groups")]
    fn an_open_group_never_merges() {
        let l = threes();
        let mut open = Accumulator::new(&l);
        open.record(0, &game(5, 0, 1));
        Accumulator::new(&l).merge(&open);
    }

    #[test]
    fn random_splits_at_group_boundaries_merge_to_one_pass() {
        use rand_core::Rng;
        let l = threes();
        let games: Vec<GameRecord> =
            (0..61).map(|i| game(5 + i * 7 % 13, (i % 5 == 0) as u16, i % 3)).collect();
        let mut whole = Accumulator::new(&l);
        for (i, g) in games.iter().enumerate() {
            whole.record(i as u64, g);
        }
        whole.finish_group();
        let mut rng = crate::seed::GameSeed::new(3, 0).rng();
        for _ in 0..20 {
            // Cut points at random group boundaries, parts merged in reverse order.
            let mut cuts: Vec<usize> = (0..3).map(|_| 3 * (rng.next_u32() % 21) as usize).collect();
            cuts.extend([0, games.len()]);
            cuts.sort();
            let mut merged = Accumulator::new(&l);
            for w in cuts.windows(2).rev() {
                let mut part = Accumulator::new(&l);
                for (i, g) in games.iter().enumerate().take(w[1]).skip(w[0]) {
                    part.record(i as u64, g);
                }
                part.finish_group();
                merged.merge(&part);
            }
            assert_eq!(merged.groups, whole.groups);
            assert_eq!(merged.grouped, whole.grouped);
            assert_eq!(merged, whole);
        }
    }
}
