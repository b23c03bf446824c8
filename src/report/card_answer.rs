//! The answer to "what does a card do" (`question = "card_impact"`), per card set: its strongest
//! and weakest designs in the set's own ids, with their intervals under each placement, and how
//! many of its designs clearly help or hurt their owner; then one grid, a row per design said
//! (the strongest and weakest of each set) and a column per placement.
//!
//! Two measures, whichever the points have:
//! - **impact** (points that replay each deal without a design's text, `impact=cards` or
//!   `pairs`): the change in the owner's chance to win, in percentage points, a paired mean
//!   (`paired_means`); causal, judged against the same card without its text.
//! - **the win rate of the games a card was played in** (every other point): descriptive only, a
//!   card's printed value and its text mixed. Points without a card set (textless cards only) are
//!   the baseline: what a printed value alone gives (a textless 9 against a textless 3).

use super::effects::Grid;
use super::format::{self, RateScale};
use super::paired_means::ranked_cards;
use super::pivot::{Cell, MetricAnswer, Pivot, setting_words, word};
use super::{PointResult, RunResult};
use crate::stats::Interval;
use crate::stats::tracked::Key;

/// The plot made for the impact answer.
pub const PICTURE: &str = "impact.svg";
/// The strongest designs of each set in the grid.
const TOP: usize = 3;
/// The weakest designs of each set in the grid.
const BOTTOM: usize = 2;
/// The settings key of the card set, and of the placement.
const CARDS: &str = "cards";
const POLICIES: &str = "policies";
/// The prefix of the textless cards' ids (`textless-9`).
const TEXTLESS: &str = "textless-";

/// What is measured of a card at a point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Measure {
    /// The paired change in its owner's chance to win, in points.
    Impact,
    /// The share of the games it was played in that its owner won.
    GameWins,
}

/// One card's estimate at one point.
#[derive(Clone, Debug)]
pub struct Found {
    pub card: String,
    /// Impact: in percentage points; game wins: a share.
    pub interval: Interval,
    /// Paired games (impact) or games played in (game wins).
    pub trials: u64,
    /// Its rarity and printed value, where the set names them.
    pub class: Option<(String, u8)>,
}

impl Found {
    /// The card in words: `eclipse (rare 7)`, `warlord`.
    pub fn named(&self) -> String {
        match &self.class {
            Some((rarity, value)) => format!("{} ({rarity} {value})", self.card),
            None => self.card.clone(),
        }
    }
}

impl Found {
    fn clear(&self, m: Measure) -> bool {
        match m {
            Measure::Impact => self.interval.low > 0.0 || self.interval.high < 0.0,
            Measure::GameWins => true,
        }
    }
}

/// Every card measured at point `p`, in the table's order: impacts (never a card whose text never
/// changed a game) or game win rates (cards played in at least one game).
pub fn measured(p: &PointResult) -> Option<(Measure, Vec<Found>)> {
    let t = p.layout.cards.as_ref().filter(|t| t.makers.is_none())?;
    if !t.paired.is_empty() {
        let (t, _, rows) = ranked_cards(p)?;
        let mut found: Vec<(usize, Found)> = rows
            .into_iter()
            .filter(|(_, e)| {
                e.interval.estimate.is_finite() && !(e.interval.low == 0.0 && e.interval.high == 0.0)
            })
            .map(|(k, e)| {
                let i = e.interval;
                let pt =
                    Interval { estimate: 100.0 * i.estimate, low: 100.0 * i.low, high: 100.0 * i.high, ..i };
                (
                    k,
                    Found {
                        card: t.keys[k].clone(),
                        interval: pt,
                        trials: e.n,
                        class: t.class.get(k).cloned(),
                    },
                )
            })
            .collect();
        found.sort_by_key(|(k, _)| *k);
        return Some((Measure::Impact, found.into_iter().map(|x| x.1).collect()));
    }
    let r = t.rates.iter().position(|(n, _, _)| n == "game_win_rate")?;
    let den = t.rates[r].2;
    let found = (0..t.keys.len())
        .filter_map(|k| {
            let played = p.acc.counters[t.first as usize + k * t.columns.len() + den].total;
            (played > 0).then(|| Found {
                class: t.class.get(k).cloned(),
                card: t.keys[k].clone(),
                interval: p.interval(&Key::CardRate(k, r)),
                trials: u64::try_from(played).unwrap_or(u64::MAX),
            })
        })
        .filter(|f| f.interval.estimate.is_finite())
        .collect();
    Some((Measure::GameWins, found))
}

