//! The pictures of a run, as SVG files in `plots/` (drawn with `plotters`' SVG backend, so no
//! Python or browser is needed):
//!
//! - `lengths.svg`: game-length distributions of every point overlaid (share of games per unit of
//!   length, up to the 99.5th percentile); `lengths-log.svg`: the same on a log scale up to the
//!   longest game, for heavy tails; `lengths-by-point.svg`: one histogram per point, on a shared
//!   axis, with mean and median marked.
//! - `outcomes.svg`: each outcome's rate per point with its Wilson 95% interval.
//! - `events.svg`: each event's mean per game per point with its 95% interval.
//! - `comparisons.svg` (when a baseline is named): differences from the baseline with the paired
//!   (thick) and unpaired (thin) 95% intervals.
//! - `agents.svg` (decision games, whose outcomes name a policy): the agents' win-rate heat map.
//!
//! Points are labelled by what tells them apart: words shared by every label go in the title.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::RunResult;
use super::compare::Comparison;
use super::csv_files::{kind_count, outcome_kinds};
use crate::record::OutcomeKind;
use crate::stats::{Histogram, mean_interval, wilson};

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type R<T> = anyhow::Result<T>;

fn pe<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("cannot draw a plot: {e}")
}

const FONT: &str = "sans-serif";

/// Tableau 10, then darker variants: distinct, colour-blind-friendly first choices.
const PALETTE: [(u8, u8, u8); 14] = [
    (78, 121, 167),
    (242, 142, 43),
    (225, 87, 89),
    (118, 183, 178),
    (89, 161, 79),
    (237, 201, 72),
    (176, 122, 161),
    (255, 157, 167),
    (156, 117, 95),
    (186, 176, 172),
    (31, 70, 120),
    (160, 80, 10),
    (120, 30, 40),
    (40, 100, 60),
];

pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// Splits labels into the words every label shares (for the title) and what tells each apart.
pub fn short_labels(labels: &[String]) -> (String, Vec<String>) {
    let first: Vec<&str> = labels.first().map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let common: Vec<&str> = first
        .iter()
        .copied()
        .filter(|w| labels.iter().all(|l| l.split_whitespace().any(|x| x == *w)))
        .collect();
    let shorts = labels
        .iter()
        .map(|l| {
            let s: Vec<&str> = l.split_whitespace().filter(|w| !common.contains(w)).collect();
            if s.is_empty() { l.clone() } else { s.join(" ") }
        })
        .collect();
    (common.join(" "), shorts)
}

/// A plot file: its name in `plots/` and its SVG text.
pub struct Plot {
    pub file: String,
    pub title: String,
    pub svg: String,
}

/// Every plot of a run (and its comparisons, if any).
pub fn plots(run: &RunResult, comparisons: &[Comparison]) -> R<Vec<Plot>> {
    let mut out = Vec::new();
    if run.points.is_empty() {
        return Ok(out);
    }
    out.push(Plot { file: "lengths.svg".into(), title: "Game length".into(), svg: lengths(run, false)? });
    out.push(Plot {
        file: "lengths-log.svg".into(),
        title: "Game length, log scale (tails)".into(),
        svg: lengths(run, true)?,
    });
    out.push(Plot {
        file: "lengths-by-point.svg".into(),
        title: "Game length per scenario point".into(),
        svg: lengths_by_point(run)?,
    });
    out.push(Plot { file: "outcomes.svg".into(), title: "Outcomes".into(), svg: outcomes(run)? });
    if let Some(svg) = events(run)? {
        out.push(Plot { file: "events.svg".into(), title: "Events per game".into(), svg });
    }
    if !comparisons.is_empty() {
        out.push(Plot {
            file: "comparisons.svg".into(),
            title: "Differences from the baseline".into(),
            svg: comparisons_plot(run, comparisons)?,
        });
    }
    if let Some(svg) = agents(run)? {
        out.push(Plot { file: "agents.svg".into(), title: "Agents' win rates".into(), svg });
    }
    Ok(out)
}

