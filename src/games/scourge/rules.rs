//! The two-player game of Scourge War (`docs/rules/scourge.md`): one `round` at a time, from laying the four
//! Units through the classification of the battlefield to its war region, Legend contest, Scarsands
//! battle, Scorched Earth or Final Battle.
//!
//! The whole state is a handful of small vectors and counts, so nothing allocates after the deal.
//! Cards on the battlefield are only counted: once a round is classified, who takes what depends
//! on counts alone. Every function that resolves part of a round is public so that tests can set an
//! exact position (stacks, Legends, battlefield) and apply one step of the rules to it.

use super::cards::{BLACK_ANCIENT, Decks, Legend, Unit, strength, suit, value};
use crate::games::narrate::Narrator;
use crate::record::GameRecord;
use crate::seed::{GameRng, below, shuffle};

crate::declare! {
    /// Scourge War's event counters: every counter `docs/rules/scourge.md` names (the team-game ones, `understaffed` and `unfought`, stay 0 in the duel), then `cards_set_aside` (Units and Legends set aside uncaptured by stand-offs). Declared once.
    pub mod counter: Counter {
        PLAIN_BATTLES = "plain_battles",
        COLUMN_WARS = "column_wars",
        DIAGONAL_WARS = "diagonal_wars",
        THREE_CARD_WARS = "three_card_wars",
        WAR_STEPS = "war_steps",
        SCOURGE_WARS = "scourge_wars",
        SCARSANDS = "scarsands",
        SCARSANDS_SHORT = "scarsands_short",
        SCORCHED_EARTH = "scorched_earth",
        SCORCHED = "scorched",
        FINAL_BATTLE_OUT_OF_UNITS = "final_battle_out_of_units",
        FINAL_BATTLE_WAR_SHORT = "final_battle_war_short",
        FINAL_BATTLE_SCARSANDS = "final_battle_scarsands",
        FINAL_BATTLE_DECISIVE = "final_battle_decisive",
        LEGEND_TIES = "legend_ties",
        LEGEND_SHORTAGE = "legend_shortage",
        UNITS_UNPLAYED = "units_unplayed",
        UNDERSTAFFED = "understaffed",
        UNFOUGHT = "unfought",
        CARDS_SET_ASIDE = "cards_set_aside",
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Win(usize),
    Draw,
    /// The Wyrm of Chaos was turned up at a Scorched Earth: no winner.
    Scorched,
}

/// Why the Final Battle was fought (one counter each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    OutOfUnits,
    WarShort,
    Scarsands,
}

impl Cause {
    pub(super) fn counter(self) -> crate::record::Counter {
        match self {
            Cause::OutOfUnits => counter::FINAL_BATTLE_OUT_OF_UNITS,
            Cause::WarShort => counter::FINAL_BATTLE_WAR_SHORT,
            Cause::Scarsands => counter::FINAL_BATTLE_SCARSANDS,
        }
    }

    fn why(self) -> &'static str {
        match self {
            Cause::OutOfUnits => "a player cannot lay a full round",
            Cause::WarShort => "a war step cannot be laid",
            Cause::Scarsands => "it follows the Scarsands battle",
        }
    }
}

/// The battlefield of a round: `field[seat][position]`, position 0 left, 1 right. A column is
/// `field[0][c]` against `field[1][c]`; a diagonal joins different positions.
pub type Field = [[Unit; 2]; 2];

/// Which kind of war a region is; each region counts once, in the first kind that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarKind {
    /// Three (or more) matched cards: one side fights with two cards in contention.
    ThreeCard,
    /// The match is within one column; the other column is a plain battle.
    Column,
    /// A diagonal match: the region spans both columns.
    Diagonal,
}

/// A war region of the duel: the matched positions per seat (bit p = position p) and the columns
/// the region covers (bit c = column c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub kind: WarKind,
    pub matched: [u8; 2],
    pub columns: u8,
}

/// The classification of a round's battlefield; the first that applies wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    ScorchedEarth,
    Scarsands,
    ScourgeWar,
    War(Region),
    Plain,
}

