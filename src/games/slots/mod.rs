//! Card Wars (`slots`, `docs/rules/slots.md`): War played with cards the players design, placed
//! face down into nine slots, best of three rounds. Each player brings a pool of 30 cards with
//! printed values 1-9, keeps 21 of them before every round, and places one card per turn; the
//! higher card takes each slot. Here: the game's definition and settings; `pools` deals the pools
//! and builds the decks, `table` holds a game, `resolve` applies card text, `rules` plays a round,
//! `engine` runs and records a game, `agents` decide, `narrate` tells it, `census` accounts for
//! every card after every answer, `impact` measures what each design's text does to its owner's
//! chance to win.

// The layers, bottom first: a file imports only files listed before it (`LAYERS`; the test
// `tests::layers` reads every file's imports and fails on one that points up).
// 1. the card set: sizes and card ids, the model, what a text is worth, the file and its checks,
//    the set spelled back for designers;
// 2. the table: pools, the state of a game, values, the decisions asked, a seat's view;
// 3. resolution: the typed operations and steps it emits, then the resolver;
// 4. the round and game loop, and the census that checks it;
// 5. on top: what a game tells, the agents and their judgement, the engine that runs and records.
pub mod agents;
pub mod card;
pub mod cardfile;
pub mod cardset;
mod census;
pub mod choices;
pub mod deal;
pub mod engine;
pub mod event;
pub mod impact;
pub mod judge;
pub mod knobs;
pub mod narrate;
pub mod ops;
pub mod pools;
pub mod reader;
pub mod resolve;
pub mod rules;
pub mod search;
pub mod setup;
pub mod sideboard;
pub mod spell;
pub mod strength;
pub mod table;
#[cfg(test)]
mod tests;
pub mod values;
pub mod view;

/// The files of the game, bottom layer first (see the list of modules above).
pub const LAYERS: [&str; 26] = [
    "card",
    "cardset",
    "strength",
    "cardfile",
    "spell",
    "knobs",
    "deal",
    "pools",
    "table",
    "values",
    "choices",
    "view",
    "ops",
    "resolve",
    "rules",
    "census",
    "impact",
    "narrate",
    "judge",
    "reader",
    "setup",
    "search",
    "sideboard",
    "agents",
    "engine",
    "event",
];

pub use engine::SlotsEngine;

pub use setup::Rules;

