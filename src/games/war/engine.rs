//! War's engine: deals game `seed`, plays its battles to the end or the cap, detects a cycle
//! exactly when the pickup order makes the game deterministic, and writes the record.
//!
//! One game loop (`run`) serves the runs, the narrative's cycle search and the census: a run
//! plugs in `Unwatched`, the census (`census.rs`) a watch that checks every battle.

use super::ring::Table;
use super::rules::{Board, End, counter};
use super::setup::{Pickup, WarRules};
use crate::games::Engine;
use crate::games::census::{Unwatched, Watch};
use crate::games::narrate::Silent;
use crate::record::{Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed};

crate::declare! {
    /// War's distributions, declared once.
    pub mod dist: Dist {
        MAX_WAR_DEPTH = "max_war_depth",
        CYCLE_PERIOD = "cycle_period",
    }
}

pub struct WarEngine {
    pub rules: WarRules,
    layout: Layout,
    outcomes: Outcomes,
}

/// Per-thread buffers: the running game, the start position and Brent's saved state for cycle
/// detection, a second board for replays, and the deal's buffers.
pub struct WarScratch {
    /// The running game.
    pub(super) board: Board,
    pub(super) start: Table,
    pub(super) saved: Table,
    tortoise: Board,
    spare: GameRecord,
    deck: Vec<u8>,
    hands: Vec<Vec<u8>>,
}

impl WarScratch {
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }
}

impl WarEngine {
    pub fn new(rules: WarRules) -> Self {
        let mut b = LayoutBuilder::new("battles");
        b.seat_wins(rules.players).plain(&[OutcomeKind::Draw, OutcomeKind::Cycle, OutcomeKind::Capped]);
        b.declared_counters(counter::NAMES);
        b.declared_distributions(dist::NAMES);
        let (layout, outcomes) = b.finish();
        WarEngine { rules, layout, outcomes }
    }

    fn ending(end: End) -> Ending {
        match end {
            End::Win(seat) => Ending::Seat { seat, entry: 0 },
            End::Draw => Ending::Plain(OutcomeKind::Draw),
            End::Cycle { .. } => Ending::Plain(OutcomeKind::Cycle),
            End::Capped => Ending::Plain(OutcomeKind::Capped),
        }
    }

    /// Deals game `seed` onto the scratch board; returns the generator positioned after the deal.
    pub(super) fn deal(&self, seed: GameSeed, sc: &mut WarScratch) -> GameRng {
        let mut rng = seed.rng();
        if let Some(dealt) = self.rules.round_robin() {
            // The common deal, straight onto the table: the same stacks as through the hands.
            self.rules.shuffled_deck(&mut rng, &mut sc.deck);
            sc.board.setup_round_robin(&sc.deck[..dealt]);
        } else {
            self.rules.deal(&mut rng, &mut sc.deck, &mut sc.hands);
            sc.board.setup(&sc.hands);
        }
        rng
    }

    /// Most battles one board plays in a game: the cap, or with deterministic pickup the battles
    /// Brent's detection may need to see a cycle whose transient and period fit in the cap.
    pub(super) fn battle_bound(&self) -> u64 {
        let max = self.rules.max_battles;
        if self.rules.pickup == Pickup::Shuffled { max } else { max.saturating_mul(3).saturating_add(3) }
    }

