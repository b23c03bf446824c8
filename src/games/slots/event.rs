//! Card Wars as the rules text plays it: an event of `players` players, each designing a sheet
//! of cards, whose pools are dealt once (`deal`) and kept for every game; the round robin above
//! it is the generic one (`crate::tournament`). Player `i` is the set's `i`-th designer.
//!
//! Each game of the event is the single game (`engine`) on the two players' pools, the line-up's
//! one policy at both seats. What an event records of Card Wars itself: the game counters summed
//! over its games, the cards filled in (`vanilla_fill`) and each player's own cards
//! (`own_cards`, when the designers are known), and a pool's strength for the rank correlation
//! (the sum of its 21 strongest cards by the `strength` deck policy's estimate).

use super::card::{POOL, SEATS, SLOTS, TEXTLESS};
use super::deal::{Dealing, EventPools, NO_DESIGN, NO_DESIGNER, Printing};
use super::engine::{SlotsEngine, SlotsScratch, counter};
use super::rules::End;
use super::setup::Rules;
use crate::games::Engine;
use crate::games::census::Unwatched;
use crate::games::narrate::{Narrator, Silent};
use crate::record::{Counter, Dist, GameRecord, LayoutBuilder};
use crate::seed::GameSeed;
use crate::tournament::{Contest, GameResult};

/// A Card Wars event's players and their dealing.
pub struct SlotsEvent {
    engine: SlotsEngine,
    names: Vec<String>,
    printing: Printing,
    dealing: Dealing,
    /// Whether every card's designer is known (then `own_cards` is recorded).
    designers_known: bool,
    counters: Option<Counter>,
    own_cards: Option<Dist>,
}

/// One thread's event: the game and the event's pools.
pub struct EventScratch {
    game: SlotsScratch,
    pools: EventPools,
    strength: Vec<i64>,
    keys: Vec<i32>,
}

impl SlotsEvent {
    /// The event of `players` players dealt by `dealing`, its games played by `rules`.
    pub fn new(rules: Rules, players: usize, dealing: Dealing) -> Result<SlotsEvent, String> {
        let [a, b] = [rules.lineup.policies[0], rules.lineup.policies[1]];
        if a != b || rules.deck_policy[0] != rules.deck_policy[1] {
            return Err("event=tournament seats every player with the same policies: name one placement policy and one deck policy".into());
        }
        if rules.impact != super::impact::Impact::None {
            return Err("impact measures single games: leave impact=none with event=tournament".into());
        }
        let set = rules.cards.as_deref();
        if set.is_some_and(|s| s.fixed.iter().any(Option::is_some)) {
            return Err("the card set fixes a seat's pool, which only single games play: event=tournament deals every pool".into());
        }
        // Player i is the i-th designer the set names, in file order.
        let mut designers: Vec<&str> = Vec::new();
        let mut designer_of = Vec::new();
        for d in set.map_or(&[][..], |s| &s.designs[..]) {
            if d.designer.is_empty() {
                designer_of.push(NO_DESIGNER);
                continue;
            }
            let i = designers.iter().position(|&x| x == d.designer).unwrap_or_else(|| {
                designers.push(&d.designer);
                designers.len() - 1
            });
            designer_of.push(i as u16);
        }
        let designers_known = set.is_none() || designer_of.iter().all(|&d| d != NO_DESIGNER);
        let printing = Printing::new(set, &designer_of, players, dealing)?;
        let names = (1..=players).map(|i| format!("player {i}")).collect();
        let rules = Rules { rotate: false, ..rules };
        Ok(SlotsEvent {
            engine: SlotsEngine::new(rules),
            names,
            printing,
            dealing,
            designers_known,
            counters: None,
            own_cards: None,
        })
    }

    /// Puts the pools of `seats` into the game's two seats.
    fn seat_pools(&self, seats: [usize; 2], sc: &mut EventScratch) {
        let pools = &mut sc.game.game.st.pools;
        for (seat, &player) in seats.iter().enumerate() {
            for (k, c) in sc.pools.pool(player).iter().enumerate() {
                pools.printed[seat * POOL + k] = c.value;
                pools.design[seat * POOL + k] = if c.design == NO_DESIGN { TEXTLESS } else { c.design };
            }
            pools.size[seat] = POOL as u8;
        }
        pools.vanilla_fill = 0;
    }

