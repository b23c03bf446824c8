//! `search`: the kit's determinised flat Monte Carlo (`crate::decide::search`) over Card Wars'
//! placement. Candidates: each different card in hand (by printed value and design). Each is
//! played `budget / candidates` times from the same samples of what the seat cannot see, to the
//! end of the round, every other placement by `highest` and every decision inside an ability by
//! the greedy rule; the best mean round result wins (1 a round won, 0 lost, one half tied).
//!
//! A sample (`Unseen`) starts from the seat's `view` (`view`), where the opponent's unseen
//! cards are masked: it deals the opponent a fresh pool the way the game deals one (from the card
//! set, or the default pool without one), puts the opponent's cards the seat has identified back
//! at their pool places, keeps that pool's deck as `top21` does with every identified card of this
//! round in it, and deals the masked cards of the round (face-down, hand, deck) from that deck's
//! unidentified cards, the sideboard from the rest; the seat's own deck is shuffled.

use std::sync::Arc;

use super::card::{DECK, NONE, POOL, SEATS, Stack, TEXTLESS, owner};
use super::cardset::CardSet;
use super::judge::Greedy;
use super::pools::{DeckPolicy, Pools};
use super::rules::{Game, Next, Observation, PlaceLegal, highest};
use super::setup::Rules;
use super::view::UNKNOWN;
use crate::decide::search::{Determinize, FlatMonteCarlo, Rollout, Steps};
use crate::games::narrate::Silent;
use crate::seed::{GameRng, below, shuffle};

/// A simulated game, played to the end of the round it starts in.
pub struct Sim {
    pub game: Game,
    choices: Greedy,
    /// The round the simulation started in, and the rounds won and tied then.
    round: u32,
    wins: [u8; SEATS],
    ties: u32,
}

impl Sim {
    pub fn new() -> Sim {
        Sim {
            game: Game::new(DeckPolicy::Top21, 0),
            choices: Greedy::new(),
            round: 0,
            wins: [0; SEATS],
            ties: 0,
        }
    }
}

impl Default for Sim {
    fn default() -> Self {
        Sim::new()
    }
}

impl Steps for Sim {
    type Observation = Observation;
    type Action = u8;

    fn to_move(&self) -> Option<usize> {
        match self.game.next() {
            Next::Place(seat) if self.game.st.rounds == self.round => Some(seat),
            _ => None,
        }
    }

    fn observe(&self, seat: usize, obs: &mut Observation) {
        self.game.observe(seat, obs);
    }

    fn random_action(&self, rng: &mut GameRng, out: &mut u8) {
        let Next::Place(seat) = self.game.next() else { return };
        *out = below(rng, self.game.st.hands[seat].len() as u32) as u8;
    }

    fn apply(&mut self, index: &u8, rng: &mut GameRng) {
        self.game.answer(*index, rng, &mut Silent, &mut self.choices);
    }

    /// The round's result: 1 won, 0 lost, one half tied (the next round has begun, or the game
    /// is over).
    fn value(&self, seat: usize) -> f64 {
        let st = &self.game.st;
        if st.wins[seat] > self.wins[seat] {
            1.0
        } else if st.wins[1 - seat] > self.wins[1 - seat] {
            0.0
        } else {
            debug_assert!(st.ties > self.ties || st.rounds == self.round);
            0.5
        }
    }
}

/// The rollout's placements: `highest` at every seat.
pub struct HighestRollout;

impl Rollout<Sim> for HighestRollout {
    #[inline]
    fn act(&mut self, sim: &Sim, seat: usize, _: &mut GameRng, out: &mut u8) {
        *out = highest(sim.game.place_legal(seat).printed());
    }
}

/// The search's determinization (see the module's doc).
pub struct Unseen {
    set: Option<Arc<CardSet>>,
    pool: Pools,
    kept: Stack,
    rest: Stack,
}

impl Determinize<Sim> for Unseen {
    fn determinize(&mut self, obs: &Observation, rng: &mut GameRng, sim: &mut Sim) {
        let seat = obs.seat as usize;
        let opp = 1 - seat;
        let g = &mut sim.game;
        g.st.clone_from(&obs.view);
        shuffle(rng, g.st.decks[seat].as_mut_slice());
        self.deal_opponent(obs, rng, g);
        // A sample's tallies start afresh: one `Sim` serves every sample of a search, and its
        // per-card counts (16 bits) would otherwise pile up over thousands of simulated rounds.
        g.tally = Default::default();
        g.cards = Default::default();
        g.chance = crate::seed::GameSeed::new(rand_core::Rng::next_u64(rng), 1).rng();
        g.stop_at_turn();
        sim.round = g.st.rounds;
        sim.wins = g.st.wins;
        sim.ties = g.st.ties;
        debug_assert!(g.st.pools.ids(opp).all(|id| g.st.pools.printed[id as usize] != UNKNOWN));
    }
}

