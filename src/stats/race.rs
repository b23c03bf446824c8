//! Racing candidates towards a goal (`warsim tune`): the pure decisions made after each look.
//!
//! Racing after Birattari, Stützle, Paquete & Varrentrapp, "A racing algorithm for configuring
//! metaheuristics", GECCO 2002, as irace does it (López-Ibáñez et al., Operations Research
//! Perspectives 3, 2016): every live candidate plays the same games (game `i` of each is seeded
//! alike, so candidates that keep the deal see the same deal), and after each look a candidate is
//! dropped when it is worse than the best with 95% confidence. Instead of irace's Friedman or t-tests
//! at fixed looks, every statement here is an anytime-valid confidence sequence (`stats::sequence`),
//! so looking after every block needs no correction for the looks; the candidates and pairs are
//! corrected for by Bonferroni: each sequence is at alpha / m, m the number of sequences the race
//! may use (one per candidate and metric, one per pair of candidates).
//!
//! The metric of a candidate is a ratio of per-observation sums, `sum t / sum m` (m = 1 for a plain
//! mean or rate; m = "the game was decided" for a share of decided games). An observation is a
//! run of consecutive games holding whole deal groups (`sim::tune::observation_games`), so games
//! that replay one deal with the seats rotated are never split. The ratio's standard error is the linearised ("ratio estimator") one
//! (Cochran, *Sampling Techniques*, 3rd ed., 1977, §6.4): the residuals `t - r m` divided by the
//! mean of m; a paired difference of two candidates uses the difference of their residuals on the
//! same observations.

use serde::{Deserialize, Serialize};

use super::betting::Tally;
use super::sequence::{ALPHA, radius, rho2_tightest_at};
use super::{Interval, Method};

/// What the search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// The candidate closest to this value.
    Equal(f64),
    /// Every candidate at least this.
    AtLeast(f64),
    /// Every candidate at most this.
    AtMost(f64),
}

impl Target {
    /// Parses `METRIC=X`, `METRIC>=X` or `METRIC<=X`. The operator is the last one in `raw`: a
    /// qualified metric holds `=` itself (`win_rate seat=0=0.5`, `win_rate policy=greedy>=0.5`).
    pub fn split(raw: &str) -> Option<(String, Target)> {
        let (at, _) = raw.rmatch_indices('=').next()?;
        let (name, rest, make): (&str, &str, fn(f64) -> Target) = match raw[..at].chars().last() {
            Some('>') => (&raw[..at - 1], &raw[at + 1..], Target::AtLeast),
            Some('<') => (&raw[..at - 1], &raw[at + 1..], Target::AtMost),
            _ => (&raw[..at], &raw[at + 1..], Target::Equal),
        };
        // A share may be written in percent: `=50%` is `=0.5`.
        let v: f64 = match rest.trim().strip_suffix('%') {
            Some(pct) => pct.trim().parse::<f64>().ok().map(|x| x / 100.0),
            None => rest.trim().parse().ok(),
        }
        .filter(|x: &f64| x.is_finite())?;
        let name = name.trim();
        (!name.is_empty()).then(|| (name.to_string(), make(v)))
    }

    /// The goal's value.
    pub fn value(&self) -> f64 {
        match *self {
            Target::Equal(x) | Target::AtLeast(x) | Target::AtMost(x) => x,
        }
    }

    /// The side of the value on which an at-least / at-most goal is met (None for `Equal`).
    pub fn meeting_side(&self) -> Option<super::bisect::Side> {
        match self {
            Target::Equal(_) => None,
            Target::AtLeast(_) => Some(super::bisect::Side::Above),
            Target::AtMost(_) => Some(super::bisect::Side::Below),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Target::Equal(x) => format!("= {x}"),
            Target::AtLeast(x) => format!(">= {x}"),
            Target::AtMost(x) => format!("<= {x}"),
        }
    }

