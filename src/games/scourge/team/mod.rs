//! Scourge War's team game, four or six players on two sides, with the floor plan of every game
//! folder: `rules.rs` the general battlefield (sides × positions) and one round of play,
//! `engine.rs` the deal, the game loop and the record, `narrate.rs` the story, `census.rs` the card
//! accounting after every round, `tests.rs` a hand-set battlefield for every team rule. The duel
//! keeps its own fast state one folder up; the cards, the counters both games share and the ways a
//! game ends live there once.

mod census;
pub mod engine;
mod narrate;
pub mod rules;
#[cfg(test)]
mod tests;

pub use engine::{TeamEngine, TeamScratch, team_dist};
pub use rules::Legendless;
