//! Scourge War's engine: deals game `seed`, plays it round by round to its end, and records it.
//!
//! One game loop (`run`) serves the runs, the narrative and the census: a run plugs in `Silent`
//! and `Unwatched`, the narrative a `Story`, the census (`census.rs`) a watch that checks every
//! round.

use super::cards::{Decks, Legend, Unit};
use super::rules::{Duel, End, counter};
use crate::cards::Pack;
use crate::games::Engine;
use crate::games::census::{Unwatched, Watch};
use crate::games::narrate::{Narrator, Silent};
use crate::record::{Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed, shuffle};

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
    pub(super) units: Vec<Unit>,
    pub(super) legends: Vec<Legend>,
    layout: Layout,
    outcomes: Outcomes,
}

/// Per-thread buffers: the game in progress and the Units deck being shuffled.
pub struct ScourgeScratch {
    pub duel: Duel,
    pub(super) deck: Vec<Unit>,
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
        // One card at a time, the first to the first player: the even places go to one stack, the
        // odd to the other.
        let even = sc.deck.len() - sc.deck.len() % 2;
        for (s, stack) in duel.stacks.iter_mut().enumerate() {
            stack.extend(sc.deck[s.min(even)..even].iter().step_by(2));
        }
        rng
    }

    /// Deals and plays game `seed` to its end, telling it to `narr` and showing every round (the
    /// closing Final Battle included) to `watch`. A watch that stops the game ends it as a draw.
    pub(super) fn run<N: Narrator, W: Watch<Duel>>(
        &self,
        seed: GameSeed,
        sc: &mut ScourgeScratch,
        rec: &mut GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut rng = self.deal(seed, sc);
        if N::ON {
            self.tell_deal(&sc.duel, narr);
        }
        loop {
            let end = sc.duel.round(&self.decks, &mut rng, rec, narr);
            if W::ON && !watch.step(&sc.duel, rec) {
                return End::Draw;
            }
            if let Some(end) = end {
                return end;
            }
        }
    }

    pub(super) fn finish(&self, end: End, duel: &Duel, rec: &mut GameRecord) {
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
        let end = self.run(seed, sc, rec, &mut Silent, &mut Unwatched);
        self.finish(end, &sc.duel, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        self.tell(seed, out)
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        super::census::census(self, seed)
    }
}
