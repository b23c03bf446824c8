//! `agents.svg` (decision games, whose outcomes name a policy): the agents' win-rate heat map.
//! Head to head, rows and columns list the same agents in the same order, so self-play falls on the
//! diagonal; otherwise one row per point and a column per agent. A colour bar gives the scale: red
//! below one half, blue above.

use super::layout::{self, LABEL, MARGIN};
use super::palette::{self, EMPTY, INK, MUTED};
use super::svg::{Anchor, Style, Svg, text_width};
use crate::record::OutcomeKind;
use crate::report::RunResult;
use crate::report::agents::matrix_of;
use crate::report::labels::Sweep;
use crate::stats::wilson;

const CELL_W: f64 = 104.0;
const CELL_H: f64 = 50.0;
const RATE: Style = Style::new(14.0).at(Anchor::Middle).bold();
const HALF: Style = Style::new(10.0).at(Anchor::Middle);
const PANEL: Style = Style::new(13.0).bold();

/// One cell: wins and games.
type Cell = Option<(u64, u64)>;

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
    // Points that play different setting files (card sets) are different games: a heat map each.
    let mut groups: Vec<(String, Vec<&crate::report::PointResult>)> = Vec::new();
    for p in &run.points {
        let files: Vec<String> = p.settings.files.iter().map(|f| format!("{}={}", f.key, f.path)).collect();
        let title = if files.is_empty() {
            "no setting file (the game's default)".to_string()
        } else {
            files.join(" ")
        };
        match groups.iter_mut().find(|(t, _)| *t == title) {
            Some((_, members)) => members.push(p),
            None => groups.push((title, vec![p])),
        }
    }
    let panels: Vec<Panel> = groups
        .iter()
        .filter_map(|(title, members)| {
            let cells = matrix_of(members);
            (!cells.is_empty()).then(|| head_to_head(if groups.len() > 1 { title } else { "" }, &cells))
        })
        .collect();
    if !panels.is_empty() {
        let notes = [
            "Each cell: the share of games the row's agent won against the column's (draws count as games not \
             won), over every point where the two met, ± the Wilson 95% half-width. Grey: never met; the \
             diagonal would be an agent against itself."
                .to_string(),
        ];
        let title = sweep.title("Agents' win rates, head to head");
        return Some(heat(&title, &notes, ("agent", "opponent"), &panels));
    }
    // No point had exactly two policies: each point's wins per agent.
    let points: Vec<usize> = (0..run.points.len()).filter(|&i| decision(&&run.points[i])).collect();
    let mut names: Vec<String> = Vec::new();
    let mut grid: Vec<Vec<(String, u64)>> = Vec::new();
    for &i in &points {
        let p = &run.points[i];
        let mut wins: Vec<(String, u64)> = Vec::new();
        for (o, &n) in p.layout.outcomes.iter().zip(&p.acc.outcomes) {
            if let (OutcomeKind::Win, Some(pol)) = (o.kind, &o.policy) {
                match wins.iter_mut().find(|w| &w.0 == pol) {
                    Some(w) => w.1 += n,
                    None => wins.push((pol.clone(), n)),
                }
                if !names.contains(pol) {
                    names.push(pol.clone());
                }
            }
        }
        grid.push(wins);
    }
    let rows: Vec<String> = points.iter().map(|&i| sweep.short(i)).collect();
    let cells: Vec<Vec<Cell>> = points
        .iter()
        .zip(&grid)
        .map(|(&i, wins)| {
            let games = run.points[i].acc.games;
            names.iter().map(|n| wins.iter().find(|w| &w.0 == n).map(|w| (w.1, games))).collect()
        })
        .collect();
    let notes = ["Each cell: the share of the point's games won by the agent's seats, ± the Wilson 95% \
                  half-width. Grey: the agent did not play at that point."
        .to_string()];
    let panel = Panel { title: String::new(), rows, cols: names, cells };
    Some(heat(&sweep.title("Agents' win rates per point"), &notes, ("point", "agent"), &[panel]))
}