/// A tick label with as many decimals as a span of `span` over about five ticks needs.
pub fn tick(v: f64, span: f64) -> String {
    let step = (span / 5.0).abs().max(1e-12);
    let decimals = (-step.log10().floor()).clamp(0.0, 8.0) as usize;
    let s = format!("{v:.decimals$}");
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') { "0".into() } else { s }
}

/// A tick label on a log axis: `1e-5` for exact powers of ten.
fn log_tick(v: f64) -> String {
    let e = v.log10().round();
    if (v / 10f64.powf(e) - 1.0).abs() < 1e-6 {
        if (-2.0..=2.0).contains(&e) { format!("{}", 10f64.powf(e)) } else { format!("1e{e}") }
    } else {
        format!("{v:.1e}")
    }
}

fn title_of(what: &str, common: &str) -> String {
    if common.is_empty() { what.to_string() } else { format!("{what} — {common}") }
}

fn unit(run: &RunResult) -> String {
    let mut units: Vec<&str> = run.points.iter().map(|p| p.layout.length_unit.as_str()).collect();
    units.dedup();
    units.join(" / ")
}

/// A "nice" bin width (1, 2 or 5 times a power of ten) giving about `bins` bins over `span`.
pub fn bin_width(span: i64, bins: i64) -> i64 {
    let raw = (span.max(1) as f64 / bins as f64).max(1.0);
    let p = 10f64.powf(raw.log10().floor());
    let w = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|w| *w >= raw).unwrap_or(10.0 * p);
    w.round().max(1.0) as i64
}

/// Counts of `h` in bins of `width` starting at `lo`, up to `hi` (inclusive): (bin start, count).
fn binned(h: &Histogram, lo: i64, hi: i64, width: i64) -> Vec<(i64, u64)> {
    let n = ((hi - lo) / width + 1) as usize;
    let mut bins = vec![0u64; n];
    for (v, c) in h.iter() {
        if v >= lo && v <= hi {
            bins[((v - lo) / width) as usize] += c;
        }
    }
    bins.into_iter().enumerate().map(|(i, c)| (lo + i as i64 * width, c)).collect()
}

fn svg_of(size: (u32, u32), draw: impl FnOnce(&Area) -> R<()>) -> R<String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        draw(&root)?;
        root.present().map_err(pe)?;
    }
    Ok(buf)
}

