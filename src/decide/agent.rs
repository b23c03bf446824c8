//! The three kinds of player every decision game seats: the kit's `random`, one of the game's own
//! heuristics, and its search agent. What the seats need to know of a player (whether to build
//! its observation, whether to time each of its decisions) follows from its kind, so it is said
//! here once for every game.

/// One seat's player: `H` is the game's heuristic, `S` its search agent. An enum dispatched by
/// `match`: no virtual calls in the hot loop.
pub enum Agent<H, S> {
    Random,
    Heuristic(H),
    Search(Box<S>),
}

impl<H, S> Agent<H, S> {
    /// Whether the agent reads its observation (`random` does not, so none is built for it).
    #[inline]
    pub fn observes(&self) -> bool {
        !matches!(self, Agent::Random)
    }

    /// Whether its decisions are costly enough to time every one (`crate::decide::Clock`).
    pub fn costly(&self) -> bool {
        matches!(self, Agent::Search(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_random_reads_nothing_and_only_search_is_timed_at_every_decision() {
        let kinds: [Agent<(), ()>; 3] = [Agent::Random, Agent::Heuristic(()), Agent::Search(Box::new(()))];
        assert_eq!(kinds.iter().map(Agent::observes).collect::<Vec<_>>(), [false, true, true]);
        assert_eq!(kinds.iter().map(Agent::costly).collect::<Vec<_>>(), [false, false, true]);
    }
}
