//! Card Wars as the rules text plays it: an event of `players` players, each designing a sheet
//! of cards, whose pools are dealt once (`deal`) and kept for every game; the round robin above
//! it is the generic one (`crate::games::contest`). Player `i` is the set's `i`-th designer.
//!
//! Each game of the event is the single game (`engine`) on the two players' pools, the line-up's
//! one policy at both seats. What an event records of Card Wars itself: the game counters summed
//! over its games, the cards filled in (`vanilla_fill`) and each player's own cards
//! (`own_cards`, when the designers are known), and a pool's strength for the rank correlation
//! (the sum of its 21 strongest cards by the `strength` deck policy's estimate).
//!
//! With `impact=cards`, each design's causal impact on its holders' event (`docs/tournament.md`):
//! for each player and each design with text in its pool, the player's games of the event are
//! played again with that design's text removed from the player's copies (same printed values, no
//! abilities), each on its own seed (common random numbers, as `impact` does for single games),
//! and the table is ranked again with those games in place of the played ones. The pool, not the
//! deck, is what a player holds for the event: a text can change which cards a deck policy keeps,
//! so a design left out of every deck may still have an effect.

use super::card::{POOL, SEATS, SLOTS, TEXTLESS};
use super::deal::{Dealing, EventPools, NO_DESIGN, NO_DESIGNER, Printing};
use super::engine::{SlotsEngine, SlotsScratch, counter};
use super::rules::End;
use super::setup::Rules;
use crate::games::Engine;
use crate::games::census::Unwatched;
use crate::games::contest::standings::Table;
use crate::games::contest::{Contest, Effect, GameResult};
use crate::games::narrate::{Narrator, Silent};
use crate::record::{CardCounters, Counter, Dist, GameRecord, LayoutBuilder, Makers, PairedMean};
use crate::seed::GameSeed;

/// The per-design columns of an event (`cards.csv`, `designers.csv`): the players who held the
/// design (one per player and event, copies counted once), the games those players played, the
/// games the design was in their deck, played in, and played in and won, their games won, and how
/// many of them finished first (alone or shared). Observational: a holder's results come from its
/// whole pool, not from the design alone.
const DESIGN_COLUMNS: &[&str] = &[
    "holders",
    "holder_games",
    "games_in_deck",
    "games_played",
    "games_played_won",
    "holder_wins",
    "holder_first",
];
/// The per-design columns `impact=cards` adds: events in which the design was measured, and for
/// each of its two measures (the holders' points, a win 2 and a draw 1 summed over their games;
/// their shares of first place, in 1/`share_unit` of a first place) the sum of the positive
/// differences (as played minus without the text), of the negative ones' sizes and of the squares.
/// A difference is the sum over the design's holders in one event: the unit of observation is the
/// event (the games of a pool, and the holders of one event, share its deal), so the intervals are
/// clustered by event (the ratio estimator over events, `report::paired_means`).
const IMPACT_COLUMNS: &[&str] = &[
    "impact_events",
    "game_impact_up",
    "game_impact_down",
    "game_impact_sq",
    "first_impact_up",
    "first_impact_down",
    "first_impact_sq",
];

/// The holders' share of games won and share of first places; the verdicts read the first.
const DESIGN_RATES: &[(&str, usize, usize)] = &[("holder_win_share", 5, 1), ("holder_first_share", 6, 0)];

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
    /// Each design's row of the per-design table (with a card set whose designers are known).
    designs: Option<CardCounters>,
    designer_names: Vec<String>,
    designer_of: Vec<u16>,
    /// Whether each design's impact on its holders' event is measured (`impact=cards`).
    impact: bool,
}

/// One thread's event: the game and the event's pools.
pub struct EventScratch {
    game: SlotsScratch,
    pools: EventPools,
    strength: Vec<i64>,
    keys: Vec<i32>,
    /// Per design: bits of what one pool's copies did (held, kept, played), cleared after use.
    marks: Vec<u8>,
    /// The designs with text of the player whose variants are measured now (`Contest::variants`).
    variants: Vec<u16>,
    /// Per design: its effects this event (points, first share), summed over its holders.
    effects: Vec<[i64; 2]>,
    /// The designs measured this event, in the order first measured; `effects` is non-zero only
    /// for them.
    measured: Vec<u16>,
    is_measured: Vec<bool>,
}

/// `EventScratch::marks` bits.
const HELD: u8 = 1;
const KEPT: u8 = 2;
const PLAYED: u8 = 4;

