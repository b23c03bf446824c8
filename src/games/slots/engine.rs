//! Card Wars' engine: seats the line-up for game `i`, deals the pools, asks each placement of the
//! seat it falls to, and records the finished game (win rows per seat and policy, a draw row, the
//! event counters and the rounds played). With `impact`, it then replays the same deal without
//! designs' text (`impact`) on the same scratch.

use super::agents::{Agent, SeatChoices};
use super::card::{POOL, SEATS, SLOTS, TEXTLESS};
use super::census::AnswerCensus;
use super::impact::{self, IMPACT_COLUMNS, Impact, ImpactTable};
use super::narrate;
use super::rules::{End, Game, Next, Observation};
use super::setup::{POLICIES, Rules};
use super::sideboard::Sideboard;
use super::table::Tally;
use crate::decide::{Clock, Players, PolicyRows, Seating, Timings};
use crate::games::Engine;
use crate::games::census::{Unwatched, Watch};
use crate::games::narrate::{Narrator, Silent, Story};
use crate::record::{
    CardCounters, Counter, Counters, Dist, Ending, GameRecord, Layout, OutcomeKind, Outcomes,
};
use crate::seed::{GameRng, GameSeed};

crate::declare! {
    /// The game's own counters (`docs/rules/slots.md`), declared once; one `wins_<policy>`
    /// counter per distinct policy of the line-up follows them.
    pub mod counter: Counter {
        REPLAYED_ROUNDS = "replayed_rounds",
        EMPTY_SLOTS = "empty_slots",
        EMPTY_DRAWS = "empty_draws",
        SIDEBOARD_SWAPS = "sideboard_swaps",
        VANILLA_FILL = "vanilla_fill",
        FIZZLES = "fizzles",
        LOST_TRIGGERS = "lost_triggers",
        CASCADE_CUT = "cascade_cut",
        CONTROL_CHANGES = "control_changes",
        RE_REVEALS = "re_reveals",
        DECLINED = "declined",
        OPPOSED_COUNTERS = "opposed_counters",
        ALREADY_UP = "already_up",
        EFFECTS_ENDED = "effects_ended",
        WATCHERS_MOVED = "watchers_moved",
        THEN_STEPS = "then_steps",
        STACKED_CARDS = "stacked_cards",
        PLACE_REFUSED = "place_refused",
        UNCOVERED = "uncovered",
        STACK_SCORED = "stack_scored",
        STACK_SWAPS = "stack_swaps",
        BOTTOMED = "bottomed",
        ZONE_CONFLICTS = "zone_conflicts",
        COVERED_EVENTS = "covered_events",
    }
}

/// The stream of the deal's seed that card effects draw their chance from (far from the seats'
/// streams 1 and 2).
const CHANCE_STREAM: u64 = 0x5107;

/// The per-card columns (`cards.csv`, `docs/rules/slots.md`), in order.
pub const CARD_COLUMNS: &[&str] =
    &["in_deck", "played", "played_decisive", "played_won", "played_tied", "games_played", "games_won"];

/// The per-card rates: the decisive rounds a card was played in that its owner won, and the
/// games it was played in (any round) that its owner won.
const CARD_RATES: &[(&str, usize, usize)] = &[("round_win_rate", 3, 2), ("game_win_rate", 6, 5)];

/// The names of `counter`, in index order.
pub const COUNTERS: &[&str] = counter::NAMES;

pub struct SlotsEngine {
    pub rules: Rules,
    layout: Layout,
    outcomes: Outcomes,
    rows: PolicyRows,
    wins_by_policy: Counters,
    rounds: Dist,
    cards: CardCounters,
    /// The per-card row of a textless card of printed value v: `textless + v - 1` (the designs'
    /// rows come first, in the set's order).
    textless: usize,
    /// Where each card's impact goes, when the point measures it.
    impact: Option<ImpactTable>,
}

/// One thread's game, reused from game to game.
pub struct SlotsScratch {
    pub(super) game: Game,
    obs: Observation,
    pub(super) players: Players<Agent>,
    /// Whether any agent of the line-up reads its observation (else none is ever built).
    observing: bool,
    /// The `adapt` deck policy's memory, when a line-up entry adapts.
    sideboard: Option<Box<Sideboard>>,
}

