//! `effects.svg`: the picture of a sweep's answer. For each metric the question names, what each
//! setting changes (the main effects, then the interactions the answer names), with the paired 95%
//! interval over common deals averaged over the other settings, 0 marked: the setting that decides
//! the question is the row whose bar lies farthest from 0.

use super::forest::{Mark, Panel, Rows, estimate, forest};
use super::palette::{ESTIMATE, GREY, INTERVAL};
use crate::report::RunResult;
use crate::report::effects::{self, Change, Effect};
use crate::report::pivot::word;

/// A change's row in words: the setting and its move (`first draw`, `true → false`).
fn row(game: &str, c: &Change) -> Vec<String> {
    match c {
        Change::Main { key, from, to } => vec![word(game, key), format!("{from} → {to}")],
        Change::Interaction { a, a_to, b, b_to, .. } => {
            vec![format!("{} × {}", word(game, a), word(game, b)), format!("{a_to} with {b_to}")]
        }
    }
}

/// Whether some setting moved metric `m` in some game (a metric no setting ever moved, say a
/// rate that never happened, has no panel: its answer says so).
fn moved(all: &[Effect], m: &str) -> bool {
    all.iter().any(|e| e.metric == m && (e.interval.low != 0.0 || e.interval.high != 0.0))
}

/// The plot, when the run measured effects for the metrics of its question.
pub fn effects(run: &RunResult) -> Option<String> {
    let all = effects::effects(run);
    let game = run.points.first()?.game;
    let metrics: Vec<&str> = run
        .manifest
        .question
        .as_deref()
        .map(|q| q.split(',').map(str::trim).filter(|m| moved(&all, m)).collect())
        .unwrap_or_default();
    if metrics.is_empty() {
        return None;
    }
    // Rows: every change any metric has, main effects first, in the order the effects come.
    let mut changes: Vec<&Change> = Vec::new();
    for main in [true, false] {
        for e in &all {
            let is_main = matches!(e.change, Change::Main { .. });
            // An interaction is drawn only where it matters: its interval leaves out 0.
            let shown = metrics.contains(&e.metric.as_str()) && (is_main || e.clear());
            if is_main == main && shown && !changes.contains(&&e.change) {
                changes.push(&e.change);
            }
        }
    }
    let panels: Vec<Panel> = metrics
        .iter()
        .map(|m| {
            let of: Vec<Option<&Effect>> =
                changes.iter().map(|c| all.iter().find(|e| e.metric == *m && e.change == **c)).collect();
            let rate = of.iter().flatten().next().is_some_and(|e| e.rate);
            let f = if rate { 100.0 } else { 1.0 };
            let marks = of
                .iter()
                .map(|e| match e {
                    Some(e) => vec![Mark {
                        estimate: f * e.interval.estimate,
                        low: f * e.interval.low,
                        high: f * e.interval.high,
                        colour: ESTIMATE,
                        bar: if e.clear() { INTERVAL } else { GREY },
                        thick: 6.0,
                        offset: 0.0,
                    }],
                    None => Vec::new(),
                })
                .collect();
            let values = of
                .iter()
                .map(|e| {
                    e.map_or(String::new(), |e| {
                        estimate(
                            f * e.interval.estimate,
                            f * e.interval.half_width(),
                            if rate { " pt" } else { "" },
                        )
                    })
                })
                .collect();
            let unit = if rate { " (percentage points)" } else { "" };
            Panel {
                title: format!("{}{unit}", word(game, m)),
                marks,
                values,
                percent: false,
                zero: true,
                reference: None,
            }
        })
        .collect();
    let rows = Rows {
        headers: vec!["setting".into(), "change".into()],
        cells: changes.iter().map(|c| row(game, c)).collect(),
        group_cells: 1,
    };
    let notes = vec![
        "What each setting changes, from the rules as written, averaged over the other settings; an \
         interaction is what two settings moved together change beyond the sum of the two. Bar: paired \
         95% interval over common deals (grey where it includes 0); tick: the estimate."
            .to_string(),
    ];
    Some(forest("What each setting changes", &notes, &rows, &panels))
}
