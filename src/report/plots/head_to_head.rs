//! `head-to-head.svg`, the picture of the "who wins" answer (`report::lineups`): one row per
//! pairing of two policies, said from the side ahead, with its share of the decided games and the
//! 95% interval; one half (even) marked, so a bar that crosses it is a pairing without a winner.

use super::forest::{Mark, Panel, Rows, estimate, forest};
use super::palette::{ESTIMATE, GREY, INTERVAL};
use crate::report::RunResult;
use crate::report::lineups::pairings;

/// The plot, when some point pits two policies against each other.
pub fn head_to_head(run: &RunResult) -> Option<String> {
    let (keys, all) = pairings(run);
    if all.is_empty() {
        return None;
    }
    let mut headers = keys.clone();
    headers.extend(["ahead".to_string(), "against".to_string()]);
    let cells = all
        .iter()
        .map(|p| {
            let mut row = p.ctx.clone();
            row.extend([p.a.clone(), p.b.clone()]);
            row
        })
        .collect();
    let pct = |x: f64| x;
    let marks = all
        .iter()
        .map(|p| {
            let i = p.share;
            let bar = if i.low > 0.5 { INTERVAL } else { GREY };
            vec![Mark {
                estimate: pct(i.estimate),
                low: pct(i.low),
                high: pct(i.high),
                colour: ESTIMATE,
                bar,
                thick: 6.0,
                offset: 0.0,
            }]
        })
        .collect();
    let values =
        all.iter().map(|p| estimate(100.0 * p.share.estimate, 100.0 * p.share.half_width(), "%")).collect();
    let panel = Panel {
        title: "The side ahead's share of the decided games".into(),
        marks,
        values,
        percent: true,
        zero: false,
        reference: Some(0.5),
    };
    let notes = vec![
        "Each pairing of two policies, said from the side that won more of the decided games (draws and \
         unfinished games left out, so 50% is even). Bar: 95% interval (over deal groups when seats \
         rotate), grey where it holds 50%: no winner detected; tick: the share."
            .to_string(),
    ];
    let rows = Rows { headers, cells, group_cells: keys.len() };
    Some(forest("Head to head: who beats whom", &notes, &rows, &[panel]))
}