    /// Whether the whole interval `i` breaks an `AtLeast`/`AtMost` target (never for `Equal`).
    fn surely_broken(&self, i: &Interval) -> bool {
        match *self {
            Target::Equal(_) => false,
            Target::AtLeast(x) => i.high < x,
            Target::AtMost(x) => i.low > x,
        }
    }

    /// Whether the whole interval `i` meets an `AtLeast`/`AtMost` target.
    fn surely_met(&self, i: &Interval) -> bool {
        match *self {
            Target::Equal(_) => false,
            Target::AtLeast(x) => i.low >= x,
            Target::AtMost(x) => i.high <= x,
        }
    }
}

/// Exact sums over observations of one candidate's (t, m), and of products with the other
/// candidates' (for paired differences).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sums {
    pub n: u64,
    pub t: i128,
    pub m: i128,
    pub tt: i128,
    pub tm: i128,
    pub mm: i128,
}

impl Sums {
    pub fn add(&mut self, t: i64, m: i64) {
        let (t, m) = (t as i128, m as i128);
        self.n += 1;
        self.t += t;
        self.m += m;
        self.tt += t * t;
        self.tm += t * m;
        self.mm += m * m;
    }

    pub fn merge(&mut self, o: &Sums) {
        self.n += o.n;
        self.t += o.t;
        self.m += o.m;
        self.tt += o.tt;
        self.tm += o.tm;
        self.mm += o.mm;
    }

    /// The ratio sum t / sum m (NaN without any m).
    pub fn ratio(&self) -> f64 {
        if self.m == 0 { f64::NAN } else { self.t as f64 / self.m as f64 }
    }

    /// Standard deviation of the linearised observations (t - r m) / mean m.
    pub fn sd(&self) -> f64 {
        if self.n < 2 || self.m == 0 {
            return f64::NAN;
        }
        let r = self.ratio();
        let n = self.n as f64;
        let ss = self.tt as f64 - 2.0 * r * self.tm as f64 + r * r * self.mm as f64;
        let mean_m = self.m as f64 / n;
        (ss.max(0.0) / (n - 1.0)).sqrt() / mean_m
    }
}

/// Cross sums of two candidates' (t, m) over the same observations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cross {
    pub ta_tb: i128,
    pub ta_mb: i128,
    pub ma_tb: i128,
    pub ma_mb: i128,
}

impl Cross {
    pub fn add(&mut self, (ta, ma): (i64, i64), (tb, mb): (i64, i64)) {
        let (ta, ma, tb, mb) = (ta as i128, ma as i128, tb as i128, mb as i128);
        self.ta_tb += ta * tb;
        self.ta_mb += ta * mb;
        self.ma_tb += ma * tb;
        self.ma_mb += ma * mb;
    }

    pub fn merge(&mut self, o: &Cross) {
        self.ta_tb += o.ta_tb;
        self.ta_mb += o.ta_mb;
        self.ma_tb += o.ma_tb;
        self.ma_mb += o.ma_mb;
    }
}

/// Standard deviation of the linearised paired difference (candidate b minus candidate a).
pub fn paired_sd(a: &Sums, b: &Sums, c: &Cross) -> f64 {
    if a.n < 2 || a.m == 0 || b.m == 0 {
        return f64::NAN;
    }
    let n = a.n as f64;
    let (ra, rb) = (a.ratio(), b.ratio());
    let (ma, mb) = (a.m as f64 / n, b.m as f64 / n);
    let uaa = a.tt as f64 - 2.0 * ra * a.tm as f64 + ra * ra * a.mm as f64;
    let ubb = b.tt as f64 - 2.0 * rb * b.tm as f64 + rb * rb * b.mm as f64;
    let uab = c.ta_tb as f64 - rb * c.ta_mb as f64 - ra * c.ma_tb as f64 + ra * rb * c.ma_mb as f64;
    let ss = uaa / (ma * ma) + ubb / (mb * mb) - 2.0 * uab / (ma * mb);
    (ss.max(0.0) / (n - 1.0)).sqrt()
}

