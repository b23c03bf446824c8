//! Who sits where: the line-up a run names (`Lineup`), its rotation over the seats (`Seating`),
//! and the seats of one game (`Players`): each seat's agent, its own RNG stream and the clock that
//! times its policy's decisions.
//!
//! Policies are named per seat by the setting `policies` (`"greedy,random"`, or one name for every
//! seat), and `rotate_seats = true` plays each deal once per rotation of the line-up over the seats
//! so that deal luck cancels out when policies are compared.

use super::agent::Agent;
use super::rows::PolicyRows;
use super::timing::{Clock, Timings};
use crate::seed::{GameRng, GameSeed};

/// A line-up: which policy (an index into the game's list of policy names) sits at each seat when
/// the seats are not rotated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lineup {
    pub policies: Vec<usize>,
}

impl Lineup {
    /// Parses `"greedy,random"` (one name per seat) or `"greedy"` (every seat) against the game's
    /// policy names. Errors name the problem and what is allowed.
    pub fn parse(text: &str, players: usize, known: &[&str]) -> Result<Lineup, String> {
        let names: Vec<&str> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        let policies = names
            .iter()
            .map(|name| {
                known
                    .iter()
                    .position(|k| k.eq_ignore_ascii_case(name))
                    .ok_or_else(|| crate::suggest::unknown("policy", name, known, "policies", ""))
            })
            .collect::<Result<Vec<usize>, String>>()?;
        match policies.len() {
            1 => Ok(Lineup { policies: vec![policies[0]; players] }),
            n if n == players => Ok(Lineup { policies }),
            n => Err(format!(
                "policies names {n} players but the game has {players} (give one name, or one per seat)"
            )),
        }
    }

    /// The distinct policies of the line-up, in first-seat order.
    pub fn distinct(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for &p in &self.policies {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }
}

/// Where game `index` of a run sits its policies.
///
/// Without rotation, game `i` is deal `i` with the line-up as given. With rotation over `n` seats,
/// game `i` plays deal `i / n` with rotation `i % n`: seat `s` gets line-up entry `(s + i % n) % n`.
/// So every deal is played by every rotation in consecutive games, and game `i` stays a pure
/// function of (master seed, `i`). The deal (stream 0 of the deal's seed) is shared by the rotations;
/// each seat's policy RNG comes from the game's own seed, so rotations do not replay one another's
/// private randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Seed of the deal and of the game's own chance events.
    pub deal: GameSeed,
    /// Seed whose seat streams drive the policies.
    pub game: GameSeed,
    pub rotation: usize,
    pub seats: usize,
}

impl Seating {
    pub fn new(seed: GameSeed, seats: usize, rotate: bool) -> Seating {
        if rotate {
            let n = seats as u64;
            Seating {
                deal: GameSeed::new(seed.master, seed.index / n),
                game: seed,
                rotation: (seed.index % n) as usize,
                seats,
            }
        } else {
            Seating { deal: seed, game: seed, rotation: 0, seats }
        }
    }

    /// How many consecutive games play one deal: one per rotation of `seats` seats when they
    /// rotate, else 1. These games are one deal group, the unit of the statistics.
    pub fn games_per_deal(seats: usize, rotate: bool) -> usize {
        if rotate { seats } else { 1 }
    }

    /// The line-up entry (position) that plays at `seat`.
    #[inline]
    pub fn entry(&self, seat: usize) -> usize {
        (seat + self.rotation) % self.seats
    }

    /// The RNG stream of the policy at `seat`.
    pub fn seat_rng(&self, seat: usize) -> GameRng {
        self.game.seat_rng(seat)
    }
}

/// The seats of one game, reused from game to game: the agent of each line-up entry, each seat's
/// RNG stream, and one decision clock per distinct policy of the line-up.
///
/// A decision is asked through `decide`, which hands the seat's agent and stream to the caller's
/// closure (inlined: no virtual call) and times it when the policy's clock says so.
pub struct Players<A> {
    agents: Vec<A>,
    rngs: Vec<GameRng>,
    seating: Seating,
    /// Line-up entry -> its clock (the index of its policy among the distinct ones).
    clock_of: Vec<usize>,
    clocks: Vec<Clock>,
}

impl<A> Players<A> {
    /// One agent per line-up entry; `every(agent)` says how often that policy's decisions are
    /// timed (1: every decision, for costly policies; `Clock::CHEAP` for the rest).
    pub fn new(agents: Vec<A>, rows: &PolicyRows, every: impl Fn(&A) -> u32) -> Players<A> {
        let seats = agents.len();
        let clock_of: Vec<usize> = (0..seats).map(|entry| rows.entry_policy(entry)).collect();
        let clocks = rows
            .policies()
            .iter()
            .enumerate()
            .map(|(p, name)| {
                let entry = clock_of.iter().position(|&c| c == p).expect("every policy has an entry");
                Clock::new(name, every(&agents[entry]))
            })
            .collect();
        // Seated for real by `sit`, before the first decision of every game.
        let seating = Seating::new(GameSeed::new(0, 0), seats, false);
        let rngs = (0..seats).map(|s| seating.seat_rng(s)).collect();
        Players { agents, rngs, seating, clock_of, clocks }
    }

