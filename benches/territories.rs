//! Throughput of Territorial Warfare: games per second on one thread per agent line-up, so the
//! cost of each agent (and the search agent's cost per decision) can be read off directly.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::games::Engine;
use warsim::games::territories::{Rules, TerritoriesEngine, Version};
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;

/// Plays `games` consecutive games of one engine with one scratch, statistics recorded, as the
/// runner does per chunk; returns the rounds played (to keep the work observable).
fn play(engine: &TerritoriesEngine, first: u64, games: u64) -> u64 {
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let acc = play_games(engine, &mut scratch, &mut rec, 1, first..first + games);
    acc.length.sum() as u64
}

fn lineups(c: &mut Criterion) {
    let cases: [(&str, Version, &str, u64, u32); 6] = [
        ("random-A", Version::A, "random", 1000, 1),
        ("random-B", Version::B, "random", 1000, 1),
        ("greedy-random-A", Version::A, "greedy,random", 500, 1),
        ("drawer-greedy-B", Version::B, "drawer,greedy", 500, 1),
        ("search100-greedy-A", Version::A, "search,greedy", 2, 100),
        ("search20-greedy-A", Version::A, "search,greedy", 4, 20),
    ];
    let mut group = c.benchmark_group("territories-2p");
    group.sample_size(10);
    for (name, version, lineup, games, budget) in cases {
        let mut rules = Rules::two(version, lineup);
        rules.search_budget = budget;
        let engine = TerritoriesEngine::new(rules);
        group.throughput(Throughput::Elements(games));
        let mut first = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                first += games;
                play(&engine, first, games)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, lineups);
criterion_main!(benches);
