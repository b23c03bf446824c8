//! War (`war`) and every variant of its rules text, as orthogonal settings and named presets
//! (RULINGS §1). `docs/rules/war.md` summarises the rules as warsim plays them.

pub mod engine;
pub mod rules;
#[cfg(test)]
mod tests;

use engine::{Board, End, Narrator, Silent, Story, Table, counter, dist};
use rules::{Pickup, WarRules};

use super::narrate::counters_line;
use super::{Engine, GameDef, Point};
use crate::record::{Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed};
use crate::settings::{Allowed, Preset, SettingSpec, Settings};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 10 },
        help: "players; cards that cannot be dealt evenly are removed",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "1",
        allowed: Allowed::Int { min: 1, max: 8 },
        help: "decks shuffled together",
        deal: true,
    },
    SettingSpec {
        key: "ranks",
        default: "13",
        allowed: Allowed::Int { min: 1, max: 30 },
        help: "ranks per suit; the top rank is the ace",
        deal: true,
    },
    SettingSpec {
        key: "suits",
        default: "4",
        allowed: Allowed::Int { min: 1, max: 8 },
        help: "suits per deck",
        deal: true,
    },
    SettingSpec {
        key: "jokers",
        default: "none",
        allowed: Allowed::Choice(&["none", "shared", "equal"]),
        help: "shared: 2 per deck mixed in; equal: one shuffled into each player's stack after the deal",
        deal: true,
    },
    SettingSpec {
        key: "aces",
        default: "high",
        allowed: Allowed::Choice(&["high", "low"]),
        help: "aces above kings or below twos (jokers stay on top)",
        deal: false,
    },
    SettingSpec {
        key: "winner",
        default: "high",
        allowed: Allowed::Choice(&["high", "low"]),
        help: "low: the lowest card wins (Peace)",
        deal: false,
    },
    SettingSpec {
        key: "war_down",
        default: "3",
        allowed: Allowed::IntOr { min: 0, max: 60, words: &["by-value"] },
        help: "face-down cards per war step (then one face up); by-value: the tied card's value",
        deal: false,
    },
    SettingSpec {
        key: "war_scope",
        default: "all",
        allowed: Allowed::Choice(&["all", "tied"]),
        help: "3+ players: everyone joins a war, or only the tied players (Limited Engagement)",
        deal: false,
    },
    SettingSpec {
        key: "short",
        default: "lose",
        allowed: Allowed::Choice(&["lose", "last-ditch"]),
        help: "a player who cannot lay a full war step is out, or lays what they have (Last Ditch Effort)",
        deal: false,
    },
    SettingSpec {
        key: "capture",
        default: "spoils",
        allowed: Allowed::Choice(&["spoils", "instant"]),
        help: "instant: the winner keeps its own cards and the losers' face-down cards, the rest is killed",
        deal: false,
    },
    SettingSpec {
        key: "pickup",
        default: "shuffled",
        allowed: Allowed::Choice(&["shuffled", "winner-first", "loser-first", "seat-order"]),
        help: "order of won cards under the winner's stack",
        deal: false,
    },
    SettingSpec {
        key: "battles_to_win",
        default: "0",
        allowed: Allowed::Int { min: 0, max: 1_000_000 },
        help: "Short War: the first to win this many battles wins (0 = off)",
        deal: false,
    },
    SettingSpec {
        key: "max_battles",
        default: "100000",
        allowed: Allowed::Int { min: 1, max: 100_000_000 },
        help: "a game still going after this many battles ends as capped",
        deal: false,
    },
    SettingSpec {
        key: "stack",
        default: "none",
        allowed: Allowed::Text("SEAT:CARD,CARD;SEAT:... e.g. 0:A,A,A,A (pinned, the rest dealt evenly)"),
        help: "pin cards to seats before the random deal; the rest is dealt evenly",
        deal: true,
    },
    SettingSpec {
        key: "stack_only",
        default: "none",
        allowed: Allowed::Text("SEAT:CARD,CARD;SEAT:... (the seat gets only these)"),
        help: "pin cards to seats, which get nothing else; the others share the rest",
        deal: true,
    },
];

