//! Bisection on the crossing point (`warsim tune --search bisect`): for one whole-number setting
//! whose metric moves one way as the setting grows, the setting closest to an `=` goal sits next to
//! where the metric crosses the goal. One candidate at a time (a *probe*) is played until its
//! confidence sequence shows on which side of the goal it lies; the two ends first, then the middle
//! of the bracket whose ends lie on opposite sides, halving it each step, so a range of `n` values
//! takes at most `2 + ceil(log2(n - 1))` probes (the search of a sign change in a monotone
//! sequence; the noisy version follows Waeber, Frazier & Henderson, "Bisection search with noisy
//! responses", SIAM J. Control Optim. 51, 2013, in using a test that stops once the sign is known
//! at the chosen confidence). The two settings left around the crossing (or the two ends, when
//! the whole range lies on one side) are then raced on common deals (`stats::race`) to name the
//! closer one. A probe whose side is still unknown after `STUCK_LOOKS` looks lies within its
//! interval's half-width of the goal: the bisection stops there and races it with its neighbours
//! inside the bracket (the crossing is next to it). Every statement is a confidence sequence at
//! alpha / m, m the probes the range may need plus the final race's six (at most three candidates
//! and their three pairs): Bonferroni over the search.
//!
//! The monotone shape is an assumption the user makes by choosing bisection (or `auto` makes for
//! an integer range): candidates outside the bracket are excluded by it, not by games.

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

/// A decided probe: the candidate (its index in the range), its side and the games it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub candidate: usize,
    pub side: Side,
    pub games: u64,
}

/// The bisection's progress over candidates `0..n` (in the setting's order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bisection {
    pub n: usize,
    /// The decided end with the lower and with the higher index.
    pub low: Option<Probe>,
    pub high: Option<Probe>,
    /// Games the final race's candidates took as probes (the race replays them from game 0).
    pub spent: u64,
    /// The probes are over: the final race is on.
    pub racing: bool,
}

/// What to do after a probe is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Play this candidate next; the probe it replaces as a bracket end (if any) leaves.
    Probe { candidate: usize, leaves: Option<Probe> },
    /// Race these candidates (one or two); the probe it replaces (if any) leaves.
    Race { candidates: Vec<usize>, leaves: Option<Probe> },
}

/// Looks after which a probe that still holds the goal in its interval stops the bisection.
pub const STUCK_LOOKS: u32 = 6;
/// Sequences of the final race: up to three candidates and their pairs.
pub const RACE_SEQUENCES: usize = 6;

/// Most probes a range of `n` values needs: both ends, then one per halving of the bracket.
pub fn max_probes(n: usize) -> usize {
    match n {
        0 | 1 => 1,
        _ => 2 + (usize::BITS - (n - 2).leading_zeros()) as usize,
    }
}

impl Bisection {
    pub fn new(n: usize) -> Bisection {
        Bisection { n, low: None, high: None, spent: 0, racing: false }
    }

    /// The first candidate to probe.
    pub fn first(&self) -> usize {
        0
    }

    /// A probe that cannot tell its side: race it with its neighbours inside the bracket.
    pub fn stuck(&mut self, k: usize) -> Next {
        self.racing = true;
        let lo = self.low.map_or(0, |p| p.candidate).max(k.saturating_sub(1));
        let hi = self.high.map_or(self.n - 1, |p| p.candidate).min(k + 1);
        Next::Race { candidates: (lo..=hi).collect(), leaves: None }
    }

    /// Takes a decided probe and says what comes next.
    pub fn decided(&mut self, p: Probe) -> Next {
        let Some(low) = self.low else {
            self.low = Some(p);
            return if self.n == 1 {
                self.racing = true;
                Next::Race { candidates: vec![p.candidate], leaves: None }
            } else {
                Next::Probe { candidate: self.n - 1, leaves: None }
            };
        };
        let leaves = match self.high {
            None => {
                self.high = Some(p);
                None
            }
            // A middle probe replaces the end on its own side.
            Some(_) if p.side == low.side => self.low.replace(p),
            Some(_) => self.high.replace(p),
        };
        let (low, high) = (self.low.unwrap(), self.high.unwrap());
        if low.side != high.side && high.candidate - low.candidate > 1 {
            return Next::Probe { candidate: (low.candidate + high.candidate) / 2, leaves };
        }
        self.racing = true;
        Next::Race { candidates: vec![low.candidate, high.candidate], leaves }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bisects candidates with these true values against `goal`, deciding each probe exactly.
    fn run(values: &[f64], goal: f64) -> (Vec<usize>, Vec<usize>) {
        let mut b = Bisection::new(values.len());
        let mut probed = vec![b.first()];
        loop {
            let k = *probed.last().unwrap();
            let side = if values[k] < goal { Side::Below } else { Side::Above };
            match b.decided(Probe { candidate: k, side, games: 10 }) {
                Next::Probe { candidate, .. } => probed.push(candidate),
                Next::Race { candidates, .. } => return (probed, candidates),
            }
        }
    }

    #[test]
    fn the_bracket_closes_around_the_crossing_in_log_steps() {
        // Falling values 12, 11, ..., 0 crossing 6.5 between candidates 5 and 6.
        let values: Vec<f64> = (0..13).map(|v| 12.0 - v as f64).collect();
        let (probed, race) = run(&values, 6.5);
        assert_eq!(race, vec![5, 6]);
        assert_eq!(probed, vec![0, 12, 6, 3, 4, 5]);
        assert!(probed.len() <= max_probes(13), "{probed:?}");
        // Rising values, crossing near the top.
        let values: Vec<f64> = (0..100).map(|v| v as f64).collect();
        let (probed, race) = run(&values, 97.5);
        assert_eq!(race, vec![97, 98]);
        assert!(probed.len() <= max_probes(100), "{probed:?}");
    }

    #[test]
    fn a_range_wholly_on_one_side_races_its_two_ends() {
        let (probed, race) = run(&[1.0, 2.0, 3.0, 4.0], 10.0);
        assert_eq!((probed, race), (vec![0, 3], vec![0, 3]));
        let (_, race) = run(&[5.0], 1.0);
        assert_eq!(race, vec![0]);
    }

    #[test]
    fn a_stuck_probe_races_with_its_neighbours_inside_the_bracket() {
        let mut b = Bisection::new(10);
        assert_eq!(
            b.decided(Probe { candidate: 0, side: Side::Below, games: 1 }),
            Next::Probe { candidate: 9, leaves: None }
        );
        assert_eq!(
            b.decided(Probe { candidate: 9, side: Side::Above, games: 1 }),
            Next::Probe { candidate: 4, leaves: None }
        );
        assert_eq!(b.stuck(4), Next::Race { candidates: vec![3, 4, 5], leaves: None });
        // At an end, the one neighbour there is.
        let mut b = Bisection::new(10);
        assert_eq!(b.stuck(0), Next::Race { candidates: vec![0, 1], leaves: None });
        assert!(b.racing);
    }

    #[test]
    fn the_probe_count_bound_is_tight() {
        assert_eq!([1, 2, 3, 4, 5, 13, 17].map(max_probes), [1, 2, 3, 4, 4, 6, 6]);
        for n in 2..200 {
            let values: Vec<f64> = (0..n).map(|v| v as f64).collect();
            for g in 0..n {
                let (probed, _) = run(&values, g as f64 + 0.5);
                assert!(probed.len() <= max_probes(n), "n {n} goal {g}: {probed:?}");
            }
        }
    }
}