impl Unseen {
    pub fn new(set: Option<Arc<CardSet>>) -> Unseen {
        Unseen { set, pool: Pools::default(), kept: Stack::default(), rest: Stack::default() }
    }

    /// Fills the opponent's masked cards in (see the module's doc).
    fn deal_opponent(&mut self, obs: &Observation, rng: &mut GameRng, g: &mut Game) {
        let view = &obs.view;
        let opp = 1 - obs.seat as usize;
        match &self.set {
            Some(set) => self.pool.deal_from(set, rng),
            None => self.pool.deal_default(rng),
        }
        let size = view.pools.size[opp] as usize;
        let first = opp * POOL;
        let ids = first as u8..(first + size) as u8;
        let known = |id: u8| view.pools.printed[id as usize] != UNKNOWN;
        // The identified cards as they are (a fixed pool is dealt as written, so its masked
        // cards are the ones not identified, at other places).
        for id in ids.clone().filter(|&id| known(id)) {
            self.pool.printed[id as usize] = view.pools.printed[id as usize];
            self.pool.design[id as usize] = view.pools.design[id as usize];
        }
        // Every identified card of the opponent's is in this round's deck; its other cards in the
        // deck are the highest of the rest (as `top21` keeps them; equal values in random order).
        let in_round = view.kept[opp].as_slice();
        let mut order = Stack::default();
        ids.clone().filter(|&id| !known(id)).for_each(|id| order.push(id));
        shuffle(rng, order.as_mut_slice());
        order.as_mut_slice().sort_by_key(|&id| std::cmp::Reverse(self.pool.printed[id as usize]));
        let masked_in_round = in_round.iter().filter(|&&id| !known(id)).count();
        self.kept.clear();
        self.rest.clear();
        for (n, &id) in order.as_slice().iter().enumerate() {
            if n < masked_in_round { self.kept.push(id) } else { self.rest.push(id) }
        }
        debug_assert!(in_round.len() <= DECK);
        shuffle(rng, self.kept.as_mut_slice());
        // The masked ids of the round take the sampled deck's cards; the sideboard's the rest.
        let (mut k, mut r) = (0, 0);
        for id in ids {
            if known(id) {
                continue;
            }
            let from = if in_round.contains(&id) {
                k += 1;
                self.kept.as_slice()[k - 1]
            } else {
                r += 1;
                self.rest.as_slice()[r - 1]
            };
            g.st.pools.printed[id as usize] = self.pool.printed[from as usize];
            g.st.pools.design[id as usize] = self.pool.design[from as usize];
            if g.st.on_table(id) && g.st.pools.design[id as usize] != TEXTLESS {
                g.st.arm(id);
            }
        }
        shuffle(rng, g.st.decks[opp].as_mut_slice());
        debug_assert!(g.st.slots.iter().flatten().all(|&id| id == NONE || owner(id) < SEATS));
    }
}

/// `search`'s player: the candidates and the kit's flat Monte Carlo.
pub struct Searcher {
    search: FlatMonteCarlo<Sim, Unseen, HighestRollout>,
}

impl Searcher {
    pub fn new(rules: &Rules) -> Searcher {
        let unseen = Unseen::new(rules.cards.clone());
        Searcher { search: FlatMonteCarlo::new(rules.search_budget, Sim::new(), unseen, HighestRollout) }
    }

    /// The hand index to place.
    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) -> u8 {
        let c = &mut self.search.candidates;
        c.clear();
        let hand = obs.hand.as_slice();
        let kind = |i: usize| {
            let id = hand[i] as usize;
            (obs.view.pools.printed[id], obs.view.pools.design[id])
        };
        for i in 0..legal.len as usize {
            if !(0..i).any(|j| kind(j) == kind(i)) {
                c.offer(|x| {
                    *x = i as u8;
                    true
                });
            }
        }
        if c.len() == 1 {
            return *c.get(0);
        }
        *self.search.search(obs.seat as usize, obs, rng).expect("a candidate")
    }
}