/// One heat map: its title (empty when it is the figure's only one), rows, columns and cells.
struct Panel {
    title: String,
    rows: Vec<String>,
    cols: Vec<String>,
    cells: Vec<Vec<Cell>>,
}

/// The head-to-head heat map of `cells`: rows and columns the same agents, in order of appearance.
fn head_to_head(title: &str, cells: &[crate::report::agents::Cell]) -> Panel {
    let mut names: Vec<String> = Vec::new();
    for c in cells {
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
                .map(|o| cells.iter().find(|c| &c.agent == a && &c.opponent == o).map(|c| (c.wins, c.games)))
                .collect()
        })
        .collect();
    Panel { title: title.to_string(), rows: names.clone(), cols: names, cells: grid }
}

/// Heat maps of win rates, one under another, each with its rows' and columns' names and a
/// colour bar.
fn heat(title: &str, notes: &[String], what: (&str, &str), panels: &[Panel]) -> String {
    let label_w = |p: &Panel| {
        p.rows.iter().map(|r| text_width(r, LABEL.size)).fold(text_width(what.0, LABEL.size), f64::max) + 14.0
    };
    let width = panels
        .iter()
        .map(|p| (MARGIN * 2.0 + label_w(p) + CELL_W * p.cols.len() as f64 + 90.0).max(560.0))
        .fold(0.0, f64::max);
    let mut svg = Svg::new(width, 0.0);
    let mut y = layout::header(&mut svg, title, notes);
    for p in panels {
        if !p.title.is_empty() {
            svg.text(MARGIN, y + PANEL.size, &p.title, PANEL);
            y += layout::line_height(PANEL.size) + 6.0;
        }
        y = heat_panel(&mut svg, y, label_w(p), what, p) + 24.0;
    }
    svg.set_height(y - 24.0 + MARGIN + 6.0);
    svg.finish()
}

/// Draws one heat map from `y` down; returns where it ends.
fn heat_panel(svg: &mut Svg, y: f64, label_w: f64, (row_what, col_what): (&str, &str), p: &Panel) -> f64 {
    let col_lines: Vec<Vec<String>> =
        p.cols.iter().map(|c| layout::wrap(c, CELL_W - 8.0, LABEL.size)).collect();
    let col_h = col_lines.iter().map(Vec::len).max().unwrap_or(1) as f64 * layout::line_height(LABEL.size);
    let grid_w = CELL_W * p.cols.len() as f64;
    let left = MARGIN + label_w;
    // Column names over the grid, what they are above them.
    svg.text(left, y + LABEL.size, &format!("{col_what} →"), LABEL.bold().colour(MUTED));
    let top_names = y + layout::line_height(LABEL.size) + 4.0;
    for (c, lines) in col_lines.iter().enumerate() {
        let cx = left + (c as f64 + 0.5) * CELL_W;
        for (k, l) in lines.iter().enumerate() {
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
    for (r, name) in p.rows.iter().enumerate() {
        let cy = top + (r as f64 + 0.5) * CELL_H;
        svg.text_mid(left - 8.0, cy, name, LABEL.at(Anchor::End));
        for (c, cell) in p.cells[r].iter().enumerate() {
            let (x, y) = (left + c as f64 * CELL_W, top + r as f64 * CELL_H);
            draw_cell(svg, (x, y), *cell, p.rows.get(r) == p.cols.get(c));
        }
    }
    let bottom = top + CELL_H * p.rows.len() as f64;
    colour_bar(svg, left + grid_w + 24.0, top, bottom.max(top + 150.0));
    bottom.max(top + 150.0)
}

fn draw_cell(svg: &mut Svg, (x, y): (f64, f64), cell: Cell, diagonal: bool) {
    let (cx, cy) = (x + CELL_W / 2.0, y + CELL_H / 2.0);
    let Some((wins, games)) = cell.filter(|c| c.1 > 0) else {
        svg.rect(x + 1.0, y + 1.0, CELL_W - 2.0, CELL_H - 2.0, EMPTY);
        let what = if diagonal { "self" } else { "–" };
        svg.text_mid(cx, cy, what, HALF.colour(MUTED));
        return;
    };
    let ci = wilson(wins, games);
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
