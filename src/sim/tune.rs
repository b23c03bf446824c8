//! Playing a race (`warsim tune`): every live candidate plays the same game indices in looks of
//! `FIRST`, `2 FIRST`, ... games, the race's sums are merged exactly, `stats::race` decides the
//! drops, and the state is saved after each look so a stopped tune resumes where it was.
//!
//! Game `i` of every candidate is seeded from (master seed, `i`) as in `run`, so candidates that keep
//! the deal (`SettingSpec::deal`) see the same deal in game `i` and their paired differences are
//! narrow; the sums are integers, so the result is the same for any thread count.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::games::Point;
use crate::record::GameRecord;
use crate::stats::Quantity;
use crate::stats::race::{self, Cross, Drop, GROUP, Look, Rules, Stop, Sums};

/// Games per candidate at the first look (100 observations of `GROUP` games); each later look is
/// after twice as many.
pub const FIRST: u64 = 100 * GROUP;
/// Observations at which the race's sequences are tightest: the third look.
pub const TUNED_AT: f64 = 4.0 * (FIRST / GROUP) as f64;
/// Groups of games per parallel chunk.
const CHUNK_GROUPS: u64 = 16;

/// The state file of a tune.
pub const FILE: &str = "tune-state.json";

/// A ratio metric: per game, numerator `t` and denominator `m` (1 when `den` is None).
#[derive(Clone, Debug, PartialEq)]
pub struct RatioQuantity {
    pub num: Quantity,
    pub den: Option<Quantity>,
}

impl RatioQuantity {
    #[inline]
    fn of(&self, rec: &GameRecord) -> (i64, i64) {
        (self.num.of(rec), self.den.as_ref().map_or(1, |d| d.of(rec)))
    }
}

/// What one candidate measures: the goal, then each requirement.
#[derive(Clone, Debug)]
pub struct Measures {
    pub goal: RatioQuantity,
    pub requires: Vec<RatioQuantity>,
}

/// One candidate's leaving the race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    pub candidate: usize,
    /// Games per candidate at the look that dropped it.
    pub games: u64,
    pub why: Drop,
}

/// The saved race: sums, who is live, who left and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The command that made it (without `--resume`, `--threads`, `--quiet`): a resume must match.
    pub command: String,
    /// Games per live candidate so far.
    pub games: u64,
    pub live: Vec<usize>,
    pub dropped: Vec<Dropped>,
    pub goal: Vec<Sums>,
    pub requires: Vec<Vec<Sums>>,
    pub cross: Vec<Vec<Cross>>,
    pub stop: Option<Stop>,
}

impl TuneState {
    pub fn new(command: String, candidates: usize, requires: usize) -> TuneState {
        TuneState {
            command,
            games: 0,
            live: (0..candidates).collect(),
            dropped: Vec::new(),
            goal: vec![Sums::default(); candidates],
            requires: vec![vec![Sums::default(); candidates]; requires],
            cross: vec![vec![Cross::default(); candidates]; candidates],
            stop: None,
        }
    }

