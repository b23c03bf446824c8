//! The validated settings of one Card Wars scenario point (`Rules`), and the names of the
//! policies a line-up may seat.

use std::sync::Arc;

use super::card::SEATS;
use super::cardfile;
use super::cardset::CardSet;
use super::impact::Impact;
use super::pools::DeckPolicy;
use crate::decide::Lineup;
use crate::settings::Settings;

/// Policy names, in the order `policies` indices refer to.
pub const POLICIES: [&str; 4] = ["random", "highest", "reader", "search"];

/// The validated rules of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The card set, compiled once for the point (`None`: textless default pools).
    pub cards: Option<Arc<CardSet>>,
    /// Each line-up entry\'s deck policy (seated with its entry, so rotated with the seats).
    pub deck_policy: [DeckPolicy; SEATS],
    /// Whether each game is also played without each design's text (`impact`).
    pub impact: Impact,
    /// Per design, whether `impact` measures it (`impact_of`; empty: every design).
    pub impact_of: Vec<bool>,
    /// In an event, whether only the measured designs' holders' games are played and only the
    /// game impact is measured (`impact_games=holders`).
    pub impact_holders: bool,
    pub max_replays: u32,
    pub lineup: Lineup,
    pub rotate: bool,
    pub search_budget: u32,
    /// Cards drawn when a round starts.
    pub opening_hand: u8,
    /// The draw phase first in each turn, none after the last reveal.
    pub draw_first: bool,
}

impl Rules {
    /// Whether `impact` measures design `d`.
    #[inline]
    pub fn measures(&self, d: u16) -> bool {
        self.impact_of.get(d as usize).copied().unwrap_or(self.impact_of.is_empty())
    }

    pub fn from_settings(s: &Settings) -> Result<Rules, String> {
        let lineup = Lineup::parse(s.get("policies"), SEATS, &POLICIES).map_err(|e| format!("slots: {e}"))?;
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
        let impact_of = match (s.get("impact_of"), &cards) {
            ("all", _) | (_, None) => Vec::new(),
            (list, Some(set)) => {
                let mut of = vec![false; set.designs.len()];
                for id in list.split(',').map(str::trim) {
                    let Some(d) = set.designs.iter().position(|d| d.id == id) else {
                        return Err(format!(
                            "impact_of names '{id}', which is no design of the card set (write all, or ids of its designs separated by commas)"
                        ));
                    };
                    of[d] = true;
                }
                of
            }
        };
        let impact_holders = s.get("impact_games") == "holders";
        if impact_holders && (impact != Impact::Cards || s.get("event") != "tournament") {
            return Err(
                "impact_games=holders measures designs in tournaments: add event=tournament and impact=cards (or leave impact_games=event)"
                    .into(),
            );
        }
        Ok(Rules {
            cards,
            impact_of,
            impact_holders,
            deck_policy: DeckPolicy::lineup(s.get("deck_policy")).ok_or("slots: unknown deck_policy")?,
            impact,
            max_replays: s.int("max_replays") as u32,
            lineup,
            rotate: s.flag("rotate_seats"),
            search_budget: s.int("search_budget") as u32,
            opening_hand: s.int("opening_hand") as u8,
            draw_first: s.flag("draw_first"),
        })
    }

    /// The default rules with the given line-up (for tests and benches).
    pub fn with(lineup: &str) -> Rules {
        Rules {
            cards: None,
            deck_policy: [DeckPolicy::Top21; SEATS],
            impact: Impact::None,
            impact_of: Vec::new(),
            impact_holders: false,
            max_replays: 10,
            lineup: Lineup::parse(lineup, SEATS, &POLICIES).expect("known policies"),
            rotate: true,
            search_budget: 100,
            opening_hand: super::card::FIRST_HAND as u8,
            draw_first: false,
        }
    }
}
