//! Paired comparisons between scenario points and `comparisons.csv`.
//!
//! For each point and each headline metric, the difference from its baseline point with two 95%
//! intervals:
//!
//! - **paired**: from the per-game differences `d_i = y_i - x_i` of game `i` of both points (same
//!   master seed, same index, hence the same deal when the deck is the same):
//!   `mean(d) +- z * sd(d) / sqrt(n)`, the large-sample interval for a mean difference of paired
//!   samples (J. A. Rice, *Mathematical Statistics and Data Analysis*, 3rd ed., 2007, §11.3.1).
//!   Common random numbers make `x_i` and `y_i` positively correlated, so
//!   `var(d) = var(x) + var(y) - 2 cov(x, y)` is smaller than the unpaired variance
//!   (Law & Kelton, *Simulation Modeling and Analysis*, §11.2, "common random numbers").
//! - **unpaired**: `mean(y) - mean(x) +- z * sqrt(s_x^2 / n + s_y^2 / n)`, the large-sample
//!   two-sample interval that ignores the pairing (Rice §11.2.1), i.e. what two independent runs give.
//!
//! Rates are means of 0/1 values, so both intervals apply to them unchanged. Every sum is an exact
//! integer (`sim::paired::PairedSums`); only the final division is floating point.
//!
//! Pairing applies only when both points deal from the same deck: same game and the same
//! `DEAL_SETTINGS`. Otherwise game `i` of the two points deals different cards, the pairing has no
//! meaning, and the row says `pairing = none` with the paired interval left empty.

use std::io::Write;

use super::format::real;
use crate::games::Point;
use crate::settings::Settings;
use crate::sim::paired::{PairPlan, PairedResult, PairedSums, metrics, play_paired};
use crate::stats::interval::{Interval, Z95, mean_sd};

/// Settings that change the deal: points differing in any of them are not paired.
pub const DEAL_SETTINGS: &[&str] = &["decks", "ranks", "suits", "jokers", "players"];

/// Whether game `i` of two points sees the same deal.
pub fn pairing_applies(a: &Settings, b: &Settings) -> bool {
    let value = |s: &Settings, k: &str| s.values.iter().find(|(key, _)| *key == k).map(|(_, v)| v.clone());
    a.game == b.game && DEAL_SETTINGS.iter().all(|k| value(a, k) == value(b, k))
}

/// Mean difference and its 95% interval from exact sums of paired differences.
pub fn paired_interval(s: &PairedSums) -> Interval {
    let (mean, sd) = mean_sd(s.sum_d, s.sum_d2, s.n);
    let half = Z95 * sd / (s.n as f64).sqrt();
    Interval { estimate: mean, low: mean - half, high: mean + half }
}

/// Difference of means and its 95% interval as if the two samples were independent.
pub fn unpaired_interval(s: &PairedSums) -> Interval {
    let (mx, sx) = mean_sd(s.sum_x, s.sum_x2, s.n);
    let (my, sy) = mean_sd(s.sum_y, s.sum_y2, s.n);
    let n = s.n as f64;
    let half = Z95 * (sx * sx / n + sy * sy / n).sqrt();
    let d = my - mx;
    Interval { estimate: d, low: d - half, high: d + half }
}

/// One row of `comparisons.csv`.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub scenario: String,
    pub baseline: String,
    pub metric: String,
    pub is_rate: bool,
    pub games: u64,
    pub baseline_value: f64,
    pub value: f64,
    pub difference: f64,
    /// `None` when the pairing does not apply.
    pub paired: Option<Interval>,
    pub unpaired: Interval,
}

impl Comparison {
    pub fn pairing(&self) -> &'static str {
        if self.paired.is_some() { "paired" } else { "none" }
    }

    /// The interval to read: paired where it applies, else unpaired.
    pub fn best(&self) -> Interval {
        self.paired.unwrap_or(self.unpaired)
    }
}

/// Words of a label: its game name and `key=value` pairs.
fn words(label: &str) -> Vec<&str> {
    label.split_whitespace().collect()
}

/// Assigns each point its baseline. `spec` is a point label (`war variant=standard players=2`) or
/// some of its `key=value` words (`variant=standard`). Points matching every word of `spec` are
/// baselines. Each other point is compared with the baseline that agrees with it on every other
/// word (so `variant=standard` compares each variant with standard at the same player count); if
/// there is just one baseline, every point is compared with it. Returns (baseline, other) pairs.
pub fn assign_baselines(labels: &[String], spec: &str) -> Result<Vec<(usize, usize)>, String> {
    let want = words(spec);
    let key = |w: &str| w.split_once('=').map_or(w.to_string(), |(k, _)| k.to_string());
    let matches = |l: &str| {
        let lw = words(l);
        want.iter().all(|w| lw.contains(w))
    };
    let bases: Vec<usize> = (0..labels.len()).filter(|&i| matches(&labels[i])).collect();
    if bases.is_empty() {
        return Err(format!("baseline '{spec}' matches no scenario point (points: {})", labels.join("; ")));
    }
    let spec_keys: Vec<String> = want.iter().map(|w| key(w)).collect();
    let rest = |l: &str| -> Vec<String> {
        let mut v: Vec<String> =
            words(l).into_iter().filter(|w| !spec_keys.contains(&key(w))).map(str::to_string).collect();
        v.sort();
        v
    };
    let mut pairs = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if bases.contains(&i) {
            continue;
        }
        let base = if bases.len() == 1 {
            Some(bases[0])
        } else {
            bases.iter().copied().find(|&b| rest(&labels[b]) == rest(label))
        };
        if let Some(b) = base {
            pairs.push((b, i));
        }
    }
    Ok(pairs)
}

