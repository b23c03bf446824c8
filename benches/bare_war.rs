//! Standard War through the engine, statistics recorded (exactly what a run does per game),
//! against the plainest two-player War loop without statistics: two `VecDeque`s, the rules written
//! out in a few lines. Both play the very same games (the same generator per game, the same
//! shuffle, the same coins), which the bench checks before it times anything, so the ratio compares
//! code, not games. The aim: the engine at least 1.5 times the bare loop's speed.
//!
//! The two are timed in pairs on the same block of games, in alternating order, by the thread's
//! CPU clock; the ratio is taken pair by pair, so a machine whose speed drifts still gives a fair
//! ratio. `cargo bench --bench bare_war` prints each one's games per CPU second and the median
//! ratio with its range.

use std::collections::VecDeque;
use std::hint::black_box;

use warsim::games::Engine;
use warsim::games::war::{PRESETS, SETTINGS, WarEngine, setup::WarRules};
use warsim::record::GameRecord;
use warsim::seed::{GameSeed, shuffle};
use warsim::sim::runner::play_games;

/// Games per timed block, and timed pairs.
const GAMES: u64 = 20_000;
const PAIRS: usize = 21;
/// Standard War's rules: a 52-card deck of 13 ranks, three cards face down in a war, the game capped
/// after 100,000 battles.
const RANKS: u8 = 13;
const DOWN: usize = 3;
const MAX_BATTLES: u64 = 100_000;

/// A player's stack as the bare loop needs it: from the top, under the bottom, or several at once.
trait Stack {
    fn clear(&mut self);
    fn len(&self) -> usize;
    fn pop(&mut self) -> u8;
    fn push(&mut self, card: u8);
    /// Moves the top `n` cards onto the end of `out`.
    fn take(&mut self, n: usize, out: &mut Vec<u8>);
}

/// The plainest stack: the standard library's double-ended queue.
impl Stack for VecDeque<u8> {
    fn clear(&mut self) {
        VecDeque::clear(self)
    }
    fn len(&self) -> usize {
        VecDeque::len(self)
    }
    fn pop(&mut self) -> u8 {
        self.pop_front().unwrap()
    }
    fn push(&mut self, card: u8) {
        self.push_back(card)
    }
    fn take(&mut self, n: usize, out: &mut Vec<u8>) {
        out.extend(self.drain(..n));
    }
}

/// A tighter stack, still plain safe code: 64 bytes used as a ring (52 cards always fit), the
/// index masked so that no bounds check is left.
#[derive(Clone)]
struct Ring {
    cards: [u8; 64],
    head: usize,
    len: usize,
}

impl Stack for Ring {
    fn clear(&mut self) {
        (self.head, self.len) = (0, 0);
    }
    fn len(&self) -> usize {
        self.len
    }
    fn pop(&mut self) -> u8 {
        let c = self.cards[self.head & 63];
        self.head = (self.head + 1) & 63;
        self.len -= 1;
        c
    }
    fn push(&mut self, card: u8) {
        self.cards[(self.head + self.len) & 63] = card;
        self.len += 1;
    }
    fn take(&mut self, n: usize, out: &mut Vec<u8>) {
        for _ in 0..n {
            out.push(self.pop());
        }
    }
}

/// The bare loop's buffers, reused from game to game as any fast loop would.
struct Bare<S> {
    deck: Vec<u8>,
    hands: [S; 2],
    spoils: Vec<u8>,
}

impl<S: Stack> Bare<S> {
    fn new(empty: S, other: S) -> Bare<S> {
        Bare { deck: Vec::with_capacity(52), hands: [empty, other], spoils: Vec::with_capacity(52) }
    }

