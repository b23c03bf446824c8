//! `impact.svg`: the cards that move their owner's chance to win most and least (a per-card paired
//! mean, `report::paired_means`), one row per card with its paired 95% interval, the most
//! impactful at the top of each point's block and the least at the bottom, 0 marked.

use super::forest::{Mark, Panel, Rows, estimate, forest_wide};
use super::palette::{ESTIMATE, GREY, INTERVAL};
use crate::report::RunResult;
use crate::report::html_cards::ENDS;
use crate::report::paired_means::{ends, ranked_cards};

/// The plot area's width: one panel of many close intervals.
const PLOT_W: f64 = 480.0;

/// The plot, when some point has a per-card paired mean.
pub fn impact(run: &RunResult) -> Option<String> {
    let sweep = super::played_sweep(run);
    let many = run.points.len() > 1;
    // The point's settings that vary, a column each (one long label would be cut), so that a rule
    // parts the points' blocks.
    let point_cols = super::rows_of(&sweep);
    let mut headers: Vec<String> = if many { point_cols.headers.clone() } else { Vec::new() };
    headers.extend(["rank".to_string(), "card".to_string()]);
    let (mut cells, mut marks, mut values) = (Vec::new(), Vec::new(), Vec::new());
    let mut name = String::new();
    for (i, p) in run.points.iter().enumerate() {
        let Some((t, m, rows)) = ranked_cards(p) else { continue };
        name.clone_from(&m.name);
        let (top, bottom) = ends(&rows, ENDS);
        let ranks = (0..top.len()).chain(rows.len() - bottom.len()..rows.len());
        for (rank, (k, e)) in ranks.zip(top.iter().chain(bottom)) {
            let mut row: Vec<String> = if many { point_cols.cells[i].clone() } else { Vec::new() };
            row.extend([(rank + 1).to_string(), t.keys[*k].clone()]);
            cells.push(row);
            let ci = e.interval;
            let bar = if e.clear() { INTERVAL } else { GREY };
            let pt = |x: f64| 100.0 * x;
            marks.push(vec![Mark {
                estimate: pt(ci.estimate),
                low: pt(ci.low),
                high: pt(ci.high),
                colour: ESTIMATE,
                bar,
                thick: 6.0,
                offset: 0.0,
            }]);
            values.push(estimate(pt(ci.estimate), pt(ci.half_width()), " pt"));
        }
    }
    if cells.is_empty() {
        return None;
    }
    let panel = Panel {
        title: format!("{name}: change in the owner's chance to win (percentage points)"),
        marks,
        values,
        percent: false,
        zero: true,
        reference: None,
    };
    let notes = vec![format!(
        "Each card's {name}: its owner's chance to win (a draw counts half) with the card as written minus \
         without its effect, on the same deals, game by game. Bar: paired 95% interval (grey where it \
         includes 0); tick: the estimate. The {ENDS} most and {ENDS} least impactful cards of each point."
    )];
    Some(forest_wide(
        &sweep.title("Card impact"),
        &notes,
        &Rows { headers, cells, group_cells: point_cols.headers.len() },
        &[panel],
        PLOT_W,
    ))
}
