//! The one vocabulary of quantities a point's statistics can be asked about: `--until` targets,
//! comparison rows and the CSV files' column names all come from here, derived from the layout.
//!
//! A metric is a per-game integer quantity (the length, "ended in one of these outcome rows", a
//! counter's value, "the counter fired") averaged over games. Names:
//!
//! | name | quantity | interval |
//! |---|---|---|
//! | `length_mean` | the game's length | normal (mean) |
//! | `<kind>_rate` | ended in `kind`, any seat | Wilson |
//! | `<kind>_rate seat=S team=T policy=P` | ended in that one outcome row | Wilson |
//! | `<counter>_mean_per_game` | the counter's value | normal (mean) |
//! | `<counter>_share_of_games` | the counter fired | Wilson |
//!
//! `<counter>_mean` and `<counter>_share` are accepted as short forms of the last two (`resolve`).

use crate::record::{GameRecord, Layout, OutcomeKind};
use crate::stats::{Accumulator, Interval, mean_interval, wilson};

/// A per-game integer quantity read from a `GameRecord`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// The game's length.
    Length,
    /// 1 if the game ended in one of these outcome rows, else 0.
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
            Quantity::Ended(rows) => rows.contains(&rec.outcome) as i64,
            Quantity::Counter(i) => rec.counters[*i] as i64,
            Quantity::Fired(i) => (rec.counters[*i] > 0) as i64,
        }
    }

    /// True for 0/1 quantities, whose means are rates.
    pub fn is_rate(&self) -> bool {
        matches!(self, Quantity::Ended(_) | Quantity::Fired(_))
    }

    /// The 95% interval of the quantity's mean over the games of `acc`: Wilson for rates, normal
    /// for means.
    pub fn interval(&self, acc: &Accumulator) -> Interval {
        match self {
            Quantity::Length => mean_interval(acc.length.sum(), acc.length.sum_sq(), acc.length.total()),
            Quantity::Ended(rows) => wilson(rows.iter().map(|&r| acc.outcomes[r as usize]).sum(), acc.games),
            Quantity::Counter(c) => {
                mean_interval(acc.counters[*c].total as i128, acc.counters[*c].sum_sq, acc.games)
            }
            Quantity::Fired(c) => wilson(acc.counters[*c].games_with, acc.games),
        }
    }
}

/// A named quantity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    pub name: String,
    pub quantity: Quantity,
}

/// The outcome rows of `layout` that end in `kind`.
pub fn rows_of(layout: &Layout, kind: OutcomeKind) -> Vec<u16> {
    layout.outcomes.iter().enumerate().filter(|(_, o)| o.kind == kind).map(|(i, _)| i as u16).collect()
}

/// Every metric of a layout, in a fixed order: length, each outcome kind the layout has, each
/// outcome row with a seat, team or policy, then each counter's mean and share.
pub fn metrics(layout: &Layout) -> Vec<Metric> {
    let mut out = vec![Metric { name: "length_mean".into(), quantity: Quantity::Length }];
    for &kind in OutcomeKind::ALL {
        let rows = rows_of(layout, kind);
        if !rows.is_empty() {
            out.push(Metric { name: format!("{}_rate", kind.name()), quantity: Quantity::Ended(rows) });
        }
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
            out.push(Metric {
                name: format!("{}_rate {}", o.kind.name(), qualifiers.join(" ")),
                quantity: Quantity::Ended(vec![i as u16]),
            });
        }
    }
    for (i, name) in layout.events().iter().enumerate() {
        out.push(Metric { name: format!("{name}_mean_per_game"), quantity: Quantity::Counter(i) });
        out.push(Metric { name: format!("{name}_share_of_games"), quantity: Quantity::Fired(i) });
    }
    out
}

/// The canonical name of `name`: short forms `<counter>_mean` and `<counter>_share` become
/// `<counter>_mean_per_game` and `<counter>_share_of_games`; other names are returned as they are.
fn canonical(name: &str, layout: &Layout) -> String {
    let name = name.trim();
    for (short, long) in [("_mean", "_mean_per_game"), ("_share", "_share_of_games")] {
        if let Some(counter) = name.strip_suffix(short)
            && layout.counters.iter().any(|c| c == counter)
        {
            return format!("{counter}{long}");
        }
    }
    name.to_string()
}

/// Finds a metric of `layout` by name (short forms accepted).
pub fn resolve(name: &str, layout: &Layout) -> Option<Metric> {
    let want = canonical(name, layout);
    metrics(layout).into_iter().find(|m| m.name == want)
}

/// The names of the metrics every one of `layouts` has, in the first layout's order.
pub fn common_names(layouts: &[&Layout]) -> Vec<String> {
    let Some(first) = layouts.first() else { return Vec::new() };
    metrics(first)
        .into_iter()
        .map(|m| m.name)
        .filter(|n| layouts.iter().all(|l| metrics(l).iter().any(|m| &m.name == n)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::OutcomeKey;

    fn layout() -> Layout {
        Layout {
            length_unit: "battles".into(),
            outcomes: vec![
                OutcomeKey::seat(OutcomeKind::Win, 0),
                OutcomeKey::seat(OutcomeKind::Win, 1),
                OutcomeKey::plain(OutcomeKind::Draw),
            ],
            counters: vec!["wars".into()],
            distributions: vec![],
            cards: None,
            entrants: None,
        }
    }

    #[test]
    fn names_come_from_the_layout() {
        let names: Vec<String> = metrics(&layout()).into_iter().map(|m| m.name).collect();
        assert_eq!(
            names,
            [
                "length_mean",
                "win_rate",
                "draw_rate",
                "win_rate seat=0",
                "win_rate seat=1",
                "wars_mean_per_game",
                "wars_share_of_games"
            ]
        );
    }

    #[test]
    fn short_forms_and_unknown_names() {
        let l = layout();
        assert_eq!(resolve("wars_share", &l).unwrap().quantity, Quantity::Fired(0));
        assert_eq!(resolve("wars_mean", &l).unwrap().quantity, Quantity::Counter(0));
        assert_eq!(resolve("win_rate", &l).unwrap().quantity, Quantity::Ended(vec![0, 1]));
        assert!(resolve("scorched_rate", &l).is_none(), "a layout without the kind has no rate");
        assert!(resolve("battles_share", &l).is_none());
    }

    #[test]
    fn intervals_read_the_accumulator() {
        let l = layout();
        let mut acc = Accumulator::new(&l);
        let mut rec = GameRecord::new(&l);
        for i in 0..10u64 {
            rec.reset();
            rec.length = 10 + i;
            rec.outcome = (i % 3) as u16;
            rec.counters[0] = i % 2;
            acc.record(i, &rec);
        }
        // Rows 0 and 1 (wins) in 7 of 10 games: Wilson's estimate is the plain share.
        assert_eq!(resolve("win_rate", &l).unwrap().quantity.interval(&acc).estimate, 0.7);
        assert_eq!(resolve("wars_share", &l).unwrap().quantity.interval(&acc).estimate, 0.5);
        assert_eq!(resolve("length_mean", &l).unwrap().quantity.interval(&acc).estimate, 14.5);
    }
}
