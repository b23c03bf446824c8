//! The answer of a run whose points are tournaments (`event = tournament`): what happens in an
//! event, said as events, not as a list of seats. A few sentences (first place alone and shared
//! under the reference point, the winner's record, how alike the entrants' chances are, the own
//! cards a player is dealt, how closely the final places follow the pools' strength), what each
//! other point changes against the reference (paired on the same deals where the two points deal
//! alike), then one grid: one row per point, one column per event measure.
//!
//! Entrants that are alike by design (a seat each, the same policy) are summarised by the lowest
//! and highest chance of first place and by how many of them lie outside 1/n with 95% confidence;
//! each one's record is in `standings.csv`.

use super::answer::PivotColumn;
use super::compare::Comparison;
use super::format::{RateScale, grouped, rate_cells};
use super::labels::Sweep;
use super::{PointResult, RunResult};
use crate::record::OutcomeKind;
use crate::stats::{Interval, mean_interval, wilson};

/// The answer: sentences, then the grid (`sweep` names its rows).
pub struct EventAnswer {
    pub sentences: Vec<String>,
    pub sweep: Sweep,
    pub columns: Vec<PivotColumn>,
}

/// Whether every point of the run plays events.
pub fn applies(run: &RunResult) -> bool {
    !run.points.is_empty() && run.points.iter().all(|p| p.layout.entrants.is_some())
}

/// The comparison rows to show a reader: in a run of events, every row but the events' length in
/// slots or turns (a tournament's games are fixed by its entrants; `comparisons.csv` keeps it).
pub fn shown(run: &RunResult, rows: &[Comparison]) -> Vec<Comparison> {
    let events = applies(run);
    rows.iter().filter(|c| !(events && c.metric == "length_mean")).cloned().collect()
}

/// The mean of distribution `name` at `p` with its normal interval over its observations.
pub(crate) fn dist_mean(p: &PointResult, name: &str) -> Option<Interval> {
    let d = &p.acc.distributions[p.layout.distribution(name)?.0 as usize];
    (d.total() > 0).then(|| mean_interval(d.sum(), d.sum_sq(), d.total()))
}

/// Games each entrant plays in an event.
fn games_each(p: &PointResult) -> i64 {
    p.layout.entrants.as_ref().map_or(0, |t| t.names.len() as i64 - 1)
}

/// The winner's most frequent record and its share of events (`8-0`, 0.74).
fn top_record(p: &PointResult) -> Option<(String, f64)> {
    let won = &p.acc.distributions[p.layout.distribution("winner_games_won")?.0 as usize];
    let lost = &p.acc.distributions[p.layout.distribution("winner_games_lost")?.0 as usize];
    let (w, c) = won.iter().max_by_key(|&(w, c)| (c, std::cmp::Reverse(w)))?;
    // Without draws a winner's games won and lost add up to the games each entrant plays.
    let l = if lost.total() > 0 && lost.iter().count() > 0 { games_each(p) - w } else { 0 };
    Some((format!("{w}-{l}"), c as f64 / won.total().max(1) as f64))
}

/// Each entrant's chance of first place (alone or shared), with its Wilson interval.
fn first_chances(p: &PointResult) -> Vec<Interval> {
    let Some(t) = &p.layout.entrants else { return Vec::new() };
    let c = |name: &str, what: &str| {
        p.layout
            .counter(&format!("{name} first {what}"))
            .map_or(0, |c| p.acc.counters[c.0 as usize].total as u64)
    };
    t.names.iter().map(|n| wilson(c(n, "alone") + c(n, "shared"), p.acc.games)).collect()
}

/// A share of the tournaments in words: `every one (at least 98.8%)`, `none (at most 1.2%)`, or
/// `99.3% [97.6, 99.8]`.
fn share_words(i: &Interval, events: u64) -> String {
    let units = if i.units > 0 { i.units } else { events };
    match rate_cells(i.estimate, i.low, i.high, units, RateScale::Percent) {
        (e, r) if e == "all" => format!("every one ({r}%)"),
        (e, r) if e == "none" => format!("none ({r})"),
        (e, r) => format!("{e}% {r}"),
    }
}

