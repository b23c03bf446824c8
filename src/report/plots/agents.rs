//! `agents.svg` (decision games, whose outcomes name a policy): the agents' win-rate heat map.
//! Head to head, rows and columns list the same agents in the same order, so self-play falls on the
//! diagonal; otherwise one row per point and a column per agent. A colour bar gives the scale: red
//! below one half, blue above.

use super::layout::{self, LABEL, MARGIN};
use super::palette::{self, EMPTY, INK, MUTED};
use super::svg::{Anchor, Style, Svg, text_width};
use crate::record::OutcomeKind;
use crate::report::RunResult;
use crate::report::agents::{matrix, policy_wins};
use crate::report::labels::Sweep;
use crate::stats::Interval;

const CELL_W: f64 = 104.0;
const CELL_H: f64 = 50.0;
const RATE: Style = Style::new(14.0).at(Anchor::Middle).bold();
const HALF: Style = Style::new(10.0).at(Anchor::Middle);

/// One cell: wins and games.
type Cell = Option<Interval>;

/// The figure, or `None` when no outcome names a policy.
pub fn agents(run: &RunResult) -> Option<String> {
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let sweep = Sweep::of(&labels);
    let decision = |p: &&crate::report::PointResult| {
        p.layout.outcomes.iter().any(|o| o.kind == OutcomeKind::Win && o.policy.is_some())
    };
    if !run.points.iter().any(|p| decision(&p)) {
        return None;
    }
    let cells = matrix(run);
    if !cells.is_empty() {
        let mut names: Vec<String> = Vec::new();
        for c in &cells {
            for n in [&c.agent, &c.opponent] {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        let grid: Vec<Vec<Cell>> = names
            .iter()
            .map(|a| {
                names
                    .iter()
                    .map(|o| cells.iter().find(|c| &c.agent == a && &c.opponent == o).map(|c| c.interval()))
                    .collect()
            })
            .collect();
        let notes = [
            "Each cell: the share of games the row's agent won against the column's (draws count as games not \
             won), over every point where the two met, ± the 95% half-width (Wilson's, or the ratio \
             estimator's over deal groups when seats rotate). Grey: never met; the \
             diagonal would be an agent against itself."
                .to_string(),
        ];
        let title = sweep.title("Agents' win rates, head to head");
        return Some(heat(&title, &notes, ("agent", "opponent"), &names, &names, &grid));
    }
    // No point had exactly two policies: each point's wins per agent.
    let points: Vec<usize> = (0..run.points.len()).filter(|&i| decision(&&run.points[i])).collect();
    let mut names: Vec<String> = Vec::new();
    let mut grid: Vec<Vec<(String, Interval)>> = Vec::new();
    for &i in &points {
        let wins: Vec<(String, Interval)> =
            policy_wins(&run.points[i]).into_iter().map(|(pol, _, sums)| (pol, sums.rate())).collect();
        for (pol, _) in &wins {
            if !names.contains(pol) {
                names.push(pol.clone());
            }
        }
        grid.push(wins);
    }
    let rows: Vec<String> = points.iter().map(|&i| sweep.short(i)).collect();
    let cells: Vec<Vec<Cell>> = grid
        .iter()
        .map(|wins| names.iter().map(|n| wins.iter().find(|w| &w.0 == n).map(|w| w.1)).collect())
        .collect();
    let notes = ["Each cell: the share of the point's games won by the agent's seats, ± the 95% \
                  half-width (Wilson's over independent games, the ratio estimator's over deal groups \
                  when seats rotate). Grey: the agent did not play at that point."
        .to_string()];
    Some(heat(&sweep.title("Agents' win rates per point"), &notes, ("point", "agent"), &rows, &names, &cells))
}

/// A heat map of win rates with its rows' and columns' names and a colour bar.
fn heat(
    title: &str,
    notes: &[String],
    (row_what, col_what): (&str, &str),
    rows: &[String],
    cols: &[String],
    cells: &[Vec<Cell>],
) -> String {
    let label_w =
        rows.iter().map(|r| text_width(r, LABEL.size)).fold(text_width(row_what, LABEL.size), f64::max)
            + 14.0;
    let col_lines: Vec<Vec<String>> =
        cols.iter().map(|c| layout::wrap(c, CELL_W - 8.0, LABEL.size)).collect();
    let col_h = col_lines.iter().map(Vec::len).max().unwrap_or(1) as f64 * layout::line_height(LABEL.size);
    let grid_w = CELL_W * cols.len() as f64;
    let width = (MARGIN * 2.0 + label_w + grid_w + 90.0).max(560.0);
    let mut svg = Svg::new(width, 0.0);
    let y = layout::header(&mut svg, title, notes);
    let left = MARGIN + label_w;
    // Column names over the grid, what they are above them.
    svg.text(left, y + LABEL.size, &format!("{col_what} →"), LABEL.bold().colour(MUTED));
    let top_names = y + layout::line_height(LABEL.size) + 4.0;
    for (c, lines) in col_lines.iter().enumerate() {
        let cx = left + (c as f64 + 0.5) * CELL_W;
        let styled: Vec<String> = lines.clone();
        for (k, l) in styled.iter().enumerate() {
            svg.text(
                cx,
                top_names + k as f64 * layout::line_height(LABEL.size) + LABEL.size,
                l,
                LABEL.at(Anchor::Middle),
            );
        }
    }
    let top = top_names + col_h + 6.0;
    svg.text(left - 8.0, top - 6.0, &format!("{row_what} ↓"), LABEL.bold().colour(MUTED).at(Anchor::End));
    for (r, name) in rows.iter().enumerate() {
        let cy = top + (r as f64 + 0.5) * CELL_H;
        svg.text_mid(left - 8.0, cy, name, LABEL.at(Anchor::End));
        for (c, cell) in cells[r].iter().enumerate() {
            let (x, y) = (left + c as f64 * CELL_W, top + r as f64 * CELL_H);
            draw_cell(&mut svg, (x, y), *cell, rows.get(r) == cols.get(c));
        }
    }
    let bottom = top + CELL_H * rows.len() as f64;
    colour_bar(&mut svg, left + grid_w + 24.0, top, bottom.max(top + 150.0));
    svg.set_height(bottom.max(top + 150.0) + MARGIN + 6.0);
    svg.finish()
}

fn draw_cell(svg: &mut Svg, (x, y): (f64, f64), cell: Cell, diagonal: bool) {
    let (cx, cy) = (x + CELL_W / 2.0, y + CELL_H / 2.0);
    let Some(ci) = cell.filter(|c| c.units > 0) else {
        svg.rect(x + 1.0, y + 1.0, CELL_W - 2.0, CELL_H - 2.0, EMPTY);
        let what = if diagonal { "self" } else { "–" };
        svg.text_mid(cx, cy, what, HALF.colour(MUTED));
        return;
    };
    let t = ci.estimate;
    svg.rect(x + 1.0, y + 1.0, CELL_W - 2.0, CELL_H - 2.0, &palette::diverging(t));
    let ink = palette::text_on(t);
    svg.text(cx, cy + 1.0, &format!("{:.1}%", 100.0 * t), RATE.colour(ink));
    svg.text(cx, cy + 15.0, &format!("±{:.1}", 100.0 * ci.half_width()), HALF.colour(ink));
}

/// The scale: 100% at the top, 0% at the bottom, ticks every quarter.
fn colour_bar(svg: &mut Svg, x: f64, top: f64, bottom: f64) {
    let steps = 40;
    let h = (bottom - top) / steps as f64;
    for i in 0..steps {
        let t = 1.0 - (i as f64 + 0.5) / steps as f64;
        svg.rect(x, top + i as f64 * h, 14.0, h + 0.5, &palette::diverging(t));
    }
    svg.frame(x, top, 14.0, bottom - top, MUTED);
    for q in 0..=4 {
        let t = q as f64 / 4.0;
        let y = bottom - t * (bottom - top);
        svg.line((x + 14.0, y), (x + 18.0, y), INK, 1.0);
        svg.text_mid(x + 21.0, y, &format!("{}%", 25 * q), Style::new(10.0));
    }
}