use super::contest::IntoEvent;
use super::{CardFiles, GameDef, Point};
use crate::settings::{Allowed, Preset, SettingSpec, Settings};
use impact::Impact;
use pools::DeckPolicy;
use setup::POLICIES;

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
        help: "how each player keeps 21 of its 30 cards before every round (top21: the highest printed values; strength: the highest printed value plus the text's estimated worth; ties by pool order; adapt: top21 first, then before each later round a sideboard card in for its weakest card when simulated rounds against the cards the opponent has shown score better); one for every seat, or one per line-up entry (strength,top21: the first policy of `policies` builds by strength), rotated with the seats",
        deal: false,
    },
    SettingSpec {
        key: "impact",
        default: "none",
        allowed: Allowed::Choice(Impact::NAMES),
        help: "measure each design's causal impact on its owner's chance to win, paired game by game with its text removed (cards), and of every two designs together (pairs); needs a card set; with event=tournament (cards only), on its holders' games and first place in the event",
        deal: false,
    },
    SettingSpec {
        key: "impact_of",
        default: "all",
        allowed: Allowed::Text("all, or design ids of the card set separated by commas"),
        help: "whose impact `impact` measures: every design with text (all), or only these designs (faster: only their holders' games are played again; what `warsim balance` uses)",
        deal: false,
    },
    SettingSpec {
        key: "impact_games",
        default: "event",
        allowed: Allowed::Choice(&["event", "holders"]),
        help: "with event=tournament and impact=cards: play the whole round robin and measure each design's impact on its holders' games and first place (event), or play only the games of players holding a measured design and measure the game impact alone (holders: the standings and first place then say nothing; what `warsim balance` uses, several times faster when impact_of names few designs)",
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
    SettingSpec {
        key: "opening_hand",
        default: "5",
        allowed: Allowed::Int { min: 0, max: 21 },
        help: "cards each player draws when a round starts (the rules text: 5; Future Suggestions: 4)",
        deal: false,
    },
    SettingSpec {
        key: "draw_first",
        default: "false",
        allowed: Allowed::Bool,
        help: "each turn draws before placing and no draw follows the last reveal (Future Suggestions); false: the draw follows each reveal, turn 9's too",
        deal: false,
    },
    crate::games::contest::EVENT,
    SettingSpec {
        key: "players",
        default: "9",
        allowed: Allowed::Int { min: 2, max: 16 },
        help: "players of a tournament (event=tournament); player i plays the set's i-th designer's sheet",
        deal: true,
    },
    SettingSpec {
        key: "deal",
        default: "auto",
        allowed: Allowed::Choice(&["auto", "piles", "designer", "independent"]),
        help: "how pools are dealt: piles (the rules text: rarity piles shuffled and dealt, commons printed twice), designer (Future Suggestions: two commons and one uncommon of each value, three rares), independent (each place drawn on its own); auto: piles in a tournament, independent in single games",
        deal: true,
    },
];

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "standard",
        about: "the rules text: five cards to start, the draw after each reveal",
        sets: &[],
    },
    Preset {
        name: "future",
        about: "the rules' Future Suggestions: four cards to start, the draw first in each turn",
        sets: &[("draw_first", "true"), ("opening_hand", "4")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "slots",
    title: "Card Wars",
    about: "Players place designed cards face down into nine slots; the higher card takes each slot, best of three rounds.",
    settings: SETTINGS,
    presets: PRESETS,
    policies: &POLICIES,
    build,
    card_files: Some(CardFiles {
        check: check_cards,
        report: report_cards,
        balancing: Some(super::Balancing {
            card_key: "cards",
            fixed: &[("event", "tournament"), ("impact", "cards"), ("impact_games", "holders")],
            only_key: "impact_of",
            sheet: knobs::sheet,
            edit: knobs::edit,
        }),
    }),
    words: &[
        ("policies", "placement"),
        ("cards", "card set"),
        ("draw", "draws"),
        ("deal", "dealing"),
        ("variant", "turn order"),
        ("deal=piles", "pools dealt from the rarity piles"),
        ("deal=designer", "pools dealt by designer sheet"),
        ("deal=independent", "each pool place drawn on its own"),
        ("variant=standard", "five cards to start, the draw after each reveal"),
        ("variant=future", "four cards to start, the draw first"),
    ],
};

/// A card set's text compiled (`warsim cards`, the fuzz target).
fn check_cards(file: &str, text: &str) -> Result<(), String> {
    cardfile::parse(file, text).map(|_| ())
}

/// A card set's text compiled and spelled back (`warsim cards`).
fn report_cards(file: &str, text: &str, csv: bool) -> Result<String, String> {
    Ok(spell::report(&cardfile::parse(file, text)?, csv))
}

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    let tournament = s.get("event") == "tournament";
    let dealing = match (s.get("deal"), tournament) {
        ("auto", true) => deal::Dealing::Piles,
        ("auto" | "independent", false) => deal::Dealing::Independent,
        (name, true) => deal::Dealing::named(name).expect("a listed choice"),
        (name, false) => {
            return Err(format!(
                "deal={name} deals the pools of a tournament's players: add event=tournament (single games deal independent)"
            ));
        }
    };
    if tournament {
        let players = s.int("players") as usize;
        let event = event::SlotsEvent::new(Rules::from_settings(s)?, players, dealing)?;
        return Ok(event.into_event());
    }
    Ok(Box::new(SlotsEngine::new(Rules::from_settings(s)?)))
}