pub const PRESETS: &[Preset] = &[
    Preset { name: "standard", about: "the rules as written", sets: &[] },
    Preset { name: "lesser-spoils", about: "one card face down per war step", sets: &[("war_down", "1")] },
    Preset {
        name: "greater-spoils",
        about: "as many face-down cards as the tied card's value",
        sets: &[("war_down", "by-value")],
    },
    Preset { name: "jokers", about: "two jokers per deck, above aces", sets: &[("jokers", "shared")] },
    Preset {
        name: "equal-jokers",
        about: "each player shuffles one joker into their stack",
        sets: &[("jokers", "equal")],
    },
    // RULINGS §1: players 3 or more, war_scope all. It sets 3 players (an explicit `players`
    // overrides a preset), so the preset alone is a multi-player game, not standard War.
    Preset {
        name: "multiple-players",
        about: "three players (more with players=N), everyone joins a war",
        sets: &[("players", "3"), ("war_scope", "all")],
    },
    Preset {
        name: "limited-engagement",
        about: "3+ players: only the tied players go to war",
        sets: &[("war_scope", "tied")],
    },
    Preset {
        name: "short-war",
        about: "the first to win three battles wins",
        sets: &[("battles_to_win", "3")],
    },
    Preset {
        name: "instant-war",
        about: "losing cards are killed; one card down per war step",
        sets: &[("capture", "instant"), ("war_down", "1")],
    },
    Preset {
        name: "last-ditch",
        about: "a short player lays what they have",
        sets: &[("short", "last-ditch")],
    },
    Preset { name: "aces-low", about: "aces below twos", sets: &[("aces", "low")] },
    Preset {
        name: "peace",
        about: "the lowest card wins; five cards down per war step",
        sets: &[("winner", "low"), ("war_down", "5")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "war",
    title: "War and its variants",
    about: "Each battle the players reveal their top cards; the highest takes them. Ties go to war.",
    settings: SETTINGS,
    presets: PRESETS,
    build,
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    Ok(Box::new(WarEngine::new(WarRules::from_settings(s)?)))
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
    board: Board,
    start: Table,
    saved: Table,
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
    fn deal(&self, seed: GameSeed, sc: &mut WarScratch) -> GameRng {
        let mut rng = seed.rng();
        self.rules.deal(&mut rng, &mut sc.deck, &mut sc.hands);
        sc.board.setup(&sc.hands);
        rng
    }

    /// Plays to the end or the cap; with deterministic pickup, detects the first repeated state
    /// (Brent 1980, "An improved Monte Carlo factorization algorithm", BIT 20) and then finds where
    /// the cycle starts by a lock-step replay, so `length` = transient + one period exactly.
    fn run(&self, rng: &mut GameRng, sc: &mut WarScratch, rec: &mut GameRecord) -> End {
        let r = &self.rules;
        let max = r.max_battles;
        if r.pickup == Pickup::Shuffled {
            let streaks = !r.instant && r.battles_to_win == 0;
            while sc.board.battles < max {
                if streaks && sc.board.alive().len() == 2 {
                    if let Some(end) = sc.board.plain_streak(r, rng, rec, max) {
                        return end;
                    }
                    if sc.board.battles >= max {
                        break;
                    }
                }
                if let Some(end) = sc.board.battle(r, rng, rec, &mut Silent) {
                    return end;
                }
            }
            return End::Capped;
        }
        sc.start.copy_from(&sc.board.table);
        sc.saved.copy_from(&sc.board.table);
        let (mut power, mut lam) = (1u64, 0u64);
        // Brent detects a cycle with transient + period <= max within 3 * max battles.
        let hard_limit = max.saturating_mul(3).saturating_add(3);
        let period = loop {
            if sc.board.battles >= hard_limit {
                break None;
            }
            if let Some(end) = sc.board.battle(r, rng, rec, &mut Silent) {
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
            self.replay(sc, rec, max);
            return End::Capped;
        };
        // Hare starts `period` battles ahead, counting into a fresh record; tortoise from the start.
        rec.reset();
        sc.board.setup_from(&sc.start);
        sc.tortoise.setup_from(&sc.start);
        for _ in 0..period {
            sc.board.battle(r, rng, rec, &mut Silent);
        }
        while !sc.board.table.same_state(&sc.tortoise.table) {
            sc.board.battle(r, rng, rec, &mut Silent);
            sc.spare.reset();
            sc.tortoise.battle(r, rng, &mut sc.spare, &mut Silent);
        }
        if sc.board.battles > max {
            self.replay(sc, rec, max);
            return End::Capped;
        }
        End::Cycle { period }
    }

    /// Plays on from whatever is on the scratch board (tests set up hand-written positions).
    #[cfg(test)]
    pub(crate) fn run_from_board(&self, sc: &mut WarScratch, rec: &mut GameRecord) -> End {
        let mut rng = GameRng::new(1);
        self.run(&mut rng, sc, rec)
    }

    /// Deals game `seed` onto the scratch board for a test and returns its generator.
    #[cfg(test)]
    pub(crate) fn deal_for_test(&self, seed: GameSeed, sc: &mut WarScratch) -> GameRng {
        self.deal(seed, sc)
    }

    /// Replays a deterministic game from its start for exactly `battles` battles, counting afresh.
    fn replay(&self, sc: &mut WarScratch, rec: &mut GameRecord, battles: u64) {
        rec.reset();
        sc.board.setup_from(&sc.start);
        let mut unused = GameRng::new(0);
        for _ in 0..battles {
            sc.board.battle(&self.rules, &mut unused, rec, &mut Silent);
        }
    }

    fn finish(&self, end: End, battles: u64, rec: &mut GameRecord) {
        rec.length = battles;
        rec.end(self.outcomes.row(Self::ending(end)));
        rec.observe(dist::MAX_WAR_DEPTH, rec.get(counter::MAX_WAR_DEPTH) as i64);
        if let End::Cycle { period } = end {
            rec.observe(dist::CYCLE_PERIOD, period as i64);
        }
    }

    fn describe_deal<N: Narrator>(&self, board: &Board, narr: &mut N) {
        let r = &self.rules;
        let removed = r.deck_size() + if r.jokers == rules::Jokers::Equal { r.players } else { 0 }
            - board.table.total();
        narr.line(format_args!(
            "Deal: {} players, {} cards in play{}",
            r.players,
            board.table.total(),
            if removed > 0 {
                format!(" ({removed} could not be dealt evenly and are removed)")
            } else {
                String::new()
            }
        ));
        for s in 0..r.players {
            let cards: Vec<&str> = board.table.stack(s).map(|c| r.labels[c as usize].as_str()).collect();
            narr.line(format_args!("  P{s} (top first): {}", cards.join(" ")));
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
        let end = self.run(&mut rng, sc, rec);
        let battles = match end {
            End::Capped => self.rules.max_battles,
            _ => sc.board.battles,
        };
        self.finish(end, battles, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) {
        let summary = Point::play_one(self, seed);
        let mut sc = self.new_scratch();
        let mut rng = self.deal(seed, &mut sc);
        let mut rec = GameRecord::new(&self.layout);
        let mut story = Story(out);
        self.describe_deal(&sc.board, &mut story);
        let mut end = None;
        while sc.board.battles < summary.length && end.is_none() {
            end = sc.board.battle(&self.rules, &mut rng, &mut rec, &mut story);
        }
        let n = self.rules.players as u16;
        let line = match summary.outcome {
            o if o < n => format!("P{o} wins after {} battles.", summary.length),
            o if o == n => format!("Draw after {} battles: nobody holds a card.", summary.length),
            o if o == n + 1 => {
                let period = summary.observed(dist::CYCLE_PERIOD).next().unwrap_or(0);
                format!(
                    "Cycle: the position after battle {} was already seen after battle {}; the game repeats every {period} battles and never ends.",
                    summary.length,
                    summary.length as i64 - period
                )
            }
            _ => format!("Capped: still going after {} battles.", summary.length),
        };
        story.line(format_args!("{line}"));
        story.line(format_args!("{}", counters_line(&self.layout.counters, &summary.counters)));
    }
}
