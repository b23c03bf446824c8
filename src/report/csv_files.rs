//! The tidy CSV files of the output contract (`docs/design.md`): `summary.csv`, `outcomes.csv`, `events.csv`,
//! `lengths.csv`, `distributions.csv` and, for games that declare a per-card table, `cards.csv` (and
//! `card_pairs.csv` when it has a table of card pairs). Headers are snake_case, rates are fractions in [0, 1],
//! intervals are 95%: over independent games, Wilson for rates and normal for means; over deal
//! groups where games share a deal, and for every share of a random subset, the ratio estimator
//! (`stats::group`, read through `PointResult::interval`).

use std::io::Write;

use super::format::{opt, real};
use super::paired_means;
use super::{Export, PointResult, RunResult};
use crate::record::{OutcomeKind, PairedMean};
use crate::stats::tracked::Key;
use crate::stats::{Interval, wilson};

/// A rate's interval as the CSV files write it: inside [0, 1], and where the rate is 0 (or 1) the
/// exact bound over its independent units (`format::none_bound`, as every answer says it), never
/// [0, 0] as a normal or ratio interval gives with no event, nor Wilson's bound beside it.
pub fn rate_bounds(ci: &Interval, trials: u64) -> (f64, f64) {
    let units = if ci.units > 0 { ci.units } else { trials };
    if ci.estimate == 0.0 {
        (0.0, super::format::none_bound(units))
    } else if ci.estimate == 1.0 {
        (1.0 - super::format::none_bound(units), 1.0)
    } else {
        (ci.low.max(0.0), ci.high.min(1.0))
    }
}

fn writer(out: &mut dyn Write) -> csv::Writer<&mut dyn Write> {
    csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out)
}

/// Setting columns of `summary.csv`: the union over the run's points, `variant` first, each game's
/// settings in its own order. A point leaves the settings of other games empty.
pub fn setting_columns(run: &RunResult) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for p in &run.points {
        let keys = p
            .settings
            .has_variants
            .then_some("variant")
            .into_iter()
            .chain(p.settings.values.iter().map(|(k, _)| *k));
        for k in keys {
            if !cols.iter().any(|c| c == k) {
                cols.push(k.to_string());
            }
        }
    }
    cols
}

/// The value of setting column `c` (`setting_columns`) at point `p`; empty where it does not set it.
pub fn setting_value(p: &PointResult, c: &str) -> String {
    if c == "variant" && p.settings.has_variants {
        return p.settings.variant.clone();
    }
    p.settings.values.iter().find(|(k, _)| *k == c).map(|(_, v)| v.clone()).unwrap_or_default()
}

/// Whether setting column `c` holds a number at some point and a word at another.
fn mixes_numbers_and_words(run: &RunResult, c: &str) -> bool {
    let values: Vec<String> =
        run.points.iter().map(|p| setting_value(p, c)).filter(|v| !v.is_empty()).collect();
    values.iter().any(|v| v.parse::<f64>().is_ok()) && values.iter().any(|v| v.parse::<f64>().is_err())
}

/// The setting columns whose value is not the same at every point: the columns a spreadsheet
/// pivots `standings.csv` and `designers.csv` on, beside the point's label.
pub fn varying_columns(run: &RunResult) -> Vec<String> {
    setting_columns(run)
        .into_iter()
        .filter(|c| run.points.iter().any(|p| setting_value(p, c) != setting_value(&run.points[0], c)))
        .collect()
}