/// Classifies a battlefield in the order `docs/rules/scourge.md` gives: Scorched Earth (one value, one colour),
/// the Scarsands (one suit or one value), Scourge War (the sides' values pair up), a war region
/// (opposing equal values), else two plain battles.
pub fn classify(d: &Decks, f: &Field) -> Class {
    let all = [f[0][0], f[0][1], f[1][0], f[1][1]];
    let one_value = all.iter().all(|&u| value(u) == value(all[0]));
    let one_colour = all.iter().all(|&u| d.colour(u) == d.colour(all[0]));
    if one_value && one_colour {
        return Class::ScorchedEarth;
    }
    if one_value || all.iter().all(|&u| suit(u) == suit(all[0])) {
        return Class::Scarsands;
    }
    let a = [value(f[0][0]), value(f[0][1])];
    let b = [value(f[1][0]), value(f[1][1])];
    if (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]) {
        return Class::ScourgeWar;
    }
    let mut matched = [0u8; 2];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            if x == y {
                matched[0] |= 1 << i;
                matched[1] |= 1 << j;
            }
        }
    }
    if matched == [0, 0] {
        return Class::Plain;
    }
    // Position p of either side stands in column p, so the region's columns are the union.
    let columns = matched[0] | matched[1];
    let kind = if matched[0].count_ones() + matched[1].count_ones() >= 3 {
        WarKind::ThreeCard
    } else if columns.count_ones() == 1 {
        WarKind::Column
    } else {
        WarKind::Diagonal
    };
    Class::War(Region { kind, matched, columns })
}

/// A two-player game in progress. Stacks and the Legends deck have their top at the end.
#[derive(Clone, Debug, Default)]
pub struct Duel {
    pub stacks: [Vec<Unit>; 2],
    pub legends: Vec<Legend>,
    /// Each player's face-down Legend, if they have one.
    pub held: [Option<Legend>; 2],
    /// Units and Legends on the battlefield, not yet captured or set aside.
    pub field_units: u32,
    pub field_legends: u32,
    /// Captured cards per seat (Units and Legends), and how many of them are Legends.
    pub captured: [u32; 2],
    pub captured_legends: [u32; 2],
    /// Cards set aside uncaptured by stand-offs.
    pub set_aside_units: u32,
    pub set_aside_legends: u32,
    /// Rounds laid so far (the game's length).
    pub rounds: u64,
}

impl Duel {
    /// An empty game with room for `units` Units and `legends` Legends.
    pub fn with_capacity(units: usize, legends: usize) -> Self {
        Duel {
            stacks: [Vec::with_capacity(units), Vec::with_capacity(units)],
            legends: Vec::with_capacity(legends),
            ..Duel::default()
        }
    }

    /// Forgets the previous game, keeping the buffers.
    pub fn clear(&mut self) {
        self.stacks.iter_mut().for_each(Vec::clear);
        self.legends.clear();
        self.held = [None; 2];
        self.field_units = 0;
        self.field_legends = 0;
        self.captured = [0; 2];
        self.captured_legends = [0; 2];
        self.set_aside_units = 0;
        self.set_aside_legends = 0;
        self.rounds = 0;
    }

    /// Who leads on captured cards right now.
    pub fn standing(&self) -> End {
        match self.captured[0].cmp(&self.captured[1]) {
            std::cmp::Ordering::Greater => End::Win(0),
            std::cmp::Ordering::Less => End::Win(1),
            std::cmp::Ordering::Equal => End::Draw,
        }
    }

    /// Plays one round: the Final Battle if a player cannot lay two Units, else lays the round and
    /// fights it. `Some` when the game is over. `round` and `fight` are always inlined into the
    /// game loop: with the census calling them too, the compiler would otherwise keep them
    /// separate functions, which costs the duel a few percent of its throughput.
    #[inline(always)]
    pub fn round<N: Narrator>(
        &mut self,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        if self.stacks.iter().any(|s| s.len() < 2) {
            return Some(self.final_battle(Cause::OutOfUnits, d, rec, narr));
        }
        let field = self.lay(rng);
        self.fight(field, d, rng, rec, narr)
    }

    /// Takes each player's top two Units and places them left/right at random: a choice made with
    /// no information, so it uses the game's generator (one draw for both players).
    pub fn lay(&mut self, rng: &mut GameRng) -> Field {
        let flip = below(rng, 4);
        let mut field = [[0; 2]; 2];
        for (s, side) in field.iter_mut().enumerate() {
            let first = self.stacks[s].pop().expect("two units checked");
            let second = self.stacks[s].pop().expect("two units checked");
            *side = if (flip >> s) & 1 == 1 { [second, first] } else { [first, second] };
        }
        field
    }