/// `+21.2 points [19.8, 22.6]` for an impact, `79.6% [78.3, 81.0]` for a share.
fn said(m: Measure, f: &Found) -> String {
    match m {
        Measure::Impact => format!(
            "{} points [{}, {}]",
            signed(f.interval.estimate),
            signed(f.interval.low),
            signed(f.interval.high)
        ),
        Measure::GameWins => format::rate(&f.interval, f.trials, "game"),
    }
}

/// A number of points with its sign (`+21.2`, `−10.1`).
fn signed(x: f64) -> String {
    let s = format::fixed(x.abs(), 1);
    if s.chars().all(|c| c == '0' || c == '.') {
        s
    } else if x < 0.0 {
        format!("−{s}")
    } else {
        format!("+{s}")
    }
}

fn cell(m: Measure, f: &Found) -> (String, String) {
    let i = &f.interval;
    match m {
        Measure::Impact => (signed(i.estimate), format!("[{}, {}]", signed(i.low), signed(i.high))),
        Measure::GameWins => {
            let units = if i.units > 0 { i.units } else { f.trials };
            let (e, r) = format::rate_cells(i.estimate, i.low, i.high, units, RateScale::Percent);
            (e, r.replace("at most ", "≤").replace("at least ", "≥"))
        }
    }
}

fn is_textless(card: &str) -> bool {
    card.starts_with(TEXTLESS)
}

/// A point's set in words: `cards/sample.toml`, or `no card set` for the textless pools.
fn set_of(grid: &Grid, i: usize) -> String {
    let k = grid.keys.iter().position(|k| k == CARDS);
    match k.map(|k| grid.values[i][k].as_str()) {
        None => String::new(),
        Some("" | "none" | "-") => "no card set".into(),
        Some(v) => v.to_string(),
    }
}

