//! `adapt`: the deck policy that changes its deck between the rounds of a game, from what the
//! opponent has shown (`docs/policies.md`).
//!
//! Before every round after the first it weighs its current deck against each one-card swap: one
//! card of each different kind on its sideboard (printed value and design) in for the deck card
//! `top21` would drop first (the lowest printed value, the last in pool order among equals). Each
//! candidate plays `ROLLOUTS` simulated rounds against a model of the opponent: the cards it has
//! shown in earlier rounds of the game (every card that was face up), repeated until they fill a
//! deck, both sides placing as `highest` and deciding inside abilities by the greedy rule. The
//! rounds are played by the game's own rules, so the abilities of both decks act as they would
//! (a low card that destroys high cards gains against an opponent shown to play high ones). Every
//! candidate plays the same shuffles and chance (common random numbers), so a swap that never
//! changes a simulated round scores exactly as the current deck; the swap whose paired gain is
//! clearest is made, and only when that gain is clear (`Z_SWAP`): chance alone rarely swaps.
//!
//! All working memory is held here and reused: no decision allocates.

use super::card::{DECK, POOL, SEATS, Stack};
use super::judge::Greedy;
use super::pools::DeckPolicy;
use super::rules::{Game, Next, highest};
use super::table::State;
use crate::games::narrate::Silent;
use crate::seed::{GameRng, GameSeed};

/// Simulated rounds per candidate deck.
pub const ROLLOUTS: u64 = 24;

/// How clearly a swap must win its paired rollouts: the sum of the gains over twice the root of
/// their sum of squares (a one-sided paired test near 2.5%, not corrected for the up to nine
/// candidates weighed at once).
const Z_SWAP: f64 = 2.0;

/// The `adapt` deck policy's working memory.
pub struct Sideboard {
    sim: Game,
    choices: Greedy,
    /// The opponent's shown cards.
    shown: Stack,
    /// The candidate decks: the current one first.
    candidates: [Stack; 1 + POOL],
    count: usize,
    /// The last candidate's rollouts, and the current deck's.
    rounds: [u8; ROLLOUTS as usize],
    current: [u8; ROLLOUTS as usize],
}

impl Default for Sideboard {
    fn default() -> Self {
        Sideboard {
            sim: Game::new(DeckPolicy::Top21, 0),
            choices: Greedy::new(),
            shown: Stack::default(),
            candidates: [Stack::default(); 1 + POOL],
            count: 0,
            rounds: [0; ROLLOUTS as usize],
            current: [0; ROLLOUTS as usize],
        }
    }
}

impl Sideboard {
    /// `seat`'s deck for the next round of `st` into `out`, when a swap scores better than the
    /// current deck (then true).
    pub fn choose(&mut self, st: &State, seat: usize, rng: &mut GameRng, out: &mut Stack) -> bool {
        let opp = 1 - seat;
        self.shown.clear();
        for id in st.pools.ids(opp).filter(|&id| st.shown >> id & 1 == 1) {
            self.shown.push(id);
        }
        if self.shown.is_empty() || st.kept[seat].len() < DECK {
            return false;
        }
        self.candidates_for(st, seat);
        if self.count == 1 {
            return false;
        }
        let base = rand_core::Rng::next_u64(rng);
        self.score(st, seat, 0, base);
        self.current = self.rounds;
        let mut best = (0.0, 0);
        for c in 1..self.count {
            self.score(st, seat, c, base);
            // Paired over the rollouts: the gain's sum against twice its root sum of squares.
            let (mut sum, mut sq) = (0i64, 0i64);
            for (a, b) in self.rounds.iter().zip(&self.current) {
                let d = *a as i64 - *b as i64;
                sum += d;
                sq += d * d;
            }
            let z = if sq == 0 { 0.0 } else { sum as f64 / (sq as f64).sqrt() };
            if z > Z_SWAP && z > best.0 {
                best = (z, c);
            }
        }
        if best.1 == 0 {
            return false;
        }
        *out = self.candidates[best.1];
        true
    }

    /// The current deck, then one swap per kind of sideboard card.
    fn candidates_for(&mut self, st: &State, seat: usize) {
        let deck = st.kept[seat];
        let printed = |id: u8| st.pools.printed[id as usize];
        let kind = |id: u8| (printed(id), st.pools.design[id as usize]);
        // The card `top21` drops first: lowest printed value, last in pool order among equals.
        let out = *deck.as_slice().iter().rev().min_by_key(|&&id| printed(id)).expect("a full deck");
        self.candidates[0] = deck;
        self.count = 1;
        let mut seen = Stack::default();
        for id in st.pools.ids(seat).filter(|id| !deck.as_slice().contains(id)) {
            if seen.as_slice().iter().any(|&s| kind(s) == kind(id)) || kind(id) == kind(out) {
                continue;
            }
            seen.push(id);
            let c = &mut self.candidates[self.count];
            c.clear();
            // In pool order, as every deck is.
            for k in st.pools.ids(seat) {
                if k == id || (k != out && deck.as_slice().contains(&k)) {
                    c.push(k);
                }
            }
            self.count += 1;
        }
    }

    /// Candidate `c`'s simulated rounds against the opponent model into `rounds`: 2 a round
    /// won, 1 tied, 0 lost.
    fn score(&mut self, st: &State, seat: usize, c: usize, base: u64) {
        let opp = 1 - seat;
        for r in 0..ROLLOUTS {
            let g = &mut self.sim;
            g.st.clone_from(st);
            g.st.deck_policy = [DeckPolicy::Top21; SEATS];
            g.st.kept[seat] = self.candidates[c];
            model_opponent(st, opp, self.shown.as_slice(), &mut g.st);
            let seed = GameSeed::new(base, r);
            let mut shuffles = seed.rng();
            g.chance = seed.stream(1);
            let (wins, round) = (g.st.wins, g.st.rounds);
            g.next_round(&mut shuffles, &mut Silent, &mut self.choices);
            while let Next::Place(s) = g.next() {
                if g.st.rounds != round + 1 {
                    break;
                }
                let index = highest(g.place_legal(s).printed());
                g.answer(index, &mut shuffles, &mut Silent, &mut self.choices);
            }
            self.rounds[r as usize] = if g.st.wins[seat] > wins[seat] {
                2
            } else if g.st.wins[opp] > wins[opp] {
                0
            } else {
                1
            };
        }
    }
}

/// The model of `opp`'s deck in `g` (a copy of `st`): its first `DECK` places in pool order, each
/// of its `shown` cards as itself, its other places carrying the shown cards again in turn.
pub(super) fn model_opponent(st: &State, opp: usize, shown: &[u8], g: &mut State) {
    let deck = &mut g.kept[opp];
    deck.clear();
    let mut k = 0;
    for id in st.pools.ids(opp) {
        if deck.len() == DECK {
            break;
        }
        if st.shown >> id & 1 == 0 {
            let from = shown[k % shown.len()] as usize;
            g.pools.printed[id as usize] = st.pools.printed[from];
            g.pools.design[id as usize] = st.pools.design[from];
            k += 1;
        }
        deck.push(id);
    }
}
