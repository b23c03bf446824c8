//! Players who decide: the machinery every decision game (territories, cardwars, slots) shares.
//!
//! A decision game describes each kind of decision it asks with a `Decision`: what the deciding
//! seat observes, how the legal actions are described, and what an action looks like. A `Policy`
//! answers one kind of decision from the observation and the legal actions alone, with its own RNG
//! stream (`GameSeed::seat_rng`), so no policy can read hidden cards or another seat's choice of
//! the same moment: simultaneous decisions are asked of each seat separately, from observations
//! taken before any of them is applied.
//!
//! Policies are named per seat by the setting `policies` (`"greedy,random"`, or one name for every
//! seat), and `rotate_seats = true` plays each deal once per rotation of the line-up over the seats
//! so that deal luck cancels out when policies are compared (`Seating`).
//!
//! Games dispatch their agents through an enum and `match`, so nothing here needs object safety and
//! the hot loop has no virtual calls.

use crate::seed::{GameRng, GameSeed};

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
                    .ok_or_else(|| format!("unknown policy '{name}' (policies: {})", known.join(", ")))
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
