//! The report page's tournaments section, for points whose unit is an event (a layout with a
//! table of entrants, `crate::record::EntrantTable`): how the winner's record is distributed, how
//! often first place is shared, each entrant's chance to finish first, and how closely the final
//! places follow the strength of the hands dealt (Spearman's rank correlation, mean over events
//! with its normal interval). `standings.csv` has every entrant's record and rating.

use std::fmt::Write as _;

use super::html::{esc, int, interval, pct};
use super::labels::Sweep;
use super::{PointResult, RunResult};
use crate::stats::{mean_interval, wilson};

/// Whether some point plays events.
pub fn any(run: &RunResult) -> bool {
    run.points.iter().any(|p| p.layout.entrants.is_some())
}

fn signed(x: f64) -> String {
    if x.is_finite() { format!("{x:+.3}") } else { "–".into() }
}

/// The winner's records, most frequent first: `8-0 74.1%`.
fn records(p: &PointResult) -> String {
    let (Some(won), Some(lost)) =
        (p.layout.distribution("winner_games_won"), p.layout.distribution("winner_games_lost"))
    else {
        return "–".into();
    };
    let n = p.acc.distributions[won.0 as usize].total().max(1) as f64;
    // Without draws a winner's games won and lost add up to the games each entrant plays.
    let games = p.layout.entrants.as_ref().map_or(0, |t| t.names.len() as i64 - 1);
    let lost = &p.acc.distributions[lost.0 as usize];
    let mut rows: Vec<(u64, String)> = p.acc.distributions[won.0 as usize]
        .iter()
        .map(|(w, c)| {
            let l = if lost.total() > 0 { games - w } else { 0 };
            (c, format!("{w}-{l} {}", pct(c as f64 / n)))
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    rows.iter().take(4).map(|(_, s)| s.as_str()).collect::<Vec<_>>().join("<br>")
}

/// The entrants' chances to finish first (alone or shared): the lowest and highest, with their
/// Wilson intervals.
fn first_range(p: &PointResult) -> String {
    let Some(t) = &p.layout.entrants else { return "–".into() };
    let chance = |name: &str| {
        let c = |what: &str| {
            p.layout
                .counter(&format!("{name} first {what}"))
                .map_or(0, |c| p.acc.counters[c.0 as usize].total as u64)
        };
        wilson(c("alone") + c("shared"), p.acc.games)
    };
    // Where the card set names its designers, entrant i plays the i-th designer's sheet.
    let makers = p.layout.cards.as_ref().and_then(|c| c.makers.as_ref());
    let shown = |i: usize, n: &String| match makers.and_then(|m| m.names.get(i)) {
        Some(d) => format!("{d} ({n})"),
        None => n.clone(),
    };
    let all: Vec<_> = t.names.iter().enumerate().map(|(i, n)| (shown(i, n), chance(n))).collect();
    let lo = all.iter().min_by(|a, b| a.1.estimate.total_cmp(&b.1.estimate));
    let hi = all.iter().max_by(|a, b| a.1.estimate.total_cmp(&b.1.estimate));
    match (lo, hi) {
        (Some((ln, l)), Some((hn, h))) => format!(
            "{} {}{}<br>{} {}{}",
            esc(ln),
            pct(l.estimate),
            interval(l.low, l.high, pct),
            esc(hn),
            pct(h.estimate),
            interval(h.low, h.high, pct)
        ),
        _ => "–".into(),
    }
}

/// The section.
pub fn section(h: &mut String, run: &RunResult, sweep: &Sweep) {
    if !any(run) {
        return;
    }
    h.push_str("<h2 id=tournaments>Tournaments</h2>\n");
    h.push_str(
        "<p class=muted>Each unit of these points is one tournament: a round robin in which every pair of entrants \
         meets once. <i>Winner's record</i>: games won and lost by the first-placed entrant, the four most frequent. \
         <i>Shared first</i>: tournaments whose first place is shared (Wilson interval). <i>First place</i>: the least \
         and the most likely entrant to finish first, alone or shared (equal by symmetry when the entrants are alike). \
         <i>Strength and place</i>: Spearman's rank correlation between the strength of each entrant's dealt hand and \
         its final place (+1: the strongest hand always finishes first), mean over tournaments with its normal 95% interval.</p>\n",
    );
    let game = run.points.first().map_or("", |p| p.game);
    let _ = write!(
        h,
        "<div class=scroll><table><tr>{}",
        super::html::setting_headers(&super::pivot::named_keys(game, sweep))
    );
    h.push_str("<th>tournaments</th><th>winner's record</th><th>shared first</th><th>first place</th><th>games a tournament</th><th>strength and place</th></tr>\n");
    for (i, p) in run.points.iter().enumerate() {
        if p.layout.entrants.is_none() {
            continue;
        }
        let shared = p.layout.counter("shared_first").map(|c| p.acc.counters[c.0 as usize].total as u64);
        let shared =
            shared.map_or("–".into(), |k| super::html::rate_html(&wilson(k, p.acc.games), p.acc.games));
        let games = p.layout.counter("games").map_or("–".into(), |c| {
            let total = p.acc.counters[c.0 as usize].total as f64;
            format!("{:.0}", total / p.acc.games.max(1) as f64)
        });
        let rho = p
            .layout
            .distribution("strength_place_correlation_permille")
            .map(|d| &p.acc.distributions[d.0 as usize]);
        let rho = match rho.filter(|d| d.total() > 1) {
            Some(d) => {
                let ci = mean_interval(d.sum(), d.sum_sq(), d.total());
                let k = |x: f64| signed(x / 1000.0);
                format!("{}{}", k(ci.estimate), interval(ci.low, ci.high, k))
            }
            None => "–".into(),
        };
        let _ = writeln!(
            h,
            "<tr>{}<td>{}</td><td>{}</td><td>{shared}</td><td>{}</td><td>{games}</td><td>{rho}</td></tr>",
            super::html::setting_cells(sweep, i, 1),
            int(p.acc.games),
            records(p),
            first_range(p)
        );
    }
    h.push_str("</table></div>\n");
}
