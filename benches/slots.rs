//! Throughput of Card Wars (`slots`): games per second on one thread, statistics (and the
//! per-card table) recorded, without card text, with the sample set and with the tournament set
//! (`scenarios/cards/tournament.toml`), for the two fixed
//! placement policies. The targets: 300,000 games/s textless, 50,000 with the sample set
//! (random placement).

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::games::Engine;
use warsim::games::slots::{Rules, SlotsEngine, cardfile};
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;

const SAMPLE: &str = include_str!("../scenarios/cards/sample.toml");
const TOURNAMENT: &str = include_str!("../scenarios/cards/tournament.toml");

/// Plays `games` consecutive games of one engine with one scratch, as the runner does per chunk;
/// returns the slots played (to keep the work observable).
fn play(engine: &SlotsEngine, first: u64, games: u64) -> u64 {
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let acc = play_games(engine, &mut scratch, &mut rec, 1, first..first + games);
    acc.length.sum() as u64
}

fn lineups(c: &mut Criterion) {
    let sample = Arc::new(cardfile::parse("sample.toml", SAMPLE).expect("the sample set parses"));
    let tournament =
        Arc::new(cardfile::parse("tournament.toml", TOURNAMENT).expect("the tournament set parses"));
    let cases: [(&str, Option<&Arc<_>>, &str, u64); 6] = [
        ("textless-random", None, "random", 5_000),
        ("textless-highest-random", None, "highest,random", 5_000),
        ("sample-random", Some(&sample), "random", 1_000),
        ("sample-highest-random", Some(&sample), "highest,random", 1_000),
        ("tournament-random", Some(&tournament), "random", 1_000),
        ("tournament-highest-random", Some(&tournament), "highest,random", 1_000),
    ];
    let mut group = c.benchmark_group("slots");
    group.sample_size(10);
    for (name, set, lineup, games) in cases {
        let cards = set.cloned();
        let engine = SlotsEngine::new(Rules { cards, ..Rules::with(lineup) });
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
