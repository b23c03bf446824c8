//! The cards of one game: each seat's pool, dealt once per game and kept all game, and the deck
//! policy that keeps 21 of a pool before every round.
//!
//! A card of a game is a one-byte id, `seat * POOL + place`: the seat that owns it and its place
//! in the pool. The pool order is the rulings' (`docs/rules/slots.md`): rares as dealt, then the
//! uncommons 1-9, then the commons 1, 1, 2, 2, ..., 9, 9. `top21` breaks ties by that order.

use super::card::{CARDS, DECK, MAX_VALUE, POOL, SEATS, Stack, TEXTLESS};
use super::cardset::{CardSet, PoolCard, Rarity};
use super::strength;
use crate::seed::{GameRng, below};

/// Rares in a pool.
pub const RARES: usize = 3;

/// The cards of a game, by id: printed value, design (an index into the card set, or
/// `TEXTLESS`), and how many cards each seat's pool holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pools {
    pub printed: [u8; CARDS],
    pub design: [u16; CARDS],
    pub size: [u8; SEATS],
    /// Pool places of this deal that the card set had no design for: filled with textless cards.
    pub vanilla_fill: u8,
}

impl Default for Pools {
    fn default() -> Self {
        Pools { printed: [0; CARDS], design: [TEXTLESS; CARDS], size: [0; SEATS], vanilla_fill: 0 }
    }
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
        self.vanilla_fill = 0;
    }

    /// Pools from a card set: a pool the set fixes for a seat as written; otherwise the default
    /// pool's places (three rares, an uncommon and two commons of each value), each filled
    /// uniformly and independently from the set's designs of that rarity and value (rares: any
    /// value). A place the set has no design for gets a textless card of its value (a rare place:
    /// a value uniform on 1-9), counted in `vanilla_fill`.
    pub fn deal_from(&mut self, set: &CardSet, rng: &mut GameRng) {
        self.vanilla_fill = 0;
        for seat in 0..SEATS {
            let base = seat * POOL;
            if let Some(fixed) = &set.fixed[seat] {
                for (i, card) in fixed.iter().enumerate() {
                    let (printed, design) = match *card {
                        PoolCard::Design(d) => (set.designs[d as usize].value, d),
                        PoolCard::Vanilla(v) => (v, TEXTLESS),
                    };
                    self.printed[base + i] = printed;
                    self.design[base + i] = design;
                }
                self.size[seat] = fixed.len() as u8;
                continue;
            }
            for r in 0..RARES {
                self.fill(set, rng, base + r, Rarity::Rare, 0);
            }
            for v in 1..=MAX_VALUE {
                let v_at = v as usize - 1;
                self.fill(set, rng, base + RARES + v_at, Rarity::Uncommon, v);
                self.fill(set, rng, base + RARES + 9 + 2 * v_at, Rarity::Common, v);
                self.fill(set, rng, base + RARES + 9 + 2 * v_at + 1, Rarity::Common, v);
            }
            self.size[seat] = POOL as u8;
        }
    }

    /// Fills pool place `at` from the designs of `rarity` and value `v` (0: any value).
    fn fill(&mut self, set: &CardSet, rng: &mut GameRng, at: usize, rarity: Rarity, v: u8) {
        let r = Rarity::ALL.iter().position(|&x| x == rarity).expect("listed");
        let designs = &set.by_place[r][v as usize];
        if designs.is_empty() {
            self.vanilla_fill += 1;
            self.design[at] = TEXTLESS;
            self.printed[at] = if v == 0 { 1 + below(rng, MAX_VALUE as u32) as u8 } else { v };
        } else {
            let d = designs[below(rng, designs.len() as u32) as usize];
            self.design[at] = d;
            self.printed[at] = set.designs[d as usize].value;
        }
    }
}

/// How a seat keeps 21 cards of its pool before a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeckPolicy {
    /// The 21 highest printed values, ties by pool order. It sees nothing of the game, so its deck
    /// is the same every round.
    Top21,
    /// The 21 of highest estimated strength (printed value plus the text's static worth,
    /// `strength`), ties by pool order. Static too: the same deck every round.
    Strength,
    /// `top21` for the first round; before every later round of a game it may swap one sideboard
    /// card in, from what the opponent has shown (`sideboard`).
    Adapt,
}

impl DeckPolicy {
    /// Names, in the setting `deck_policy`'s order.
    pub const NAMES: [&'static str; 3] = ["top21", "strength", "adapt"];

    /// The setting's values: one policy for every seat, or one per line-up entry.
    pub const LINEUPS: [&'static str; 7] =
        ["top21", "strength", "adapt", "strength,top21", "top21,strength", "adapt,top21", "top21,adapt"];

    /// The policies of `lineup` (one name, or one per line-up entry), per entry.
    pub fn lineup(lineup: &str) -> Option<[DeckPolicy; SEATS]> {
        match lineup.split_once(',') {
            None => Some([DeckPolicy::named(lineup)?; SEATS]),
            Some((a, b)) => Some([DeckPolicy::named(a)?, DeckPolicy::named(b)?]),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DeckPolicy::Top21 => "top21",
            DeckPolicy::Strength => "strength",
            DeckPolicy::Adapt => "adapt",
        }
    }

    pub fn named(name: &str) -> Option<DeckPolicy> {
        match name {
            "top21" => Some(DeckPolicy::Top21),
            "strength" => Some(DeckPolicy::Strength),
            "adapt" => Some(DeckPolicy::Adapt),
            _ => None,
        }
    }

    /// Whether the deck can change from round to round (only then is it chosen again).
    pub fn adapts(self) -> bool {
        match self {
            DeckPolicy::Top21 | DeckPolicy::Strength => false,
            DeckPolicy::Adapt => true,
        }
    }

    /// Writes `seat`'s deck for a game's first round into `out`, in pool order (a policy that
    /// adapts changes it later through `Choices::sideboard`).
    pub fn keep(self, pools: &Pools, set: Option<&CardSet>, seat: usize, out: &mut Stack) {
        let first = (seat * POOL) as u8;
        match self {
            DeckPolicy::Top21 | DeckPolicy::Adapt => top21(pools.printed_of(seat), first, out),
            DeckPolicy::Strength => {
                let strength = |id: u8| {
                    let printed = pools.printed[id as usize] as i32 * strength::TENTHS;
                    let d = pools.design[id as usize];
                    printed + set.filter(|_| d != TEXTLESS).map_or(0, |s| s.worth[d as usize])
                };
                top_by(pools.ids(seat), strength, out);
            }
        }
    }
}

/// The `DECK` cards of `ids` (a pool, in order) highest by `key`, ties by order, in order.
fn top_by(ids: impl Iterator<Item = u8>, key: impl Fn(u8) -> i32, out: &mut Stack) {
    let mut ranked = Stack::default();
    ids.for_each(|id| ranked.push(id));
    // Stable: equal keys keep pool order.
    ranked.as_mut_slice().sort_by_key(|&id| std::cmp::Reverse(key(id)));
    let keep = ranked.len().min(DECK);
    ranked.as_mut_slice()[..keep].sort_unstable();
    out.clear();
    ranked.as_slice()[..keep].iter().for_each(|&id| out.push(id));
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
