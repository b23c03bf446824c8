//! The answer first: a scenario's question (`question = "METRIC"`) answered in one sentence per
//! point, with its 95% interval and what a share is a share of, before any table (terminal and
//! `report.html`).

use super::format::grouped;
use super::{PointResult, RunResult};
use crate::record::OutcomeKind;
use crate::stats::Interval;
use crate::stats::metric;
use crate::stats::tracked::Key;

/// The question's value at one point: its interval and the words saying what it is a share of.
fn answer(p: &PointResult, question: &str) -> Option<(Interval, String, bool)> {
    let q = question.trim();
    if let Some(i) =
        p.layout.shares.iter().position(|s| s.name == q || s.name.starts_with(&format!("{q}_of")))
    {
        let share = &p.layout.shares[i];
        let decided = super::csv_files::kind_count(p, share.of).unwrap_or(0);
        let other = p.acc.games - decided;
        let of = if share.of == OutcomeKind::Win {
            format!(
                "of decided games ({} decided, {} capped or stalled)",
                grouped(decided as i128),
                grouped(other as i128)
            )
        } else {
            format!("of {} games ({})", share.of.name(), grouped(decided as i128))
        };
        return Some((p.interval(&Key::Share(i)), of, true));
    }
    let m = metric::resolve(q, &p.layout)?;
    let rate = m.quantity.is_rate();
    let of = if rate {
        format!("of all {} games", grouped(p.acc.games as i128))
    } else {
        // A length is counted in the game's own unit (battles, rounds, turns, slots).
        let unit = if q.starts_with("length") { format!("{} ", p.layout.length_unit) } else { String::new() };
        format!("{unit}over {} games", grouped(p.acc.games as i128))
    };
    Some((p.interval(&m.quantity.key()), of, rate))
}

/// Whether every point of `layouts` can answer `question`.
pub fn answerable(question: &str, layout: &crate::record::Layout) -> bool {
    let q = question.trim();
    layout.shares.iter().any(|s| s.name == q || s.name.starts_with(&format!("{q}_of")))
        || metric::resolve(q, layout).is_some()
}

/// One sentence per point answering the run's question (none without a question).
pub fn sentences(run: &RunResult) -> Vec<String> {
    let Some(q) = run.manifest.question.as_deref() else { return Vec::new() };
    run.points
        .iter()
        .filter_map(|p| {
            let (i, of, rate) = answer(p, q)?;
            let value = if rate {
                format!("{:.1}% [{:.1}, {:.1}]", 100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
            } else {
                format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high)
            };
            Some(format!("{}: {q} {value} {of}", p.label))
        })
        .collect()
}
