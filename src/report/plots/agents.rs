//! `agents.svg` (decision games, whose outcomes name a policy): what each line-up of agents gives,
//! one row per point, so points of different card sets, versions or player counts are never pooled.
//! Two panels of shares of the decided games (draws and unfinished games left out, so one half
//! means even): the line-up's first agent's share (against the other agents of the point), and
//! the seat effect, which is all a mirror match (one agent in every seat) can tell: the first
//! player's share where the game declares it (it draws who plays first), else seat 0's.
//! Intervals over deal groups when seats rotate (`report::agents::decided_shares`).

use super::forest::{Mark, Panel, estimate, forest};
use super::palette::{ESTIMATE, INTERVAL};
use crate::record::OutcomeKind;
use crate::report::agents::{DecidedShares, decided_shares};
use crate::report::{PointResult, RunResult};
use crate::stats::Interval;

/// The figure, or `None` when no outcome names a policy.
pub fn agents(run: &RunResult) -> Option<String> {
    // An event's entrants are named like policies, but its standings (`standings.csv`) say more.
    let decision = |p: &PointResult| {
        p.layout.entrants.is_none()
            && p.layout.outcomes.iter().any(|o| o.kind == OutcomeKind::Win && o.policy.is_some())
    };
    let points: Vec<&PointResult> = run.points.iter().filter(|p| decision(p)).collect();
    if points.is_empty() {
        return None;
    }
    let sweep = super::played_sweep_of(&points);
    let shares: Vec<DecidedShares> = points.iter().map(|p| decided_shares(p)).collect();
    // One half is even only where every row has two agents (two seats).
    let two = |n: usize| n == 2;
    let lineup = panel(
        "Line-up: its first agent's share of decided games",
        shares.iter().all(|s| s.agents.len() < 2 || two(s.agents.len())),
        shares.iter().map(|s| match s.agents.as_slice() {
            [] | [_] => (None, "mirror".to_string()),
            [(name, ci), rest @ ..] => {
                let of = if rest.len() > 1 { format!(" (of {})", rest.len() + 1) } else { String::new() };
                (Some(*ci), format!("{name}{of} {}", percent(ci)))
            }
        }),
    );
    let seats = panel(
        "Seat effect: the first player's (else seat 0's) share of decided games",
        shares.iter().all(|s| s.declared.is_some() || s.seats.len() < 2 || two(s.seats.len())),
        shares.iter().map(|s| match (&s.declared, s.seats.first()) {
            (Some((who, ci)), _) => (Some(*ci), format!("{who} {}", percent(ci))),
            (None, Some(ci)) if two(s.seats.len()) => (Some(*ci), format!("seat 0 {}", percent(ci))),
            (None, Some(ci)) if s.seats.len() > 2 => {
                (Some(*ci), format!("seat 0 (of {}) {}", s.seats.len(), percent(ci)))
            }
            _ => (None, "one seat".to_string()),
        }),
    );
    let notes =
        ["Shares of the decided games (draws and unfinished games left out): with two agents or two \
         seats, 50% is even. Line-up: the share won by the seats of the agent named first in \
         `policies`, against the others ('of N' agents: even is 1/N); a mirror match (one agent \
         everywhere) has none. Seat effect: the share won by the first player where the game draws \
         who plays first, else by seat 0, whoever sat there ('of N' seats: even is 1/N). Bar: 95% \
         interval (over deal groups when seats rotate, so each deal counts once); tick: the share."
            .to_string()];
    // Mirror matches only (one agent everywhere): a line-up panel would be empty, so the figure is
    // the seat effect alone.
    if shares.iter().all(|s| s.agents.len() < 2) {
        return Some(forest(
            &sweep.title("Agents: the seat effect of mirror matches"),
            &notes,
            &super::rows_of(&sweep),
            &[seats],
        ));
    }
    Some(forest(
        &sweep.title("Agents: line-ups and the seat effect"),
        &notes,
        &super::rows_of(&sweep),
        &[lineup, seats],
    ))
}

/// A share and its half-width in percent (`54.3% ±2.1`).
fn percent(ci: &Interval) -> String {
    estimate(100.0 * ci.estimate, 100.0 * ci.half_width(), "%")
}

/// A panel of shares: per row an interval (none: no mark) and the words beside it.
/// With `even`, a line marks one half.
fn panel(title: &str, even: bool, rows: impl Iterator<Item = (Option<Interval>, String)>) -> Panel {
    let (mut marks, mut values) = (Vec::new(), Vec::new());
    for (ci, words) in rows {
        let mark = ci.filter(|c| c.estimate.is_finite()).map(|c| Mark {
            estimate: c.estimate,
            low: c.low,
            high: c.high,
            colour: ESTIMATE,
            bar: INTERVAL,
            thick: 6.0,
            offset: 0.0,
        });
        marks.push(mark.into_iter().collect());
        values.push(if ci.is_some_and(|c| !c.estimate.is_finite()) {
            "no decided game".into()
        } else {
            words
        });
    }
    Panel { title: title.into(), marks, values, percent: true, zero: false, reference: even.then_some(0.5) }
}
