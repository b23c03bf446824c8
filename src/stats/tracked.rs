//! The quantities whose group totals an `Accumulator` keeps (`stats::group`), derived from the
//! layout alone, in a fixed order, so a saved state and a fresh accumulator agree on what each
//! stored sum is.
//!
//! Each quantity is a ratio of two per-game linear forms, summed over the games of a group: the
//! numerator `T_g` and the denominator `m_g`. A form is a signed sum of **terms**, indices into the
//! open group's totals (`OpenGroup::totals`): `GAMES` (1 per game), `LENGTH`, one per outcome row
//! (1 if the game ended there), one per counter (its value) and one per counter again (1 if it
//! fired).
//!
//! Where every game is its own group (`Layout::group_size` 1), the per-game quantities (length,
//! outcome rows, counters) need no group moments: the accumulator's per-game sums are them
//! (`Accumulator::sums`), so the plan keeps only the ratios (card rates, paired means, shares).

use crate::record::{Layout, OutcomeKind};

/// Index of the games term.
pub const GAMES: usize = 0;
/// Index of the length term.
pub const LENGTH: usize = 1;
/// `Plan::single` of a quantity whose numerator or denominator has several terms.
pub const MANY: u32 = u32::MAX;

/// A quantity an accumulator keeps group totals of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// The game's length, per game.
    Length,
    /// Games ending in any of these outcome rows (one row, an outcome kind's rows, a policy's win
    /// rows), per game.
    Rows(Vec<u16>),
    /// A counter's value, per game.
    Value(usize),
    /// Games in which a counter fired, per game.
    Fired(usize),
    /// A card rate of the per-card table: (card, rate).
    CardRate(usize, usize),
    /// A card rate over every card of one maker (`CardTable::makers`): (maker, rate).
    MakerRate(usize, usize),
    /// A paired mean of the per-card table, per paired difference: (card, mean).
    CardPaired(usize, usize),
    /// A paired mean of the pair table, per paired difference: (pair, mean).
    PairPaired(usize, usize),
    /// A paired mean of the per-card table over every card of one maker, per paired difference:
    /// (maker, mean).
    MakerPaired(usize, usize),
    /// A declared share of a random subset (`Layout::shares`).
    Share(usize),
    /// Games ending in any of these win rows, per decided game (a game some seat won): a policy's
    /// or a seat's share of the decided games (`decided_sets`).
    OfDecided(Vec<u16>),
}

impl Key {
    /// Whether the quantity is a rate (a share of 0/1 values, Wilson's where games are
    /// independent and the denominator fixed) rather than a mean.
    pub fn is_rate(&self) -> bool {
        matches!(
            self,
            Key::Rows(_)
                | Key::Fired(_)
                | Key::CardRate(..)
                | Key::MakerRate(..)
                | Key::Share(_)
                | Key::OfDecided(_)
        )
    }
}

/// Every tracked quantity of a layout and the terms of its numerator and denominator.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub keys: Vec<Key>,
    /// (term, sign) pairs; quantity `k`'s numerator is `terms[num[k].0..num[k].1]`.
    pub terms: Vec<(u32, i8)>,
    pub num: Vec<(u32, u32)>,
    pub den: Vec<(u32, u32)>,
    /// Quantity `k`'s (numerator, denominator) terms when each is one term of sign +1 (most
    /// quantities: counters per game, card rates), read without `eval`; `(MANY, MANY)` otherwise.
    pub single: Vec<(u32, u32)>,
    /// The quantities per game, one numerator term over the games term (length, outcome rows,
    /// counters), as (quantity, numerator term): in a group their denominator is the group's
    /// games, the same for all of them, so an accumulator adds it to all of them at once.
    pub per_game: Vec<(u32, u32)>,
    /// The other quantities whose numerator and denominator are each one term of sign +1 (card
    /// rates, most of them), as (quantity, numerator term, denominator term): read from the list
    /// itself, with no look-up per quantity.
    pub one_over_one: Vec<(u32, u32, u32)>,
    /// Every other quantity (a numerator or denominator of several terms, read with `eval`).
    pub many: Vec<u32>,
    /// Size of the open group's totals.
    pub width: usize,
    /// Every group is one game: per-game quantities are read from the per-game sums.
    pub single_games: bool,
    /// The layout's win rows (the decided games, denominator of `Key::OfDecided`).
    pub win_rows: Vec<u16>,
    /// Each key's position, built when first asked for (`find`, when reading results): a plan is
    /// made for every chunk of games played, and most are never asked.
    index: std::sync::OnceLock<std::collections::HashMap<Key, usize>>,
}

/// Where the terms of a layout sit in the open group's totals.
#[derive(Clone, Copy, Debug)]
pub struct Terms {
    pub rows: usize,
    pub values: usize,
    pub fired: usize,
    pub width: usize,
    /// The counters of the per-card table (`Layout::cards`), `start..end`: only their totals and
    /// value terms are read (cards.csv and the card rates), so only those are kept.
    pub card_counters: (usize, usize),
}

