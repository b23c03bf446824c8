//! Scourge War (`scourge`, `docs/rules/scourge.md`) for two, four or six players: the game's
//! definition for the registry and its settings. `docs/rules/scourge.md` tells the rules in prose.
//!
//! The folder: this file defines the game and its settings (and turns them into typed rules);
//! `cards.rs` builds the Units and Legends decks, which both games share. The duel keeps its own
//! fast path: `rules.rs` holds the duel in progress and plays one round of it; `engine.rs` deals a
//! game, plays it to its end and records it; `narrate.rs` tells a game; `census.rs` accounts for
//! every card after every round; `tests.rs` holds the rule tests. The team game (four and six
//! players, two sides) has the same floor plan in its own folder, `team/`. Every choice in Scourge War is made without information
//! (placement is random), so it asks its players no decisions and has no agents.

pub mod cards;
mod census;
pub mod engine;
mod narrate;
pub mod rules;
pub mod team;
#[cfg(test)]
mod tests;

pub use engine::{ScourgeEngine, ScourgeScratch, dist};
pub use team::{Legendless, TeamEngine, TeamScratch, team_dist};

use super::{GameDef, Point};
use crate::cards::Pack;
use crate::settings::{Allowed, Preset, SettingSpec, Settings};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Choice(&["2", "4", "6"]),
        help: "players: 2 (the duel), 4 or 6 (two sides of two or three)",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 4 },
        help: "balance: decks shuffled together; the Units deck is every card but one deck's courts",
        deal: true,
    },
    SettingSpec {
        key: "deck",
        default: "draconian",
        allowed: Allowed::Choice(&["draconian", "standard"]),
        help: "draconian: 56 cards with Guardians; standard (extension): 52 cards, the two jokers are the Ancients",
        deal: true,
    },
    SettingSpec {
        key: "legendless",
        default: "sit-out",
        allowed: Allowed::Choice(&["sit-out", "stand-off"]),
        help: "team games: a player without a Legend sits a contest out (it stands off only when a side shows none), or stands it off",
        deal: false,
    },
];

pub const PRESETS: &[Preset] = &[Preset { name: "standard", about: "the rules as written", sets: &[] }];

pub const DEF: GameDef = GameDef {
    name: "scourge",
    title: "Scourge War",
    about: "Two sides on a battlefield of columns (a duel, or teams of two or three); matches go to war, \
            paired values to a Scourge War of Legends; the most captured cards after the Final Battle wins.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &[],
    build,
    card_files: None,
    words: &[
        ("final_battle_out_of_units", "the Final Battle, out of units"),
        ("final_battle_war_short", "the Final Battle, a war that cannot be fought"),
        ("final_battle_scarsands", "the Final Battle, after the Scarsands"),
        ("scorched", "Scorched Earth (no winner)"),
        ("draw", "draws"),
        ("length", "the mean length"),
        ("decks", "decks"),
        ("deck", "deck"),
        ("players", "players"),
    ],
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    let rules = ScourgeRules::from_settings(s)?;
    if rules.players == 2 {
        return Ok(Box::new(ScourgeEngine::new(rules.pack, rules.decks)));
    }
    Ok(Box::new(TeamEngine::new(rules.pack, rules.decks, rules.players / 2, rules.legendless)))
}

/// The settings as typed rules: the pack, how many decks are shuffled together, the players (2:
/// the duel; 4 or 6: the team game) and what a player without a Legend does in a team contest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScourgeRules {
    pub pack: Pack,
    pub decks: usize,
    pub players: usize,
    pub legendless: Legendless,
}

impl ScourgeRules {
    /// The rules of a scenario point; `Err` names the player counts allowed.
    pub fn from_settings(s: &Settings) -> Result<ScourgeRules, String> {
        let players = match s.get("players").trim() {
            "2" => 2,
            "4" => 4,
            "6" => 6,
            other => return Err(format!("scourge: players = {other} is not available (allowed: 2, 4, 6)")),
        };
        let pack = if s.get("deck") == "standard" { Pack::Standard } else { Pack::Draconian };
        let legendless =
            if s.get("legendless") == "stand-off" { Legendless::StandOff } else { Legendless::SitOut };
        Ok(ScourgeRules { pack, decks: s.int("decks") as usize, players, legendless })
    }
}
