//! Times Scourge War through the real runner (`Point::play_range`) on one thread, and prints the
//! headline statistics of the games it played (the command line cannot run scenarios yet):
//! `cargo run --profile bench --example scourge_timing -- [GAMES] [DECKS] [draconian|standard]`.

use std::time::Instant;

use warsim::cards::Pack;
use warsim::games::Point;
use warsim::games::scourge::ScourgeEngine;
use warsim::stats::{mean_interval, wilson};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.replace('_', "").parse().ok()).unwrap_or(2_000_000);
    let decks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let pack = if args.next().as_deref() == Some("standard") { Pack::Standard } else { Pack::Draconian };
    let engine = ScourgeEngine::new(pack, decks);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool");
    let start = Instant::now();
    let acc = pool.install(|| engine.play_range(1, 0, games, &|_| {}));
    let secs = start.elapsed().as_secs_f64();
    println!(
        "scourge decks={decks} deck={pack:?}: {} games in {secs:.3} s on 1 thread = {:.0} games/s",
        acc.games,
        acc.games as f64 / secs
    );
    let layout = Point::layout(&engine);
    let len = mean_interval(acc.length.sum(), acc.length.sum_sq(), acc.games);
    println!("  rounds: mean {:.4} [{:.4}, {:.4}]", len.estimate, len.low, len.high);
    for (key, &n) in layout.outcomes.iter().zip(&acc.outcomes) {
        let w = wilson(n, acc.games);
        let seat = key.seat.map_or(String::new(), |s| format!(" seat {s}"));
        println!("  {}{seat}: {:.6} [{:.6}, {:.6}]", key.kind.name(), w.estimate, w.low, w.high);
    }
    for (name, c) in layout.counters.iter().zip(&acc.counters) {
        let w = wilson(c.games_with, acc.games);
        println!(
            "  {name}: mean {:.5}/game, in {:.6} of games [{:.6}, {:.6}], first {:?}",
            c.total as f64 / acc.games as f64,
            w.estimate,
            w.low,
            w.high,
            c.examples.games()
        );
    }
}