fn signed(x: f64, decimals: usize) -> String {
    format!("{x:+.decimals$}")
}

fn mean_cells(i: Option<Interval>, decimals: usize) -> (String, String) {
    match i.filter(|i| i.estimate.is_finite()) {
        Some(i) if i.low.is_finite() => {
            (format!("{:.decimals$}", i.estimate), format!("[{:.decimals$}, {:.decimals$}]", i.low, i.high))
        }
        Some(i) => (format!("{:.decimals$}", i.estimate), String::new()),
        None => ("-".into(), String::new()),
    }
}

/// The event measures a comparison row may carry, with their words and how they are written.
const COMPARED: &[(&str, &str)] = &[
    ("win_rate", "first place alone"),
    ("shared_rate", "first place shared"),
    ("winner_games_won_mean_per_game", "the winner's games won"),
];

/// A difference with its interval: rates in points of percent, means as they are.
fn difference(c: &Comparison) -> String {
    let i = c.best();
    if c.is_rate {
        format!(
            "{} points [{}, {}]",
            signed(100.0 * c.difference, 1),
            signed(100.0 * i.low, 1),
            signed(100.0 * i.high, 1)
        )
    } else {
        format!("{} [{}, {}]", signed(c.difference, 2), signed(i.low, 2), signed(i.high, 2))
    }
}

/// Whether a comparison's 95% interval leaves out no difference.
fn detected(c: &Comparison) -> bool {
    let i = c.best();
    i.low > 0.0 || i.high < 0.0
}

/// Point `i`'s settings in the game's words: those that vary, or with `from` only those that
/// differ from point `from` (`pools dealt by designer sheet, four cards to start, the draw first`).
fn point_words(run: &RunResult, sweep: &Sweep, i: usize, from: Option<usize>) -> String {
    let game = run.points[i].game;
    let words: Vec<String> = sweep
        .keys
        .iter()
        .enumerate()
        .filter(|&(k, _)| from.is_none_or(|f| sweep.values[f][k] != sweep.values[i][k]))
        .filter_map(|(k, key)| sweep.values[i][k].as_ref().map(|v| super::pivot::setting_words(game, key, v)))
        .collect();
    if words.is_empty() { sweep.short(i) } else { words.join(", ") }
}