    /// Plays game `seed` of standard War; returns its length in battles.
    fn game(&mut self, seed: GameSeed) -> u64 {
        let mut rng = seed.rng();
        self.deck.clear();
        for _suit in 0..4 {
            self.deck.extend(0..RANKS);
        }
        shuffle(&mut rng, &mut self.deck);
        let [a, b] = &mut self.hands;
        a.clear();
        b.clear();
        for pair in self.deck.chunks(2) {
            a.push(pair[0]);
            b.push(pair[1]);
        }
        // Won pairs go under in random order: one coin each, 64 coins to a draw.
        let (mut coins, mut left) = (0u64, 0u32);
        let mut battles = 0;
        while battles < MAX_BATTLES {
            battles += 1;
            let (x, y) = (a.pop(), b.pop());
            if x != y {
                if left == 0 {
                    coins = rand_core::Rng::next_u64(&mut rng);
                    left = 64;
                }
                let high_first = coins & 1 == 1;
                coins >>= 1;
                left -= 1;
                let (high, low) = (x.max(y), x.min(y));
                let winner = if x > y { &mut *a } else { &mut *b };
                if high_first {
                    winner.push(high);
                    winner.push(low);
                } else {
                    winner.push(low);
                    winner.push(high);
                }
            } else {
                // War: three down and one up each, until the face-up cards differ; a player who
                // cannot lay four loses their cards to the spoils and the other takes them all.
                self.spoils.clear();
                self.spoils.extend([x, y]);
                let a_wins = loop {
                    if a.len() <= DOWN || b.len() <= DOWN {
                        let a_short = a.len() <= DOWN;
                        if a_short {
                            a.take(a.len(), &mut self.spoils);
                        }
                        if b.len() <= DOWN {
                            b.take(b.len(), &mut self.spoils);
                        }
                        break !a_short;
                    }
                    a.take(DOWN, &mut self.spoils);
                    b.take(DOWN, &mut self.spoils);
                    let (x, y) = (a.pop(), b.pop());
                    self.spoils.extend([x, y]);
                    if x != y {
                        break x > y;
                    }
                };
                // Both short: both stacks are empty and the spoils leave the game (a draw).
                if a.len() + b.len() > 0 {
                    shuffle(&mut rng, &mut self.spoils);
                    let winner = if a_wins { &mut *a } else { &mut *b };
                    for &c in &self.spoils {
                        winner.push(c);
                    }
                }
            }
            if a.len() == 0 || b.len() == 0 {
                break;
            }
        }
        battles
    }
}

/// A bare loop over a block of games; returns the total battles (kept so nothing is dropped).
#[inline(never)]
fn bare_block<S: Stack>(bare: &mut Bare<S>, games: std::ops::Range<u64>) -> u64 {
    games.map(|i| bare.game(GameSeed::new(1, i))).sum()
}

/// The engine over a block of games, as a run plays a chunk.
#[inline(never)]
fn engine_block(
    engine: &WarEngine,
    scratch: &mut <WarEngine as Engine>::Scratch,
    rec: &mut GameRecord,
    games: std::ops::Range<u64>,
) -> u64 {
    play_games(engine, scratch, rec, 1, games).games
}

/// The CPU time this thread has used, in seconds.
fn thread_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec, which `t` is.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times the engine and one bare loop in pairs; prints both speeds and their ratio.
fn pairs<S: Stack>(
    name: &str,
    engine: &WarEngine,
    scratch: &mut <WarEngine as Engine>::Scratch,
    rec: &mut GameRecord,
    bare: &mut Bare<S>,
) {
    // The same games: every length equal over the first block.
    for i in 0..GAMES {
        let seed = GameSeed::new(1, i);
        rec.reset();
        engine.play(seed, scratch, rec);
        assert_eq!(rec.length, bare.game(seed), "game {i}: the {name} plays another game than the engine");
    }
    // An instruction count (`valgrind --tool=callgrind` on this bench) needs one pair only.
    let pairs = if std::env::var_os("BARE_WAR_ONE_PAIR").is_some() { 1 } else { PAIRS };
    let (mut engine_s, mut bare_s, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for p in 0..pairs {
        let games = p as u64 * GAMES..(p as u64 + 1) * GAMES;
        let mut time_engine = || {
            let t = thread_seconds();
            black_box(engine_block(engine, scratch, rec, games.clone()));
            thread_seconds() - t
        };
        let mut time_bare = || {
            let t = thread_seconds();
            black_box(bare_block(bare, games.clone()));
            thread_seconds() - t
        };
        let (e, b) = if p % 2 == 0 {
            let e = time_engine();
            (e, time_bare())
        } else {
            let b = time_bare();
            (time_engine(), b)
        };
        engine_s.push(e);
        bare_s.push(b);
        ratios.push(b / e);
    }
    let rate = |s: &mut Vec<f64>| GAMES as f64 / median(s);
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    println!("standard War against the {name}, {pairs} pairs of {GAMES} games, thread CPU time:");
    println!("  engine with statistics {:>9.0} games/s (median)", rate(&mut engine_s));
    println!("  {name:<22} {:>9.0} games/s (median)", rate(&mut bare_s));
    println!(
        "  engine speed / bare loop speed: {:.3} median (pairs {lo:.3} to {hi:.3})",
        median(&mut ratios)
    );
}

fn main() {
    let settings =
        warsim::settings::resolve("war", SETTINGS, PRESETS, &Default::default(), &[]).expect("standard War");
    let engine = WarEngine::new(WarRules::from_settings(&settings).expect("standard War"));
    let mut scratch = engine.new_scratch();
    let mut rec = GameRecord::new(engine.layout());
    let deque = || VecDeque::with_capacity(52);
    pairs("bare VecDeque loop", &engine, &mut scratch, &mut rec, &mut Bare::new(deque(), deque()));
    let ring = Ring { cards: [0; 64], head: 0, len: 0 };
    pairs("bare ring loop", &engine, &mut scratch, &mut rec, &mut Bare::new(ring.clone(), ring));
}
