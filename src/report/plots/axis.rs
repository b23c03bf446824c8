//! Scales and axes: where a value goes on the canvas, which ticks an axis gets (1, 2 or 5 times a
//! power of ten, as many as fit without their labels touching), and how a tick is written.

use super::svg::{Anchor, Style, Svg, text_width};
use crate::report::format::fixed;

pub const GRID: &str = "#e6e6e6";
pub const AXIS: &str = "#666666";
pub const TICK: Style = Style::new(10.0).colour("#444444");

/// A map from data values in `lo..hi` to pixels in `from..to`, linear or logarithmic.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub lo: f64,
    pub hi: f64,
    pub from: f64,
    pub to: f64,
    pub log: bool,
}

impl Scale {
    pub fn linear(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
        let hi = if hi > lo { hi } else { lo + 1.0 };
        Scale { lo, hi, from, to, log: false }
    }

    /// A log scale; `lo` must be positive.
    pub fn log(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
        let hi = if hi > lo { hi } else { lo * 10.0 };
        Scale { lo, hi, from, to, log: true }
    }

    /// The pixel of `v`, kept inside the scale's range.
    pub fn at(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(self.lo).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from + t.clamp(0.0, 1.0) * (self.to - self.from)
    }
}

/// The smallest step of 1, 2 or 5 times a power of ten that cuts `span` into at most `max` parts.
pub fn nice_step(span: f64, max: usize) -> f64 {
    let raw = (span / max.max(1) as f64).abs().max(1e-12);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|s| *s >= raw * (1.0 - 1e-9)).unwrap_or(10.0 * p)
}

/// Multiples of `step` in `lo..=hi`.
pub fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

fn decimals(step: f64) -> usize {
    (-(step.log10() + 1e-9).floor()).clamp(0.0, 10.0) as usize
}

/// A tick with the decimals its step needs and thousands grouped: `1,500`, `0.25`.
pub fn number(v: f64, step: f64) -> String {
    fixed(v, decimals(step))
}

/// A tick of a share written as a percentage: `98.5%`.
pub fn percent(v: f64, step: f64) -> String {
    if v == 0.0 { "0%".into() } else { format!("{}%", fixed(100.0 * v, decimals(100.0 * step))) }
}

/// A tick of a log axis of shares, each a power of ten: `0.001%`, `10%`.
pub fn log_percent(v: f64) -> String {
    let p = 100.0 * v;
    format!("{}%", fixed(p, decimals(p)))
}

/// Ticks of `lo..hi` on an axis `len` pixels long with labels that do not touch: as many as fit,
/// up to `max`. Horizontal labels need their width plus a gap; stacked ones twice their height.
/// Steps are at least `min_step` (1 on an axis of whole numbers).
pub fn fitted(
    lo: f64,
    hi: f64,
    len: f64,
    max: usize,
    horizontal: bool,
    fmt: &dyn Fn(f64, f64) -> String,
    min_step: f64,
) -> Vec<(f64, String)> {
    let mut n = max.max(1);
    loop {
        let step = nice_step(hi - lo, n).max(min_step);
        let t: Vec<(f64, String)> = ticks(lo, hi, step).into_iter().map(|v| (v, fmt(v, step))).collect();
        let room = len * step / (hi - lo).max(1e-12);
        let need = if horizontal {
            t.iter().map(|(_, l)| text_width(l, TICK.size)).fold(0.0, f64::max) + 8.0
        } else {
            TICK.size * 2.0
        };
        if room >= need || n == 1 {
            return t;
        }
        n -= 1;
    }
}

/// `fitted` for an axis of game lengths, whole numbers: no step below 1.
pub fn whole(lo: f64, hi: f64, len: f64, max: usize) -> Vec<(f64, String)> {
    fitted(lo, hi, len, max, true, &number, 1.0)
}

