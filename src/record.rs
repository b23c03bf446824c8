//! What one game leaves behind (`GameRecord`) and what a game promises to record (`Layout`).
//!
//! Every engine of every game fills the same fixed-size record, so the runner and the statistics
//! never know which game they serve and never allocate per game. The `Layout` names the record's
//! slots: the outcomes the game can end in, its event counters and its extra distributions.

use serde::{Deserialize, Serialize};

/// Most counters a game may declare.
pub const MAX_COUNTERS: usize = 40;
/// Most distribution observations one game may make (e.g. points per seat per territory).
pub const MAX_OBSERVATIONS: usize = 96;

/// The kinds of ending shared by the family. A game declares which it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    Win,
    Draw,
    Cycle,
    Capped,
    Scorched,
}

impl OutcomeKind {
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Win => "win",
            OutcomeKind::Draw => "draw",
            OutcomeKind::Cycle => "cycle",
            OutcomeKind::Capped => "capped",
            OutcomeKind::Scorched => "scorched",
        }
    }
}

/// One row of `outcomes.csv`: an ending, with the seat, team and policy it belongs to if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeKey {
    pub kind: OutcomeKind,
    pub seat: Option<u8>,
    pub team: Option<String>,
    pub policy: Option<String>,
}

impl OutcomeKey {
    pub fn plain(kind: OutcomeKind) -> Self {
        OutcomeKey { kind, seat: None, team: None, policy: None }
    }

    pub fn seat(kind: OutcomeKind, seat: usize) -> Self {
        OutcomeKey { kind, seat: Some(seat as u8), team: None, policy: None }
    }
}

/// The names of a game's record slots, fixed for a scenario point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Unit of `length`: `battles`, `rounds`, `turns` or `slots`.
    pub length_unit: String,
    /// Every outcome the game can end in; a record's `outcome` indexes this list.
    pub outcomes: Vec<OutcomeKey>,
    /// Event counters; a record's `counters[i]` is counter `i`'s value in that game.
    pub counters: Vec<String>,
    /// Extra integer distributions (`cycle_period`, `max_war_depth`, `margin`, ...).
    pub distributions: Vec<String>,
}

impl Layout {
    pub fn counter(&self, name: &str) -> usize {
        self.counters.iter().position(|c| c == name).unwrap_or_else(|| panic!("no counter {name}"))
    }

    pub fn distribution(&self, name: &str) -> usize {
        self.distributions.iter().position(|c| c == name).unwrap_or_else(|| panic!("no distribution {name}"))
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub length: u64,
    pub outcome: u16,
    pub counters: [u64; MAX_COUNTERS],
    observations: [(u16, i64); MAX_OBSERVATIONS],
    observed: usize,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord {
            length: 0,
            outcome: 0,
            counters: [0; MAX_COUNTERS],
            observations: [(0, 0); MAX_OBSERVATIONS],
            observed: 0,
        }
    }
}

impl GameRecord {
    /// Clears the record for the next game without touching memory it does not need.
    #[inline]
    pub fn reset(&mut self) {
        self.length = 0;
        self.outcome = 0;
        self.counters = [0; MAX_COUNTERS];
        self.observed = 0;
    }

    #[inline]
    pub fn count(&mut self, counter: usize, n: u64) {
        self.counters[counter] += n;
    }

    /// Raises a counter that records a per-game maximum (e.g. `max_war_depth`).
    #[inline]
    pub fn raise(&mut self, counter: usize, value: u64) {
        let c = &mut self.counters[counter];
        *c = (*c).max(value);
    }

    /// Adds one value to distribution `metric` for this game.
    #[inline]
    pub fn observe(&mut self, metric: usize, value: i64) {
        assert!(self.observed < MAX_OBSERVATIONS, "too many observations in one game");
        self.observations[self.observed] = (metric as u16, value);
        self.observed += 1;
    }

    pub fn observations(&self) -> &[(u16, i64)] {
        &self.observations[..self.observed]
    }
}