    /// Seats a new game: its seating, and each seat's fresh RNG stream.
    pub fn sit(&mut self, seating: Seating) {
        self.seating = seating;
        for (seat, rng) in self.rngs.iter_mut().enumerate() {
            *rng = seating.seat_rng(seat);
        }
    }

    pub fn seating(&self) -> &Seating {
        &self.seating
    }

    /// The agent playing `seat` in this game.
    #[inline]
    pub fn agent(&self, seat: usize) -> &A {
        &self.agents[self.seating.entry(seat)]
    }

    /// Asks `seat`'s agent a decision: `ask` gets the agent and the seat's own stream. Timed when
    /// the policy's clock is due.
    #[inline]
    pub fn decide<T>(&mut self, seat: usize, ask: impl FnOnce(&mut A, &mut GameRng) -> T) -> T {
        let entry = self.seating.entry(seat);
        let agent = &mut self.agents[entry];
        let rng = &mut self.rngs[seat];
        self.clocks[self.clock_of[entry]].time(|| ask(agent, rng))
    }

    /// Hands what the clocks measured over to `out` and resets them.
    pub fn take_timings(&mut self, out: &mut Timings) {
        for clock in &mut self.clocks {
            clock.hand_over(out);
        }
    }
}

impl<H, S> Players<Agent<H, S>> {
    /// The seats of `lineup`, `agent(policy)` building each entry's player; a search agent has
    /// every decision timed, the others one in `Clock::CHEAP`.
    pub fn seat(lineup: &Lineup, rows: &PolicyRows, agent: impl Fn(usize) -> Agent<H, S>) -> Self {
        let agents = lineup.policies.iter().map(|&p| agent(p)).collect();
        Players::new(agents, rows, |a| if a.costly() { Clock::COSTLY } else { Clock::CHEAP })
    }

    /// Builds `seat`'s observation with `observe`, unless its agent reads none.
    #[inline]
    pub fn observe(&self, seat: usize, observe: impl FnOnce()) {
        if self.agent(seat).observes() {
            observe();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["random", "greedy", "search"];

    #[test]
    fn one_name_fills_every_seat_and_lists_match_seats() {
        assert_eq!(Lineup::parse("greedy", 3, KNOWN).unwrap().policies, vec![1, 1, 1]);
        assert_eq!(Lineup::parse("Greedy, random", 2, KNOWN).unwrap().policies, vec![1, 0]);
        let e = Lineup::parse("greedy,random", 3, KNOWN).unwrap_err();
        assert!(e.contains("2 players") && e.contains('3'), "{e}");
        let e = Lineup::parse("greedy,rando", 2, KNOWN).unwrap_err();
        assert!(e.contains("unknown policy 'rando'") && e.contains("search"), "{e}");
        assert_eq!(Lineup::parse("search,random,search", 3, KNOWN).unwrap().distinct(), vec![2, 0]);
    }

    #[test]
    fn players_ask_the_entry_seated_there_with_the_seats_own_stream() {
        use rand_core::Rng;
        let lineup = Lineup::parse("greedy,random", 2, KNOWN).unwrap();
        let rows = PolicyRows::new(&lineup, true, KNOWN);
        let mut players = Players::new(vec!["greedy agent", "random agent"], &rows, |_| Clock::COSTLY);
        // Game 3 of a rotated run: rotation 1, so seat 0 plays line-up entry 1.
        let seating = Seating::new(GameSeed::new(5, 3), 2, true);
        players.sit(seating);
        assert_eq!(*players.agent(0), "random agent");
        let first = players.decide(0, |agent, rng| (*agent, rng.next_u64()));
        assert_eq!(first, ("random agent", seating.seat_rng(0).next_u64()));
        // The stream goes on within a game and starts afresh with the next.
        assert_ne!(players.decide(0, |_, rng| rng.next_u64()), first.1);
        players.sit(seating);
        assert_eq!(players.decide(0, |_, rng| rng.next_u64()), first.1);
        let mut timings = Timings::new();
        players.take_timings(&mut timings);
        assert_eq!((timings.timed("random"), timings.timed("greedy")), (3, 0));
    }

    #[test]
    fn rotation_plays_each_deal_once_per_rotation() {
        let seats: Vec<Seating> = (0..6).map(|i| Seating::new(GameSeed::new(9, i), 3, true)).collect();
        assert_eq!(seats[0].deal, seats[2].deal);
        assert_ne!(seats[2].deal, seats[3].deal);
        assert_eq!(seats.iter().map(|s| s.rotation).collect::<Vec<_>>(), vec![0, 1, 2, 0, 1, 2]);
        // Over one deal's rotations every line-up entry sits at every seat exactly once.
        for seat in 0..3 {
            let mut entries: Vec<usize> = seats[..3].iter().map(|s| s.entry(seat)).collect();
            entries.sort();
            assert_eq!(entries, vec![0, 1, 2]);
        }
        let plain = Seating::new(GameSeed::new(9, 4), 3, false);
        assert_eq!((plain.deal, plain.rotation, plain.entry(2)), (GameSeed::new(9, 4), 0, 2));
    }
}
