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
use crate::stats::betting::Tally;
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

/// A ratio metric: per game, numerator `t` (less `less`, for a net count such as the positive
/// minus the negative differences of a paired impact) and denominator `m` (1 when `den` is None).
#[derive(Clone, Debug, PartialEq)]
pub struct RatioQuantity {
    pub num: Quantity,
    pub less: Option<Quantity>,
    pub den: Option<Quantity>,
}

impl RatioQuantity {
    #[inline]
    fn of(&self, rec: &GameRecord) -> (i64, i64) {
        let less = self.less.as_ref().map_or(0, |q| q.of(rec));
        (self.num.of(rec) - less, self.den.as_ref().map_or(1, |d| d.of(rec)))
    }

    /// A rate (0/1 per game) or a share of decided games (0/1 over 0/1): its intervals are
    /// betting sequences (`stats::betting`).
    pub fn bounded(&self) -> bool {
        self.less.is_none() && self.num.is_rate() && self.den.as_ref().is_none_or(|d| d.is_rate())
    }
}

/// What one candidate measures: the goal, then each requirement.
#[derive(Clone, Debug)]
pub struct Measures {
    pub goal: RatioQuantity,
    pub requires: Vec<RatioQuantity>,
    /// Games per deal group (`Layout::group_size`): one observation of a betting sequence.
    pub unit: u32,
}

impl Measures {
    /// Empty tallies of the goal and the requirements (size 0 for an unbounded metric).
    fn tallies(&self) -> (Tally, Vec<Tally>) {
        let t = |q: &RatioQuantity| {
            Tally::new(if q.bounded() && self.unit <= MAX_BET_UNIT { self.unit } else { 0 })
        };
        (t(&self.goal), self.requires.iter().map(t).collect())
    }
}

/// Largest deal group whose games a betting sequence takes as one observation (a histogram of
/// `(n + 1)(n + 2) / 2` bins); a larger group's rate keeps the normal-mixture sequence.
pub const MAX_BET_UNIT: u32 = 64;

/// One candidate's leaving the race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    pub candidate: usize,
    /// Games the candidate had played when it left (0: never played).
    pub games: u64,
    pub why: Drop,
    /// The paired difference (its estimate, low, high) to the candidate that beat it, as it was at
    /// the look that dropped it on that difference (`Drop::FartherPaired`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_best: Option<[f64; 3]>,
}

/// The sums of one block of games of the live candidates (or of a shard's share of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub goal: Vec<Sums>,
    pub requires: Vec<Vec<Sums>>,
    pub cross: Vec<Vec<Cross>>,
    pub bets: Vec<Tally>,
    pub require_bets: Vec<Vec<Tally>>,
}

impl Block {
    fn new(measures: &[Measures]) -> Block {
        let k = measures.len();
        let requires = measures.first().map_or(0, |m| m.requires.len());
        let (bets, require_bets): (Vec<Tally>, Vec<Vec<Tally>>) =
            measures.iter().map(Measures::tallies).unzip();
        Block {
            goal: vec![Sums::default(); k],
            requires: vec![vec![Sums::default(); k]; requires],
            cross: vec![vec![Cross::default(); k]; k],
            bets,
            // Per requirement, per candidate, as the sums are.
            require_bets: (0..requires)
                .map(|r| require_bets.iter().map(|b| b[r].clone()).collect())
                .collect(),
        }
    }

    fn merge(&mut self, o: &Block, live: &[usize]) {
        for &a in live {
            self.goal[a].merge(&o.goal[a]);
            self.bets[a].merge(&o.bets[a]);
            for r in 0..self.requires.len() {
                self.requires[r][a].merge(&o.requires[r][a]);
                self.require_bets[r][a].merge(&o.require_bets[r][a]);
            }
            for &b in live.iter().filter(|&&b| b > a) {
                self.cross[a][b].merge(&o.cross[a][b]);
            }
        }
    }
}

/// The saved search: sums, who is live, who left and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The command that made it (without `--resume`, `--threads`, `--quiet`): a resume must match.
    pub command: String,
    /// The next game index of the live candidates (they play in step from here).
    pub games: u64,
    pub live: Vec<usize>,
    pub dropped: Vec<Dropped>,
    /// Games each candidate has played: a bisection's probes, then the race.
    pub played: Vec<u64>,
    /// Each candidate's sums over all its games (probes included).
    pub goal: Vec<Sums>,
    pub requires: Vec<Vec<Sums>>,
    /// Tallies of bounded metrics over all the games, per candidate (and per requirement).
    pub bets: Vec<Tally>,
    pub require_bets: Vec<Vec<Tally>>,
    /// Goal sums since the live candidates began to play in step (the race's start), for the
    /// paired differences with `cross`.
    pub race: Vec<Sums>,
    pub cross: Vec<Vec<Cross>>,
    pub stop: Option<Stop>,
    /// A bisection's progress (`--search bisect`): while it probes, `live` is the one probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisect: Option<Bisection>,
}