impl SlotsEvent {
    /// The event of `players` players dealt by `dealing`, its games played by `rules`.
    pub fn new(rules: Rules, players: usize, dealing: Dealing) -> Result<SlotsEvent, String> {
        let [a, b] = [rules.lineup.policies[0], rules.lineup.policies[1]];
        if a != b || rules.deck_policy[0] != rules.deck_policy[1] {
            return Err("event=tournament seats every player with the same policies: name one placement policy and one deck policy".into());
        }
        if rules.impact == super::impact::Impact::Pairs {
            return Err(
                "impact=pairs measures single games: with event=tournament use impact=cards (or none)".into(),
            );
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
        // Entrants count from 0, as seats, points and game indices do.
        let names = (0..players).map(|i| format!("player {i}")).collect();
        let designer_names = designers.iter().map(|d| d.to_string()).collect();
        // The event measures impact itself: its games are played as written.
        let impact = rules.impact == super::impact::Impact::Cards;
        let rules = Rules { rotate: false, impact: super::impact::Impact::None, ..rules };
        Ok(SlotsEvent {
            engine: SlotsEngine::new(rules),
            names,
            printing,
            dealing,
            designers_known,
            counters: None,
            own_cards: None,
            designs: None,
            designer_names,
            designer_of,
            impact,
        })
    }

    /// The result of the game just played on `game`, ending `end`.
    fn result(end: End, game: &super::rules::Game) -> GameResult {
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

    /// Records each measured design's effects of the event into its impact columns (one
    /// observation per design and event, its holders' differences summed) and clears them.
    fn record_impact(&self, t: CardCounters, sc: &mut EventScratch, rec: &mut GameRecord) {
        let at = DESIGN_COLUMNS.len();
        for d in sc.measured.drain(..) {
            let d = d as usize;
            let [points, first] = std::mem::take(&mut sc.effects[d]);
            sc.is_measured[d] = false;
            rec.count(t.at(d, at), 1);
            for (k, v) in [points, first].into_iter().enumerate() {
                let col = at + 1 + 3 * k;
                rec.count(t.at(d, col), v.max(0) as u64);
                rec.count(t.at(d, col + 1), (-v).max(0) as u64);
                rec.count(t.at(d, col + 2), (v * v) as u64);
            }
        }
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
        let Some(set) = self.engine.rules.cards.as_deref() else { return };
        if !self.designers_known && !self.impact {
            return;
        }
        let keys = set.designs.iter().map(|d| d.id.clone()).collect();
        let mut columns = DESIGN_COLUMNS.to_vec();
        if self.impact {
            columns.extend(IMPACT_COLUMNS);
        }
        self.designs = Some(b.cards(keys, &columns, DESIGN_RATES));
        if self.impact {
            let mean = |name: &str, at: usize, per_unit: u64| PairedMean {
                name: name.into(),
                n: DESIGN_COLUMNS.len(),
                up: at,
                down: at + 1,
                sq: at + 2,
                per_unit: per_unit as u32,
            };
            let at = DESIGN_COLUMNS.len() + 1;
            let unit = crate::games::contest::share_unit(self.names.len());
            // The first is the game impact: the verdicts read it (`report::makers`). Playing only
            // the holders' games (`impact_games=holders`) measures no first place.
            let mut means = vec![mean("game_impact", at, 2)];
            if !self.engine.rules.impact_holders {
                means.push(mean("first_impact", at + 3, unit));
            }
            b.card_paired(means);
        }
        if !self.designers_known {
            return;
        }
        let players = self.names.len();
        let expected =
            (0..players).map(|p| self.printing.expected_own(p, self.dealing)).sum::<f64>() / players as f64;
        b.card_makers(Makers {
            names: self.designer_names.clone(),
            maker: self.designer_of.clone(),
            verdict_rate: 0,
            // A design is judged against the designs of its rarity and printed value.
            stratum: set.designs.iter().map(|d| d.rarity as u16 * 16 + d.value as u16).collect(),
            own_expected_millionths: (expected * 1e6).round() as u64,
            own_observed: "own_cards".into(),
            class: set.designs.iter().map(|d| (d.rarity.name().to_string(), d.value)).collect(),
        });
    }

    fn new_scratch(&self) -> EventScratch {
        EventScratch {
            game: self.engine.new_scratch(),
            pools: EventPools::default(),
            strength: Vec::new(),
            keys: Vec::new(),
            marks: vec![0; self.designer_of.len()],
            variants: Vec::with_capacity(POOL),
            effects: vec![[0; 2]; self.designer_of.len()],
            measured: Vec::with_capacity(self.designer_of.len()),
            is_measured: vec![false; self.designer_of.len()],
        }
    }

    fn deal<N: Narrator>(&self, seed: GameSeed, sc: &mut EventScratch, rec: &mut GameRecord, narr: &mut N) {
        sc.pools.deal(&self.printing, self.dealing, &mut seed.rng());
        if let Some(first) = self.counters {
            rec.count(Counter(first.0 + counter::VANILLA_FILL.0), sc.pools.vanilla_fill as u64);
        }
        sc.strength.clear();
        if N::ON {
            let own = if self.designers_known { "; 'of its own': the cards its player designed" } else { "" };
            narr.line(format_args!(
                "Each pool lists its cards' printed values; strength: the sum over its 21 strongest \
                 cards of the printed value plus the text's estimated worth, in tenths of a point{own}"
            ));
        }
        for p in 0..self.names.len() {
            let s = self.pool_strength(sc, p);
            sc.strength.push(s);
            if let Some(d) = self.own_cards {
                rec.observe(d, sc.pools.own(p) as i64);
            }
            if N::ON {
                let values: Vec<String> = sc.pools.pool(p).iter().map(|c| c.value.to_string()).collect();
                let own = if self.designers_known {
                    format!(", {} of its own", sc.pools.own(p))
                } else {
                    String::new()
                };
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
        // Every counter of a single game, summed over the event's games (`engine::counts`).
        if let Some(first) = self.counters {
            for (c, v) in super::engine::counts(game) {
                rec.count(Counter(first.0 + c.0), v);
            }
        }
        if let Some(t) = self.designs {
            for seat in 0..SEATS {
                let won = end == End::Won(seat);
                record_game_designs(t, game, seat, won, &mut sc.marks, rec);
            }
        }
        Self::result(end, game)
    }

    /// The designs with text in player `e`'s pool, each once, in pool order.
    fn variants(&self, sc: &mut EventScratch, e: usize) -> usize {
        sc.variants.clear();
        let Some(set) = self.engine.rules.cards.as_deref().filter(|_| self.impact) else { return 0 };
        for c in sc.pools.pool(e) {
            let d = c.design;
            let measured = d != NO_DESIGN && self.engine.rules.measures(d);
            if measured && !set.abilities_of(d).is_empty() && !sc.variants.contains(&d) {
                sc.variants.push(d);
            }
        }
        sc.variants.len()
    }

    /// Game `seed` as `play` plays it, with variant `v`'s design's text removed from player `e`'s
    /// copies.
    fn play_variant(
        &self,
        seed: GameSeed,
        seats: [usize; 2],
        e: usize,
        v: usize,
        sc: &mut EventScratch,
    ) -> GameResult {
        self.seat_pools(seats, sc);
        let (seat, muted) = (usize::from(seats[1] == e), sc.variants[v]);
        let pools = &mut sc.game.game.st.pools;
        for id in pools.ids(seat) {
            if pools.design[id as usize] == muted {
                pools.design[id as usize] = TEXTLESS;
            }
        }
        let end = self.engine.run_dealt(seed, &mut sc.game, &mut Silent, &mut Unwatched);
        Self::result(end, &sc.game.game)
    }

    fn variants_only(&self) -> bool {
        self.impact && self.engine.rules.impact_holders
    }

    /// Adds the effect to its design's sums of the event (over every holder).
    fn variant_effect(&self, sc: &mut EventScratch, _e: usize, v: usize, effect: Effect) {
        let d = sc.variants[v];
        if !std::mem::replace(&mut sc.is_measured[d as usize], true) {
            sc.measured.push(d);
        }
        let sums = &mut sc.effects[d as usize];
        sums[0] += effect.points;
        sums[1] += effect.first;
    }

    /// Adds each held design's holders, their games, wins and first places (one event: one
    /// observation of every column, so intervals count events, not games).
    fn finished(&self, sc: &mut EventScratch, table: &Table, rec: &mut GameRecord) {
        let Some(t) = self.designs else { return };
        self.record_impact(t, sc, rec);
        for p in 0..self.names.len() {
            for c in sc.pools.pool(p) {
                if c.design != NO_DESIGN {
                    sc.marks[c.design as usize] = HELD;
                }
            }
            for c in sc.pools.pool(p) {
                let d = c.design as usize;
                if c.design == NO_DESIGN || sc.marks[d] == 0 {
                    continue;
                }
                sc.marks[d] = 0;
                rec.count(t.at(d, 0), 1);
                rec.count(t.at(d, 1), self.names.len() as u64 - 1);
                rec.count(t.at(d, 5), table.won[p] as u64);
                rec.count(t.at(d, 6), u64::from(table.place[p] == 1));
            }
        }
    }

    fn census(&self, seed: GameSeed, seats: [usize; 2], sc: &mut EventScratch) -> Result<u64, String> {
        self.seat_pools(seats, sc);
        let mut watch = super::census::AnswerCensus::new(self.engine.rules.max_replays);
        self.engine.run_dealt(seed, &mut sc.game, &mut Silent, &mut watch);
        watch.verdict()
    }
}

/// Adds one game of `seat`'s pool to its designs' `games_in_deck` and `games_played` (copies of a
/// design counted once).
fn record_game_designs(
    t: CardCounters,
    game: &super::rules::Game,
    seat: usize,
    won: bool,
    marks: &mut [u8],
    rec: &mut GameRecord,
) {
    let (st, c) = (&game.st, &game.cards);
    for id in st.pools.ids(seat) {
        let (i, d) = (id as usize, st.pools.design[id as usize]);
        if d != TEXTLESS {
            let kept = if c.in_deck[i] > 0 { KEPT } else { 0 };
            let played = if c.in_game >> i & 1 == 1 { PLAYED } else { 0 };
            marks[d as usize] |= HELD | kept | played;
        }
    }
    for id in st.pools.ids(seat) {
        let d = st.pools.design[id as usize];
        if d == TEXTLESS || marks[d as usize] == 0 {
            continue;
        }
        let m = std::mem::take(&mut marks[d as usize]);
        rec.count(t.at(d as usize, 2), u64::from(m & KEPT != 0));
        rec.count(t.at(d as usize, 3), u64::from(m & PLAYED != 0));
        rec.count(t.at(d as usize, 4), u64::from(m & PLAYED != 0 && won));
    }
}

const _: () = assert!(SEATS == 2);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Point;
    use crate::games::contest::IntoEvent;
    use crate::games::contest::schedule::{game_seed, round_robin};
    use crate::games::contest::standings::{Table, table_text};
    use crate::record::Layout;

    fn event(players: usize, dealing: Dealing, policy: &str) -> Box<dyn Point> {
        SlotsEvent::new(Rules::with(policy), players, dealing).expect("textless events deal").into_event()
    }

    /// `ev` declared on a layout of its own, and that layout: an event declares its contest on its
    /// own layout, which a test that plays the contest's games one by one does not need.
    fn declared(mut ev: SlotsEvent) -> (SlotsEvent, Layout) {
        let mut b = LayoutBuilder::new("slots");
        ev.declare(&mut b);
        (ev, b.finish().0)
    }

    #[test]
    fn textless_players_have_equal_chances_to_finish_first() {
        // By symmetry (textless sheets, one policy), every player is equally likely to finish first
        // alone, under every dealing: each count within 5 standard errors of the mean count.
        let events = 3_000;
        for dealing in [Dealing::Piles, Dealing::Designer, Dealing::Independent] {
            let t = event(9, dealing, "highest");
            let acc = Point::play_range(&*t, 11, 0, events, &|_| {});
            let layout = Point::layout(&*t);
            let alone: Vec<f64> = (0..9)
                .map(|p| {
                    let c = layout.counter(&format!("player {p} first alone")).unwrap();
                    acc.counters[c.0 as usize].total as f64
                })
                .collect();
            let mean = alone.iter().sum::<f64>() / 9.0;
            let p = mean / events as f64;
            let se = (events as f64 * p * (1.0 - p)).sqrt();
            for (i, a) in alone.iter().enumerate() {
                assert!(
                    (a - mean).abs() < 5.0 * se,
                    "{}: player {i}: {a} first places, mean {mean}",
                    dealing.name()
                );
            }
            assert!(mean > 0.075 * events as f64, "{}: someone wins most events alone", dealing.name());
        }
    }

    #[test]
    fn the_narrative_tells_the_standings_and_the_record_of_play() {
        let t = event(5, Dealing::Designer, "random");
        for index in 0..4 {
            let seed = GameSeed::new(3, index);
            let (story, rec) = Point::story(&*t, seed);
            assert_eq!(
                rec,
                Point::play_one(&*t, seed),
                "event {index}: the narrated event is the played one"
            );
            // Rebuild the table from the game lines and compare it with the standings told.
            let mut table = Table::default();
            table.reset(5);
            let player = |w: &str| w.parse::<usize>().unwrap();
            for line in story.lines().filter(|l| l.starts_with("game ")) {
                let w: Vec<&str> = line.split_whitespace().collect();
                // game K (round R): player A beat player B x-y (player S at seat 0) | drew
                let (a, b) = (player(w[5]), player(w[8]));
                let (x, y) = w[9].split_once('-').unwrap();
                let (x, y): (u32, u32) = (x.parse().unwrap(), y.parse().unwrap());
                match w[6] {
                    "beat" => table.enter(a, b, Some(a), [x, y]),
                    _ => table.enter(a, b, None, [x, y]),
                }
            }
            table.rank();
            let told: Vec<&str> =
                story.lines().skip_while(|l| !l.starts_with("Standings")).skip(1).take(5).collect();
            let names: Vec<String> = (0..5).map(|i| format!("player {i}")).collect();
            let mine = table_text(&table, &names);
            assert_eq!(told, mine.lines().skip(1).collect::<Vec<_>>(), "event {index}");
            assert_eq!(story.lines().filter(|l| l.starts_with("game ")).count(), 10);
        }
    }

    /// `events` events of `players` players dealt from piles, played by `rules` from master seed
    /// `master`, as the report reads a point.
    fn point_of(rules: Rules, players: usize, master: u64, events: u64) -> crate::report::PointResult {
        let t = SlotsEvent::new(rules, players, Dealing::Piles).unwrap().into_event();
        let acc = Point::play_range(&*t, master, 0, events, &|_| {});
        let settings = crate::settings::Settings::restore("slots", &[], false, "standard", &[], &[]).unwrap();
        crate::report::PointResult {
            label: "p".into(),
            game: "slots",
            settings,
            layout: Point::layout(&*t).clone(),
            acc,
        }
    }

    /// The designers' feedback of `events` nine-player events of the nine-designer set (its text
    /// passed through `edit`), dealt from piles.
    fn feedback_of(edit: impl Fn(String) -> String, events: u64) -> crate::report::PointResult {
        let text = edit(std::fs::read_to_string("scenarios/cards/tournament.toml").unwrap());
        let set =
            std::sync::Arc::new(crate::games::slots::cardfile::parse("tournament.toml", &text).unwrap());
        point_of(Rules { cards: Some(set), ..Rules::with("highest") }, 9, 7, events)
    }

    #[test]
    fn a_design_that_wins_its_slot_is_flagged_too_strong() {
        // Ember Coal (an uncommon 8, always kept) is not too strong as printed (its holders win
        // less often than the other uncommon 8s' holders); with a static +9 it
        // outplays every card of the set in its slot, and its holders win more often than the
        // other uncommon 8s' holders beyond the Bonferroni interval.
        let verdict = |p: &crate::report::PointResult| {
            let f = crate::report::makers::feedback(p).expect("the set names its designers");
            // Piles deal all 270 printed cards each event: no design is ever left unheld.
            assert_eq!(f.lines[0].never[0], 0);
            let l = f.lines.iter().find(|l| l.card == "ember-coal").unwrap();
            assert_eq!(
                (l.kind, l.maker.as_str(), l.totals[0]),
                ("design", "Ryan", 3000),
                "one holder an event"
            );
            l.verdict
        };
        assert_ne!(verdict(&feedback_of(|t| t, 3000)), "too_strong");
        let boost = |t: String| {
            let at = t.find("id = \"ember-coal\"").unwrap();
            let end = at + t[at..].find("designer = \"Ryan\"\n").unwrap() + "designer = \"Ryan\"\n".len();
            let plus = "  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = \"self\"\n  amount = 9\n";
            format!("{}{plus}{}", &t[..end], &t[end..])
        };
        assert_eq!(verdict(&feedback_of(boost, 3000)), "too_strong");
    }

    /// A set for two players dealt from piles (6 rares, 18 uncommons and 18 commons printed
    /// twice), designed by `A` and `B` in turn, every design textless but the uncommon 6 `dud`
    /// (destroys opposing cards printed above 9: there are none) and the uncommon 7 `scorer`
    /// (3 points for its owner when revealed), when `text`.
    fn two_player_set(text: bool) -> std::sync::Arc<crate::games::slots::cardset::CardSet> {
        let mut t = String::from("format = \"warsim-slots-cards\"\nversion = 1\nname = \"two\"\n");
        let mut card = |id: String, rarity: &str, value: u8, ability: &str| {
            let designer = if t.matches("[[card]]").count() % 2 == 0 { "A" } else { "B" };
            t += &format!(
                "[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"{rarity}\"\nvalue = {value}\ndesigner = \"{designer}\"\n{ability}"
            );
        };
        for v in 4..=9 {
            card(format!("r{v}"), "rare", v, "");
        }
        let dud =
            "  [[card.ability]]\n  effect = \"destroy\"\n  target = { side = \"opp\", printed = \">9\" }\n";
        let scorer = "  [[card.ability]]\n  effect = \"points\"\n  amount = 3\n";
        for v in 1..=9 {
            for copy in ["a", "b"] {
                let ability = match (v, copy, text) {
                    (6, "a", true) => dud,
                    (7, "a", true) => scorer,
                    _ => "",
                };
                card(format!("u{v}{copy}"), "uncommon", v, ability);
                card(format!("c{v}{copy}"), "common", v, "");
            }
        }
        std::sync::Arc::new(
            crate::games::slots::cardfile::parse("two.toml", &t).expect("the test set parses"),
        )
    }

    /// `events` two-player events of `set`, random placement, with `impact=cards`.
    fn impact_point(
        set: std::sync::Arc<crate::games::slots::cardset::CardSet>,
        events: u64,
    ) -> crate::report::PointResult {
        let impact = super::super::impact::Impact::Cards;
        point_of(Rules { cards: Some(set), impact, ..Rules::with("random") }, 2, 9, events)
    }

    #[test]
    fn a_text_that_never_acts_has_no_tournament_impact_and_one_that_scores_has_a_clear_one() {
        let events = 300;
        let p = impact_point(two_player_set(true), events);
        let f = crate::report::makers::feedback(&p).expect("the set names its designers");
        assert_eq!((f.measure.as_str(), f.causal), ("game_impact", true));
        let line = |id: &str| f.lines.iter().find(|l| l.card == id).unwrap();
        let impact_events = f.table.columns.iter().position(|c| c == "impact_events").unwrap();
        // Piles deal all 18 uncommons to the two players: each design is held, and measured, once
        // an event.
        for id in ["dud", "scorer"].map(|d| if d == "dud" { "u6a" } else { "u7a" }) {
            assert_eq!(line(id).totals[impact_events], events as u128, "{id}");
        }
        // The dud's replays are the games as played: both impacts exactly 0, no verdict.
        let dud = line("u6a");
        for e in &dud.means {
            assert_eq!((e.n, e.interval.estimate, e.interval.low, e.interval.high), (events, 0.0, 0.0, 0.0));
        }
        assert_eq!((dud.never_changed, dud.verdict), (1, ""));
        // Three points a reveal: its holder wins more games, and more first places, for sure.
        let scorer = line("u7a");
        assert!(scorer.means[0].interval.low > 0.0, "{:?}", scorer.means[0]);
        assert!(scorer.means[1].interval.low > 0.0, "{:?}", scorer.means[1]);
        // Two players meet once: a game gained is a first place gained (a draw, half of each).
        assert!(scorer.means[0].interval.estimate <= 1.0 && scorer.means[1].interval.estimate <= 1.0);
        // Only designs with text are measured.
        let measured: Vec<&str> = f
            .lines
            .iter()
            .filter(|l| l.kind == "design" && l.totals[impact_events] > 0)
            .map(|l| l.card.as_str())
            .collect();
        assert_eq!(measured, ["u6a", "u7a"]);
        // The designer of both (uncommons of value 6 and 7 come 14th and 16th: A) holds their
        // measures together.
        let a = f.lines.iter().find(|l| l.kind == "designer" && l.maker == "A").unwrap();
        assert_eq!(a.totals[impact_events], 2 * events as u128);
        let mean = (dud.means[0].interval.estimate + scorer.means[0].interval.estimate) / 2.0;
        assert!((a.means[0].interval.estimate - mean).abs() < 1e-12, "{:?} {mean}", a.means[0]);
    }

    #[test]
    fn playing_only_the_holders_games_measures_the_same_game_impact_with_fewer_games() {
        // Ember Coal with a static +9: it wins its slot, so its holders' games change without it.
        let text = std::fs::read_to_string("scenarios/cards/tournament.toml").unwrap();
        let at = text.find("id = \"ember-coal\"").unwrap();
        let end = at + text[at..].find("designer = \"Ryan\"\n").unwrap() + "designer = \"Ryan\"\n".len();
        let plus = "  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = \"self\"\n  amount = 9\n";
        let text = format!("{}{plus}{}", &text[..end], &text[end..]);
        let set = std::sync::Arc::new(crate::games::slots::cardfile::parse("t.toml", &text).unwrap());
        let d = set.designs.iter().position(|d| d.id == "ember-coal").unwrap();
        let mut of = vec![false; set.designs.len()];
        of[d] = true;
        let impact = super::super::impact::Impact::Cards;
        let rules = |holders| Rules {
            cards: Some(set.clone()),
            impact,
            impact_of: of.clone(),
            impact_holders: holders,
            ..Rules::with("highest")
        };
        let (event, holders) = (point_of(rules(false), 9, 5, 40), point_of(rules(true), 9, 5, 40));
        let t = event.layout.cards.as_ref().unwrap();
        let at = t.columns.iter().position(|c| c == "impact_events").unwrap();
        let cell = |p: &crate::report::PointResult, c: usize| {
            p.acc.counters[t.first as usize + d * t.columns.len() + c].total
        };
        // The holder's games are the same games on the same seeds: the game impact's sums agree.
        for c in at..at + 4 {
            assert_eq!(cell(&event, c), cell(&holders, c), "{}", t.columns[c]);
        }
        assert!(cell(&event, at) > 0 && cell(&event, at + 1) > 0);
        // A holder plays 8 of the 36 games (two holders at most 15): far fewer are played.
        let games = |p: &crate::report::PointResult| {
            p.acc.counters[p.layout.counter("games").unwrap().0 as usize].total
        };
        assert_eq!(games(&event), 40 * 36);
        assert!(games(&holders) <= 40 * 15 && games(&holders) >= 40 * 8, "{}", games(&holders));
        // First place is not measured: only the game impact is declared.
        let names: Vec<&str> =
            holders.layout.cards.as_ref().unwrap().paired.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["game_impact"]);
    }

    #[test]
    fn a_textless_set_measures_no_impact() {
        let p = impact_point(two_player_set(false), 40);
        let t = p.layout.cards.as_ref().unwrap();
        let at = t.columns.iter().position(|c| c == "impact_events").unwrap();
        let first = t.first as usize;
        for k in 0..t.keys.len() {
            for c in at..t.columns.len() {
                assert_eq!(
                    p.acc.counters[first + k * t.columns.len() + c].total,
                    0,
                    "{} {}",
                    t.keys[k],
                    t.columns[c]
                );
            }
        }
        // Nothing measured: the game impact the verdicts read judges no design.
        let f = crate::report::makers::feedback(&p).unwrap();
        assert!(f.causal && f.lines.iter().all(|l| l.verdict.is_empty()));
    }

    #[test]
    fn a_replay_without_a_design_the_player_does_not_hold_is_the_game_as_played() {
        // Common random numbers: the replay seats the same pools with the same seeds, so muting a
        // design its player does not hold gives back every game as played, to the score.
        let text = std::fs::read_to_string("scenarios/cards/tournament.toml").unwrap();
        let set = std::sync::Arc::new(crate::games::slots::cardfile::parse("t.toml", &text).unwrap());
        let rules =
            Rules { cards: Some(set), impact: super::super::impact::Impact::Cards, ..Rules::with("random") };
        let (ev, layout) = declared(SlotsEvent::new(rules.clone(), 9, Dealing::Piles).unwrap());
        let t = SlotsEvent::new(rules, 9, Dealing::Piles).unwrap().into_event();
        let schedule = round_robin(9);
        let mut sc = ev.new_scratch();
        let mut rec = GameRecord::new(&layout);
        let mut changed = 0;
        for index in 0..3 {
            let seed = GameSeed::new(2, index);
            ev.deal(seed, &mut sc, &mut rec, &mut Silent);
            for e in [0, 4] {
                let absent = (0..189u16).find(|&d| sc.pools.pool(e).iter().all(|c| c.design != d)).unwrap();
                for (k, m) in schedule.iter().enumerate() {
                    let seats = m.seats(index);
                    if !seats.contains(&e) {
                        continue;
                    }
                    let game = game_seed(seed, schedule.len(), k);
                    let written = ev.play(game, seats, &mut sc, &mut rec, &mut Silent);
                    sc.variants.clear();
                    sc.variants.push(absent);
                    let again = ev.play_variant(game, seats, e, 0, &mut sc);
                    assert_eq!(written, again, "event {index}, player {e}, game {k}");
                    // Muting a design the player holds does reach its games: some of them change.
                    let held: Vec<u16> =
                        sc.pools.pool(e).iter().map(|c| c.design).filter(|&d| d != NO_DESIGN).collect();
                    for d in held {
                        sc.variants[0] = d;
                        let muted = ev.play_variant(game, seats, e, 0, &mut sc);
                        changed += usize::from(muted != written);
                    }
                }
            }
        }
        assert!(changed > 0);
        // `play` tells an event measuring impact with the record `run` keeps of it.
        let seed = GameSeed::new(2, 0);
        assert_eq!(Point::story(&*t, seed).1, Point::play_one(&*t, seed));
    }

    #[test]
    fn an_events_counters_are_its_games_counters_summed() {
        // The sample set's stacks and vocabulary (place, move, look, ...) fire the newer counters;
        // each game of an event is replayed here and recorded as a single game records it.
        let text = std::fs::read_to_string("scenarios/cards/sample.toml").unwrap();
        let set = std::sync::Arc::new(crate::games::slots::cardfile::parse("sample.toml", &text).unwrap());
        let rules = Rules { cards: Some(set), ..Rules::with("random") };
        let (ev, ev_layout) = declared(SlotsEvent::new(rules.clone(), 4, Dealing::Independent).unwrap());
        let t = SlotsEvent::new(rules, 4, Dealing::Independent).unwrap().into_event();
        let layout = Point::layout(&*t);
        let schedule = round_robin(4);
        // `counts` names every counter once.
        let mut at: Vec<u32> =
            super::super::engine::counts(&ev.new_scratch().game.game).iter().map(|c| c.0.0).collect();
        at.sort_unstable();
        assert_eq!(at, (0..super::super::engine::COUNTERS.len() as u32).collect::<Vec<_>>());
        let single = &ev.engine;
        let mut sums = vec![0u64; super::super::engine::COUNTERS.len()];
        let mut events = vec![0u64; sums.len()];
        let mut sc = ev.new_scratch();
        let mut scratch_rec = GameRecord::new(&ev_layout);
        for index in 0..30 {
            let seed = GameSeed::new(4, index);
            let rec = Point::play_one(&*t, seed);
            for (i, name) in super::super::engine::COUNTERS.iter().enumerate() {
                events[i] += rec.counters[layout.counter(name).unwrap().0 as usize];
            }
            ev.deal(seed, &mut sc, &mut scratch_rec, &mut Silent);
            sums[counter::VANILLA_FILL.0 as usize] += sc.pools.vanilla_fill as u64;
            for (k, m) in schedule.iter().enumerate() {
                let r = ev.play(
                    game_seed(seed, schedule.len(), k),
                    m.seats(index),
                    &mut sc,
                    &mut scratch_rec,
                    &mut Silent,
                );
                let end = r.winner.map_or(End::Drawn, End::Won);
                let mut one = GameRecord::new(Engine::layout(single));
                single.finish(end, &sc.game.game, sc.game.players.seating(), &mut one);
                for (i, s) in sums.iter_mut().enumerate() {
                    *s += one.counters[i];
                }
            }
        }
        assert_eq!(events, sums);
        let fired =
            |name: &str| sums[super::super::engine::COUNTERS.iter().position(|c| *c == name).unwrap()];
        for name in ["stacked_cards", "uncovered", "then_steps", "bottomed"] {
            assert!(fired(name) > 0, "{name} never fired: the test would not see it summed");
        }
    }

    #[test]
    fn a_set_too_small_for_the_players_is_refused() {
        let text = std::fs::read_to_string("scenarios/cards/sample.toml").unwrap();
        let set = std::sync::Arc::new(crate::games::slots::cardfile::parse("sample.toml", &text).unwrap());
        let rules = Rules { cards: Some(set), ..Rules::with("highest") };
        let err = SlotsEvent::new(rules.clone(), 9, Dealing::Piles).err().unwrap();
        assert!(err.starts_with("deal=piles for 9 players needs 27 printed rares"), "{err}");
        assert!(SlotsEvent::new(rules, 2, Dealing::Piles).is_ok());
        let mixed = Rules::with("highest,random");
        assert!(SlotsEvent::new(mixed, 9, Dealing::Piles).err().unwrap().contains("same policies"));
    }
}
