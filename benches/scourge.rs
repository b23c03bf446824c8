//! Throughput of Scourge War: games per second (with statistics recorded, as a run records them),
//! one thread: the duel for 2, 3 and 4 Draconian decks, and the team game for four and six
//! players with 2 decks. The issues ask for 200,000 two-deck duel games per second per core, and
//! 250,000 four-player and 200,000 six-player team games.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warsim::cards::Pack;
use warsim::games::Engine;
use warsim::games::scourge::{Legendless, ScourgeEngine, TeamEngine};
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;

/// Games per benchmark iteration.
const GAMES: u64 = 1_000;

/// Benchmarks `engine` as member `id` of `group`, a fresh range of games every iteration.
fn bench<E: Engine>(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    id: BenchmarkId,
    engine: &E,
) {
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let mut next = 0u64;
    group.bench_function(id, |b| {
        b.iter(|| {
            let acc = play_games(engine, &mut scratch, &mut rec, 1, next..next + GAMES);
            next += GAMES;
            black_box(acc.games)
        })
    });
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("scourge");
    group.throughput(Throughput::Elements(GAMES));
    for decks in [2usize, 3, 4] {
        bench(&mut group, BenchmarkId::new("decks", decks), &ScourgeEngine::new(Pack::Draconian, decks));
    }
    for players in [4usize, 6] {
        let engine = TeamEngine::new(Pack::Draconian, 2, players / 2, Legendless::SitOut);
        bench(&mut group, BenchmarkId::new("players", players), &engine);
    }
    group.finish();
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
