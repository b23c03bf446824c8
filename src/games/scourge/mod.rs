//! Scourge War (`scourge`, `docs/rules/scourge.md`) for two players: the game's definition for the registry
//! and its settings. `docs/rules/scourge.md` tells the rules in prose.
//!
//! The folder: this file defines the game and its settings (and turns them into typed rules);
//! `cards.rs` builds the Units and Legends decks; `rules.rs` holds the duel in progress and plays
//! one round of it; `engine.rs` deals a game, plays it to its end and records it; `narrate.rs`
//! tells a game; `census.rs` accounts for every card after every round; `tests.rs` holds the rule
//! tests. Every choice in Scourge War is made without information (placement left or right is
//! random), so it asks its players no decisions and has no agents.

pub mod cards;
mod census;
pub mod engine;
mod narrate;
pub mod rules;
#[cfg(test)]
mod tests;

pub use engine::{ScourgeEngine, ScourgeScratch, dist};

use super::{GameDef, Point};
use crate::cards::Pack;
use crate::settings::{Allowed, Preset, SettingSpec, Settings};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Text("2 (the duel; the 4- and 6-player team games are not implemented yet)"),
        help: "players; only the two-player duel is implemented",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 4 },
        help: "decks shuffled together; the Units deck is every card but one deck's courts",
        deal: true,
    },
    SettingSpec {
        key: "deck",
        default: "draconian",
        allowed: Allowed::Choice(&["draconian", "standard"]),
        help: "draconian: 56 cards with Guardians; standard (extension): 52 cards, the two jokers are the Ancients",
        deal: true,
    },
];

pub const PRESETS: &[Preset] = &[Preset { name: "standard", about: "the rules as written", sets: &[] }];

pub const DEF: GameDef = GameDef {
    name: "scourge",
    title: "Scourge War (two players)",
    about: "Two Units each per round on a two-column battlefield; matches go to war, paired values to a \
            Scourge War of Legends; the most captured cards after the Final Battle wins.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &[],
    build,
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    let rules = ScourgeRules::from_settings(s)?;
    Ok(Box::new(ScourgeEngine::new(rules.pack, rules.decks)))
}

/// The settings as typed rules: the pack, how many decks are shuffled together, and the players
/// (only the two-player duel is implemented; the team games for 4 and 6 are to come).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScourgeRules {
    pub pack: Pack,
    pub decks: usize,
}

impl ScourgeRules {
    /// The rules of a scenario point; `Err` explains a player count that is not implemented.
    pub fn from_settings(s: &Settings) -> Result<ScourgeRules, String> {
        if s.get("players").trim() != "2" {
            return Err(format!(
                "scourge: players = {} is not available (allowed: 2; the team games for 4 and 6 players are not implemented yet)",
                s.get("players")
            ));
        }
        let pack = if s.get("deck") == "standard" { Pack::Standard } else { Pack::Draconian };
        Ok(ScourgeRules { pack, decks: s.int("decks") as usize })
    }
}
