//! The decisions asked inside abilities (`docs/rules/slots.md`, "Decisions inside abilities"):
//! which cards a `choose` pick takes, whether a "you may" ability is taken, and which card a
//! `choose` discard puts on the pile. The resolver asks them of a `Choices`, a generic parameter
//! threaded beside the narrator (monomorphised, so a moment without such an ability pays nothing):
//! the engine's answers each from the deciding seat's agent and observation, a search's
//! simulations use a rollout chooser, and tests script one.
//!
//! Cards are named to the deciding seat by their table place (`slot * SEATS + side`), never by id:
//! an id tells a card's pool place, and with it the printed value of a face-down card.

use super::card::{CARDS, SEATS, Stack};
use super::cardset::Effect;
use super::table::State;
use crate::pile::Pile;
use crate::seed::{GameRng, below};

/// A few table places (`slot * SEATS + side`), one per card named: room for every card of the
/// game, since a selector over a whole side offers each card of a stack at its place.
pub type Places = Pile<u8, CARDS>;

/// The side of a place.
#[inline]
pub fn side_of(place: u8) -> usize {
    place as usize % SEATS
}

/// The slot of a place (0-based).
#[inline]
pub fn slot_of(place: u8) -> usize {
    place as usize / SEATS
}

/// One decision inside an ability, as the deciding seat is told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// The deciding seat: the source's controller (the side it lies on, or lay on for last words).
    pub seat: u8,
    /// The source's place.
    pub source: u8,
    /// What the ability does (public: the source is face up).
    pub effect: Effect,
    /// How many places a `choose` takes (all of them when fewer are offered).
    pub n: u8,
    /// For a swap: the places its other side can name (the one it named, once chosen).
    pub partner: Places,
}

/// Whoever answers the decisions inside abilities.
pub trait Choices {
    /// Writes into `out` the `ask.n` places (every one when `from` holds fewer) the seat picks
    /// among `from`, which is never empty.
    fn targets(&mut self, st: &State, ask: &Ask, from: &Places, out: &mut Places);
    /// Whether the seat takes a "you may" ability that would do `ask.effect` to the cards at
    /// `targets` (empty for an effect on players).
    fn take(&mut self, st: &State, ask: &Ask, targets: &Places) -> bool;
    /// The index of the hand card `seat` discards (its hand is never empty).
    fn discard(&mut self, st: &State, seat: usize) -> usize;
    /// Before a round after the first, `seat`'s deck policy (one that adapts) may change its
    /// deck: writes the new deck (21 cards of its pool, in pool order) into `out` and returns
    /// true, or returns false to keep `st.kept[seat]`. It may read its own pool, the opponent's
    /// cards in `st.shown`, and the rounds won (`st.wins`, `st.ties`).
    fn sideboard(&mut self, _st: &State, _seat: usize, _out: &mut Stack) -> bool {
        false
    }
}

/// `n` places of `from` uniformly at random, into `out` (`random`'s answer).
pub fn uniform_targets(from: &Places, n: u8, rng: &mut GameRng, out: &mut Places) {
    let mut pool = *from;
    let n = (n as usize).min(pool.len());
    out.clear();
    for i in 0..n {
        let j = i + below(rng, (pool.len() - i) as u32) as usize;
        pool.as_mut_slice().swap(i, j);
        out.push(pool.as_slice()[i]);
    }
}

/// Yes or no with equal chance (`random`'s answer to "you may").
#[inline]
pub fn uniform_take(rng: &mut GameRng) -> bool {
    below(rng, 2) == 1
}

/// A hand index uniformly at random (`random`'s discard).
#[inline]
pub fn uniform_discard(hand: usize, rng: &mut GameRng) -> usize {
    below(rng, hand as u32) as usize
}

/// Every decision answered uniformly from its own stream: the chooser of a search's rollouts.
#[derive(Clone, Debug)]
pub struct UniformChoices {
    pub rng: GameRng,
}

impl Choices for UniformChoices {
    fn targets(&mut self, _: &State, ask: &Ask, from: &Places, out: &mut Places) {
        uniform_targets(from, ask.n, &mut self.rng, out);
    }

    fn take(&mut self, _: &State, _: &Ask, _: &Places) -> bool {
        uniform_take(&mut self.rng)
    }

    fn discard(&mut self, st: &State, seat: usize) -> usize {
        uniform_discard(st.hands[seat].len(), &mut self.rng)
    }
}
