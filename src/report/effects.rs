//! The settings a sweep varies, as a grid, and each setting's effect on the question's metric.
//!
//! The grid (`Grid`) is typed from the points' own settings, not their labels: every point has a
//! value for every setting that varies anywhere in the run (the game's default where its label
//! leaves the setting out), so points of several `[[run]]`s fall into one grid, and the point whose
//! every varying setting is the game's default is **the rules as written** (the reference).
//!
//! An effect (`Effect`) is a contrast of the points (`stats::contrast`), computed from the
//! co-moments a paired pass summed over the run's deal groups (the unit of independence: every
//! point plays game `i` from the same seed, so the games of one deal group are one draw of all
//! points): the **main effect** of moving setting `A` from its reference level `a` to level `b` is
//! the mean, over the cells `c` of the other settings where both were played, of `r(b, c) - r(a,
//! c)`; an **interaction** of `A` and `B` is the mean of the difference of differences `r(b, d) -
//! r(a, d) - r(b, e) + r(a, e)` over the cells of the remaining settings, `e` being `B`'s reference
//! level. The reference level of a setting is its default when the sweep plays it, else its first
//! value.

use std::io::Write;

use super::format::{RateScale, fixed, real};
use super::{PointResult, RunResult};
use crate::stats::Interval;
use crate::stats::contrast::CoSums;

/// One metric's co-moments over every point of the run (from the paired pass).
#[derive(Clone, Debug)]
pub struct Measured {
    /// The question's metric, as the scenario names it.
    pub metric: String,
    pub sums: CoSums,
}

/// The settings that vary between the points of a run and each point's value of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub keys: Vec<String>,
    /// Per point, its value of each key.
    pub values: Vec<Vec<String>>,
    /// Each key's default (the rules as written), where the game declares one.
    pub defaults: Vec<Option<String>>,
}

/// A point's value of setting `key`: its resolved setting (`variant`: its presets).
fn value_of(p: &PointResult, key: &str) -> Option<String> {
    if key == "variant" {
        return Some(p.settings.variant.clone());
    }
    p.settings.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
}

