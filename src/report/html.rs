//! `report.html`: one self-contained page a designer can mail — the summary table, the plots (SVG
//! inlined), the outcome and event tables, the comparisons, and the manifest. No scripts, no
//! network, no external files.

use std::fmt::Write as _;

use super::RunResult;
use super::compare::Comparison;
use super::csv_files::{kind_count, outcome_kinds};
use super::plots::Plot;
use crate::stats::{mean_interval, wilson};

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let p = 100.0 * x;
    if p != 0.0 && p.abs() < 0.1 { format!("{p:.3}%") } else { format!("{p:.2}%") }
}

fn num(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

fn interval(lo: f64, hi: f64, fmt: fn(f64) -> String) -> String {
    format!("<span class=ci>[{}, {}]</span>", fmt(lo), fmt(hi))
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1280px;padding:0 16px;color:#222}
h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;margin-top:36px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}
th{background:#f4f4f8;position:sticky;top:0}td.l,th.l{text-align:left}.ci{color:#777;font-size:11px}
.plot{margin:12px 0;overflow-x:auto}.plot svg{max-width:100%;height:auto}.muted{color:#666}
pre{background:#f7f7f7;padding:10px;overflow-x:auto;font-size:12px}nav a{margin-right:14px}";

/// The page.
pub fn page(run: &RunResult, comparisons: &[Comparison], plots: &[Plot]) -> String {
    let m = &run.manifest;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>warsim: {}</title><style>{STYLE}</style></head><body>\n",
        esc(&m.scenario)
    );
    let _ = writeln!(h, "<h1>warsim report: {}</h1>", esc(&m.scenario));
    let _ = writeln!(
        h,
        "<p class=muted>{} games per point, {} points, seed {}, warsim {}{}; {} to {}. Intervals are 95%: Wilson for rates, normal for means.</p>",
        m.games,
        run.points.len(),
        m.seed,
        esc(&m.warsim_version),
        m.git_commit.as_deref().map(|c| format!(" ({})", esc(c))).unwrap_or_default(),
        esc(&m.start_time),
        esc(&m.end_time)
    );
    h.push_str("<nav><a href=#summary>Summary</a><a href=#plots>Plots</a><a href=#outcomes>Outcomes</a><a href=#events>Events</a>");
    if !comparisons.is_empty() {
        h.push_str("<a href=#comparisons>Comparisons</a>");
    }
    h.push_str("<a href=#manifest>Manifest</a></nav>\n");
    summary(&mut h, run);
    if !comparisons.is_empty() {
        comparison_table(&mut h, comparisons);
    }
    h.push_str("<h2 id=plots>Plots</h2>\n");
    for p in plots {
        let svg = p.svg.trim_start();
        let svg = if svg.starts_with("<?xml") { svg.split_once("?>").map_or(svg, |x| x.1) } else { svg };
        let _ =
            writeln!(h, "<h3>{}</h3><div class=plot id=\"plot-{}\">{svg}</div>", esc(&p.title), esc(&p.file));
    }
    outcome_table(&mut h, run);
    event_table(&mut h, run);
    h.push_str("<h2 id=manifest>Manifest</h2>\n<pre>");
    h.push_str(&esc(&serde_json::to_string_pretty(&run.manifest).unwrap_or_default()));
    h.push_str("</pre>\n</body></html>\n");
    h
}

fn summary(h: &mut String, run: &RunResult) {
    let kinds = outcome_kinds(run);
    h.push_str("<h2 id=summary>Summary</h2>\n<table><tr><th class=l>scenario</th><th>games</th><th>unit</th><th>mean length</th><th>sd</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>");
    for k in &kinds {
        let _ = write!(h, "<th>{} rate</th>", k.name());
    }
    h.push_str("</tr>\n");
    for p in &run.points {
        let l = &p.acc.length;
        let ci = mean_interval(l.sum(), l.sum_sq(), l.total());
        let (_, sd) = crate::stats::interval::mean_sd(l.sum(), l.sum_sq(), l.total());
        let q = |x: f64| l.quantile(x).map_or("–".into(), |v| v.to_string());
        let _ = write!(
            h,
            "<tr><td class=l>{}</td><td>{}</td><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            esc(&p.label),
            p.acc.games,
            esc(&p.layout.length_unit),
            num(ci.estimate),
            interval(ci.low, ci.high, num),
            num(sd),
            q(0.5),
            q(0.9),
            q(0.99),
            l.max().map_or("–".into(), |v| v.to_string())
        );
        for &k in &kinds {
            match kind_count(p, k) {
                Some(n) => {
                    let ci = wilson(n, p.acc.games);
                    let _ = write!(h, "<td>{} {}</td>", pct(ci.estimate), interval(ci.low, ci.high, pct));
                }
                None => h.push_str("<td></td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

fn comparison_table(h: &mut String, rows: &[Comparison]) {
    h.push_str("<h2 id=comparisons>Comparisons with the baseline</h2>\n<p class=muted>Difference = point − baseline. The paired interval uses game <i>i</i> of both points (same deal); where the decks differ the pairing does not apply and only the unpaired interval is given. ");
    h.push_str("Rows whose interval excludes 0 are in bold; the width ratio is the paired interval's width over the unpaired one's (below 1: the pairing helps).</p>\n<table><tr><th class=l>scenario</th><th class=l>baseline</th><th class=l>metric</th><th>baseline</th><th>value</th><th>difference</th><th>paired 95%</th><th>unpaired 95%</th><th>width ratio</th><th>pairing</th></tr>\n");
    for r in rows {
        if r.baseline_value == 0.0 && r.value == 0.0 {
            continue;
        }
        let f: fn(f64) -> String = if r.is_rate { pct } else { num };
        let sig = r.best().low > 0.0 || r.best().high < 0.0;
        let paired = r.paired.map_or("–".into(), |i| interval(i.low, i.high, f));
        let ratio = r
            .paired
            .filter(|_| r.unpaired.half_width() > 0.0)
            .map_or("–".into(), |i| format!("{:.2}", i.half_width() / r.unpaired.half_width()));
        let _ = writeln!(
            h,
            "<tr{}><td class=l>{}</td><td class=l>{}</td><td class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if sig { " style=\"font-weight:600\"" } else { "" },
            esc(&r.scenario),
            esc(&r.baseline),
            esc(&r.metric),
            f(r.baseline_value),
            f(r.value),
            f(r.difference),
            paired,
            interval(r.unpaired.low, r.unpaired.high, f),
            ratio,
            r.pairing()
        );
    }
    h.push_str("</table>\n<p class=muted>Metrics equal to 0 at both points are left out; comparisons.csv has every row.</p>\n");
}

fn outcome_table(h: &mut String, run: &RunResult) {
    h.push_str("<h2 id=outcomes>Outcomes</h2>\n<table><tr><th class=l>scenario</th><th class=l>outcome</th><th>seat</th><th class=l>team</th><th class=l>policy</th><th>count</th><th>rate</th><th>95%</th><th class=l>example games</th></tr>\n");
    for p in &run.points {
        for (i, o) in p.layout.outcomes.iter().enumerate() {
            let n = p.acc.outcomes[i];
            let ci = wilson(n, p.acc.games);
            let ex: Vec<String> = p.acc.outcome_examples[i].games().iter().map(|g| g.to_string()).collect();
            let _ = writeln!(
                h,
                "<tr><td class=l>{}</td><td class=l>{}</td><td>{}</td><td class=l>{}</td><td class=l>{}</td><td>{n}</td><td>{}</td><td>{}</td><td class=l>{}</td></tr>",
                esc(&p.label),
                o.kind.name(),
                o.seat.map(|s| s.to_string()).unwrap_or_default(),
                esc(o.team.as_deref().unwrap_or("")),
                esc(o.policy.as_deref().unwrap_or("")),
                pct(ci.estimate),
                interval(ci.low, ci.high, pct),
                ex.join(" ")
            );
        }
    }
    h.push_str("</table>\n");
}

fn event_table(h: &mut String, run: &RunResult) {
    h.push_str("<h2 id=events>Events</h2>\n<table><tr><th class=l>scenario</th><th class=l>event</th><th>total</th><th>mean per game</th><th>95%</th><th>games with</th><th>share of games</th><th>95%</th><th class=l>example games</th></tr>\n");
    for p in &run.points {
        for (name, c) in p.layout.counters.iter().zip(&p.acc.counters) {
            let mean = mean_interval(c.total as i128, c.sum_sq, p.acc.games);
            let share = wilson(c.games_with, p.acc.games);
            let ex: Vec<String> = c.examples.games().iter().map(|g| g.to_string()).collect();
            let _ = writeln!(
                h,
                "<tr><td class=l>{}</td><td class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=l>{}</td></tr>",
                esc(&p.label),
                esc(name),
                c.total,
                num(mean.estimate),
                interval(mean.low, mean.high, num),
                c.games_with,
                pct(share.estimate),
                interval(share.low, share.high, pct),
                ex.join(" ")
            );
        }
    }
    h.push_str("</table>\n");
}
