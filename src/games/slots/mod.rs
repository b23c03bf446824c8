//! Card Wars (`slots`, `docs/rules/slots.md`): War played with cards the players design, placed
//! face down into nine slots, best of three rounds. Each player brings a pool of 30 cards with
//! printed values 1-9, keeps 21 of them before every round, and places one card per turn; the
//! higher card takes each slot. Here: the game's definition and settings; `pools` deals the pools
//! and builds the decks, `rules` plays a round, `engine` runs and records a game, `agents` decide,
//! `narrate` tells it, `census` accounts for every card after every answer, `impact` measures what
//! each design's text does to its owner's chance to win.

pub mod agents;
pub mod cardfile;
pub mod cardset;
pub mod deal;
mod census;
pub mod choices;
pub mod engine;
pub mod impact;
pub mod judge;
pub mod narrate;
pub mod pools;
pub mod reader;
pub mod resolve;
pub mod rules;
pub mod search;
pub mod strength;
#[cfg(test)]
mod tests;
pub mod values;
pub mod view;

pub use engine::SlotsEngine;

use std::sync::Arc;

use super::{GameDef, Point};
use crate::decide::Lineup;
use crate::settings::{Allowed, Preset, SettingSpec, Settings};
use agents::POLICIES;
use cardset::CardSet;
use impact::Impact;
use pools::DeckPolicy;

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "cards",
        default: "none",
        allowed: Allowed::File { what: "a card set (docs/cards.md)", example: "scenarios/cards/sample.toml" },
        help: "the card set the pools are dealt from (none: textless default pools)",
        deal: true,
    },
    SettingSpec {
        key: "deck_policy",
        default: "top21",
        allowed: Allowed::Choice(&DeckPolicy::LINEUPS),
        help: "how each player keeps 21 of its 30 cards before every round (top21: the highest printed values; strength: the highest printed value plus the text's estimated worth; ties by pool order); one for every seat, or one per line-up entry (strength,top21: the first policy of `policies` builds by strength), rotated with the seats",
        deal: false,
    },
    SettingSpec {
        key: "impact",
        default: "none",
        allowed: Allowed::Choice(Impact::NAMES),
        help: "measure each design's causal impact on its owner's chance to win, paired game by game with its text removed (cards), and of every two designs together (pairs); needs a card set",
        deal: false,
    },
    SettingSpec {
        key: "max_replays",
        default: "10",
        allowed: Allowed::Int { min: 0, max: 1_000 },
        help: "tied rounds replayed per game; the next tied round ends the game as a draw",
        deal: false,
    },
    SettingSpec {
        key: "policies",
        default: "random",
        allowed: Allowed::Text(
            "policy names, one for every seat or one per seat: random, highest, reader, search",
        ),
        help: "who places each seat's cards, e.g. highest,random",
        deal: false,
    },
    SettingSpec {
        key: "search_budget",
        default: "100",
        allowed: Allowed::Int { min: 1, max: 1_000_000 },
        help: "simulated rounds per placement decision of the search agent",
        deal: false,
    },
    SettingSpec {
        key: "rotate_seats",
        default: "true",
        allowed: Allowed::Bool,
        help: "play each deal once per rotation of the policies over the seats (game i: deal i/2, rotation i%2)",
        deal: true,
    },
];

pub const PRESETS: &[Preset] = &[];

pub const DEF: GameDef = GameDef {
    name: "slots",
    title: "Card Wars",
    about: "Players place designed cards face down into nine slots; the higher card takes each slot, best of three rounds.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &POLICIES,
    build,
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    Ok(Box::new(SlotsEngine::new(Rules::from_settings(s)?)))
}

/// The validated rules of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The card set, compiled once for the point (`None`: textless default pools).
    pub cards: Option<Arc<CardSet>>,
    /// Each line-up entry\'s deck policy (seated with its entry, so rotated with the seats).
    pub deck_policy: [DeckPolicy; rules::SEATS],
    /// Whether each game is also played without each design's text (`impact`).
    pub impact: Impact,
    pub max_replays: u32,
    pub lineup: Lineup,
    pub rotate: bool,
    pub search_budget: u32,
}

impl Rules {
    pub fn from_settings(s: &Settings) -> Result<Rules, String> {
        let lineup =
            Lineup::parse(s.get("policies"), rules::SEATS, &POLICIES).map_err(|e| format!("slots: {e}"))?;
        let cards = match s.file("cards") {
            Some(f) => Some(Arc::new(cardfile::parse(&f.path, &f.text)?)),
            None => None,
        };
        let impact = Impact::parse(s.get("impact")).expect("a listed choice");
        if impact != Impact::None && cards.is_none() {
            return Err(format!(
                "impact={} measures the cards of a card set: add cards=FILE (or leave impact=none)",
                s.get("impact")
            ));
        }
        Ok(Rules {
            cards,
            deck_policy: DeckPolicy::lineup(s.get("deck_policy")).ok_or("slots: unknown deck_policy")?,
            impact,
            max_replays: s.int("max_replays") as u32,
            lineup,
            rotate: s.flag("rotate_seats"),
            search_budget: s.int("search_budget") as u32,
        })
    }

    /// The default rules with the given line-up (for tests and benches).
    pub fn with(lineup: &str) -> Rules {
        Rules {
            cards: None,
            deck_policy: [DeckPolicy::Top21; rules::SEATS],
            impact: Impact::None,
            max_replays: 10,
            lineup: Lineup::parse(lineup, rules::SEATS, &POLICIES).expect("known policies"),
            rotate: true,
            search_budget: 100,
        }
    }
}