/// Outcome kinds present in the run, in the contract's order.
pub fn outcome_kinds(run: &RunResult) -> Vec<OutcomeKind> {
    let mut kinds: Vec<OutcomeKind> =
        run.points.iter().flat_map(|p| p.layout.outcomes.iter().map(|o| o.kind)).collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// Games of a point that ended in `kind` (any seat).
pub fn kind_count(p: &PointResult, kind: OutcomeKind) -> Option<u64> {
    let mut any = false;
    let mut n = 0;
    for (key, &count) in p.layout.outcomes.iter().zip(&p.acc.outcomes) {
        if key.kind == kind {
            any = true;
            n += count;
        }
    }
    any.then_some(n)
}

pub struct Summary;

impl Export for Summary {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        let cols = setting_columns(run);
        let kinds = outcome_kinds(run);
        let mut header: Vec<String> = vec!["scenario".into(), "game".into()];
        // A setting that takes a number or a word (`war_down`: 3 or `by-value`) gets two columns,
        // so that no column mixes numbers and words: the number, and `<setting>_word`.
        let mixed: Vec<bool> = cols.iter().map(|c| mixes_numbers_and_words(run, c)).collect();
        for (c, &m) in cols.iter().zip(&mixed) {
            header.push(c.clone());
            if m {
                header.push(format!("{c}_word"));
            }
        }
        for h in [
            "games",
            "length_unit",
            "length_mean",
            "length_sd",
            "length_ci95_low",
            "length_ci95_high",
            "length_min",
            "length_p50",
            "length_p90",
            "length_p99",
            "length_max",
        ] {
            header.push(h.into());
        }
        header.extend(kinds.iter().map(|k| format!("{}_rate", k.name())));
        let shares = shares(run);
        for (name, of) in &shares {
            header.extend([
                name.clone(),
                format!("{name}_ci95_low"),
                format!("{name}_ci95_high"),
                of.clone(),
            ]);
        }
        let until = &run.manifest.until_intervals;
        if !until.is_empty() {
            header.extend(
                [
                    "until_metric",
                    "until_interval_method",
                    "until_games",
                    "until_estimate",
                    "until_low",
                    "until_high",
                    "until_met",
                ]
                .map(String::from),
            );
        }
        w.write_record(&header)?;
        for (i, p) in run.points.iter().enumerate() {
            let h = &p.acc.length;
            let ci = p.interval(&Key::Length);
            let (_, sd) = crate::stats::interval::mean_sd(h.sum(), h.sum_sq(), h.total());
            let mut row: Vec<String> = vec![p.label.clone(), p.game.into()];
            for (c, &m) in cols.iter().zip(&mixed) {
                let v = setting_value(p, c);
                if m {
                    let number = v.parse::<f64>().is_ok();
                    row.push(if number { v.clone() } else { String::new() });
                    row.push(if number { String::new() } else { v });
                } else {
                    row.push(v);
                }
            }
            row.push(p.acc.games.to_string());
            row.push(p.layout.length_unit.clone());
            row.extend([real(ci.estimate), real(sd), real(ci.low), real(ci.high)]);
            row.extend([
                opt(h.min()),
                opt(h.quantile(0.5)),
                opt(h.quantile(0.9)),
                opt(h.quantile(0.99)),
                opt(h.max()),
            ]);
            for &k in &kinds {
                row.push(kind_count(p, k).map(|n| real(n as f64 / p.acc.games as f64)).unwrap_or_default());
            }
            for (name, _) in &shares {
                match p.layout.shares.iter().position(|s| &s.name == name) {
                    Some(i) => {
                        let ci = p.interval(&Key::Share(i));
                        let of = kind_count(p, p.layout.shares[i].of).unwrap_or(0);
                        let (low, high) = rate_bounds(&ci, of);
                        row.extend([real(ci.estimate), real(low), real(high), of.to_string()]);
                    }
                    None => row.extend(std::array::from_fn::<String, 4, _>(|_| String::new())),
                }
            }
            if let Some(u) = until.get(i) {
                row.extend([u.metric.clone(), u.method.clone(), u.games.to_string()]);
                row.extend([real(u.estimate), real(u.low), real(u.high), u.met.to_string()]);
            }
            w.write_record(&row)?;
        }
        w.flush()?;
        Ok(())
    }
}

