//! The answer to a question about metrics (how often does something happen, what is fairest,
//! which setting moves the result): sentences in the game's own words, then one grid per metric
//! whose rows and columns are the settings the sweep varies (one cell per point, the rules as
//! written marked), for the terminal and the report page alike.
//!
//! The sentences, per metric: its value with the rules as written (the point whose every varying
//! setting is the game's default), its range over the sweep (a rate that never happened anywhere
//! says so with its bound, never "lowest at" one of tied zeros), and, when a paired pass measured
//! them (`effects`), the setting that decides it and every setting's effect with its paired
//! interval. When the metrics are the causes of one thing and the rest (the Final Battle's three
//! causes and Scorched Earth), and at every point each game ends in exactly one of them, the
//! answer says so and gives the split.

use super::answer::{self, Answer};
use super::effects::{self, Change, Effect, Grid};
use super::format::{self, RateScale};
use super::{PointResult, RunResult};
use crate::stats::Interval;

/// What marks the rules as written in a grid.
pub const MARK: &str = "*";

/// A grid cell: an estimate and its interval (or bound), when the point was played.
pub type Cell = Option<(String, String)>;

/// One metric's grid: rows and columns are the settings that vary.
#[derive(Clone, Debug)]
pub struct Pivot {
    /// The metric in words and its unit (`the first player's wins, % of decided games`).
    pub title: String,
    /// The settings the rows are told apart by, in words.
    pub row_keys: Vec<String>,
    /// The setting of the columns in words, and its levels (empty key: one column of values).
    pub col_key: String,
    pub col_levels: Vec<String>,
    /// Per row, its values of `row_keys` and per column its cell (estimate, interval), if played.
    pub rows: Vec<(Vec<String>, Vec<Cell>)>,
    /// The cell of the rules as written (row, column).
    pub marked: Option<(usize, usize)>,
}

/// The header of a grid's column of `level`: `against search`, `highest` (a column per level of
/// no named setting), `estimate` (one column of values).
pub fn column_header(p: &Pivot, level: &str) -> String {
    match (p.col_key.is_empty(), level.is_empty()) {
        (true, true) => "estimate".into(),
        (true, false) => level.to_string(),
        _ => format!("{} {level}", p.col_key),
    }
}

/// A metric question's answer.
#[derive(Clone, Debug)]
pub struct MetricAnswer {
    pub sentences: Vec<String>,
    pub pivots: Vec<Pivot>,
    /// The plot made for this answer (`plots/<file>`), shown beside it in `report.html`.
    pub picture: Option<&'static str>,
    /// The grid the picture follows (an index into `pivots`).
    pub picture_after: usize,
}

/// The answer of a run in sentences and grids, whichever kind its question asks: metrics and
/// shares (`metric_answer`), who wins (`lineups`), what a card does (`card_answer`). A metric
/// question over line-ups of several policies also says who beats whom.
pub fn answer(run: &RunResult) -> Option<MetricAnswer> {
    if let Some(mut a) = metric_answer(run) {
        if let Some(h) = super::lineups::head_to_heads(run) {
            a.sentences.extend(h.sentences);
            if a.picture.is_none() && h.picture.is_some() {
                a.picture = h.picture;
                a.picture_after = a.pivots.len() + h.picture_after;
            }
            a.pivots.extend(h.pivots);
        }
        return Some(a);
    }
    super::lineups::answer(run).or_else(|| super::card_answer::answer(run))
}

/// `sweep` with its setting names in the game's words (`dealing`, `turn order`): the headers of
/// every table and picture of an answer.
pub fn named_keys(game: &str, sweep: &super::labels::Sweep) -> super::labels::Sweep {
    let mut named = sweep.clone();
    named.keys = named.keys.iter().map(|k| word(game, k)).collect();
    named
}

