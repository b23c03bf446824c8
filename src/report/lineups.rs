//! The answer to "who wins, and by how much" (`question = "policy_wins"`): the run's points sorted
//! by what their line-ups can tell, each kind said once in the game's words over its own grid.
//!
//! - **Head to head** (two policies at a point): the row policy's share of the decided games
//!   against the column policy (draws are in no denominator, so a cell and its mirror add up to
//!   100), one grid row per policy and per setting that changes the table (`version`, `players`).
//!   The sentences rank the policies: who beats every other, then who beats whom, and the pairings
//!   with no winner detected (the interval holds one half). Where a setting of the table changes
//!   between otherwise equal head-to-heads, the largest changes of a pairing's share it brings.
//! - **Mixed tables** (three policies or more): each policy's games won per seat it holds (a
//!   policy in two seats of four is judged against 1 in 4, like a policy in one).
//! - **Mirrors** (one policy in every seat): what they can tell is the seat edge, the first
//!   seat's share of the decided games (the first player's, where the game draws who plays first);
//!   said as "no seat edge detected" or as the clearest edge, not seat by seat.
//!
//! Settings that only the agents read (a search budget, which changes together with the line-up)
//! are not a dimension of the grid: they are said once with the policy that uses them.
//! Intervals: each point's are over deal groups when seats rotate (`agents::decided_shares`); the
//! change a setting brings compares two points' shares with unpaired intervals (conservative: the
//! points play the same deals).

use super::agents::decided_shares;
use super::effects::Grid;
use super::format::{self, RateScale};
use super::pivot::{Cell, MetricAnswer, Pivot, setting_words, word};
use super::{PointResult, RunResult};
use crate::record::OutcomeKind;
use crate::stats::Interval;
use crate::stats::tracked::Key;

/// The settings key naming a point's line-up.
const POLICIES: &str = "policies";
/// The plot made for the head-to-head answer.
pub const PICTURE: &str = "head-to-head.svg";
/// Most changes a setting brings said in a sentence.
const CHANGES: usize = 3;
/// Draws below this share of games anywhere go unsaid.
const NOTABLE_DRAWS: f64 = 0.01;

/// One point's line-up as the answer reads it.
struct Table<'a> {
    p: &'a PointResult,
    /// Its values of the context keys (the settings that change the table, not the line-up).
    ctx: Vec<String>,
    /// The line-up's policies in order of appearance, each with its share of decided games.
    agents: Vec<(String, Interval)>,
    /// The first seat's share of decided games (the first player's where the game declares one),
    /// and who that is in words.
    first: Option<(String, Interval)>,
    seats: usize,
    decided: u64,
}

/// A pairing at one context: `a`'s share of the decided games against `b`.
#[derive(Clone, Debug)]
pub struct Pairing {
    pub ctx: Vec<String>,
    pub a: String,
    pub b: String,
    pub share: Interval,
    pub decided: u64,
}

impl Pairing {
    /// Whether `a` surely wins more than half of the decided games.
    fn a_wins(&self) -> bool {
        self.share.low > 0.5
    }
    fn b_wins(&self) -> bool {
        self.share.high < 0.5
    }
    /// The same pairing seen from `b`.
    fn flipped(&self) -> Pairing {
        let s = self.share;
        Pairing {
            ctx: self.ctx.clone(),
            a: self.b.clone(),
            b: self.a.clone(),
            share: Interval { estimate: 1.0 - s.estimate, low: 1.0 - s.high, high: 1.0 - s.low, ..s },
            decided: self.decided,
        }
    }
}

/// A policy's name in the singular (`agents` → `agent`, `policies` → `policy`).
fn singular(w: &str) -> String {
    if let Some(s) = w.strip_suffix("ies") {
        format!("{s}y")
    } else if let Some(s) = w.strip_suffix('s') {
        s.to_string()
    } else {
        w.to_string()
    }
}

