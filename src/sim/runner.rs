//! Plays a range of game indices over the current rayon pool, in fixed chunks.
//!
//! Each chunk plays its games in index order with one reused scratch and record, and returns an
//! accumulator; accumulators merge exactly and order-independently, so the result is the same for
//! any thread count. Game `i` is seeded only from (master seed, `i`). Chunks hold whole deal
//! groups (`Layout::group_size` games; `whole_groups`): a range starts at a group's first game,
//! and every chunk but a range's last holds a multiple of the group size, so no group straddles
//! two chunks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::games::{Engine, Point};
use crate::record::GameRecord;
use crate::seed::GameSeed;
use crate::stats::tracked::Plan;
use crate::stats::{Accumulator, Timings};

/// Every engine is a scenario point: the runner plays it.
impl<E: Engine> Point for E {
    fn layout(&self) -> &crate::record::Layout {
        Engine::layout(self)
    }

    fn play_range_timed(
        &self,
        master: u64,
        first: u64,
        count: u64,
        tick: &(dyn Fn(u64) + Sync),
        timings: &Mutex<Timings>,
    ) -> Accumulator {
        play_range(self, master, first, count, tick, timings)
    }

    fn play_block(
        &self,
        master: u64,
        first: u64,
        count: u64,
        chunk: u64,
        stop: &AtomicBool,
        tick: &(dyn Fn(u64) + Sync),
        timings: &Mutex<Timings>,
    ) -> (Accumulator, u64) {
        play_chunks(self, master, first, count, chunk, stop, tick, timings)
    }

    fn story(&self, seed: GameSeed) -> (String, GameRecord) {
        let mut out = String::new();
        let rec = Engine::narrate(self, seed, &mut out);
        (out, rec)
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        Engine::census(self, seed)
    }

    fn unit(&self) -> &'static str {
        Engine::unit(self)
    }

    fn story_game(&self, seed: GameSeed, a: usize, b: usize) -> Result<String, String> {
        let mut out = String::new();
        Engine::narrate_game(self, seed, a, b, &mut out).map(|()| out)
    }

    fn play_one(&self, seed: GameSeed) -> GameRecord {
        let mut scratch = self.new_scratch();
        let mut rec = GameRecord::new(Engine::layout(self));
        self.play(seed, &mut scratch, &mut rec);
        rec
    }

    fn play_each(&self, master: u64, first: u64, count: u64, each: &mut dyn FnMut(u64, &GameRecord)) {
        let mut scratch = self.new_scratch();
        let mut rec = GameRecord::new(Engine::layout(self));
        for i in first..first + count {
            rec.reset();
            self.play(GameSeed::new(master, i), &mut scratch, &mut rec);
            each(i, &rec);
        }
    }
}

/// Games per chunk: large enough to amortise scheduling, small enough for a lively progress bar.
pub const CHUNK: u64 = 16_384;

/// `games` moved down to a multiple of `group` (at least one group): a chunk or block size that
/// never splits a deal group.
pub fn whole_groups(games: u64, group: u64) -> u64 {
    let group = group.max(1);
    (games - games % group).max(group)
}

/// Plays games `games` of `engine` in index order with one reused scratch and record: the loop
/// every chunk of a run runs, and the one the benchmarks time. `games` starts at a deal group's
/// first game; a group it ends inside of is closed as it is (the run's last, shorter group).
#[inline]
pub fn play_games<E: Engine>(
    engine: &E,
    scratch: &mut E::Scratch,
    rec: &mut GameRecord,
    master: u64,
    games: std::ops::Range<u64>,
) -> Accumulator {
    let mut acc = Accumulator::new(engine.layout());
    play_into(engine, scratch, rec, master, games, &mut acc);
    acc.finish_group();
    acc
}

/// The per-game loop of `play_games`: plays and records each game into `acc`. Kept out of line so
/// that the speed guard (`scripts/instructions.sh`) can count the instructions spent in it alone,
/// without the start-up, the files and the per-chunk set-up, whose share depends on timing.
#[inline(never)]
pub fn play_into<E: Engine>(
    engine: &E,
    scratch: &mut E::Scratch,
    rec: &mut GameRecord,
    master: u64,
    games: std::ops::Range<u64>,
    acc: &mut Accumulator,
) {
    if !Accumulator::clears_by_list(rec) {
        for i in games {
            rec.reset();
            engine.play(GameSeed::new(master, i), scratch, rec);
            acc.record(i, rec);
        }
        return;
    }
    // A wide record (a card set's per-card table): cleared once here, then each game's recording
    // clears only what the game set (`take`).
    rec.reset();
    for i in games {
        engine.play(GameSeed::new(master, i), scratch, rec);
        acc.take(i, rec);
    }
}

