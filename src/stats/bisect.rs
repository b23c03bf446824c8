//! Bisection on the crossing point (`warsim tune --search bisect`): for one whole-number setting
//! whose metric moves one way as the setting grows, the setting closest to an `=` goal sits next to
//! where the metric crosses the goal. One candidate at a time (a *probe*) is played until its
//! confidence sequence shows on which side of the goal it lies: the two ends first, then the middle
//! of the stretch where the crossing may lie, halving it each step (the search of a sign change in
//! a monotone sequence; the noisy version follows Waeber, Frazier & Henderson, "Bisection search
//! with noisy responses", SIAM J. Control Optim. 51, 2013, in using a test that stops once the sign
//! is known at the chosen confidence).
//!
//! What a probe may conclude. A probe whose interval still holds the goal after `STUCK_LOOKS` looks
//! says only that it lies within its half-width of the goal: the crossing may lie on either side
//! of it, so it excludes nothing. Only probes of known side bound the stretch of the crossing
//! (`Bisection::regions`); the bisection goes on halving that stretch around stuck probes, and
//! once every setting of the stretch has been probed, all of them are raced on the probes' own
//! games (`stats::race`) to name the closest. Settings outside the stretch are excluded by the
//! one-way assumption alone, never by games: the answer says so.
//!
//! The monotone shape is an assumption the user makes by choosing bisection (or `auto` makes for
//! an integer range). Every statement is a confidence sequence of the race's family
//! (`stats::race::Rules::alpha`), so probes and race together hold at 95%.

use serde::{Deserialize, Serialize};

use super::Interval;

/// On which side of the goal a probe's whole interval lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Below,
    Above,
}

impl Side {
    /// The side `i` shows against the goal `x` (None while `i` holds `x`).
    pub fn of(i: &Interval, x: f64) -> Option<Side> {
        if i.high < x {
            Some(Side::Below)
        } else if i.low > x {
            Some(Side::Above)
        } else {
            None
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Side::Below => "below",
            Side::Above => "above",
        }
    }
}

/// What a probe showed: its side of the goal, or, for a probe still holding the goal after
/// `STUCK_LOOKS` looks (or at the cap), only that it lies within its interval of the goal (`None`:
/// the crossing may lie on either side of it).
pub type Finding = Option<Side>;

/// A probe the bisection has heard back from: the candidate (its index in the range), what it
/// showed and the games it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub candidate: usize,
    pub finding: Finding,
    pub games: u64,
}

/// The bisection's progress over candidates `0..n` (in the setting's order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bisection {
    pub n: usize,
    /// Every probe so far, in the order played (each candidate at most once).
    pub probes: Vec<Probe>,
    /// The probes are over: the final race is on.
    pub racing: bool,
    /// For a `>=`/`<=` goal: the settings outside the final stretch that meet it by the one-way
    /// assumption (beyond a probe shown to meet it), never played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<usize>,
}

/// What to do after a probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Play this candidate next.
    Probe(usize),
    /// Race these candidates (in order); the rest are excluded by the one-way assumption.
    Race(Vec<usize>),
}

/// Looks after which a probe that still holds the goal in its interval is taken as near it.
pub const STUCK_LOOKS: u32 = 4;

impl Bisection {
    pub fn new(n: usize) -> Bisection {
        Bisection { n, probes: Vec::new(), racing: false, assumed: Vec::new() }
    }

    /// The first candidate to probe.
    pub fn first(&self) -> usize {
        0
    }

    fn finding(&self, c: usize) -> Option<Finding> {
        self.probes.iter().find(|p| p.candidate == c).map(|p| p.finding)
    }