    /// Fights a laid round on `field` (whose four Units have left their stacks).
    #[inline(always)]
    pub fn fight<N: Narrator>(
        &mut self,
        field: Field,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        self.rounds += 1;
        self.field_units += 4;
        let class = classify(d, &field);
        if N::ON {
            self.tell_field(&field, class, d, narr);
        }
        let end = match class {
            Class::ScorchedEarth => self.scorched_earth(d, rng, rec, narr),
            Class::Scarsands => Some(self.scarsands(d, rec, narr)),
            Class::ScourgeWar => {
                self.scourge_war(d, rng, rec, narr);
                None
            }
            Class::War(region) => self.war_round(&field, region, d, rec, narr),
            Class::Plain => {
                for c in 0..2 {
                    self.plain_battle(&field, c, d, rec, narr);
                }
                None
            }
        };
        if N::ON && end.is_none() {
            self.tell_totals(narr);
        }
        end
    }

    /// A war region first, then the plain battles of the columns it does not cover.
    fn war_round<N: Narrator>(
        &mut self,
        field: &Field,
        region: Region,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        if !self.war_region(region, d, rec, narr) {
            return Some(self.final_battle(Cause::WarShort, d, rec, narr));
        }
        for c in 0..2 {
            if region.columns & (1 << c) == 0 {
                self.plain_battle(field, c, d, rec, narr);
            }
        }
        None
    }

    /// Column `c` as a plain battle: the higher card takes both.
    pub fn plain_battle<N: Narrator>(
        &mut self,
        field: &Field,
        c: usize,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        rec.count(counter::PLAIN_BATTLES, 1);
        let w = (value(field[1][c]) > value(field[0][c])) as usize;
        self.take_units(w, 2);
        if N::ON {
            narr.line(format_args!(
                "  {} column: P{w} takes it ({} v {})",
                side_name(c),
                d.unit_label(field[0][c]),
                d.unit_label(field[1][c])
            ));
        }
    }

