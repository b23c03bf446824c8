//! The summary table printed on stdout at the end of a run: one line per scenario point with the
//! headline numbers and their intervals, aligned, within 100 columns.

use super::RunResult;
use super::csv_files::{kind_count, outcome_kinds};
use super::format::real;
use crate::stats::{mean_interval, wilson};

/// Shortens `s` to `n` characters, marking the cut.
fn fit(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let p = 100.0 * x;
    if p != 0.0 && p.abs() < 0.1 { format!("{p:.3}%") } else { format!("{p:.1}%") }
}

pub fn render(run: &RunResult) -> String {
    let kinds = outcome_kinds(run);
    let label_width = run.points.iter().map(|p| p.label.chars().count()).max().unwrap_or(8).clamp(8, 34);
    let mut out = String::new();
    let mut header = format!(
        "{:label_width$}  {:>9}  {:>17}  {:>6}  {:>6}",
        "scenario", "games", "mean length ±95%", "p50", "p99"
    );
    for k in &kinds {
        header.push_str(&format!("  {:>8}", k.name()));
    }
    out.push_str(&header);
    out.push('\n');
    for p in &run.points {
        let h = &p.acc.length;
        let ci = mean_interval(h.sum(), h.sum_sq(), h.total());
        let mean = format!("{} ±{}", fmt_short(ci.estimate), fmt_short(ci.half_width()));
        let mut line = format!(
            "{:label_width$}  {:>9}  {:>17}  {:>6}  {:>6}",
            fit(&p.label, label_width),
            p.acc.games,
            mean,
            h.quantile(0.5).map_or("-".into(), |v| v.to_string()),
            h.quantile(0.99).map_or("-".into(), |v| v.to_string()),
        );
        for &k in &kinds {
            let cell = kind_count(p, k).map_or("".into(), |n| pct(wilson(n, p.acc.games).estimate));
            line.push_str(&format!("  {cell:>8}"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(p) = run.points.first() {
        out.push_str(&format!(
            "length in {}; rates are shares of games; full tables in the output folder\n",
            p.layout.length_unit
        ));
    }
    out
}

fn fmt_short(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x.abs() >= 100.0 { format!("{x:.1}") } else { real((x * 1000.0).round() / 1000.0) }
}
