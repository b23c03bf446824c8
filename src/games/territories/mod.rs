//! Territorial Warfare (`territories`, `docs/rules/territories.md`): players place cards face down on four
//! territories at once, and the territories burn and score what lands on them. The first decision
//! game of warsim: its players are policies (`crate::decide`), named per seat by `policies`.
//! `docs/rules/territories.md` summarises the rules as warsim plays them; `docs/policies.md` the
//! agents. Here: the game's definition and settings; `rules` plays it, `engine` runs and records
//! it, `agents` decides, `narrate` tells it, `census` accounts for every card after every answer.

pub mod agents;
mod census;
pub mod engine;
pub mod narrate;
pub mod rules;
#[cfg(test)]
mod tests;

pub use engine::TerritoriesEngine;

use super::{GameDef, Point};
use crate::decide::Lineup;
use crate::settings::{Allowed, Preset, SettingSpec, Settings};
use agents::POLICIES;

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 6 },
        help: "players",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "auto",
        allowed: Allowed::IntOr { min: 1, max: 4, words: &["auto"] },
        help: "standard decks shuffled together; auto: 1 for 2-4 players, 2 for 5-6",
        deal: true,
    },
    SettingSpec {
        key: "version",
        default: "A",
        allowed: Allowed::Choice(&["A", "B"]),
        help: "A: at most one card per territory per round; B: any number",
        deal: false,
    },
    SettingSpec {
        key: "hand_size",
        default: "7",
        allowed: Allowed::Int { min: 1, max: 20 },
        help: "balance (the hand size): cards dealt to each player (7 by the rules text); a deck that runs out deals fewer",
        deal: true,
    },
    SettingSpec {
        key: "max_rounds",
        default: "200",
        allowed: Allowed::Int { min: 1, max: 100_000 },
        help: "balance (the round cap): a game still going after this many rounds ends as capped",
        deal: false,
    },
    SettingSpec {
        key: "policies",
        default: "greedy",
        allowed: Allowed::Text(
            "policy names, one for every seat or one per seat: random, greedy, drawer, search",
        ),
        help: "who plays each seat, e.g. greedy,random",
        deal: false,
    },
    SettingSpec {
        key: "rotate_seats",
        default: "true",
        allowed: Allowed::Bool,
        help: "play each deal once per rotation of the policies over the seats (game i: deal i/n, rotation i%n)",
        deal: true,
    },
    SettingSpec {
        key: "search_budget",
        default: "200",
        allowed: Allowed::Int { min: 1, max: 1_000_000 },
        help: "rollouts per placement decision of the search agent",
        deal: false,
    },
    crate::games::contest::EVENT,
];

pub const PRESETS: &[Preset] = &[
    Preset { name: "standard", about: "Version A, the rules as written", sets: &[] },
    Preset {
        name: "version-b",
        about: "Version B: any number of cards per territory",
        sets: &[("version", "B")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "territories",
    title: "Territorial Warfare",
    about: "Players place cards face down on High, Low, Straight and Draw at once; territories burn and score.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &POLICIES,
    build,
    card_files: None,
    words: &[],
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    if s.get("event") == "tournament" {
        if s.int("players") != 2 {
            return Err(format!(
                "event=tournament holds a round robin of two-player games: set players=2 (not {})",
                s.get("players")
            ));
        }
        // A round robin of the policies `policies` names, seats rotated between events.
        return crate::games::contest::pairs::of_policies(s.get("policies"), &POLICIES, |lineup| {
            let rules = Rules { rotate: false, ..Rules::with_lineup(s, lineup)? };
            Ok(TerritoriesEngine::new(rules))
        });
    }
    Ok(Box::new(TerritoriesEngine::new(Rules::from_settings(s)?)))
}

/// How many cards a player may put on one territory in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// At most one card per territory per round.
    A,
    /// Any number.
    B,
}

/// The validated rules of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: usize,
    pub decks: usize,
    pub version: Version,
    pub max_rounds: u32,
    /// Cards dealt to each player.
    pub hand: usize,
    pub lineup: Lineup,
    pub rotate: bool,
    pub search_budget: u32,
}

impl Rules {
    pub fn from_settings(s: &Settings) -> Result<Rules, String> {
        Rules::with_lineup(s, s.get("policies"))
    }

    /// The rules of `s` with the line-up `lineup` instead of the setting `policies`.
    pub fn with_lineup(s: &Settings, lineup: &str) -> Result<Rules, String> {
        let players = s.int("players") as usize;
        let decks = match s.get("decks") {
            "auto" => 1 + usize::from(players > 4),
            d => d.parse().map_err(|_| format!("bad decks '{d}'"))?,
        };
        let lineup = Lineup::parse(lineup, players, &POLICIES)?;
        Ok(Rules {
            players,
            decks,
            version: if s.get("version") == "B" { Version::B } else { Version::A },
            max_rounds: s.int("max_rounds") as u32,
            hand: s.int("hand_size") as usize,
            lineup,
            rotate: s.flag("rotate_seats"),
            search_budget: s.int("search_budget") as u32,
        })
    }

    /// Two players, the given line-up, rotated seats, default everything else (for tests and benches).
    pub fn two(version: Version, lineup: &str) -> Rules {
        Rules {
            players: 2,
            decks: 1,
            version,
            max_rounds: 200,
            hand: rules::HAND,
            lineup: Lineup::parse(lineup, 2, &POLICIES).expect("known policies"),
            rotate: true,
            search_budget: 200,
        }
    }

    /// The cards of the game as faces 1..=13, in a fixed order, built from the shared deck shape.
    pub fn deck(&self) -> Vec<u8> {
        crate::cards::DeckShape::STANDARD.build(self.decks, 0).iter().map(|c| c.face_value()).collect()
    }
}