fn lengths(run: &RunResult, log: bool) -> R<String> {
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, shorts) = short_labels(&labels);
    let unit = unit(run);
    let lo = run.points.iter().filter_map(|p| p.acc.length.min()).min().unwrap_or(0);
    let hi = if log {
        run.points.iter().filter_map(|p| p.acc.length.max()).max().unwrap_or(1)
    } else {
        run.points.iter().filter_map(|p| p.acc.length.quantile(0.995)).max().unwrap_or(1)
    };
    let width = bin_width(hi - lo, if log { 120 } else { 80 });
    let lo = lo - lo.rem_euclid(width);
    let series: Vec<Vec<(f64, f64)>> = run
        .points
        .iter()
        .map(|p| {
            let n = p.acc.games.max(1) as f64;
            binned(&p.acc.length, lo, hi, width)
                .into_iter()
                .map(|(x, c)| (x as f64 + width as f64 / 2.0, c as f64 / n / width as f64))
                .filter(|&(_, y)| !log || y > 0.0)
                .collect()
        })
        .collect();
    let ymax = series.iter().flatten().map(|p| p.1).fold(0.0, f64::max).max(1e-12);
    let ymin = series.iter().flatten().map(|p| p.1).filter(|y| *y > 0.0).fold(ymax, f64::min);
    let legend_rows = run.points.len() as u32;
    let height = 480 + if legend_rows > 8 { (legend_rows - 8) * 18 } else { 0 };
    let what = if log { "Game length distribution (log scale)" } else { "Game length distribution" };
    svg_of((960, height), |root| {
        let mut b = ChartBuilder::on(root);
        b.caption(title_of(what, &common), (FONT, 22)).margin(14).x_label_area_size(48).y_label_area_size(80);
        let xr = lo as f64..(hi + width) as f64;
        let ydesc = format!("share of games per {}", unit.trim_end_matches('s'));
        let xdesc = format!("game length ({unit}; bins of {width})");
        macro_rules! draw_lines {
            ($chart:expr) => {{
                let chart = &mut $chart;
                chart
                    .configure_mesh()
                    .x_desc(xdesc.as_str())
                    .y_desc(ydesc.as_str())
                    .label_style((FONT, 14))
                    .axis_desc_style((FONT, 16))
                    .light_line_style(RGBColor(242, 242, 242))
                    .x_label_formatter(&|v| format!("{v:.0}"))
                    .y_label_formatter(&|v| if log { log_tick(*v) } else { tick(*v, ymax) })
                    .draw()
                    .map_err(pe)?;
                for (i, (s, name)) in series.iter().zip(&shorts).enumerate() {
                    let c = colour(i);
                    chart
                        .draw_series(LineSeries::new(s.iter().copied(), c.stroke_width(2)))
                        .map_err(pe)?
                        .label(name.as_str())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(3)));
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperRight)
                    .background_style(WHITE.mix(0.85))
                    .border_style(RGBColor(180, 180, 180))
                    .label_font((FONT, 14))
                    .draw()
                    .map_err(pe)?;
            }};
        }
        if log {
            let mut chart = b.build_cartesian_2d(xr, (ymin / 2.0..ymax * 2.0).log_scale()).map_err(pe)?;
            draw_lines!(chart);
        } else {
            let mut chart = b.build_cartesian_2d(xr, 0.0..ymax * 1.08).map_err(pe)?;
            draw_lines!(chart);
        }
        Ok(())
    })
}

fn grid(n: usize, max_cols: usize) -> (usize, usize) {
    let cols = n.clamp(1, max_cols);
    (n.div_ceil(cols), cols)
}

fn lengths_by_point(run: &RunResult) -> R<String> {
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, shorts) = short_labels(&labels);
    let unit = unit(run);
    let lo = run.points.iter().filter_map(|p| p.acc.length.min()).min().unwrap_or(0);
    let hi = run.points.iter().filter_map(|p| p.acc.length.quantile(0.99)).max().unwrap_or(1);
    let width = bin_width(hi - lo, 50);
    let lo = lo - lo.rem_euclid(width);
    let (rows, cols) = grid(run.points.len(), 3);
    svg_of((330 * cols as u32 + 20, 260 * rows as u32 + 60), |root| {
        let body = root
            .titled(
                &title_of(&format!("Game length per point ({unit}; share of games per bin of {width}; to the 99th percentile)"), &common),
                (FONT, 18),
            )
            .map_err(pe)?;
        for ((i, p), area) in run.points.iter().enumerate().zip(body.split_evenly((rows, cols))) {
            let h = &p.acc.length;
            let n = p.acc.games.max(1) as f64;
            let bins = binned(h, lo, hi, width);
            let ymax = bins.iter().map(|b| b.1 as f64 / n).fold(0.0, f64::max).max(1e-12);
            let mean = mean_interval(h.sum(), h.sum_sq(), h.total()).estimate;
            let median = h.quantile(0.5).unwrap_or(0) as f64;
            let mut chart = ChartBuilder::on(&area)
                .caption(&shorts[i], (FONT, 15))
                .margin(8)
                .x_label_area_size(30)
                .y_label_area_size(46)
                .build_cartesian_2d(lo as f64..(hi + width) as f64, 0.0..ymax * 1.15)
                .map_err(pe)?;
            chart
                .configure_mesh()
                .x_labels(5)
                .y_labels(4)
                .label_style((FONT, 11))
                .light_line_style(RGBColor(240, 240, 240))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
                .draw()
                .map_err(pe)?;
            let c = colour(i);
            chart
                .draw_series(bins.iter().map(|&(x, cnt)| {
                    Rectangle::new(
                        [(x as f64, 0.0), ((x + width) as f64, cnt as f64 / n)],
                        c.mix(0.8).filled(),
                    )
                }))
                .map_err(pe)?;
            for (x, style, text) in [
                (mean, BLACK.stroke_width(2), format!("mean {mean:.0}")),
                (median, RGBColor(90, 90, 90).stroke_width(1), format!("p50 {median:.0}")),
            ] {
                chart
                    .draw_series(std::iter::once(PathElement::new(vec![(x, 0.0), (x, ymax * 1.15)], style)))
                    .map_err(pe)?;
                let _ = text;
            }
            let px = chart.backend_coord(&((hi + width) as f64, ymax * 1.15));
            root.draw(&Text::new(
                format!("mean {mean:.0}, p50 {median:.0}, p99 {}", h.quantile(0.99).unwrap_or(0)),
                (px.0 - 4, px.1 + 4),
                (FONT, 11).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Top)),
            ))
            .map_err(pe)?;
        }
        Ok(())
    })
}