impl SlotsEngine {
    pub fn new(rules: Rules) -> Self {
        let rows = policy_rows(&rules);
        let (mut b, _) = rows.open_layout("slots", &[OutcomeKind::Draw], counter::NAMES);
        let wins_by_policy = b.counters(rows.per_policy("wins_"));
        let rounds = b.distribution("rounds");
        let designs: Vec<String> =
            rules.cards.iter().flat_map(|set| set.designs.iter().map(|d| d.id.clone())).collect();
        let textless = designs.len();
        let keys = designs.into_iter().chain((1..=9).map(|v| format!("textless-{v}"))).collect();
        let mut columns = CARD_COLUMNS.to_vec();
        if rules.impact != Impact::None {
            columns.extend(IMPACT_COLUMNS);
        }
        let cards = b.cards(keys, &columns, CARD_RATES);
        let class = rules
            .cards
            .iter()
            .flat_map(|set| set.designs.iter().map(|d| (d.rarity.name().to_string(), d.value)));
        b.card_class(class.chain((1..=9).map(|v| ("textless".to_string(), v))).collect());
        let impact = (rules.impact != Impact::None)
            .then(|| ImpactTable::declare(&mut b, rules.impact, cards, CARD_COLUMNS.len(), textless));
        let (layout, outcomes) = b.finish();
        SlotsEngine { rules, layout, outcomes, rows, wins_by_policy, rounds, cards, textless, impact }
    }

    /// Sets up game `seed`: seating, each seat's stream, the pools. Returns the game's RNG, which
    /// then shuffles the decks of every round.
    fn start(&self, seed: GameSeed, sc: &mut SlotsScratch) -> GameRng {
        let seating = Seating::new(seed, SEATS, self.rules.rotate);
        let mut rng = seating.deal.rng();
        match &self.rules.cards {
            Some(set) => sc.game.st.pools.deal_from(set, &mut rng),
            None => sc.game.st.pools.deal_default(&mut rng),
        }
        self.sit(seating, sc);
        rng
    }

    /// Seats game `seating`: the seats' streams, deck policies and the chance stream.
    fn sit(&self, seating: Seating, sc: &mut SlotsScratch) {
        sc.players.sit(seating);
        for seat in 0..SEATS {
            sc.game.st.deck_policy[seat] = self.rules.deck_policy[seating.entry(seat)];
        }
        sc.game.chance = seating.deal.stream(CHANCE_STREAM);
    }

    /// Plays game `seed` of an event on the pools already in `sc` (an event deals them once for
    /// all its games): the line-up as given, no rotation, the shuffles and the
    /// chance from `seed`. Telling it to `narr` and showing it to `watch` as `run` does.
    pub(super) fn run_dealt<N: Narrator, W: Watch<Game>>(
        &self,
        seed: GameSeed,
        sc: &mut SlotsScratch,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let seating = Seating::new(seed, SEATS, false);
        let mut rng = seating.deal.rng();
        self.sit(seating, sc);
        if N::ON {
            let policy = |seat| POLICIES[self.rules.lineup.policies[seat]];
            narrate::pools(&sc.game.st, policy, narr);
        }
        self.play_out(&mut rng, sc, &GameRecord::EMPTY, narr, watch)
    }

    /// Plays game `seed` to its end, telling it to `narr` and showing the game to `watch` after
    /// the first deal and after every answer. A watch that stops the game ends it as drawn (the
    /// census keeps its own account of why).
    pub(super) fn run<N: Narrator, W: Watch<Game>>(
        &self,
        seed: GameSeed,
        sc: &mut SlotsScratch,
        rec: &GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut rng = self.start(seed, sc);
        if N::ON {
            let policy = |seat| POLICIES[self.rules.lineup.policies[sc.players.seating().entry(seat)]];
            narrate::pools(&sc.game.st, policy, narr);
        }
        self.play_out(&mut rng, sc, rec, narr, watch)
    }

    /// Plays the game `start` set up to its end.
    fn play_out<N: Narrator, W: Watch<Game>>(
        &self,
        rng: &mut GameRng,
        sc: &mut SlotsScratch,
        rec: &GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut ch = SeatChoices {
            players: &mut sc.players,
            obs: &mut sc.obs,
            sideboard: sc.sideboard.as_deref_mut(),
        };
        sc.game.begin(rng, narr, &mut ch);
        loop {
            if W::ON && !watch.step(&sc.game, rec) {
                return End::Drawn;
            }
            let seat = match sc.game.next() {
                Next::Over(end) => return end,
                Next::Place(seat) => seat,
            };
            if sc.observing && sc.players.agent(seat).observes() {
                sc.game.observe(seat, &mut sc.obs);
            }
            let legal = sc.game.place_legal(seat);
            let obs = &sc.obs;
            let index = sc.players.decide(seat, |agent, prng| agent.place(obs, &legal, prng));
            let mut ch = SeatChoices {
                players: &mut sc.players,
                obs: &mut sc.obs,
                sideboard: sc.sideboard.as_deref_mut(),
            };
            sc.game.answer(index, rng, narr, &mut ch);
        }
    }

