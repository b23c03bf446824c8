//! `events.svg`: each event's mean per game per point with its 95% interval, one panel per event
//! that happened at some point (the others are named in a note).

use super::forest::{Mark, Panel, estimate, forest};
use super::palette::{ESTIMATE, INTERVAL};
use super::rows_of;
use crate::report::RunResult;
use crate::report::format::rate_short;

/// Every counter of the run, in order of first appearance.
pub fn counter_names(run: &RunResult) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for p in &run.points {
        for (i, c) in p.layout.events().iter().enumerate() {
            // Per entrant and per pair results are the standings', not events.
            if !names.contains(c) && !p.layout.is_entrant_counter(i) {
                names.push(c.clone());
            }
        }
    }
    names
}

/// The figure, or `None` when no event happened at any point.
pub fn events(run: &RunResult) -> Option<String> {
    let sweep = super::played_sweep(run);
    let mut never = Vec::new();
    let mut panels = Vec::new();
    for name in counter_names(run) {
        let mut marks = Vec::new();
        let mut values = Vec::new();
        let mut fired = false;
        // A counter some share is read from (Cardwars' `first_player_wins`, of decided games) is
        // drawn as that share, as the answer says it, not as a mean over every game.
        let share_of = |p: &crate::report::PointResult, i: usize| {
            p.layout.shares.iter().position(|s| s.counter as usize == i)
        };
        let as_share = run.points.iter().any(|p| {
            p.layout.counters.iter().position(|c| *c == name).is_some_and(|i| share_of(p, i).is_some())
        });
        for p in &run.points {
            let Some(i) = p.layout.counters.iter().position(|c| *c == name) else {
                marks.push(Vec::new());
                values.push("-".into());
                continue;
            };
            let c = &p.acc.counters[i];
            fired |= c.total > 0;
            let key = match share_of(p, i) {
                Some(s) if as_share => crate::stats::tracked::Key::Share(s),
                _ => crate::stats::tracked::Key::Value(i),
            };
            let ci = p.interval(&key);
            let (low, high) = if ci.low.is_finite() { (ci.low, ci.high) } else { (ci.estimate, ci.estimate) };
            let mark = Mark {
                estimate: ci.estimate,
                low,
                high,
                colour: ESTIMATE,
                bar: INTERVAL,
                thick: 6.0,
                offset: 0.0,
            };
            marks.push(vec![mark]);
            let half = ci.half_width();
            // A rare event (less than once in 100 games) as so many in a power of ten per game.
            values.push(if as_share {
                estimate(100.0 * ci.estimate, 100.0 * half, "%")
            } else if ci.estimate < 0.01 {
                rate_short(&ci, p.acc.games)
            } else {
                estimate(ci.estimate, half, "")
            });
        }
        if fired && as_share {
            let of = run.points.iter().flat_map(|p| &p.layout.shares).find(|s| s.name.starts_with(&name));
            let of = of.map_or("decided games".to_string(), |s| s.of_name.replace('_', " "));
            let title = format!("{name}: share of {of}");
            panels.push(Panel { title, marks, values, percent: true, zero: false, reference: Some(0.5) });
        } else if fired {
            panels.push(Panel { title: name, marks, values, percent: false, zero: true, reference: None });
        } else {
            never.push(name);
        }
    }
    if panels.is_empty() {
        return None;
    }
    let mut notes = vec![
        "Mean per game. Bar: 95% interval; tick: the mean. The numbers are the mean ± the interval's half-width; \
         below once in 100 games, so many in a power of ten with the interval, or none with the most it can be."
            .to_string(),
    ];
    if !never.is_empty() {
        notes.push(format!("Never happened: {}.", never.join(", ")));
    }
    Some(forest(&sweep.title("Events per game"), &notes, &rows_of(&sweep), &panels))
}