/// One row of a forest panel: estimate and interval, drawn in `colour`.
struct Bar {
    row: usize,
    offset: f64,
    est: f64,
    lo: f64,
    hi: f64,
    colour: RGBColor,
    thick: u32,
}

/// Draws a panel of horizontal interval bars, one row per label, first label at the top.
/// Labels are drawn left of the panel when `show_labels`.
#[allow(clippy::too_many_arguments)]
fn forest(
    root: &Area,
    area: &Area,
    title: &str,
    xdesc: &str,
    labels: &[String],
    bars: &[Bar],
    show_labels: bool,
    label_width: u32,
    zero_line: bool,
    percent: bool,
) -> R<()> {
    let n = labels.len();
    let mut lo = bars.iter().map(|b| b.lo).fold(f64::INFINITY, f64::min);
    let mut hi = bars.iter().map(|b| b.hi).fold(f64::NEG_INFINITY, f64::max);
    if zero_line {
        lo = lo.min(0.0);
    }
    if zero_line {
        hi = hi.max(0.0);
    }
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-9);
    let (lo, hi) = if percent { ((lo - pad).max(0.0), (hi + pad).min(1.0)) } else { (lo - pad, hi + pad) };
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 0.5, hi + 0.5) };
    let span = hi - lo;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 15))
        .margin(8)
        .margin_left(if show_labels { label_width + 8 } else { 8 })
        .x_label_area_size(44)
        .y_label_area_size(4)
        .build_cartesian_2d(lo..hi, -0.5..n as f64 - 0.5)
        .map_err(pe)?;
    chart
        .configure_mesh()
        .x_labels(5)
        .y_labels(0)
        .disable_y_mesh()
        .x_desc(xdesc)
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(RGBColor(235, 235, 235))
        .x_label_formatter(&|v| {
            if percent { format!("{}%", tick(v * 100.0, span * 100.0)) } else { tick(*v, span) }
        })
        .draw()
        .map_err(pe)?;
    let y = |row: usize| (n - 1 - row) as f64;
    for row in 0..n {
        if row % 2 == 0 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(lo, y(row) - 0.5), (hi, y(row) + 0.5)],
                    RGBColor(246, 246, 250).filled(),
                )))
                .map_err(pe)?;
        }
    }
    if zero_line && lo < 0.0 && hi > 0.0 {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
                BLACK.mix(0.6),
            )))
            .map_err(pe)?;
    }
    for b in bars {
        let yy = y(b.row) + b.offset;
        chart
            .draw_series(std::iter::once(ErrorBar::new_horizontal(
                yy,
                b.lo,
                b.est,
                b.hi,
                b.colour.stroke_width(b.thick),
                8,
            )))
            .map_err(pe)?;
        chart
            .draw_series(std::iter::once(Circle::new((b.est, yy), 1 + b.thick as i32, b.colour.filled())))
            .map_err(pe)?;
    }
    if show_labels {
        for (row, l) in labels.iter().enumerate() {
            let p = chart.backend_coord(&(lo, y(row)));
            root.draw(&Text::new(
                l.clone(),
                (p.0 - 10, p.1),
                (FONT, 13).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(pe)?;
        }
    }
    Ok(())
}

fn label_px(labels: &[String]) -> u32 {
    (labels.iter().map(|l| l.chars().count()).max().unwrap_or(8) as u32 * 15 / 2 + 16).clamp(60, 360)
}

/// Panels of forest plots: `panels` of (title, bars), `cols` per row, labels on the first column.
fn panels(
    title: &str,
    xdesc: &[String],
    labels: &[String],
    panels: &[(String, Vec<Bar>)],
    max_cols: usize,
    zero_line: bool,
    percent: bool,
) -> R<String> {
    let (rows, cols) = grid(panels.len(), max_cols);
    let lw = label_px(labels);
    let panel_w = 300u32;
    let panel_h = 90 + 26 * labels.len() as u32;
    svg_of((lw + 16 + panel_w * cols as u32, panel_h * rows as u32 + 50), |root| {
        let body = root.titled(title, (FONT, 20)).map_err(pe)?;
        let xs: Vec<u32> = (1..cols as u32).map(|c| lw + 16 + c * panel_w).collect();
        let ys: Vec<u32> = (1..rows as u32).map(|r| r * panel_h).collect();
        let areas = body.split_by_breakpoints(xs, ys);
        for (k, ((name, bars), area)) in panels.iter().zip(areas).enumerate() {
            forest(root, &area, name, &xdesc[k], labels, bars, k % cols == 0, lw, zero_line, percent)?;
        }
        Ok(())
    })
}

fn outcomes(run: &RunResult) -> R<String> {
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, shorts) = short_labels(&labels);
    let kinds: Vec<OutcomeKind> = outcome_kinds(run);
    let mut never = Vec::new();
    let mut ps = Vec::new();
    let mut xdesc = Vec::new();
    for &k in &kinds {
        let bars: Vec<Bar> = run
            .points
            .iter()
            .enumerate()
            .filter_map(|(row, p)| {
                let n = kind_count(p, k)?;
                let ci = wilson(n, p.acc.games);
                Some(Bar {
                    row,
                    offset: 0.0,
                    est: ci.estimate,
                    lo: ci.low,
                    hi: ci.high,
                    colour: colour(row),
                    thick: 2,
                })
            })
            .collect();
        let total: u64 = run.points.iter().filter_map(|p| kind_count(p, k)).sum();
        if total == 0 {
            never.push(k.name());
            continue;
        }
        ps.push((format!("{} rate", k.name()), bars));
        xdesc.push("share of games, 95% Wilson interval".to_string());
    }
    let mut title = title_of("Outcome rates", &common);
    if !never.is_empty() {
        title.push_str(&format!(" (never happened: {})", never.join(", ")));
    }
    panels(&title, &xdesc, &shorts, &ps, 3, false, true)
}