/// The shares of random subsets of the run's points (`Layout::shares`), as (name, denominator's
/// name), in order of first appearance.
pub fn shares(run: &RunResult) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for s in run.points.iter().flat_map(|p| &p.layout.shares) {
        if !out.iter().any(|(n, _)| *n == s.name) {
            out.push((s.name.clone(), s.of_name.clone()));
        }
    }
    out
}

pub struct Outcomes;

impl Export for Outcomes {
    fn file_name(&self) -> &'static str {
        "outcomes.csv"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        w.write_record([
            "scenario",
            "outcome",
            "seat",
            "team",
            "policy",
            "count",
            "games",
            "rate",
            "ci95_low",
            "ci95_high",
            "example_games",
            "entrant",
        ])?;
        for p in &run.points {
            // In an event the rows name entrants (players, designers), not policies.
            let event = p.layout.entrants.is_some();
            for (i, key) in p.layout.outcomes.iter().enumerate() {
                let count = p.acc.outcomes[i];
                let ci = p.interval(&Key::Rows(vec![i as u16]));
                let (low, high) = rate_bounds(&ci, p.acc.games);
                let examples: Vec<String> =
                    p.acc.outcome_examples[i].games().iter().map(|g| g.to_string()).collect();
                w.write_record([
                    p.label.clone(),
                    key.kind.name().into(),
                    key.seat.map(|s| s.to_string()).unwrap_or_default(),
                    key.team.clone().unwrap_or_default(),
                    if event { String::new() } else { key.policy.clone().unwrap_or_default() },
                    count.to_string(),
                    p.acc.games.to_string(),
                    real(ci.estimate),
                    real(low),
                    real(high),
                    examples.join(" "),
                    if event { key.policy.clone().unwrap_or_default() } else { String::new() },
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

pub struct Events;

impl Export for Events {
    fn file_name(&self) -> &'static str {
        "events.csv"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        // Each interval right after what it is the interval of: the mean's, then the share's.
        w.write_record([
            "scenario",
            "event",
            "total",
            "mean_per_game",
            "mean_ci95_low",
            "mean_ci95_high",
            "games_with",
            "share_of_games",
            "ci95_low",
            "ci95_high",
            "example_games",
        ])?;
        for p in &run.points {
            for (i, (name, c)) in p.layout.events().iter().zip(&p.acc.counters).enumerate() {
                // Per entrant and per pair results are standings.csv's.
                if p.layout.is_entrant_counter(i) {
                    continue;
                }
                let share = p.interval(&Key::Fired(i));
                let (share_low, share_high) = rate_bounds(&share, p.acc.games);
                let mean = p.interval(&Key::Value(i));
                let examples: Vec<String> = c.examples.games().iter().map(|g| g.to_string()).collect();
                w.write_record([
                    p.label.clone(),
                    name.clone(),
                    c.total.to_string(),
                    real(mean.estimate),
                    // A counter is never negative, nor its mean.
                    real(mean.low.max(0.0)),
                    real(mean.high),
                    c.games_with.to_string(),
                    real(share.estimate),
                    real(share_low),
                    real(share_high),
                    examples.join(" "),
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

pub struct Lengths;

impl Export for Lengths {
    fn file_name(&self) -> &'static str {
        "lengths.csv"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        w.write_record(["scenario", "length", "count"])?;
        for p in &run.points {
            for (v, n) in p.acc.length.iter() {
                w.write_record([p.label.as_str(), &v.to_string(), &n.to_string()])?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

pub struct Distributions;

impl Export for Distributions {
    fn file_name(&self) -> &'static str {
        "distributions.csv"
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        w.write_record(["scenario", "metric", "value", "count"])?;
        for p in &run.points {
            for (name, h) in p.layout.distributions.iter().zip(&p.acc.distributions) {
                for (v, n) in h.iter() {
                    w.write_record([p.label.as_str(), name, &v.to_string(), &n.to_string()])?;
                }
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// `cards.csv`: one row per card of each point that declares a per-card table (`CardTable`):
/// each counted column's total, then each rate (a share of its denominator column, which is
/// random) with its ratio-estimator interval over deal groups (empty when its denominator is 0).
pub struct Cards;

impl Export for Cards {
    fn file_name(&self) -> &'static str {
        "cards.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        run.points.iter().any(|p| p.layout.cards.is_some())
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        // The union of the columns and rates over the points, in order of first appearance.
        let mut columns: Vec<&str> = Vec::new();
        let mut rates: Vec<&str> = Vec::new();
        let mut paired: Vec<&str> = Vec::new();
        for t in run.points.iter().filter_map(|p| p.layout.cards.as_ref()) {
            union(&mut columns, t.columns.iter().map(String::as_str));
            union(&mut rates, t.rates.iter().map(|(r, _, _)| r.as_str()));
            union(&mut paired, t.paired.iter().map(|m| m.name.as_str()));
        }
        let mut header: Vec<String> = vec!["scenario".into(), "card".into()];
        header.extend(columns.iter().map(|c| c.to_string()));
        for r in &rates {
            header.extend([r.to_string(), format!("{r}_ci95_low"), format!("{r}_ci95_high")]);
        }
        header.extend(paired.iter().flat_map(|m| paired_means::headers(m)));
        w.write_record(&header)?;
        for p in &run.points {
            let Some(t) = &p.layout.cards else { continue };
            let plan = p.acc.plan(&p.layout);
            for (k, key) in t.keys.iter().enumerate() {
                let total = |c: usize| p.acc.counters[t.first as usize + k * t.columns.len() + c].total;
                let mut row: Vec<String> = vec![p.label.clone(), key.clone()];
                for col in &columns {
                    row.push(
                        t.columns
                            .iter()
                            .position(|c| c == col)
                            .map(|c| total(c).to_string())
                            .unwrap_or_default(),
                    );
                }
                for r in &rates {
                    match t.rates.iter().position(|(n, _, _)| n == r) {
                        Some(i) if total(t.rates[i].2) > 0 => {
                            let ci = p.acc.interval(&plan, &Key::CardRate(k, i));
                            row.extend([real(ci.estimate), real(ci.low), real(ci.high)]);
                        }
                        _ => row.extend([String::new(), String::new(), String::new()]),
                    }
                }
                row.extend(paired_cells(&paired, &t.paired, |m| {
                    paired_means::of_card(&p.acc, &plan, t, k, m)
                }));
                w.write_record(&row)?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// One row's cells of the paired means `names` (the union over the points): each mean of `means`
/// as `of` reads it, empty cells for a name the row's table does not have.
fn paired_cells(
    names: &[&str],
    means: &[PairedMean],
    of: impl Fn(&PairedMean) -> paired_means::Estimate,
) -> Vec<String> {
    let mut cells = Vec::new();
    for name in names {
        match means.iter().find(|m| m.name == *name) {
            Some(m) => cells.extend(paired_means::cells(&of(m))),
            None => cells.extend(std::array::from_fn::<String, 4, _>(|_| String::new())),
        }
    }
    cells
}

/// Adds the names of `more` not in `names` yet, in order.
fn union<'a>(names: &mut Vec<&'a str>, more: impl Iterator<Item = &'a str>) {
    for n in more {
        if !names.contains(&n) {
            names.push(n);
        }
    }
}

/// `card_pairs.csv`: one row per pair of cards of each point that declares a pair table
/// (`PairTable`): the two cards, each counted column's total, then each paired mean with its
/// interval and the games a ±1 point interval takes (empty when undefined).
pub struct CardPairs;

impl Export for CardPairs {
    fn file_name(&self) -> &'static str {
        "card_pairs.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        run.points.iter().any(|p| p.layout.cards.as_ref().is_some_and(|t| t.pairs.is_some()))
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        let tables = || run.points.iter().filter_map(|p| p.layout.cards.as_ref()?.pairs.as_deref());
        let (mut columns, mut paired): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        for t in tables() {
            union(&mut columns, t.columns.iter().map(String::as_str));
            union(&mut paired, t.paired.iter().map(|m| m.name.as_str()));
        }
        let mut header: Vec<String> = vec!["scenario".into(), "card_a".into(), "card_b".into()];
        header.extend(columns.iter().map(|c| c.to_string()));
        header.extend(paired.iter().flat_map(|m| paired_means::headers(m)));
        w.write_record(&header)?;
        for p in &run.points {
            let Some(cards) = &p.layout.cards else { continue };
            let Some(t) = cards.pairs.as_deref() else { continue };
            let plan = p.acc.plan(&p.layout);
            for (k, &(a, b)) in t.pairs.iter().enumerate() {
                let total = |c: usize| p.acc.counters[t.first as usize + k * t.columns.len() + c].total;
                let mut row: Vec<String> =
                    vec![p.label.clone(), cards.keys[a as usize].clone(), cards.keys[b as usize].clone()];
                for col in &columns {
                    let at = t.columns.iter().position(|c| c == col);
                    row.push(at.map(|c| total(c).to_string()).unwrap_or_default());
                }
                row.extend(paired_cells(&paired, &t.paired, |m| {
                    paired_means::of_pair(&p.acc, &plan, t, k, m)
                }));
                w.write_record(&row)?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// `standings.csv`: one row per entrant of each point that plays events (`EntrantTable`): its games
/// won, drawn and lost over all events with the win rate, its events finished first alone and
/// shared with their rates (Wilson over events), and its Bradley-Terry rating on the Elo scale.
/// One observation is one event (one dealt tournament), never one game: the win rate's interval is
/// the ratio estimator over events (`ratings::win_rate_by_event`), the rating's the sandwich over
/// events (`ratings::bradley_terry_by_event`). Results recorded before events kept their points
/// (`EntrantTable::by_event` false) keep the rating's interval by game.
pub struct Standings;

impl Export for Standings {
    fn file_name(&self) -> &'static str {
        "standings.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        run.points.iter().any(|p| p.layout.entrants.is_some())
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        use crate::record::EntrantCounters;
        let mut w = writer(out);
        let varying = varying_columns(run);
        let mut header: Vec<String> = vec!["scenario".into()];
        header.extend(varying.iter().cloned());
        // Where the card set names its designers, entrant i is the i-th designer it names.
        let designer = |p: &PointResult, i: usize| {
            p.layout.cards.as_ref().and_then(|t| t.makers.as_ref()).and_then(|m| m.names.get(i).cloned())
        };
        let designers = run.points.iter().any(|p| designer(p, 0).is_some());
        header.push("entrant".into());
        if designers {
            header.push("designer".into());
        }
        header.extend(
            [
                "games",
                "won",
                "drawn",
                "lost",
                "win_rate",
                "win_rate_ci95_low",
                "win_rate_ci95_high",
                "events",
                "first_alone",
                "first_alone_rate",
                "first_alone_rate_ci95_low",
                "first_alone_rate_ci95_high",
                "first_shared",
                "first_any_rate",
                "first_any_rate_ci95_low",
                "first_any_rate_ci95_high",
                "rating_elo",
                "rating_elo_ci95_low",
                "rating_elo_ci95_high",
            ]
            .map(String::from),
        );
        w.write_record(&header)?;
        for p in &run.points {
            let Some(t) = &p.layout.entrants else { continue };
            let n = t.names.len();
            let c = EntrantCounters { first: t.first, n: n as u32 };
            let total = |k: crate::record::Counter| p.acc.counters[k.0 as usize].total as u64;
            let mut wins = vec![0u64; n * n];
            let mut draws = vec![0u64; n * n];
            for i in 0..n {
                for j in (0..n).filter(|&j| j != i) {
                    wins[i * n + j] = total(c.beat(i, j));
                    draws[i * n + j] = total(c.drew(i, j));
                }
            }
            let ratings = if t.by_event {
                // One event is one observation: its points and their products.
                let mut products = vec![0u128; n * n];
                for i in 0..n {
                    for k in 0..n {
                        products[i * n + k] = if i == k {
                            p.acc.counters[c.points(i).0 as usize].sum_sq
                        } else {
                            total(c.points_product(i, k)) as u128
                        };
                    }
                }
                let by = crate::stats::ratings::ByEvent { events: p.acc.games, products: &products };
                crate::stats::ratings::bradley_terry_by_event(n, &wins, &draws, &by)
            } else {
                crate::stats::ratings::bradley_terry(n, &wins, &draws)
            };
            let events = p.acc.games;
            for (i, name) in t.names.iter().enumerate() {
                let won: u64 = (0..n).map(|j| wins[i * n + j]).sum();
                let lost: u64 = (0..n).map(|j| wins[j * n + i]).sum();
                let drawn: u64 = (0..n).map(|j| draws[i * n + j]).sum();
                let games = won + lost + drawn;
                let (alone, shared) = (total(c.alone(i)), total(c.shared(i)));
                let mut row = vec![p.label.clone()];
                row.extend(varying.iter().map(|c| setting_value(p, c)));
                row.push(name.clone());
                if designers {
                    row.push(designer(p, i).unwrap_or_default());
                }
                row.extend([games, won, drawn, lost].map(|x| x.to_string()));
                // Games won over games played, one event one observation: an entrant plays the
                // same games in every event (the round robin), so each event's denominator is
                // `games / events`.
                let per_event = &p.acc.counters[c.won(i).0 as usize];
                if games > 0 && events > 1 && games.is_multiple_of(events) {
                    let won_total = per_event.total as u64;
                    let ci = crate::stats::ratings::win_rate_by_event(
                        events,
                        games / events,
                        won_total,
                        per_event.sum_sq,
                    );
                    row.extend([ci.estimate, ci.low, ci.high].map(real));
                } else {
                    row.extend([String::new(), String::new(), String::new()]);
                }
                row.extend([events.to_string(), alone.to_string()]);
                row.extend(rate_cells(alone, events));
                row.push(shared.to_string());
                row.extend(rate_cells(alone + shared, events));
                let r = ratings[i];
                row.push(real(r.elo));
                match r.half_width {
                    Some(h) => row.extend([real(r.elo - h), real(r.elo + h)]),
                    None => row.extend([String::new(), String::new()]),
                }
                w.write_record(&row)?;
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// A rate and its Wilson interval as three cells, empty when `n` is 0.
fn rate_cells(k: u64, n: u64) -> [String; 3] {
    if n == 0 {
        return [String::new(), String::new(), String::new()];
    }
    let ci = wilson(k, n);
    let (low, high) = rate_bounds(&ci, n);
    [real(ci.estimate), real(low), real(high)]
}

/// `designers.csv`: for each point whose per-card table names its cards' makers, the feedback of
/// `makers`: a `field` row (every card; its rates pooled, the verdicts' reference, and the own
/// cards a player was expected to receive and received on average), one `designer` row per maker
/// and one `design` row per card: how many cards never reached each stage, each counted column,
/// each rate with its 95% interval, each paired mean (a causal impact, when measured) with its 95%
/// interval, and the verdict measure's Bonferroni interval and verdict (`makers::Feedback::measure`
/// names the measure).
pub struct Designers;

impl Export for Designers {
    fn file_name(&self) -> &'static str {
        "designers.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        run.points.iter().any(|p| p.layout.cards.as_ref().is_some_and(|t| t.makers.is_some()))
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = writer(out);
        let feedbacks: Vec<(&PointResult, super::makers::Feedback)> =
            run.points.iter().filter_map(|p| super::makers::feedback(p).map(|f| (p, f))).collect();
        let mut columns: Vec<&str> = Vec::new();
        let mut rates: Vec<&str> = Vec::new();
        let mut means: Vec<&str> = Vec::new();
        for (_, f) in &feedbacks {
            union(&mut columns, f.table.columns.iter().map(String::as_str));
            union(&mut rates, f.table.rates.iter().map(|(r, _, _)| r.as_str()));
            union(&mut means, f.table.paired.iter().map(|m| m.name.as_str()));
        }
        let varying = varying_columns(run);
        let mut header: Vec<String> = vec!["scenario".into()];
        header.extend(varying.iter().cloned());
        header.extend(["kind", "designer", "design", "rarity", "value", "designs"].map(String::from));
        header.extend(["never_held", "never_kept", "never_played", "played_never_won"].map(String::from));
        let causal = feedbacks.iter().any(|(_, f)| f.causal);
        if causal {
            header.push("never_changed_result".into());
        }
        header.extend(columns.iter().map(|c| c.to_string()));
        for r in rates.iter().chain(&means) {
            header.extend([r.to_string(), format!("{r}_ci95_low"), format!("{r}_ci95_high")]);
        }
        header.extend(
            [
                "verdict_measure",
                "verdict_low",
                "verdict_high",
                "verdict_reference",
                "verdict",
                "own_cards_expected",
                "own_cards_observed",
            ]
            .map(String::from),
        );
        w.write_record(&header)?;
        for (p, f) in &feedbacks {
            for l in &f.lines {
                let mut row: Vec<String> = vec![p.label.clone()];
                row.extend(varying.iter().map(|c| setting_value(p, c)));
                row.extend([l.kind.into(), l.maker.clone(), l.card.clone()]);
                // A design row names the rarity and printed value its verdict is judged against.
                let class = p.layout.cards.as_ref().and_then(|t| {
                    let k = t.keys.iter().position(|key| *key == l.card).filter(|_| l.kind == "design")?;
                    t.makers.as_ref()?.class.get(k).cloned()
                });
                match class {
                    Some((rarity, value)) => row.extend([rarity, value.to_string()]),
                    None => row.extend([String::new(), String::new()]),
                }
                row.push(l.cards.to_string());
                row.extend(l.never.iter().map(|n| n.to_string()));
                if causal {
                    row.push(if f.causal { l.never_changed.to_string() } else { String::new() });
                }
                for col in &columns {
                    let c = f.table.columns.iter().position(|c| c == col);
                    row.push(c.map(|c| l.totals[c].to_string()).unwrap_or_default());
                }
                for r in &rates {
                    match f.table.rates.iter().position(|(n, _, _)| n == r) {
                        Some(i) => row.extend([
                            real(l.rates[i].estimate),
                            real(l.rates[i].low),
                            real(l.rates[i].high),
                        ]),
                        None => row.extend([String::new(), String::new(), String::new()]),
                    }
                }
                for m in &means {
                    match f.table.paired.iter().position(|x| x.name == *m) {
                        Some(i) => {
                            let e = l.means[i].interval;
                            row.extend([real(e.estimate), real(e.low), real(e.high)]);
                        }
                        None => row.extend([String::new(), String::new(), String::new()]),
                    }
                }
                let (low, high) = l.verdict_interval.unwrap_or((f64::NAN, f64::NAN));
                row.extend([f.measure.clone(), real(low), real(high), real(l.reference), l.verdict.into()]);
                let field = l.kind == "field";
                row.push(if field { real(f.own_expected) } else { String::new() });
                row.push(if field { f.own_observed.map(real).unwrap_or_default() } else { String::new() });
                w.write_record(&row)?;
            }
        }
        w.flush()?;
        Ok(())
    }
}