/// What each other point changes against the reference `b`: one sentence per point that changes
/// something with 95% confidence (only what changed, paired on the same deals where the two points
/// deal alike), then one sentence for the points that change nothing detectable, with the widest
/// of their intervals as the bound.
fn changes(
    run: &RunResult,
    sweep: &Sweep,
    labels: &[String],
    b: usize,
    comparisons: &[Comparison],
) -> Vec<String> {
    let mut out = Vec::new();
    let mut quiet: Vec<String> = Vec::new();
    let (mut rate_bound, mut mean_bound) = (0.0_f64, 0.0_f64);
    let mut quiet_pairing = (false, false);
    for i in (0..labels.len()).filter(|&i| i != b) {
        let rows: Vec<(&str, &Comparison)> = COMPARED
            .iter()
            .filter_map(|(metric, words)| {
                comparisons
                    .iter()
                    .find(|c| c.scenario == labels[i] && c.metric == *metric)
                    .map(|c| (*words, c))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let what = point_words(run, sweep, i, Some(b));
        let how = if rows[0].1.paired.is_some() { "paired on the same deals" } else { "other deals" };
        let (moved, still): (Vec<_>, Vec<_>) = rows.iter().partition(|(_, c)| detected(c));
        if moved.is_empty() {
            for (_, c) in &rows {
                let i = c.best();
                let bound = i.low.abs().max(i.high.abs());
                if c.is_rate {
                    rate_bound = rate_bound.max(100.0 * bound)
                } else {
                    mean_bound = mean_bound.max(bound)
                }
            }
            quiet_pairing =
                if rows[0].1.paired.is_some() { (true, quiet_pairing.1) } else { (quiet_pairing.0, true) };
            quiet.push(what);
            continue;
        }
        let moved: Vec<String> = moved.iter().map(|(w, c)| format!("{w} {}", difference(c))).collect();
        let still: Vec<&str> = still.iter().map(|(w, _)| *w).collect();
        let rest = if still.is_empty() {
            String::new()
        } else {
            format!("; no change detected in {}", or_list(&still))
        };
        out.push(format!("{} ({how}): {}{rest}.", capitalised(&what), moved.join("; ")));
    }
    if !quiet.is_empty() {
        let how = match quiet_pairing {
            (true, false) => "paired on the same deals, ",
            (false, true) => "on other deals, ",
            _ => "",
        };
        let bound = format!("{how}every interval within ±{rate_bound:.1} points and ±{mean_bound:.2} games");
        let measures = "first place alone or shared or the winner's games won";
        if quiet.len() + 1 == labels.len() {
            let game = run.points[b].game;
            let named = super::pivot::named_keys(game, sweep);
            let keys: Vec<&str> = named.keys.iter().map(String::as_str).collect();
            out.push(format!(
                "No other {} changes {measures} detectably ({} points; {bound}).",
                or_list(&keys),
                quiet.len()
            ));
        } else {
            out.push(format!(
                "{}: no change detected in {measures} ({bound}).",
                capitalised(&quiet.join("; "))
            ));
        }
    }
    out
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().collect::<String>() + c.as_str())
}

/// The answer, or `None` when the run's points are not all events.
pub fn answer(run: &RunResult, comparisons: &[Comparison]) -> Option<EventAnswer> {
    if !applies(run) {
        return None;
    }
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let sweep = Sweep::of(&labels);
    let base_label = comparisons.first().map(|c| c.baseline.as_str());
    let b = base_label.and_then(|l| labels.iter().position(|x| x == l)).unwrap_or(0);
    let p = &run.points[b];
    let n = p.layout.entrants.as_ref().map_or(0, |t| t.names.len());
    let events = p.acc.games;
    let mut sentences = Vec::new();

    let at = if sweep.keys.is_empty() {
        String::new()
    } else {
        format!(" ({})", point_words(run, &sweep, b, None))
    };
    let reference =
        if base_label.is_some() { format!("The reference{at}") } else { format!("The first point{at}") };
    let games = p.layout.counter("games").map(|c| p.acc.counters[c.0 as usize].total as u64 / events.max(1));
    let each = games.map_or(String::new(), |g| format!(" and {g} games each"));
    let share = |kind| p.kind_interval(kind).map_or("-".into(), |i| share_words(&i, events));
    sentences.push(format!(
        "{reference}, {} tournaments of {n} players{each}: one player finishes first alone in {}; first place is shared in {}.",
        grouped(events as i128),
        share(OutcomeKind::Win),
        share(OutcomeKind::Shared)
    ));

    if let (Some((record, share)), Some(mean)) = (top_record(p), dist_mean(p, "winner_games_won")) {
        sentences.push(format!(
            "The winner most often goes {record} ({:.0}% of tournaments) and wins {:.2} [{:.2}, {:.2}] of its {} games on average.",
            100.0 * share,
            mean.estimate,
            mean.low,
            mean.high,
            games_each(p)
        ));
    }

    let chances = first_chances(p);
    if !chances.is_empty() {
        let even = 1.0 / n as f64;
        let lo = chances.iter().map(|i| i.estimate).fold(f64::INFINITY, f64::min);
        let hi = chances.iter().map(|i| i.estimate).fold(f64::NEG_INFINITY, f64::max);
        let outside = chances.iter().filter(|i| i.low > even || i.high < even).count();
        let apart = match outside {
            0 => "every player's 95% interval holds that".to_string(),
            1 => format!("1 of the {n} lies apart from it with 95% confidence"),
            k => format!("{k} of the {n} lie apart from it with 95% confidence each"),
        };
        // A share that never happened reads "none", never 0.0%.
        let pct = |x: f64| if x == 0.0 { "none".to_string() } else { format!("{:.1}%", 100.0 * x) };
        sentences.push(format!(
            "The {n} players finish first (alone or shared), the least often in {}, the most often in {} of tournaments, against {:.1}% each for equal chances: {apart} (standings.csv has each player).",
            pct(lo),
            pct(hi),
            100.0 * even
        ));
    }

    let mut extra = Vec::new();
    if let Some(own) = dist_mean(p, "own_cards") {
        extra.push(format!("a player is dealt {:.2} of its own designs on average", own.estimate));
    }
    if let Some(rho) = dist_mean(p, "strength_place_correlation_permille") {
        extra.push(format!(
            "the final places follow the pools' strength with Spearman's correlation {} [{}, {}] (+1: the strongest pool always wins)",
            signed(rho.estimate / 1000.0, 2),
            signed(rho.low / 1000.0, 2),
            signed(rho.high / 1000.0, 2)
        ));
    }
    if !extra.is_empty() {
        let mut s = extra.join("; ");
        s[..1].make_ascii_uppercase();
        sentences.push(format!("{s}."));
    }

    sentences.extend(changes(run, &sweep, &labels, b, comparisons));

    let column = |header: &str, cells: Vec<(String, String)>| PivotColumn { header: header.into(), cells };
    let rate_column = |kind: OutcomeKind| {
        run.points
            .iter()
            .map(|p| match p.kind_interval(kind) {
                Some(i) => rate_cells(
                    i.estimate,
                    i.low,
                    i.high,
                    if i.units > 0 { i.units } else { p.acc.games },
                    RateScale::Percent,
                ),
                None => ("-".into(), String::new()),
            })
            .collect()
    };
    let mut columns = vec![
        column("first alone %", rate_column(OutcomeKind::Win)),
        column("shared first %", rate_column(OutcomeKind::Shared)),
    ];
    columns.push(column(
        "winner's wins",
        run.points.iter().map(|p| mean_cells(dist_mean(p, "winner_games_won"), 2)).collect(),
    ));
    columns.push(column(
        "usual record",
        run.points
            .iter()
            .map(|p| {
                top_record(p).map_or(("-".into(), String::new()), |(r, s)| {
                    (format!("{r} {:.0}%", 100.0 * s), String::new())
                })
            })
            .collect(),
    ));
    if run.points.iter().any(|p| p.layout.distribution("strength_place_correlation_permille").is_some()) {
        let rho = |p: &PointResult| {
            dist_mean(p, "strength_place_correlation_permille").map(|i| Interval {
                estimate: i.estimate / 1000.0,
                low: i.low / 1000.0,
                high: i.high / 1000.0,
                ..i
            })
        };
        columns.push(column("strength-place", run.points.iter().map(|p| mean_cells(rho(p), 2)).collect()));
    }
    Some(EventAnswer { sentences, sweep, columns })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(low: f64, high: f64, paired: bool) -> Comparison {
        let i = Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
            method: crate::stats::interval::Method::Normal,
            units: 100,
        };
        Comparison {
            scenario: "b".into(),
            baseline: "a".into(),
            metric: "win_rate".into(),
            is_rate: true,
            games: 100,
            baseline_value: 0.5,
            value: 0.5,
            difference: i.estimate,
            paired: paired.then_some(i),
            unpaired: Interval { low: low - 1.0, high: high + 1.0, ..i },
        }
    }

    #[test]
    fn a_change_is_detected_only_when_the_read_interval_leaves_out_zero() {
        assert!(detected(&comparison(0.01, 0.03, true)));
        assert!(detected(&comparison(-0.03, -0.01, true)));
        assert!(!detected(&comparison(-0.01, 0.03, true)));
        // Paired where the deals are the same: the wider unpaired interval is not the one read.
        assert!(
            detected(&comparison(0.01, 0.03, true))
                && !detected(&Comparison { paired: None, ..comparison(0.01, 0.03, true) })
        );
        assert_eq!(difference(&comparison(0.01, 0.03, true)), "+2.0 points [+1.0, +3.0]");
    }

    #[test]
    fn lists_read_as_a_sentence() {
        assert_eq!(or_list(&[]), "");
        assert_eq!(or_list(&["dealing"]), "dealing");
        assert_eq!(or_list(&["dealing", "turn order"]), "dealing or turn order");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
        assert_eq!(capitalised("four cards"), "Four cards");
    }
}
