//! Throughput of Cardwars: games per second on one thread per agent line-up, so the cost of each
//! agent (and the search agent's cost per decision) can be read off directly.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::games::Engine;
use warsim::games::cardwars::{CardwarsEngine, Rules};
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;

/// Plays `games` consecutive games of one engine with one scratch, statistics recorded, as the
/// runner does per chunk; returns the turns played (to keep the work observable).
fn play(engine: &CardwarsEngine, first: u64, games: u64) -> u64 {
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let acc = play_games(engine, &mut scratch, &mut rec, 1, first..first + games);
    acc.length.sum() as u64
}

fn lineups(c: &mut Criterion) {
    let cases: [(&str, &str, u64, u32); 5] = [
        ("random", "random", 2000, 1),
        ("aggressive", "aggressive", 2000, 1),
        ("defensive-random", "defensive,random", 1000, 1),
        ("search100-aggressive", "search,aggressive", 4, 100),
        ("search20-aggressive", "search,aggressive", 10, 20),
    ];
    let mut group = c.benchmark_group("cardwars");
    group.sample_size(10);
    for (name, lineup, games, budget) in cases {
        let engine = CardwarsEngine::new(Rules { search_budget: budget, ..Rules::with(lineup) });
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
