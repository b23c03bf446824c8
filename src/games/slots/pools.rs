//! The cards of one game: each seat's pool, dealt once per game and kept all game, and the deck
//! policy that keeps 21 of a pool before every round.
//!
//! A card of a game is a one-byte id, `seat * POOL + place`: the seat that owns it and its place
//! in the pool. The pool order is the rulings' (`docs/rules/slots.md`): rares as dealt, then the
//! uncommons 1-9, then the commons 1, 1, 2, 2, ..., 9, 9. `top21` breaks ties by that order.

use super::rules::{CARDS, DECK, POOL, SEATS, Stack, TEXTLESS};
use crate::seed::{GameRng, below};

/// Rares in a pool.
pub const RARES: usize = 3;
/// The highest printed value.
pub const MAX_VALUE: u8 = 9;

/// The cards of a game, by id: printed value, design (an index into the card set, or
/// `TEXTLESS`), and how many cards each seat's pool holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pools {
    pub printed: [u8; CARDS],
    pub design: [u16; CARDS],
    pub size: [u8; SEATS],
}

impl Default for Pools {
    fn default() -> Self {
        Pools { printed: [0; CARDS], design: [TEXTLESS; CARDS], size: [0; SEATS] }
    }
}

/// The seat that owns card `id`.
#[inline]
pub fn owner(id: u8) -> usize {
    id as usize / POOL
}

impl Pools {
    /// The ids of `seat`'s pool, in pool order.
    pub fn ids(&self, seat: usize) -> impl Iterator<Item = u8> + use<> {
        let first = (seat * POOL) as u8;
        first..first + self.size[seat]
    }

    /// The printed values of `seat`'s pool, in pool order.
    pub fn printed_of(&self, seat: usize) -> &[u8] {
        &self.printed[seat * POOL..seat * POOL + self.size[seat] as usize]
    }

    /// The default dealt pools, textless: per seat, three rares of a value uniform on 1-9 (seat 0's
    /// first), one uncommon of each value 1-9 and two commons of each.
    pub fn deal_default(&mut self, rng: &mut GameRng) {
        for seat in 0..SEATS {
            let base = seat * POOL;
            for r in 0..RARES {
                self.printed[base + r] = 1 + below(rng, MAX_VALUE as u32) as u8;
            }
            for v in 1..=MAX_VALUE as usize {
                self.printed[base + RARES + v - 1] = v as u8;
                self.printed[base + RARES + 9 + 2 * (v - 1)] = v as u8;
                self.printed[base + RARES + 9 + 2 * (v - 1) + 1] = v as u8;
            }
            self.design[base..base + POOL].fill(TEXTLESS);
            self.size[seat] = POOL as u8;
        }
    }
}

/// How a seat keeps 21 cards of its pool before a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeckPolicy {
    /// The 21 highest printed values, ties by pool order. It sees nothing of the game, so its deck
    /// is the same every round.
    Top21,
}

impl DeckPolicy {
    /// Whether the deck can change from round to round (only then is it chosen again).
    pub fn adapts(self) -> bool {
        match self {
            DeckPolicy::Top21 => false,
        }
    }

    /// Writes `seat`'s deck for the next round into `out`, in pool order.
    pub fn keep(self, pools: &Pools, seat: usize, out: &mut Stack) {
        match self {
            DeckPolicy::Top21 => top21(pools.printed_of(seat), (seat * POOL) as u8, out),
        }
    }
}

/// The `DECK` highest of `printed` (ids from `first`), ties by order, in order. A pool of at most
/// `DECK` cards is kept whole.
pub fn top21(printed: &[u8], first: u8, out: &mut Stack) {
    out.clear();
    let mut count = [0usize; MAX_VALUE as usize + 1];
    for &v in printed {
        count[v as usize] += 1;
    }
    // The lowest value kept (`cut`) and how many cards of it fit after every higher one.
    let mut above = 0;
    let mut cut = MAX_VALUE as usize;
    while cut > 1 && above + count[cut] < DECK {
        above += count[cut];
        cut -= 1;
    }
    let mut room = DECK.saturating_sub(above);
    for (i, &v) in printed.iter().enumerate() {
        let v = v as usize;
        if v > cut || (v == cut && room > 0) {
            room -= usize::from(v == cut);
            out.push(first + i as u8);
        }
    }
}