/// The confidence sequence (at `alpha`) of an estimate with per-observation sd over `n`
/// observations; the boundary is tightest at `tuned_at` observations.
pub fn sequence(estimate: f64, sd: f64, n: u64, alpha: f64, tuned_at: f64) -> Interval {
    let half =
        if n >= 2 { sd * radius(n as f64, alpha, rho2_tightest_at(tuned_at, alpha)) } else { f64::NAN };
    Interval { estimate, low: estimate - half, high: estimate + half, method: Method::Sequence, units: n }
}

/// Why a candidate left the race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Drop {
    /// Farther from the goal than the best, shown on paired differences.
    FartherPaired { best: usize },
    /// Farther from the goal than the best, shown by the two candidates' own intervals.
    Farther { best: usize },
    /// Its whole interval lies outside goal ± within.
    OutsideWithin,
    /// Its whole interval breaks an at-least / at-most goal.
    MissesGoal,
    /// Its whole interval breaks requirement `.0`.
    BreaksRequirement(usize),
    /// Outside the stretch where the bisection's probes of known side put the crossing: farther
    /// from the goal than a setting raced, if the metric moves one way (never played, or probed
    /// to the side it shows).
    Beyond,
}

/// Why the race stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// One candidate is left: the closest to the goal.
    OneLeft,
    /// Every live candidate is within the tolerance of the goal.
    AllWithin,
    /// Every live candidate surely meets an at-least / at-most goal.
    AllMeet,
    /// No candidate is left.
    NoneLeft,
    /// The games cap came first: the answer is not settled.
    Cap,
}

impl Stop {
    pub fn name(&self) -> &'static str {
        match self {
            Stop::OneLeft => "one_left",
            Stop::AllWithin => "all_within",
            Stop::AllMeet => "all_meet",
            Stop::NoneLeft => "none_left",
            Stop::Cap => "cap_not_settled",
        }
    }
}

/// The rules of one race, fixed before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub target: Target,
    /// Optional tolerance around an `Equal` target.
    pub within: Option<f64>,
    /// Requirements on other metrics (each candidate's sums of them are given per look).
    pub requires: Vec<Target>,
    pub candidates: usize,
    /// Observations at which the normal-mixture sequences are tightest.
    pub tuned_at: f64,
    /// The candidates are bisected (`stats::bisect`) before the few left are raced.
    pub bisect: bool,
}

impl Rules {
    /// Sequences a race of every candidate may use: one per candidate for the goal and for each
    /// requirement, and one per pair of candidates.
    pub fn sequences(&self) -> usize {
        let k = self.candidates;
        k * (1 + self.requires.len()) + k * k.saturating_sub(1) / 2
    }

    /// The error rate of each candidate's sequence (of the goal or a requirement). A race shares
    /// 5% equally among all its sequences (Bonferroni). A bisection gives half to the
    /// candidates' sequences (each candidate keeps one sequence, from its first probe to the end
    /// of the final race, since the race goes on from the probes' games) and half to the pairs.
    pub fn alpha(&self) -> f64 {
        if self.bisect {
            ALPHA / 2.0 / (self.candidates * (1 + self.requires.len())) as f64
        } else {
            ALPHA / self.sequences() as f64
        }
    }

    /// The error rate of the paired sequence of candidates `a` and `b`. A bisection races a
    /// stretch of neighbouring settings, so its half of 5% goes mostly to near pairs: `6 / (pi^2
    /// d^2)` of it to the `k - d` pairs `d` apart (the weights add up to at most 1).
    pub fn pair_alpha(&self, a: usize, b: usize) -> f64 {
        if !self.bisect {
            return self.alpha();
        }
        let (d, k) = (a.abs_diff(b).max(1) as f64, self.candidates as f64);
        ALPHA / 2.0 * 6.0 / (std::f64::consts::PI.powi(2) * d * d * (k - d).max(1.0))
    }

    /// How the statement's 5% is shared, for the files.
    pub fn describe(&self) -> String {
        if self.bisect {
            format!("bisection_{}_candidates", self.candidates)
        } else {
            format!("bonferroni_{}", self.sequences())
        }
    }
}