    /// Plays to the end or the cap, showing every battle to `watch`; with deterministic pickup,
    /// detects the first repeated state (Brent 1980, "An improved Monte Carlo factorization
    /// algorithm", BIT 20) and then finds where the cycle starts by a lock-step replay, so
    /// `length` = transient + one period exactly. A watch that stops the game ends it as capped.
    pub(super) fn run<W: Watch<Board>>(
        &self,
        rng: &mut GameRng,
        sc: &mut WarScratch,
        rec: &mut GameRecord,
        watch: &mut W,
    ) -> End {
        let r = &self.rules;
        let max = r.max_battles;
        if r.pickup == Pickup::Shuffled {
            let streaks = !r.instant && r.battles_to_win == 0;
            while sc.board.battles < max {
                if streaks && sc.board.alive().len() == 2 {
                    // A watched game plays its streaks one battle at a time, so the watch sees
                    // every battle, each played by the streak's own code.
                    let limit = if W::ON { sc.board.battles + 1 } else { max };
                    let before = sc.board.battles;
                    let end = sc.board.plain_streak(r, rng, rec, limit);
                    let played = sc.board.battles > before;
                    if W::ON && played && !watch.step(&sc.board, rec) {
                        return End::Capped;
                    }
                    if let Some(end) = end {
                        return end;
                    }
                    if W::ON && played {
                        continue;
                    }
                    if sc.board.battles >= max {
                        break;
                    }
                }
                let end = sc.board.battle(r, rng, rec, &mut Silent);
                if W::ON && !watch.step(&sc.board, rec) {
                    return End::Capped;
                }
                if let Some(end) = end {
                    return end;
                }
            }
            return End::Capped;
        }
        sc.start.copy_from(&sc.board.table);
        sc.saved.copy_from(&sc.board.table);
        let (mut power, mut lam) = (1u64, 0u64);
        // Brent detects a cycle with transient + period <= max within 3 * max battles.
        let hard_limit = self.battle_bound();
        let period = loop {
            if sc.board.battles >= hard_limit {
                break None;
            }
            let end = sc.board.battle(r, rng, rec, &mut Silent);
            if W::ON && !watch.step(&sc.board, rec) {
                return End::Capped;
            }
            if let Some(end) = end {
                if sc.board.battles <= max {
                    return end;
                }
                break None;
            }
            lam += 1;
            if sc.board.table.same_state(&sc.saved) {
                break Some(lam);
            }
            if lam == power {
                sc.saved.copy_from(&sc.board.table);
                power *= 2;
                lam = 0;
            }
        };
        let Some(period) = period else {
            self.replay(sc, rec, max, watch);
            return End::Capped;
        };
        // Hare starts `period` battles ahead, counting into a fresh record; tortoise from the start.
        rec.reset();
        sc.board.setup_from(&sc.start);
        sc.tortoise.setup_from(&sc.start);
        for _ in 0..period {
            sc.board.battle(r, rng, rec, &mut Silent);
            if W::ON && !watch.step(&sc.board, rec) {
                return End::Capped;
            }
        }
        while !sc.board.table.same_state(&sc.tortoise.table) {
            sc.board.battle(r, rng, rec, &mut Silent);
            if W::ON && !watch.step(&sc.board, rec) {
                return End::Capped;
            }
            sc.spare.reset();
            sc.tortoise.battle(r, rng, &mut sc.spare, &mut Silent);
        }
        if sc.board.battles > max {
            self.replay(sc, rec, max, watch);
            return End::Capped;
        }
        End::Cycle { period }
    }

    /// Plays on from whatever is on the scratch board (tests set up hand-written positions).
    #[cfg(test)]
    pub(crate) fn run_from_board(&self, sc: &mut WarScratch, rec: &mut GameRecord) -> End {
        let mut rng = GameRng::new(1);
        self.run(&mut rng, sc, rec, &mut Unwatched)
    }

    /// Deals game `seed` onto the scratch board for a test and returns its generator.
    #[cfg(test)]
    pub(crate) fn deal_for_test(&self, seed: GameSeed, sc: &mut WarScratch) -> GameRng {
        self.deal(seed, sc)
    }

    /// Replays a deterministic game from its start for exactly `battles` battles, counting afresh.
    fn replay<W: Watch<Board>>(
        &self,
        sc: &mut WarScratch,
        rec: &mut GameRecord,
        battles: u64,
        watch: &mut W,
    ) {
        rec.reset();
        sc.board.setup_from(&sc.start);
        let mut unused = GameRng::new(0);
        for _ in 0..battles {
            sc.board.battle(&self.rules, &mut unused, rec, &mut Silent);
            if W::ON && !watch.step(&sc.board, rec) {
                return;
            }
        }
    }

    /// The battle count a run ends at: the cap for a capped game, else the battles played.
    pub(super) fn length(&self, end: End, board: &Board) -> u64 {
        match end {
            End::Capped => self.rules.max_battles,
            _ => board.battles,
        }
    }

    pub(super) fn finish(&self, end: End, battles: u64, rec: &mut GameRecord) {
        rec.length = battles;
        rec.end(self.outcomes.row(Self::ending(end)));
        rec.observe(dist::MAX_WAR_DEPTH, rec.get(counter::MAX_WAR_DEPTH) as i64);
        if let End::Cycle { period } = end {
            rec.observe(dist::CYCLE_PERIOD, period as i64);
        }
    }
}

impl Engine for WarEngine {
    type Scratch = WarScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> WarScratch {
        let board = Board::new(&self.rules);
        WarScratch {
            start: board.table.clone(),
            saved: board.table.clone(),
            tortoise: board.clone(),
            board,
            spare: GameRecord::new(&self.layout),
            deck: Vec::with_capacity(self.rules.deck_size()),
            hands: vec![Vec::with_capacity(self.rules.deck_size() + 1); self.rules.players],
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut WarScratch, rec: &mut GameRecord) {
        let mut rng = self.deal(seed, sc);
        let end = self.run(&mut rng, sc, rec, &mut Unwatched);
        self.finish(end, self.length(end, &sc.board), rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        self.tell(seed, out)
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        super::census::census(self, seed)
    }
}