    /// A pool's strength: its 21 strongest cards by printed value plus text worth, in tenths.
    fn pool_strength(&self, sc: &mut EventScratch, player: usize) -> i64 {
        let set = self.engine.rules.cards.as_deref();
        sc.keys.clear();
        for c in sc.pools.pool(player) {
            let worth = set.filter(|_| c.design != NO_DESIGN).map_or(0, |s| s.worth[c.design as usize]);
            sc.keys.push(c.value as i32 * super::strength::TENTHS + worth);
        }
        sc.keys.sort_unstable_by(|a, b| b.cmp(a));
        sc.keys.iter().take(super::card::DECK).map(|&k| k as i64).sum()
    }
}

impl Contest for SlotsEvent {
    type Scratch = EventScratch;

    fn entrants(&self) -> &[String] {
        &self.names
    }

    fn length_unit(&self) -> &str {
        "slots"
    }

    fn declare(&mut self, b: &mut LayoutBuilder) {
        let c = b.counters(counter::NAMES.iter().map(|n| n.to_string()));
        self.counters = Some(Counter(c.at(0).0));
        if self.designers_known {
            self.own_cards = Some(b.distribution("own_cards"));
        }
    }

    fn new_scratch(&self) -> EventScratch {
        EventScratch { game: self.engine.new_scratch(), pools: EventPools::default(), strength: Vec::new(), keys: Vec::new() }
    }

    fn deal<N: Narrator>(&self, seed: GameSeed, sc: &mut EventScratch, rec: &mut GameRecord, narr: &mut N) {
        sc.pools.deal(&self.printing, self.dealing, &mut seed.rng());
        if let Some(first) = self.counters {
            rec.count(Counter(first.0 + counter::VANILLA_FILL.0), sc.pools.vanilla_fill as u64);
        }
        sc.strength.clear();
        for p in 0..self.names.len() {
            let s = self.pool_strength(sc, p);
            sc.strength.push(s);
            if let Some(d) = self.own_cards {
                rec.observe(d, sc.pools.own(p) as i64);
            }
            if N::ON {
                let values: Vec<String> = sc.pools.pool(p).iter().map(|c| c.value.to_string()).collect();
                let own = if self.designers_known { format!(", {} of its own", sc.pools.own(p)) } else { String::new() };
                narr.line(format_args!(
                    "{} pool (deal={}, strength {}{own}): {}",
                    self.names[p],
                    self.dealing.name(),
                    s,
                    values.join(" ")
                ));
            }
        }
    }

    fn strength(&self, sc: &EventScratch, e: usize) -> Option<i64> {
        sc.strength.get(e).copied()
    }

    fn play<N: Narrator>(
        &self,
        seed: GameSeed,
        seats: [usize; 2],
        sc: &mut EventScratch,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> GameResult {
        self.seat_pools(seats, sc);
        let end = self.engine.run_dealt(seed, &mut sc.game, narr, &mut Unwatched);
        let game = &sc.game.game;
        if let Some(first) = self.counters {
            let t = &game.tally;
            let tally = [
                (counter::REPLAYED_ROUNDS, t.replayed_rounds),
                (counter::EMPTY_SLOTS, t.empty_slots),
                (counter::EMPTY_DRAWS, t.empty_draws),
                (counter::SIDEBOARD_SWAPS, t.sideboard_swaps),
                (counter::FIZZLES, t.fizzles),
                (counter::LOST_TRIGGERS, t.lost_triggers),
                (counter::CASCADE_CUT, t.cascade_cut),
                (counter::CONTROL_CHANGES, t.control_changes),
                (counter::RE_REVEALS, t.re_reveals),
                (counter::DECLINED, t.declined),
            ];
            for (c, v) in tally {
                rec.count(Counter(first.0 + c.0), v);
            }
        }
        let wins = game.st.wins;
        GameResult {
            winner: match end {
                End::Won(seat) => Some(seat),
                End::Drawn => None,
            },
            score: [wins[0] as u32, wins[1] as u32],
            length: game.st.rounds as u64 * SLOTS as u64,
        }
    }

    fn census(&self, seed: GameSeed, seats: [usize; 2], sc: &mut EventScratch) -> Result<u64, String> {
        self.seat_pools(seats, sc);
        let mut watch = super::census::AnswerCensus::new(self.engine.rules.max_replays);
        self.engine.run_dealt(seed, &mut sc.game, &mut Silent, &mut watch);
        watch.verdict()
    }
}

const _: () = assert!(SEATS == 2);
