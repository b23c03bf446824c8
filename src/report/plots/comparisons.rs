//! `comparisons.svg` (when a baseline is named): each point's difference from its baseline in mean
//! length and in every outcome rate that is not zero at both, with the paired 95% interval (thick,
//! coloured) over the unpaired one (thin, grey).

use super::forest::{Mark, Panel, estimate, forest};
use super::palette::{ESTIMATE, GREY, INTERVAL};
use super::unit;
use crate::report::RunResult;
use crate::report::compare::Comparison;
use crate::report::labels::{Sweep, baseline_words};
use crate::stats::Interval;

/// Mean length and outcome rates (not per seat): the comparisons drawn.
fn headline(r: &Comparison) -> bool {
    r.metric == "length_mean" || (r.metric.ends_with("_rate") && !r.metric.contains(' '))
}

pub fn comparisons(run: &RunResult, rows: &[Comparison]) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut metrics: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| headline(r)) {
        let pair = (r.scenario.clone(), r.baseline.clone());
        if !pairs.contains(&pair) {
            pairs.push(pair);
        }
        if (r.baseline_value != 0.0 || r.value != 0.0) && !metrics.contains(&r.metric) {
            metrics.push(r.metric.clone());
        }
    }
    // The table: the settings that vary among all the points named, then the baseline's own words.
    let mut labels: Vec<String> = pairs.iter().map(|p| p.0.clone()).collect();
    labels.extend(pairs.iter().map(|p| p.1.clone()));
    let sweep = Sweep::of(&labels);
    let mut table = super::rows_of(&sweep);
    table.cells.truncate(pairs.len());
    table.headers.push("vs".into());
    for (cells, (point, base)) in table.cells.iter_mut().zip(&pairs) {
        cells.push(baseline_words(point, base));
    }
    let unit = unit(run);
    let panels = metrics.iter().map(|m| panel(m, &pairs, rows, &unit)).collect::<Vec<Panel>>();
    let notes = vec![
        "Difference = point − baseline (rates in percentage points). Thick coloured bar: paired 95% interval \
         (game i of both points, same deal); thin grey bar: unpaired 95% interval (as if from independent \
         runs); tick: the difference. The numbers are the difference ± the paired half-width (unpaired where \
         the deals differ)."
            .to_string(),
    ];
    forest(
        &Sweep::of(&run.points.iter().map(|p| p.label.clone()).collect::<Vec<_>>())
            .title("Differences from the baseline"),
        &notes,
        &table,
        &panels,
    )
}

/// How a mark is drawn: tick colour, bar colour, bar thickness, offset from the row's middle.
type Look = (&'static str, &'static str, f64, f64);
const UNPAIRED: Look = (GREY, GREY, 2.0, 5.0);
const PAIRED: Look = (ESTIMATE, INTERVAL, 6.0, -3.0);

/// Interval `i` times `k` (100 for rates: points of %), drawn as `look`.
fn mark(i: Interval, k: f64, (colour, bar, thick, offset): Look) -> Mark {
    Mark { estimate: k * i.estimate, low: k * i.low, high: k * i.high, colour, bar, thick, offset }
}

fn panel(metric: &str, pairs: &[(String, String)], rows: &[Comparison], unit: &str) -> Panel {
    let mut marks = Vec::new();
    let mut values = Vec::new();
    let mut rate = false;
    for (point, base) in pairs {
        let Some(r) = rows.iter().find(|r| r.metric == metric && &r.scenario == point && &r.baseline == base)
        else {
            marks.push(Vec::new());
            values.push("-".into());
            continue;
        };
        rate = r.is_rate;
        let k = if r.is_rate { 100.0 } else { 1.0 };
        let mut row = vec![mark(r.unpaired, k, UNPAIRED)];
        row.extend(r.paired.map(|p| mark(p, k, PAIRED)));
        marks.push(row);
        let half = r.best().half_width();
        values.push(if r.difference == 0.0 && half == 0.0 {
            "0".into()
        } else {
            estimate(k * r.difference, k * half, "")
        });
    }
    let title = if rate {
        format!("Δ {} (points of %)", metric.replace('_', " "))
    } else {
        format!("Δ mean length ({unit})")
    };
    Panel { title, marks, values, percent: false, zero: true, reference: None }
}
