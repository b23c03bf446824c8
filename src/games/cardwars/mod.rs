//! Cardwars (`cardwars`, `docs/rules/cardwars.md`): two players with 20 life, each with a 27-card
//! deck of two suits and a joker; numerals pay for Jacks, Queens and Kings of their suit, faces
//! attack and block, and a joker from hand wipes out an attack. A decision game built on
//! `crate::decide`: its players are policies named per seat by `policies`, and every decision (a
//! block in the middle of the opponent's turn included) is a point where the game stops.
//! Here: the game's definition and settings; `rules` plays it step by step, `engine` runs and
//! records it, `agents` decides, `narrate` tells it, `census` accounts for every card.

pub mod agents;
mod census;
pub mod engine;
pub mod narrate;
pub mod rules;
#[cfg(test)]
mod tests;

pub use engine::CardwarsEngine;

use super::{GameDef, Point};
use crate::cards::{Card, DeckShape};
use crate::decide::Lineup;
use crate::settings::{Allowed, Preset, SettingSpec, Settings};
use agents::POLICIES;
use rules::{Config, DECK, card};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "life",
        default: "20",
        allowed: Allowed::Int { min: 1, max: 1000 },
        help: "each player's starting life",
        deal: false,
    },
    SettingSpec {
        key: "opening_hand",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 20 },
        help: "cards each player draws before the first turn",
        deal: false,
    },
    SettingSpec {
        key: "first_draw",
        default: "true",
        allowed: Allowed::Bool,
        help: "the first player draws on the first turn (false skips that one draw)",
        deal: false,
    },
    SettingSpec {
        key: "second_extra_cards",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 10 },
        help: "balance: extra cards in the second player's opening hand",
        deal: false,
    },
    SettingSpec {
        key: "second_extra_draws",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 10 },
        help: "balance: extra cards the second player draws on its first turn",
        deal: false,
    },
    SettingSpec {
        key: "second_extra_life",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 1000 },
        help: "balance: extra starting life for the second player",
        deal: false,
    },
    SettingSpec {
        key: "max_turns",
        default: "400",
        allowed: Allowed::Int { min: 1, max: 100_000 },
        help: "a game still going after this many turns ends as capped",
        deal: false,
    },
    SettingSpec {
        key: "stall_turns",
        default: "40",
        allowed: Allowed::Int { min: 1, max: 100_000 },
        help: "this many turns in a row with nothing drawn, played or destroyed and no life lost end the game as capped (stalled)",
        deal: false,
    },
    SettingSpec {
        key: "policies",
        default: "aggressive",
        allowed: Allowed::Text(
            "policy names, one for every seat or one per seat: random, aggressive, defensive, search",
        ),
        help: "who plays each seat, e.g. aggressive,random",
        deal: false,
    },
    SettingSpec {
        key: "rotate_seats",
        default: "true",
        allowed: Allowed::Bool,
        help: "play each deal once per rotation of the policies over the seats (game i: deal i/2, rotation i%2)",
        deal: true,
    },
    SettingSpec {
        key: "search_budget",
        default: "100",
        allowed: Allowed::Int { min: 1, max: 1_000_000 },
        help: "simulated games per decision of the search agent",
        deal: false,
    },
    crate::games::contest::EVENT,
];

pub const PRESETS: &[Preset] = &[
    Preset { name: "standard", about: "the rules as written: 20 life, no opening hand", sets: &[] },
    Preset {
        name: "no-first-draw",
        about: "the first player skips the draw of the first turn",
        sets: &[("first_draw", "false")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "cardwars",
    title: "Cardwars",
    about: "Two players, 20 life: numerals pay for faces of their suit, faces attack and block, a joker stops an attack.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &POLICIES,
    build,
    card_files: None,
    words: &[
        ("first_player_win_share", "the first player's wins"),
        ("first_player_win_share_of_decided", "the first player's wins"),
        ("capped", "games stopped at the turn cap"),
        ("length", "the mean length"),
        ("first_draw", "first draw"),
        ("opening_hand", "opening hand"),
        ("life", "starting life"),
        ("policies", "agents"),
    ],
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    if s.get("event") == "tournament" {
        // A round robin of the policies `policies` names, seats rotated between events.
        return crate::games::contest::pairs::of_policies(s.get("policies"), &POLICIES, |lineup| {
            let rules = Rules { rotate: false, ..Rules::with_lineup(s, lineup)? };
            Ok(CardwarsEngine::new(rules))
        });
    }
    Ok(Box::new(CardwarsEngine::new(Rules::from_settings(s)?)))
}

/// Seats of the game.
pub const PLAYERS: usize = 2;
/// Each seat's suits (standard suit indices: spades 0, hearts 1, diamonds 2, clubs 3): seat 0
/// hearts and diamonds, seat 1 spades and clubs.
pub const SUITS: [[u8; 2]; PLAYERS] = [[1, 2], [0, 3]];

/// The validated rules of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub config: Config,
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
        let lineup = Lineup::parse(lineup, PLAYERS, &POLICIES)?;
        Ok(Rules {
            config: Config {
                life: s.int("life") as i32,
                opening_hand: s.int("opening_hand") as u8,
                first_draw: s.flag("first_draw"),
                max_turns: s.int("max_turns") as u32,
                stall_turns: s.int("stall_turns") as u32,
                second_extra_cards: s.int("second_extra_cards") as u8,
                second_extra_draws: s.int("second_extra_draws") as u8,
                second_extra_life: s.int("second_extra_life") as i32,
            },
            lineup,
            rotate: s.flag("rotate_seats"),
            search_budget: s.int("search_budget") as u32,
        })
    }

    /// The given line-up, seats rotated, default everything else (for tests and benches).
    pub fn with(lineup: &str) -> Rules {
        Rules {
            config: Config::default(),
            lineup: Lineup::parse(lineup, PLAYERS, &POLICIES).expect("known policies"),
            rotate: true,
            search_budget: 100,
        }
    }
}

/// Seat `seat`'s 27 cards in a fixed order, taken from the shared 54-card deck (one standard
/// deck with two jokers): its two suits, ace to king, then its joker.
pub fn deck_of(seat: usize) -> [u8; DECK] {
    let all = DeckShape::STANDARD.build(1, 2);
    let mut out = [0u8; DECK];
    let mine = |c: &&Card| if c.is_joker() { c.suit as usize == seat } else { SUITS[seat].contains(&c.suit) };
    let mut k = 0;
    for c in all.iter().filter(mine) {
        out[k] = if c.is_joker() { card(rules::JOKER, seat as u8) } else { card(c.face_value(), c.suit) };
        k += 1;
    }
    debug_assert_eq!(k, DECK);
    out.sort_unstable_by_key(|&c| (rules::is_joker(c), rules::suit(c), rules::rank(c)));
    out
}
