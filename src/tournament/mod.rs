//! Events above a two-player game: a round robin of entrants whose games a game engine plays.
//!
//! An entrant is whatever a game lets compete for a whole event: a player with the cards dealt to
//! it for the event, or a policy. The game says how an event deals (`Contest::deal`) and how one
//! game between two entrants goes (`Contest::play`); this layer plans the meetings
//! (`schedule`, the circle method), keeps the table (`standings`) and records one event as one
//! record: so the runner, shards, merge, resume, `--until` and `play` work on events exactly as
//! they work on games, and the unit every statistic of an event run counts is one event.
//!
//! The record of an event: the outcome (entrant `s` first alone: a `win` row of seat `s`; first
//! place shared: `shared`), the table of entrants (who beat whom, first places alone and shared;
//! `standings.csv` with ratings), the games and drawn games, the winner's games won and lost, how
//! many share first place, and, when the game can say how strong each entrant's hand is, the rank
//! correlation between that strength and the final place. `length` sums the games' lengths.
//!
//! Nothing here knows which game it serves (`docs/tournament.md`).

pub mod engine;
pub mod pairs;
pub mod schedule;
pub mod standings;

pub use engine::Tournament;
pub use pairs::PolicyPairs;

use crate::games::narrate::Narrator;
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
    fn finished(&self, _sc: &mut Self::Scratch, _table: &standings::Table, _rec: &mut GameRecord) {}
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

#[cfg(test)]
mod tests {
    /// The layer's sources up to their tests.
    const SOURCES: [(&str, &str); 5] = [
        ("mod.rs", include_str!("mod.rs")),
        ("engine.rs", include_str!("engine.rs")),
        ("pairs.rs", include_str!("pairs.rs")),
        ("schedule.rs", include_str!("schedule.rs")),
        ("standings.rs", include_str!("standings.rs")),
    ];

    #[test]
    fn the_layer_names_no_game() {
        // Words only a game would bring in: its name, or Card Wars' own things.
        let games =
            ["slots", "card wars", "cardwars", "territor", "scourge", "design", "deck", "pool", "rarity"];
        for (file, text) in SOURCES {
            let code = text.split("#[cfg(test)]").next().unwrap().to_lowercase();
            for word in games {
                assert!(!code.contains(word), "src/tournament/{file} names '{word}'");
            }
        }
    }
}