/// The answer of a run whose question is `card_impact` (and only that), over points with a
/// per-card table; `None` otherwise.
pub fn answer(run: &RunResult) -> Option<MetricAnswer> {
    let q = run.manifest.question.as_deref()?;
    if q.trim() != super::answer::CARD_IMPACT || run.points.is_empty() {
        return None;
    }
    let grid = Grid::of(&run.points)?;
    let game = run.points[0].game;
    let all: Vec<Option<(Measure, Vec<Found>)>> = run.points.iter().map(measured).collect();
    let measure = all.iter().flatten().map(|(m, _)| *m).next()?;
    let col = grid.keys.iter().position(|k| k == POLICIES);
    let levels: Vec<String> = col.map_or(vec![String::new()], |c| grid.levels(c));
    // Row contexts: every varying key but the placement (the card set first).
    let row_keys: Vec<usize> = (0..grid.keys.len()).filter(|&k| Some(k) != col).collect();
    let ctx = |i: usize| -> Vec<String> { row_keys.iter().map(|&k| grid.values[i][k].clone()).collect() };
    let mut ctxs: Vec<Vec<String>> = Vec::new();
    for (i, _) in all.iter().enumerate().filter(|(_, a)| a.is_some()) {
        if !ctxs.contains(&ctx(i)) {
            ctxs.push(ctx(i));
        }
    }
    // A line-up in words: `placement highest against random`.
    let placement =
        |i: usize| col.map(|c| setting_words(game, POLICIES, &grid.values[i][c].replace(',', " against ")));
    let mut sentences = Vec::new();
    let mut rows: Vec<(Vec<String>, Vec<Cell>)> = Vec::new();
    let mut baseline: Vec<usize> = Vec::new();
    // The points of textless cards only: what a printed value alone gives.
    let textless_only: Vec<usize> = (0..run.points.len())
        .filter(|&i| {
            all[i].as_ref().is_some_and(|(_, f)| !f.is_empty() && f.iter().all(|f| is_textless(&f.card)))
        })
        .collect();
    for c in &ctxs {
        let points: Vec<usize> =
            (0..run.points.len()).filter(|&i| ctx(i) == *c && all[i].is_some()).collect();
        let found_at = |i: usize| &all[i].as_ref().unwrap().1;
        // The designs measured at every point of the context, by their mean over them.
        let mut designs: Vec<String> = Vec::new();
        for &i in &points {
            for f in found_at(i) {
                if !designs.contains(&f.card) && !is_textless(&f.card) {
                    designs.push(f.card.clone());
                }
            }
        }
        designs.retain(|d| points.iter().all(|&i| found_at(i).iter().any(|f| f.card == *d)));
        let set = points.first().map(|&i| set_of(&grid, i)).unwrap_or_default();
        if designs.is_empty() {
            if measure == Measure::GameWins {
                baseline.extend(&points);
            }
            continue;
        }
        // Strong by what the interval surely shows (its low end), weak by its high end, so a card
        // played in a handful of games is neither on luck; an impact by its estimate.
        let score = |d: &str, low: bool| {
            let v: Vec<f64> = points
                .iter()
                .filter_map(|&i| found_at(i).iter().find(|f| f.card == d))
                .map(|f| match (measure, low) {
                    (Measure::Impact, _) => f.interval.estimate,
                    (Measure::GameWins, true) => f.interval.low,
                    (Measure::GameWins, false) => f.interval.high,
                })
                .collect();
            v.iter().sum::<f64>() / v.len().max(1) as f64
        };
        designs.sort_by(|a, b| score(b, true).total_cmp(&score(a, true)));
        let mut weak = designs.clone();
        weak.sort_by(|a, b| score(b, false).total_cmp(&score(a, false)));
        let weakest = weak.last().cloned().unwrap_or_default();
        let weak_id = weakest.clone();
        let top: Vec<String> = designs.iter().take(TOP).cloned().collect();
        weak.retain(|d| !top.contains(d));
        let bottom: Vec<String> = weak[weak.len().saturating_sub(BOTTOM)..].to_vec();
        let at = |d: &str| -> Vec<String> {
            points
                .iter()
                .filter_map(|&i| {
                    let f = found_at(i).iter().find(|f| f.card == d)?;
                    Some(match placement(i) {
                        Some(w) => format!("{} ({w})", said(measure, f)),
                        None => said(measure, f),
                    })
                })
                .collect()
        };
        let of = if set.is_empty() { String::new() } else { format!(" of {set}") };
        let name = |d: &str| -> String {
            points
                .iter()
                .find_map(|&i| found_at(i).iter().find(|f| f.card == d))
                .map_or(d.to_string(), Found::named)
        };
        let strongest_id = designs[0].clone();
        let (strongest, weakest) = (&name(&strongest_id), &name(&weakest));
        let weakest_id = weak_id;
        let s = match measure {
            Measure::Impact => {
                let mut s = format!(
                    "The strongest design{of} is {strongest}: {} on its owner's chance to win",
                    at(&strongest_id).join(", ")
                );
                if weakest_id != strongest_id {
                    s.push_str(&format!("; the weakest is {weakest}: {}", at(&weakest_id).join(", ")));
                }
                // How many clearly help or hurt, at the context's first point.
                let first = found_at(points[0]);
                let ds: Vec<&Found> = first.iter().filter(|f| !is_textless(&f.card)).collect();
                let up = ds.iter().filter(|f| f.clear(measure) && f.interval.estimate > 0.0).count();
                let down = ds.iter().filter(|f| f.clear(measure) && f.interval.estimate < 0.0).count();
                let where_ = placement(points[0]).map(|w| format!(" under {w}")).unwrap_or_default();
                let verb =
                    |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
                s.push_str(&format!(
                    " (of the {} designs whose text changed some game{where_}, {} their owner, {}, {} no clear effect).",
                    ds.len(),
                    verb(up, "clearly helps", "clearly help"),
                    verb(down, "clearly hurts", "clearly hurt"),
                    verb(ds.len() - up - down, "shows", "show")
                ));
                s
            }
            Measure::GameWins => {
                let mut s = format!(
                    "{} {strongest} wins the most of the games it is played in: {}",
                    if set.is_empty() {
                        "The owner of".to_string()
                    } else {
                        format!("With {set}, the owner of")
                    },
                    at(&strongest_id).join(", ")
                );
                // Beside a textless card of its printed value, without a set, at the same placement.
                let first = points[0];
                let value = found_at(first)
                    .iter()
                    .find(|f| f.card == strongest_id)
                    .and_then(|f| f.class.as_ref())
                    .map(|c| c.1);
                let same = |j: usize| col.is_none_or(|c| grid.values[j][c] == grid.values[first][c]);
                if let Some(v) = value
                    && let Some(j) = textless_only.iter().copied().find(|&j| same(j))
                    && let Some(f) = found_at(j).iter().find(|f| f.card == format!("{TEXTLESS}{v}"))
                {
                    let w = placement(first).map(|w| format!(", {w}")).unwrap_or_default();
                    s.push_str(&format!(" (a textless {v} without a set: {}{w})", said(measure, f)));
                }
                if weakest_id != strongest_id {
                    s.push_str(&format!(
                        "; the owner of {weakest} the fewest: {}",
                        at(&weakest_id).join(", ")
                    ));
                }
                s.push('.');
                s
            }
        };
        sentences.push(s);
        // The grid's rows: the strongest and the weakest.
        let shown: Vec<&String> = top.iter().chain(&bottom).collect();
        for d in shown {
            let cells = levels
                .iter()
                .map(|l| {
                    let i = points.iter().find(|&&i| col.is_none_or(|c| grid.values[i][c] == *l))?;
                    found_at(*i).iter().find(|f| f.card == *d).map(|f| cell(measure, f))
                })
                .collect();
            let mut values = c.clone();
            if let Some(k) = row_keys.iter().position(|&k| grid.keys[k] == CARDS) {
                values[k] = set.clone();
            }
            values.push(name(d));
            rows.push((values, cells));
        }
    }
    // The textless baseline: what the printed value alone gives.
    if measure == Measure::GameWins && !baseline.is_empty() {
        let i = baseline[0];
        let textless: Vec<&Found> =
            all[i].as_ref().unwrap().1.iter().filter(|f| is_textless(&f.card)).collect();
        if let (Some(hi), Some(lo)) =
            (textless.iter().max_by_key(|f| value(&f.card)), textless.iter().min_by_key(|f| value(&f.card)))
        {
            let where_ = placement(i).map(|w| format!(" ({w})")).unwrap_or_default();
            sentences.push(format!(
                "Without a card set (textless cards only), the printed value alone: a {}'s owner wins {} of the games it is played in, a {}'s {}{where_}.",
                value(&hi.card),
                said(measure, hi),
                value(&lo.card),
                said(measure, lo)
            ));
            for f in [hi, lo] {
                let cells = levels
                    .iter()
                    .map(|l| {
                        let j = baseline.iter().find(|&&j| col.is_none_or(|c| grid.values[j][c] == *l))?;
                        all[*j].as_ref()?.1.iter().find(|g| g.card == f.card).map(|g| cell(measure, g))
                    })
                    .collect();
                let mut values = ctx(i);
                if let Some(k) = row_keys.iter().position(|&k| grid.keys[k] == CARDS) {
                    values[k] = set_of(&grid, i);
                }
                values.push(format!("a textless {}", value(&f.card)));
                rows.push((values, cells));
            }
        }
        sentences.push(
            "These rates describe the games a card was played in, its printed value and its text together; replaying the same deals without a design's text (an impact run) says what the text itself does."
                .into(),
        );
    }
    if sentences.is_empty() {
        return None;
    }
    let mut keys: Vec<String> = row_keys.iter().map(|&k| word(game, &grid.keys[k])).collect();
    keys.push("card".into());
    let (title, picture) = match measure {
        Measure::Impact => (
            format!(
                "Change in the owner's chance to win, in points: the {TOP} strongest and {BOTTOM} weakest designs of each set"
            ),
            Some(PICTURE),
        ),
        Measure::GameWins => (
            format!(
                "The owner's wins of the games the card is played in, in %: the {TOP} highest and {BOTTOM} lowest designs of each set"
            ),
            None,
        ),
    };
    // A set's name once, on its first row.
    let mut last = String::new();
    for r in &mut rows {
        if r.0.len() > 1 {
            if r.0[0] == last {
                r.0[0] = String::new();
            } else {
                last.clone_from(&r.0[0]);
            }
        }
    }
    // The placements head their columns alone: the title names the setting.
    let title = match col {
        Some(c) => format!("{title}, a column per {}", word(game, &grid.keys[c])),
        None => title,
    };
    let pivot =
        Pivot { title, row_keys: keys, col_key: String::new(), col_levels: levels, rows, marked: None };
    Some(MetricAnswer { sentences, pivots: vec![pivot], picture, picture_after: 0 })
}

/// A textless card's printed value (`textless-9` → 9).
fn value(card: &str) -> u32 {
    card.strip_prefix(TEXTLESS).and_then(|v| v.parse().ok()).unwrap_or(0)
}
