//! The report page's cards section, for points whose per-card table has a paired mean (each card's
//! effect measured game by game against the same deal without it, `paired_means`): the cards that
//! move their owner's chance to win most and least, with their paired intervals, and the pairs of
//! cards whose joint effect is furthest from the sum of their own.

use std::fmt::Write as _;

use super::RunResult;
use super::html::{esc, int, interval};
use super::labels::Sweep;
use super::paired_means::{Estimate, ONE_POINT, ends, ranked_cards, ranked_pairs};

/// Cards shown at each end of a ranking.
pub const ENDS: usize = 10;
/// Pairs shown.
pub const PAIRS: usize = 20;

/// Whether some point has a per-card paired mean of single games (`ranked_cards`).
pub fn any(run: &RunResult) -> bool {
    run.points.iter().any(|p| ranked_cards(p).is_some())
}

/// A difference of chances in percentage points, signed: `+3.25`.
fn points(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let p = 100.0 * x;
    if p.abs() < 0.005 { "0.00".into() } else { format!("{p:+.2}") }
}

/// An estimate with its interval under it, bold when the interval excludes 0.
fn cell(e: &Estimate) -> String {
    let i = e.interval;
    let body = format!("{}{}", points(i.estimate), interval(i.low, i.high, points));
    if e.clear() { format!("<td><b>{body}</b></td>") } else { format!("<td>{body}</td>") }
}

fn games_for(e: &Estimate) -> String {
    e.games_for_1pt.map_or("–".into(), int)
}

/// The section: per point, the ranked cards and the pairs furthest from additive.
pub fn section(h: &mut String, run: &RunResult, sweep: &Sweep) {
    if !any(run) {
        return;
    }
    h.push_str("<h2 id=cards>Cards that matter most</h2>\n");
    let _ = writeln!(
        h,
        "<p class=muted>A card's <i>impact</i>: how much it changes its owner's chance to win (a draw counts half), \
         measured on the same deals played with the card as written and without its effect, game by game. \
         In percentage points, with the paired 95% interval; bold where the interval excludes 0. <i>Games</i>: the paired games measured. \
         <i>Games for ±{:.0} pt</i>: the paired games that card needs for an interval of ±{:.0} point at its measured spread. \
         The {ENDS} most and {ENDS} least impactful cards of each point; cards.csv has every card.</p>",
        100.0 * ONE_POINT,
        100.0 * ONE_POINT
    );
    for (i, p) in run.points.iter().enumerate() {
        let Some((t, m, rows)) = ranked_cards(p) else { continue };
        if run.points.len() > 1 {
            let _ = writeln!(h, "<h3>{}</h3>", esc(&sweep.short(i)));
        }
        h.push_str("<div style=\"display:flex;gap:20px;flex-wrap:wrap;align-items:flex-start\">");
        let _ = writeln!(
            h,
            "<div class=scroll><table><tr><th>rank</th><th class=l>card</th><th>{} (pt)</th><th>games</th><th>games for ±1 pt</th></tr>",
            esc(&m.name)
        );
        let (top, bottom) = ends(&rows, ENDS);
        let last = rows.len();
        let ranked = top
            .iter()
            .enumerate()
            .chain(bottom.iter().enumerate().map(|(j, r)| (last - bottom.len() + j, r)));
        for (j, (rank, (k, e))) in ranked.enumerate() {
            let first = j == top.len() && !bottom.is_empty();
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td class=l>{}</td>{}<td>{}</td><td>{}</td></tr>",
                if first { " class=first" } else { "" },
                rank + 1,
                esc(&t.keys[*k]),
                cell(e),
                int(e.n),
                games_for(e)
            );
        }
        h.push_str("</table>");
        let never: Vec<&str> = rows
            .iter()
            .filter(|(_, e)| e.interval.low == 0.0 && e.interval.high == 0.0)
            .map(|(k, _)| t.keys[*k].as_str())
            .collect();
        if !never.is_empty() {
            let _ = write!(
                h,
                "<p class=muted style=\"max-width:30em;white-space:normal\">Never changed a result: {}.</p>",
                esc(&never.join(", "))
            );
        }
        h.push_str("</div>\n");
        pairs(h, p);
        h.push_str("</div>\n");
    }
}

/// The pairs of a point furthest from additive, if it measured pairs.
fn pairs(h: &mut String, p: &super::PointResult) {
    let Some((cards, t, by, rows)) = ranked_pairs(p, PAIRS) else { return };
    h.push_str("<div class=scroll><table><tr><th>rank</th><th class=l>cards</th>");
    let order: Vec<usize> = std::iter::once(by).chain((0..t.paired.len()).filter(|&m| m != by)).collect();
    for &m in &order {
        let _ = write!(h, "<th>{} (pt)</th>", esc(&t.paired[m].name));
    }
    h.push_str("<th>games</th></tr>\n");
    for (rank, r) in rows.iter().enumerate() {
        let (a, b) = t.pairs[r.row];
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=l>{} + {}</td>",
            rank + 1,
            esc(&cards.keys[a as usize]),
            esc(&cards.keys[b as usize])
        );
        for &m in &order {
            h.push_str(&cell(&r.all[m]));
        }
        let _ = writeln!(h, "<td>{}</td></tr>", int(r.by.n));
    }
    let _ = writeln!(
        h,
        "</table><p class=muted style=\"max-width:30em;white-space:normal\">The {PAIRS} pairs whose {} lies furthest from 0 \
         (by the interval's nearest end, then the estimate): a pair's {} is its joint impact minus the sum of the two cards' own, \
         on the deals whose pool holds both; positive: they are stronger together than apart.</p></div>",
        esc(&t.paired[by].name),
        esc(&t.paired[by].name)
    );
}
