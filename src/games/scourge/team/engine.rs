//! Scourge War's team engine (four and six players): deals game `seed`, plays it round by round to
//! its end and records it, with outcomes per side, each side's MVP and each seat's captured cards.
//!
//! One game loop (`run`) serves the runs, the narrative and the census, as in the duel's engine
//! (`engine.rs`), which stays apart so that the duel keeps its fast state.

use super::rules::{Legendless, Team, extra, team_counter};
use crate::cards::Pack;
use crate::games::Engine;
use crate::games::census::{Unwatched, Watch};
use crate::games::narrate::{Narrator, Silent};
use crate::games::scourge::cards::{Decks, Legend, Unit};
use crate::games::scourge::rules::{End, counter};
use crate::record::{Counters, Dists, Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed, shuffle};

crate::declare! {
    /// The team game's fixed distributions: the side margin (side a minus side b) and each side's
    /// captured cards at the end of every game, scorched games included. Per-seat captured cards
    /// follow as a family.
    pub mod team_dist: Dist {
        MARGIN = "margin",
        CAPTURED_A = "captured_a",
        CAPTURED_B = "captured_b",
    }
}

pub struct TeamEngine {
    pub decks: Decks,
    pub positions: usize,
    pub legendless: Legendless,
    pub(super) units: Vec<Unit>,
    pub(super) legends: Vec<Legend>,
    layout: Layout,
    outcomes: Outcomes,
    /// `mvp_p<seat>`: the seat was its side's MVP alone.
    mvp: Counters,
    /// `captured_p<seat>`.
    captured: Dists,
}

/// Per-thread buffers: the game in progress and the Units deck being shuffled.
pub struct TeamScratch {
    pub team: Team,
    pub(super) deck: Vec<Unit>,
}

impl TeamEngine {
    /// The engine of `2 * positions` players (positions = 2 or 3).
    pub fn new(pack: Pack, decks: usize, positions: usize, legendless: Legendless) -> Self {
        assert!((2..=3).contains(&positions), "two or three positions a side");
        let d = Decks::new(pack, decks);
        let players = 2 * positions;
        let mut b = LayoutBuilder::new("rounds");
        b.team_wins(&["a", "b"]).plain(&[OutcomeKind::Draw, OutcomeKind::Scorched]);
        b.declared_counters(counter::NAMES);
        let team = b.counters(team_counter::NAMES.iter().map(|n| n.to_string()));
        debug_assert_eq!(team.at(0), extra(team_counter::UNFOUGHT_CHALLENGED));
        let mvp = b.counters((0..players).map(|s| format!("mvp_p{s}")));
        b.declared_distributions(team_dist::NAMES);
        let captured = b.distributions((0..players).map(|s| format!("captured_p{s}")));
        let (layout, outcomes) = b.finish();
        TeamEngine {
            units: d.units(),
            legends: d.legends(),
            decks: d,
            positions,
            legendless,
            layout,
            outcomes,
            mvp,
            captured,
        }
    }

    pub fn players(&self) -> usize {
        2 * self.positions
    }

    /// Units each player is dealt (the remainder stays unused).
    pub fn share(&self) -> usize {
        self.units.len() / self.players()
    }

    /// Deals game `seed`: shuffles the Units and the Legends, gives each player one face-down
    /// Legend (seat 0 first), deals each player an equal block of the Units (the remainder stays
    /// unused); returns the generator positioned after the deal.
    pub fn deal(&self, seed: GameSeed, sc: &mut TeamScratch) -> GameRng {
        let mut rng = seed.rng();
        let team = &mut sc.team;
        team.clear();
        sc.deck.clear();
        sc.deck.extend_from_slice(&self.units);
        shuffle(&mut rng, &mut sc.deck);
        team.legends.extend_from_slice(&self.legends);
        shuffle(&mut rng, &mut team.legends);
        let n = self.players();
        for s in 0..n {
            team.held[s] = team.legends.pop();
        }
        // Each player's share is a block of the shuffled deck: the same distribution as dealing
        // one card at a time round the table, without a division per card.
        let share = self.share();
        for (s, block) in sc.deck[..share * n].chunks_exact(share).enumerate() {
            team.stacks[s].extend_from_slice(block);
        }
        rng
    }

    /// The Units the deal leaves out.
    pub(super) fn undealt<'a>(&self, sc: &'a TeamScratch) -> &'a [Unit] {
        &sc.deck[self.share() * self.players()..]
    }

    /// Deals and plays game `seed` to its end, telling it to `narr` and showing every round (the
    /// closing contest included) to `watch`. A watch that stops the game ends it as a draw.
    pub(super) fn run<N: Narrator, W: Watch<Team>>(
        &self,
        seed: GameSeed,
        sc: &mut TeamScratch,
        rec: &mut GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut rng = self.deal(seed, sc);
        if N::ON {
            self.tell_deal(&sc.team, narr);
        }
        loop {
            let end = sc.team.round(&self.decks, &mut rng, rec, narr);
            if W::ON && !watch.step(&sc.team, rec) {
                return End::Draw;
            }
            if let Some(end) = end {
                return end;
            }
        }
    }

    /// Records the end: the side outcome, each side's MVP (not in a scorched game), the margin and
    /// the captured cards.
    pub(super) fn finish(&self, end: End, team: &Team, rec: &mut GameRecord) {
        rec.length = team.rounds;
        rec.end(self.outcomes.row(match end {
            End::Win(side) => Ending::Team(side),
            End::Draw => Ending::Plain(OutcomeKind::Draw),
            End::Scorched => Ending::Plain(OutcomeKind::Scorched),
        }));
        if end != End::Scorched {
            for side in 0..2 {
                match mvp(team, side) {
                    Mvp::Alone(seat) => rec.count(self.mvp.at(seat), 1),
                    Mvp::Shared => {
                        rec.count(extra(team_counter::MVP_SHARED), 1);
                        let c = [team_counter::MVP_SHARED_A, team_counter::MVP_SHARED_B][side];
                        rec.count(extra(c), 1);
                    }
                }
            }
        }
        let [a, b] = team.scores();
        rec.observe(team_dist::MARGIN, a as i64 - b as i64);
        rec.observe(team_dist::CAPTURED_A, a as i64);
        rec.observe(team_dist::CAPTURED_B, b as i64);
        for s in 0..self.players() {
            rec.observe(self.captured.at(s), team.captured[s] as i64);
        }
    }
}

/// A side's most valuable player: the one with the most captured cards, or `Shared` on a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mvp {
    Alone(usize),
    Shared,
}

/// Side `side`'s MVP (T14).
pub fn mvp(team: &Team, side: usize) -> Mvp {
    let p = team.positions;
    let seats = side * p..(side + 1) * p;
    let top = team.captured[seats.clone()].iter().copied().max().expect("a side has players");
    let mut best = seats.filter(|&s| team.captured[s] == top);
    let first = best.next().expect("the top is someone's");
    if best.next().is_some() { Mvp::Shared } else { Mvp::Alone(first) }
}

impl Engine for TeamEngine {
    type Scratch = TeamScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> TeamScratch {
        TeamScratch {
            team: Team::with_capacity(self.positions, self.legendless, self.units.len(), self.legends.len()),
            deck: Vec::with_capacity(self.units.len()),
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut TeamScratch, rec: &mut GameRecord) {
        let end = self.run(seed, sc, rec, &mut Silent, &mut Unwatched);
        self.finish(end, &sc.team, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        self.tell(seed, out)
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        super::census::census(self, seed)
    }
}
