//! Throughput of War: games per second with statistics recorded (exactly what a run does per
//! game), one thread, for standard War and a spread of variants. The target for standard War is
//! 250,000 games per second per core.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use warsim::games::Engine;
use warsim::games::war::{PRESETS, SETTINGS, WarEngine, setup::WarRules};
use warsim::record::GameRecord;
use warsim::settings::resolve;
use warsim::sim::runner::play_games;

/// Games per benchmark iteration.
const GAMES: u64 = 2_000;

fn engine(sets: &[(&str, &str)]) -> WarEngine {
    let pairs: Vec<(String, String)> = sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let settings = resolve("war", SETTINGS, PRESETS, &Default::default(), &pairs).expect("valid settings");
    WarEngine::new(WarRules::from_settings(&settings).expect("possible settings"))
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("war");
    group.throughput(Throughput::Elements(GAMES));
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("standard", &[]),
        ("lesser-spoils", &[("variant", "lesser-spoils")]),
        ("greater-spoils", &[("variant", "greater-spoils")]),
        ("peace", &[("variant", "peace")]),
        ("instant-war", &[("variant", "instant-war")]),
        ("last-ditch", &[("variant", "last-ditch")]),
        ("seat-order-pickup", &[("pickup", "seat-order")]),
        ("3-players", &[("players", "3")]),
        ("4-players-limited", &[("players", "4"), ("variant", "limited-engagement")]),
    ];
    for (name, sets) in cases {
        let engine = engine(sets);
        let mut scratch = engine.new_scratch();
        let mut rec = GameRecord::new(engine.layout());
        let mut next = 0u64;
        group.bench_with_input(BenchmarkId::from_parameter(name), name, |b, _| {
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
