//! The players of Card Wars: `random` (a uniformly random card from hand) and `highest` (always
//! the highest printed value in hand), exactly as the rulings name them. Both keep the default
//! deck policy. Every agent decides from what the decision shows it alone: the placement from
//! its legal cards (and its observation, for those that read one), the decisions inside
//! abilities (`choices`) from its seat's observation.

use super::card::Stack;
use super::choices::{self, Ask, Choices, Places};
use super::judge;
use super::reader::Reader;
use super::rules::{Observation, Place, PlaceLegal, highest};
use super::search::Searcher;
use super::setup::{POLICIES, Rules};
use super::sideboard::Sideboard;
use super::table::State;
use crate::decide::{Players, Policy, Random};
use crate::seed::GameRng;

/// One seat's player. An enum dispatched by `match`: no virtual calls in the hot loop.
pub enum Agent {
    Random,
    Highest,
    /// `reader` (`reader`): its working memory is large, so it is boxed.
    Reader(Box<Reader>),
    /// `search` (`search`): the kit's flat Monte Carlo.
    Search(Box<Searcher>),
}

impl Agent {
    pub fn new(policy: usize, rules: &Rules) -> Agent {
        match POLICIES[policy] {
            "random" => Agent::Random,
            "highest" => Agent::Highest,
            "reader" => Agent::Reader(Box::default()),
            _ => Agent::Search(Box::new(Searcher::new(rules))),
        }
    }

    /// Whether the agent reads its observation (`random` and `highest` decide from the hand alone).
    #[inline]
    pub fn observes(&self) -> bool {
        matches!(self, Agent::Reader(_) | Agent::Search(_))
    }

    /// Whether its decisions are costly enough to time every one (`search`'s are).
    pub fn costly(&self) -> bool {
        matches!(self, Agent::Search(_))
    }

    #[inline(always)]
    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) -> u8 {
        let mut out = 0;
        Policy::<Place>::decide(self, obs, legal, rng, &mut out);
        out
    }

    /// Whether it reads its observation to answer a decision inside an ability.
    fn observes_choices(&self) -> bool {
        !matches!(self, Agent::Random)
    }

    /// A `choose`: `random` uniformly, the others by the greedy rule (`judge`).
    pub fn targets(
        &mut self,
        obs: &Observation,
        ask: &Ask,
        from: &Places,
        rng: &mut GameRng,
        out: &mut Places,
    ) {
        match self {
            Agent::Random => choices::uniform_targets(from, ask.n, rng, out),
            Agent::Highest | Agent::Reader(_) | Agent::Search(_) => judge::targets(obs, ask, from, out),
        }
    }

    /// "You may": `random` with equal chance, the others when it gains something.
    pub fn take(&mut self, obs: &Observation, ask: &Ask, targets: &Places, rng: &mut GameRng) -> bool {
        match self {
            Agent::Random => choices::uniform_take(rng),
            Agent::Highest | Agent::Reader(_) | Agent::Search(_) => judge::take(obs, ask, targets),
        }
    }

    /// A `choose` discard: `random` uniformly, the others the lowest printed value.
    pub fn discard(&mut self, obs: &Observation, rng: &mut GameRng) -> usize {
        match self {
            Agent::Random => choices::uniform_discard(obs.hand.len(), rng),
            Agent::Highest | Agent::Reader(_) | Agent::Search(_) => judge::discard(obs),
        }
    }
}

#[inline(never)]
fn read(r: &mut Reader, obs: &Observation) -> u8 {
    r.place(obs)
}

#[inline(never)]
fn search(s: &mut Searcher, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) -> u8 {
    s.place(obs, legal, rng)
}

/// The engine's answers to the decisions inside abilities: each asked of the deciding seat's
/// agent, with its own stream and clock, from that seat's observation (built only for an agent
/// that reads it).
pub struct SeatChoices<'a> {
    pub players: &'a mut Players<Agent>,
    pub obs: &'a mut Observation,
    /// The `adapt` deck policy's memory (`None` when no seat adapts).
    pub sideboard: Option<&'a mut Sideboard>,
}

impl SeatChoices<'_> {
    fn ask<T>(
        &mut self,
        st: &State,
        seat: usize,
        answer: impl FnOnce(&mut Agent, &Observation, &mut GameRng) -> T,
    ) -> T {
        let obs = &mut *self.obs;
        if self.players.agent(seat).observes_choices() {
            st.observe_table(seat, obs);
        } else {
            // `random` reads only the hand's size.
            obs.hand = st.hands[seat];
        }
        self.players.decide(seat, |agent, rng| answer(agent, obs, rng))
    }
}

impl Choices for SeatChoices<'_> {
    fn targets(&mut self, st: &State, ask: &Ask, from: &Places, out: &mut Places) {
        self.ask(st, ask.seat as usize, |agent, obs, rng| agent.targets(obs, ask, from, rng, out));
    }

    fn take(&mut self, st: &State, ask: &Ask, targets: &Places) -> bool {
        self.ask(st, ask.seat as usize, |agent, obs, rng| agent.take(obs, ask, targets, rng))
    }

    /// Every discard reads the hand alone (`random` its size, the others its printed values):
    /// the table is not observed for it.
    fn discard(&mut self, st: &State, seat: usize) -> usize {
        let obs = &mut *self.obs;
        st.observe_hand(seat, obs);
        self.players.decide(seat, |agent, rng| agent.discard(obs, rng))
    }

    /// The deck policy decides from its seat's stream.
    fn sideboard(&mut self, st: &State, seat: usize, out: &mut Stack) -> bool {
        let Some(sb) = self.sideboard.as_deref_mut() else { return false };
        self.players.decide(seat, |_, rng| sb.choose(st, seat, rng, out))
    }
}

impl Policy<Place> for Agent {
    /// `random` and `highest` inline (the hot loop); the players that read the board out of line.
    #[inline(always)]
    fn decide(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut u8) {
        match self {
            Agent::Random => Policy::<Place>::decide(&mut Random, obs, legal, rng, out),
            Agent::Highest => *out = highest(legal.printed()),
            Agent::Reader(r) => *out = read(r, obs),
            Agent::Search(s) => *out = search(s, obs, legal, rng),
        }
    }
}