fn events(run: &RunResult) -> R<Option<String>> {
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, shorts) = short_labels(&labels);
    let mut names: Vec<String> = Vec::new();
    for p in &run.points {
        for c in &p.layout.counters {
            if !names.contains(c) {
                names.push(c.clone());
            }
        }
    }
    let mut ps = Vec::new();
    let mut xdesc = Vec::new();
    let mut never = Vec::new();
    for name in &names {
        let mut bars = Vec::new();
        let mut any = false;
        for (row, p) in run.points.iter().enumerate() {
            let Some(i) = p.layout.counters.iter().position(|c| c == name) else { continue };
            let c = &p.acc.counters[i];
            any |= c.total > 0;
            let ci = mean_interval(c.total as i128, c.sum_sq, p.acc.games);
            let (l, h) = if ci.low.is_finite() { (ci.low, ci.high) } else { (ci.estimate, ci.estimate) };
            bars.push(Bar {
                row,
                offset: 0.0,
                est: ci.estimate,
                lo: l,
                hi: h,
                colour: colour(row),
                thick: 2,
            });
        }
        if any {
            ps.push((name.clone(), bars));
            xdesc.push("mean per game, 95% interval".to_string());
        } else {
            never.push(name.clone());
        }
    }
    if ps.is_empty() {
        return Ok(None);
    }
    let mut title = title_of("Events per game", &common);
    if !never.is_empty() {
        title.push_str(&format!(" (never happened: {})", never.join(", ")));
    }
    panels(&title, &xdesc, &shorts, &ps, 3, false, false).map(Some)
}

