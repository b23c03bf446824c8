//! Throughput of Card Wars tournaments (`slots`, `event=tournament`): nine players, 36 games an
//! event, `highest` placement, on one thread as the runner plays a chunk. The target:
//! 1,000 tournaments/s on two cores with the nine-designer set (`scenarios/cards/tournament.toml`,
//! benched when present). Also a Cardwars round robin of three policies through the same layer.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::games::Engine;
use warsim::games::slots::deal::Dealing;
use warsim::games::slots::event::SlotsEvent;
use warsim::games::slots::{Rules, cardfile};
use warsim::record::GameRecord;
use warsim::sim::runner::play_games;
use warsim::tournament::Tournament;

const SAMPLE: &str = include_str!("../scenarios/cards/sample.toml");

/// Plays `events` consecutive events with one scratch, as the runner does per chunk.
fn play<E: Engine>(engine: &E, first: u64, events: u64) -> u64 {
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let acc = play_games(engine, &mut scratch, &mut rec, 1, first..first + events);
    acc.length.sum() as u64
}

fn events(c: &mut Criterion) {
    let sample = Arc::new(cardfile::parse("sample.toml", SAMPLE).expect("the sample set parses"));
    let nine = std::fs::read_to_string("scenarios/cards/tournament.toml")
        .ok()
        .map(|text| Arc::new(cardfile::parse("tournament.toml", &text).expect("the tournament set parses")));
    let mut cases = vec![
        ("textless-piles", None, Dealing::Piles),
        ("sample-independent", Some(sample), Dealing::Independent),
    ];
    if let Some(set) = nine {
        cases.push(("nine-designers-piles", Some(set), Dealing::Piles));
    }
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    for (name, cards, dealing) in cases {
        let event = SlotsEvent::new(Rules { cards, ..Rules::with("highest") }, 9, dealing).expect("deals");
        let engine = Tournament::new(event);
        let n = 50;
        group.throughput(Throughput::Elements(n));
        let mut first = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                first += n;
                play(&engine, first, n)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, events);
criterion_main!(benches);
