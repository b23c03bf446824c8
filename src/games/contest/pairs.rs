//! A round robin of a game's policies: each entrant is a policy, and every meeting is one game of
//! the game's own engine with the two policies seated as the schedule says. Any two-player engine
//! serves: one engine is built per ordered pair of entrants (the game builds it, e.g. with the
//! line-up `a,b` and the seats not rotated), and a game's winner is read from its outcome row.

use super::{Contest, GameResult, IntoEvent};
use crate::games::narrate::Narrator;
use crate::games::{Engine, Point};
use crate::record::{GameRecord, OutcomeKind};
use crate::seed::GameSeed;

/// The entrants' engines, one per ordered pair (seat 0's entrant, seat 1's).
pub struct PolicyPairs<E: Engine> {
    names: Vec<String>,
    unit: String,
    /// `engines[a * n + b]`: entrant `a` at seat 0 against `b`; `None` on the diagonal.
    engines: Vec<Option<E>>,
}

/// One thread's games: a scratch and a record per ordered pair.
pub struct PairScratch<S> {
    games: Vec<Option<(S, GameRecord)>>,
}

impl<E: Engine> PolicyPairs<E> {
    /// `make(a, b)` builds the engine of entrant `a` at seat 0 against `b` at seat 1.
    pub fn new(names: Vec<String>, make: impl Fn(usize, usize) -> Result<E, String>) -> Result<Self, String> {
        let n = names.len();
        if n < 2 {
            return Err(format!(
                "a tournament of policies needs at least two different policies (policies names {n})"
            ));
        }
        let mut engines = Vec::with_capacity(n * n);
        for a in 0..n {
            for b in 0..n {
                engines.push(if a == b { None } else { Some(make(a, b)?) });
            }
        }
        let unit = engines[1].as_ref().expect("two entrants").layout().length_unit.clone();
        Ok(PolicyPairs { names, unit, engines })
    }

    fn engine(&self, seats: [usize; 2]) -> &E {
        self.engines[seats[0] * self.names.len() + seats[1]].as_ref().expect("two different entrants")
    }

    /// The winning seat of a finished game of `engine`: its outcome row's seat when it is a win.
    fn winner(engine: &E, rec: &GameRecord) -> Option<usize> {
        let key = &engine.layout().outcomes[rec.outcome as usize];
        (key.kind == OutcomeKind::Win).then_some(key.seat.map(usize::from)).flatten()
    }
}

impl<E: Engine> Contest for PolicyPairs<E> {
    type Scratch = PairScratch<E::Scratch>;

    fn entrants(&self) -> &[String] {
        &self.names
    }

    fn length_unit(&self) -> &str {
        &self.unit
    }

    fn new_scratch(&self) -> Self::Scratch {
        let games =
            self.engines.iter().map(|e| e.as_ref().map(|e| (e.new_scratch(), GameRecord::new(e.layout()))));
        PairScratch { games: games.collect() }
    }

    fn play<N: Narrator>(
        &self,
        seed: GameSeed,
        seats: [usize; 2],
        sc: &mut Self::Scratch,
        _rec: &mut GameRecord,
        narr: &mut N,
    ) -> GameResult {
        let engine = self.engine(seats);
        let (scratch, rec) = sc.games[seats[0] * self.names.len() + seats[1]].as_mut().expect("a pair");
        if N::ON {
            let mut story = String::new();
            *rec = engine.narrate(seed, &mut story);
            for line in story.lines() {
                narr.line(format_args!("{line}"));
            }
        } else {
            rec.reset();
            engine.play(seed, scratch, rec);
        }
        let winner = Self::winner(engine, rec);
        let score = match winner {
            Some(w) => {
                let mut s = [0; 2];
                s[w] = 1;
                s
            }
            None => [0; 2],
        };
        GameResult { winner, score, length: rec.length }
    }

    fn census(&self, seed: GameSeed, seats: [usize; 2], _sc: &mut Self::Scratch) -> Result<u64, String> {
        self.engine(seats).census(seed)
    }
}

/// A tournament of the policies a game's `policies` setting names (`text`, comma-separated, at
/// least two, each one of `known`, none twice): `make("a,b")` builds the game's engine with policy
/// `a` at seat 0 and `b` at seat 1, seats not rotated (the schedule rotates them between events).
pub fn of_policies<E: Engine>(
    text: &str,
    known: &[&str],
    make: impl Fn(&str) -> Result<E, String>,
) -> Result<Box<dyn Point>, String> {
    let mut names: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(name)) else {
            return Err(crate::suggest::unknown("policy", name, known, "policies", ""));
        };
        if names.iter().any(|n| n == k) {
            return Err(format!("a tournament of policies names each policy once ('{k}' twice)"));
        }
        names.push(k.to_string());
    }
    let pairs = PolicyPairs::new(names.clone(), |a, b| make(&format!("{},{}", names[a], names[b])))?;
    Ok(pairs.into_event())
}