impl Grid {
    /// The grid of `points` (of one game): the keys their labels set that do not take the same
    /// value at every point. `None` for points of several games.
    pub fn of(points: &[PointResult]) -> Option<Grid> {
        let game = points.first()?.game;
        if points.iter().any(|p| p.game != game) {
            return None;
        }
        let def = crate::games::find(game);
        let mut keys: Vec<String> = Vec::new();
        for p in points {
            for (k, _) in super::labels::words(&p.label) {
                if k != super::labels::GAME && k != super::labels::REPEAT && !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let value = |p: &PointResult, k: &str| value_of(p, k).unwrap_or_default();
        keys.retain(|k| points.iter().any(|p| value(p, k) != value(&points[0], k)));
        let values = points.iter().map(|p| keys.iter().map(|k| value(p, k)).collect()).collect();
        let defaults = keys
            .iter()
            .map(|k| {
                if k == "variant" {
                    return Some("standard".to_string());
                }
                def.and_then(|d| d.settings.iter().find(|s| s.key == k)).map(|s| s.default.to_string())
            })
            .collect();
        Some(Grid { keys, values, defaults })
    }

    /// The levels key `k` takes, in order of first appearance.
    pub fn levels(&self, k: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in &self.values {
            if !out.contains(&v[k]) {
                out.push(v[k].clone());
            }
        }
        out
    }

    /// Key `k`'s reference level: its default when the grid plays it, else its first level.
    pub fn reference_level(&self, k: usize) -> String {
        let levels = self.levels(k);
        match &self.defaults[k] {
            Some(d) if levels.contains(d) => d.clone(),
            _ => levels[0].clone(),
        }
    }

    /// The point whose every key is at its default: the rules as written (the first such point).
    pub fn reference(&self) -> Option<usize> {
        (0..self.values.len()).find(|&i| {
            self.values[i].iter().zip(&self.defaults).all(|(v, d)| d.as_deref() == Some(v.as_str()))
        })
    }

    /// The first point whose values are `want` on the keys it names (`(key, value)`), every other
    /// key matching point `like`'s.
    fn find(&self, like: usize, want: &[(usize, &str)]) -> Option<usize> {
        (0..self.values.len()).find(|&i| {
            (0..self.keys.len()).all(|k| match want.iter().find(|(w, _)| *w == k) {
                Some((_, v)) => self.values[i][k] == *v,
                None => self.values[i][k] == self.values[like][k],
            })
        })
    }
}

/// What an effect moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Setting `key` from `from` (its reference level) to `to`.
    Main { key: String, from: String, to: String },
    /// Two settings moved together, beyond the sum of their main effects.
    Interaction { a: String, a_from: String, a_to: String, b: String, b_from: String, b_to: String },
}

/// One effect on one metric, with its paired 95% interval.
#[derive(Clone, Debug)]
pub struct Effect {
    pub metric: String,
    pub change: Change,
    /// The cells of the other settings averaged over.
    pub cells: usize,
    pub interval: Interval,
    /// The metric is a share (its effect is in percentage points).
    pub rate: bool,
}

impl Effect {
    /// Whether the interval excludes 0.
    pub fn clear(&self) -> bool {
        self.interval.low > 0.0 || self.interval.high < 0.0
    }
}

/// Every main effect and two-setting interaction of `m`'s metric over `grid`'s points.
pub fn effects_of(grid: &Grid, m: &Measured, rate: bool) -> Vec<Effect> {
    let n = grid.values.len();
    let has = |i: usize| m.sums.sum.get(2 * i + 1).is_some_and(|&d| d != 0);
    let mut out = Vec::new();
    let effect = |change: Change, terms: &[Vec<(usize, f64)>]| -> Option<Effect> {
        let cells = terms.len();
        if cells == 0 {
            return None;
        }
        let mut w = vec![0.0; n];
        for t in terms {
            for &(i, x) in t {
                w[i] += x / cells as f64;
            }
        }
        let interval = m.sums.contrast(&w);
        interval.estimate.is_finite().then(|| Effect {
            metric: m.metric.clone(),
            change,
            cells,
            interval,
            rate,
        })
    };
    for a in 0..grid.keys.len() {
        let ra = grid.reference_level(a);
        for la in grid.levels(a).into_iter().filter(|l| *l != ra) {
            // One term per cell of the other keys played at both levels.
            let mut terms: Vec<Vec<(usize, f64)>> = Vec::new();
            for i in (0..n).filter(|&i| grid.values[i][a] == ra && has(i)) {
                if let Some(j) = grid.find(i, &[(a, &la)]).filter(|&j| has(j)) {
                    terms.push(vec![(j, 1.0), (i, -1.0)]);
                }
            }
            let change = Change::Main { key: grid.keys[a].clone(), from: ra.clone(), to: la.clone() };
            out.extend(effect(change, &terms));
        }
    }
    for a in 0..grid.keys.len() {
        for b in a + 1..grid.keys.len() {
            let (ra, rb) = (grid.reference_level(a), grid.reference_level(b));
            for la in grid.levels(a).into_iter().filter(|l| *l != ra) {
                for lb in grid.levels(b).into_iter().filter(|l| *l != rb) {
                    let mut terms: Vec<Vec<(usize, f64)>> = Vec::new();
                    for i in (0..n).filter(|&i| grid.values[i][a] == ra && grid.values[i][b] == rb && has(i))
                    {
                        let both = grid.find(i, &[(a, &la), (b, &lb)]);
                        let only_a = grid.find(i, &[(a, &la)]);
                        let only_b = grid.find(i, &[(b, &lb)]);
                        if let (Some(ab), Some(ia), Some(ib)) = (both, only_a, only_b)
                            && has(ab)
                            && has(ia)
                            && has(ib)
                        {
                            terms.push(vec![(ab, 1.0), (ia, -1.0), (ib, -1.0), (i, 1.0)]);
                        }
                    }
                    let change = Change::Interaction {
                        a: grid.keys[a].clone(),
                        a_from: ra.clone(),
                        a_to: la.clone(),
                        b: grid.keys[b].clone(),
                        b_from: rb.clone(),
                        b_to: lb.clone(),
                    };
                    out.extend(effect(change, &terms));
                }
            }
        }
    }
    out
}

/// Every effect of the run: per measured metric, its main effects then its interactions.
pub fn effects(run: &RunResult) -> Vec<Effect> {
    let Some(grid) = Grid::of(&run.points) else { return Vec::new() };
    run.effects
        .iter()
        .flat_map(|m| {
            let rate = super::pivot::is_rate(&run.points, &m.metric);
            effects_of(&grid, m, rate)
        })
        .collect()
}

/// The main effect that moves the metric most, if any is clear: the setting that decides it.
pub fn deciding<'a>(effects: &'a [Effect], metric: &str) -> Option<&'a Effect> {
    effects
        .iter()
        .filter(|e| e.metric == metric && matches!(e.change, Change::Main { .. }) && e.clear())
        .max_by(|a, b| a.interval.estimate.abs().total_cmp(&b.interval.estimate.abs()))
}