/// A scenario point as the comparison needs it.
pub struct ComparedPoint<'a> {
    pub label: &'a str,
    pub settings: &'a Settings,
    pub engine: &'a dyn Point,
}

/// Plans the pairs: the metrics both layouts have, in the baseline's order.
pub fn plan(points: &[ComparedPoint], pairs: &[(usize, usize)]) -> (Vec<PairPlan>, Vec<Vec<String>>) {
    let mut plans = Vec::new();
    let mut names = Vec::new();
    for &(b, o) in pairs {
        let mb = metrics(points[b].engine.layout());
        let mo = metrics(points[o].engine.layout());
        let mut quantities = Vec::new();
        let mut n = Vec::new();
        for (name, qb) in mb {
            if let Some((_, qo)) = mo.iter().find(|(m, _)| *m == name) {
                quantities.push((qb, qo.clone()));
                n.push(name);
            }
        }
        plans.push(PairPlan { baseline: b, other: o, quantities });
        names.push(n);
    }
    (plans, names)
}

/// Turns the sums of a paired pass into rows.
pub fn rows(
    points: &[ComparedPoint],
    plans: &[PairPlan],
    names: &[Vec<String>],
    result: &PairedResult,
) -> Vec<Comparison> {
    let mut out = Vec::new();
    for ((plan, names), sums) in plans.iter().zip(names).zip(&result.sums) {
        let (b, o) = (&points[plan.baseline], &points[plan.other]);
        let paired = pairing_applies(b.settings, o.settings);
        for ((name, (q, _)), s) in names.iter().zip(&plan.quantities).zip(sums) {
            let n = s.n as f64;
            let unpaired = unpaired_interval(s);
            out.push(Comparison {
                scenario: o.label.to_string(),
                baseline: b.label.to_string(),
                metric: name.clone(),
                is_rate: q.is_rate(),
                games: s.n,
                baseline_value: s.sum_x as f64 / n,
                value: s.sum_y as f64 / n,
                difference: unpaired.estimate,
                paired: paired.then(|| paired_interval(s)),
                unpaired,
            });
        }
    }
    out
}

/// Plays games `0..games` of every point once (baselines and the points compared with them) and
/// returns the comparison rows with every point's accumulator.
pub fn compare(
    points: &[ComparedPoint],
    spec: &str,
    master: u64,
    games: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<Comparison>, PairedResult), String> {
    let labels: Vec<String> = points.iter().map(|p| p.label.to_string()).collect();
    let pairs = assign_baselines(&labels, spec)?;
    let (plans, names) = plan(points, &pairs);
    let engines: Vec<&dyn Point> = points.iter().map(|p| p.engine).collect();
    let result = play_paired(&engines, &plans, master, 0, games, tick);
    Ok((rows(points, &plans, &names, &result), result))
}

/// Writes `comparisons.csv`.
pub fn write_csv(rows: &[Comparison], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    w.write_record([
        "scenario",
        "baseline",
        "metric",
        "games",
        "baseline_value",
        "value",
        "difference",
        "paired_ci95_low",
        "paired_ci95_high",
        "unpaired_ci95_low",
        "unpaired_ci95_high",
        "pairing",
    ])?;
    for r in rows {
        let (pl, ph) = r.paired.map_or((String::new(), String::new()), |i| (real(i.low), real(i.high)));
        w.write_record([
            r.scenario.clone(),
            r.baseline.clone(),
            r.metric.clone(),
            r.games.to_string(),
            real(r.baseline_value),
            real(r.value),
            real(r.difference),
            pl,
            ph,
            real(r.unpaired.low),
            real(r.unpaired.high),
            r.pairing().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answer_paired_and_unpaired() {
        // Pairs (x, y): (10, 12), (20, 21), (30, 35), (40, 44). d = 2, 1, 5, 4: mean 3,
        // sample variance ((1 + 4 + 4 + 1) / 3) = 10/3, so the half-width is z * sqrt(10/3) / 2.
        let mut s = PairedSums::default();
        for (x, y) in [(10, 12), (20, 21), (30, 35), (40, 44)] {
            s.add(x, y);
        }
        let p = paired_interval(&s);
        assert!((p.estimate - 3.0).abs() < 1e-12);
        assert!((p.half_width() - Z95 * (10.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12, "{p:?}");
        // x: mean 25, variance 500/3; y: mean 28, variance (256 + 49 + 49 + 256) / 3 = 610/3.
        let u = unpaired_interval(&s);
        assert!((u.estimate - 3.0).abs() < 1e-12);
        let half = Z95 * ((500.0 / 3.0 + 610.0 / 3.0) / 4.0f64).sqrt();
        assert!((u.half_width() - half).abs() < 1e-9, "{u:?} vs {half}");
        assert!(p.half_width() < u.half_width());
    }

    #[test]
    fn baselines_match_on_the_other_settings() {
        let labels: Vec<String> = [
            "war variant=standard players=2",
            "war variant=standard players=3",
            "war variant=peace players=2",
            "war variant=peace players=3",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(assign_baselines(&labels, "variant=standard").unwrap(), vec![(0, 2), (1, 3)]);
        assert_eq!(
            assign_baselines(&labels, "war variant=standard players=2").unwrap(),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        assert!(assign_baselines(&labels, "variant=lesser").unwrap_err().contains("matches no"));
    }
}
