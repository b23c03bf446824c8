//! Interval rows ("forest plots"): one row per scenario point, told apart by a table of the settings
//! that vary on the left; one panel per quantity (an outcome's rate, an event's mean, a difference)
//! with each row's 95% interval as a bar and its estimate as a tick on it, and the numbers written
//! out right of the panel, so an interval narrower than its tick still shows. Panels that do not fit
//! beside the table go into further bands below, each with the table again.

use super::axis::{self, Scale};
use super::layout::{self, LABEL, MARGIN, MAX_WIDTH, PANEL_TITLE, line_height};
use super::palette::{BAND, INK, MUTED, RULE};
use super::svg::{Anchor, Svg, text_width};
use crate::report::format::fixed;

/// One interval on a row.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// The estimate's tick.
    pub colour: &'static str,
    /// The interval's bar.
    pub bar: &'static str,
    /// The bar's thickness in pixels.
    pub thick: f64,
    /// Pixels above (negative) or below the row's middle, for two marks on a row.
    pub offset: f64,
}

/// One quantity: a mark or two per row and the numbers written beside the panel.
pub struct Panel {
    pub title: String,
    pub marks: Vec<Vec<Mark>>,
    pub values: Vec<String>,
    /// A share, drawn in percent within 0..1.
    pub percent: bool,
    /// The axis includes 0, drawn as a darker line (for means of counts and for differences).
    pub zero: bool,
    /// A value drawn as a darker line, where the quantity is even (one half for a share of two).
    pub reference: Option<f64>,
}

/// The table telling the rows apart: its column headers and each row's cells.
pub struct Rows {
    pub headers: Vec<String>,
    pub cells: Vec<Vec<String>>,
    /// How many leading cells name a row's group: a rule goes where they change.
    pub group_cells: usize,
}

impl Rows {
    /// A rule goes above row `r` when its group's cells differ from the row above's.
    fn starts_group(&self, r: usize) -> bool {
        let group = |row: &Vec<String>| row.iter().take(self.group_cells.max(1)).cloned().collect::<Vec<_>>();
        r > 0 && group(&self.cells[r]) != group(&self.cells[r - 1])
    }
}

const PLOT_MIN: f64 = 160.0;
const GAP: f64 = 22.0;
/// The widest a column of the table gets; a longer cell is replaced by a key (`[1]`) that a note
/// above the figure spells out (`keyed`), never cut.
const CELL_MAX: f64 = 300.0;

/// The span of a panel's axis: its marks with some room, within 0..1 for shares, at least a
/// percentage point wide for shares and never empty.
fn span(p: &Panel) -> (f64, f64) {
    let marks = p.marks.iter().flatten();
    let finite = |x: f64| x.is_finite();
    let mut lo = marks.clone().map(|m| m.low).filter(|x| finite(*x)).fold(f64::INFINITY, f64::min);
    let mut hi = marks.map(|m| m.high).filter(|x| finite(*x)).fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if p.zero {
        (lo, hi) = (lo.min(0.0), hi.max(0.0));
    }
    let min_span = if p.percent { 0.01 } else { (hi.abs().max(lo.abs()) * 0.02).max(1e-9) };
    if hi - lo < min_span {
        let mid = (hi + lo) / 2.0;
        (lo, hi) = (mid - min_span / 2.0, mid + min_span / 2.0);
    }
    let pad = (hi - lo) * 0.06;
    let (mut lo, mut hi) = (lo - pad, hi + pad);
    if p.percent {
        // Slide the window back inside 0..100% rather than cut it.
        let (down, up) = ((hi - 1.0).max(0.0), (-lo).max(0.0));
        (lo, hi) = ((lo - down + up).max(0.0), (hi - down + up).min(1.0));
    }
    if p.zero && lo >= -pad && lo < 0.0 && p.marks.iter().flatten().all(|m| m.low >= 0.0) {
        lo = 0.0;
    }
    (lo, hi)
}