impl Terms {
    pub fn of(layout: &Layout) -> Terms {
        let rows = 2;
        let values = rows + layout.outcomes.len();
        let fired = values + layout.counters.len();
        let card_counters = layout.cards.as_ref().map_or((0, 0), |t| {
            let first = t.first as usize;
            (first, first + t.keys.len() * t.columns.len())
        });
        Terms { rows, values, fired, width: fired + layout.counters.len(), card_counters }
    }
}

/// The row sets worth an interval: each outcome kind's rows (when the kind has more than one row)
/// and each policy's win rows (when it has more than one), in the layout's order.
pub fn row_sets(layout: &Layout) -> Vec<Vec<u16>> {
    let mut sets: Vec<Vec<u16>> = Vec::new();
    let mut push = |rows: Vec<u16>| {
        if rows.len() > 1 && !sets.contains(&rows) {
            sets.push(rows);
        }
    };
    for &kind in OutcomeKind::ALL {
        push(rows_where(layout, |o| o.kind == kind));
    }
    let mut policies: Vec<&str> = Vec::new();
    for o in &layout.outcomes {
        if let Some(p) = o.policy.as_deref()
            && !policies.contains(&p)
        {
            policies.push(p);
        }
    }
    for p in policies {
        push(rows_where(layout, |o| o.kind == OutcomeKind::Win && o.policy.as_deref() == Some(p)));
    }
    sets
}

/// The win-row sets whose share of the decided games is worth an interval, in decision games (whose
/// win rows name a policy): each policy's win rows, then each seat's, in the layout's order. A
/// share of decided games leaves draws and unfinished games out, so a line-up's result and the
/// seat effect read against one half.
pub fn decided_sets(layout: &Layout) -> Vec<Vec<u16>> {
    let wins = |o: &crate::record::OutcomeKey| o.kind == OutcomeKind::Win;
    if !layout.outcomes.iter().any(|o| wins(o) && o.policy.is_some()) {
        return Vec::new();
    }
    let mut sets: Vec<Vec<u16>> = Vec::new();
    for o in layout.outcomes.iter().filter(|o| wins(o)) {
        for set in [
            rows_where(layout, |x| wins(x) && x.policy.is_some() && x.policy == o.policy),
            rows_where(layout, |x| wins(x) && x.seat.is_some() && x.seat == o.seat),
        ] {
            if !set.is_empty() && !sets.contains(&set) {
                sets.push(set);
            }
        }
    }
    sets
}

/// Every win row: the decided games' denominator.
pub fn win_rows(layout: &Layout) -> Vec<u16> {
    rows_where(layout, |o| o.kind == OutcomeKind::Win)
}

fn rows_where(layout: &Layout, keep: impl Fn(&crate::record::OutcomeKey) -> bool) -> Vec<u16> {
    layout.outcomes.iter().enumerate().filter(|(_, o)| keep(o)).map(|(i, _)| i as u16).collect()
}