/// Plays games `first..first + count` of `engine` over the current rayon pool, in chunks of at most
/// `CHUNK`; each chunk hands its decision costs to `timings`.
pub fn play_range<E: Engine>(
    engine: &E,
    master: u64,
    first: u64,
    count: u64,
    tick: &(dyn Fn(u64) + Sync),
    timings: &Mutex<Timings>,
) -> Accumulator {
    let chunk = whole_groups(CHUNK, engine.layout().group_size);
    let chunks = count.div_ceil(chunk);
    (0..chunks)
        .into_par_iter()
        .map_init(
            || (engine.new_scratch(), GameRecord::new(engine.layout())),
            |(scratch, rec), c| {
                let start = first + c * chunk;
                let end = (start + chunk).min(first + count);
                let acc = play_games(engine, scratch, rec, master, start..end);
                // Straight into the shared timings: no chunk-sized copy of the histograms.
                engine.take_timings(scratch, &mut timings.lock().unwrap_or_else(|e| e.into_inner()));
                tick(end - start);
                acc
            },
        )
        // Without an identity: a range is mostly a single chunk, whose statistics need no empty
        // accumulator to merge into (building one costs as much as a few games).
        .reduce_with(|mut a, b| {
            a.merge(&b);
            a
        })
        .unwrap_or_else(|| Accumulator::new(engine.layout()))
}

/// Plays games `first..first + count` of `point` as parallel chunks, unless `stop` is raised: a
/// chunk that sees the flag before it starts is skipped. Returns the statistics of the longest
/// run of finished chunks from `first` and how many games that is, so the games played always
/// form a prefix `first..first + played` and a run can be resumed right after them.
/// The stop flag is read before each chunk, so `chunk` (at most `CHUNK`) bounds how long a stop
/// waits: the driver sizes it from the game's measured cost.
#[allow(clippy::too_many_arguments)]
pub fn play_block(
    point: &dyn crate::games::Point,
    master: u64,
    first: u64,
    count: u64,
    chunk: u64,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
    timings: &Mutex<Timings>,
) -> (Accumulator, u64) {
    point.play_block(master, first, count, chunk, stop, tick, timings)
}

/// What one thread plays a block's chunks with: the game's scratch and record, kept from chunk to
/// chunk of the block (a scratch is costly to build: the seats' decision clocks hold histograms).
/// The decisions the thread timed are handed to the block's timings once, when it is done.
struct Bench<'a, E: Engine> {
    engine: &'a E,
    scratch: E::Scratch,
    rec: GameRecord,
    timings: &'a Mutex<Timings>,
}

impl<E: Engine> Drop for Bench<'_, E> {
    fn drop(&mut self) {
        let mut timings = self.timings.lock().unwrap_or_else(|e| e.into_inner());
        self.engine.take_timings(&mut self.scratch, &mut timings);
    }
}

/// `play_block` for one engine: the chunks of the block share the layout's statistics plan (built
/// once per block) and each thread's `Bench`; each chunk still has its own statistics, so that a
/// stop keeps exactly the finished prefix.
#[allow(clippy::too_many_arguments)]
fn play_chunks<E: Engine>(
    engine: &E,
    master: u64,
    first: u64,
    count: u64,
    chunk: u64,
    stop: &AtomicBool,
    tick: &(dyn Fn(u64) + Sync),
    timings: &Mutex<Timings>,
) -> (Accumulator, u64) {
    let layout = engine.layout();
    let chunk = whole_groups(chunk.clamp(1, CHUNK), layout.group_size);
    let chunks = count.div_ceil(chunk);
    let size = |c: u64| chunk.min(count - c * chunk);
    let plan = Arc::new(Plan::of(layout));
    let parts: Vec<Option<Accumulator>> = (0..chunks)
        .into_par_iter()
        .map_init(
            || Bench { engine, scratch: engine.new_scratch(), rec: GameRecord::new(layout), timings },
            |bench, c| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let start = first + c * chunk;
                let mut acc = Accumulator::with_plan(layout, plan.clone());
                play_into(
                    engine,
                    &mut bench.scratch,
                    &mut bench.rec,
                    master,
                    start..start + size(c),
                    &mut acc,
                );
                acc.finish_group();
                tick(size(c));
                Some(acc)
            },
        )
        .collect();
    // The first chunk's statistics are the sum's start: merging them into empty ones would copy
    // them.
    let mut whole: Option<Accumulator> = None;
    let mut played = 0;
    for (c, part) in parts.into_iter().enumerate() {
        let Some(part) = part else { break };
        match &mut whole {
            None => whole = Some(part),
            Some(acc) => acc.merge(&part),
        }
        played += size(c as u64);
    }
    (whole.unwrap_or_else(|| Accumulator::with_plan(layout, plan)), played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A stop raised while a block plays lets no later chunk start, and what was played is a
    /// prefix of the block, resumable right after it.
    #[test]
    fn a_stop_during_a_block_plays_no_further_chunk() {
        let req = crate::scenario::for_game("war");
        let points = crate::scenario::expand(&req, &[]).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let stop = AtomicBool::new(false);
        let raise = |_: u64| stop.store(true, Ordering::SeqCst);
        let timings = Mutex::new(Timings::new());
        let (acc, played) =
            pool.install(|| play_block(&*points[0].engine, 7, 100, 8, 1, &stop, &raise, &timings));
        assert_eq!((played, acc.games), (1, 1));
        // Without a stop the same block plays all eight games.
        let never = AtomicBool::new(false);
        let (acc, played) =
            pool.install(|| play_block(&*points[0].engine, 7, 100, 8, 1, &never, &|_| {}, &timings));
        assert_eq!((played, acc.games), (8, 8));
    }
}