    /// The stretches of the range where the crossing may lie, given the probes of known side and
    /// the metric assumed to move one way: between the last probe of one side and the first of
    /// the other when both sides are known; beyond the outermost probes of the one side known
    /// otherwise (the settings between two probes of one side lie on that side, farther than
    /// one of them); the whole range when no side is known, or when the sides contradict the
    /// assumption (then nothing is excluded by it).
    pub fn regions(&self) -> Vec<(usize, usize)> {
        let side = |s: Side| {
            let mut v: Vec<usize> =
                self.probes.iter().filter(|p| p.finding == Some(s)).map(|p| p.candidate).collect();
            v.sort_unstable();
            v
        };
        let (below, above) = (side(Side::Below), side(Side::Above));
        let whole = vec![(0, self.n - 1)];
        match (below.first(), below.last(), above.first(), above.last()) {
            (Some(_), Some(&b_max), Some(&a_min), Some(_)) if b_max < a_min => vec![(b_max, a_min)],
            (Some(&b_min), Some(_), Some(_), Some(&a_max)) if a_max < b_min => vec![(a_max, b_min)],
            (Some(_), _, Some(_), _) => whole,
            (Some(&lo), Some(&hi), None, _) | (None, _, Some(&lo), Some(&hi)) => {
                let mut r = vec![(0, lo), (hi, self.n - 1)];
                r.dedup();
                r
            }
            _ => whole,
        }
    }

    /// For a `>=`/`<=` goal met on side `meets`: the side a setting outside the final stretch
    /// takes from the nearest probes of known side around it (both agree, or only one exists).
    pub fn side_outside(&self, c: usize) -> Option<Side> {
        let finding = |k: usize| self.probes.iter().find(|p| p.candidate == k).and_then(|p| p.finding);
        let left = (0..c).rev().find_map(finding);
        let right = (c + 1..self.n).find_map(finding);
        let here = finding(c);
        match (here, left, right) {
            (Some(s), _, _) => Some(s),
            (None, Some(a), Some(b)) if a == b => Some(a),
            (None, Some(a), None) | (None, None, Some(a)) => Some(a),
            _ => None,
        }
    }

    /// During the final race: a raced setting whose side has become known (a probe's finding
    /// sharpened by the race's games) narrows the stretch; returns the raced settings now outside
    /// it, excluded by the one-way assumption.
    pub fn sharpened(&mut self, candidate: usize, side: Side, live: &[usize]) -> Vec<usize> {
        match self.probes.iter_mut().find(|p| p.candidate == candidate) {
            Some(p) if p.finding == Some(side) => return Vec::new(),
            Some(p) => p.finding = Some(side),
            None => self.probes.push(Probe { candidate, finding: Some(side), games: 0 }),
        }
        let regions = self.regions();
        live.iter().copied().filter(|&c| !regions.iter().any(|&(a, b)| a <= c && c <= b)).collect()
    }

