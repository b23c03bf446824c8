//! Per-game seeding and our own shuffling.
//!
//! Game `i` of a run draws from a PCG generator whose 128-bit state is a strong mix of only
//! (master seed, `i`, stream). Hence results do not depend on thread count, chunking or sharding,
//! every scenario point of a run sees the same deals for the same deck (common random numbers), and
//! any single game can be replayed. Stream 0 is the game's own randomness (deal, shuffles, random
//! choices without information); stream `1 + seat` belongs to that seat's policy.
//!
//! Shuffles and bounded draws are written here rather than taken from `rand`, so that results never
//! change when a dependency changes its sampling algorithms.

use rand_core::Rng;
use rand_pcg::Pcg64Mcg;

/// The generator every engine uses: PCG-XSL-RR 128/64 (MCG), small and fast.
pub type GameRng = Pcg64Mcg;

/// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijective, well-avalanched 64-bit mix.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Identity of one game of a run: everything its randomness may depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSeed {
    pub master: u64,
    pub index: u64,
}

impl GameSeed {
    pub fn new(master: u64, index: u64) -> Self {
        GameSeed { master, index }
    }

    /// The generator of the game itself (stream 0).
    pub fn rng(&self) -> GameRng {
        self.stream(0)
    }

    /// The generator of `seat`'s policy: independent of the game's own stream.
    pub fn seat_rng(&self, seat: usize) -> GameRng {
        self.stream(1 + seat as u64)
    }

    /// An independent stream of this game.
    pub fn stream(&self, stream: u64) -> GameRng {
        const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;
        let a = mix64(self.master ^ mix64(stream.wrapping_mul(GOLDEN) ^ 0x5157_4152_5349_4d31));
        let hi = mix64(a.wrapping_add(self.index.wrapping_mul(GOLDEN)));
        let lo = mix64(hi ^ mix64(self.index ^ a.rotate_left(29)));
        Pcg64Mcg::new(((hi as u128) << 64) | lo as u128)
    }
}

/// A uniform integer in `0..n` (n >= 1), by Lemire's multiply-and-reject method
/// ("Fast Random Integer Generation in an Interval", ACM TOMACS 2019). Unbiased.
#[inline]
pub fn below(rng: &mut GameRng, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = (rng.next_u32() as u64) * (n as u64);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (rng.next_u32() as u64) * (n as u64);
        }
    }
    (m >> 32) as u32
}

/// Fisher-Yates (Durstenfeld) shuffle: every permutation equally likely.
#[inline]
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_streams_differ() {
        let a = GameSeed::new(7, 3).rng().next_u64();
        let b = GameSeed::new(7, 3).rng().next_u64();
        let c = GameSeed::new(7, 4).rng().next_u64();
        let d = GameSeed::new(8, 3).rng().next_u64();
        let e = GameSeed::new(7, 3).seat_rng(0).next_u64();
        assert_eq!(a, b);
        assert!(a != c && a != d && a != e);
    }

    #[test]
    fn below_is_uniform_within_chi_square_bound() {
        // 6 cells, 60,000 draws: chi-square with 5 degrees of freedom; 20.5 is its 0.999 quantile.
        let mut rng = GameSeed::new(1, 0).rng();
        let mut cells = [0u64; 6];
        for _ in 0..60_000 {
            cells[below(&mut rng, 6) as usize] += 1;
        }
        let chi: f64 = cells.iter().map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(chi < 20.5, "chi-square {chi} for {cells:?}");
    }

    #[test]
    fn shuffle_gives_every_permutation_of_three_equally() {
        // 6 permutations, 60,000 shuffles: same chi-square bound as above.
        let mut rng = GameSeed::new(2, 0).rng();
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..60_000 {
            let mut v = [0u8, 1, 2];
            shuffle(&mut rng, &mut v);
            *counts.entry(v).or_insert(0u64) += 1;
        }
        assert_eq!(counts.len(), 6);
        let chi: f64 = counts.values().map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(chi < 20.5, "chi-square {chi} for {counts:?}");
    }
}