impl TuneState {
    pub fn new(command: String, measures: &[Measures]) -> TuneState {
        let k = measures.len();
        let b = Block::new(measures);
        TuneState {
            command,
            games: 0,
            live: (0..k).collect(),
            dropped: Vec::new(),
            played: vec![0; k],
            race: b.goal.clone(),
            goal: b.goal,
            requires: b.requires,
            bets: b.bets,
            require_bets: b.require_bets,
            cross: b.cross,
            stop: None,
            bisect: None,
        }
    }

    /// A state that bisects the candidates (in the setting's order) instead of racing them all.
    pub fn bisecting(command: String, measures: &[Measures]) -> TuneState {
        let b = Bisection::new(measures.len());
        TuneState { live: vec![b.first()], bisect: Some(b), ..TuneState::new(command, measures) }
    }

    /// Games played over the whole search, every probe and race game of every candidate.
    pub fn games_played(&self) -> u64 {
        self.played.iter().sum()
    }

    pub fn look(&self) -> Look<'_> {
        Look {
            goal: &self.goal,
            requires: &self.requires,
            race: &self.race,
            cross: &self.cross,
            bets: &self.bets,
            require_bets: &self.require_bets,
        }
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
        let tallies_fit = |t: &[Tally]| {
            t.len() == n && t.iter().all(|t| t.counts.len() == crate::stats::betting::bins(t.size))
        };
        if self.played.len() != n
            || self.race.len() != n
            || !tallies_fit(&self.bets)
            || self.require_bets.len() != requires
            || !self.require_bets.iter().all(|t| tallies_fit(t))
        {
            return Some(format!("its tables are not those of {n} candidates"));
        }
        if let Some(b) = &self.bisect
            && (b.n != n
                || b.probes.iter().map(|p| p.candidate).chain(b.assumed.iter().copied()).any(|k| k >= n))
        {
            return Some(format!("its bisection is not one of {n} candidates"));
        }
        let mut seen = vec![false; n];
        for k in self.live.iter().copied().chain(self.dropped.iter().map(|d| d.candidate)) {
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return Some(format!("candidate {} is listed twice or does not exist", k + 1));
            }
        }
        None
    }

    /// Adds a block of `count` games of each live candidate to the state.
    fn absorb(&mut self, block: &Block, count: u64) {
        for &a in &self.live {
            self.played[a] += count;
            self.goal[a].merge(&block.goal[a]);
            self.race[a].merge(&block.goal[a]);
            self.bets[a].merge(&block.bets[a]);
            for r in 0..self.requires.len() {
                self.requires[r][a].merge(&block.requires[r][a]);
                self.require_bets[r][a].merge(&block.require_bets[r][a]);
            }
            for &b in self.live.iter().filter(|&&b| b > a) {
                self.cross[a][b].merge(&block.cross[a][b]);
            }
        }
        self.games += count;
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
) -> Option<Block> {
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
            let mut part = Block::new(measures);
            // obs[j][cand][g]: measure j's (t, m) summed over observation g of the chunk (j = 0:
            // the goal); unit[j]: the same over the current deal group, for the tallies.
            let mut obs = vec![vec![vec![(0i64, 0i64); groups]; k]; 1 + requires];
            for &cand in live {
                let m = &measures[cand];
                let unit = m.unit.max(1) as u64;
                let mut group = vec![(0i64, 0i64); 1 + requires];
                let (bets, require_bets) = (&mut part.bets, &mut part.require_bets);
                engines[cand].play_each(master, start, n, &mut |i, rec| {
                    let g = ((i - start) / obs_games) as usize;
                    for (j, q) in std::iter::once(&m.goal).chain(&m.requires).enumerate() {
                        let (t, d) = q.of(rec);
                        obs[j][cand][g].0 += t;
                        obs[j][cand][g].1 += d;
                        group[j].0 += t;
                        group[j].1 += d;
                    }
                    if (i - start + 1).is_multiple_of(unit) {
                        for (j, (t, d)) in group.iter_mut().enumerate() {
                            let tally = if j == 0 { &mut bets[cand] } else { &mut require_bets[j - 1][cand] };
                            if tally.bounded() {
                                tally.add(*t, *d);
                            }
                            (*t, *d) = (0, 0);
                        }
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
            || Some(Block::new(measures)),
            |a, b| match (a, b) {
                (Some(mut a), Some(b)) => {
                    a.merge(&b, live);
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
    let mut drops = race::drops(rules, &state.look(), &state.live);
    if let (true, Target::Equal(x)) = (state.bisect.is_some(), rules.target) {
        // The race's games sharpen the probes: a raced setting of known side narrows the
        // stretch of the crossing, and the settings beyond it leave.
        let sides: Vec<(usize, Side)> = (state.live.iter())
            .filter_map(|&k| Side::of(&state.look().interval(rules, k), x).map(|s| (k, s)))
            .collect();
        let b = state.bisect.as_mut().expect("bisecting");
        for (k, side) in sides {
            for c in b.sharpened(k, side, &state.live) {
                if !drops.iter().any(|(d, _)| *d == c) {
                    drops.push((c, Drop::Beyond));
                }
            }
        }
    }
    // A paired difference that decided a drop is kept as it was then (the best's sums go on).
    let decided_by: Vec<Option<[f64; 3]>> = (drops.iter())
        .map(|(k, why)| match why {
            Drop::FartherPaired { best } => {
                let d = state.look().paired(rules, *best, *k);
                Some([d.estimate, d.low, d.high])
            }
            _ => None,
        })
        .collect();
    for ((k, why), to_best) in drops.into_iter().zip(decided_by) {
        state.live.retain(|&l| l != k);
        state.dropped.push(Dropped { candidate: k, games: state.played[k], why, to_best });
    }
    state.stop = race::stop(rules, &state.look(), &state.live, state.games >= cap_games(cap, obs_games));
}

/// The cap in whole observations.
fn cap_games(cap: u64, obs_games: u64) -> u64 {
    cap.div_ceil(obs_games).saturating_mul(obs_games)
}

/// A bisection's probe after a look: inside the tolerance it is the answer; once its side of the
/// goal is known, or after `STUCK_LOOKS` looks (or at the cap) without it, the bisection takes
/// its finding and moves on (`stats::bisect`): to the next probe, or to the final race, which goes
/// on from the games its candidates played as probes.
fn probe(state: &mut TuneState, rules: &Rules, cap: u64, obs_games: u64) {
    let x = rules.target.value();
    let k = state.live[0];
    let i = state.look().interval(rules, k);
    if let (Target::Equal(_), Some(tol)) = (rules.target, rules.within)
        && i.low >= x - tol
        && i.high <= x + tol
    {
        state.stop = Some(Stop::AllWithin);
        return;
    }
    let stuck_at = ((FIRST_OBSERVATIONS * obs_games) << (STUCK_LOOKS - 1)).min(cap_games(cap, obs_games));
    let finding = match Side::of(&i, x) {
        Some(side) => Some(side),
        None if state.games >= stuck_at => None,
        None => return,
    };
    let b = state.bisect.as_mut().expect("probing");
    match b.decided(Probe { candidate: k, finding, games: state.games }) {
        Next::Probe(c) => {
            state.live = vec![c];
            state.games = state.played[c];
        }
        Next::Race(stretch) => {
            let meets = rules.target.meeting_side();
            let mut raced = Vec::new();
            for c in 0..b.n {
                let inside = stretch.contains(&c);
                match (inside, meets, b.side_outside(c)) {
                    // An `=` goal races the whole stretch.
                    (true, None, _) => raced.push(c),
                    // A `>=`/`<=` goal: a setting of the stretch shown to miss leaves; the rest
                    // race until each shows it meets the goal.
                    (true, Some(m), Some(s)) if s != m => state.dropped.push(Dropped {
                        candidate: c,
                        games: state.played[c],
                        why: Drop::MissesGoal,
                        to_best: None,
                    }),
                    (true, Some(_), _) => raced.push(c),
                    // Beyond a probe that meets the goal, every setting meets it too.
                    (false, Some(m), Some(s)) if s == m => b.assumed.push(c),
                    (false, _, _) => state.dropped.push(Dropped {
                        candidate: c,
                        games: state.played[c],
                        why: Drop::Beyond,
                        to_best: None,
                    }),
                }
            }
            // The race goes on from the deepest probe's games: every candidate keeps its probe's
            // games, and all play in step from there, pairing their games from that point on.
            state.games = raced.iter().map(|&c| state.played[c]).max().unwrap_or(0);
            state.live = raced;
            for c in 0..state.race.len() {
                state.race[c] = Sums::default();
            }
            if meets.is_some() || state.games >= cap_games(cap, obs_games) {
                decide(state, rules, cap, obs_games);
            }
        }
    }
}

/// The next game index after the next look of `state` (probes and race alike play their live
/// candidates in step).
pub fn look_target(state: &TuneState, obs_games: u64, cap: u64) -> u64 {
    next_look(state.games, obs_games).min(cap_games(cap, obs_games)).max(state.games)
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
    pub sums: Block,
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
    let target = look_target(state, obs_games, cap);
    let mut whole = parts[0].sums.clone();
    for p in &parts[1..] {
        whole.merge(&p.sums, &state.live);
    }
    state.absorb(&whole, target - state.games);
    decide(state, rules, cap, obs_games);
    Ok(())
}

/// Plays the next look of the race from `state` and decides on it (`master` seed, games per
/// observation, games cap); false, with `state` as it was, when `stop` was raised first.
pub fn look(
    state: &mut TuneState,
    rules: &Rules,
    engines: &[&dyn Point],
    measures: &[Measures],
    (master, obs_games, cap): (u64, u64, u64),
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
) -> bool {
    let target = look_target(state, obs_games, cap);
    let block = (state.games, target - state.games);
    let Some(sums) = play_block(engines, measures, &state.live, master, obs_games, block, stop, tick) else {
        return false;
    };
    state.absorb(&sums, block.1);
    decide(state, rules, cap, obs_games);
    true
}

/// Plays the search from `state` to its stop (or until `stop` is raised: then returns false with
/// the state as of its last complete look, saved).
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
        if !look(state, rules, engines, measures, (master, obs_games, cap), stop, tick) {
            state.save(place)?;
            return Ok(false);
        }
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