/// Observations in which two candidates' events must differ (the sum of the squared differences of
/// their event counts) before their paired difference of a rate is read from its normal sequence.
pub const DISCORDANT: i128 = 30;

/// What a look sees: each candidate's goal sums and requirement sums over all its games, the
/// tallies of bounded metrics (`stats::betting`), and for the paired differences the goal sums
/// since the candidates began to play in step (`race`) with the cross sums of each pair over the
/// same observations (`cross[a][b]` for a < b).
pub struct Look<'a> {
    pub goal: &'a [Sums],
    pub requires: &'a [Vec<Sums>],
    pub race: &'a [Sums],
    pub cross: &'a [Vec<Cross>],
    pub bets: &'a [Tally],
    pub require_bets: &'a [Vec<Tally>],
}

impl Look<'_> {
    /// A candidate's sequence of the goal: a betting sequence for a rate or share (never of zero
    /// width, inside [0, 1]), the normal mixture for other means.
    pub fn interval(&self, rules: &Rules, k: usize) -> Interval {
        match self.bets.get(k).filter(|t| t.bounded()) {
            Some(t) => t.interval(rules.alpha()),
            None => {
                let s = &self.goal[k];
                sequence(s.ratio(), s.sd(), s.n, rules.alpha(), rules.tuned_at)
            }
        }
    }

    /// The sequence of `b - a` on the paired observations. For a rate or share, until the two
    /// differ in at least `DISCORDANT` observations' events the normal approximation of their
    /// paired difference is not to be trusted (with none it is of zero width): the difference
    /// of their two betting sequences serves instead, valid with them.
    pub fn paired(&self, rules: &Rules, a: usize, b: usize) -> Interval {
        let (lo, hi, sign) = if a < b { (a, b, 1.0) } else { (b, a, -1.0) };
        let (sa, sb) = (&self.race[lo], &self.race[hi]);
        if let (Some(ta), Some(tb)) =
            (self.bets.get(a).filter(|t| t.bounded()), self.bets.get(b).filter(|t| t.bounded()))
        {
            let c = &self.cross[lo][hi];
            if sa.tt + sb.tt - 2 * c.ta_tb < DISCORDANT {
                let (ia, ib) = (ta.interval(rules.alpha()), tb.interval(rules.alpha()));
                let units = ia.units.min(ib.units);
                return Interval {
                    estimate: ib.estimate - ia.estimate,
                    low: ib.low - ia.high,
                    high: ib.high - ia.low,
                    method: Method::Betting,
                    units,
                };
            }
        }
        let sd = paired_sd(sa, sb, &self.cross[lo][hi]);
        let d = sb.ratio() - sa.ratio();
        let i = sequence(d, sd, sa.n.min(sb.n), rules.pair_alpha(a, b), rules.tuned_at);
        if sign > 0.0 { i } else { Interval { estimate: -i.estimate, low: -i.high, high: -i.low, ..i } }
    }

    pub fn require_interval(&self, rules: &Rules, r: usize, k: usize) -> Interval {
        match self.require_bets.get(r).and_then(|b| b.get(k)).filter(|t| t.bounded()) {
            Some(t) => t.interval(rules.alpha()),
            None => {
                let s = &self.requires[r][k];
                sequence(s.ratio(), s.sd(), s.n, rules.alpha(), rules.tuned_at)
            }
        }
    }
}

/// The distance of a value in `i` to an `Equal` target `x`: its least and greatest.
fn distance_bounds(i: &Interval, x: f64) -> (f64, f64) {
    let low = if i.contains(x) { 0.0 } else { (i.low - x).abs().min((i.high - x).abs()) };
    (low, (i.low - x).abs().max((i.high - x).abs()))
}

/// The best live candidate: closest to an `Equal` target (ties to the first), else the first live.
pub fn best(rules: &Rules, look: &Look, live: &[usize]) -> Option<usize> {
    match rules.target {
        Target::Equal(x) => live
            .iter()
            .copied()
            .min_by(|&a, &b| (look.goal[a].ratio() - x).abs().total_cmp(&(look.goal[b].ratio() - x).abs())),
        _ => live.first().copied(),
    }
}