/// Decimals that give `x` its first `figures` significant figures.
fn places(x: f64, figures: i32) -> usize {
    if x == 0.0 || !x.is_finite() {
        0
    } else {
        (figures - 1 - x.abs().log10().floor() as i32).clamp(0, 8) as usize
    }
}

/// An estimate and its 95% half-width as written beside a panel: the half-width to two significant
/// figures and the estimate to the same decimal place (`27.03 ±0.35`, `0.00033 ±0.00065`,
/// `205 ±14`); `unit` follows the estimate (`%`). Without a half-width, three significant figures.
pub fn estimate(est: f64, half: f64, unit: &str) -> String {
    if !est.is_finite() {
        return "-".into();
    }
    if !(half.is_finite() && half > 0.0) {
        return format!("{}{unit}", fixed(est, places(est, 3)));
    }
    let d = places(half, 2);
    format!("{}{unit} ±{}", fixed(est, d), fixed(half, d))
}

/// `text` cut in the middle to fit `width` pixels at `size`.
fn fit(text: &str, width: f64, size: f64) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut keep = chars.len();
    while keep > 2 {
        keep -= 1;
        let (head, tail) = (keep - keep / 2, keep / 2);
        let s: String =
            chars[..head].iter().chain(['…'].iter()).chain(chars[chars.len() - tail..].iter()).collect();
        if text_width(&s, size) <= width {
            return s;
        }
    }
    chars.iter().take(1).collect()
}

/// `rows` with every cell wider than `CELL_MAX` replaced by a key (`[1]`, `[2]`, ... in order of
/// first appearance, one per distinct text), and the note that spells the keys out.
fn keyed(rows: &Rows) -> (Rows, Option<String>) {
    let mut keys: Vec<String> = Vec::new();
    let cells = rows
        .cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| {
                    if text_width(cell, LABEL.size) <= CELL_MAX {
                        return cell.clone();
                    }
                    let k = keys.iter().position(|x| x == cell).unwrap_or_else(|| {
                        keys.push(cell.clone());
                        keys.len() - 1
                    });
                    format!("[{}]", k + 1)
                })
                .collect()
        })
        .collect();
    let note = (!keys.is_empty()).then(|| {
        let spelled: Vec<String> = keys.iter().enumerate().map(|(k, t)| format!("[{}] {t}", k + 1)).collect();
        format!("Key: {}.", spelled.join("; "))
    });
    (Rows { headers: rows.headers.clone(), cells, group_cells: rows.group_cells }, note)
}

/// The figure: `title`, `notes`, the rows' table and the panels in as many bands as they need.
pub fn forest(title: &str, notes: &[String], rows: &Rows, panels: &[Panel]) -> String {
    forest_wide(title, notes, rows, panels, PLOT_MIN + 70.0)
}