/// An effect's size in words: `-13.6 points [-14.1, -13.1]` for a share (`+2.1 in 100,000 [1.5,
/// 2.7]` for a rare one), `+12.3 [11.2, 13.4]` with `unit` for a mean.
pub fn size(e: &Effect, unit: &str) -> String {
    let i = &e.interval;
    let signed = |s: String| if s.starts_with('-') || s == "0" { s } else { format!("+{s}") };
    if e.rate {
        // Points of a percentage, unless the whole interval is within a tenth of a point.
        let big = i.low.abs().max(i.high.abs());
        let scale = if big >= 1e-3 { RateScale::Percent } else { RateScale::of(big) };
        let (f, suffix, d) = match scale {
            RateScale::Percent => (100.0, " points".to_string(), decimals(100.0 * i.half_width())),
            RateScale::In(_) => (scale.factor(), scale.suffix(), decimals(scale.factor() * i.half_width())),
        };
        let n = |x: f64| fixed(f * x, d);
        return format!("{}{suffix} [{}, {}]", signed(n(i.estimate)), n(i.low), n(i.high));
    }
    let d = decimals(i.half_width());
    let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
    format!("{}{unit} [{}, {}]", signed(fixed(i.estimate, d)), fixed(i.low, d), fixed(i.high, d))
}

/// Decimals that show a half-width `h` to one significant digit, two when it starts with a 1 (at
/// most 4).
fn decimals(h: f64) -> usize {
    // No width (or rounding noise of none): one decimal.
    if !(h.is_finite() && h > 1e-6) {
        return 1;
    }
    let e = h.log10().floor() as i32;
    let two = h / 10f64.powi(e) < 2.0;
    (i32::from(two) - e).clamp(0, 4) as usize
}

/// An effect's half-width in its unit (`0.4 points`, `1.2 in 100,000`, `0.35 turns`).
pub fn half(e: &Effect, unit: &str) -> String {
    let h = e.interval.half_width();
    if e.rate {
        if h >= 1e-3 {
            return format!("{} points", fixed(100.0 * h, decimals(100.0 * h)));
        }
        let scale = RateScale::of(h);
        return format!("{}{}", fixed(scale.factor() * h, decimals(scale.factor() * h)), scale.suffix());
    }
    let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
    format!("{}{unit}", fixed(h, decimals(h)))
}

/// Whether an effect whose interval holds 0 is measured tightly enough to say there is none: its
/// half-width under 1 point for a share, under 1% of `reference` for a mean.
pub fn tight(e: &Effect, reference: f64) -> bool {
    let h = e.interval.half_width();
    if e.rate { h <= 0.01 } else { h <= 0.01 * reference.abs().max(1e-9) }
}

