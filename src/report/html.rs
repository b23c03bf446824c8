//! `report.html`: one self-contained page a designer can mail — the summary table, the plots (SVG
//! inlined), the cards that matter most (`html_cards`), the outcome and event tables, the
//! comparisons, and the manifest. No scripts, no network, no external files.
//!
//! Points are told apart as in the terminal: the words they all share are said once, and each
//! setting that varies has its own column. Wide tables scroll inside their own box, so the page
//! itself fits a 1,400-pixel window.

use std::fmt::Write as _;

use super::RunResult;
use super::compare::Comparison;
use super::csv_files::outcome_kinds;
use super::format::{count, fixed, grouped};
use super::html_cards;
use super::labels::{Sweep, baseline_words};
use super::plots::Plot;
use crate::record::OutcomeKind;
use crate::stats::tracked::Key;

/// Escapes text for HTML, control characters of outside text made visible (`untrusted`).
pub fn esc(s: &str) -> String {
    crate::untrusted::escape(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A setting's value, allowed to wrap after its commas (`greedy,greedy,drawer,…`).
fn value(s: &str) -> String {
    esc(s).replace(',', ",<wbr>")
}

pub(super) fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let p = 100.0 * x;
    if p != 0.0 && p.abs() < 0.1 {
        // Two significant digits: a rare share is never written 0.000%.
        let decimals = (1 - p.abs().log10().floor() as i32).max(0) as usize;
        format!("{p:.decimals$}%")
    } else {
        format!("{p:.2}%")
    }
}

/// A rate's cell content as `format::rate_cells` writes it in the rate's own scale: `56.5%` over
/// `[54.7, 58.3]`, `2.2 in 100,000` over `[1.9, 2.5]`, `none` over `at most 3.7 in 100,000`.
pub(super) fn rate_html(ci: &crate::stats::Interval, trials: u64) -> String {
    use super::format::{RateScale, none_bound, rate_cells};
    if !ci.estimate.is_finite() {
        return "–".into();
    }
    let units = if ci.units > 0 { ci.units } else { trials };
    let scale = RateScale::of(if ci.estimate == 0.0 { none_bound(units) } else { ci.estimate });
    let (est, range) = rate_cells(ci.estimate, ci.low, ci.high, units, scale);
    let (est, range) = match ci.estimate {
        0.0 => (est, format!("at most {}", super::format::at_most(units))),
        1.0 => (est, format!("{range}%")),
        _ => (format!("{est}{}", scale.suffix()), range),
    };
    format!("{}<span class=ci>{}</span>", esc(&est), esc(&range))
}

fn num(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x.abs() >= 100.0 {
        fixed(x, 1)
    } else {
        fixed(x, 3)
    }
}

pub(super) fn int(n: impl Into<i128>) -> String {
    grouped(n.into())
}

/// An interval under its estimate, small and grey.
pub(super) fn interval(lo: f64, hi: f64, fmt: fn(f64) -> String) -> String {
    format!("<span class=ci>[{}, {}]</span>", fmt(lo), fmt(hi))
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1280px;padding:0 16px;color:#222}
h1{font-size:26px;margin-bottom:4px}h2{font-size:20px;margin-top:36px;border-bottom:1px solid #ddd;padding-bottom:4px}
.scroll{overflow-x:auto;max-width:100%;margin:8px 0}
table{border-collapse:collapse;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap;vertical-align:top}
th{background:#f4f4f8}td.l,th.l{text-align:left}td.s{white-space:normal;max-width:16em}th.w{white-space:normal;max-width:11em}tr.first td{border-top:1px solid #bbb}
.ci{display:block;color:#777;font-size:11px}.plot{margin:12px 0;overflow-x:auto}.plot svg{max-width:100%;height:auto}.muted{color:#666}
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
    // The answer first: the scenario's question, one sentence per point, before any table. A run
    // of tournaments is answered as events, and its tournaments table follows at once.
    let event = super::event_answer::answer(run, comparisons);
    let answers = if event.is_some() { Vec::new() } else { super::answer::answers(run) };
    if let Some(a) = &event {
        let _ = writeln!(h, "<section id=answer><h2>The answer</h2>");
        for s in &a.sentences {
            let _ = writeln!(h, "<p>{}</p>", esc(s));
        }
        h.push_str(&shared(&a.sweep, ""));
        h.push_str("<div class=scroll><table><tr>");
        // The settings headed in the game's words (`dealing`, `turn order`).
        let game = run.points.first().map_or("", |p| p.game);
        h.push_str(&setting_headers(&super::pivot::named_keys(game, &a.sweep)));
        for c in &a.columns {
            let _ = write!(h, "<th class=w>{}</th>", esc(&c.header));
        }
        h.push_str("</tr>\n");
        for i in 0..a.sweep.len() {
            h.push_str("<tr>");
            h.push_str(&setting_cells(&a.sweep, i, 1));
            for c in &a.columns {
                let (est, range) = &c.cells[i];
                if range.is_empty() {
                    let _ = write!(h, "<td>{}</td>", esc(est));
                } else {
                    let _ = write!(h, "<td>{}<span class=ci>{}</span></td>", esc(est), esc(range));
                }
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table></div>\n");
        // The answer's picture follows its grid (and is not drawn again among the plots).
        if let Some(p) = plots.iter().find(|p| p.file == super::plots::TOURNAMENTS) {
            plot(&mut h, p);
        }
        h.push_str("</section>\n");
        let sweep = Sweep::of(&run.points.iter().map(|p| p.label.clone()).collect::<Vec<_>>());
        super::html_events::section(&mut h, run, &sweep);
    }
    let metric = if event.is_none() { super::pivot::answer(run) } else { None };
    // The picture made for the answer is drawn with it, not again among the plots.
    let picture = metric
        .as_ref()
        .and_then(|a| a.picture)
        .or(event.as_ref().map(|_| super::plots::TOURNAMENTS))
        .and_then(|f| plots.iter().find(|p| p.file == f));
    if let Some(a) = &metric {
        let _ = writeln!(h, "<section id=answer><h2>The answer</h2>");
        h.push_str(&metric_answer(a, picture));
        let _ = writeln!(h, "</section>");
    } else if !answers.is_empty() {
        let _ = writeln!(h, "<section id=answer><h2>The answer</h2>");
        match super::answer::table(&answers) {
            None => {
                for a in &answers {
                    let _ = writeln!(h, "<p>{}</p>", esc(&a.sentence()));
                }
            }
            Some((sweep, columns)) => {
                let q = m.question.as_deref().unwrap_or_default();
                for line in super::answer::headline(q, &answers).lines() {
                    let _ = writeln!(h, "<p>{}</p>", esc(line));
                }
                h.push_str(&shared(&sweep, ""));
                h.push_str("<div class=scroll><table><tr>");
                h.push_str(&setting_headers(&sweep));
                for c in &columns {
                    let _ = write!(h, "<th class=w>{}</th>", esc(&c.header));
                }
                h.push_str("</tr>\n");
                for i in 0..sweep.len() {
                    h.push_str("<tr>");
                    h.push_str(&setting_cells(&sweep, i, 1));
                    for c in &columns {
                        let (est, range) = &c.cells[i];
                        if range.is_empty() {
                            let _ = write!(h, "<td class=l>{}</td>", esc(est));
                        } else {
                            let _ = write!(h, "<td>{}<span class=ci>{}</span></td>", esc(est), esc(range));
                        }
                    }
                    h.push_str("</tr>\n");
                }
                h.push_str("</table></div>\n");
            }
        }
        let _ = writeln!(h, "</section>");
    }
    let points = run.points.len() as u64;
    let per = if points == 1 { "" } else { " per point" };
    // A run of tournaments counts tournaments, each one independent unit.
    let unit = if event.is_some() { "tournament" } else { "game" };
    let _ = writeln!(
        h,
        "<p class=muted>{}{per}, {}, seed {}, warsim {}{}; {} to {}. Intervals are 95%: over independent {unit}s Wilson for rates and normal for means, over deal groups the ratio estimator (summary.csv names each); a share that never happened is given the exact bound 1 − 0.025<sup>1/n</sup> over its n independent units.</p>",
        count(m.games, unit),
        count(points, "point"),
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
    if html_cards::any(run) {
        h.push_str("<a href=#cards>Cards</a>");
    }
    if super::html_events::any(run) {
        h.push_str("<a href=#tournaments>Tournaments</a>");
    }
    if super::html_makers::any(run) {
        h.push_str("<a href=#designers>Designers</a>");
    }
    h.push_str("<a href=#manifest>Manifest</a></nav>\n");
    let sweep = Sweep::of(&run.points.iter().map(|p| p.label.clone()).collect::<Vec<_>>());
    summary(&mut h, run, &sweep);
    if !comparisons.is_empty() {
        comparison_table(&mut h, &super::event_answer::shown(run, comparisons));
    }
    h.push_str("<h2 id=plots>Plots</h2>\n");
    for p in plots.iter().filter(|p| picture.is_none_or(|x| x.file != p.file)) {
        plot(&mut h, p);
    }
    html_cards::section(&mut h, run, &sweep);
    if event.is_none() {
        super::html_events::section(&mut h, run, &sweep);
    }
    super::html_makers::section(&mut h, run, &sweep);
    outcome_table(&mut h, run, &sweep);
    event_table(&mut h, run, &sweep);
    h.push_str("<h2 id=manifest>Manifest</h2>\n<pre>");
    h.push_str(&esc(&serde_json::to_string_pretty(&run.manifest).unwrap_or_default()));
    h.push_str("</pre>\n</body></html>\n");
    h
}

/// One plot with its title.
fn plot(h: &mut String, p: &Plot) {
    let svg = p.svg.trim_start();
    let svg = if svg.starts_with("<?xml") { svg.split_once("?>").map_or(svg, |x| x.1) } else { svg };
    let _ = writeln!(h, "<h3>{}</h3><div class=plot id=\"plot-{}\">{svg}</div>", esc(&p.title), esc(&p.file));
}

/// A metric question's answer: its sentences, then one grid per metric, the rules as written in
/// bold.
fn metric_answer(a: &super::pivot::MetricAnswer, picture: Option<&Plot>) -> String {
    let mut h = String::new();
    for s in &a.sentences {
        let _ = writeln!(h, "<p>{}</p>", esc(s));
    }
    for (i, p) in a.pivots.iter().enumerate() {
        let _ = write!(h, "<h3>{}</h3><div class=scroll><table><tr>", esc(&p.title));
        for k in &p.row_keys {
            let _ = write!(h, "<th class=l>{}</th>", esc(k));
        }
        for level in &p.col_levels {
            let header = super::pivot::column_header(p, level);
            let _ = write!(h, "<th class=w>{}</th>", esc(&header));
        }
        h.push_str("</tr>\n");
        for (r, (values, cells)) in p.rows.iter().enumerate() {
            h.push_str("<tr>");
            for v in values {
                let _ = write!(h, "<td class=l>{}</td>", value(v));
            }
            for (c, cell) in cells.iter().enumerate() {
                match cell {
                    None => h.push_str("<td>–</td>"),
                    Some((e, range)) => {
                        let (open, close) = if p.marked == Some((r, c)) { ("<b>", "</b>") } else { ("", "") };
                        let _ =
                            write!(h, "<td>{open}{}{close}<span class=ci>{}</span></td>", esc(e), esc(range));
                    }
                }
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table></div>\n");
        if let Some(p) = picture.filter(|_| i == a.picture_after) {
            plot(&mut h, p);
        }
    }
    if a.pivots.iter().any(|p| p.marked.is_some()) {
        let _ = writeln!(h, "<p class=muted>{} (in bold) the rules as written.</p>", super::pivot::MARK);
    }
    h
}

/// Header cells of the settings that vary (one `point` column when nothing does).
/// `sweep` with its keys in the game's words (`dealing`, `turn order`), for headers.
pub(super) fn setting_headers(sweep: &Sweep) -> String {
    if sweep.keys.is_empty() {
        return "<th class=l>point</th>".into();
    }
    sweep.keys.iter().map(|k| format!("<th class=l>{}</th>", esc(k))).collect()
}

/// Point `i`'s cells under `setting_headers`, each spanning `rows` rows.
pub(super) fn setting_cells(sweep: &Sweep, i: usize, rows: usize) -> String {
    let span = if rows > 1 { format!(" rowspan={rows}") } else { String::new() };
    if sweep.keys.is_empty() {
        return format!("<td class=\"l s\"{span}>{}</td>", value(&sweep.short(i)));
    }
    sweep.values[i]
        .iter()
        .map(|v| format!("<td class=\"l s\"{span}>{}</td>", v.as_deref().map_or("–".into(), value)))
        .collect()
}

/// What every point shares, said once above a table.
fn shared(sweep: &Sweep, more: &str) -> String {
    let mut parts = Vec::new();
    if !sweep.common.is_empty() && !sweep.keys.is_empty() {
        parts.push(format!("Every point: <b>{}</b>.", esc(&sweep.common)));
    }
    if !more.is_empty() {
        parts.push(more.to_string());
    }
    if parts.is_empty() { String::new() } else { format!("<p class=muted>{}</p>\n", parts.join(" ")) }
}

fn summary(h: &mut String, run: &RunResult, sweep: &Sweep) {
    let kinds = outcome_kinds(run);
    let same_games = run.points.windows(2).all(|w| w[0].acc.games == w[1].acc.games);
    let mut units: Vec<&str> = run.points.iter().map(|p| p.layout.length_unit.as_str()).collect();
    units.dedup();
    let one_unit = units.len() == 1;
    let mut more = String::new();
    // A tournament's length in slots or turns says nothing a designer asks: its games are fixed by
    // the entrants, in the tournaments section.
    let events = super::event_answer::applies(run);
    if same_games && let Some(p) = run.points.first() {
        let per = if run.points.len() == 1 { "" } else { " per point" };
        let unit = if events { "tournament" } else { "game" };
        more.push_str(&format!("{}{per}.", count(p.acc.games, unit)));
    }
    if one_unit && !events {
        more.push_str(&format!(" Lengths in {}.", esc(units[0])));
    }
    h.push_str("<h2 id=summary>Summary</h2>\n");
    h.push_str(&shared(sweep, more.trim()));
    h.push_str("<div class=scroll><table><tr>");
    h.push_str(&setting_headers(sweep));
    if !same_games {
        h.push_str("<th>games</th>");
    }
    if !one_unit && !events {
        h.push_str("<th>unit</th>");
    }
    if !events {
        h.push_str("<th>mean length</th><th>sd</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>");
    }
    for k in &kinds {
        match k {
            OutcomeKind::Win if events => h.push_str("<th>first place alone</th>"),
            OutcomeKind::Shared if events => h.push_str("<th>first place shared</th>"),
            _ => {
                let _ = write!(h, "<th>{} rate</th>", k.name());
            }
        }
    }
    h.push_str("</tr>\n");
    for (i, p) in run.points.iter().enumerate() {
        let l = &p.acc.length;
        let ci = p.interval(&Key::Length);
        let (_, sd) = crate::stats::interval::mean_sd(l.sum(), l.sum_sq(), l.total());
        let q = |x: f64| l.quantile(x).map_or("–".into(), int);
        h.push_str("<tr>");
        h.push_str(&setting_cells(sweep, i, 1));
        if !same_games {
            let _ = write!(h, "<td>{}</td>", int(p.acc.games));
        }
        if !one_unit && !events {
            let _ = write!(h, "<td>{}</td>", esc(&p.layout.length_unit));
        }
        if !events {
            let _ = write!(
                h,
                "<td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                num(ci.estimate),
                interval(ci.low, ci.high, num),
                num(sd),
                q(0.5),
                q(0.9),
                q(0.99),
                l.max().map_or("–".into(), int)
            );
        }
        for &k in &kinds {
            match p.kind_interval(k) {
                Some(ci) => {
                    let _ = write!(h, "<td>{}</td>", rate_html(&ci, p.acc.games));
                }
                None => h.push_str("<td></td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table></div>\n");
}

fn comparison_table(h: &mut String, rows: &[Comparison]) {
    let rows: Vec<&Comparison> = rows.iter().filter(|r| r.baseline_value != 0.0 || r.value != 0.0).collect();
    let labels: Vec<String> =
        rows.iter().map(|r| r.scenario.clone()).chain(rows.iter().map(|r| r.baseline.clone())).collect();
    let sweep = Sweep::of(&labels);
    h.push_str("<h2 id=comparisons>Comparisons with the baseline</h2>\n<p class=muted>Difference = point − baseline. The paired interval uses game <i>i</i> of both points (same deal); where the decks differ the pairing does not apply and only the unpaired interval is given. ");
    h.push_str("Rows whose interval excludes 0 are in bold; the width ratio is the paired interval's width over the unpaired one's (below 1: the pairing helps).</p>\n");
    h.push_str(&shared(&sweep, ""));
    h.push_str("<div class=scroll><table><tr>");
    h.push_str(&setting_headers(&sweep));
    h.push_str("<th class=l>vs</th><th class=l>metric</th><th>baseline</th><th>value</th><th>difference</th><th>paired 95%</th><th>unpaired 95%</th><th>width ratio</th><th class=l>pairing</th></tr>\n");
    for (i, r) in rows.iter().enumerate() {
        let f: fn(f64) -> String = if r.is_rate { pct } else { num };
        let sig = r.best().low > 0.0 || r.best().high < 0.0;
        let paired = r.paired.map_or("–".into(), |i| interval(i.low, i.high, f));
        let ratio = r
            .paired
            .filter(|_| r.unpaired.half_width() > 0.0)
            .map_or("–".into(), |i| format!("{:.2}", i.half_width() / r.unpaired.half_width()));
        let _ = writeln!(
            h,
            "<tr{}>{}<td class=\"l s\">{}</td><td class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=l>{}</td></tr>",
            if sig { " style=\"font-weight:600\"" } else { "" },
            setting_cells(&sweep, i, 1),
            value(&baseline_words(&r.scenario, &r.baseline)),
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
    h.push_str("</table></div>\n<p class=muted>Metrics equal to 0 at both points are left out; comparisons.csv has every row.</p>\n");
}

fn outcome_table(h: &mut String, run: &RunResult, sweep: &Sweep) {
    // Seat, team and policy columns only when some outcome has one.
    let keys = || run.points.iter().flat_map(|p| &p.layout.outcomes);
    let (seats, teams, policies) = (
        keys().any(|o| o.seat.is_some()),
        keys().any(|o| o.team.is_some()),
        keys().any(|o| o.policy.is_some()),
    );
    h.push_str("<h2 id=outcomes>Outcomes</h2>\n");
    h.push_str(&shared(sweep, ""));
    h.push_str("<div class=scroll><table><tr>");
    h.push_str(&setting_headers(sweep));
    h.push_str("<th class=l>outcome</th>");
    for (on, th) in
        [(seats, "<th>seat</th>"), (teams, "<th class=l>team</th>"), (policies, "<th class=l>policy</th>")]
    {
        if on {
            h.push_str(th);
        }
    }
    h.push_str("<th>count</th><th>rate</th><th class=l>example games</th></tr>\n");
    for (i, p) in run.points.iter().enumerate() {
        for (k, o) in p.layout.outcomes.iter().enumerate() {
            let n = p.acc.outcomes[k];
            let ci = p.interval(&Key::Rows(vec![k as u16]));
            let ex: Vec<String> = p.acc.outcome_examples[k].games().iter().map(|g| g.to_string()).collect();
            let first = k == 0;
            let _ = write!(
                h,
                "<tr{}>{}<td class=l>{}</td>",
                if first { " class=first" } else { "" },
                if first { setting_cells(sweep, i, p.layout.outcomes.len()) } else { String::new() },
                o.kind.name(),
            );
            if seats {
                let _ = write!(h, "<td>{}</td>", o.seat.map(|s| s.to_string()).unwrap_or_default());
            }
            if teams {
                let _ = write!(h, "<td class=l>{}</td>", esc(o.team.as_deref().unwrap_or("")));
            }
            if policies {
                let _ = write!(h, "<td class=l>{}</td>", esc(o.policy.as_deref().unwrap_or("")));
            }
            let _ = writeln!(
                h,
                "<td>{}</td><td>{}</td><td class=l>{}</td></tr>",
                int(n),
                rate_html(&ci, p.acc.games),
                ex.join(" ")
            );
        }
    }
    h.push_str("</table></div>\n");
}

fn event_table(h: &mut String, run: &RunResult, sweep: &Sweep) {
    // Only counters that fired at some point: a row of zeros says nothing the note does not.
    let mut silent: Vec<&str> = Vec::new();
    for p in &run.points {
        for (k, name) in p.layout.events().iter().enumerate() {
            if !silent.contains(&name.as_str()) && !fired(run, name) && !p.layout.is_entrant_counter(k) {
                silent.push(name);
            }
        }
    }
    h.push_str("<h2 id=events>Events</h2>\n");
    let note = match silent.len() {
        0 => String::new(),
        n => format!(
            "{} that never fired at any point {} left out: {} (events.csv has every row).",
            count(n as u64, "counter"),
            if n == 1 { "is" } else { "are" },
            esc(&silent.join(", "))
        ),
    };
    h.push_str(&shared(sweep, &note));
    h.push_str("<div class=scroll><table><tr>");
    h.push_str(&setting_headers(sweep));
    h.push_str("<th class=l>event</th><th>total</th><th>mean per game</th><th>games with</th><th>share of games</th><th class=l>example games</th></tr>\n");
    for (i, p) in run.points.iter().enumerate() {
        let rows: Vec<usize> = (0..p.layout.events().len())
            .filter(|&k| !silent.contains(&p.layout.counters[k].as_str()) && !p.layout.is_entrant_counter(k))
            .collect();
        for (j, &k) in rows.iter().enumerate() {
            let (name, c) = (&p.layout.counters[k], &p.acc.counters[k]);
            let mean = p.interval(&Key::Value(k));
            let share = p.interval(&Key::Fired(k));
            let ex: Vec<String> = c.examples.games().iter().map(|g| g.to_string()).collect();
            let first = j == 0;
            let _ = writeln!(
                h,
                "<tr{}>{}<td class=l>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td class=l>{}</td></tr>",
                if first { " class=first" } else { "" },
                if first { setting_cells(sweep, i, rows.len()) } else { String::new() },
                esc(name),
                int(c.total as i128),
                num(mean.estimate),
                interval(mean.low, mean.high, num),
                int(c.games_with),
                rate_html(&share, p.acc.games),
                ex.join(" ")
            );
        }
    }
    h.push_str("</table></div>\n");
}

/// Whether counter `name` fired in some game of some point.
fn fired(run: &RunResult, name: &str) -> bool {
    run.points.iter().any(|p| {
        p.layout.counters.iter().position(|c| c == name).is_some_and(|k| p.acc.counters[k].total > 0)
    })
}
