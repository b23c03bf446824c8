//! The summary printed on stdout at the end of a run: one line per scenario point with the headline
//! numbers and their 95% intervals, and one line per headline comparison with a baseline, aligned,
//! within 100 columns. Words shared by every point's label are printed once, above the table.

use super::RunResult;
use super::compare::Comparison;
use super::csv_files::{kind_count, outcome_kinds};
use super::plots::{pair_label, short_labels};
use crate::stats::{mean_interval, wilson};

/// The width the tables fit in.
pub const WIDTH: usize = 100;

/// Shortens `s` to `n` characters, marking the cut.
fn fit(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n.saturating_sub(1)).collect::<String>())
    }
}

/// A percentage with enough decimals for its size (no `%` sign: the header has it).
fn pct(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let p = 100.0 * x;
    if p == 0.0 {
        "0".into()
    } else if p.abs() < 0.1 {
        format!("{p:.3}")
    } else if p.abs() < 10.0 {
        format!("{p:.2}")
    } else {
        format!("{p:.1}")
    }
}

fn fmt_short(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let a = x.abs();
    if a >= 1000.0 {
        format!("{x:.0}")
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

pub fn render(run: &RunResult) -> String {
    let (kinds, never): (Vec<_>, Vec<_>) = outcome_kinds(run)
        .into_iter()
        .partition(|&k| run.points.iter().any(|p| kind_count(p, k).is_some_and(|n| n > 0)));
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, shorts) =
        if labels.len() > 1 { short_labels(&labels) } else { (String::new(), labels.clone()) };
    let same_games = run.points.windows(2).all(|w| w[0].acc.games == w[1].acc.games);
    let mut out = String::new();
    if let Some(p) = run.points.first() {
        let mut head = String::new();
        if !common.is_empty() {
            head.push_str(&format!("{common}: "));
        }
        if same_games {
            head.push_str(&format!("{} games per point, ", p.acc.games));
        }
        head.push_str(&format!("length in {}, rates in % of games, ±95% intervals", p.layout.length_unit));
        out.push_str(&fit(&head, WIDTH));
        out.push('\n');
    }
    let games_col = if same_games { 0 } else { 11 };
    let rest = games_col + 2 + 18 + 2 + 6 + 2 + 6 + kinds.len() * 15;
    let longest = shorts.iter().map(|l| l.chars().count()).max().unwrap_or(8).max(5);
    let lw = longest.min(WIDTH.saturating_sub(rest).max(12));
    let mut header = format!("{:lw$}", "point");
    if !same_games {
        header.push_str(&format!("  {:>9}", "games"));
    }
    header.push_str(&format!("  {:>18}  {:>6}  {:>6}", "mean length", "p50", "p99"));
    for k in &kinds {
        header.push_str(&format!("  {:>13}", format!("{} %", k.name())));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for (p, short) in run.points.iter().zip(&shorts) {
        let h = &p.acc.length;
        let ci = mean_interval(h.sum(), h.sum_sq(), h.total());
        let mean = format!("{} ±{}", fmt_short(ci.estimate), fmt_short(ci.half_width()));
        let mut line = format!("{:lw$}", fit(short, lw));
        if !same_games {
            line.push_str(&format!("  {:>9}", p.acc.games));
        }
        line.push_str(&format!(
            "  {:>18}  {:>6}  {:>6}",
            mean,
            h.quantile(0.5).map_or("-".into(), |v| v.to_string()),
            h.quantile(0.99).map_or("-".into(), |v| v.to_string()),
        ));
        for &k in &kinds {
            let cell = kind_count(p, k).map_or(String::new(), |n| {
                let ci = wilson(n, p.acc.games);
                format!("{} ±{}", pct(ci.estimate), pct(ci.half_width()))
            });
            line.push_str(&format!("  {cell:>13}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if !never.is_empty() {
        let names: Vec<&str> = never.iter().map(|k| k.name()).collect();
        out.push_str(&format!("never happened: {}\n", names.join(", ")));
    }
    out
}

/// The headline comparisons (mean length and outcome rates that are not zero at both points).
pub fn render_comparisons(rows: &[Comparison]) -> String {
    let rows: Vec<&Comparison> = rows
        .iter()
        .filter(|r| r.metric == "length_mean" || (r.metric.ends_with("_rate") && !r.metric.contains(' ')))
        .filter(|r| r.baseline_value != 0.0 || r.value != 0.0)
        // Identical in every game (e.g. a win rate of 100% at both points): nothing to read.
        .filter(|r| r.difference != 0.0 || r.best().half_width() > 0.0)
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut all: Vec<String> = rows.iter().map(|r| r.scenario.clone()).collect();
    all.extend(rows.iter().map(|r| r.baseline.clone()));
    let (common, _) = short_labels(&all);
    let common: Vec<&str> = common.split_whitespace().collect();
    let pairs: Vec<String> = rows.iter().map(|r| pair_label(&r.scenario, &r.baseline, &common)).collect();
    let rest = 2 + 11 + 2 + 9 + 2 + 9 + 2 + 9 + 2 + 7;
    let lw = pairs.iter().map(|l| l.chars().count()).max().unwrap_or(8).max(17).min(WIDTH - rest);
    let mut out = String::from(
        "\ndifferences from the baseline (point - baseline; rates in points of %), ±95% intervals:\npaired (game i of both points, same deal) and unpaired (as if from independent runs)\n",
    );
    out.push_str(&format!(
        "{:lw$}  {:11}  {:>9}  {:>9}  {:>9}  {}\n",
        "point vs baseline", "metric", "diff", "paired", "unpaired", "pairing"
    ));
    for (r, label) in rows.iter().zip(&pairs) {
        let f = |x: f64| if r.is_rate { pct(x) } else { fmt_short(x) };
        let paired = r.paired.map_or("-".into(), |i| format!("±{}", f(i.half_width())));
        let metric = r.metric.trim_end_matches("_rate").trim_end_matches("_mean");
        let metric = if r.is_rate { format!("{metric} %") } else { format!("{metric} mean") };
        out.push_str(&format!(
            "{:lw$}  {:11}  {:>9}  {:>9}  {:>9}  {}\n",
            fit(label, lw),
            fit(&metric, 11),
            f(r.difference),
            paired,
            format!("±{}", f(r.unpaired.half_width())),
            r.pairing()
        ));
    }
    out
}