/// `forest` with each panel's plot area `plot_w` pixels wide where the page allows (a single panel
/// of many close intervals needs room to tell them apart).
pub fn forest_wide(title: &str, notes: &[String], rows: &Rows, panels: &[Panel], plot_w: f64) -> String {
    let (keyed_rows, key) = keyed(rows);
    let rows = &keyed_rows;
    let mut notes = notes.to_vec();
    notes.extend(key);
    let notes = &notes[..];
    let n = rows.cells.len();
    let row_h = if n > 20 { 18.0 } else { 22.0 };
    let col_w: Vec<f64> = (0..rows.headers.len())
        .map(|c| {
            let cells = rows.cells.iter().map(|r| text_width(&r[c], LABEL.size));
            let w = cells.fold(text_width(&rows.headers[c], LABEL.size), f64::max);
            w.min(CELL_MAX) + 14.0
        })
        .collect();
    let table_w: f64 = col_w.iter().sum();
    let value_w = |p: &Panel| p.values.iter().map(|v| text_width(v, LABEL.size)).fold(0.0, f64::max) + 10.0;
    let widest_value = panels.iter().map(value_w).fold(0.0, f64::max);
    let room = MAX_WIDTH - 2.0 * MARGIN - table_w;
    let per_band = ((room / (PLOT_MIN + widest_value + GAP)).floor() as usize).clamp(1, panels.len().max(1));
    let wanted = table_w + per_band as f64 * (plot_w + widest_value + GAP) + 2.0 * MARGIN;
    let width = wanted.clamp(560.0, MAX_WIDTH.max(table_w + PLOT_MIN + widest_value + GAP + 2.0 * MARGIN));
    let panel_w = (width - 2.0 * MARGIN - table_w) / per_band as f64;
    let title_lines = panels
        .iter()
        // The width `draw_panel` wraps in (from 6 pixels in to the gap), so the lines counted here
        // are the lines drawn there.
        .map(|p| layout::wrap(&p.title, panel_w - GAP - 6.0, PANEL_TITLE.size).len())
        .max()
        .unwrap_or(1);
    let head_h = line_height(PANEL_TITLE.size) * title_lines as f64 + 4.0;

    let mut svg = Svg::new(width, 0.0);
    let mut y = layout::header(&mut svg, title, notes);
    for band in panels.chunks(per_band) {
        let top = y + head_h;
        let bottom = top + n as f64 * row_h;
        draw_table(&mut svg, rows, &col_w, top, row_h, width - MARGIN);
        for (k, p) in band.iter().enumerate() {
            let x0 = MARGIN + table_w + k as f64 * panel_w;
            draw_panel(&mut svg, p, x0 + 6.0, x0 + panel_w - GAP, y, top, row_h, head_h);
        }
        for r in (1..n).filter(|&r| rows.starts_group(r)) {
            let ry = top + r as f64 * row_h;
            svg.line((MARGIN, ry), (width - MARGIN, ry), RULE, 1.0);
        }
        y = bottom + 2.0 * axis::TICK.size + 22.0;
    }
    svg.set_height(y + MARGIN - 12.0);
    svg.finish()
}

/// The table of the rows' settings, with every other row shaded across the whole figure.
fn draw_table(svg: &mut Svg, rows: &Rows, col_w: &[f64], top: f64, row_h: f64, right: f64) {
    for r in (0..rows.cells.len()).filter(|r| r % 2 == 1) {
        svg.rect(MARGIN, top + r as f64 * row_h, right - MARGIN, row_h, BAND);
    }
    let mut x = MARGIN;
    for (c, header) in rows.headers.iter().enumerate() {
        svg.text(x, top - 6.0, &fit(header, col_w[c] - 14.0, LABEL.size), LABEL.bold().colour(MUTED));
        for (r, cells) in rows.cells.iter().enumerate() {
            let text = fit(&cells[c], col_w[c] - 14.0, LABEL.size);
            svg.text_mid(x, top + (r as f64 + 0.5) * row_h, &text, LABEL);
        }
        x += col_w[c];
    }
}

/// One panel between `left` and `right`: title from `y`, rows from `top`, axis under them.
#[allow(clippy::too_many_arguments)]
fn draw_panel(svg: &mut Svg, p: &Panel, left: f64, right: f64, y: f64, top: f64, row_h: f64, head_h: f64) {
    let n = p.marks.len();
    let bottom = top + n as f64 * row_h;
    let values_w = p.values.iter().map(|v| text_width(v, LABEL.size)).fold(0.0, f64::max) + 10.0;
    let plot_right = right - values_w;
    let title = layout::wrap(&p.title, right - left, PANEL_TITLE.size);
    let title_top = y + head_h - 4.0 - title.len() as f64 * line_height(PANEL_TITLE.size);
    layout::lines(svg, left, title_top, &title, PANEL_TITLE);
    let (lo, hi) = span(p);
    let x = Scale::linear(lo, hi, left, plot_right);
    let fmt: &dyn Fn(f64, f64) -> String = if p.percent { &axis::percent } else { &axis::number };
    let ticks = axis::fitted(lo, hi, plot_right - left, 6, true, fmt, 0.0);
    axis::x_grid(svg, &x, top, bottom, &ticks);
    if p.zero && lo < 0.0 && hi > 0.0 {
        svg.line((x.at(0.0), top), (x.at(0.0), bottom), MUTED, 1.2);
    }
    if let Some(r) = p.reference.filter(|r| (lo..=hi).contains(r)) {
        svg.line((x.at(r), top), (x.at(r), bottom), MUTED, 1.2);
    }
    axis::x_axis(svg, &x, bottom, &ticks, (left - 4.0, right));
    for (r, marks) in p.marks.iter().enumerate() {
        let mid = top + (r as f64 + 0.5) * row_h;
        for m in marks {
            draw_mark(svg, &x, mid + m.offset, m);
        }
        svg.text_mid(right, mid, &p.values[r], LABEL.at(Anchor::End).colour(INK));
    }
}

