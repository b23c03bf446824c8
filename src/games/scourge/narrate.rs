//! Scourge War's narrative for `warsim play`: the deal, each round as the engine plays it with the
//! story on (the rules in `rules.rs` tell their own steps), and the closing lines.

use super::cards::Decks;
use super::engine::ScourgeEngine;
use super::rules::{Class, Duel, End, Field, WarKind, side_name};
use crate::games::Engine;
use crate::games::census::Unwatched;
use crate::games::narrate::{Narrator, Story, counters_line};
use crate::record::GameRecord;
use crate::seed::GameSeed;

impl ScourgeEngine {
    /// Tells game `seed` into `out` and returns the record of the game told.
    pub(super) fn tell(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let mut sc = self.new_scratch();
        let mut rec = GameRecord::new(self.layout());
        let end = self.run(seed, &mut sc, &mut rec, &mut Story(out), &mut Unwatched);
        self.finish(end, &sc.duel, &mut rec);
        let duel = &sc.duel;
        let mut story = Story(out);
        let (c0, c1) = (duel.captured[0], duel.captured[1]);
        let line = match end {
            End::Win(s) => format!(
                "P{s} wins with {} captured cards to {} after {} rounds.",
                c0.max(c1),
                c0.min(c1),
                duel.rounds
            ),
            End::Draw => format!("Draw: {c0} captured cards each after {} rounds.", duel.rounds),
            End::Scorched => {
                format!("Scorched after {} rounds: no winner (captured P0 {c0}, P1 {c1}).", duel.rounds)
            }
        };
        story.line(format_args!("{line}"));
        story.line(format_args!("{}", counters_line(&self.layout().counters, &rec.counters)));
        rec
    }

    pub(super) fn tell_deal<N: Narrator>(&self, duel: &Duel, narr: &mut N) {
        let d = &self.decks;
        narr.line(format_args!(
            "Deal: {} {:?} decks: {} Units, {} each; Legends deck {} after each player gets one",
            d.decks,
            d.pack,
            self.unit_count(),
            duel.stacks[0].len(),
            duel.legends.len()
        ));
        narr.line(format_args!("  {}", card_key(d.pack)));
        for s in 0..2 {
            let top_first: Vec<String> = duel.stacks[s].iter().rev().map(|&u| d.unit_label(u)).collect();
            let legend = duel.held[s].map_or("none".to_string(), |l| d.legend_label(l));
            narr.line(format_args!(
                "  P{s} Legend (face down): {legend}; Units (top first): {}",
                top_first.join(" ")
            ));
        }
    }
}

/// What the card labels mean: a rank then a suit, each suit's abbreviation with its name and
/// colour, and the ranks (`G` is the Draconian pack's Guardian). The duel and the team games tell it
/// under their deal.
pub(super) fn card_key(pack: crate::cards::Pack) -> String {
    let suits: Vec<String> = (0..4u8)
        .map(|s| {
            let colour = match pack.colour(s) {
                crate::cards::Colour::Red => "red",
                crate::cards::Colour::Black => "black",
            };
            format!("{} {} ({colour})", pack.suit_labels()[s as usize], pack.suit_names()[s as usize])
        })
        .collect();
    let guardian = if pack.rank_labels().contains(&"G") { ", G Guardian" } else { "" };
    format!(
        "Cards are rank then suit: {}; ranks {} low to high{guardian}",
        suits.join(", "),
        pack.rank_labels().join(" ")
    )
}

impl Duel {
    /// The battlefield of a round and what it is declared.
    pub(super) fn tell_field<N: Narrator>(&self, f: &Field, class: Class, d: &Decks, narr: &mut N) {
        let l = |u| d.unit_label(u);
        narr.line(format_args!(
            "Round {}: left {} v {} | right {} v {}  (P0 v P1)",
            self.rounds,
            l(f[0][0]),
            l(f[1][0]),
            l(f[0][1]),
            l(f[1][1])
        ));
        let why = match class {
            Class::ScorchedEarth => {
                "Scorched Earth declared: every card has one value and one colour".to_string()
            }
            Class::Scarsands => {
                "Battle of the Scarsands Canyon: every card shares one suit or one value".to_string()
            }
            Class::ScourgeWar => "Scourge War declared: the two sides' values match in pairs".to_string(),
            Class::War(r) => match r.kind {
                WarKind::ThreeCard => {
                    let two = if r.matched[0].count_ones() == 2 { 0 } else { 1 };
                    format!("three-card war: three cards match; P{two} fights with two cards (two chances)")
                }
                WarKind::Column => format!(
                    "column war on the {}: the cards across match; the other column is a plain battle",
                    side_name(r.columns.trailing_zeros() as usize)
                ),
                WarKind::Diagonal => {
                    "diagonal war: cards match diagonally; the region is the whole battlefield".into()
                }
            },
            Class::Plain => "two plain battles: no opposing cards match".to_string(),
        };
        narr.line(format_args!("  {why}"));
    }

    /// Where the cards stand after a round that did not end the game.
    pub(super) fn tell_totals<N: Narrator>(&self, narr: &mut N) {
        narr.line(format_args!(
            "  captured: P0 {}, P1 {}; stacks: P0 {}, P1 {}; Legends deck {}",
            self.captured[0],
            self.captured[1],
            self.stacks[0].len(),
            self.stacks[1].len(),
            self.legends.len()
        ));
    }
}
