//! `tournaments.svg`: the picture of a tournament run's answer. One row per point (the dealings
//! and turn orders the run varies), three panels: how often one player finishes first alone
//! (Wilson's interval over tournaments), the winner's games won and how closely the final places
//! follow the pools' strength (Spearman's correlation), each a mean over tournaments with its
//! normal interval. One observation is one tournament.

use super::forest::{Mark, Panel, Rows, estimate, forest};
use super::palette::{ESTIMATE, INTERVAL};
use crate::record::OutcomeKind;
use crate::report::event_answer::{applies, dist_mean};
use crate::report::pivot::named_keys;
use crate::report::{PointResult, RunResult};
use crate::stats::Interval;

fn mark(i: &Interval, f: f64) -> Vec<Mark> {
    vec![Mark {
        estimate: f * i.estimate,
        low: f * i.low,
        high: f * i.high,
        colour: ESTIMATE,
        bar: INTERVAL,
        thick: 6.0,
        offset: 0.0,
    }]
}

/// One panel from each point's interval (`None`: not measured there), scaled by `f`.
/// `far`: the values lie far from 0 (a share near 1, a count of games), so the axis need not hold 0.
fn panel(title: &str, of: &[Option<Interval>], f: f64, unit: &str, far: bool) -> Panel {
    Panel {
        title: title.into(),
        marks: of.iter().map(|i| i.as_ref().map_or(Vec::new(), |i| mark(i, f))).collect(),
        values: of
            .iter()
            .map(|i| i.as_ref().map_or(String::new(), |i| estimate(f * i.estimate, f * i.half_width(), unit)))
            .collect(),
        percent: false,
        zero: !far,
        reference: None,
    }
}

/// The plot, when every point of the run plays tournaments.
pub fn tournaments(run: &RunResult) -> Option<String> {
    if !applies(run) {
        return None;
    }
    let game = run.points[0].game;
    let sweep = super::played_sweep(run);
    let mut rows = super::rows_of(&sweep);
    if !sweep.keys.is_empty() {
        rows.headers = named_keys(game, &sweep).keys;
    }
    let alone: Vec<Option<Interval>> = run.points.iter().map(|p| p.kind_interval(OutcomeKind::Win)).collect();
    let won: Vec<Option<Interval>> = run.points.iter().map(|p| dist_mean(p, "winner_games_won")).collect();
    let rho = |p: &PointResult| dist_mean(p, "strength_place_correlation_permille").map(|i| i.scaled(1000.0));
    let rho: Vec<Option<Interval>> = run.points.iter().map(rho).collect();
    let mut panels = vec![
        panel("first place alone (% of tournaments)", &alone, 100.0, "%", true),
        // The winner's games lie far from 0: an axis from 0 would hide their intervals.
        panel("the winner's games won", &won, 1.0, "", true),
    ];
    if rho.iter().any(Option::is_some) {
        panels.push(panel("strength and place (Spearman)", &rho, 1.0, "", false));
    }
    let notes = vec![
        "One row per point. Bar: 95% interval over tournaments (Wilson's for first place, normal for the \
         means); tick: the estimate. Strength and place: +1 when the strongest pool always finishes first."
            .to_string(),
    ];
    Some(forest(&sweep.title("Each point's tournaments"), &notes, &Rows { group_cells: 1, ..rows }, &panels))
}