    pub fn look(&self) -> Look<'_> {
        Look { goal: &self.goal, requires: &self.requires, cross: &self.cross }
    }

    pub fn save(&self, out: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string(self)?;
        crate::io::write_atomic(&out.join(FILE), |w| Ok(w.write_all(text.as_bytes())?)).map(drop)
    }

    pub fn load(out: &Path) -> anyhow::Result<TuneState> {
        let text = std::fs::read_to_string(out.join(FILE))
            .with_context(|| format!("cannot read {}", out.join(FILE).display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a tune state", out.join(FILE).display()))
    }

    /// Adds one look's sums (of the live candidates) to the state.
    fn merge(&mut self, block: &TuneState) {
        for &a in &self.live {
            self.goal[a].merge(&block.goal[a]);
            for (r, b) in self.requires.iter_mut().zip(&block.requires) {
                r[a].merge(&b[a]);
            }
            for &b in self.live.iter().filter(|&&b| b > a) {
                self.cross[a][b].merge(&block.cross[a][b]);
            }
        }
    }
}

/// Plays games `first..first + count` (whole groups) of every live candidate and returns their
/// sums, or None if `stop` was raised.
pub fn play_block(
    engines: &[&dyn Point],
    measures: &[Measures],
    live: &[usize],
    master: u64,
    (first, count): (u64, u64),
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> Option<TuneState> {
    let k = engines.len();
    let requires = measures.first().map_or(0, |m| m.requires.len());
    let chunk = CHUNK_GROUPS * GROUP;
    (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let start = first + c * chunk;
            let n = (first + count).min(start + chunk) - start;
            let groups = n.div_ceil(GROUP) as usize;
            let mut part = TuneState::new(String::new(), k, requires);
            part.live = live.to_vec();
            // obs[j][cand][g]: measure j's (t, m) summed over group g of the chunk (j = 0: goal).
            let mut obs = vec![vec![vec![(0i64, 0i64); groups]; k]; 1 + requires];
            for &cand in live {
                let m = &measures[cand];
                engines[cand].play_each(master, start, n, &mut |i, rec| {
                    let g = ((i - start) / GROUP) as usize;
                    for (j, q) in std::iter::once(&m.goal).chain(&m.requires).enumerate() {
                        let (t, d) = q.of(rec);
                        obs[j][cand][g].0 += t;
                        obs[j][cand][g].1 += d;
                    }
                });
                tick(n);
            }
            #[allow(clippy::needless_range_loop)] // one group index across three tables
            for g in 0..groups {
                for &a in live {
                    part.goal[a].add(obs[0][a][g].0, obs[0][a][g].1);
                    for r in 0..requires {
                        part.requires[r][a].add(obs[1 + r][a][g].0, obs[1 + r][a][g].1);
                    }
                    for &b in live.iter().filter(|&&b| b > a) {
                        part.cross[a][b].add(obs[0][a][g], obs[0][b][g]);
                    }
                }
            }
            Some(part)
        })
        .reduce(
            || {
                let mut s = TuneState::new(String::new(), k, requires);
                s.live = live.to_vec();
                Some(s)
            },
            |a, b| match (a, b) {
                (Some(mut a), Some(b)) => {
                    a.merge(&b);
                    Some(a)
                }
                _ => None,
            },
        )
}

/// The games per candidate of the look after `done` games.
pub fn next_look(done: u64) -> u64 {
    let mut n = FIRST;
    while n <= done {
        n = n.saturating_mul(2);
    }
    n
}

/// Applies one look's decisions to the state: the drops, then whether the race stops.
pub fn decide(state: &mut TuneState, rules: &Rules, cap: u64) {
    let drops = race::drops(rules, &state.look(), &state.live);
    for (k, why) in drops {
        state.live.retain(|&l| l != k);
        state.dropped.push(Dropped { candidate: k, games: state.games, why });
    }
    state.stop = race::stop(rules, &state.look(), &state.live, state.games >= cap);
}

/// Plays the race from `state` to its stop (or until `stop` is raised: then returns false with the
/// state as of its last complete look, saved).
#[allow(clippy::too_many_arguments)]
pub fn drive(
    state: &mut TuneState,
    rules: &Rules,
    engines: &[&dyn Point],
    measures: &[Measures],
    master: u64,
    cap: u64,
    out: &Path,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<bool> {
    while state.stop.is_none() {
        let target = next_look(state.games).min(cap.div_ceil(GROUP) * GROUP);
        let block = (state.games, target - state.games);
        let Some(sums) = play_block(engines, measures, &state.live, master, block, stop, tick) else {
            state.save(out)?;
            return Ok(false);
        };
        state.merge(&sums);
        state.games = target;
        decide(state, rules, cap);
        state.save(out)?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_double_from_the_first() {
        assert_eq!(next_look(0), FIRST);
        assert_eq!(next_look(FIRST), 2 * FIRST);
        assert_eq!(next_look(3 * FIRST), 4 * FIRST);
        assert_eq!(FIRST % GROUP, 0);
    }
}
