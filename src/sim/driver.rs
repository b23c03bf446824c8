//! The driver of a run: plays every unfinished point of a `RunState` in blocks, checkpoints the
//! state after each block, stops at `--until`'s test points when the target is met, and stops
//! cleanly when a signal asks.
//!
//! Blocks and chunks adapt to what a game costs, measured as the run goes (`Pace`): a chunk (the
//! unit a thread plays between looks at the stop flag) takes about `CHUNK_SECONDS`, so a stop is
//! acted on within a second for any game and policy; a block (the unit between checkpoints) takes
//! about `BLOCK_SECONDS`, so a SIGKILL loses at most that much work, and grows at most twofold
//! per block from a few games, so a slow game's first block is short too. Sizes never change
//! results: statistics merge exactly, and `--until` tests at fixed game counts. The driver writes
//! only the state; what the files say is the command layer's business (`on_point`). For its tests,
//! `WARSIM_TEST_CHECKPOINT_EVERY` fixes the block size and `WARSIM_TEST_PAUSE` stops the run after
//! its first checkpoint until a signal comes (`hooks`).

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use crate::games::Point;
use crate::sim::checkpoint::RunState;
use crate::sim::hooks::{self, Hooks, Moment};
use crate::sim::progress::Progress;
use crate::sim::runner::{self, CHUNK};
use crate::sim::signal;
use crate::sim::until::Until;
use crate::stats::Timings;

/// A block of games should take about this long (the time a SIGKILL may lose).
pub const BLOCK_SECONDS: f64 = 2.0;
/// A chunk of games (what one thread plays between looks at the stop flag) should take about this.
pub const CHUNK_SECONDS: f64 = 0.1;

/// The sizes of chunks and blocks, from the measured cost of the games played so far.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    pub chunk: u64,
    pub block: u64,
    threads: u64,
}

impl Pace {
    pub fn new(threads: usize) -> Pace {
        let threads = threads as u64;
        Pace { chunk: 1, block: 2 * threads, threads }
    }

    /// Learns from a block of `games` that took `seconds` on the pool.
    pub fn learn(&mut self, games: u64, seconds: f64) {
        if games == 0 {
            return;
        }
        // Thread-seconds per game: the pool kept `threads` threads busy for `seconds`.
        let per_game = (seconds * self.threads as f64 / games as f64).max(1e-9);
        let chunk = (CHUNK_SECONDS / per_game).round().clamp(1.0, CHUNK as f64) as u64;
        self.chunk = chunk.min(2 * self.chunk.max(1));
        let block = (BLOCK_SECONDS * self.threads as f64 / per_game).round() as u64;
        let most = 256 * self.threads * CHUNK;
        self.block = block.clamp(self.chunk * self.threads, most).min(2 * self.block);
    }
}

/// What the driver needs besides the state.
pub struct Drive<'a> {
    /// The engine of every point of the state, in order.
    pub points: Vec<&'a dyn Point>,
    pub seed: u64,
    pub until: Option<&'a Until>,
    pub threads: usize,
    /// Where the state is checkpointed.
    pub out: &'a Path,
}

/// How a drive ended.
#[derive(Debug)]
pub struct Driven {
    /// Games played by this process.
    pub played: u64,
    /// A signal stopped the run before every point was complete.
    pub interrupted: bool,
    /// Each point's decision costs, as measured by this process.
    pub timings: Vec<Timings>,
}

impl Drive<'_> {
    /// Plays until every point is complete or a stop is requested. `on_point` is called with the
    /// state after each point completes while others remain (so a finished point's files are never
    /// lost).
    pub fn run(
        &self,
        state: &mut RunState,
        pool: &rayon::ThreadPool,
        progress: &Progress,
        on_point: &mut dyn FnMut(&RunState) -> anyhow::Result<()>,
    ) -> anyhow::Result<Driven> {
        let every = Hooks::get()?.checkpoint_every;
        let tick = |n: u64| progress.add(n);
        let mut pace = Pace::new(self.threads);
        let mut played = 0u64;
        let timings: Vec<Mutex<Timings>> = state.points.iter().map(|_| Mutex::new(Timings::new())).collect();
        let collected = |t: Vec<Mutex<Timings>>| {
            t.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
        };
        // Checkpoints (the state, and the files of finished points) are written at most every
        // BLOCK_SECONDS: a SIGKILL loses no more, and a sweep of many short points does not
        // rewrite its state once per point.
        let mut saved = Instant::now();
        for i in 0..state.points.len() {
            if state.points[i].complete {
                continue;
            }
            progress.message(state.points[i].label.clone());
            let engine = self.points[i];
            loop {
                let p = &state.points[i];
                let total = p.end - p.first;
                if p.done >= total || self.until_met(p.done, &p.layout, &p.acc) {
                    break;
                }
                let group = p.layout.group_size;
                let target = match self.until {
                    Some(_) => Until::next_test_point(p.done, group).min(total),
                    None => total,
                };
                while state.points[i].done < target {
                    let p = &mut state.points[i];
                    // Whole deal groups: the target is a group boundary or the point's last game.
                    let count = runner::whole_groups(every.unwrap_or(pace.block), group).min(target - p.done);
                    let n = if signal::stop_requested() {
                        0
                    } else {
                        let first = p.first + p.done;
                        let started = Instant::now();
                        let (acc, n) = pool.install(|| {
                            let stop = signal::stop_flag();
                            runner::play_block(
                                engine,
                                self.seed,
                                first,
                                count,
                                pace.chunk,
                                stop,
                                &tick,
                                &timings[i],
                            )
                        });
                        pace.learn(n, started.elapsed().as_secs_f64());
                        p.acc.merge(&acc);
                        n
                    };
                    p.done += n;
                    played += n;
                    if n < count {
                        state.save(self.out)?;
                        return Ok(Driven { played, interrupted: true, timings: collected(timings) });
                    }
                    if every.is_some() || saved.elapsed().as_secs_f64() >= BLOCK_SECONDS {
                        state.save(self.out)?;
                        saved = Instant::now();
                        if state.points.iter().any(|p| !p.complete && p.done < p.end - p.first) {
                            hooks::pause_at(Moment::Checkpoint);
                        }
                    }
                }
            }
            state.points[i].complete = true;
            if !state.complete() && saved.elapsed().as_secs_f64() >= BLOCK_SECONDS {
                state.save(self.out)?;
                on_point(state)?;
                saved = Instant::now();
            }
        }
        state.save(self.out)?;
        Ok(Driven { played, interrupted: false, timings: collected(timings) })
    }

    fn until_met(&self, done: u64, layout: &crate::record::Layout, acc: &crate::stats::Accumulator) -> bool {
        self.until.is_some_and(|u| Until::is_test_point(done, layout.group_size) && u.met(layout, acc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_games_get_short_chunks_and_blocks() {
        // 12 games a second on one thread (a search policy): chunks of one game, blocks of about
        // two seconds, reached by doubling.
        let mut pace = Pace::new(1);
        assert_eq!((pace.chunk, pace.block), (1, 2));
        for _ in 0..10 {
            let games = pace.block;
            pace.learn(games, games as f64 / 12.0);
        }
        assert_eq!(pace.chunk, 1);
        assert_eq!(pace.block, 24);
    }

    #[test]
    fn fast_games_grow_to_full_chunks_and_long_blocks() {
        // 400,000 games a second on two threads.
        let mut pace = Pace::new(2);
        for _ in 0..40 {
            let games = pace.block;
            pace.learn(games, games as f64 / 400_000.0);
        }
        assert_eq!(pace.chunk, CHUNK);
        assert_eq!(pace.block, 800_000);
    }
}