    /// Fights a war region step by step. Each card in contention gets one face-down and one
    /// face-up Unit from its owner; the side with the best face-up card takes every card of the
    /// region's columns and every war card; on a tie only the cards whose face-up card equals the
    /// tied best stay in contention. Returns false (nothing laid for that step) when a player
    /// cannot lay a full step.
    pub fn war_region<N: Narrator>(
        &mut self,
        region: Region,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> bool {
        rec.count(
            match region.kind {
                WarKind::ThreeCard => counter::THREE_CARD_WARS,
                WarKind::Column => counter::COLUMN_WARS,
                WarKind::Diagonal => counter::DIAGONAL_WARS,
            },
            1,
        );
        let mut contention = region.matched;
        let mut war_cards = 0u32;
        let mut step = 0u32;
        loop {
            step += 1;
            if let Some(s) = (0..2).find(|&s| self.stacks[s].len() < 2 * contention[s].count_ones() as usize)
            {
                if N::ON {
                    narr.line(format_args!(
                        "  war step {step}: P{s} needs {} Units and has {}: the war cannot be fought",
                        2 * contention[s].count_ones(),
                        self.stacks[s].len()
                    ));
                }
                return false;
            }
            rec.count(counter::WAR_STEPS, 1);
            if N::ON {
                let n = contention[0].count_ones() + contention[1].count_ones();
                narr.line(format_args!("  war step {step}: {n} cards in contention"));
            }
            let mut best = [0u8; 2];
            let mut up = [[0u8; 2]; 2];
            for s in 0..2 {
                for p in (0..2).filter(|p| contention[s] & (1 << p) != 0) {
                    let down = self.stacks[s].pop().expect("step checked");
                    let face = self.stacks[s].pop().expect("step checked");
                    up[s][p] = face;
                    best[s] = best[s].max(value(face));
                    if N::ON {
                        narr.line(format_args!(
                            "    P{s} on the {} card lays {} face down, {} face up",
                            side_name(p),
                            d.unit_label(down),
                            d.unit_label(face)
                        ));
                    }
                }
                war_cards += 2 * contention[s].count_ones();
            }
            self.field_units += 2 * (contention[0].count_ones() + contention[1].count_ones());
            if best[0] != best[1] {
                let w = (best[1] > best[0]) as usize;
                let taken = 2 * region.columns.count_ones() + war_cards;
                self.take_units(w, taken);
                if N::ON {
                    narr.line(format_args!(
                        "  P{w} has the best face-up card and takes the region: {taken} cards"
                    ));
                }
                return true;
            }
            for s in 0..2 {
                contention[s] = (0..2)
                    .filter(|&p| contention[s] & (1 << p) != 0 && value(up[s][p]) == best[s])
                    .fold(0, |m, p| m | (1 << p));
            }
            if N::ON {
                narr.line(format_args!("  the best face-up cards tie: the tied cards fight on"));
            }
        }
    }

    /// Scourge War: a Legend contest for the battlefield, then every player without a Legend draws.
    pub fn scourge_war<N: Narrator>(
        &mut self,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        rec.count(counter::SCOURGE_WARS, 1);
        self.legend_contest(d, rec, narr);
        self.refill(d, rng, narr);
    }

    /// Battle of the Scarsands Canyon: face-down/face-up pairs until the face-up values differ;
    /// the higher takes the battlefield; then the Final Battle ends the game. A player who cannot
    /// lay a pair sends the whole battlefield to the Final Battle at once.
    pub fn scarsands<N: Narrator>(&mut self, d: &Decks, rec: &mut GameRecord, narr: &mut N) -> End {
        rec.count(counter::SCARSANDS, 1);
        loop {
            if let Some(s) = (0..2).find(|&s| self.stacks[s].len() < 2) {
                rec.count(counter::SCARSANDS_SHORT, 1);
                if N::ON {
                    narr.line(format_args!("  P{s} cannot lay a face-down/face-up pair"));
                }
                break;
            }
            let mut up = [0u8; 2];
            for (s, face) in up.iter_mut().enumerate() {
                let down = self.stacks[s].pop().expect("pair checked");
                *face = self.stacks[s].pop().expect("pair checked");
                if N::ON {
                    narr.line(format_args!(
                        "  P{s} lays {} face down, {} face up",
                        d.unit_label(down),
                        d.unit_label(*face)
                    ));
                }
            }
            self.field_units += 4;
            if value(up[0]) != value(up[1]) {
                let w = (value(up[1]) > value(up[0])) as usize;
                if N::ON {
                    narr.line(format_args!("  P{w} takes the battlefield: {} cards", self.field_units));
                }
                self.take_units(w, self.field_units);
                break;
            }
        }
        self.final_battle(Cause::Scarsands, d, rec, narr)
    }

    /// Scorched Earth: each player draws an extra Legend and both go face up. The Black Ancient
    /// among them scorches the game; otherwise the extras go back into the Legends deck, which is
    /// shuffled, and the original Legends fight for the battlefield.
    pub fn scorched_earth<N: Narrator>(
        &mut self,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        rec.count(counter::SCORCHED_EARTH, 1);
        let extra = self.draw_for([true, true], rng);
        self.field_legends += extra.iter().flatten().count() as u32;
        if N::ON {
            for (s, (held, extra)) in self.held.iter().zip(&extra).enumerate() {
                let shown: Vec<String> =
                    [held, extra].into_iter().flatten().map(|&l| d.legend_label(l)).collect();
                narr.line(format_args!("  P{s} turns up {}", or_nothing(&shown)));
            }
        }
        let wyrm = self.held.iter().chain(extra.iter()).any(|&l| l == Some(BLACK_ANCIENT));
        if wyrm {
            rec.count(counter::SCORCHED, 1);
            if N::ON {
                narr.line(format_args!("  the Wyrm of Chaos is up: the game is scorched, nobody wins"));
            }
            return Some(End::Scorched);
        }
        for l in extra.into_iter().flatten() {
            self.legends.push(l);
            self.field_legends -= 1;
        }
        shuffle(rng, &mut self.legends);
        if N::ON {
            narr.line(format_args!(
                "  spared: the extra Legends are shuffled back; the original Legends fight"
            ));
        }
        self.legend_contest(d, rec, narr);
        self.refill(d, rng, narr);
        None
    }

    /// The Final Battle: a Legend contest for whatever is on the battlefield; then the game ends and
    /// the captured counts decide it.
    pub fn final_battle<N: Narrator>(
        &mut self,
        cause: Cause,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> End {
        rec.count(cause.counter(), 1);
        if N::ON {
            narr.line(format_args!(
                "Final Battle ({}), for {} Units on the battlefield",
                cause.why(),
                self.field_units
            ));
        }
        let before = self.standing();
        self.legend_contest(d, rec, narr);
        let after = self.standing();
        if after != before {
            rec.count(counter::FINAL_BATTLE_DECISIVE, 1);
        }
        let unplayed = (self.stacks[0].len() + self.stacks[1].len()) as u64;
        rec.count(counter::UNITS_UNPLAYED, unplayed);
        if N::ON {
            narr.line(format_args!(
                "  {unplayed} Units stay unplayed; captured: P0 {}, P1 {}",
                self.captured[0], self.captured[1]
            ));
        }
        after
    }

    /// Both players turn their Legends up; the highest takes the whole battlefield, Legends
    /// included. Ties draw one new Legend each, and only the new ones are compared. A player with
    /// no Legend, or a tie with fewer than two Legends left, is a stand-off. Returns the winner.
    pub fn legend_contest<N: Narrator>(
        &mut self,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<usize> {
        let up = [self.held[0].take(), self.held[1].take()];
        self.field_legends += up.iter().flatten().count() as u32;
        let [Some(mut l0), Some(mut l1)] = up else {
            if N::ON {
                let who: Vec<String> = (0..2).filter(|&s| up[s].is_none()).map(|s| format!("P{s}")).collect();
                let verb = if who.len() == 1 { "has" } else { "have" };
                narr.line(format_args!("  Legend contest: {} {verb} no Legend", who.join(" and ")));
            }
            self.stand_off(rec, narr);
            return None;
        };
        loop {
            if N::ON {
                narr.line(format_args!(
                    "  Legend contest: P0 {} v P1 {}",
                    d.legend_label(l0),
                    d.legend_label(l1)
                ));
            }
            if strength(l0) != strength(l1) {
                let w = (strength(l1) > strength(l0)) as usize;
                if N::ON {
                    narr.line(format_args!(
                        "  P{w} takes the battlefield: {} Units and {} Legends",
                        self.field_units, self.field_legends
                    ));
                }
                self.take_all(w);
                return Some(w);
            }
            rec.count(counter::LEGEND_TIES, 1);
            if self.legends.len() < 2 {
                if N::ON {
                    narr.line(format_args!("  the Legends tie and {} left to draw", self.legends.len()));
                }
                self.stand_off(rec, narr);
                return None;
            }
            l0 = self.legends.pop().expect("two checked");
            l1 = self.legends.pop().expect("two checked");
            self.field_legends += 2;
            if N::ON {
                narr.line(format_args!("  the Legends tie: each player draws another"));
            }
        }
    }

    /// After a Scourge War or a spared Scorched Earth: every player without a Legend draws one.
    pub fn refill<N: Narrator>(&mut self, d: &Decks, rng: &mut GameRng, narr: &mut N) {
        let need = [self.held[0].is_none(), self.held[1].is_none()];
        let drawn = self.draw_for(need, rng);
        for (held, drawn) in self.held.iter_mut().zip(drawn) {
            if drawn.is_some() {
                *held = drawn;
            }
        }
        if N::ON && need.contains(&true) {
            let got: Vec<String> = (0..2)
                .filter(|&s| need[s])
                .map(|s| match drawn[s] {
                    Some(l) => format!("P{s} draws a Legend ({})", d.legend_label(l)),
                    None => format!("P{s} finds no Legend to draw"),
                })
                .collect();
            narr.line(format_args!("  {}", got.join("; ")));
        }
    }

    /// One Legend for each seat in `need`, from the top of the deck in seat order; when fewer are
    /// left than players who need one, they draw in random order (the game's generator).
    pub fn draw_for(&mut self, need: [bool; 2], rng: &mut GameRng) -> [Option<Legend>; 2] {
        let wanted = need.iter().filter(|&&n| n).count();
        let mut out = [None; 2];
        if self.legends.len() >= wanted {
            for s in (0..2).filter(|&s| need[s]) {
                out[s] = self.legends.pop();
            }
        } else if !self.legends.is_empty() {
            // Two players need one and a single Legend is left: a fair coin picks who draws first.
            let first = below(rng, 2) as usize;
            out[first] = self.legends.pop();
        }
        out
    }

    /// A stand-off: everything on the battlefield is set aside, captured by nobody.
    fn stand_off<N: Narrator>(&mut self, rec: &mut GameRecord, narr: &mut N) {
        rec.count(counter::LEGEND_SHORTAGE, 1);
        rec.count(counter::CARDS_SET_ASIDE, (self.field_units + self.field_legends) as u64);
        if N::ON {
            narr.line(format_args!(
                "  stand-off: {} Units and {} Legends are set aside uncaptured",
                self.field_units, self.field_legends
            ));
        }
        self.set_aside_units += self.field_units;
        self.set_aside_legends += self.field_legends;
        self.field_units = 0;
        self.field_legends = 0;
    }

    fn take_units(&mut self, w: usize, n: u32) {
        debug_assert!(n <= self.field_units);
        self.captured[w] += n;
        self.field_units -= n;
    }

    fn take_all(&mut self, w: usize) {
        self.captured[w] += self.field_units + self.field_legends;
        self.captured_legends[w] += self.field_legends;
        self.field_units = 0;
        self.field_legends = 0;
    }
}

pub(super) fn side_name(position: usize) -> &'static str {
    if position == 0 { "left" } else { "right" }
}

fn or_nothing(items: &[String]) -> String {
    if items.is_empty() { "no Legend".into() } else { items.join(" and ") }
}
