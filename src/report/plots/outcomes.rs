//! `outcomes.svg`: each outcome's rate per point with its Wilson 95% interval, one panel per kind
//! of ending that happened (the others are named in a note).

use super::forest::{Mark, Panel, estimate, forest};
use super::palette::{ESTIMATE, INTERVAL};
use super::rows_of;
use crate::record::OutcomeKind;
use crate::report::RunResult;
use crate::report::csv_files::{kind_count, outcome_kinds};
use crate::report::format::rate_short;

pub fn outcomes(run: &RunResult) -> String {
    let sweep = super::played_sweep(run);
    let mut never = Vec::new();
    let mut panels = Vec::new();
    for kind in outcome_kinds(run) {
        if run.points.iter().all(|p| kind_count(p, kind).unwrap_or(0) == 0) {
            never.push(kind.name());
            continue;
        }
        let mut marks = Vec::new();
        let mut values = Vec::new();
        for p in &run.points {
            let Some(ci) = p.kind_interval(kind) else {
                marks.push(Vec::new());
                values.push("not an outcome".into());
                continue;
            };
            let bar = INTERVAL;
            marks.push(vec![Mark {
                estimate: ci.estimate,
                low: ci.low,
                high: ci.high,
                colour: ESTIMATE,
                bar,
                thick: 6.0,
                offset: 0.0,
            }]);
            values.push(if ci.estimate > 0.01 && ci.estimate < 0.99 {
                estimate(100.0 * ci.estimate, 100.0 * ci.half_width(), "%")
            } else {
                // A rare share (or its complement) as so many in a power of ten, none with its bound.
                rate_short(&ci, p.acc.games)
            });
        }
        // Every ending that names a winner is a win: its rate is the share of decided games.
        let title = match kind {
            OutcomeKind::Win => "win rate (decided: some seat won)".to_string(),
            _ => format!("{} rate", kind.name()),
        };
        panels.push(Panel { title, marks, values, percent: true, zero: false, reference: None });
    }
    let mut notes = vec![
        "Share of games ending each way. Bar: Wilson 95% interval; tick: the rate. The numbers are the rate \
         ± the interval's half-width in percentage points (they show an interval too narrow to see); a rate \
         below 1% is written as so many in a power of ten with its interval, and one that never happened \
         with the most it can be."
            .to_string(),
    ];
    if !never.is_empty() {
        notes.push(format!("Never happened: {}.", never.join(", ")));
    }
    forest(&sweep.title("Outcome rates"), &notes, &rows_of(&sweep), &panels)
}
