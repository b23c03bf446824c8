//! Playing a race (`warsim tune`): every live candidate plays the same game indices in looks of
//! `FIRST_OBSERVATIONS`, twice as many, ... observations, the race's sums are merged exactly,
//! `stats::race` decides the drops, and the state is saved after each look so a stopped tune
//! resumes where it was.
//!
//! An observation is a run of consecutive games that holds whole deal groups of every candidate
//! (`Layout::group_size`: a deal replayed with the seats rotated is one group), so no group is ever
//! split between two observations: `observation_games`.
//!
//! Game `i` of every candidate is seeded from (master seed, `i`) as in `run`, so candidates that keep
//! the deal (`SettingSpec::deal`) see the same deal in game `i` and their paired differences are
//! narrow; the sums are integers, so the result is the same for any thread count.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::games::Point;
use crate::record::GameRecord;
use crate::stats::Quantity;
use crate::stats::bisect::{Bisection, Next, Probe, STUCK_LOOKS, Side};
use crate::stats::race::{self, Cross, Drop, Look, Rules, Stop, Sums, Target};

use super::tune_file::{self, TuneIdentity};

/// Where a tune keeps its files, and the plan of the tune they belong to.
#[derive(Clone, Copy)]
pub struct Place<'a> {
    pub dir: &'a Path,
    pub plan: &'a TuneIdentity,
}

/// Games per observation when the deal groups allow it: any rotation of 2, 3, 4 or 6 seats fits.
pub const OBSERVATION: u64 = 12;
/// Observations per candidate at the first look; each later look is after twice as many.
pub const FIRST_OBSERVATIONS: u64 = 100;
/// Observations at which the race's sequences are tightest: the third look.
pub const TUNED_AT: f64 = 4.0 * FIRST_OBSERVATIONS as f64;

/// Games per observation for candidates with these deal-group sizes: `OBSERVATION` moved down to
/// whole groups of their least common multiple (10 for five rotated seats), or that multiple when
/// it is larger.
pub fn observation_games(group_sizes: impl IntoIterator<Item = u64>) -> u64 {
    let every = group_sizes.into_iter().fold(1, |l, g| crate::sim::paired::lcm(l, g.max(1)));
    crate::sim::runner::whole_groups(OBSERVATION, every)
}
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
    /// A bisection's progress (`--search bisect`): while it probes, `live` is the one probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisect: Option<Bisection>,
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
            bisect: None,
        }
    }

    /// A state that bisects the candidates (in the setting's order) instead of racing them all.
    pub fn bisecting(command: String, candidates: usize, requires: usize) -> TuneState {
        let b = Bisection::new(candidates);
        TuneState { live: vec![b.first()], bisect: Some(b), ..TuneState::new(command, candidates, requires) }
    }

    /// Games played over the whole search: every candidate's, and the probes of those that went on
    /// to the final race.
    pub fn games_played(&self) -> u64 {
        let live = self.live.len() as u64 * self.games;
        let gone: u64 = self.dropped.iter().map(|d| d.games).sum();
        live + gone + self.bisect.as_ref().map_or(0, |b| b.spent)
    }

    pub fn look(&self) -> Look<'_> {
        Look { goal: &self.goal, requires: &self.requires, cross: &self.cross }
    }

    /// Writes the state atomically, sealed with its tune's plan and a checksum (`tune_file`).
    pub fn save(&self, place: &Place) -> anyhow::Result<()> {
        let text = tune_file::seal(tune_file::STATE_FORMAT, place.plan, self)?;
        crate::io::write_atomic(&place.dir.join(FILE), |w| Ok(w.write_all(text.as_bytes())?))
            .with_context(|| format!("cannot save the tune's state in {}", place.dir.display()))
            .map(drop)
    }

    /// Reads `dir/tune-state.json` and the plan of the tune that saved it; a damaged, edited,
    /// truncated or foreign file, or one that is no regular file, is refused in one line.
    pub fn load(dir: &Path) -> Result<(TuneIdentity, TuneState), UsageError> {
        tune_file::read(&dir.join(FILE), tune_file::STATE_FORMAT, "tune state")
    }

    /// Why this state cannot be one of a tune of `candidates` candidates and `requires`
    /// requirements, if it cannot (so no decision ever indexes out of its tables).
    pub fn shape_error(&self, candidates: usize, requires: usize) -> Option<String> {
        let n = candidates;
        if self.goal.len() != n || self.cross.len() != n || self.cross.iter().any(|c| c.len() != n) {
            return Some(format!("its tables are not those of {n} candidates"));
        }
        if self.requires.len() != requires || self.requires.iter().any(|r| r.len() != n) {
            return Some(format!("its tables are not those of {requires} requirements"));
        }
        let mut seen = vec![false; n];
        for k in self.live.iter().copied().chain(self.dropped.iter().map(|d| d.candidate)) {
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return Some(format!("candidate {} is listed twice or does not exist", k + 1));
            }
        }
        None
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

