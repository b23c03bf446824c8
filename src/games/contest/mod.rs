//! What a two-player game provides to take part in an event (a round robin of entrants, each pair
//! meeting once): the contract between a game and the tournament layer above the games
//! (`crate::tournament`, which plans the meetings and records one event as one record).
//!
//! A game implements `Contest`: its entrants, how an event deals (`Contest::deal`) and how one game
//! between two entrants goes (`Contest::play`, a `GameResult`). An event plays its meetings in the
//! order of `schedule` (the circle method), each on its own seed (`schedule::game_seed`), so a game
//! can replay them; it keeps its table of results in a `standings::Table`, which the game reads
//! when the event is over. A game whose
//! entrants are its own policies needs no contest of its own: `pairs` plays any engine's policies
//! against each other. A contest becomes a scenario point through `IntoEvent`, which the tournament
//! layer implements for every `Contest`, as the runner makes every `Engine` a `Point`: so the games
//! declare what an event needs, and the layer above does it (`docs/tournament.md`).

pub mod pairs;
pub mod schedule;
pub mod standings;

pub use pairs::PolicyPairs;
pub use standings::Table;

use super::Point;
use super::narrate::Narrator;
use crate::record::{GameRecord, LayoutBuilder};
use crate::seed::GameSeed;
use crate::settings::{Allowed, SettingSpec};

/// How one game between two entrants ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// The winning seat, `None` for a draw.
    pub winner: Option<usize>,
    /// What each seat scored inside the game (rounds won, say), for the table's tie-break; 0 when
    /// the game counts nothing inside.
    pub score: [u32; 2],
    /// The game's length in the game's own unit.
    pub length: u64,
}

/// What an entrant's hand as dealt did, over one event, against one of its variants
/// (`Contest::variants`): the entrant's points as played minus with the variant (a win 2, a draw
/// 1, summed over its games), and its share of first place as played minus with the variant (1
/// first alone, 1/k first with k others level, else 0; in units of 1/`share_unit`), the event's
/// other games as played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    pub points: i64,
    pub first: i64,
}

/// The unit first-place shares of an event of `n` entrants are counted in: the least common
/// multiple of 1..=n, so that 1/k of it is whole for any k entrants sharing first place.
pub fn share_unit(n: usize) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    (1..=n as u64).fold(1, |l, k| l / gcd(l, k) * k)
}

/// A two-player game as an event plays it.
pub trait Contest: Send + Sync + 'static {
    /// One thread's working memory, reused from event to event.
    type Scratch: Send;

    /// The entrants' names, in entrant order.
    fn entrants(&self) -> &[String];
    /// The unit of a game's length (`GameResult::length`).
    fn length_unit(&self) -> &str;
    /// Declares the game's own counters and distributions of an event (after the event's own).
    fn declare(&mut self, _b: &mut LayoutBuilder) {}
    fn new_scratch(&self) -> Self::Scratch;
    /// Deals what the entrants keep for the whole event (event `seed`), and records what the deal
    /// itself shows.
    fn deal<N: Narrator>(
        &self,
        _seed: GameSeed,
        _sc: &mut Self::Scratch,
        _rec: &mut GameRecord,
        _narr: &mut N,
    ) {
    }
    /// The strength of entrant `e`'s hand for this event, when the game can tell one before play
    /// (higher is stronger).
    fn strength(&self, _sc: &Self::Scratch, _e: usize) -> Option<i64> {
        None
    }
    /// Plays game `seed`: entrant `seats[0]` at seat 0 against `seats[1]`, adding the game's own
    /// counters to `rec` and telling it to `narr`.
    fn play<N: Narrator>(
        &self,
        seed: GameSeed,
        seats: [usize; 2],
        sc: &mut Self::Scratch,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> GameResult;
    /// Records what the game keeps of the finished, ranked event `table` (its own per-entrant
    /// statistics).
    fn finished(&self, _sc: &mut Self::Scratch, _table: &Table, _rec: &mut GameRecord) {}
    /// How many variants of entrant `e`'s hand the finished event measures (0: none). A variant
    /// is the hand changed in one way (say, one card's text removed); the event replays
    /// `e`'s games with it on their own seeds (common random numbers) and hands the difference
    /// to `variant_effect`. Asked once per entrant, after every game was played; `v` below names a
    /// variant of the entrant last asked.
    fn variants(&self, _sc: &mut Self::Scratch, _e: usize) -> usize {
        0
    }
    /// Plays game `seed` as `play` did, entrant `e` (one of `seats`) holding its variant `v`,
    /// recording nothing.
    fn play_variant(
        &self,
        _seed: GameSeed,
        _seats: [usize; 2],
        _e: usize,
        _v: usize,
        _sc: &mut Self::Scratch,
    ) -> GameResult {
        unreachable!("a contest that names variants plays them")
    }
    /// Whether the event measures its variants alone (as `warsim balance` asks): only the games
    /// of entrants whose hand has variants are played, and an effect is on points alone (its
    /// first-place share 0); the table, first place and the other entrants' records are then
    /// partial and say nothing. `variants` is then also asked before the games.
    fn variants_only(&self) -> bool {
        false
    }
    /// Takes what entrant `e`'s hand as dealt did against its variant `v` over the event (called
    /// before `finished`).
    fn variant_effect(&self, _sc: &mut Self::Scratch, _e: usize, _v: usize, _effect: Effect) {}
    /// Plays game `seed` as `play` does, with the game's census after every step.
    fn census(&self, seed: GameSeed, seats: [usize; 2], sc: &mut Self::Scratch) -> Result<u64, String>;
}

/// The setting that makes a run's unit an event (games declare it among their settings).
pub const EVENT: SettingSpec = SettingSpec {
    key: "event",
    default: "game",
    allowed: Allowed::Choice(&["game", "tournament"]),
    help: "what one unit of the run is: one game, or a tournament (a round robin of the entrants, each pair meeting once; docs/tournament.md)",
    deal: true,
};

/// A contest as a scenario point: one event per index of the run. Implemented once, for every
/// `Contest`, by the tournament layer (`crate::tournament::engine`).
pub trait IntoEvent: Contest + Sized {
    fn into_event(self) -> Box<dyn Point>;
}