/// "point vs baseline", each without the words every point shares, the baseline without the
/// words it shares with the point.
pub fn pair_label(scenario: &str, baseline: &str, common: &[&str]) -> String {
    let sw: Vec<&str> = scenario.split_whitespace().collect();
    let point: Vec<&str> = sw.iter().copied().filter(|w| !common.contains(w)).collect();
    // A baseline word whose key the point also has is shown by its value alone.
    let keys: Vec<&str> = sw.iter().filter_map(|w| w.split_once('=').map(|(k, _)| k)).collect();
    let base: Vec<&str> = baseline
        .split_whitespace()
        .filter(|w| !sw.contains(w))
        .map(|w| match w.split_once('=') {
            Some((k, v)) if keys.contains(&k) => v,
            _ => w,
        })
        .collect();
    let point = if point.is_empty() { scenario.to_string() } else { point.join(" ") };
    let base = if base.is_empty() { baseline.to_string() } else { base.join(" ") };
    format!("{point} vs {base}")
}

fn comparisons_plot(run: &RunResult, rows: &[Comparison]) -> R<String> {
    let all: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, _) = short_labels(&all);
    let common_words: Vec<&str> = common.split_whitespace().collect();
    let mut labels: Vec<String> = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut colours: Vec<RGBColor> = Vec::new();
    for r in rows {
        let key = (r.scenario.clone(), r.baseline.clone());
        if !keys.contains(&key) {
            labels.push(pair_label(&r.scenario, &r.baseline, &common_words));
            colours.push(colour(all.iter().position(|l| *l == r.scenario).unwrap_or(0)));
            keys.push(key);
        }
    }
    let short = labels;
    let mut metrics: Vec<String> = Vec::new();
    for r in rows {
        let headline = r.metric == "length_mean" || (r.metric.ends_with("_rate") && !r.metric.contains(' '));
        let moved = r.baseline_value != 0.0 || r.value != 0.0;
        if headline && moved && !metrics.contains(&r.metric) {
            metrics.push(r.metric.clone());
        }
    }
    let mut ps = Vec::new();
    let mut xdesc = Vec::new();
    for m in &metrics {
        let mut bars = Vec::new();
        let mut rate = false;
        for r in rows.iter().filter(|r| &r.metric == m) {
            let row = keys.iter().position(|k| k.0 == r.scenario && k.1 == r.baseline).unwrap_or(0);
            rate = r.is_rate;
            // Rates in percentage points.
            let k = if rate { 100.0 } else { 1.0 };
            let u = r.unpaired;
            bars.push(Bar {
                row,
                offset: -0.15,
                est: k * u.estimate,
                lo: k * u.low,
                hi: k * u.high,
                colour: RGBColor(160, 160, 160),
                thick: 1,
            });
            if let Some(p) = r.paired {
                bars.push(Bar {
                    row,
                    offset: 0.15,
                    est: k * p.estimate,
                    lo: k * p.low,
                    hi: k * p.high,
                    colour: colours[row],
                    thick: 3,
                });
            }
        }
        ps.push((format!("Δ {m}"), bars));
        xdesc.push(if rate {
            "difference in percentage points".to_string()
        } else {
            format!("difference in mean length ({})", unit(run))
        });
        let _ = rate;
    }
    panels(
        &title_of(
            "Difference from baseline: paired 95% (thick, colour) vs unpaired 95% (thin, grey)",
            &common,
        ),
        &xdesc,
        &short,
        &ps,
        3,
        true,
        false,
    )
}