/// The drops of one look: which live candidates leave, and why. Pure: the same sums give the
/// same drops.
pub fn drops(rules: &Rules, look: &Look, live: &[usize]) -> Vec<(usize, Drop)> {
    let mut out = Vec::new();
    for &k in live {
        let i = look.interval(rules, k);
        if let Some(r) = (0..rules.requires.len())
            .find(|&r| rules.requires[r].surely_broken(&look.require_interval(rules, r, k)))
        {
            out.push((k, Drop::BreaksRequirement(r)));
        } else if rules.target.surely_broken(&i) {
            out.push((k, Drop::MissesGoal));
        } else if let (Target::Equal(x), Some(tol)) = (rules.target, rules.within)
            && (i.low > x + tol || i.high < x - tol)
        {
            out.push((k, Drop::OutsideWithin));
        }
    }
    let Target::Equal(x) = rules.target else { return out };
    let still: Vec<usize> = live.iter().copied().filter(|k| !out.iter().any(|(d, _)| d == k)).collect();
    let Some(b) = best(rules, look, &still) else { return out };
    let ib = look.interval(rules, b);
    let (_, best_far) = distance_bounds(&ib, x);
    for &k in still.iter().filter(|&&k| k != b) {
        let ik = look.interval(rules, k);
        // With k wholly above the goal, its distance exceeds the best's by at least
        // (r_k - r_b) - 2 max(0, x - r_b): a paired difference, less what the best may lie
        // below the goal (nothing when the best is above it too). Mirrored below the goal.
        let d = look.paired(rules, b, k);
        let paired = (ik.low > x && d.low > 2.0 * (x - ib.low).max(0.0))
            || (ik.high < x && -d.high > 2.0 * (ib.high - x).max(0.0));
        if paired {
            out.push((k, Drop::FartherPaired { best: b }));
        } else if distance_bounds(&ik, x).0 > best_far {
            out.push((k, Drop::Farther { best: b }));
        }
    }
    out
}