    /// Plays game `seed` again on the same deal (pools, shuffles, seat and chance streams) with
    /// the text of `muted` designs removed from `seat`'s copies: same printed values, no
    /// abilities. Nothing is recorded; the scratch's game is this one afterwards.
    pub(super) fn replay(&self, seed: GameSeed, sc: &mut SlotsScratch, seat: usize, muted: &[u16]) -> End {
        let mut rng = self.deal_without(seed, sc, seat, muted);
        self.play_out(&mut rng, sc, &GameRecord::EMPTY, &mut Silent, &mut Unwatched)
    }

    /// Sets up game `seed` as `start` does, then removes the text of `muted` designs from
    /// `seat`'s copies. Returns the game's RNG.
    pub(super) fn deal_without(
        &self,
        seed: GameSeed,
        sc: &mut SlotsScratch,
        seat: usize,
        muted: &[u16],
    ) -> GameRng {
        let rng = self.start(seed, sc);
        let pools = &mut sc.game.st.pools;
        for id in pools.ids(seat) {
            if muted.contains(&pools.design[id as usize]) {
                pools.design[id as usize] = TEXTLESS;
            }
        }
        rng
    }

    /// After game `seed` was played and recorded as written (`end`), its counterfactuals, when
    /// the point measures impact.
    fn measure(&self, seed: GameSeed, end: End, sc: &mut SlotsScratch, rec: &mut GameRecord) {
        if let Some(t) = &self.impact {
            let mut of_seat = [[0u16; POOL]; SEATS];
            let (set, pools) = (self.rules.cards.as_deref(), &sc.game.st.pools);
            let of = &self.rules.impact_of;
            let counts = [0, 1].map(|seat| impact::designs_of(set, of, pools, seat, &mut of_seat[seat]));
            impact::measure(t, end, &of_seat, counts, |seat, muted| self.replay(seed, sc, seat, muted), rec);
        }
    }

    /// Records the finished `game`, seated as `seating` says, into `rec`.
    pub(super) fn finish(&self, end: End, game: &Game, seating: &Seating, rec: &mut GameRecord) {
        let st = &game.st;
        rec.length = st.rounds as u64 * SLOTS as u64;
        rec.end(self.outcomes.row(match end {
            End::Won(seat) => self.rows.win(seating, seat),
            End::Drawn => Ending::Plain(OutcomeKind::Draw),
        }));
        for (c, v) in counts(game) {
            rec.count(c, v);
        }
        if let End::Won(seat) = end {
            rec.count(self.wins_by_policy.at(self.rows.policy(seating, seat)), 1);
        }
        rec.observe(self.rounds, st.rounds as i64);
        self.record_cards(end, game, rec);
    }

    /// Adds each card's rounds and game to its design's row of the per-card table.
    fn record_cards(&self, end: End, game: &Game, rec: &mut GameRecord) {
        let (st, c) = (&game.st, &game.cards);
        for seat in 0..SEATS {
            // The pool's ids as a range the compiler sees below `CARDS` (a seat's pool holds at
            // most `POOL`), so the per-card arrays are read without a bounds check each.
            let first = seat * POOL;
            let won = u64::from(end == End::Won(seat));
            for i in first..first + (st.pools.size[seat] as usize).min(POOL) {
                let design = st.pools.design[i];
                let row = if design == TEXTLESS {
                    self.textless + st.pools.printed[i] as usize - 1
                } else {
                    design as usize
                };
                // Every column added, zeros too: a card never kept or never placed adds 0s, and
                // adding them costs less than guessing which cards were (these branches mispredict).
                let in_game = c.in_game >> i & 1;
                let values: [u64; CARD_COLUMNS.len()] = [
                    c.in_deck[i] as u64,
                    c.played[i] as u64,
                    c.decisive[i] as u64,
                    c.won[i] as u64,
                    c.tied[i] as u64,
                    in_game,
                    won & in_game,
                ];
                let first = self.cards.at(row, 0);
                for (slot, v) in rec.counters_from(first, CARD_COLUMNS.len()).iter_mut().zip(values) {
                    *slot += v;
                }
            }
        }
    }
}