/// Ticks of a log axis `len` pixels long over `lo..=hi`: the powers of ten (every other one, or
/// every third, when they would crowd it), with 2 and 5 times them when fewer than two fit.
pub fn log_ticks(lo: f64, hi: f64, len: f64) -> Vec<(f64, String)> {
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let count = (b - a + 1).max(1) as f64;
    let every = ((count * TICK.size * 2.0) / len.max(1.0)).ceil().max(1.0) as i32;
    let mut t: Vec<f64> = (a..=b).filter(|e| (e - b) % every == 0).map(|e| 10f64.powi(e)).collect();
    if t.len() < 2 {
        let near = (a - 1..=b + 1).flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)));
        t = near.filter(|v| (lo..=hi).contains(v)).collect();
    }
    t.into_iter().map(|v| (v, log_percent(v))).collect()
}

/// A horizontal axis at `y`: the axis line, ticks, and labels under them. Labels at the ends are
/// moved inwards so they stay inside `room` (the panel's own strip of the figure).
pub fn x_axis(svg: &mut Svg, x: &Scale, y: f64, ticks: &[(f64, String)], room: (f64, f64)) {
    let (left, right) = (x.from.min(x.to), x.from.max(x.to));
    svg.line((left, y), (right, y), AXIS, 1.0);
    for (v, label) in ticks {
        let px = x.at(*v);
        svg.line((px, y), (px, y + 4.0), AXIS, 1.0);
        let half = text_width(label, TICK.size) / 2.0;
        let cx = px.clamp(room.0 + half, room.1 - half);
        svg.text(cx, y + 5.0 + TICK.size, label, TICK.at(Anchor::Middle));
    }
}

/// Vertical grid lines at the ticks of `x`, from `top` to `bottom`.
pub fn x_grid(svg: &mut Svg, x: &Scale, top: f64, bottom: f64, ticks: &[(f64, String)]) {
    for (v, _) in ticks {
        let px = x.at(*v);
        svg.line((px, top), (px, bottom), GRID, 1.0);
    }
}

/// Horizontal grid lines at the ticks of `y` from `left` to `right`, labelled left of `left`.
pub fn y_grid(svg: &mut Svg, y: &Scale, left: f64, right: f64, ticks: &[(f64, String)]) {
    for (v, label) in ticks {
        let py = y.at(*v);
        svg.line((left, py), (right, py), GRID, 1.0);
        svg.text_mid(left - 4.0, py, label, TICK.at(Anchor::End));
    }
}

/// The widest label of `ticks`.
pub fn label_width(ticks: &[(f64, String)]) -> f64 {
    ticks.iter().map(|(_, l)| text_width(l, TICK.size)).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_readable() {
        assert_eq!(nice_step(1000.0, 5), 200.0);
        assert_eq!(nice_step(30.0, 40), 1.0);
        assert_eq!(ticks(0.5, 3.2, 1.0), [1.0, 2.0, 3.0]);
        assert_eq!(number(1500.0, 500.0), "1,500");
        assert_eq!(number(0.25, 0.05), "0.25");
        assert_eq!(percent(0.985, 0.005), "98.5%");
        assert_eq!(percent(1.0, 0.2), "100%");
        assert_eq!(log_percent(0.00001), "0.001%");
        assert_eq!(log_percent(0.1), "10%");
    }

    #[test]
    fn labels_never_crowd_an_axis() {
        // A share between 99.998% and 100% on a 200-pixel axis.
        let t = fitted(0.99998, 1.0, 200.0, 6, true, &percent, 0.0);
        assert!(t.len() >= 2, "{t:?}");
        let widest = t.iter().map(|(_, l)| text_width(l, TICK.size)).fold(0.0, f64::max);
        let gap = 200.0 * (t[1].0 - t[0].0) / 0.00002;
        assert!(gap >= widest + 8.0, "{t:?}");
    }

    #[test]
    fn scales_clamp_and_log() {
        let s = Scale::linear(0.0, 10.0, 100.0, 200.0);
        assert_eq!(s.at(5.0), 150.0);
        assert_eq!(s.at(20.0), 200.0);
        let l = Scale::log(0.001, 1.0, 0.0, 300.0);
        assert!((l.at(0.01) - 100.0).abs() < 1e-9);
        assert_eq!(log_ticks(0.0005, 2.0, 300.0).len(), 4);
        let few: Vec<String> = log_ticks(0.03, 0.5, 300.0).into_iter().map(|t| t.1).collect();
        assert_eq!(few, ["5%", "10%", "20%", "50%"]);
    }
}
