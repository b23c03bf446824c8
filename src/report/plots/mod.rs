//! The pictures of a run, as SVG files in `plots/`, written by a small SVG writer of our own (so
//! the layout, and the room every text takes, is in our hands), designed for sweeps of 1 to 60
//! points:
//!
//! - `lengths.svg`: game-length distributions as lines, in small multiples: a few points share one
//!   panel; a bigger sweep gets a panel per combination of its settings, its setting of fewest
//!   values drawn as coloured lines (`facets`). Each panel has its own scales.
//!   `lengths-log.svg`: the same on a log scale up to the longest game, for heavy tails.
//! - `lengths-by-point.svg`: one histogram per point on its own axis, mean and median marked.
//! - `outcomes.svg`, `events.svg`, `comparisons.svg`: interval rows (`forest`), one row per point
//!   told apart by a table of the settings that vary, one panel per rate, event or difference.
//! - `agents.svg` (decision games): interval rows of each point's line-up result and seat effect,
//!   as shares of the decided games (`agents`).
//! - `effects.svg` (sweeps whose answer measured the settings' effects): what each setting
//!   changes in each metric of the question, with its paired interval (`effects`), the picture
//!   of the answer.
//! - `tournaments.svg` (runs of tournaments): first place alone, the winner's games won and
//!   strength against place per point, the picture of the tournament answer (`tournaments`).
//! - `impact.svg` (points with a per-card impact): the most and least impactful cards, with their
//!   paired intervals (`impact`).
//!
//! Titles and notes wrap, legends sit in their own band, and tick labels are spaced by their
//! estimated width, so no text is clipped or covers another (`tests/plots.rs` checks it).

mod agents;
mod axis;
mod comparisons;
mod effects;
mod events;
mod facets;
pub(crate) mod forest;
mod head_to_head;
mod histograms;
mod impact;
mod layout;
mod lengths;
mod outcomes;
pub(crate) mod palette;
mod svg;
mod tournaments;

use super::RunResult;
use super::compare::Comparison;
use super::labels::Sweep;

/// The picture of a sweep's answer (`effects`).
pub const EFFECTS: &str = "effects.svg";
/// The picture of a tournament run's answer (`tournaments`).
pub const TOURNAMENTS: &str = "tournaments.svg";

/// A plot file: its name in `plots/` and its SVG text.
pub struct Plot {
    pub file: String,
    pub title: String,
    pub svg: String,
}

/// Every plot of a run (and its comparisons, if any).
pub fn plots(run: &RunResult, comparisons: &[Comparison]) -> anyhow::Result<Vec<Plot>> {
    let mut out = Vec::new();
    if run.points.is_empty() {
        return Ok(out);
    }
    let mut add = |file: &str, title: &str, svg: String| {
        out.push(Plot { file: file.into(), title: title.into(), svg });
    };
    add("lengths.svg", "Game length", lengths::lengths(run, false));
    add("lengths-log.svg", "Game length, log scale (tails)", lengths::lengths(run, true));
    add("lengths-by-point.svg", "Game length per scenario point", histograms::lengths_by_point(run));
    add("outcomes.svg", "Outcomes", outcomes::outcomes(run));
    if let Some(svg) = events::events(run) {
        add("events.svg", "Events per game", svg);
    }
    if !comparisons.is_empty() {
        add("comparisons.svg", "Differences from the baseline", comparisons::comparisons(run, comparisons));
    }
    if let Some(svg) = head_to_head::head_to_head(run) {
        add(crate::report::lineups::PICTURE, "Head to head: who beats whom", svg);
    }
    if let Some(svg) = agents::agents(run) {
        add("agents.svg", "Agents: line-ups and the seat effect", svg);
    }
    if let Some(svg) = impact::impact(run) {
        add("impact.svg", "Card impact", svg);
    }
    if let Some(svg) = effects::effects(run) {
        add(EFFECTS, "What each setting changes", svg);
    }
    if let Some(svg) = tournaments::tournaments(run) {
        add(TOURNAMENTS, "Each point's tournaments", svg);
    }
    Ok(out)
}

/// The run's sweep with the settings a point leaves unset filled in with the values it played
/// (its game's defaults), so a legend or a panel title never says "unset" or nothing at all.
fn played_sweep(run: &RunResult) -> Sweep {
    played_sweep_of(&run.points.iter().collect::<Vec<_>>())
}

/// `played_sweep` of some of a run's points.
fn played_sweep_of(points: &[&super::PointResult]) -> Sweep {
    let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
    let mut sweep = Sweep::of(&labels);
    for (values, p) in sweep.values.iter_mut().zip(points) {
        for (value, key) in values.iter_mut().zip(&sweep.keys) {
            if value.is_none() {
                *value = match key.as_str() {
                    "variant" if p.settings.has_variants => Some(p.settings.variant.clone()),
                    _ => p.settings.values.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
                };
            }
        }
    }
    sweep
}

/// The length unit of the run's points (`battles`, or `rounds / turns` for a mixed run).
fn unit(run: &RunResult) -> String {
    let mut units: Vec<&str> = Vec::new();
    for p in &run.points {
        if !units.contains(&p.layout.length_unit.as_str()) {
            units.push(&p.layout.length_unit);
        }
    }
    units.join(" / ")
}

/// The table of a forest plot's rows: a column per setting that varies (`–` where a point leaves it
/// unset), or the points' whole labels when nothing varies.
fn rows_of(sweep: &Sweep) -> forest::Rows {
    if sweep.keys.is_empty() {
        return forest::Rows {
            headers: vec!["point".into()],
            cells: (0..sweep.len()).map(|i| vec![sweep.short(i)]).collect(),
            group_cells: 1,
        };
    }
    let cells = sweep
        .values
        .iter()
        .map(|v| v.iter().map(|x| x.clone().unwrap_or_else(|| "–".into())).collect())
        .collect();
    forest::Rows { headers: sweep.keys.clone(), cells, group_cells: 1 }
}
