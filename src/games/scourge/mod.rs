//! Scourge War (`scourge`, RULINGS §2) for two players: settings, the game's definition for the
//! registry, and the engine that deals a game and plays it round by round. The rules themselves are
//! in `duel.rs`, the decks in `cards.rs`; `docs/rules/scourge.md` tells them in prose.

pub mod cards;
pub mod duel;
#[cfg(test)]
mod tests;

use cards::{Decks, Legend, Unit};
use duel::{Duel, End, counter};

use super::{Engine, GameDef, Point};
use crate::cards::Pack;
use crate::games::narrate::{Narrator, Silent, Story};
use crate::record::{Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed, shuffle};
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
    build,
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    if s.get("players").trim() != "2" {
        return Err(format!(
            "scourge: players = {} is not available (allowed: 2; the team games for 4 and 6 players are not implemented yet)",
            s.get("players")
        ));
    }
    let pack = if s.get("deck") == "standard" { Pack::Standard } else { Pack::Draconian };
    Ok(Box::new(ScourgeEngine::new(pack, s.int("decks") as usize)))
}

crate::declare! {
    /// The captured-card margin (seat 0 minus seat 1) at the end of every game, scorched games
    /// included, and each seat's captured cards. Declared once.
    pub mod dist: Dist {
        MARGIN = "margin",
        CAPTURED_P0 = "captured_p0",
        CAPTURED_P1 = "captured_p1",
    }
}

pub struct ScourgeEngine {
    pub decks: Decks,
    units: Vec<Unit>,
    legends: Vec<Legend>,
    layout: Layout,
    outcomes: Outcomes,
}

/// Per-thread buffers: the game in progress and the Units deck being shuffled.
pub struct ScourgeScratch {
    pub duel: Duel,
    deck: Vec<Unit>,
}

impl ScourgeEngine {
    pub fn new(pack: Pack, decks: usize) -> Self {
        let d = Decks::new(pack, decks);
        let mut b = LayoutBuilder::new("rounds");
        b.seat_wins(2).plain(&[OutcomeKind::Draw, OutcomeKind::Scorched]);
        b.declared_counters(counter::NAMES);
        b.declared_distributions(dist::NAMES);
        let (layout, outcomes) = b.finish();
        ScourgeEngine { units: d.units(), legends: d.legends(), decks: d, layout, outcomes }
    }

    pub fn unit_count(&self) -> usize {
        self.units.len()
    }

    pub fn legend_count(&self) -> usize {
        self.legends.len()
    }

    /// Deals game `seed`: shuffles the Units and the Legends, gives each player one face-down
    /// Legend, deals the Units one at a time (an odd last card would stay unused); returns the
    /// generator positioned after the deal.
    pub fn deal(&self, seed: GameSeed, sc: &mut ScourgeScratch) -> GameRng {
        let mut rng = seed.rng();
        let duel = &mut sc.duel;
        duel.clear();
        sc.deck.clear();
        sc.deck.extend_from_slice(&self.units);
        shuffle(&mut rng, &mut sc.deck);
        duel.legends.extend_from_slice(&self.legends);
        shuffle(&mut rng, &mut duel.legends);
        for s in 0..2 {
            duel.held[s] = duel.legends.pop();
        }
        let even = sc.deck.len() - sc.deck.len() % 2;
        for (i, &u) in sc.deck[..even].iter().enumerate() {
            duel.stacks[i % 2].push(u);
        }
        rng
    }

    /// Deals and plays game `seed` to its end, telling it to `narr`.
    fn run<N: Narrator>(
        &self,
        seed: GameSeed,
        sc: &mut ScourgeScratch,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> End {
        let mut rng = self.deal(seed, sc);
        if N::ON {
            self.tell_deal(&sc.duel, narr);
        }
        loop {
            if let Some(end) = sc.duel.round(&self.decks, &mut rng, rec, narr) {
                return end;
            }
        }
    }

    fn finish(&self, end: End, duel: &Duel, rec: &mut GameRecord) {
        rec.length = duel.rounds;
        rec.end(self.outcomes.row(match end {
            End::Win(seat) => Ending::Seat { seat, entry: 0 },
            End::Draw => Ending::Plain(OutcomeKind::Draw),
            End::Scorched => Ending::Plain(OutcomeKind::Scorched),
        }));
        rec.observe(dist::MARGIN, duel.captured[0] as i64 - duel.captured[1] as i64);
        rec.observe(dist::CAPTURED_P0, duel.captured[0] as i64);
        rec.observe(dist::CAPTURED_P1, duel.captured[1] as i64);
    }

    fn tell_deal<N: Narrator>(&self, duel: &Duel, narr: &mut N) {
        let d = &self.decks;
        narr.line(format_args!(
            "Deal: {} {:?} decks: {} Units, {} each; Legends deck {} after each player gets one",
            d.decks,
            d.pack,
            self.units.len(),
            duel.stacks[0].len(),
            duel.legends.len()
        ));
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

impl Engine for ScourgeEngine {
    type Scratch = ScourgeScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> ScourgeScratch {
        ScourgeScratch {
            duel: Duel::with_capacity(self.units.len(), self.legends.len()),
            deck: Vec::with_capacity(self.units.len()),
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut ScourgeScratch, rec: &mut GameRecord) {
        let end = self.run(seed, sc, rec, &mut Silent);
        self.finish(end, &sc.duel, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) {
        let mut sc = self.new_scratch();
        let mut rec = GameRecord::new(&self.layout);
        let end = self.run(seed, &mut sc, &mut rec, &mut Story(out));
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
        story.line(format_args!(
            "{}",
            crate::games::narrate::counters_line(&self.layout.counters, &rec.counters)
        ));
    }
}