/// Whether the race stops after this look, given the candidates still live after its drops and
/// whether the cap is reached.
pub fn stop(rules: &Rules, look: &Look, live: &[usize], capped: bool) -> Option<Stop> {
    if live.is_empty() {
        return Some(Stop::NoneLeft);
    }
    match rules.target {
        Target::Equal(x) => {
            // With a tolerance, the one left must still show it is within it (or leave).
            if live.len() == 1 && rules.within.is_none() {
                return Some(Stop::OneLeft);
            }
            if let Some(tol) = rules.within
                && live.iter().all(|&k| {
                    let i = look.interval(rules, k);
                    i.low >= x - tol && i.high <= x + tol
                })
            {
                return Some(Stop::AllWithin);
            }
        }
        t => {
            if live.iter().all(|&k| t.surely_met(&look.interval(rules, k))) {
                return Some(Stop::AllMeet);
            }
        }
    }
    capped.then_some(Stop::Cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::GameSeed;
    use rand_core::Rng;

    /// Games per observation of the fake engine.
    const GROUP: u64 = 12;

    /// A fake engine: candidate k's observation is a sum of `GROUP` Bernoulli games with
    /// probability `p[k]`, all candidates driven by the same uniform numbers (common random
    /// numbers, as same-deal candidates are), so their paired differences are narrow.
    fn observe(p: &[f64], n: u64, seed: u64) -> (Vec<Sums>, Vec<Vec<Cross>>) {
        let mut rng = GameSeed::new(seed, 24).rng();
        let k = p.len();
        let mut goal = vec![Sums::default(); k];
        let mut cross = vec![vec![Cross::default(); k]; k];
        let mut obs = vec![(0i64, 0i64); k];
        for _ in 0..n {
            obs.iter_mut().for_each(|o| *o = (0, GROUP as i64));
            for _ in 0..GROUP {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                for (o, &pk) in obs.iter_mut().zip(p) {
                    o.0 += (u < pk) as i64;
                }
            }
            for a in 0..k {
                goal[a].add(obs[a].0, obs[a].1);
                for b in a + 1..k {
                    cross[a][b].add(obs[a], obs[b]);
                }
            }
        }
        (goal, cross)
    }

    /// Runs a race on the fake engine with looks at 100, 200, ... observations up to `cap`.
    fn race(
        p: &[f64],
        target: Target,
        within: Option<f64>,
        cap: u64,
    ) -> (Stop, Vec<usize>, Vec<(usize, Drop)>) {
        let rules =
            Rules { target, within, requires: vec![], candidates: p.len(), tuned_at: 400.0, bisect: false };
        let mut live: Vec<usize> = (0..p.len()).collect();
        let mut dropped = Vec::new();
        let mut n = 100;
        loop {
            let (goal, cross) = observe(p, n, 7);
            let look =
                Look { goal: &goal, requires: &[], race: &goal, cross: &cross, bets: &[], require_bets: &[] };
            for (k, why) in drops(&rules, &look, &live) {
                live.retain(|&l| l != k);
                dropped.push((k, why));
            }
            if let Some(s) = stop(&rules, &look, &live, n >= cap) {
                return (s, live, dropped);
            }
            n *= 2;
        }
    }

    #[test]
    fn the_closest_candidate_is_the_one_left() {
        // Shares 0.40, 0.45, 0.50, 0.55, 0.62 and a goal of 0.5: 0.50 is the answer.
        let (stop, live, _) = race(&[0.40, 0.45, 0.50, 0.55, 0.62], Target::Equal(0.5), None, 1 << 20);
        assert_eq!((stop, live), (Stop::OneLeft, vec![2]));
        // Goal 0.47: 0.50 is closest; the common random numbers let paired differences drop the
        // candidates above it, on its side of the goal.
        let (stop, live, dropped) = race(&[0.40, 0.50, 0.55, 0.62], Target::Equal(0.47), None, 1 << 20);
        assert_eq!((stop, live), (Stop::OneLeft, vec![1]));
        assert!(dropped.contains(&(2, Drop::FartherPaired { best: 1 })), "{dropped:?}");
    }

    #[test]
    fn every_candidate_within_the_tolerance_stops_the_race() {
        let (stop, live, _) = race(&[0.495, 0.505], Target::Equal(0.5), Some(0.02), 1 << 20);
        assert_eq!((stop, live), (Stop::AllWithin, vec![0, 1]));
    }

    #[test]
    fn the_last_one_left_must_still_show_it_is_within_the_tolerance() {
        // 0.50 wins the race early, but the race goes on until its interval is inside 0.5 ± 0.01.
        let (stop, live, dropped) = race(&[0.40, 0.50, 0.60], Target::Equal(0.5), Some(0.01), 1 << 20);
        assert_eq!((stop, live), (Stop::AllWithin, vec![1]));
        assert_eq!(dropped.len(), 2);
    }

    #[test]
    fn none_within_the_tolerance_is_said() {
        let (stop, live, dropped) = race(&[0.30, 0.35], Target::Equal(0.5), Some(0.01), 1 << 20);
        assert_eq!((stop, live.len()), (Stop::NoneLeft, 0));
        assert!(
            dropped.iter().all(|(_, d)| *d == Drop::OutsideWithin || matches!(d, Drop::FartherPaired { .. }))
        );
    }

    #[test]
    fn the_cap_leaves_the_answer_not_settled() {
        // Two candidates equally far from the goal can never be told apart.
        let (stop, live, _) = race(&[0.45, 0.55], Target::Equal(0.5), None, 800);
        assert_eq!((stop, live), (Stop::Cap, vec![0, 1]));
    }

    #[test]
    fn an_at_least_goal_keeps_every_candidate_that_meets_it() {
        let (stop, live, dropped) = race(&[0.05, 0.2, 0.3], Target::AtLeast(0.1), None, 1 << 20);
        assert_eq!((stop, live), (Stop::AllMeet, vec![1, 2]));
        assert_eq!(dropped, vec![(0, Drop::MissesGoal)]);
    }

    #[test]
    fn a_requirement_drops_the_candidates_that_break_it() {
        let rules = Rules {
            target: Target::Equal(0.5),
            within: None,
            requires: vec![Target::AtMost(0.3)],
            candidates: 2,
            tuned_at: 400.0,
            bisect: false,
        };
        let (goal, cross) = observe(&[0.5, 0.5], 400, 3);
        let (req, _) = observe(&[0.2, 0.6], 400, 4);
        let look =
            Look { goal: &goal, requires: &[req], race: &goal, cross: &cross, bets: &[], require_bets: &[] };
        assert_eq!(drops(&rules, &look, &[0, 1]), vec![(1, Drop::BreaksRequirement(0))]);
    }

    #[test]
    fn a_paired_rate_without_discordant_games_reads_the_betting_sequences() {
        // Two candidates with no event in 2,000 single games each: their paired normal sequence
        // would be [0, 0]; the difference of their betting sequences has a width instead.
        let mut goal = vec![Sums::default(); 2];
        let mut cross = vec![vec![Cross::default(); 2]; 2];
        let mut bets = vec![Tally::new(1), Tally::new(1)];
        for _ in 0..2_000 {
            for k in 0..2 {
                goal[k].add(0, 1);
                bets[k].add(0, 1);
            }
            cross[0][1].add((0, 1), (0, 1));
        }
        let rules = Rules {
            target: Target::Equal(0.001),
            within: None,
            requires: vec![],
            candidates: 2,
            tuned_at: 400.0,
            bisect: false,
        };
        let look =
            Look { goal: &goal, requires: &[], race: &goal, cross: &cross, bets: &bets, require_bets: &[] };
        let d = look.paired(&rules, 0, 1);
        assert_eq!(d.method, Method::Betting);
        assert!(d.low < 0.0 && d.high > 0.0 && d.high == -d.low, "{d:?}");
        // Without tallies (a mean, not a rate) the normal sequence serves, zero-wide here.
        let plain = Look { bets: &[], ..look };
        assert_eq!(plain.paired(&rules, 0, 1).method, Method::Sequence);
    }

    #[test]
    fn ratio_sums_of_plain_values_give_the_sample_sd() {
        // Values 1..=5 with m = 1: ratio 3, sd sqrt(2.5).
        let mut s = Sums::default();
        for v in 1..=5 {
            s.add(v, 1);
        }
        assert!((s.ratio() - 3.0).abs() < 1e-12 && (s.sd() - 2.5f64.sqrt()).abs() < 1e-12);
        // A paired difference of a candidate with itself has zero spread.
        let mut c = Cross::default();
        for v in 1..=5 {
            c.add((v, 1), (v, 1));
        }
        assert!(paired_sd(&s, &s, &c).abs() < 1e-9);
    }

    #[test]
    fn goals_parse() {
        assert_eq!(Target::split("length_mean=120"), Some(("length_mean".into(), Target::Equal(120.0))));
        assert_eq!(
            Target::split("final_battle_share>=0.05"),
            Some(("final_battle_share".into(), Target::AtLeast(0.05)))
        );
        assert_eq!(Target::split("length_mean<=80"), Some(("length_mean".into(), Target::AtMost(80.0))));
        assert_eq!(Target::split("length_mean"), None);
        assert_eq!(Target::split("=3"), None);
        // A qualified metric holds '=' itself: the operator is the last one.
        let seat = |t| Some(("win_rate seat=0".to_string(), t));
        assert_eq!(Target::split("win_rate seat=0=0.5"), seat(Target::Equal(0.5)));
        assert_eq!(Target::split("win_rate seat=0>=0.5"), seat(Target::AtLeast(0.5)));
        assert_eq!(Target::split("win_rate seat=0 <= 0.5"), seat(Target::AtMost(0.5)));
    }
}
