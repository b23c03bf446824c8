//! Players who decide: the kit every decision game (territories, cardwars, slots) is built on.
//!
//! A decision game describes each kind of decision it asks with a `Decision`: what the deciding
//! seat observes, how the legal actions are described, and what an action looks like. A `Policy`
//! answers one kind of decision from the observation and the legal actions alone, with its own RNG
//! stream, so no policy can read hidden cards or another seat's choice of the same moment:
//! simultaneous decisions are asked of each seat separately, from observations taken before any
//! of them is applied.
//!
//! The rest of the kit, one concept per file:
//! - `agent`: the kinds of player every game seats (`random`, the game's heuristics, its search
//!   agent), and what the seats need to know of each;
//! - `seats`: the line-up named by the setting `policies`, its rotation over the seats
//!   (`Seating`), and `Players`, the seats of one game (each seat's agent, RNG stream and clock);
//! - `rows`: the per-seat and per-policy outcome rows, counters and distributions a decision game
//!   reports (`PolicyRows`);
//! - `timing`: what a decision costs, per policy (`Timings`, `Clock`);
//! - `search`: a search agent for any game that can be played step by step (`FlatMonteCarlo`).
//!
//! Games dispatch their agents through an enum and `match`, so nothing here needs object safety and
//! the hot loop has no virtual calls. `docs/policies.md` describes the kit and every game's agents.
//! The kit sits below the games and imports none of them: what every decision game's engine does
//! the same way (`DecisionEngine`) lives with the games' own shape (`crate::games::decision`).

pub mod agent;
pub mod rows;
pub mod search;
pub mod seats;
pub mod timing;

pub use agent::Agent;
pub use rows::PolicyRows;
pub use seats::{Lineup, Players, Seating};
pub use timing::{Clock, Timings};

use crate::seed::GameRng;

/// One kind of decision a game asks of a seat.
pub trait Decision {
    /// Everything the deciding seat may see: its own cards, what is face up, the public history.
    type Observation;
    /// The legal actions, as a list or as a compact rule (e.g. "any card to any territory").
    type Legal: Legal<Self::Action>;
    /// The answer. Filled in place so that a reused buffer serves every decision.
    type Action;
}

/// A description of legal actions that can draw one uniformly at random.
pub trait Legal<A> {
    /// Writes into `out` an action drawn uniformly from the legal ones.
    fn uniform(&self, rng: &mut GameRng, out: &mut A);
}

/// A player's rule for one kind of decision.
pub trait Policy<D: Decision> {
    /// Answers the decision into `out` (which the caller has cleared for the legal actions).
    fn decide(&mut self, obs: &D::Observation, legal: &D::Legal, rng: &mut GameRng, out: &mut D::Action);
}

/// `random`: uniform over the legal actions, for every decision game. The baseline every agent
/// must beat, and the fastest possible player for throughput measurements.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl<D: Decision> Policy<D> for Random {
    #[inline]
    fn decide(&mut self, _: &D::Observation, legal: &D::Legal, rng: &mut GameRng, out: &mut D::Action) {
        legal.uniform(rng, out);
    }
}
