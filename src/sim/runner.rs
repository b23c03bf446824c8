//! Plays a range of game indices over the current rayon pool, in fixed chunks.
//!
//! Each chunk plays its games in index order with one reused scratch and record, and returns an
//! accumulator; accumulators merge exactly and order-independently, so the result is the same for
//! any thread count. Game `i` is seeded only from (master seed, `i`).

use rayon::prelude::*;

use crate::games::Engine;
use crate::record::GameRecord;
use crate::seed::GameSeed;
use crate::stats::Accumulator;

/// Games per chunk: large enough to amortise scheduling, small enough for a lively progress bar.
pub const CHUNK: u64 = 16_384;

pub fn play_range<E: Engine>(
    engine: &E,
    master: u64,
    first: u64,
    count: u64,
    tick: &(dyn Fn(u64) + Sync),
) -> Accumulator {
    let chunks = count.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map_init(
            || (engine.new_scratch(), GameRecord::default()),
            |(scratch, rec), c| {
                let start = first + c * CHUNK;
                let end = (start + CHUNK).min(first + count);
                let mut acc = Accumulator::new(engine.layout());
                for i in start..end {
                    rec.reset();
                    engine.play(GameSeed::new(master, i), scratch, rec);
                    acc.record(i, rec);
                }
                tick(end - start);
                acc
            },
        )
        .reduce(
            || Accumulator::new(engine.layout()),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
}
