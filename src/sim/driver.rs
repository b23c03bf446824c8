//! The driver of a run: plays every unfinished point of a `RunState` in blocks, checkpoints the
//! state after each block, stops at `--until`'s test points when the target is met, and stops
//! cleanly when a signal asks.
//!
//! Blocks start at a few chunks per thread and double while they take under `BLOCK_SECONDS`: short
//! enough to checkpoint often (a SIGKILL loses at most one block), long enough that the wait for a
//! block's last chunk and the checkpoint cost nothing measurable. Block sizes never change results:
//! statistics merge exactly, and `--until` tests at fixed game counts. The driver writes only the
//! state; what the files say is the command layer's business (`on_point`).

use std::path::Path;
use std::time::Instant;

use crate::games::Point;
use crate::sim::checkpoint::RunState;
use crate::sim::progress::Progress;
use crate::sim::runner::{self, CHUNK};
use crate::sim::signal;
use crate::sim::until::Until;

/// A block of games should take about this long (the time a SIGKILL may lose).
pub const BLOCK_SECONDS: f64 = 2.0;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Driven {
    /// Games played by this process.
    pub played: u64,
    /// A signal stopped the run before every point was complete.
    pub interrupted: bool,
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
        let tick = |n: u64| progress.add(n);
        let mut block = (2 * self.threads as u64).max(4) * CHUNK;
        let max_block = 256 * self.threads as u64 * CHUNK;
        let mut played = 0u64;
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
                let target = match self.until {
                    Some(_) => Until::next_test_point(p.done).min(total),
                    None => total,
                };
                while state.points[i].done < target {
                    let p = &mut state.points[i];
                    let count = block.min(target - p.done);
                    let n = if signal::stop_requested() {
                        0
                    } else {
                        let first = p.first + p.done;
                        let started = Instant::now();
                        let (acc, n) = pool.install(|| {
                            runner::play_block(engine, self.seed, first, count, signal::stop_flag(), &tick)
                        });
                        if n == count && count == block && started.elapsed().as_secs_f64() < BLOCK_SECONDS {
                            block = (block * 2).min(max_block);
                        }
                        p.acc.merge(&acc);
                        n
                    };
                    p.done += n;
                    played += n;
                    state.save(self.out)?;
                    if n < count {
                        return Ok(Driven { played, interrupted: true });
                    }
                }
            }
            state.points[i].complete = true;
            state.save(self.out)?;
            if !state.complete() {
                on_point(state)?;
            }
        }
        Ok(Driven { played, interrupted: false })
    }

    fn until_met(&self, done: u64, layout: &crate::record::Layout, acc: &crate::stats::Accumulator) -> bool {
        self.until.is_some_and(|u| Until::is_test_point(done) && u.met(layout, acc))
    }
}