/// The game's words for a metric or setting name: its declared words for the name or for the
/// name without its suffix (`_rate`, `_share_of_games`, `_mean_per_game`, ...), else `answer::words`.
pub fn word(game: &str, name: &str) -> String {
    let def = crate::games::find(game);
    let name = name.trim();
    let mut tries = vec![name.to_string()];
    for suffix in ["_share_of_games", "_share", "_mean_per_game", "_rate", "_mean"] {
        if let Some(base) = name.strip_suffix(suffix) {
            tries.push(base.to_string());
        }
    }
    if let Some((base, _)) = name.split_once("_share_of_") {
        tries.push(format!("{base}_share"));
    }
    for t in &tries {
        if let Some(w) = def.and_then(|d| d.word(t)) {
            return w.to_string();
        }
    }
    match name {
        "length_mean" => "mean length".into(),
        _ => answer::words(name),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A setting's value in words: `first draw true`, `3 players`, or the phrase the game declares for
/// the pair (`deal=piles`: `pools dealt from the rarity piles`).
pub fn setting_words(game: &str, key: &str, value: &str) -> String {
    if let Some(phrase) = crate::games::find(game).and_then(|d| d.word(&format!("{key}={value}"))) {
        return phrase.to_string();
    }
    let w = word(game, key);
    if key == "players" || key == "decks" { format!("{value} {w}") } else { format!("{w} {value}") }
}

/// Point `i`'s values of the grid's keys in words (`first draw false, starting life 30`).
fn point_words(game: &str, grid: &Grid, i: usize, keys: &[usize]) -> String {
    keys.iter()
        .map(|&k| setting_words(game, &grid.keys[k], &grid.values[i][k]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The answer of a run whose question names metrics and shares only, every point answering each,
/// over a grid of settings; `None` otherwise (the answer's other forms then apply).
pub fn metric_answer(run: &RunResult) -> Option<MetricAnswer> {
    let q = run.manifest.question.as_deref()?;
    let metrics: Vec<&str> = q.split(',').map(str::trim).collect();
    if metrics.iter().any(|m| *m == answer::POLICY_WINS || *m == answer::CARD_IMPACT) {
        return None;
    }
    let all = answer::answers(run);
    if all.len() != metrics.len() * run.points.len() || run.points.is_empty() {
        return None;
    }
    let grid = Grid::of(&run.points)?;
    let game = run.points[0].game;
    if run.points.len() == 1 {
        return Some(MetricAnswer {
            sentences: one_point(run, &all, &metrics),
            pivots: Vec::new(),
            picture: None,
            picture_after: 0,
        });
    }
    if grid.keys.is_empty() {
        return None;
    }
    let effects = effects::effects(run);
    // Answers in point order per metric: all[p * metrics + m].
    let of =
        |m: usize| -> Vec<&Answer> { (0..run.points.len()).map(|p| &all[p * metrics.len() + m]).collect() };
    let reference = grid.reference();
    let mut sentences = Vec::new();
    if let Some(s) = causes(run, &metrics, &of, reference, &grid) {
        sentences.extend(s);
    }
    for (m, name) in metrics.iter().enumerate() {
        sentences.extend(metric_sentences(run, &grid, name, &of(m), reference, &effects));
    }
    let col = column_key(&grid, metrics.first().and_then(|m| effects::deciding(&effects, m)));
    let pivots: Vec<Pivot> = metrics
        .iter()
        .enumerate()
        .map(|(m, name)| pivot(game, &grid, col, name, &of(m), reference))
        .collect();
    // The answer's picture: what each setting changes (`plots/effects.svg`), after the last grid.
    let measured = metrics.iter().any(|m| effects.iter().any(|e| e.metric == *m));
    let picture = measured.then_some(super::plots::EFFECTS);
    let picture_after = pivots.len().saturating_sub(1);
    Some(MetricAnswer { sentences, pivots, picture, picture_after })
}

/// A run of one point: each metric's value, with the settings its label names in words.
fn one_point(run: &RunResult, answers: &[Answer], metrics: &[&str]) -> Vec<String> {
    let p = &run.points[0];
    let set: Vec<String> = super::labels::words(&p.label)
        .into_iter()
        .filter(|(k, _)| k != super::labels::GAME && k != super::labels::REPEAT)
        .map(|(k, v)| setting_words(p.game, &k, &v))
        .collect();
    let at = if set.is_empty() {
        " with the rules as written".to_string()
    } else {
        format!(" ({})", set.join(", "))
    };
    answers
        .iter()
        .zip(metrics)
        .map(|(a, m)| {
            let of = a.of.split(" (").next().unwrap_or(&a.of);
            let v = a.value();
            let of = if v.starts_with("none in") || v.starts_with("all ") {
                String::new()
            } else {
                format!(" {of}")
            };
            format!("{}{at}: {v}{of}.", capital(&word(p.game, m)))
        })
        .collect()
}

/// Whether a metric is a share (its values percentages) at the points that have it.
pub fn is_rate(points: &[PointResult], metric: &str) -> bool {
    points
        .iter()
        .find_map(|p| crate::stats::metric::ratio(metric, &p.layout))
        .is_some_and(|(y, m)| m.is_some() || y.is_rate())
}

/// The sentences of one metric.
fn metric_sentences(
    run: &RunResult,
    grid: &Grid,
    name: &str,
    answers: &[&Answer],
    reference: Option<usize>,
    effects: &[Effect],
) -> Vec<String> {
    let game = run.points[0].game;
    let label = word(game, name);
    let all_keys: Vec<usize> = (0..grid.keys.len()).collect();
    let mut out = Vec::new();
    let of_words = |a: &Answer| {
        let of = a.of.split(" (").next().unwrap_or(&a.of).to_string();
        if a.value().starts_with("none in") || a.value().starts_with("all ") {
            String::new()
        } else {
            format!(" {of}")
        }
    };
    // 1. The rules as written.
    if let Some(r) = reference {
        let a = answers[r];
        out.push(format!(
            "{} with the rules as written ({}): {}{}.",
            capital(&label),
            point_words(game, grid, r, &all_keys),
            a.value(),
            of_words(a)
        ));
    }
    // 2. Across the sweep.
    let n = answers.len();
    let by = |a: &&&Answer, b: &&&Answer| a.interval.estimate.total_cmp(&b.interval.estimate);
    let (Some(lo), Some(hi)) = (answers.iter().min_by(by), answers.iter().max_by(by)) else { return out };
    let at = |a: &Answer| answers.iter().position(|x| std::ptr::eq(*x, a)).unwrap_or(0);
    let rate = lo.rate;
    let mut range = if rate && hi.interval.estimate == 0.0 {
        let fewest = answers
            .iter()
            .map(|a| if a.interval.units > 0 { a.interval.units } else { a.trials })
            .min()
            .unwrap_or(0);
        format!(
            "{}: none at any of the {n} points ({} each; at most {} at each).",
            capital(&label),
            format::count(answers[0].trials, &answers[0].noun),
            format::at_most(fewest)
        )
    } else if lo.interval.estimate == hi.interval.estimate {
        format!("{}: {} at every one of the {n} points.", capital(&label), lo.value())
    } else {
        let zeros = answers.iter().filter(|a| a.rate && a.interval.estimate == 0.0).count();
        let low = if zeros > 1 {
            format!("none at {zeros} of the {n} points")
        } else {
            format!("{} ({})", lo.value(), point_words(game, grid, at(lo), &all_keys))
        };
        format!(
            "{} across the {n} points: from {low} to {} ({}).",
            capital(&label),
            hi.value(),
            point_words(game, grid, at(hi), &all_keys)
        )
    };
    // A rate too rare for the games played everywhere: how many games would measure it.
    let rare = rate && hi.interval.estimate < 0.01;
    if let Some(note) =
        answers.iter().filter(|_| rare).find_map(|a| format::precision_note(&a.interval, a.games))
    {
        range.pop();
        range.push_str(&format!("; {note}."));
    }
    out.push(range);
    // 3. What moves it.
    let mine: Vec<&Effect> = effects.iter().filter(|e| e.metric == name).collect();
    // Nothing to move where nothing happened.
    if mine.is_empty() || (rate && hi.interval.estimate == 0.0) {
        return out;
    }
    let unit =
        if name.starts_with("length") { run.points[0].layout.length_unit.clone() } else { String::new() };
    let ref_value = reference.map_or(lo.interval.estimate, |r| answers[r].interval.estimate);
    out.push(effect_sentence(game, &label, &mine, &unit, ref_value));
    out
}

/// `A decides it: ...; B: no effect detected (within ±h)`, the settings by the size of their
/// largest effect, at most two levels each, and the clear interactions as large as a quarter of
/// the deciding effect.
fn effect_sentence(game: &str, label: &str, effects: &[&Effect], unit: &str, reference: f64) -> String {
    let mains: Vec<&&Effect> = effects.iter().filter(|e| matches!(e.change, Change::Main { .. })).collect();
    let key_of = |e: &Effect| match &e.change {
        Change::Main { key, .. } => key.clone(),
        Change::Interaction { a, .. } => a.clone(),
    };
    let mut keys: Vec<String> = Vec::new();
    for e in &mains {
        if !keys.contains(&key_of(e)) {
            keys.push(key_of(e));
        }
    }
    let size_of = |k: &str| {
        mains
            .iter()
            .filter(|e| key_of(e) == k)
            .map(|e| if e.clear() { e.interval.estimate.abs() } else { 0.0 })
            .fold(0.0, f64::max)
    };
    keys.sort_by(|a, b| size_of(b).total_cmp(&size_of(a)));
    let say = |e: &Effect| {
        let Change::Main { key, from, to } = &e.change else { return String::new() };
        let what = format!("{} from {from} to {to}", word(game, key));
        if e.interval.low == 0.0 && e.interval.high == 0.0 {
            format!("{what}: no difference in any game")
        } else if e.clear() {
            format!("{what}: {}", effects::size(e, unit))
        } else if effects::tight(e, reference) {
            format!("{what}: no effect detected (within ±{})", effects::half(e, unit))
        } else {
            format!("{what}: not measured precisely enough ({})", effects::size(e, unit))
        }
    };
    let mut parts: Vec<String> = Vec::new();
    for k in &keys {
        let mut of_key: Vec<&&&Effect> = mains.iter().filter(|e| key_of(e) == *k).collect();
        of_key.sort_by(|a, b| b.interval.estimate.abs().total_cmp(&a.interval.estimate.abs()));
        let shown: Vec<String> = of_key.iter().take(2).map(|e| say(e)).collect();
        let more = of_key.len().saturating_sub(2);
        let mut s = shown.join(", ");
        if more > 0 {
            let levels = if more == 1 { "level" } else { "levels" };
            s.push_str(&format!(" (and {more} more {levels} in effects.csv)"));
        }
        parts.push(s);
    }
    let decides = keys.first().filter(|k| size_of(k) > 0.0);
    let top = decides.map_or(0.0, |k| size_of(k));
    let interactions: Vec<String> = effects
        .iter()
        .filter(|e| {
            matches!(e.change, Change::Interaction { .. })
                && e.clear()
                && e.interval.estimate.abs() >= 0.25 * top
        })
        .take(2)
        .map(|e| {
            let Change::Interaction { a, a_to, b, b_to, .. } = &e.change else { return String::new() };
            format!(
                "{} {a_to} with {} {b_to} together: {} beyond the sum of the two",
                word(game, a),
                word(game, b),
                effects::size(e, unit)
            )
        })
        .collect();
    let paired = "paired on common deals, averaged over the other settings";
    let mut s = match decides {
        // Said so that a plural setting (`players`, `agents`) reads as well as a singular one.
        Some(k) => {
            format!(
                "The setting that moves {label} most is {} ({paired}): {}",
                word(game, k),
                parts.join("; ")
            )
        }
        None => format!("No setting moves {label} measurably ({paired}): {}", parts.join("; ")),
    };
    if !interactions.is_empty() {
        s.push_str(&format!("; {}", interactions.join("; ")));
    }
    s.push('.');
    s
}

/// When the question's metrics are the causes of one thing (their words share what comes before
/// `, `) and the rest, and at every point each game ended in exactly one of them: a sentence that
/// says so, with the thing's share (all games less the rest) and the split of its causes with the
/// rules as written.
fn causes<'a>(
    run: &RunResult,
    metrics: &[&str],
    of: &dyn Fn(usize) -> Vec<&'a Answer>,
    reference: Option<usize>,
    grid: &Grid,
) -> Option<Vec<String>> {
    let game = run.points[0].game;
    let labels: Vec<String> = metrics.iter().map(|m| word(game, m)).collect();
    let prefix = |l: &str| l.split_once(", ").map(|(p, _)| p.to_string());
    let first = labels.iter().find_map(|l| prefix(l))?;
    let parts: Vec<usize> =
        (0..metrics.len()).filter(|&m| prefix(&labels[m]).as_deref() == Some(first.as_str())).collect();
    let rest: Vec<usize> = (0..metrics.len()).filter(|m| !parts.contains(m)).collect();
    if parts.len() < 2 {
        return None;
    }
    let answers: Vec<Vec<&Answer>> = (0..metrics.len()).map(of).collect();
    // Every answer a share of all games, and the counts adding up to the games at every point.
    let points = run.points.len();
    let count = |a: &Answer| (a.interval.estimate * a.trials as f64).round() as u64;
    let exhaustive = (0..points).all(|p| {
        answers.iter().all(|a| a[p].rate && a[p].of.starts_with("of all"))
            && answers.iter().map(|a| count(a[p])).sum::<u64>() == run.points[p].acc.games
    });
    if !exhaustive {
        return None;
    }
    let rest_words: Vec<String> =
        rest.iter().map(|&m| labels[m].split(" (").next().unwrap_or(&labels[m]).to_string()).collect();
    let rest_said = if rest_words.is_empty() { "nothing".to_string() } else { rest_words.join(" or ") };
    // The thing's share at a point: all games less the rest, its interval the rest's reversed.
    let share = |p: usize| -> Interval {
        let games = run.points[p].acc.games;
        let rest_count: u64 = rest.iter().map(|&m| count(answers[m][p])).sum();
        if rest.len() == 1 {
            let i = answers[rest[0]][p].interval;
            return Interval { estimate: 1.0 - i.estimate, low: 1.0 - i.high, high: 1.0 - i.low, ..i };
        }
        crate::stats::wilson(games - rest_count, games)
    };
    let mut out = Vec::new();
    let all_keys: Vec<usize> = (0..grid.keys.len()).collect();
    // `99.9970% [99.9912, 99.9990] of games`, `all 12 games (at least 73.5%)`.
    let said = |p: usize| {
        let v = format::rate(&share(p), run.points[p].acc.games, "game");
        if v.starts_with("all ") || v.starts_with("none ") { v } else { format!("{v} of games") }
    };
    let mut s = format!("{} ends every game that {rest_said} does not end", capital(&first));
    if let Some(r) = reference {
        s.push_str(&format!(
            ": {} with the rules as written ({})",
            said(r),
            point_words(game, grid, r, &all_keys)
        ));
    }
    let lowest = (0..points).min_by(|&a, &b| share(a).estimate.total_cmp(&share(b).estimate))?;
    if Some(lowest) != reference && share(lowest).estimate < 1.0 {
        s.push_str(&format!(
            "; the fewest {} ({})",
            said(lowest),
            point_words(game, grid, lowest, &all_keys)
        ));
    }
    s.push('.');
    out.push(s);
    if let Some(r) = reference {
        let total: u64 = parts.iter().map(|&m| count(answers[m][r])).sum();
        let split: Vec<String> = parts
            .iter()
            .map(|&m| {
                let why = labels[m].split_once(", ").map_or(labels[m].as_str(), |x| x.1);
                let c = count(answers[m][r]);
                if c == 0 {
                    format!("{why} none")
                } else {
                    format!("{why} {}", format::fixed(100.0 * c as f64 / total.max(1) as f64, 1) + "%")
                }
            })
            .collect();
        out.push(format!(
            "With the rules as written, of the games that reach {first}: {}.",
            split.join(", ")
        ));
    }
    Some(out)
}

/// The grid's column setting: the one that decides the first metric when it has at most four
/// levels, else the one with the fewest levels (the last of equals); `None` with one setting.
fn column_key(grid: &Grid, deciding: Option<&Effect>) -> Option<usize> {
    if grid.keys.len() < 2 {
        return None;
    }
    if let Some(Change::Main { key, .. }) = deciding.map(|e| &e.change)
        && let Some(k) = grid.keys.iter().position(|x| x == key)
        && grid.levels(k).len() <= 4
    {
        return Some(k);
    }
    (0..grid.keys.len()).rev().min_by_key(|&k| grid.levels(k).len())
}

/// One metric's grid.
fn pivot(
    game: &str,
    grid: &Grid,
    col: Option<usize>,
    name: &str,
    answers: &[&Answer],
    reference: Option<usize>,
) -> Pivot {
    let rows_keys: Vec<usize> = (0..grid.keys.len()).filter(|&k| Some(k) != col).collect();
    let levels = col.map_or(vec![String::new()], |c| grid.levels(c));
    let mut rows: Vec<Vec<String>> = Vec::new();
    for v in &grid.values {
        let r: Vec<String> = rows_keys.iter().map(|&k| v[k].clone()).collect();
        if !rows.contains(&r) {
            rows.push(r);
        }
    }
    let rate = answers.iter().all(|a| a.rate);
    let scale = answer::column_scale(answers.iter().map(|a| &a.interval));
    let cell = |a: &Answer| -> (String, String) {
        let i = &a.interval;
        if rate {
            let units = if i.units > 0 { i.units } else { a.trials };
            let (e, r) = format::rate_cells(i.estimate, i.low, i.high, units, scale);
            (e, r.replace("at most ", "≤"))
        } else {
            let d = if i.half_width() < 0.1 { 2 } else { 1 };
            (
                format::fixed(i.estimate, d),
                format!("[{}, {}]", format::fixed(i.low, d), format::fixed(i.high, d)),
            )
        }
    };
    let mut marked = None;
    let cells: Vec<(Vec<String>, Vec<Cell>)> = rows
        .iter()
        .enumerate()
        .map(|(ri, r)| {
            let cells = levels
                .iter()
                .enumerate()
                .map(|(ci, level)| {
                    let p = (0..grid.values.len()).find(|&p| {
                        rows_keys.iter().zip(r).all(|(&k, v)| grid.values[p][k] == *v)
                            && col.is_none_or(|c| grid.values[p][c] == *level)
                    })?;
                    let (mut e, range) = cell(answers[p]);
                    if Some(p) == reference {
                        marked = Some((ri, ci));
                        e.push_str(MARK);
                    }
                    Some((e, range))
                })
                .collect();
            (r.clone(), cells)
        })
        .collect();
    let unit = if rate {
        let of = answers[0].of.split(" (").next().unwrap_or("").trim_start_matches("of ").replace("all ", "");
        let of = of
            .split_whitespace()
            .filter(|w| w.parse::<f64>().is_err() && !w.contains(','))
            .collect::<Vec<_>>()
            .join(" ");
        match scale {
            RateScale::Percent => format!("% of {of}"),
            s => format!("{} {of}", s.header()),
        }
    } else if name.starts_with("length") {
        format!("mean {}", answers[0].of.split_whitespace().next().unwrap_or(""))
    } else {
        "mean per game".into()
    };
    Pivot {
        title: format!("{} ({unit})", capital(&word(game, name))),
        row_keys: rows_keys.iter().map(|&k| word(game, &grid.keys[k])).collect(),
        col_key: col.map_or(String::new(), |c| word(game, &grid.keys[c])),
        col_levels: levels,
        rows: cells,
        marked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_say_their_own_words() {
        assert_eq!(word("scourge", "scorched_rate"), "Scorched Earth (no winner)");
        assert_eq!(
            word("scourge", "final_battle_scarsands_share_of_games"),
            "the Final Battle, after the Scarsands"
        );
        assert_eq!(word("cardwars", "first_player_win_share"), "the first player's wins");
        assert_eq!(word("war", "cycle_rate"), "games that never end (a cycle)");
        assert_eq!(word("war", "war_down"), "face-down cards per war");
        assert_eq!(word("territories", "draw_rate"), "draw endings");
        assert_eq!(word("war", "length_mean"), "the mean length");
    }
}
