//! Throughput of Scourge War: games per second (with statistics recorded, as a run records them)
//! for 2, 3 and 4 Draconian decks, one thread. The issue asks for 200,000 two-deck games per second
//! per core; `examples/scourge_timing.rs` measures the same through the runner on a long range.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warsim::cards::Pack;
use warsim::games::Engine;
use warsim::games::scourge::ScourgeEngine;
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;

/// Games per benchmark iteration.
const GAMES: u64 = 1_000;

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("scourge");
    group.throughput(Throughput::Elements(GAMES));
    for decks in [2usize, 3, 4] {
        let engine = ScourgeEngine::new(Pack::Draconian, decks);
        let mut scratch = engine.new_scratch();
        let mut rec = GameRecord::new(engine.layout());
        let mut next = 0u64;
        group.bench_with_input(BenchmarkId::new("decks", decks), &decks, |b, _| {
            b.iter(|| {
                let acc = play_games(&engine, &mut scratch, &mut rec, 1, next..next + GAMES);
                next += GAMES;
                black_box(acc.games)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