/// Plays games `first..first + count` (whole observations of `obs_games` games) of every live
/// candidate and returns their sums, or None if `stop` was raised.
#[allow(clippy::too_many_arguments)]
pub fn play_block(
    engines: &[&dyn Point],
    measures: &[Measures],
    live: &[usize],
    master: u64,
    obs_games: u64,
    (first, count): (u64, u64),
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> Option<TuneState> {
    let k = engines.len();
    let requires = measures.first().map_or(0, |m| m.requires.len());
    let chunk = CHUNK_GROUPS * obs_games;
    (0..count.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let start = first + c * chunk;
            let n = (first + count).min(start + chunk) - start;
            let groups = n.div_ceil(obs_games) as usize;
            let mut part = TuneState::new(String::new(), k, requires);
            part.live = live.to_vec();
            // obs[j][cand][g]: measure j's (t, m) summed over group g of the chunk (j = 0: goal).
            let mut obs = vec![vec![vec![(0i64, 0i64); groups]; k]; 1 + requires];
            for &cand in live {
                let m = &measures[cand];
                engines[cand].play_each(master, start, n, &mut |i, rec| {
                    let g = ((i - start) / obs_games) as usize;
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

/// The games per candidate of the look after `done` games, with observations of `obs_games`.
pub fn next_look(done: u64, obs_games: u64) -> u64 {
    let mut n = FIRST_OBSERVATIONS * obs_games;
    while n <= done {
        n = n.saturating_mul(2);
    }
    n
}

/// Applies one look's decisions to the state: a bisection's probe, or the race's drops and then
/// whether the race stops.
pub fn decide(state: &mut TuneState, rules: &Rules, cap: u64, obs_games: u64) {
    if state.bisect.as_ref().is_some_and(|b| !b.racing) {
        return probe(state, rules, cap, obs_games);
    }
    let drops = race::drops(rules, &state.look(), &state.live);
    for (k, why) in drops {
        state.live.retain(|&l| l != k);
        state.dropped.push(Dropped { candidate: k, games: state.games, why });
    }
    state.stop = race::stop(rules, &state.look(), &state.live, state.games >= cap);
}

/// A bisection's probe after a look: inside the tolerance it is the answer; once its side of the
/// goal is known the bisection moves on (`stats::bisect`); at the cap the answer is not settled.
fn probe(state: &mut TuneState, rules: &Rules, cap: u64, obs_games: u64) {
    let Target::Equal(x) = rules.target else { unreachable!("the plan bisects only towards METRIC=T") };
    let k = state.live[0];
    let i = state.look().interval(rules, k);
    if rules.within.is_some_and(|tol| i.low >= x - tol && i.high <= x + tol) {
        state.stop = Some(Stop::AllWithin);
        return;
    }
    let b = state.bisect.as_mut().expect("probing");
    let next = match Side::of(&i, x) {
        Some(side) => b.decided(Probe { candidate: k, side, games: state.games }),
        None if state.games >= (FIRST_OBSERVATIONS * obs_games) << (STUCK_LOOKS - 1) => {
            b.spent += state.games;
            b.stuck(k)
        }
        None => {
            state.stop = (state.games >= cap).then_some(Stop::Cap);
            return;
        }
    };
    let (live, leaves) = match next {
        Next::Probe { candidate, leaves } => (vec![candidate], leaves),
        Next::Race { candidates, leaves } => (candidates, leaves),
    };
    if let Some(p) = leaves {
        state.dropped.push(Dropped { candidate: p.candidate, games: p.games, why: Drop::Side(p.side) });
    }
    if b.racing {
        b.spent =
            [b.low, b.high].iter().flatten().filter(|p| live.contains(&p.candidate)).map(|p| p.games).sum();
        // Bracket ends outside the race (a stuck probe's) leave with their side.
        for p in [b.low, b.high].into_iter().flatten().filter(|p| !live.contains(&p.candidate)) {
            state.dropped.push(Dropped { candidate: p.candidate, games: p.games, why: Drop::Side(p.side) });
        }
        for c in 0..b.n {
            if !live.contains(&c) && !state.dropped.iter().any(|d| d.candidate == c) {
                state.dropped.push(Dropped { candidate: c, games: 0, why: Drop::Beyond });
            }
        }
        // The race replays its candidates from game 0, so their pairs share every observation.
        for &c in &live {
            state.goal[c] = Sums::default();
        }
    }
    state.live = live;
    state.games = 0;
}

/// The games per candidate after the next look of `state`.
pub fn look_target(state: &TuneState, obs_games: u64, cap: u64) -> u64 {
    next_look(state.games, obs_games).min(cap.div_ceil(obs_games).saturating_mul(obs_games))
}

/// One shard's part of a look (`--shard K/N`): the sums of its share of the look's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardPart {
    pub k: u64,
    pub n: u64,
    /// The state's command, games per candidate and live candidates the look started from.
    pub command: String,
    pub from: u64,
    pub live: Vec<usize>,
    pub sums: TuneState,
}

impl ShardPart {
    /// Writes the part into its file (`shard_file`), sealed with its tune's plan; returns the name.
    pub fn save(&self, place: &Place) -> anyhow::Result<String> {
        let file = shard_file(self.k, self.n);
        let text = tune_file::seal(tune_file::SHARD_FORMAT, place.plan, self)?;
        crate::io::write_atomic(&place.dir.join(&file), |w| Ok(w.write_all(text.as_bytes())?))?;
        Ok(file)
    }

    /// Reads the part of shard `k` of `n` from `dir` and the plan of the tune that played it.
    pub fn load(dir: &Path, k: u64, n: u64) -> Result<(TuneIdentity, ShardPart), UsageError> {
        let path = dir.join(shard_file(k, n));
        if std::fs::symlink_metadata(&path).is_err() {
            return Err(UsageError(format!(
                "cannot read {}: it does not exist (run tune --shard {k}/{n} first)",
                path.display()
            )));
        }
        tune_file::read(&path, tune_file::SHARD_FORMAT, "tune shard")
    }
}

/// The file of shard `k` of `n` in the output folder.
pub fn shard_file(k: u64, n: u64) -> String {
    format!("tune-shard-{k}-of-{n}.json")
}

/// Whether `name` is the name of a shard file (`shard_file`).
pub fn is_shard_file(name: &str) -> bool {
    name.strip_prefix("tune-shard-")
        .and_then(|r| r.strip_suffix(".json"))
        .and_then(|r| r.split_once("-of-"))
        .is_some_and(|(k, n)| [k, n].iter().all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit())))
}

/// Shard `k` of `n`'s games of the block `(first, count)`: a contiguous run of whole observations.
pub fn shard_block((first, count): (u64, u64), obs_games: u64, k: u64, n: u64) -> (u64, u64) {
    let obs = count / obs_games;
    let (a, b) = ((k - 1) * obs / n, k * obs / n);
    (first + a * obs_games, (b - a) * obs_games)
}

/// Plays shard `k` of `n` of the next look of `state` (None if `stop` was raised).
#[allow(clippy::too_many_arguments)]
pub fn play_shard(
    state: &TuneState,
    engines: &[&dyn Point],
    measures: &[Measures],
    master: u64,
    (obs_games, cap): (u64, u64),
    (k, n): (u64, u64),
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> Option<ShardPart> {
    let target = look_target(state, obs_games, cap);
    let block = shard_block((state.games, target - state.games), obs_games, k, n);
    let sums = play_block(engines, measures, &state.live, master, obs_games, block, stop, tick)?;
    Some(ShardPart {
        k,
        n,
        command: state.command.clone(),
        from: state.games,
        live: state.live.clone(),
        sums,
    })
}

/// Merges the shards of the next look into `state` and decides the look, as `drive` would have;
/// an error names a part that does not belong to this look.
pub fn merge_shards(
    state: &mut TuneState,
    parts: &[ShardPart],
    rules: &Rules,
    (obs_games, cap): (u64, u64),
) -> Result<(), String> {
    for (i, p) in parts.iter().enumerate() {
        let k = i as u64 + 1;
        if p.k != k || p.n != parts.len() as u64 {
            return Err(format!("{} holds shard {}/{}", shard_file(k, parts.len() as u64), p.k, p.n));
        }
        if p.command != state.command || p.from != state.games || p.live != state.live {
            return Err(format!(
                "{} is a shard of another look or tune (it starts at {} games per candidate, the state at {})",
                shard_file(k, p.n),
                p.from,
                state.games
            ));
        }
    }
    for p in parts {
        state.merge(&p.sums);
    }
    state.games = look_target(state, obs_games, cap);
    decide(state, rules, cap, obs_games);
    Ok(())
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
    obs_games: u64,
    cap: u64,
    place: &Place,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<bool> {
    while state.stop.is_none() {
        // A stop asked for during the last look's decision or save ends the tune here, at the
        // next look (even one that would play nothing).
        if stop.load(Ordering::Relaxed) {
            state.save(place)?;
            return Ok(false);
        }
        let target = look_target(state, obs_games, cap);
        let block = (state.games, target - state.games);
        let Some(sums) = play_block(engines, measures, &state.live, master, obs_games, block, stop, tick)
        else {
            state.save(place)?;
            return Ok(false);
        };
        state.merge(&sums);
        state.games = target;
        decide(state, rules, cap, obs_games);
        state.save(place)?;
        // For warsim's tests: a Ctrl-C exactly after the first look (`sim::hooks`).
        crate::sim::hooks::signal_at("tune-look");
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_double_from_the_first() {
        let first = FIRST_OBSERVATIONS * 12;
        assert_eq!(next_look(0, 12), first);
        assert_eq!(next_look(first, 12), 2 * first);
        assert_eq!(next_look(3 * first, 12), 4 * first);
        assert_eq!(next_look(0, 10), FIRST_OBSERVATIONS * 10);
    }

    #[test]
    fn shards_split_a_block_into_whole_observations_that_cover_it() {
        let block = (2400, 2400 * 12);
        let parts: Vec<(u64, u64)> = (1..=7).map(|k| shard_block(block, 12, k, 7)).collect();
        assert_eq!(parts[0].0, 2400);
        for w in parts.windows(2) {
            assert_eq!(w[0].0 + w[0].1, w[1].0);
        }
        assert_eq!(parts[6].0 + parts[6].1, 2400 + 2400 * 12);
        assert!(parts.iter().all(|&(a, c)| a % 12 == 0 && c % 12 == 0));
    }

    #[test]
    fn observations_hold_whole_deal_groups_of_every_candidate() {
        // Independent games and rotations of 2, 3, 4 or 6 seats: twelve games.
        assert_eq!(observation_games([1, 2, 3, 4, 6]), 12);
        // Five rotated seats: ten games, not twelve (which would split every other deal).
        assert_eq!(observation_games([5]), 10);
        assert_eq!(observation_games([1, 5]), 10);
        // Groups that never fit in twelve: their common multiple.
        assert_eq!(observation_games([4, 5]), 20);
        assert_eq!(observation_games([7]), 7);
        assert_eq!(observation_games([16]), 16);
    }
}