fn draw_mark(svg: &mut Svg, x: &Scale, y: f64, m: &Mark) {
    if !m.estimate.is_finite() {
        return;
    }
    if m.low.is_finite() && m.high.is_finite() {
        let (a, b) = (x.at(m.low), x.at(m.high));
        svg.line((a, y), (b, y), m.bar, m.thick);
        if b - a >= 6.0 {
            let h = m.thick / 2.0 + 2.0;
            svg.line((a, y - h), (a, y + h), m.bar, 1.2);
            svg.line((b, y - h), (b, y + h), m.bar, 1.2);
        }
    }
    let e = x.at(m.estimate);
    let h = m.thick / 2.0 + 3.0;
    svg.line((e, y - h), (e, y + h), m.colour, 2.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(lo: f64, hi: f64, percent: bool, zero: bool) -> Panel {
        let m = Mark {
            estimate: (lo + hi) / 2.0,
            low: lo,
            high: hi,
            colour: INK,
            bar: INK,
            thick: 4.0,
            offset: 0.0,
        };
        Panel {
            title: "t".into(),
            marks: vec![vec![m]],
            values: vec![String::new()],
            percent,
            zero,
            reference: None,
        }
    }

    #[test]
    fn axes_stay_in_range_and_are_never_empty() {
        let (lo, hi) = span(&panel(0.99998, 1.0, true, false));
        assert!(hi == 1.0 && (0.98..0.99).contains(&lo), "{lo} {hi}");
        let (lo, hi) = span(&panel(14.7, 14.9, false, true));
        assert!(lo == 0.0 && hi > 14.9, "{lo} {hi}");
        let (lo, hi) = span(&panel(-3.0, -1.0, false, true));
        assert!(lo < -3.0 && hi > 0.0, "{lo} {hi}");
        assert_eq!(fit("greedy,greedy,drawer,drawer", 80.0, 11.0), "greed…rawer");
        assert_eq!(fit("greedy", 80.0, 11.0), "greedy");
        let long =
            "policies=greedy,greedy,drawer,drawer,greedy,greedy,drawer,drawer,random,random,search,search";
        let rows = Rows {
            headers: vec!["line-up".into()],
            cells: vec![vec![long.into()], vec!["short".into()], vec![long.into()]],
            group_cells: 0,
        };
        let (k, note) = keyed(&rows);
        assert_eq!(k.cells, vec![vec!["[1]".to_string()], vec!["short".into()], vec!["[1]".into()]]);
        assert_eq!(note.unwrap(), format!("Key: [1] {long}."));
    }

    #[test]
    fn estimates_carry_the_decimals_of_their_interval() {
        assert_eq!(estimate(27.0312, 0.352, ""), "27.03 ±0.35");
        assert_eq!(estimate(0.000333, 0.00065, ""), "0.00033 ±0.00065");
        assert_eq!(estimate(205.14, 14.14, ""), "205 ±14");
        assert_eq!(estimate(100.0, 0.0019, "%"), "100.0000% ±0.0019");
        assert_eq!(estimate(1.0, 0.0, ""), "1.00");
        assert_eq!(estimate(0.0, 0.0, ""), "0");
    }
}
