//! A short fuzzing run on the stable toolchain, so every test run exercises the parsers of outside
//! data the way `cargo +nightly fuzz` does (`fuzz/`, `src/fuzzing.rs`): the seeds of
//! `fuzz/corpus/<target>/` and a fixed number of seeded random mutations of them. Any panic fails
//! the test and prints the input that caused it. The count is fixed, not a time, so the test does
//! the same work on any machine.

use std::path::Path;

/// Mutations tried per target.
const MUTATIONS: usize = 10_000;

/// Fragments that parsers treat specially: quotes, brackets, huge and negative numbers, control
/// characters, and the keys of the formats.
const TOKENS: &[&str] = &[
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "[[run]]\n",
    "[[card]]\n",
    "[[card.ability]]\n",
    "=",
    ",",
    "\n",
    "\0",
    "\u{1b}",
    "\u{9b}",
    "-1",
    "0",
    "65535",
    "65536",
    "18446744073709551615",
    "-9223372036854775808",
    "1e308",
    "nan",
    "inf",
    "0/0",
    "1/0",
    "99999999999/2",
    ":",
    "..",
    "/",
    "\\u0000",
    "true",
    "null",
    "\"done\":",
    "\"games\":",
    "\"written\":",
    "\"checksum\":",
    "sweep",
    "set",
    "game",
    "amount",
    "--set",
    "--sweep",
    "--shard",
    "--until",
    "variant=",
    "policies=",
    "cards=",
];

/// xorshift64*: a small seeded generator, so each run tries the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], input: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(input.len() + 1);
        match rng.below(6) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 => input.insert(at, rng.next() as u8),
            2 if !input.is_empty() => {
                let end = (at + 1 + rng.below(16)).min(input.len());
                input.drain(at.min(end)..end);
            }
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                input.splice(at..at, t.iter().copied());
            }
            4 if !input.is_empty() => {
                // A run of the input repeated: many tables, deep nesting, long numbers.
                let start = rng.below(input.len());
                let end = (start + 1 + rng.below(64)).min(input.len());
                let piece = input[start..end].to_vec();
                for _ in 0..1 + rng.below(32) {
                    input.splice(at..at, piece.iter().copied());
                }
            }
            _ => {
                let other = &seeds[rng.below(seeds.len())];
                let from = rng.below(other.len());
                let cut = rng.below(input.len() + 1);
                input.truncate(cut);
                input.extend_from_slice(&other[from..]);
            }
        }
    }
}

fn fuzz(target: &str, parse: fn(&[u8]), seed: u64) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("seed-"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "{target}: no seeds in {}", dir.display());
    let mut rng = Rng(seed);
    for seed in &seeds {
        parse(seed);
    }
    for i in 0..MUTATIONS {
        let mut input = seeds[i % seeds.len()].clone();
        mutate(&mut rng, &seeds, &mut input);
        let ran = std::panic::catch_unwind(|| parse(&input));
        assert!(ran.is_ok(), "{target}: panicked on input {i}: {:?}", String::from_utf8_lossy(&input));
    }
}

#[test]
fn scenario_files() {
    fuzz("scenario", warsim::fuzzing::scenario, 1);
}

#[test]
fn card_files() {
    fuzz("cards", warsim::fuzzing::cards, 2);
}

#[test]
fn states() {
    fuzz("state", warsim::fuzzing::state, 3);
}

#[test]
fn manifests() {
    fuzz("manifest", warsim::fuzzing::manifest, 4);
}

#[test]
fn command_lines() {
    fuzz("command_line", warsim::fuzzing::command_line, 5);
}