/// The agents' win-rate matrix: for points with two seats that name policies, the share of games
/// the row agent won against the column agent; otherwise each point's wins per agent.
fn agents(run: &RunResult) -> R<Option<String>> {
    // (row agent, column agent or point label, wins, games)
    let mut cells: Vec<(String, String, u64, u64)> = Vec::new();
    let mut add = |r: String, c: String, w: u64, g: u64| {
        if let Some(cell) = cells.iter_mut().find(|x| x.0 == r && x.1 == c) {
            cell.2 += w;
            cell.3 += g;
        } else {
            cells.push((r, c, w, g));
        }
    };
    let policy_points: Vec<_> = run
        .points
        .iter()
        .filter(|p| p.layout.outcomes.iter().any(|o| o.kind == OutcomeKind::Win && o.policy.is_some()))
        .collect();
    if policy_points.is_empty() {
        return Ok(None);
    }
    let seats = |p: &super::PointResult| -> Vec<(u8, String, u64)> {
        let mut v: Vec<(u8, String, u64)> = Vec::new();
        for (o, &n) in p.layout.outcomes.iter().zip(&p.acc.outcomes) {
            if o.kind == OutcomeKind::Win
                && let (Some(s), Some(pol)) = (o.seat, &o.policy)
            {
                v.push((s, pol.clone(), n));
            }
        }
        v
    };
    // Head to head (two policies per point, seats rotated or not): the shared matrix of
    // `agents.csv`. Otherwise each point's wins per agent.
    let head_to_head = super::agents::matrix(run);
    let (xlabel, ylabel);
    if !head_to_head.is_empty() {
        for c in head_to_head {
            add(c.agent, c.opponent, c.wins, c.games);
        }
        (xlabel, ylabel) = ("opponent", "agent");
    } else {
        let labels: Vec<String> = policy_points.iter().map(|p| p.label.clone()).collect();
        let (_, shorts) = short_labels(&labels);
        for (p, short) in policy_points.iter().zip(shorts) {
            for (_, pol, n) in seats(p) {
                add(pol, short.clone(), n, p.acc.games);
            }
        }
        (xlabel, ylabel) = ("scenario point", "agent (share of games won by its seats)");
    }
    let mut rows: Vec<String> = Vec::new();
    let mut cols: Vec<String> = Vec::new();
    for c in &cells {
        if !rows.contains(&c.0) {
            rows.push(c.0.clone());
        }
        if !cols.contains(&c.1) {
            cols.push(c.1.clone());
        }
    }
    let cw = 130u32;
    let ch = 64u32;
    let lw = label_px(&rows);
    let w = lw + 50 + cw * cols.len() as u32;
    let h = 170 + ch * rows.len() as u32;
    let labels: Vec<String> = run.points.iter().map(|p| p.label.clone()).collect();
    let (common, _) = short_labels(&labels);
    svg_of((w.max(420), h), |root| {
        let body = root.titled(&title_of("Agents' win rates", &common), (FONT, 20)).map_err(pe)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(10)
            .margin_top(36)
            .margin_right(30)
            .margin_left(lw + 10)
            .x_label_area_size(40)
            .build_cartesian_2d(0.0..cols.len() as f64, 0.0..rows.len() as f64)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .x_desc(xlabel)
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(pe)?;
        // Pairings never played stay grey.
        for i in 0..cols.len() {
            for j in 0..rows.len() {
                let (x, y) = (i as f64, j as f64);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y), (x + 1.0, y + 1.0)],
                        RGBColor(238, 238, 238).filled(),
                    )))
                    .map_err(pe)?;
            }
        }
        for (r, c, w, g) in &cells {
            let i = cols.iter().position(|x| x == c).unwrap_or(0) as f64;
            let j = (rows.len() - 1 - rows.iter().position(|x| x == r).unwrap_or(0)) as f64;
            let rate = *w as f64 / (*g).max(1) as f64;
            // White (0) to blue (1), through pale at 0.5.
            let t = rate.clamp(0.0, 1.0);
            let fill =
                RGBColor((255.0 - 200.0 * t) as u8, (255.0 - 140.0 * t) as u8, (255.0 - 60.0 * t) as u8);
            chart
                .draw_series(std::iter::once(Rectangle::new([(i, j), (i + 1.0, j + 1.0)], fill.filled())))
                .map_err(pe)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(i, j), (i + 1.0, j + 1.0)],
                    WHITE.stroke_width(2),
                )))
                .map_err(pe)?;
            let ci = wilson(*w, *g);
            let text_colour = if t > 0.6 { WHITE } else { BLACK };
            let p = chart.backend_coord(&(i + 0.5, j + 0.5));
            root.draw(&Text::new(
                format!("{:.1}%", 100.0 * rate),
                (p.0, p.1 - 7),
                (FONT, 15).into_font().color(&text_colour).pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(pe)?;
            root.draw(&Text::new(
                format!("±{:.1}", 100.0 * ci.half_width()),
                (p.0, p.1 + 10),
                (FONT, 11).into_font().color(&text_colour).pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(pe)?;
        }
        for (k, c) in cols.iter().enumerate() {
            let p = chart.backend_coord(&(k as f64 + 0.5, 0.0));
            root.draw(&Text::new(
                c.clone(),
                (p.0, p.1 + 8),
                (FONT, 13).into_font().color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(pe)?;
        }
        for (k, r) in rows.iter().enumerate() {
            let p = chart.backend_coord(&(0.0, (rows.len() - 1 - k) as f64 + 0.5));
            root.draw(&Text::new(
                r.clone(),
                (p.0 - 8, p.1),
                (FONT, 13).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(pe)?;
        }
        let p = chart.backend_coord(&(0.0, rows.len() as f64));
        root.draw(&Text::new(
            format!("rows: {ylabel}; cells: win rate ±95% half-width"),
            (p.0, p.1 - 10),
            (FONT, 12).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Bottom)),
        ))
        .map_err(pe)?;
        Ok(())
    })
    .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_lose_the_words_every_point_shares() {
        let labels: Vec<String> =
            ["war pickup=shuffled variant=standard", "war pickup=shuffled variant=peace"]
                .map(String::from)
                .to_vec();
        let (common, shorts) = short_labels(&labels);
        assert_eq!(common, "war pickup=shuffled");
        assert_eq!(shorts, ["variant=standard", "variant=peace"]);
        assert_eq!(
            pair_label("war variant=peace players=3", "war variant=standard players=3", &["war"]),
            "variant=peace players=3 vs standard"
        );
    }

    #[test]
    fn nice_bins_and_ticks() {
        assert_eq!(bin_width(1000, 80), 20);
        assert_eq!(bin_width(30, 80), 1);
        assert_eq!(bin_width(3500, 120), 50);
        assert_eq!(tick(0.5, 1.0), "0.5");
        assert_eq!(tick(200.0, 1000.0), "200");
        assert_eq!(tick(1e-17, 0.03), "0");
        assert_eq!(log_tick(1e-5), "1e-5");
        assert_eq!(log_tick(0.01), "0.01");
    }
}