/// Writes `effects.csv`: one row per metric and effect.
pub fn write_csv(effects: &[Effect], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    w.write_record([
        "metric",
        "kind",
        "setting",
        "from",
        "to",
        "other_setting",
        "other_from",
        "other_to",
        "cells",
        "effect",
        "ci95_low",
        "ci95_high",
        "deal_groups",
    ])?;
    for e in effects {
        let (kind, cols) = match &e.change {
            Change::Main { key, from, to } => {
                ("main", [key.clone(), from.clone(), to.clone(), String::new(), String::new(), String::new()])
            }
            Change::Interaction { a, a_from, a_to, b, b_from, b_to } => (
                "interaction",
                [a.clone(), a_from.clone(), a_to.clone(), b.clone(), b_from.clone(), b_to.clone()],
            ),
        };
        let i = &e.interval;
        let mut row = vec![e.metric.clone(), kind.to_string()];
        row.extend(cols);
        row.extend([e.cells.to_string(), real(i.estimate), real(i.low), real(i.high), i.units.to_string()]);
        w.write_record(row)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(keys: &[&str], values: &[&[&str]], defaults: &[Option<&str>]) -> Grid {
        Grid {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            values: values.iter().map(|v| v.iter().map(|s| s.to_string()).collect()).collect(),
            defaults: defaults.iter().map(|d| d.map(str::to_string)).collect(),
        }
    }

    /// A 2 x 3 sweep with a known answer: per deal the value is the deal's luck, plus 10 when
    /// `draw` is false, -2 at life 15 and +2 at life 30 (its default is 20), plus 3 more when both
    /// move to (false, 30). Main effects: draw true -> false is 10 + 3/3 = 11 (averaged over the three
    /// lives), life 20 -> 15 is -2, life 20 -> 30 is 2 + 3/2; the interaction (false, 30) is 3.
    #[test]
    fn main_effects_and_interactions_have_their_known_values() {
        let g = grid(
            &["draw", "life"],
            &[
                &["true", "15"],
                &["true", "20"],
                &["true", "30"],
                &["false", "15"],
                &["false", "20"],
                &["false", "30"],
            ],
            &[Some("true"), Some("20")],
        );
        assert_eq!(g.reference(), Some(1));
        let value = |draw: bool, life: i64, luck: i64| {
            let by_life = match life {
                15 => -2,
                30 => 2,
                _ => 0,
            };
            luck + if draw { 0 } else { 10 } + by_life + if !draw && life == 30 { 3 } else { 0 }
        };
        let mut sums = CoSums::new(6);
        for luck in [5, 1, 8, 3, 9, 2, 7] {
            let mut v = Vec::new();
            for (draw, life) in [(true, 15), (true, 20), (true, 30), (false, 15), (false, 20), (false, 30)] {
                v.extend([value(draw, life, luck), 1]);
            }
            sums.add_group(&v);
        }
        let m = Measured { metric: "x".into(), sums };
        let e = effects_of(&g, &m, false);
        let find = |c: Change| e.iter().find(|x| x.change == c).unwrap_or_else(|| panic!("{c:?} in {e:?}"));
        let main = |key: &str, from: &str, to: &str| {
            find(Change::Main { key: key.into(), from: from.into(), to: to.into() }).interval
        };
        let close = |i: Interval, want: f64| {
            assert!((i.estimate - want).abs() < 1e-9 && i.half_width() < 1e-6, "{i:?} != {want}")
        };
        close(main("draw", "true", "false"), 11.0);
        close(main("life", "20", "15"), -2.0);
        close(main("life", "20", "30"), 2.0 + 1.5);
        let inter = find(Change::Interaction {
            a: "draw".into(),
            a_from: "true".into(),
            a_to: "false".into(),
            b: "life".into(),
            b_from: "20".into(),
            b_to: "30".into(),
        });
        close(inter.interval, 3.0);
        assert_eq!(inter.cells, 1);
        assert_eq!(e.iter().filter(|x| matches!(x.change, Change::Main { .. })).count(), 3);
        let d = deciding(&e, "x").unwrap();
        assert_eq!(d.change, Change::Main { key: "draw".into(), from: "true".into(), to: "false".into() });
        assert_eq!(size(d, "turns"), "+11.0 turns [11.0, 11.0]");
    }

    #[test]
    fn sizes_read_in_points_or_in_a_power_of_ten() {
        let e = |estimate: f64, half: f64, rate: bool| Effect {
            metric: "m".into(),
            change: Change::Main { key: "k".into(), from: "a".into(), to: "b".into() },
            cells: 1,
            interval: Interval {
                estimate,
                low: estimate - half,
                high: estimate + half,
                method: crate::stats::Method::Ratio,
                units: 100,
            },
            rate,
        };
        assert_eq!(size(&e(-0.136, 0.005, true), ""), "-13.6 points [-14.1, -13.1]");
        assert_eq!(size(&e(-0.136, 0.05, true), ""), "-14 points [-19, -9]");
        assert_eq!(size(&e(-0.136, 0.015, true), ""), "-13.6 points [-15.1, -12.1]");
        assert_eq!(half(&e(0.001, 0.004, true), ""), "0.4 points");
        assert_eq!(half(&e(0.0, 0.00012, true), ""), "1.2 in 10,000");
        assert_eq!(size(&e(0.000021, 0.000006, true), ""), "+2.1 in 100,000 [1.5, 2.7]");
        assert!(tight(&e(0.001, 0.004, true), 0.5));
        assert!(!tight(&e(0.001, 0.04, true), 0.5));
    }
}