/// A point's line-up as its settings name it (one name per seat).
fn lineup(p: &PointResult) -> Vec<String> {
    p.settings
        .values
        .iter()
        .find(|(k, _)| *k == POLICIES)
        .map(|(_, v)| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Decided games at a point: games some seat won.
fn decided(p: &PointResult) -> u64 {
    p.layout
        .outcomes
        .iter()
        .zip(&p.acc.outcomes)
        .filter(|(o, _)| o.kind == OutcomeKind::Win)
        .map(|(_, n)| n)
        .sum()
}

/// A share of decided games in a sentence: `60.2% [58.6, 61.9]`.
fn said(i: &Interval, decided: u64) -> String {
    format::rate(i, decided, "decided game")
}

/// A share as a grid cell in percent (`60.2`, `[58.6, 61.9]`).
fn cell(i: &Interval, trials: u64) -> (String, String) {
    let units = if i.units > 0 { i.units } else { trials };
    let (e, r) = format::rate_cells(i.estimate, i.low, i.high, units, RateScale::Percent);
    (e, r.replace("at most ", "≤").replace("at least ", "≥"))
}

/// The keys of `grid` that change the table: those that differ between two points of the same
/// line-up. The others (besides the line-up) follow the line-up: settings of its agents.
fn context_keys(grid: &Grid, points: &[PointResult]) -> Vec<usize> {
    let pk = grid.keys.iter().position(|k| k == POLICIES);
    (0..grid.keys.len())
        .filter(|&k| Some(k) != pk)
        .filter(|&k| {
            (0..points.len()).any(|i| {
                (0..points.len()).any(|j| {
                    lineup(&points[i]) == lineup(&points[j]) && grid.values[i][k] != grid.values[j][k]
                })
            })
        })
        .collect()
}

/// Settings that follow the line-up, with the policies that play them: `search plays with search
/// budget 50`.
fn agent_settings(run: &RunResult, grid: &Grid, ctx: &[usize]) -> Vec<String> {
    let game = run.points[0].game;
    let pk = grid.keys.iter().position(|k| k == POLICIES);
    let mut out = Vec::new();
    for k in (0..grid.keys.len()).filter(|k| Some(*k) != pk && !ctx.contains(k)) {
        let default = grid.defaults[k].clone();
        let set: Vec<usize> =
            (0..run.points.len()).filter(|&i| Some(&grid.values[i][k]) != default.as_ref()).collect();
        let Some(&first) = set.first() else { continue };
        let mut users: Vec<String> = lineup(&run.points[first]);
        users.retain(|u| set.iter().all(|&i| lineup(&run.points[i]).contains(u)));
        users.retain(|u| {
            (0..run.points.len()).filter(|i| !set.contains(i)).all(|i| !lineup(&run.points[i]).contains(u))
        });
        users.dedup();
        let mut values: Vec<&String> = set.iter().map(|&i| &grid.values[i][k]).collect();
        values.dedup();
        if users.is_empty() || values.len() != 1 {
            continue;
        }
        out.push(format!(
            "{} plays with {}",
            users.join(" and "),
            setting_words(game, &grid.keys[k], values[0])
        ));
    }
    out
}

/// The context's words: `version A, 2 players` (the keys that vary among `of`).
fn ctx_words(game: &str, keys: &[String], ctx: &[String]) -> String {
    keys.iter().zip(ctx).map(|(k, v)| setting_words(game, k, v)).collect::<Vec<_>>().join(", ")
}

/// Which of `keys` (positions in a context) take more than one value over `ctxs`.
fn varying(ctxs: &[&Vec<String>], n: usize) -> Vec<usize> {
    (0..n).filter(|&k| ctxs.iter().any(|c| c[k] != ctxs[0][k])).collect()
}

/// The head-to-head sentence of one context: policies ranked by the pairings they win.
pub fn ranking(agent: &str, pairings: &[Pairing]) -> String {
    let mut names: Vec<String> = Vec::new();
    for p in pairings {
        for n in [&p.a, &p.b] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    // Each pairing seen from its winner (or, with none, from the one ahead).
    let seen: Vec<Pairing> = pairings
        .iter()
        .map(|p| if p.b_wins() || (!p.a_wins() && p.share.estimate < 0.5) { p.flipped() } else { p.clone() })
        .collect();
    let wins = |n: &str| seen.iter().filter(|p| p.a == n && p.a_wins()).count();
    let mean = |n: &str| {
        let mine: Vec<f64> = seen
            .iter()
            .filter_map(|p| {
                if p.a == n {
                    Some(p.share.estimate)
                } else if p.b == n {
                    Some(1.0 - p.share.estimate)
                } else {
                    None
                }
            })
            .collect();
        mine.iter().sum::<f64>() / mine.len().max(1) as f64
    };
    names.sort_by(|a, b| wins(b).cmp(&wins(a)).then(mean(b).total_cmp(&mean(a))));
    let mut parts: Vec<String> = Vec::new();
    for n in &names {
        let mut beaten: Vec<&Pairing> = seen.iter().filter(|p| p.a == *n && p.a_wins()).collect();
        beaten.sort_by_key(|p| names.iter().position(|x| *x == p.b));
        if beaten.is_empty() {
            continue;
        }
        let list: Vec<String> =
            beaten.iter().map(|p| format!("{} {}", p.b, said(&p.share, p.decided))).collect();
        let opponents = names.len() - 1;
        let met = seen.iter().filter(|p| p.a == *n || p.b == *n).count();
        if beaten.len() == opponents && met == opponents && opponents > 1 {
            parts.push(format!("{n} beats every other {agent}: {}", list.join(", ")));
        } else {
            parts.push(format!("{n} beats {}", join_and(&list)));
        }
    }
    let even: Vec<String> = seen
        .iter()
        .filter(|p| !p.a_wins())
        .map(|p| format!("{} against {} {}", p.a, p.b, said(&p.share, p.decided)))
        .collect();
    if !even.is_empty() {
        parts.push(format!("no winner detected: {}", join_and(&even)));
    }
    parts.join("; ")
}

/// A number of points with its sign (`+13.9`, `−23.8`).
pub fn signed(x: f64) -> String {
    let s = format::fixed(x.abs(), 1);
    if s.chars().all(|c| c == '0' || c == '.') {
        s
    } else if x < 0.0 {
        format!("−{s}")
    } else {
        format!("+{s}")
    }
}

/// Sorts a grid's rows by their values, each column's in order of first appearance (`2, 3, 4`
/// players, then version `A, B`).
fn sort_rows(rows: &mut [(Vec<String>, Vec<Cell>)]) {
    let n = rows.first().map_or(0, |r| r.0.len());
    let orders: Vec<Vec<String>> = (0..n)
        .map(|k| {
            let mut seen: Vec<String> = Vec::new();
            for r in rows.iter() {
                if !seen.contains(&r.0[k]) {
                    seen.push(r.0[k].clone());
                }
            }
            seen
        })
        .collect();
    let rank = |v: &Vec<String>| -> Vec<usize> {
        v.iter().zip(&orders).map(|(x, o)| o.iter().position(|y| y == x).unwrap_or(0)).collect()
    };
    rows.sort_by_key(|r| rank(&r.0));
}

/// The plural of a policy's word (`placement` → `placements`).
fn plural(w: &str) -> String {
    if w.ends_with('s') {
        w.to_string()
    } else if let Some(s) = w.strip_suffix('y') {
        format!("{s}ies")
    } else {
        format!("{w}s")
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The answer of a run whose question is `policy_wins` (and only that), over points of decision
/// games (no tournaments); `None` otherwise.
pub fn answer(run: &RunResult) -> Option<MetricAnswer> {
    let q = run.manifest.question.as_deref()?;
    if q.trim() != super::answer::POLICY_WINS {
        return None;
    }
    build(run, true)
}

/// The head-to-head part alone (its sentences and grid), for a run that asks another question
/// but pits policies against each other (a first player's edge measured over several line-ups).
pub fn head_to_heads(run: &RunResult) -> Option<MetricAnswer> {
    build(run, false)
}

fn build(run: &RunResult, whole: bool) -> Option<MetricAnswer> {
    if run.points.is_empty() || run.points.iter().any(|p| p.layout.entrants.is_some()) {
        return None;
    }
    let game = run.points[0].game;
    let agent = singular(&word(game, POLICIES));
    let (grid, ctx_keys, tables) = tables(run)?;
    let keys: Vec<String> = ctx_keys.iter().map(|&k| grid.keys[k].clone()).collect();
    // A game whose outcomes name no policy has nothing to say here.
    if tables.iter().all(|t| t.agents.is_empty()) {
        return None;
    }
    let mut out = MetricAnswer { sentences: Vec::new(), pivots: Vec::new(), picture: None, picture_after: 0 };
    head_to_head(game, &agent, &keys, &tables, &mut out);
    if !whole {
        return (!out.sentences.is_empty()).then_some(out);
    }
    mixed(game, &agent, &keys, &tables, &mut out);
    mirrors(game, &agent, &keys, &tables, &mut out);
    draws(game, &keys, &tables, &mut out);
    let notes = agent_settings(run, &grid, &ctx_keys);
    if !notes.is_empty() {
        out.sentences.push(format!("{}.", capital(&notes.join("; "))));
    }
    (!out.sentences.is_empty()).then_some(out)
}

/// The run's grid, its context keys and its points as line-ups.
fn tables(run: &RunResult) -> Option<(Grid, Vec<usize>, Vec<Table<'_>>)> {
    let grid = Grid::of(&run.points)?;
    let ctx_keys = context_keys(&grid, &run.points);
    let tables: Vec<Table> = run
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = decided_shares(p);
            let first = match (&d.declared, d.seats.first()) {
                (Some((who, ci)), _) => Some((who.clone(), *ci)),
                (None, Some(ci)) => Some(("the first seat".to_string(), *ci)),
                _ => None,
            };
            Table {
                p,
                ctx: ctx_keys.iter().map(|&k| grid.values[i][k].clone()).collect(),
                agents: d.agents,
                first,
                seats: d.seats.len().max(lineup(p).len()),
                decided: decided(p),
            }
        })
        .collect();
    Some((grid, ctx_keys, tables))
}

/// The head-to-head pairings of a run of decision games (no tournaments), each seen from the side
/// ahead, with the words of the settings that change the table (those that vary among them), in
/// the order of the grid; empty when no point pits two policies against each other.
pub fn pairings(run: &RunResult) -> (Vec<String>, Vec<Pairing>) {
    if run.points.is_empty() || run.points.iter().any(|p| p.layout.entrants.is_some()) {
        return (Vec::new(), Vec::new());
    }
    let Some((grid, ctx_keys, tables)) = tables(run) else { return (Vec::new(), Vec::new()) };
    let all = pairings_of(&tables);
    let ctxs: Vec<&Vec<String>> = all.iter().map(|p| &p.ctx).collect();
    let vary = varying(&ctxs, ctx_keys.len());
    let game = run.points[0].game;
    let keys = vary.iter().map(|&k| word(game, &grid.keys[ctx_keys[k]])).collect();
    let mut seen: Vec<Pairing> = all
        .iter()
        .map(|p| {
            let mut p = if p.share.estimate < 0.5 { p.flipped() } else { p.clone() };
            p.ctx = vary.iter().map(|&k| p.ctx[k].clone()).collect();
            p
        })
        .collect();
    // Grouped by the settings of the table, the strongest policies' pairings first.
    let order = ranking_order(&all);
    let mut ctx_order: Vec<Vec<String>> = Vec::new();
    for p in &seen {
        if !ctx_order.contains(&p.ctx) {
            ctx_order.push(p.ctx.clone());
        }
    }
    let at = |x: &String| order.iter().position(|y| y == x).unwrap_or(usize::MAX);
    seen.sort_by_key(|p| (ctx_order.iter().position(|c| *c == p.ctx), at(&p.a), at(&p.b)));
    (keys, seen)
}

/// Every head-to-head pairing of the run, in point order.
fn pairings_of(tables: &[Table]) -> Vec<Pairing> {
    tables
        .iter()
        .filter(|t| t.agents.len() == 2)
        .map(|t| Pairing {
            ctx: t.ctx.clone(),
            a: t.agents[0].0.clone(),
            b: t.agents[1].0.clone(),
            share: t.agents[0].1,
            decided: t.decided,
        })
        .filter(|p| p.share.estimate.is_finite())
        .collect()
}

fn head_to_head(game: &str, agent: &str, keys: &[String], tables: &[Table], out: &mut MetricAnswer) {
    let pairings = pairings_of(tables);
    if pairings.is_empty() {
        return;
    }
    let mut ctxs: Vec<&Vec<String>> = Vec::new();
    for p in &pairings {
        if !ctxs.contains(&&p.ctx) {
            ctxs.push(&p.ctx);
        }
    }
    let vary = varying(&ctxs, keys.len());
    let fixed: Vec<usize> = (0..keys.len()).filter(|k| !vary.contains(k)).collect();
    let pick = |c: &Vec<String>, ks: &[usize]| -> (Vec<String>, Vec<String>) {
        (ks.iter().map(|&k| keys[k].clone()).collect(), ks.iter().map(|&k| c[k].clone()).collect())
    };
    let (fk, fv) = pick(ctxs[0], &fixed);
    let at_fixed = ctx_words(game, &fk, &fv);
    let rotated =
        tables.iter().any(|t| t.p.settings.values.iter().any(|(k, v)| *k == "rotate_seats" && v == "true"));
    let of = if rotated {
        "of the decided games, both seats played on every deal"
    } else {
        "of the decided games"
    };
    for c in &ctxs {
        let mine: Vec<Pairing> = pairings.iter().filter(|p| p.ctx == **c).cloned().collect();
        let (vk, vv) = pick(c, &vary);
        let first = std::ptr::eq(*c, ctxs[0]);
        let head = match (vv.is_empty(), at_fixed.is_empty() || !first) {
            (true, true) => "Head to head, ".to_string(),
            (true, false) => format!("Head to head ({at_fixed}), "),
            (false, true) => format!("{}: ", capital(&ctx_words(game, &vk, &vv))),
            (false, false) => format!("{} ({at_fixed}): ", capital(&ctx_words(game, &vk, &vv))),
        };
        let line = ranking(agent, &mine);
        let sentence = if first { format!("{head}{line} ({of}).") } else { format!("{head}{line}.") };
        out.sentences.push(sentence);
    }
    // What a setting of the table changes: pairings at two contexts differing in one key.
    for &k in &vary {
        let mut changes: Vec<(f64, String, bool)> = Vec::new();
        let mut from_to: Option<(String, String)> = None;
        for p in &pairings {
            let Some(q) = pairings.iter().find(|q| {
                (0..keys.len()).all(|j| if j == k { q.ctx[j] != p.ctx[j] } else { q.ctx[j] == p.ctx[j] })
                    && ((q.a == p.a && q.b == p.b) || (q.a == p.b && q.b == p.a))
            }) else {
                continue;
            };
            // Each change once: from the context seen first.
            let first = |c: &Vec<String>| ctxs.iter().position(|x| *x == c);
            if first(&p.ctx) > first(&q.ctx) {
                continue;
            }
            if from_to.as_ref().is_some_and(|(f, t)| *f != p.ctx[k] || *t != q.ctx[k]) {
                continue;
            }
            from_to = Some((p.ctx[k].clone(), q.ctx[k].clone()));
            let q = if q.a == p.a { q.clone() } else { q.flipped() };
            // Said from the side that is ahead at the first context.
            let (p, q) = if p.share.estimate >= 0.5 { (p.clone(), q) } else { (p.flipped(), q.flipped()) };
            let d = q.share.estimate - p.share.estimate;
            let half = (p.share.half_width().powi(2) + q.share.half_width().powi(2)).sqrt();
            let clear = d.abs() > half;
            let text = format!(
                "{} against {} {} points [{}, {}]",
                p.a,
                p.b,
                signed(100.0 * d),
                signed(100.0 * (d - half)),
                signed(100.0 * (d + half))
            );
            changes.push((d.abs(), text, clear));
        }
        let Some((from, to)) = from_to else { continue };
        changes.sort_by(|a, b| b.0.total_cmp(&a.0));
        let clear: Vec<&String> = changes.iter().filter(|c| c.2).map(|c| &c.1).take(CHANGES).collect();
        let still = changes.iter().filter(|c| !c.2).count();
        let what = format!("From {} to {to}", setting_words(game, &keys[k], &from));
        let mut s = if clear.is_empty() {
            format!("{what}: no pairing's share changes measurably")
        } else {
            let more = changes.iter().filter(|c| c.2).count() - clear.len();
            let mut s =
                format!("{what}: {}", clear.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "));
            if more > 0 {
                s.push_str(&format!(" (and {more} more)"));
            }
            if still > 0 {
                let pairings = if still == 1 { "pairing" } else { "pairings" };
                s.push_str(&format!("; no change detected in {still} {pairings}"));
            }
            s
        };
        s.push_str(" (the side ahead's share of the decided games, in points; unpaired 95% intervals).");
        out.sentences.push(s);
    }
    // The grid: a row per context and policy, a column per opponent.
    let mut names: Vec<String> = Vec::new();
    let order = ranking_order(&pairings);
    for n in order {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut rows: Vec<(Vec<String>, Vec<Cell>)> = Vec::new();
    for c in &ctxs {
        for a in &names {
            let cells: Vec<Cell> = names
                .iter()
                .map(|b| {
                    let p =
                        pairings.iter().find(|p| p.ctx == **c && p.a == *a && p.b == *b).cloned().or_else(
                            || {
                                pairings
                                    .iter()
                                    .find(|p| p.ctx == **c && p.a == *b && p.b == *a)
                                    .map(Pairing::flipped)
                            },
                        )?;
                    Some(cell(&p.share, p.decided))
                })
                .collect();
            if cells.iter().all(Option::is_none) {
                continue;
            }
            let mut values: Vec<String> = vary.iter().map(|&k| c[k].clone()).collect();
            values.push(a.clone());
            rows.push((values, cells));
        }
    }
    let mut row_keys: Vec<String> = vary.iter().map(|&k| word(game, &keys[k])).collect();
    row_keys.push(agent.to_string());
    let at = if at_fixed.is_empty() { String::new() } else { format!(" ({at_fixed})") };
    out.pivots.push(Pivot {
        title: format!(
            "Head to head{at}: the row {agent}'s share of the decided games against the column's (%)"
        ),
        row_keys,
        col_key: "against".into(),
        col_levels: names,
        rows,
        marked: None,
    });
    out.picture = Some(PICTURE);
    out.picture_after = out.pivots.len() - 1;
}

/// The policies of `pairings` from the strongest: by pairings won, then by mean share.
fn ranking_order(pairings: &[Pairing]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for p in pairings {
        for n in [&p.a, &p.b] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let score = |n: &str| {
        let mut wins = 0usize;
        let mut sum = 0.0;
        let mut met = 0usize;
        for p in pairings {
            let s = if p.a == n {
                p.share
            } else if p.b == n {
                p.flipped().share
            } else {
                continue;
            };
            wins += usize::from(s.low > 0.5);
            sum += s.estimate;
            met += 1;
        }
        (wins, sum / met.max(1) as f64)
    };
    names.sort_by(|a, b| {
        let (sa, sb) = (score(a), score(b));
        sb.0.cmp(&sa.0).then(sb.1.total_cmp(&sa.1))
    });
    names
}

/// Mixed tables: each policy's games won per seat it holds.
fn mixed(game: &str, agent: &str, keys: &[String], tables: &[Table], out: &mut MetricAnswer) {
    let mixed: Vec<&Table> = tables.iter().filter(|t| t.agents.len() >= 3).collect();
    if mixed.is_empty() {
        return;
    }
    // Per table: (policy, share of all games per seat held).
    let per_seat = |t: &Table| -> Vec<(String, Interval)> {
        let line = lineup(t.p);
        t.agents
            .iter()
            .map(|(name, _)| {
                let rows: Vec<u16> =
                    t.p.layout
                        .outcomes
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| o.kind == OutcomeKind::Win && o.policy.as_deref() == Some(name))
                        .map(|(i, _)| i as u16)
                        .collect();
                let held = line.iter().filter(|x| *x == name).count().max(1);
                (name.clone(), t.p.interval(&Key::Rows(rows)).scaled(held as f64))
            })
            .collect()
    };
    let ctxs: Vec<&Vec<String>> = mixed.iter().map(|t| &t.ctx).collect();
    let vary = varying(&ctxs, keys.len());
    let mut names: Vec<String> = Vec::new();
    for t in &mixed {
        for (n, _) in &t.agents {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let tops: Vec<(usize, String, Interval)> = mixed
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            per_seat(t)
                .into_iter()
                .max_by(|a, b| a.1.estimate.total_cmp(&b.1.estimate))
                .map(|(n, s)| (i, n, s))
        })
        .collect();
    let where_ = |i: usize| {
        let t = mixed[i];
        let mut w: Vec<String> = vary.iter().map(|&k| setting_words(game, &keys[k], &t.ctx[k])).collect();
        if vary.is_empty() || mixed.iter().filter(|x| x.ctx == t.ctx).count() > 1 {
            w.push(lineup(t.p).join(","));
        }
        w.join(", ")
    };
    let same = tops.iter().all(|t| t.1 == tops[0].1);
    let n = mixed.len();
    let even = "even is 1 in the number of players";
    let s = if same && n > 1 {
        let (lo, hi) = (
            tops.iter().min_by(|a, b| a.2.estimate.total_cmp(&b.2.estimate)).unwrap(),
            tops.iter().max_by(|a, b| a.2.estimate.total_cmp(&b.2.estimate)).unwrap(),
        );
        format!(
            "At the {n} mixed tables (three {} or more), {} wins the most games per seat it holds at every one: from {} ({}) to {} ({}); {even}.",
            plural(agent),
            tops[0].1,
            format::rate(&lo.2, mixed[lo.0].p.acc.games, "game"),
            where_(lo.0),
            format::rate(&hi.2, mixed[hi.0].p.acc.games, "game"),
            where_(hi.0),
        )
    } else {
        let each: Vec<String> = tops
            .iter()
            .map(|(i, name, s)| {
                format!("{} ({}) {name} {}", "at", where_(*i), format::rate(s, mixed[*i].p.acc.games, "game"))
            })
            .collect();
        format!(
            "At mixed tables (three {} or more), the most games won per seat it holds: {}; {even}.",
            plural(agent),
            each.join("; ")
        )
    };
    out.sentences.push(s.replace("( ", "(").replace(" ()", ""));
    // The grid: a row per table, a column per policy.
    let multi = mixed.iter().any(|t| mixed.iter().filter(|x| x.ctx == t.ctx).count() > 1) || vary.is_empty();
    let mut row_keys: Vec<String> = vary.iter().map(|&k| word(game, &keys[k])).collect();
    if multi {
        row_keys.push("line-up".into());
    }
    let mut rows: Vec<(Vec<String>, Vec<Cell>)> = mixed
        .iter()
        .map(|t| {
            let shares = per_seat(t);
            let mut values: Vec<String> = vary.iter().map(|&k| t.ctx[k].clone()).collect();
            if multi {
                values.push(lineup(t.p).join(","));
            }
            let cells = names
                .iter()
                .map(|n| shares.iter().find(|(x, _)| x == n).map(|(_, s)| cell(s, t.p.acc.games)))
                .collect();
            (values, cells)
        })
        .collect();
    sort_rows(&mut rows);
    out.pivots.push(Pivot {
        title: format!("Mixed tables: each {agent}'s games won per seat it holds (% of games)"),
        row_keys,
        col_key: String::new(),
        col_levels: names,
        rows,
        marked: None,
    });
}

/// Mirrors: the seat edge.
fn mirrors(game: &str, agent: &str, keys: &[String], tables: &[Table], out: &mut MetricAnswer) {
    let mirrors: Vec<&Table> = tables.iter().filter(|t| t.agents.len() == 1 && t.first.is_some()).collect();
    if mirrors.is_empty() {
        return;
    }
    let ctxs: Vec<&Vec<String>> = mirrors.iter().map(|t| &t.ctx).collect();
    let vary = varying(&ctxs, keys.len());
    // The first seat's edge at each mirror: its share less an even share, and whether it is clear.
    let edge = |t: &Table| -> Option<(f64, bool)> {
        let (_, ci) = t.first.as_ref()?;
        if !ci.estimate.is_finite() {
            return None;
        }
        let even = 1.0 / t.seats.max(1) as f64;
        Some((ci.estimate - even, !ci.contains(even)))
    };
    let n = mirrors.len();
    let clear: Vec<&&Table> = mirrors.iter().filter(|t| edge(t).is_some_and(|e| e.1)).collect();
    let who = mirrors[0].first.as_ref().map_or("the first seat".to_string(), |f| f.0.clone());
    let mirror_words = format!("one {agent} in every seat");
    let s = if n == 1 {
        let t = mirrors[0];
        let (_, ci) = t.first.as_ref().unwrap();
        let even = format::fixed(100.0 / t.seats.max(1) as f64, if t.seats == 2 { 0 } else { 1 });
        let found = if clear.is_empty() { "no edge detected" } else { "an edge" };
        format!(
            "Seat order ({mirror_words}): {found}: {who} wins {} of the decided games of the {} mirror (even {even}%).",
            said(ci, t.decided),
            t.agents[0].0
        )
    } else if clear.is_empty() {
        format!(
            "Seat order ({mirror_words}): no edge detected in any of the {n} mirrors: {who} wins its even share of the decided games within the 95% interval everywhere."
        )
    } else {
        // The largest gap, the first of equals.
        let gap = |t: &Table| edge(t).map_or(0.0, |e| e.0.abs());
        let top = clear.iter().skip(1).fold(clear[0], |best, t| if gap(t) > gap(best) { t } else { best });
        let (_, ci) = top.first.as_ref().unwrap();
        let mut at: Vec<String> = vary.iter().map(|&k| setting_words(game, &keys[k], &top.ctx[k])).collect();
        at.insert(0, format!("{} mirror", top.agents[0].0));
        let even = 100.0 / top.seats.max(1) as f64;
        let none = n - clear.len();
        let rest = if none > 0 { format!("; no edge detected in the other {none}") } else { String::new() };
        let chance = if n >= 10 { " (about 1 in 20 would by chance alone)" } else { "" };
        format!(
            "Seat order ({mirror_words}): {who}'s share of the decided games differs from even in {} of the {n} mirrors{chance}; the largest gap: {} ({}; even {}%){rest}.",
            clear.len(),
            said(ci, top.decided),
            at.join(", "),
            format::fixed(even, if even.fract() == 0.0 { 0 } else { 1 })
        )
    };
    out.sentences.push(s);
    let mut names: Vec<String> = Vec::new();
    for t in &mirrors {
        if !names.contains(&t.agents[0].0) {
            names.push(t.agents[0].0.clone());
        }
    }
    let mut rows: Vec<(Vec<String>, Vec<Cell>)> = Vec::new();
    for c in &ctxs {
        let values: Vec<String> = vary.iter().map(|&k| c[k].clone()).collect();
        if rows.iter().any(|(v, _)| *v == values) {
            continue;
        }
        let cells = names
            .iter()
            .map(|n| {
                let t = mirrors.iter().find(|t| t.ctx == **c && t.agents[0].0 == *n)?;
                let (_, ci) = t.first.as_ref()?;
                Some(cell(ci, t.decided))
            })
            .collect();
        rows.push((values, cells));
    }
    sort_rows(&mut rows);
    // One mirror: its sentence says all the grid would.
    if n == 1 {
        return;
    }
    let row_keys: Vec<String> = vary.iter().map(|&k| word(game, &keys[k])).collect();
    let even = if mirrors.iter().all(|t| t.seats == 2) {
        "even 50".to_string()
    } else {
        "even is 1 in the number of players".to_string()
    };
    out.pivots.push(Pivot {
        title: format!("Mirrors: {who}'s share of the decided games (%; {even})"),
        row_keys,
        col_key: String::new(),
        col_levels: names,
        rows,
        marked: None,
    });
}

/// Where draws are common, the most of them: the shares above leave them out.
fn draws(game: &str, keys: &[String], tables: &[Table], out: &mut MetricAnswer) {
    // Over deal groups, as every other share of the answer.
    let share = |t: &Table| (t.p.kind_interval(OutcomeKind::Draw), t.p.acc.games);
    // The first of equals.
    let Some(top) = tables.iter().filter(|t| share(t).0.is_some_and(|i| i.estimate.is_finite())).fold(
        None,
        |best: Option<&Table>, t| match best {
            Some(b) if share(b).0.unwrap().estimate >= share(t).0.unwrap().estimate => Some(b),
            _ => Some(t),
        },
    ) else {
        return;
    };
    let (Some(i), games) = share(top) else { return };
    if i.estimate < NOTABLE_DRAWS {
        return;
    }
    let mut at: Vec<String> = keys.iter().zip(&top.ctx).map(|(k, v)| setting_words(game, k, v)).collect();
    let line = lineup(top.p);
    at.insert(0, if top.agents.len() == 1 { format!("{} mirrors", top.agents[0].0) } else { line.join(",") });
    out.sentences.push(format!(
        "Draws are left out of the shares above; they are most common with {}: {} of games.",
        at.join(", "),
        format::rate(&i, games, "game")
    ));
}
