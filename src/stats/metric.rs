//! The one vocabulary of quantities a point's statistics can be asked about: `--until` targets,
//! comparison rows and the CSV files' column names all come from here, derived from the layout.
//!
//! A metric is a per-game integer quantity (the length, "ended in one of these outcome rows", a
//! counter's value, "the counter fired") averaged over games. Names:
//!
//! | name | quantity | interval (independent games / deal groups) |
//! |---|---|---|
//! | `length_mean` | the game's length | normal (mean) / ratio |
//! | `<kind>_rate` | ended in `kind`, any seat | Wilson / ratio |
//! | `<kind>_rate seat=S team=T policy=P` | ended in that one outcome row | Wilson / ratio |
//! | `<counter>_mean_per_game` | the counter's value | normal (mean) / ratio |
//! | `<counter>_share_of_games` | the counter fired | Wilson / ratio |
//!
//! Where games come in deal groups (`Layout::group_size`), every interval is the ratio
//! estimator's over the groups (`stats::group`).
//!
//! `<counter>_mean` and `<counter>_share` are accepted as short forms of the last two (`resolve`).

use crate::record::{GameRecord, Layout, OutcomeKind};
use crate::stats::sequence::{group_cs, rate_cs};
use crate::stats::tracked::Key;
use crate::stats::{Accumulator, Interval};

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

    /// The quantity the accumulator keeps group sums of.
    pub fn key(&self) -> Key {
        match self {
            Quantity::Length => Key::Length,
            Quantity::Ended(rows) => Key::Rows(rows.clone()),
            Quantity::Counter(c) => Key::Value(*c),
            Quantity::Fired(c) => Key::Fired(*c),
        }
    }

    /// The 95% interval of the quantity's mean over the games of `acc` (of `layout`): Wilson for
    /// rates and normal for means over independent games, the ratio estimator over deal groups
    /// (`Accumulator::interval`).
    pub fn interval(&self, layout: &Layout, acc: &Accumulator) -> Interval {
        acc.interval(&acc.plan(layout), &self.key())
    }

    /// The anytime-valid confidence sequence of the quantity's mean over the games of `acc`
    /// (`stats::sequence`), one observation per deal group: the score form for a rate over
    /// independent games, the normal-mixture form over the groups' linearised ratio otherwise.
    pub fn sequence(&self, layout: &Layout, acc: &Accumulator, alpha: f64, rho2: f64) -> Interval {
        let Some(sums) = acc.sums(&acc.plan(layout), &self.key()) else {
            return Interval::undefined(crate::stats::Method::Sequence);
        };
        let m = &sums.moments;
        if self.is_rate() && sums.is_single_games() && m.t >= 0 && m.t2 == m.t as u128 {
            rate_cs(m.t as u64, sums.groups, alpha, rho2)
        } else {
            group_cs(&sums, alpha, rho2)
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
    metrics(layout).into_iter().find(|m| m.name == want).or_else(|| qualified(&want, layout))
}

/// A metric or declared share as a ratio of two per-game quantities: the quantity summed and its
/// denominator (`None`: one per game; a share of decided games counts the decided ones), for
/// contrasts between points (`stats::contrast`).
pub fn ratio(name: &str, layout: &Layout) -> Option<(Quantity, Option<Quantity>)> {
    let q = name.trim();
    if let Some(s) = layout.shares.iter().find(|s| s.name == q || s.name.starts_with(&format!("{q}_of"))) {
        return Some((Quantity::Counter(s.counter as usize), Some(Quantity::Ended(rows_of(layout, s.of)))));
    }
    resolve(q, layout).map(|m| (m.quantity, None))
}

/// A rate qualified by some of its rows' qualifiers (`win_rate seat=0` where the rows also name
/// the policy that sat there): the games that ended in any row of that kind whose qualifiers
/// include all those given, in any order.
fn qualified(name: &str, layout: &Layout) -> Option<Metric> {
    let mut words = name.split_whitespace();
    let kind = words.next()?.strip_suffix("_rate")?;
    let given: Vec<(&str, &str)> = words.map(|w| w.split_once('=')).collect::<Option<_>>()?;
    if given.is_empty() {
        return None;
    }
    let rows: Vec<u16> = (layout.outcomes.iter().enumerate())
        .filter(|(_, o)| o.kind.name() == kind)
        .filter(|(_, o)| {
            given.iter().all(|&(q, v)| match q {
                "seat" => o.seat.is_some_and(|s| s.to_string() == v),
                "team" => o.team.as_deref() == Some(v),
                "policy" => o.policy.as_deref() == Some(v),
                _ => false,
            })
        })
        .map(|(i, _)| i as u16)
        .collect();
    (!rows.is_empty()).then(|| Metric { name: name.to_string(), quantity: Quantity::Ended(rows) })
}

/// A share of decided games (games that ended in a win): `(numerator, denominator)` per game.
/// Names: `<counter>_share_of_decided` (the counter fired, among decided games), and
/// `first_player_win_share` for `first_player_wins_share_of_decided`.
pub fn share_of_decided(name: &str, layout: &Layout) -> Option<(Quantity, Quantity)> {
    let name = name.trim();
    let name = if name == "first_player_win_share" { "first_player_wins_share_of_decided" } else { name };
    let counter = name.strip_suffix("_share_of_decided")?;
    let c = layout.counters.iter().position(|n| n == counter)?;
    let wins = rows_of(layout, OutcomeKind::Win);
    (!wins.is_empty()).then_some((Quantity::Fired(c), Quantity::Ended(wins)))
}

/// The names of the shares of decided games of `layout` (see `share_of_decided`).
pub fn share_names(layout: &Layout) -> Vec<String> {
    if rows_of(layout, OutcomeKind::Win).is_empty() {
        return Vec::new();
    }
    layout.events().iter().map(|c| format!("{c}_share_of_decided")).collect()
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

/// `names` in short: `length_mean`, the outcome rates, one example of a rate per seat, team or
/// policy, and the event forms with the events named once, not every combination. The events are
/// listed only when `events_up_to` characters hold them; else `warsim list GAME` is named.
pub fn allowed(names: &[String], events_up_to: usize) -> String {
    let mut kinds = Vec::new();
    let mut per_row = None;
    let mut events = Vec::new();
    let mut decided = false;
    for n in names {
        if let Some(e) = n.strip_suffix("_mean_per_game") {
            events.push(e);
        } else if n.ends_with("_share_of_decided") {
            decided = true;
        } else if n.contains(' ') {
            per_row.get_or_insert(n.as_str());
        } else if n.ends_with("_rate") {
            kinds.push(n.as_str());
        }
    }
    let mut parts = vec!["length_mean".to_string()];
    if !kinds.is_empty() {
        parts.push(kinds.join(", "));
    }
    if let Some(row) = per_row {
        parts.push(format!("per seat, team or policy as in '{row}'"));
    }
    if !events.is_empty() {
        let of_decided = if decided { ", <event>_share_of_decided" } else { "" };
        let listed = events.join(", ");
        let which = if listed.chars().count() <= events_up_to {
            format!("for the events {listed}")
        } else {
            "for the events `warsim list GAME` names".to_string()
        };
        parts.push(format!("<event>_mean, <event>_share{of_decided} {which}"));
    }
    parts.join("; ")
}

/// What a message about an unknown metric `word` of `game` says after naming it: the nearest of
/// `names` (short forms included) as a question when one is near, else the forms allowed in
/// short, and where every metric is listed, so the line stays short.
pub fn unknown(word: &str, names: &[String], game: &str) -> String {
    let mut spoken: Vec<String> = names.iter().filter(|n| !n.contains(' ')).cloned().collect();
    for n in names {
        if let Some(e) = n.strip_suffix("_mean_per_game") {
            spoken.extend([format!("{e}_mean"), format!("{e}_share")]);
        }
        if n == "first_player_wins_share_of_decided" {
            spoken.push("first_player_win_share".into());
        }
    }
    let spoken: Vec<&str> = spoken.iter().map(String::as_str).collect();
    let rates: Vec<&str> = names.iter().filter(|n| n.ends_with("_rate")).map(String::as_str).collect();
    // A name cut short (`first_player_win` for `first_player_win_share`) is the start of one.
    let started = || {
        let w = word.trim();
        spoken
            .iter()
            .copied()
            .filter(|n| n.strip_prefix(w).is_some_and(|rest| rest.starts_with('_')))
            .min_by_key(|n| n.len())
    };
    match crate::suggest::near(word, &spoken).or_else(started) {
        Some(n) => format!("; did you mean '{n}'? (`warsim list {game}` lists every metric)"),
        None => format!(
            " (metrics: length_mean, {}, <event>_mean, <event>_share; `warsim list {game}` lists them all)",
            rates.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::OutcomeKey;

    fn layout() -> Layout {
        let outcomes = vec![
            OutcomeKey::seat(OutcomeKind::Win, 0),
            OutcomeKey::seat(OutcomeKind::Win, 1),
            OutcomeKey::plain(OutcomeKind::Draw),
        ];
        Layout::plain("battles", outcomes, vec!["wars".into()])
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
    fn a_rate_may_name_some_of_its_rows_qualifiers() {
        // Rows of seat and policy (rotated line-ups): `win_rate seat=0` is every win of seat 0,
        // whoever sat there; `win_rate policy=b` every win of b, in either seat.
        let mut l = layout();
        let row = |seat: usize, policy: &str| OutcomeKey {
            kind: OutcomeKind::Win,
            seat: Some(seat as u8),
            team: None,
            policy: Some(policy.into()),
        };
        l.outcomes =
            vec![row(0, "a"), row(1, "b"), row(0, "b"), row(1, "a"), OutcomeKey::plain(OutcomeKind::Draw)];
        assert_eq!(resolve("win_rate seat=0", &l).unwrap().quantity, Quantity::Ended(vec![0, 2]));
        assert_eq!(resolve("win_rate policy=b", &l).unwrap().quantity, Quantity::Ended(vec![1, 2]));
        assert_eq!(resolve("win_rate policy=b seat=0", &l).unwrap().quantity, Quantity::Ended(vec![2]));
        assert_eq!(resolve("win_rate seat=0 policy=a", &l).unwrap().quantity, Quantity::Ended(vec![0]));
        assert!(resolve("win_rate seat=2", &l).is_none());
        assert!(resolve("win_rate colour=red", &l).is_none());
        assert!(resolve("draw_rate seat=0", &l).is_none());
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
        let at = |name: &str| resolve(name, &l).unwrap().quantity.interval(&l, &acc);
        assert_eq!(at("win_rate"), crate::stats::wilson(7, 10));
        assert_eq!(at("wars_share").estimate, 0.5);
        assert_eq!(at("length_mean").estimate, 14.5);
        // The same games as rotation pairs: every interval over the 5 pairs, by the ratio estimator.
        let pairs = Layout { group_size: 2, ..l.clone() };
        let mut grouped = Accumulator::new(&pairs);
        for i in 0..10u64 {
            rec.reset();
            rec.length = 10 + i;
            rec.outcome = (i % 3) as u16;
            rec.counters[0] = i % 2;
            grouped.record(i, &rec);
        }
        let win = resolve("win_rate", &pairs).unwrap().quantity.interval(&pairs, &grouped);
        assert_eq!((win.estimate, win.method, win.units), (0.7, crate::stats::Method::Ratio, 5));
        // Wins per pair (games 0-1 win, draw...): outcomes 0,1,2,0,1,2,0,1,2,0 -> wins 2,1,1,2,1.
        let mut direct = crate::stats::GroupSums::default();
        for w in [2, 1, 1, 2, 1] {
            direct.add(w, 2);
        }
        assert_eq!(win, direct.ratio());
        // Every pair fired `wars` exactly once: the share is 1/2 with no spread at all.
        let wars = resolve("wars_share", &pairs).unwrap().quantity.interval(&pairs, &grouped);
        assert_eq!((wars.estimate, wars.half_width()), (0.5, 0.0));
    }

    #[test]
    fn an_unknown_metric_gets_the_nearest_or_the_forms_in_short() {
        let names = metrics(&layout()).into_iter().map(|m| m.name).collect::<Vec<_>>();
        assert_eq!(
            unknown("lenght_mean", &names, "war"),
            "; did you mean 'length_mean'? (`warsim list war` lists every metric)"
        );
        assert!(unknown("wars_men", &names, "war").starts_with("; did you mean 'wars_mean'?"));
        assert_eq!(
            unknown("zzzzzzzz", &names, "war"),
            " (metrics: length_mean, win_rate, draw_rate, <event>_mean, <event>_share; `warsim list war` lists them all)"
        );
    }
}
