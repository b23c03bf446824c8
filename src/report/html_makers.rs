//! The report page's designers section, for points whose per-card table names its cards' makers
//! (`makers`): per point, how many cards never reached a deck or play, the own cards a player
//! was expected to receive and received, each maker's rates, and the cards flagged too strong or
//! too weak. `designers.csv` has every card.

use std::fmt::Write as _;

use super::RunResult;
use super::html::{esc, int, interval, pct};
use super::labels::Sweep;
use super::makers::{ALPHA, Feedback, Line, feedback};
use super::paired_means::Estimate;

/// Whether some point names its cards' makers.
pub fn any(run: &RunResult) -> bool {
    run.points.iter().any(|p| p.layout.cards.as_ref().is_some_and(|t| t.makers.is_some()))
}

/// A rate with its interval under it.
fn rate(l: &Line, r: usize) -> String {
    let i = l.rates[r];
    // The field's pooled rates are the verdicts' reference: no interval.
    let ci = if i.low.is_nan() { String::new() } else { interval(i.low, i.high, pct) };
    format!("<td>{}{ci}</td>", pct(i.estimate))
}

/// A paired mean (a causal impact) with its interval under it, signed, to three decimals.
fn mean(e: &Estimate) -> String {
    let i = e.interval;
    let signed = |x: f64| if x.is_finite() { format!("{x:+.3}") } else { "–".into() };
    let ci = if i.low.is_nan() { String::new() } else { interval(i.low, i.high, signed) };
    format!("<td>{}{ci}</td>", signed(i.estimate))
}

/// One maker's or card's row: name, never counts, each rate, each paired mean, the verdict.
fn row(h: &mut String, f: &Feedback, l: &Line) {
    let name = match l.kind {
        "design" => &l.card,
        "field" => "all designs",
        _ => &l.maker,
    };
    let _ = write!(h, "<tr><td class=l>{}</td><td>{}</td>", esc(name), int(l.cards as i128));
    for n in l.never {
        let _ = write!(h, "<td>{}</td>", int(n as i128));
    }
    if f.causal {
        let _ = write!(h, "<td>{}</td>", int(l.never_changed as i128));
    }
    for r in 0..f.table.rates.len() {
        h.push_str(&rate(l, r));
    }
    for e in &l.means {
        h.push_str(&mean(e));
    }
    let _ = writeln!(h, "<td>{}</td></tr>", l.verdict.replace('_', " "));
}

/// The section.
pub fn section(h: &mut String, run: &RunResult, sweep: &Sweep) {
    if !any(run) {
        return;
    }
    h.push_str("<h2 id=designers>What designers learn</h2>\n");
    let _ = writeln!(
        h,
        "<p class=muted>Per designer and per design: how many designs were never held, held but never kept in a deck, \
         kept but never played, and played but never in a game their holder won; the rates the game records for each \
         design's holders, with 95% intervals over independent units. A design is <i>too strong</i> (<i>too weak</i>) when \
         its interval at 1 &minus; {ALPHA}/m (Bonferroni over the m designs measured) lies above (below) the pooled measure \
         of the designs it is judged against; a designer, against the whole field. Where a causal impact was measured \
         (each design's text removed and its holders' games replayed on the same seeds), its means follow the rates, with \
         95% intervals over independent units, and the verdicts read the first of them; designs whose removal never changed a \
         result are counted apart and get no verdict. designers.csv has every design and \
         names what each rate is.</p>"
    );
    for (i, p) in run.points.iter().enumerate() {
        let Some(f) = feedback(p) else { continue };
        if run.points.len() > 1 {
            let _ = writeln!(h, "<h3>{}</h3>", esc(&sweep.short(i)));
        }
        let own = f.own_observed.map_or("–".into(), |o| format!("{o:.3}"));
        let measure = if f.causal {
            format!("the causal <i>{}</i>", esc(&f.measure))
        } else {
            format!("the observational <i>{}</i> (no causal impact was measured)", esc(&f.measure))
        };
        let _ = writeln!(h, "<p>The verdicts read {measure}.</p>");
        let _ = writeln!(
            h,
            "<p>Own cards per player: expected {:.3} (from the dealing's counts), observed {own}.</p>",
            f.own_expected
        );
        let mut head = String::from(
            "<tr><th class=l>name</th><th>designs</th><th>never held</th><th>never kept</th><th>never played</th><th>played, never won</th>",
        );
        if f.causal {
            head.push_str("<th>never changed a result</th>");
        }
        for (name, _, _) in &f.table.rates {
            let _ = write!(head, "<th>{}</th>", esc(name));
        }
        for m in &f.table.paired {
            let _ = write!(head, "<th>{}</th>", esc(&m.name));
        }
        head.push_str("<th>verdict</th></tr>\n");
        let _ = writeln!(h, "<div class=scroll><table>{head}");
        for l in f.lines.iter().filter(|l| l.kind != "design") {
            row(h, &f, l);
        }
        h.push_str("</table></div>\n");
        let flagged: Vec<&Line> =
            f.lines.iter().filter(|l| l.kind == "design" && !l.verdict.is_empty()).collect();
        let _ = writeln!(
            h,
            "<p>{} of {} designs flagged (Bonferroni z = {:.2}):</p>",
            flagged.len(),
            f.table.keys.len(),
            f.z[0]
        );
        if !flagged.is_empty() {
            let _ = writeln!(h, "<div class=scroll><table>{head}");
            for l in flagged {
                row(h, &f, l);
            }
            h.push_str("</table></div>\n");
        }
    }
}
