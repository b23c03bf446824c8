//! The players of Card Wars: `random` (a uniformly random card from hand) and `highest` (always
//! the highest printed value in hand), exactly as the rulings name them. Both keep the default
//! deck policy. Every agent decides from what the decision shows it alone.

use super::rules::{Observation, Place, PlaceLegal};
use crate::decide::{Policy, Random};
use crate::seed::GameRng;

/// Policy names, in the order `policies` indices refer to.
pub const POLICIES: [&str; 2] = ["random", "highest"];

/// One seat's player. An enum dispatched by `match`: no virtual calls in the hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    Random,
    Highest,
}

impl Agent {
    pub fn new(policy: usize) -> Agent {
        match POLICIES[policy] {
            "random" => Agent::Random,
            _ => Agent::Highest,
        }
    }

    /// Whether the agent reads its observation (neither does: both decide from the hand alone).
    #[inline]
    pub fn observes(&self) -> bool {
        false
    }

    /// Whether its decisions are costly enough to time every one.
    pub fn costly(&self) -> bool {
        false
    }

    #[inline]
    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) -> u8 {
        let mut out = 0;
        Policy::<Place>::decide(self, obs, legal, rng, &mut out);
        out
    }
}

impl Policy<Place> for Agent {
    #[inline]
    fn decide(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut u8) {
        match self {
            Agent::Random => Policy::<Place>::decide(&mut Random, obs, legal, rng, out),
            Agent::Highest => *out = highest(legal.printed()),
        }
    }
}

/// The index of the highest printed value; among equal ones the first in hand (hand order is
/// draw order, itself random).
#[inline]
pub fn highest(printed: &[u8]) -> u8 {
    let mut best = 0;
    for (i, &v) in printed.iter().enumerate() {
        if v > printed[best] {
            best = i;
        }
    }
    best as u8
}