impl Plan {
    pub fn of(layout: &Layout) -> Plan {
        let at = Terms::of(layout);
        let single_games = layout.group_size <= 1;
        let mut plan = Plan { width: at.width, single_games, win_rows: win_rows(layout), ..Plan::default() };
        let games = [(GAMES as u32, 1i8)];
        if !single_games {
            plan.push(Key::Length, &[(LENGTH as u32, 1)], &games);
            for r in 0..layout.outcomes.len() {
                plan.push(Key::Rows(vec![r as u16]), &[((at.rows + r) as u32, 1)], &games);
            }
            for set in row_sets(layout) {
                let terms: Vec<(u32, i8)> = set.iter().map(|&r| ((at.rows + r as usize) as u32, 1)).collect();
                plan.push(Key::Rows(set), &terms, &games);
            }
            for c in 0..layout.events().len() {
                plan.push(Key::Value(c), &[((at.values + c) as u32, 1)], &games);
                plan.push(Key::Fired(c), &[((at.fired + c) as u32, 1)], &games);
            }
            let row = |r: &u16| ((at.rows + *r as usize) as u32, 1i8);
            let decided: Vec<(u32, i8)> = win_rows(layout).iter().map(row).collect();
            for set in decided_sets(layout) {
                let terms: Vec<(u32, i8)> = set.iter().map(row).collect();
                plan.push(Key::OfDecided(set), &terms, &decided);
            }
        }
        let value = |c: usize| (at.values + c) as u32;
        if let Some(t) = &layout.cards {
            let cols = t.columns.len();
            for card in 0..t.keys.len() {
                let first = t.first as usize + card * cols;
                for (k, &(_, won, of)) in t.rates.iter().enumerate() {
                    plan.push(Key::CardRate(card, k), &[(value(first + won), 1)], &[(value(first + of), 1)]);
                }
                for (k, m) in t.paired.iter().enumerate() {
                    let num = [(value(first + m.up), 1), (value(first + m.down), -1)];
                    plan.push(Key::CardPaired(card, k), &num, &[(value(first + m.n), 1)]);
                }
            }
            if let Some(m) = &t.makers {
                for maker in 0..m.names.len() {
                    let cards: Vec<usize> =
                        (0..t.keys.len()).filter(|&k| m.maker[k] as usize == maker).collect();
                    for (k, &(_, won, of)) in t.rates.iter().enumerate() {
                        let terms = |col: usize| -> Vec<(u32, i8)> {
                            cards.iter().map(|&c| (value(t.first as usize + c * cols + col), 1)).collect()
                        };
                        plan.push(Key::MakerRate(maker, k), &terms(won), &terms(of));
                    }
                    for (k, pm) in t.paired.iter().enumerate() {
                        let column = |col: usize, sign: i8| {
                            cards.iter().map(move |&c| (value(t.first as usize + c * cols + col), sign))
                        };
                        let num: Vec<(u32, i8)> = column(pm.up, 1).chain(column(pm.down, -1)).collect();
                        let den: Vec<(u32, i8)> = column(pm.n, 1).collect();
                        plan.push(Key::MakerPaired(maker, k), &num, &den);
                    }
                }
            }
            if let Some(p) = &t.pairs {
                let cols = p.columns.len();
                for pair in 0..p.pairs.len() {
                    let first = p.first as usize + pair * cols;
                    for (k, m) in p.paired.iter().enumerate() {
                        let num = [(value(first + m.up), 1), (value(first + m.down), -1)];
                        plan.push(Key::PairPaired(pair, k), &num, &[(value(first + m.n), 1)]);
                    }
                }
            }
        }
        for (i, s) in layout.shares.iter().enumerate() {
            let of: Vec<(u32, i8)> = rows_where(layout, |o| o.kind == s.of)
                .iter()
                .map(|&r| ((at.rows + r as usize) as u32, 1))
                .collect();
            plan.push(Key::Share(i), &[(value(s.counter as usize), 1)], &of);
        }
        plan
    }

    fn push(&mut self, key: Key, num: &[(u32, i8)], den: &[(u32, i8)]) {
        let mut span = |terms: &[(u32, i8)]| {
            let start = self.terms.len() as u32;
            self.terms.extend_from_slice(terms);
            (start, self.terms.len() as u32)
        };
        let (n, d) = (span(num), span(den));
        let one = |terms: &[(u32, i8)]| match terms {
            [(t, 1)] => Some(*t),
            _ => None,
        };
        let single = one(num).zip(one(den)).unwrap_or((MANY, MANY));
        let k = self.keys.len() as u32;
        match single {
            (n, d) if n != MANY && d == GAMES as u32 => self.per_game.push((k, n)),
            (MANY, _) => self.many.push(k),
            (n, d) => self.one_over_one.push((k, n, d)),
        }
        self.single.push(single);
        self.keys.push(key);
        self.num.push(n);
        self.den.push(d);
    }

    /// Whether every index the group's reading relies on is within the plan's sizes: each
    /// quantity of `per_game`, `one_over_one` and `many` below `keys.len()`, each term of
    /// `per_game` and `one_over_one` below `width`. `Accumulator` reads them without bounds
    /// checks, having asserted this once.
    pub fn fits(&self) -> bool {
        let n = self.keys.len();
        let sized = self.single.len() == n && self.num.len() == n && self.den.len() == n;
        sized
            && self.per_game.iter().all(|&(k, t)| (k as usize) < n && (t as usize) < self.width)
            && self.many.iter().all(|&k| (k as usize) < n)
            && self
                .one_over_one
                .iter()
                .all(|&(k, t, d)| (k as usize) < n && (t as usize) < self.width && (d as usize) < self.width)
    }

    /// Whether quantity `k` is one of `per_game`.
    pub fn is_per_game(&self, k: usize) -> bool {
        matches!(self.single[k], (n, d) if n != MANY && d == GAMES as u32)
    }

    /// The position of `key`, if the layout has it.
    pub fn find(&self, key: &Key) -> Option<usize> {
        let index = self.index.get_or_init(|| {
            let mut index = std::collections::HashMap::with_capacity(self.keys.len());
            for (k, key) in self.keys.iter().enumerate() {
                // A key declared twice is found at its first position.
                index.entry(key.clone()).or_insert(k);
            }
            index
        });
        index.get(key).copied()
    }

    /// The value of terms `span` over the open group's `totals`.
    #[inline]
    pub fn eval(&self, span: (u32, u32), totals: &[i64]) -> i64 {
        self.terms[span.0 as usize..span.1 as usize].iter().map(|&(t, s)| s as i64 * totals[t as usize]).sum()
    }
}