/// The game's own counters of finished `game`, one entry per counter of `counter` (the array's
/// length holds them to it): each field of its tally, named whole so that a field added to the
/// tally cannot be left out of the single games' counters nor of an event's sums, and the
/// cards filled in.
pub(super) fn counts(game: &Game) -> [(Counter, u64); COUNTERS.len()] {
    let Tally {
        replayed_rounds,
        empty_slots,
        empty_draws,
        sideboard_swaps,
        fizzles,
        lost_triggers,
        cascade_cut,
        control_changes,
        re_reveals,
        declined,
        opposed_counters,
        already_up,
        effects_ended,
        watchers_moved,
        then_steps,
        stacked_cards,
        place_refused,
        uncovered,
        stack_scored,
        stack_swaps,
        bottomed,
        zone_conflicts,
        covered_events,
    } = game.tally;
    use counter::*;
    [
        (REPLAYED_ROUNDS, replayed_rounds),
        (EMPTY_SLOTS, empty_slots),
        (EMPTY_DRAWS, empty_draws),
        (SIDEBOARD_SWAPS, sideboard_swaps),
        (VANILLA_FILL, game.st.pools.vanilla_fill as u64),
        (FIZZLES, fizzles),
        (LOST_TRIGGERS, lost_triggers),
        (CASCADE_CUT, cascade_cut),
        (CONTROL_CHANGES, control_changes),
        (RE_REVEALS, re_reveals),
        (DECLINED, declined),
        (OPPOSED_COUNTERS, opposed_counters),
        (ALREADY_UP, already_up),
        (EFFECTS_ENDED, effects_ended),
        (WATCHERS_MOVED, watchers_moved),
        (THEN_STEPS, then_steps),
        (STACKED_CARDS, stacked_cards),
        (PLACE_REFUSED, place_refused),
        (UNCOVERED, uncovered),
        (STACK_SCORED, stack_scored),
        (STACK_SWAPS, stack_swaps),
        (BOTTOMED, bottomed),
        (ZONE_CONFLICTS, zone_conflicts),
        (COVERED_EVENTS, covered_events),
    ]
}

/// The per-seat and per-policy rows. When the line-up's entries keep their decks by different
/// policies, a player is its placement and its deck policy together (`highest+strength`), so that
/// the rows, `wins_<policy>` and `agents.csv` tell the two decks apart even in a placement mirror.
fn policy_rows(rules: &Rules) -> PolicyRows {
    let [a, b] = rules.deck_policy;
    if a == b {
        return PolicyRows::new(&rules.lineup, rules.rotate, &POLICIES);
    }
    let names: Vec<String> = (0..SEATS)
        .map(|e| format!("{}+{}", POLICIES[rules.lineup.policies[e]], rules.deck_policy[e].name()))
        .collect();
    PolicyRows::named(&names, rules.rotate)
}

impl Engine for SlotsEngine {
    type Scratch = SlotsScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> SlotsScratch {
        let r = &self.rules;
        let agents: Vec<Agent> = r.lineup.policies.iter().map(|&p| Agent::new(p, r)).collect();
        let observing = agents.iter().any(Agent::observes);
        let every = |a: &Agent| if a.costly() { Clock::COSTLY } else { Clock::CHEAP };
        let mut game = Game::new(r.deck_policy[0], r.max_replays);
        game.st.set = r.cards.clone();
        game.st.text = r.cards.as_ref().is_some_and(|set| set.has_text());
        game.st.opening_hand = r.opening_hand;
        game.st.draw_first = r.draw_first;
        SlotsScratch {
            game,
            obs: Observation::default(),
            players: Players::new(agents, &self.rows, every),
            observing,
            sideboard: r.deck_policy.iter().any(|d| d.adapts()).then(Box::default),
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut SlotsScratch, rec: &mut GameRecord) {
        let end = self.run(seed, sc, rec, &mut Silent, &mut Unwatched);
        self.finish(end, &sc.game, sc.players.seating(), rec);
        self.measure(seed, end, sc, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let mut sc = self.new_scratch();
        let mut story = Story(out);
        let mut rec = GameRecord::new(&self.layout);
        let end = self.run(seed, &mut sc, &rec, &mut story, &mut Unwatched);
        narrate::ending(&sc.game.st, end, &mut story);
        self.finish(end, &sc.game, sc.players.seating(), &mut rec);
        self.measure(seed, end, &mut sc, &mut rec);
        story.line(format_args!(
            "{}",
            crate::games::narrate::counters_line(self.layout.events(), &rec.counters)
        ));
        rec
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        // Played through the engine's own loop with a census after every answer.
        let mut sc = self.new_scratch();
        let rec = GameRecord::new(self.layout());
        let mut watch = AnswerCensus::new(self.rules.max_replays);
        self.run(seed, &mut sc, &rec, &mut Silent, &mut watch);
        watch.verdict()
    }

    fn take_timings(&self, sc: &mut SlotsScratch, out: &mut Timings) {
        sc.players.take_timings(out);
    }
}
