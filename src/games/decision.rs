//! What every decision game's engine does the same way, written once. A decision game says how it
//! plays one game with a narrator and a watch plugged in (`run`), how it records a finished game
//! (`finish`) and tells its ending, and where its seats are; this makes of that the `Engine`
//! the runner drives: `play` (silent and unwatched, so the hot loop is the game's own `run` with
//! nothing plugged in), the narrative of `warsim play`, the census, and the decision timings.

use super::Engine;
use super::census::{Unwatched, Watch};
use super::narrate::{Narrator, Silent, Story, counters_line};
use crate::decide::{Players, Seating, Timings};
use crate::record::{GameRecord, Layout};
use crate::seed::GameSeed;

/// A decision game's engine. Every implementation is an `Engine` through the kit.
pub trait DecisionEngine: Send + Sync + 'static {
    /// The state of one game, as the watch and `finish` see it.
    type Game;
    /// How a game ended.
    type End: Copy;
    /// The game's player (`crate::decide::Agent` of its heuristic and search agent).
    type Agent;
    /// One thread's game, reused from game to game.
    type Scratch: Send;

    fn layout(&self) -> &Layout;
    fn new_scratch(&self) -> Self::Scratch;
    /// The game and the seats a scratch holds.
    fn table(sc: &mut Self::Scratch) -> (&Self::Game, &mut Players<Self::Agent>);
    /// Plays game `seed` to its end, telling it to `narr` and showing the table to `watch` after
    /// every answer; a watch that stops the game ends it as capped.
    fn run<N: Narrator, W: Watch<Self::Game>>(
        &self,
        seed: GameSeed,
        sc: &mut Self::Scratch,
        rec: &GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> Self::End;
    /// Records the finished `game`, seated as `seating` says, into `rec`.
    fn finish(&self, end: Self::End, game: &Self::Game, seating: &Seating, rec: &mut GameRecord);
    /// Tells how the finished `game` ended.
    fn tell_ending(&self, end: Self::End, game: &Self::Game, story: &mut Story);
    /// See `Engine::census`: `run` with the game's census as the watch.
    fn census(&self, seed: GameSeed) -> Result<u64, String>;

    /// Records the game `sc` just finished.
    #[inline]
    fn record(&self, end: Self::End, sc: &mut Self::Scratch, rec: &mut GameRecord) {
        let (game, players) = Self::table(sc);
        self.finish(end, game, players.seating(), rec);
    }
}

impl<D: DecisionEngine> Engine for D {
    type Scratch = D::Scratch;

    fn layout(&self) -> &Layout {
        DecisionEngine::layout(self)
    }

    fn new_scratch(&self) -> D::Scratch {
        DecisionEngine::new_scratch(self)
    }

    fn play(&self, seed: GameSeed, sc: &mut D::Scratch, rec: &mut GameRecord) {
        let end = self.run(seed, sc, rec, &mut Silent, &mut Unwatched);
        self.record(end, sc, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let mut sc = DecisionEngine::new_scratch(self);
        let mut story = Story(out);
        let layout = DecisionEngine::layout(self);
        let mut rec = GameRecord::new(layout);
        let end = self.run(seed, &mut sc, &rec, &mut story, &mut Unwatched);
        self.tell_ending(end, D::table(&mut sc).0, &mut story);
        self.record(end, &mut sc, &mut rec);
        story.line(format_args!("{}", counters_line(&layout.counters, &rec.counters)));
        rec
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        DecisionEngine::census(self, seed)
    }

    fn take_timings(&self, sc: &mut D::Scratch, out: &mut Timings) {
        D::table(sc).1.take_timings(out);
    }
}