    /// Takes a probe's finding and says what comes next: the unprobed candidate nearest the
    /// middle of the widest region still holding unprobed candidates (the two ends first), or,
    /// once every candidate of the regions has been probed, a race of all of them.
    pub fn decided(&mut self, p: Probe) -> Next {
        self.probes.retain(|q| q.candidate != p.candidate);
        self.probes.push(p);
        let unprobed = |c: &usize| self.finding(*c).is_none();
        for end in [0, self.n - 1] {
            if unprobed(&end) {
                return Next::Probe(end);
            }
        }
        let regions = self.regions();
        let pick = regions
            .iter()
            .filter_map(|&(a, b)| {
                let open = (a..=b).filter(unprobed).count();
                let mid = (a..=b).filter(unprobed).min_by_key(|&c| (2 * c).abs_diff(a + b))?;
                Some((open, mid))
            })
            .max_by_key(|&(open, mid)| (open, std::cmp::Reverse(mid)));
        if let Some((_, c)) = pick {
            return Next::Probe(c);
        }
        self.racing = true;
        let mut race: Vec<usize> = regions.iter().flat_map(|&(a, b)| a..=b).collect();
        race.dedup();
        Next::Race(race)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bisects candidates with these true values against `goal`; a probe within `near` of the goal
    /// is stuck (its side unknown). Returns the probes in order and the race.
    fn run_near(values: &[f64], goal: f64, near: f64) -> (Vec<usize>, Vec<usize>) {
        let mut b = Bisection::new(values.len());
        let mut probed = vec![b.first()];
        loop {
            let k = *probed.last().unwrap();
            let finding = if (values[k] - goal).abs() <= near {
                None
            } else if values[k] < goal {
                Some(Side::Below)
            } else {
                Some(Side::Above)
            };
            match b.decided(Probe { candidate: k, finding, games: 10 }) {
                Next::Probe(c) => {
                    assert!(!probed.contains(&c), "{c} probed twice: {probed:?}");
                    probed.push(c)
                }
                Next::Race(candidates) => return (probed, candidates),
            }
        }
    }

    fn run(values: &[f64], goal: f64) -> (Vec<usize>, Vec<usize>) {
        run_near(values, goal, 0.0)
    }

    /// Most probes a range of `n` values needs when every side is known: both ends, then one per
    /// halving of the bracket.
    fn max_probes(n: usize) -> usize {
        match n {
            0 | 1 => 1,
            _ => 2 + (usize::BITS - (n - 2).leading_zeros()) as usize,
        }
    }

    #[test]
    fn the_bracket_closes_around_the_crossing_in_log_steps() {
        // Falling values 12, 11, ..., 0 crossing 6.5 between candidates 5 and 6.
        let values: Vec<f64> = (0..13).map(|v| 12.0 - v as f64).collect();
        let (probed, race) = run(&values, 6.5);
        assert_eq!(race, vec![5, 6]);
        assert_eq!(probed, vec![0, 12, 6, 3, 4, 5]);
        // Rising values, crossing near the top.
        let values: Vec<f64> = (0..100).map(|v| v as f64).collect();
        let (probed, race) = run(&values, 97.5);
        assert_eq!(race, vec![97, 98]);
        assert!(probed.len() <= max_probes(100), "{probed:?}");
    }

    #[test]
    fn the_probe_count_is_logarithmic_when_every_side_is_known() {
        for n in 2..120 {
            let values: Vec<f64> = (0..n).map(|v| v as f64).collect();
            for g in 0..n {
                let (probed, race) = run(&values, g as f64 + 0.5);
                assert!(probed.len() <= max_probes(n), "n {n} goal {g}: {probed:?}");
                // The race holds the two settings around the crossing (or the nearest end).
                assert!(race.contains(&g) && (g + 1 == n || race.contains(&(g + 1))), "{race:?}");
            }
        }
    }

    #[test]
    fn a_range_wholly_on_one_side_races_its_two_ends() {
        let (probed, race) = run(&[1.0, 2.0, 3.0, 4.0], 10.0);
        assert_eq!((probed, race), (vec![0, 3], vec![0, 3]));
        let (_, race) = run(&[5.0], 1.0);
        assert_eq!(race, vec![0]);
    }

    #[test]
    fn a_stuck_end_excludes_nothing_beyond_it() {
        // The case: values rising to the goal 0.5 at 7-8; the top end (10) is 1.6 points
        // above the goal but stuck. The bisection must keep probing below it and race the
        // settings around the crossing, never exclude 7 and 8 unplayed.
        let values = [0.44, 0.45, 0.46, 0.47, 0.48, 0.485, 0.49, 0.497, 0.503, 0.51, 0.516];
        let (probed, race) = run_near(&values, 0.5, 0.018);
        assert!(race.contains(&7) && race.contains(&8), "{probed:?} {race:?}");
        // Nothing outside the race was left unprobed between known sides.
        assert!(probed.contains(&10) && probed.contains(&0));
    }

    #[test]
    fn a_stuck_middle_probe_is_bracketed_on_both_sides() {
        // 0..=10 rising through the goal 5.0 at 5; 4, 5 and 6 are within the stuck margin.
        let values: Vec<f64> = (0..=10).map(|v| v as f64).collect();
        let (probed, race) = run_near(&values, 5.0, 1.0);
        // The stretch closes on the first probes of known side around the stuck ones: 3 below, 7
        // above, every setting between them probed and raced.
        assert_eq!(race, vec![3, 4, 5, 6, 7], "{probed:?}");
        for c in 3..=7 {
            assert!(probed.contains(&c));
        }
    }

    #[test]
    fn for_every_monotone_shape_the_true_closest_is_in_the_race() {
        // Exhaustively over small ranges, goals and stuck margins: whenever the findings are
        // true, the closest setting is never excluded.
        for n in 1..=14 {
            for shape in 0..3 {
                let values: Vec<f64> = (0..n)
                    .map(|v| match shape {
                        0 => v as f64,
                        1 => -(v as f64) * 0.5,
                        _ => ((v as f64) * 0.7).powi(2),
                    })
                    .collect();
                let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
                for step in 0..=20 {
                    let goal = lo - 1.0 + (hi - lo + 2.0) * step as f64 / 20.0;
                    for near in [0.0, 0.3, 0.8, 2.5] {
                        let (_, race) = run_near(&values, goal, near);
                        let best = (0..n)
                            .min_by(|&a, &b| (values[a] - goal).abs().total_cmp(&(values[b] - goal).abs()))
                            .unwrap();
                        let d = (values[best] - goal).abs();
                        assert!(
                            race.iter().any(|&c| (values[c] - goal).abs() == d),
                            "n {n} shape {shape} goal {goal} near {near}: {race:?} misses {best}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sides_that_contradict_the_assumption_exclude_nothing() {
        let mut b = Bisection::new(5);
        b.decided(Probe { candidate: 0, finding: Some(Side::Below), games: 1 });
        b.decided(Probe { candidate: 4, finding: Some(Side::Above), games: 1 });
        b.decided(Probe { candidate: 2, finding: Some(Side::Above), games: 1 });
        assert_eq!(b.regions(), vec![(0, 2)]);
        let next = b.decided(Probe { candidate: 1, finding: Some(Side::Above), games: 1 });
        assert_eq!(next, Next::Race(vec![0, 1]));
        // Below at 3 contradicts Above at 1 and 2 for a rising metric: the whole range.
        let mut b = Bisection::new(5);
        for (c, s) in [(0, Side::Below), (4, Side::Above), (2, Side::Above), (3, Side::Below)] {
            b.decided(Probe { candidate: c, finding: Some(s), games: 1 });
        }
        assert_eq!(b.regions(), vec![(0, 4)]);
    }
    #[test]
    fn a_side_known_during_the_race_excludes_the_settings_beyond_it() {
        // 0 below, 10 above, 5 stuck, ... the race holds 3..=7; when 6 shows it is above the goal,
        // 7 lies beyond it; when 4 shows it is below, 3 does.
        let values: Vec<f64> = (0..=10).map(|v| v as f64).collect();
        let mut b = Bisection::new(11);
        let mut next = b.decided(Probe { candidate: 0, finding: Some(Side::Below), games: 1 });
        while let Next::Probe(c) = next {
            let finding = if (values[c] - 5.0).abs() <= 1.0 {
                None
            } else {
                Some(if values[c] < 5.0 { Side::Below } else { Side::Above })
            };
            next = b.decided(Probe { candidate: c, finding, games: 1 });
        }
        assert_eq!(next, Next::Race(vec![3, 4, 5, 6, 7]));
        let live = [3, 4, 5, 6, 7];
        assert_eq!(b.sharpened(6, Side::Above, &live), vec![7]);
        assert_eq!(b.sharpened(4, Side::Below, &[3, 4, 5, 6]), vec![3]);
        // A side already known changes nothing.
        assert_eq!(b.sharpened(4, Side::Below, &[4, 5, 6]), Vec::<usize>::new());
    }
    #[test]
    fn outside_the_stretch_a_setting_takes_the_side_of_the_probes_around_it() {
        // Rising 0..=10 against 5.5: 0 below, 10 above, 5 below, 7 above, 6 above: the stretch is
        // 5..=6; 8 and 9 lie above (beyond 7), 1 to 4 below.
        let values: Vec<f64> = (0..=10).map(|v| v as f64).collect();
        let (probed, race) = run(&values, 5.5);
        assert_eq!(race, vec![5, 6], "{probed:?}");
        let mut b = Bisection::new(11);
        for &c in &probed {
            let side = if values[c] < 5.5 { Side::Below } else { Side::Above };
            b.decided(Probe { candidate: c, finding: Some(side), games: 1 });
        }
        assert_eq!(b.side_outside(9), Some(Side::Above));
        assert_eq!(b.side_outside(2), Some(Side::Below));
        assert_eq!(b.side_outside(10), Some(Side::Above));
    }
}
