//! The team game's narrative for `warsim play scourge --set players=4|6`: the deal, each round's
//! columns and waiting cards as the engine plays them (the rules in `rules.rs` tell their own
//! steps), running captured counts per player and side, and the closing lines with each side's MVP.

use super::engine::{Mvp, TeamEngine, mvp};
use super::rules::{Class, EMPTY, Field, Team, WarKind, side_name};
use crate::games::Engine;
use crate::games::census::Unwatched;
use crate::games::narrate::{Narrator, Story, counters_line};
use crate::games::scourge::cards::Decks;
use crate::games::scourge::rules::End;
use crate::record::GameRecord;
use crate::seed::GameSeed;

impl TeamEngine {
    /// Tells game `seed` into `out` and returns the record of the game told.
    pub(super) fn tell(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let mut sc = self.new_scratch();
        let mut rec = GameRecord::new(self.layout());
        let end = self.run(seed, &mut sc, &mut rec, &mut Story(out), &mut Unwatched);
        self.finish(end, &sc.team, &mut rec);
        let team = &sc.team;
        let mut story = Story(out);
        let [a, b] = team.scores();
        let line = match end {
            End::Win(s) => format!(
                "Side {} wins with {} captured cards to {} after {} rounds.",
                side_name(s),
                a.max(b),
                a.min(b),
                team.rounds
            ),
            End::Draw => format!("Draw: {a} captured cards each side after {} rounds.", team.rounds),
            End::Scorched => {
                format!(
                    "Scorched after {} rounds: no winner (captured: side a {a}, side b {b}).",
                    team.rounds
                )
            }
        };
        story.line(format_args!("{line}"));
        if end != End::Scorched {
            for side in 0..2 {
                let who = match mvp(team, side) {
                    Mvp::Alone(s) => format!("P{s} with {} captured cards", team.captured[s]),
                    Mvp::Shared => "shared (a tie for the most captured cards)".to_string(),
                };
                story.line(format_args!("MVP of side {}: {who}", side_name(side)));
            }
        }
        story.line(format_args!("{}", counters_line(&self.layout().counters, &rec.counters)));
        rec
    }

    pub(super) fn tell_deal<N: Narrator>(&self, team: &Team, narr: &mut N) {
        let d = &self.decks;
        let p = self.positions;
        narr.line(format_args!(
            "Deal: {} {:?} decks, {} players (side a: P0-P{}, side b: P{}-P{}): {} Units, {} each, {} unused; Legends deck {} after each player gets one",
            d.decks,
            d.pack,
            self.players(),
            p - 1,
            p,
            2 * p - 1,
            self.units.len(),
            self.share(),
            self.units.len() - self.share() * self.players(),
            team.legends.len()
        ));
        narr.line(format_args!("  {}", crate::games::scourge::narrate::card_key(d.pack)));
        for s in 0..self.players() {
            let top_first: Vec<String> = team.stacks[s].iter().rev().map(|&u| d.unit_label(u)).collect();
            let legend = team.held[s].map_or("none".to_string(), |l| d.legend_label(l));
            narr.line(format_args!(
                "  P{s} (side {}) Legend (face down): {legend}; Units (top first): {}",
                side_name(s / p),
                top_first.join(" ")
            ));
        }
    }
}

impl Team {
    /// The battlefield of a round, column by column, and what it is declared.
    pub(super) fn tell_field<N: Narrator>(&self, f: &Field, class: Class, d: &Decks, narr: &mut N) {
        let mut cols = Vec::new();
        for (c, col) in f.cols[..f.n].iter().enumerate() {
            let slot = |s: usize| -> String {
                let seat = col[s];
                if seat == EMPTY {
                    "(empty)".to_string()
                } else if c < f.fought {
                    let waited = if f.challenged & (1 << seat) != 0 {
                        " (was waiting face down: challenged)"
                    } else {
                        ""
                    };
                    format!("P{seat} {}{waited}", d.unit_label(f.up[seat as usize]))
                } else {
                    format!("P{seat} face down (unfought, waiting)")
                }
            };
            cols.push(format!("{} v {}", slot(0), slot(1)));
        }
        narr.line(format_args!("Round {}: {}  (side a v side b)", self.rounds, cols.join(" | ")));
        let why = match class {
            Class::ScorchedEarth => {
                "Scorched Earth declared: every card has one value and one colour".to_string()
            }
            Class::Scarsands => {
                "Battle of the Scarsands Canyon: every card shares one suit or one value".to_string()
            }
            Class::ScourgeWar(at_war) => {
                let bystanders = f.face_up() & !at_war;
                let by: Vec<String> = super::rules::seats(bystanders).map(|s| format!("P{s}")).collect();
                if by.is_empty() {
                    "Scourge War declared: the face-up values match in two pairs across".to_string()
                } else {
                    format!(
                        "Scourge War declared: the face-up values match in two pairs across; {} stand by",
                        by.join(", ")
                    )
                }
            }
            Class::War(r) => {
                let who: Vec<String> = super::rules::seats(r.matched).map(|s| format!("P{s}")).collect();
                match r.kind {
                    WarKind::ThreeCard => format!(
                        "three-card war: {} match; the side with more cards has more chances",
                        who.join(", ")
                    ),
                    WarKind::Column => format!("column war: {} match across their column", who.join(" and ")),
                    WarKind::Diagonal => {
                        format!(
                            "diagonal war: {} match diagonally; the region is both columns",
                            who.join(" and ")
                        )
                    }
                }
            }
            Class::Plain => "plain battles: no opposing face-up cards match".to_string(),
        };
        narr.line(format_args!("  {why}"));
    }

    /// Where the cards stand after a round that did not end the game.
    pub(super) fn tell_totals<N: Narrator>(&self, narr: &mut N) {
        let players = self.players();
        let per: Vec<String> = (0..players).map(|s| format!("P{s} {}", self.captured[s])).collect();
        let stacks: Vec<String> = (0..players).map(|s| format!("P{s} {}", self.stacks[s].len())).collect();
        let [a, b] = self.scores();
        let waiting: Vec<String> =
            (0..players).filter(|&s| self.waiting[s].is_some()).map(|s| format!("P{s}")).collect();
        narr.line(format_args!(
            "  captured: {} (side a {a}, side b {b}); stacks: {}; waiting: {}; Legends deck {}",
            per.join(", "),
            stacks.join(", "),
            if waiting.is_empty() { "none".to_string() } else { waiting.join(", ") },
            self.legends.len()
        ));
    }
}
