//! `comparisons.svg` (when a baseline is named): each point's difference from its baseline in mean
//! length and in every outcome rate that is not zero at both, with the paired 95% interval (thick,
//! coloured) over the unpaired one (thin, grey).

use super::forest::{Mark, Panel, forest};
use super::palette::{ESTIMATE, GREY, INTERVAL};
use super::unit;
use crate::report::RunResult;
use crate::report::compare::Comparison;
use crate::report::format::fixed;
use crate::report::labels::{Sweep, baseline_words};

fn short(x: f64) -> String {
    let a = x.abs();
    let decimals = if a >= 100.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        3
    };
    fixed(x, decimals)
}

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
        let u = r.unpaired;
        let mut row = vec![Mark {
            estimate: k * u.estimate,
            low: k * u.low,
            high: k * u.high,
            colour: GREY,
            bar: GREY,
            thick: 2.0,
            offset: 5.0,
        }];
        if let Some(p) = r.paired {
            row.push(Mark {
                estimate: k * p.estimate,
                low: k * p.low,
                high: k * p.high,
                colour: ESTIMATE,
                bar: INTERVAL,
                thick: 6.0,
                offset: -3.0,
            });
        }
        marks.push(row);
        let half = r.best().half_width();
        values.push(if r.difference == 0.0 && half == 0.0 {
            "0".into()
        } else {
            format!("{} ±{}", short(k * r.difference), short(k * half))
        });
    }
    let title = if rate {
        format!("Δ {} (points of %)", metric.replace('_', " "))
    } else {
        format!("Δ mean length ({unit})")
    };
    Panel { title, marks, values, percent: false, zero: true }
}
