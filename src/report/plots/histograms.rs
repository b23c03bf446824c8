//! `lengths-by-point.svg`: one game-length histogram per point, each on its own axis up to its 99th
//! percentile, with its mean (solid line) and median (dashed) marked and written out.

use super::axis::{self, Scale};
use super::facets::Facets;
use super::layout::{self, Grid, MARGIN, MAX_WIDTH, PANEL_TITLE, line_height};
use super::lengths::{bin_width, binned};
use super::palette::{self, INK};
use super::svg::{Anchor, Style, Svg};
use crate::report::format::fixed;
use crate::report::{PointResult, RunResult};
use crate::stats::mean_interval;

/// The fewest lengths a histogram's axis spans.
const MIN_SPAN: f64 = 11.0;

/// The line of figures over each histogram.
const STATS: Style = Style::new(11.0).colour(INK);

pub fn lengths_by_point(run: &RunResult) -> String {
    let sweep = super::played_sweep(run);
    // The colours of the line plots, so a point looks the same in both.
    let facets = Facets::of(&sweep);
    let mut colour = vec![palette::INTERVAL; run.points.len()];
    if facets.series.len() > 1 {
        for &(p, s) in facets.panels.iter().flat_map(|f| &f.members) {
            colour[p] = palette::series(s);
        }
    }
    let n = run.points.len();
    let width = if n == 1 { 700.0 } else { MAX_WIDTH };
    let unit = super::unit(run);
    let mut svg = Svg::new(width, 0.0);
    let notes = vec![format!(
        "Bars: % of games in each bin of game length ({unit}), up to the 99th percentile; each panel has its \
         own bins and scales. Solid line: mean; dashed: median (p50)."
    )];
    let y = layout::header(&mut svg, &sweep.title("Game length per point"), &notes);
    let (_, cell_w) = Grid::columns(n, 4, 260.0, width);
    let wrap = |text: &str, size: f64| layout::wrap(text, cell_w - 20.0, size);
    let titles: Vec<Vec<String>> = (0..n).map(|i| wrap(&sweep.short(i), PANEL_TITLE.size)).collect();
    let figures: Vec<Vec<String>> = run.points.iter().map(|p| wrap(&figures(p), STATS.size)).collect();
    let head_h = |panels: std::ops::Range<usize>| {
        let lines = |v: &[Vec<String>]| v.iter().map(Vec::len).max().unwrap_or(1) as f64;
        lines(&titles[panels.clone()]) * line_height(PANEL_TITLE.size)
            + lines(&figures[panels]) * line_height(STATS.size)
    };
    let plot_h = if n == 1 { 300.0 } else { 150.0 };
    let grid = Grid::new(n, 4, 260.0, width, y, |r| head_h(r) + plot_h + 46.0);
    for (i, p) in run.points.iter().enumerate() {
        let (x0, y0, row_h) = grid.cell(i);
        let below = layout::lines(&mut svg, x0 + 4.0, y0, &titles[i], PANEL_TITLE);
        layout::lines(&mut svg, x0 + 4.0, below, &figures[i], STATS);
        let bottom = y0 + row_h - 36.0;
        let bins = if n == 1 { 60 } else { 30 };
        histogram(&mut svg, p, colour[i], bins, (x0, bottom - plot_h, x0 + cell_w - 16.0, bottom));
    }
    svg.set_height(grid.bottom() + MARGIN);
    svg.finish()
}

/// The bins of `p`'s histogram: first length, last length and width.
fn bins_of(p: &PointResult, bins: i64) -> (i64, i64, i64) {
    let h = &p.acc.length;
    let lo = h.min().unwrap_or(0);
    let hi = h.quantile(0.99).unwrap_or(1).max(lo);
    let width = bin_width(hi - lo + 1, bins);
    (lo - lo.rem_euclid(width), hi, width)
}

/// The figures written over `p`'s histogram.
fn figures(p: &PointResult) -> String {
    let h = &p.acc.length;
    let mean = mean_interval(h.sum(), h.sum_sq(), h.total()).estimate;
    let q = |v: Option<i64>| v.map_or("-".into(), |v| fixed(v as f64, 0));
    format!("mean {} · p50 {} · p99 {}", fixed(mean, 1), q(h.quantile(0.5)), q(h.quantile(0.99)))
}

/// Draws `p`'s histogram in `area` (left, top, right, bottom).
fn histogram(svg: &mut Svg, p: &PointResult, colour: &'static str, bins: i64, area: (f64, f64, f64, f64)) {
    let h = &p.acc.length;
    let games = p.acc.games.max(1) as f64;
    let (lo, hi, width) = bins_of(p, bins);
    let bins = binned(h, lo, hi, width);
    let ymax = bins.iter().map(|b| b.1 as f64 / games).fold(0.0, f64::max).max(1e-12) * 1.08;
    let (left, top, right, bottom) = area;
    let yticks =
        axis::fitted(0.0, ymax, bottom - top, ((bottom - top) / 40.0) as usize, false, &axis::percent, 0.0);
    let left = left + axis::label_width(&yticks) + 8.0;
    // Bins of one length are centred on it, so its tick sits under its bar.
    let shift = if width == 1 { -0.5 } else { 0.0 };
    let (mut x_lo, mut x_hi) = (lo as f64 + shift, (hi + width) as f64 + shift);
    // A handful of lengths gets room around it, so one length is a bar, not the whole panel.
    let room = (MIN_SPAN - (x_hi - x_lo)).max(0.0) / 2.0;
    (x_lo, x_hi) = ((x_lo - room).max(shift), x_hi + room);
    let x = Scale::linear(x_lo, x_hi, left, right);
    let y = Scale::linear(0.0, ymax, bottom, top);
    let xticks = axis::whole(x_lo, x_hi, right - left, 5);
    axis::y_grid(svg, &y, left, right, &yticks);
    for &(start, count) in &bins {
        let (a, b) = (x.at(start as f64 + shift), x.at((start + width) as f64 + shift));
        let top = y.at(count as f64 / games);
        svg.rect(a, top, (b - a - 0.6).max(0.6), bottom - top, colour);
    }
    axis::x_axis(svg, &x, bottom, &xticks, (left - 8.0, right + 12.0));
    let mean = mean_interval(h.sum(), h.sum_sq(), h.total()).estimate;
    let median = h.quantile(0.5).unwrap_or(0) as f64;
    svg.line((x.at(mean), top), (x.at(mean), bottom), INK, 1.6);
    svg.dashed((x.at(median), top), (x.at(median), bottom), INK, 1.2);
    if width > 1 {
        let note = format!("bins of {width}");
        svg.text(
            right,
            bottom + 2.0 * axis::TICK.size + 10.0,
            &note,
            axis::TICK.at(Anchor::End).colour(palette::MUTED),
        );
    }
}
