//! War (`war`) and every variant of its rules text, as orthogonal settings and named presets
//! (`docs/rules/war.md` restates the rules as warsim plays them).
//!
//! The folder: this file defines the game and its settings; `setup.rs` turns the settings into
//! typed rules and deals; `rules.rs` holds the board of a game in progress and plays one battle,
//! on stacks that are the ring buffers of `ring.rs`; `engine.rs` plays a game to its end and
//! records it; `narrate.rs` tells a game; `census.rs` accounts for every card after every battle;
//! `tests.rs` holds the rule tests. War asks its players no decisions, so it has no agents.

mod census;
pub mod engine;
mod narrate;
pub mod ring;
pub mod rules;
pub mod setup;
#[cfg(test)]
mod tests;

pub use engine::WarEngine;
use setup::WarRules;

use super::{GameDef, Point};
use crate::settings::{Allowed, Preset, SettingSpec, Settings};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 10 },
        help: "players; cards that cannot be dealt evenly are removed",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "1",
        allowed: Allowed::Int { min: 1, max: 8 },
        help: "decks shuffled together",
        deal: true,
    },
    SettingSpec {
        key: "ranks",
        default: "13",
        allowed: Allowed::Int { min: 1, max: 30 },
        help: "ranks per suit; the top rank is the ace",
        deal: true,
    },
    SettingSpec {
        key: "suits",
        default: "4",
        allowed: Allowed::Int { min: 1, max: 8 },
        help: "suits per deck",
        deal: true,
    },
    SettingSpec {
        key: "jokers",
        default: "none",
        allowed: Allowed::Choice(&["none", "shared", "equal"]),
        help: "shared: 2 per deck mixed in; equal: one shuffled into each player's stack after the deal",
        deal: true,
    },
    SettingSpec {
        key: "aces",
        default: "high",
        allowed: Allowed::Choice(&["high", "low"]),
        help: "aces above kings or below twos (jokers stay on top)",
        deal: false,
    },
    SettingSpec {
        key: "winner",
        default: "high",
        allowed: Allowed::Choice(&["high", "low"]),
        help: "low: the lowest card wins (Peace)",
        deal: false,
    },
    SettingSpec {
        key: "war_down",
        default: "3",
        allowed: Allowed::IntOr { min: 0, max: 60, words: &["by-value"] },
        help: "balance: face-down cards per war step (then one face up); by-value: the tied card's value",
        deal: false,
    },
    SettingSpec {
        key: "war_scope",
        default: "all",
        allowed: Allowed::Choice(&["all", "tied"]),
        help: "3+ players: everyone joins a war, or only the tied players (Limited Engagement)",
        deal: false,
    },
    SettingSpec {
        key: "short",
        default: "lose",
        allowed: Allowed::Choice(&["lose", "last-ditch"]),
        help: "a player who cannot lay a full war step is out, or lays what they have (Last Ditch Effort)",
        deal: false,
    },
    SettingSpec {
        key: "capture",
        default: "spoils",
        allowed: Allowed::Choice(&["spoils", "instant"]),
        help: "balance (the spoils): instant: the winner keeps its own cards and the losers' face-down cards, the rest is killed",
        deal: false,
    },
    SettingSpec {
        key: "pickup",
        default: "shuffled",
        allowed: Allowed::Choice(&["shuffled", "winner-first", "loser-first", "seat-order"]),
        help: "order of won cards under the winner's stack",
        deal: false,
    },
    SettingSpec {
        key: "battles_to_win",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 1_000_000 },
        help: "Short War: the first to win this many battles wins (0 = off)",
        deal: false,
    },
    SettingSpec {
        key: "max_battles",
        default: "100000",
        allowed: Allowed::Int { min: 1, max: 100_000_000 },
        help: "a game still going after this many battles ends as capped",
        deal: false,
    },
    SettingSpec {
        key: "stack",
        default: "none",
        allowed: Allowed::Text("SEAT:CARD,CARD;SEAT:... e.g. 0:A,A,A,A (pinned, the rest dealt evenly)"),
        help: "pin cards to seats before the random deal; the rest is dealt evenly",
        deal: true,
    },
    SettingSpec {
        key: "stack_only",
        default: "none",
        allowed: Allowed::Text("SEAT:CARD,CARD;SEAT:... (the seat gets only these)"),
        help: "pin cards to seats, which get nothing else; the others share the rest",
        deal: true,
    },
];

pub const PRESETS: &[Preset] = &[
    Preset { name: "standard", about: "the rules as written", sets: &[] },
    Preset { name: "lesser-spoils", about: "one card face down per war step", sets: &[("war_down", "1")] },
    Preset {
        name: "greater-spoils",
        about: "as many face-down cards as the tied card's value",
        sets: &[("war_down", "by-value")],
    },
    Preset { name: "jokers", about: "two jokers per deck, above aces", sets: &[("jokers", "shared")] },
    Preset {
        name: "equal-jokers",
        about: "each player shuffles one joker into their stack",
        sets: &[("jokers", "equal")],
    },
    // docs/rules/war.md: players 3 or more, war_scope all. It sets 3 players (an explicit `players`
    // overrides a preset), so the preset alone is a multi-player game, not standard War.
    Preset {
        name: "multiple-players",
        about: "three players (more with players=N), everyone joins a war",
        sets: &[("players", "3"), ("war_scope", "all")],
    },
    Preset {
        name: "limited-engagement",
        about: "3+ players: only the tied players go to war",
        sets: &[("war_scope", "tied")],
    },
    Preset {
        name: "short-war",
        about: "the first to win three battles wins",
        sets: &[("battles_to_win", "3")],
    },
    Preset {
        name: "instant-war",
        about: "losing cards are killed; one card down per war step",
        sets: &[("capture", "instant"), ("war_down", "1")],
    },
    Preset {
        name: "last-ditch",
        about: "a short player lays what they have",
        sets: &[("short", "last-ditch")],
    },
    Preset { name: "aces-low", about: "aces below twos", sets: &[("aces", "low")] },
    Preset {
        name: "peace",
        about: "the lowest card wins; five cards down per war step",
        sets: &[("winner", "low"), ("war_down", "5")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "war",
    title: "War and its variants",
    about: "Each battle the players reveal their top cards; the highest takes them. Ties go to war.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &[],
    build,
    card_files: None,
    words: &[
        ("cycle", "games that never end (a cycle)"),
        ("draw", "draws"),
        ("capped", "games stopped at the battle cap"),
        ("length", "the mean length"),
        ("pickup", "pickup order"),
        ("war_down", "face-down cards per war"),
        ("players", "players"),
        ("variant", "variant"),
    ],
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    Ok(Box::new(WarEngine::new(WarRules::from_settings(s)?)))
}
