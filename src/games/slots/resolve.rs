//! The resolution engine of Card Wars (`docs/rules/slots.md`, "When abilities act"): which
//! abilities a moment triggers, their batches by printed value, the snapshot each batch reads,
//! conflicts and fizzles, applying effects, and the moments their events start in turn.
//!
//! A moment is a list of instances (one card's abilities triggered by one event). They resolve
//! in batches of equal printed value, lowest first. Every instance of a batch is planned from the
//! state at the batch's start (targets, conditions, counts, picks), into a flat list of
//! operations; instances of different cards whose operations touch the same card, one of them
//! not additive, or that draw for and discard from the same player, fizzle; the rest apply in
//! table order. Cards destroyed or turned up make the next moment, until `MAX_MOMENTS` moments
//! (the first included) have resolved or a moment sets off more than `MAX_EVENTS` events. All
//! buffers live in the `Resolver` and are reused: no allocation per slot in the hot loop.

use super::card::{CARDS, NONE, SEATS, owner};
use super::cardset::{
    Ability, CardSet, DiscardPick, Duration, Effect, Factor, Head, Pick, Player, Selector, Sign, Trigger,
    ValueFrom,
};
use super::choices::{Ask, Choices, Places};
use super::ops::{Op, Teller, Told};
use super::table::{State, Tally, Timed};
use super::values::{Ctx, Snap};
use crate::seed::{GameRng, below, shuffle};

/// The moments of one cascade: the moment a phase begins (a turn trigger, the turn's placement or
/// reveal, the draws, a slot scored) is the first, and each moment its events start is the next;
/// the events of the last one start nothing and are dropped, one count each (`cascade_cut`).
pub const MAX_MOMENTS: usize = 8;

/// The events one moment may set off. A moment whose operations set off more ends the cascade:
/// none of its events starts another moment, and each counts once in `cascade_cut`. With at most
/// this many events starting a moment, and at most `MAX_MOMENTS` moments, every cascade (so every
/// game) ends in bounded time whatever the card text.
pub const MAX_EVENTS: usize = 64;

/// Something a card did that other abilities may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Happened {
    Revealed,
    Destroyed,
    /// Placed from a hand onto the table (by the turn or by `place`).
    Placed,
    /// Drawn or discarded by the seat `Snap::side` (off the table).
    Drawn,
    Discarded,
}

impl Happened {
    /// The card's own trigger and its watchers' trigger for an event about a card of the table;
    /// `None` for a draw or a discard, which the drawing seat's cards answer (`by_controller`).
    fn triggers(self) -> Option<(Trigger, Trigger)> {
        match self {
            Happened::Revealed => Some((Trigger::Reveal, Trigger::Revealed)),
            Happened::Destroyed => Some((Trigger::Destroyed, Trigger::Destroyed)),
            Happened::Placed => Some((Trigger::Placed, Trigger::Placed)),
            Happened::Drawn | Happened::Discarded => None,
        }
    }
}

/// An event, with what its watchers are matched against: the table as it was when it happened
/// (the face-up cards then, and the moves of the moment so far, `Log::moves[..mark]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub what: Happened,
    pub card: Snap,
    up: u64,
    mark: u32,
}

/// What the applied operations of a cascade did that its later moments read: the events, and
/// each move of a card from one place of the table to another, as (card, the place it left).
#[derive(Clone, Debug, Default)]
pub struct Log {
    events: Vec<Event>,
    moves: Vec<(u8, u8)>,
    /// Events set off beyond `MAX_EVENTS` in this moment: counted, not kept.
    over: u64,
}

impl Log {
    fn push(&mut self, st: &State, what: Happened, card: Snap) {
        if self.events.len() == MAX_EVENTS {
            self.over += 1;
            return;
        }
        self.events.push(Event { what, card, up: st.face_up, mark: self.moves.len() as u32 });
    }

    /// Forgets the events and moves of the moment before (the start of a cascade).
    fn clear(&mut self) {
        self.events.clear();
        self.moves.clear();
        self.over = 0;
    }

    /// Where card `id` lay when the event with `mark` happened: the place it left in the first
    /// move after it, else where it lies now.
    fn place_then(&self, st: &State, id: u8, mark: u32) -> u8 {
        self.moves[mark as usize..].iter().find(|m| m.0 == id).map_or(st.pos[id as usize], |m| m.1)
    }
}

/// One card's abilities triggered by one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    pub source: u8,
    pub on: Trigger,
    pub event: Option<Snap>,
    /// A destroyed card's own last words: read from where it lay.
    pub from_pile: Option<Snap>,
    /// A watcher's place when its event happened (`slot * SEATS + side`; else `NONE`): its
    /// `watch` is matched from there, while it acts from where it lies when it resolves.
    seen: u8,
    /// The abilities the moment triggers, resolved one step each in the order written (16 bits:
    /// a set holds at most 65,535 abilities, checked at load).
    steps: u16,
    /// Collection order: the last key of every order below.
    order: u16,
    /// The index (in the order written) of the first of its source's abilities it fires.
    rank: u16,
    /// The steps of its source's instances before it at this moment (by `rank`, then collection
    /// order): a card's abilities triggered at one moment by several events run one after the
    /// other, in the order written, as its abilities of one event do. (32 bits: a card may answer
    /// up to `MAX_EVENTS` events with up to 65,535 abilities each.)
    offset: u32,
    /// Where the search for its next step's ability starts (the index, in the order written, after
    /// the last step's): each step looks at its source's abilities once, so an instance costs in
    /// proportion to its card's abilities, not to their square.
    next: u16,
}

impl Instance {
    /// An instance of `source`'s abilities of trigger `on` (its steps are counted when queued).
    fn new(source: u8, on: Trigger, event: Option<Snap>, from_pile: Option<Snap>, seen: u8) -> Instance {
        Instance { source, on, event, from_pile, seen, steps: 0, order: 0, rank: 0, offset: 0, next: 0 }
    }
}

/// An instance planned from its batch's snapshot: its operations and what they touch.
#[derive(Clone, Copy, Debug)]
struct Plan {
    source: u8,
    order: u16,
    slot: u8,
    side: u8,
    first: u32,
    end: u32,
    /// Cards an order-dependent operation touches (destroy, return, swap, set, reveal, hide, clear).
    hard: u64,
    /// Cards a modifier or counter touches.
    soft: u64,
    /// The players' hands, decks and piles it acts on (`Zones`).
    zones: Zones,
    fizzled: bool,
}

impl Plan {
    /// Whether two instances of one batch conflict: over a card, or over a player's hand, deck
    /// or pile (`Plan::zone_conflict`).
    fn conflicts(&self, o: &Plan) -> bool {
        self.source != o.source
            && ((self.hard & (o.hard | o.soft)) | (o.hard & self.soft) != 0 || self.zone_conflict(o))
    }

    /// Whether the two act on one player's hand, deck or pile so that their order decides what
    /// happens (`Zones::clash`).
    fn zone_conflict(&self, o: &Plan) -> bool {
        self.zones.clash(o.zones)
    }
}

/// What an instance does to the players' hands, decks and piles: two bits (one per seat) for
/// each way of acting on them, in one word so that a plan stays small and the common case (no
/// such effect) is one test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Zones(u16);

impl Zones {
    /// Adds to a hand: a draw, a `recover`, a card returned to its owner.
    const DRAW: u16 = 0;
    /// Takes from a hand: a discard, a `place`.
    const DISCARD: u16 = 2;
    /// Looks at the top of a deck and may move it (`look`).
    const LOOK: u16 = 4;
    const SHUFFLE: u16 = 6;
    /// Takes from a pile (`recover`).
    const RECOVER: u16 = 8;
    /// Adds to a pile: a discard, a card destroyed (its owner's pile).
    const PILE: u16 = 10;

    #[inline]
    fn add(&mut self, kind: u16, seats: u8) {
        self.0 |= u16::from(seats) << kind;
    }

    #[inline]
    fn of(self, kind: u16) -> u16 {
        self.0 >> kind & 3
    }

    /// Whether two instances' order decides what happens to a player's hand, deck or pile: one
    /// adds to a hand the other takes from; one looks at a deck the other draws from, looks at
    /// or shuffles; one shuffles a deck the other draws from; one takes from a pile the other
    /// adds to. (Two draws, two discards, two shuffles or two recovers commute.)
    #[inline]
    fn clash(self, o: Zones) -> bool {
        if self.0 == 0 || o.0 == 0 {
            return false;
        }
        let one_way = |a: Zones, b: Zones| {
            a.of(Self::DRAW) & b.of(Self::DISCARD)
                | a.of(Self::LOOK) & (b.of(Self::DRAW) | b.of(Self::LOOK) | b.of(Self::SHUFFLE))
                | a.of(Self::SHUFFLE) & b.of(Self::DRAW)
                | a.of(Self::RECOVER) & b.of(Self::PILE)
                != 0
        };
        one_way(self, o) || one_way(o, self)
    }
}

/// The resolution engine's working memory, reused from moment to moment.
#[derive(Clone, Debug, Default)]
pub struct Resolver {
    now: Vec<Instance>,
    log: Log,
    plans: Vec<Plan>,
    ops: Vec<Op>,
    found: Vec<u8>,
    /// The instances of a batch group by source (`offsets`).
    by_source: Vec<u32>,
    /// Reveals planned on cards already face up (they do nothing), for `already_up`.
    idle_reveals: u64,
}

impl Resolver {
    pub fn new() -> Resolver {
        Resolver {
            now: Vec::with_capacity(64),
            log: Log { events: Vec::with_capacity(MAX_EVENTS), moves: Vec::with_capacity(32), over: 0 },
            plans: Vec::with_capacity(64),
            ops: Vec::with_capacity(256),
            found: Vec::with_capacity(32),
            by_source: Vec::with_capacity(64),
            idle_reveals: 0,
        }
    }

    /// The moment of trigger `on` (a turn trigger, the start or end of scoring, or the scoring of
    /// slot `st.scoring`): every face-up card on the table with such an ability, then the moments
    /// its events start.
    pub fn moment<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        on: Trigger,
        narr: &mut N,
        ch: &mut C,
    ) {
        self.now.clear();
        let mut cards = st.armed[on as usize] & st.face_up;
        if matches!(on, Trigger::SlotScored | Trigger::SlotLost) && cards != 0 {
            // The cards in the slot just scored, stacked ones too; for `slot_lost`, only the
            // side the opponent took it from.
            let slot = st.scoring as usize;
            let lost = match st.taken[slot] {
                super::table::Taken::Seat(s) => 1 << (1 - s),
                super::table::Taken::Nobody => 0,
            };
            let sides = if on == Trigger::SlotLost { lost } else { 3 };
            let mut here = 0u64;
            for side in (0..SEATS).filter(|s| sides >> s & 1 == 1) {
                st.each_in_place(slot, side, |id| here |= 1 << id);
            }
            cards &= here;
        }
        if cards == 0 {
            return;
        }
        self.log.clear();
        // By card id: a fixed order (the batches and the application put them in their own).
        while cards != 0 {
            let id = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            self.push(st, Instance::new(id, on, None, None, NONE));
        }
        self.cascade(st, tally, rng, narr, ch);
    }

    /// The moment of cards turned face up together (the turn's reveal): their own `reveal`
    /// abilities and every `revealed` watcher, then what follows.
    pub fn revealed<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        cards: &[u8],
        narr: &mut N,
        ch: &mut C,
    ) {
        if st.armed[Trigger::Revealed as usize] & st.face_up != 0 {
            return self.events(st, tally, rng, Happened::Revealed, cards, narr, ch);
        }
        // No face-up card watches reveals (most turns): only the cards' own `reveal` abilities
        // answer, queued straight away as the listener would queue them (card order, no
        // watcher moved or covered to count), without keeping the events.
        self.now.clear();
        for &id in cards.iter().filter(|&&id| id != NONE && st.on_table(id)) {
            if st.acts_on(id, Trigger::Reveal) {
                self.push(st, Instance::new(id, Trigger::Reveal, Some(st.snap(id)), None, NONE));
            }
        }
        if !self.now.is_empty() {
            self.log.clear();
            self.cascade(st, tally, rng, narr, ch);
        }
    }

    /// The moment of cards of the table that `what` together (turned up, or placed by the
    /// turn): their own abilities and the watchers, then what follows.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub fn events<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        what: Happened,
        cards: &[u8],
        narr: &mut N,
        ch: &mut C,
    ) {
        self.now.clear();
        self.log.clear();
        for &id in cards.iter().filter(|&&id| id != NONE && st.on_table(id)) {
            if heard(st, what, id) {
                self.log.push(st, what, st.snap(id));
            }
        }
        // Nothing heard: no moment (what the listener and the cascade would find).
        if self.log.events.is_empty() {
            return;
        }
        self.listen(st, tally);
        self.cascade(st, tally, rng, narr, ch);
    }

    /// The moment of the turn's draws: `drawn[seat]` is the card each seat drew, or `NONE`.
    pub fn drawn<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        drawn: [u8; SEATS],
        narr: &mut N,
        ch: &mut C,
    ) {
        self.now.clear();
        self.log.clear();
        for (seat, &id) in drawn.iter().enumerate().filter(|(_, id)| **id != NONE) {
            self.log.push(st, Happened::Drawn, st.snap_off(id, seat));
        }
        self.listen(st, tally);
        self.cascade(st, tally, rng, narr, ch);
    }

    /// Queues `inst` with the number of its source's abilities the moment triggers, if any.
    #[inline]
    fn push(&mut self, st: &State, mut inst: Instance) {
        let set = st.set.as_ref().expect("text needs a set");
        let d = st.pools.design[inst.source as usize];
        let fire =
            if inst.from_pile.is_some() { set.last_words[d as usize] } else { set.fire_of(d, inst.on) };
        // Where the heads alone decide (every trigger but a watch, turns shared), the summary is
        // the answer; a watcher matches each of its abilities against the event.
        let (rank, steps) = if fire.exact {
            let now = (fire.turns.0..=fire.turns.1).contains(&st.turn);
            (fire.first, if now { fire.count } else { 0 })
        } else if fire.count == 0 {
            (0, 0)
        } else {
            firing(st, set, d, &inst)
        };
        debug_assert!(
            !fire.exact || {
                let (r, n) = firing(st, set, d, &inst);
                n == steps && (n == 0 || r == rank)
            },
            "a design's trigger summary answers as its abilities do"
        );
        if steps > 0 {
            (inst.rank, inst.steps) = (rank, steps);
            inst.order = self.now.len() as u16;
            self.now.push(inst);
        }
    }

    /// Resolves the moment in `now` (the first of the cascade), then each moment its events
    /// start, `MAX_MOMENTS` moments in all.
    fn cascade<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        narr: &mut N,
        ch: &mut C,
    ) {
        let mut moments = 0;
        loop {
            self.resolve_moment(st, tally, rng, narr, ch);
            moments += 1;
            if self.log.events.is_empty() {
                return;
            }
            // The last moment resolved, or more events than a moment may set off: the cascade
            // ends, and the events that would have made the next moment are dropped.
            let over = std::mem::take(&mut self.log.over);
            if moments == MAX_MOMENTS || over > 0 {
                let dropped = self.log.events.len() as u64 + over;
                tally.cascade_cut += dropped;
                if N::ON {
                    narr.tell(st, Told::CascadeCut(dropped as usize));
                }
                self.log.events.clear();
                return;
            }
            self.listen(st, tally);
        }
    }

    /// The instances the queued events trigger, with their counts (`triggered_by_events`).
    fn listen(&mut self, st: &State, tally: &mut Tally) {
        let (moved, covered) = self.triggered_by_events(st);
        tally.watchers_moved += moved;
        tally.covered_events += covered;
    }

    /// The instances the queued events trigger (the events are consumed). Each watcher is matched
    /// from where it lay when the event happened, among the cards face up then and now. Returns
    /// the watchers that a move has taken elsewhere since, and the events about a card under the
    /// top of its place that face-up watchers heard (`covered_events`).
    fn triggered_by_events(&mut self, st: &State) -> (u64, u64) {
        self.now.clear();
        let (mut moved, mut covered) = (0, 0);
        if st.set.is_none() {
            self.log.events.clear();
            return (0, 0);
        }
        for i in 0..self.log.events.len() {
            let e = self.log.events[i];
            let Some((own, watch)) = e.what.triggers() else {
                self.by_controller(st, e);
                continue;
            };
            let snap = e.card;
            let id = snap.id;
            let event = Some(snap);
            if own == Trigger::Reveal && st.acts_on(id, Trigger::Reveal) {
                self.push(st, Instance::new(id, own, event, None, NONE));
            }
            // A destroyed card keeps only its own last words, and only if it had text showing.
            if own == Trigger::Destroyed && snap.up && st.design(id).is_some() {
                self.push(st, Instance::new(id, own, event, event, NONE));
            }
            // Every watcher face up at the event and now: a card turned up hears its own reveal
            // where its `watch` takes it in (the cards of a turn turn up at one moment).
            let mut watchers = st.armed[watch as usize] & st.face_up & e.up & !others_only(st, id);
            covered += u64::from(!snap.top && watchers != 0);
            while watchers != 0 {
                let w = watchers.trailing_zeros() as u8;
                watchers &= watchers - 1;
                let seen = self.log.place_then(st, w, e.mark);
                let before = self.now.len();
                self.push(st, Instance::new(w, watch, event, None, seen));
                moved += u64::from(self.now.len() > before && seen != st.pos[w as usize]);
            }
        }
        self.log.events.clear();
        (moved, covered)
    }

    /// The `drawn` or `discarded` abilities a card drawn or discarded by seat `e.card.side`
    /// triggers: those of the face-up cards that seat controls, one instance per card.
    fn by_controller(&mut self, st: &State, e: Event) {
        let on = if e.what == Happened::Drawn { Trigger::Drawn } else { Trigger::Discarded };
        let mut cards = st.armed[on as usize] & st.face_up;
        while cards != 0 {
            let w = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            if st.pos[w as usize] as usize % SEATS == e.card.side as usize {
                self.push(st, Instance::new(w, on, None, None, NONE));
            }
        }
    }

    /// Resolves `now` batch by batch, lowest printed value first; cards of one printed value
    /// resolve their first abilities as one batch, then their second ones as the next, and so on
    /// ("then": each reads the table as the one before left it).
    fn resolve_moment<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        narr: &mut N,
        ch: &mut C,
    ) {
        if self.now.len() == 1 {
            // One instance (most moments): one batch per step, nothing to order or to offset.
            for step in 0..u32::from(self.now[0].steps) {
                self.batch(st, tally, rng, 0..1, step, narr, ch);
            }
            self.now.clear();
            return;
        }
        let printed = &st.pools.printed;
        self.now.sort_unstable_by_key(|i| (printed[i.source as usize], i.order));
        let mut start = 0;
        while start < self.now.len() {
            let printed = &st.pools.printed;
            let p = printed[self.now[start].source as usize];
            let end =
                start + self.now[start..].iter().take_while(|i| printed[i.source as usize] == p).count();
            self.offsets(start..end);
            let steps = self.now[start..end].iter().map(|i| i.offset + u32::from(i.steps)).max().unwrap_or(0);
            for step in 0..steps {
                self.batch(st, tally, rng, start..end, step, narr, ch);
            }
            start = end;
        }
        self.now.clear();
    }

    /// Sets each instance's `offset` in the batch group `range`: the steps of its source's
    /// instances before it (several only when one card answers several events of a moment).
    fn offsets(&mut self, range: std::ops::Range<usize>) {
        let group = &mut self.now[range];
        let mut seen = 0u64;
        let mut twice = false;
        for i in group.iter() {
            twice |= seen >> i.source & 1 == 1;
            seen |= 1 << i.source;
        }
        if !twice {
            return;
        }
        // By source, then by (rank, order): each instance follows its source's earlier ones.
        let by = &mut self.by_source;
        by.clear();
        by.extend(0..group.len() as u32);
        by.sort_unstable_by_key(|&k| {
            let i = &group[k as usize];
            (i.source, i.rank, i.order)
        });
        let (mut source, mut before) = (NONE, 0u32);
        for &k in by.iter() {
            let i = &mut group[k as usize];
            if i.source != source {
                (source, before) = (i.source, 0);
            }
            i.offset = before;
            before += u32::from(i.steps);
        }
    }

    /// The index (in the order written) of the first ability at or after `inst.next` that the
    /// instance's moment triggers.
    fn next_firing(&self, st: &State, inst: &Instance) -> Option<usize> {
        let set = st.set.as_ref().expect("text needs a set");
        let d = st.pools.design[inst.source as usize];
        let (heads, abilities) = (set.heads_of(d), set.abilities_of(d));
        let seen = seen_from(st, inst);
        let from = inst.next as usize;
        let rest = heads.iter().zip(abilities).enumerate().skip(from);
        rest.filter(|(_, (h, a))| fires(st, h, a, inst, &seen)).map(|(k, _)| k).next()
    }

    /// One batch: step `step` (0: the first ability each instance triggers) of the instances in
    /// `range`, each planned from the same snapshot; the conflicts fizzle, the rest apply.
    #[allow(clippy::too_many_arguments)]
    fn batch<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        range: std::ops::Range<usize>,
        step: u32,
        narr: &mut N,
        ch: &mut C,
    ) {
        self.plans.clear();
        self.ops.clear();
        for k in range {
            let inst = self.now[k];
            // The instance's own step: a card's later instances wait for its earlier ones.
            let Some(local) = step.checked_sub(inst.offset).filter(|&l| l < u32::from(inst.steps)) else {
                continue;
            };
            // The step's ability: the first one the moment triggers (`push` found it), then each
            // next one after the step before's, in the order written (what fires is fixed for the
            // moment). Found whether or not the source can still act, so that a step lost keeps
            // its place.
            let ability = if local == 0 { Some(inst.rank as usize) } else { self.next_firing(st, &inst) };
            self.now[k].next = ability.map_or(u16::MAX, |a| (a + 1) as u16);
            let ctx = match inst.from_pile {
                Some(s) => Ctx {
                    source: inst.source,
                    slot: s.slot as usize,
                    side: s.side as usize,
                    event: inst.event,
                },
                None if st.on_table(inst.source) && st.is_face_up(inst.source) => {
                    let pos = st.pos[inst.source as usize] as usize;
                    Ctx { source: inst.source, slot: pos / SEATS, side: pos % SEATS, event: inst.event }
                }
                None => {
                    tally.lost_triggers += 1;
                    if N::ON {
                        narr.tell(st, Told::Lost(inst.source));
                    }
                    continue;
                }
            };
            tally.then_steps += u64::from(step > 0);
            tally.declined += self.plan(st, rng, &inst, &ctx, ability, ch);
        }
        tally.already_up += std::mem::take(&mut self.idle_reveals);
        let n = self.plans.len();
        for x in 0..n {
            for y in x + 1..n {
                if self.plans[x].conflicts(&self.plans[y]) {
                    self.plans[x].fizzled = true;
                    self.plans[y].fizzled = true;
                    tally.zone_conflicts += u64::from(self.plans[x].zone_conflict(&self.plans[y]));
                }
            }
        }
        self.plans.sort_unstable_by_key(|p| (p.slot, p.side, p.order));
        for p in 0..n {
            let plan = self.plans[p];
            if N::ON {
                let ops = &self.ops[plan.first as usize..plan.end as usize];
                narr.tell(st, Told::Resolved { source: plan.source, fizzled: plan.fizzled, ops });
            }
            if plan.fizzled {
                tally.fizzles += 1;
            } else {
                for o in plan.first..plan.end {
                    apply(st, tally, rng, self.ops[o as usize], plan.source, &mut self.log, ch);
                }
            }
        }
        if N::ON && n > 0 {
            narr.tell(st, Told::Values);
        }
    }

    /// Plans one step of an instance: its source's `ability` (an index in the order written), if
    /// its conditions hold (a "you may" one only if its controller takes it). Returns the
    /// abilities declined.
    fn plan<C: Choices>(
        &mut self,
        st: &State,
        rng: &mut GameRng,
        inst: &Instance,
        ctx: &Ctx,
        ability: Option<usize>,
        ch: &mut C,
    ) -> u64 {
        let mut declined = 0;
        let set = st.set.as_ref().expect("text needs a set");
        let first = self.ops.len() as u32;
        let mut plan = Plan {
            source: inst.source,
            order: inst.order,
            slot: ctx.slot as u8,
            side: ctx.side as u8,
            first,
            end: first,
            hard: 0,
            soft: 0,
            zones: Zones::default(),
            fizzled: false,
        };
        let abilities = set.abilities_of(st.pools.design[inst.source as usize]);
        if let Some(a) = ability.and_then(|k| abilities.get(k))
            && a.conds().all(|c| st.holds(c, ctx))
        {
            let before = (self.ops.len(), plan, self.idle_reveals);
            self.plan_effect(st, rng, &a.effect, ctx, inst.from_pile.is_none(), &mut plan, ch);
            if a.optional && !self.taken(st, &a.effect, ctx, before.0, ch) {
                self.ops.truncate(before.0);
                plan = before.1;
                self.idle_reveals = before.2;
                declined += 1;
            }
        }
        plan.end = self.ops.len() as u32;
        self.plans.push(plan);
        declined
    }

    /// Asks the controller whether it takes a "you may" ability whose operations, planned from
    /// the snapshot, are `ops[first..]`.
    fn taken<C: Choices>(&self, st: &State, effect: &Effect, ctx: &Ctx, first: usize, ch: &mut C) -> bool {
        let mut at = Places::default();
        for op in &self.ops[first..] {
            let (a, b) = match *op {
                Op::Modify { target, .. }
                | Op::Set { target, .. }
                | Op::Counter { target, .. }
                | Op::Clear { target, .. }
                | Op::Destroy { target }
                | Op::Return { target }
                | Op::Reveal { target }
                | Op::Multiply { target, .. }
                | Op::Move { target, .. }
                | Op::Hide { target } => (target, NONE),
                Op::Swap { a, b } => (a, b),
                Op::Place { .. } | Op::Look { .. } | Op::Recover { .. } | Op::Shuffle { .. } => (NONE, NONE),
                Op::Draw { .. }
                | Op::Discard { .. }
                | Op::Points { .. }
                | Op::LowerWins { .. }
                | Op::WinTies { .. } => (NONE, NONE),
            };
            for id in [a, b].into_iter().filter(|&id| id != NONE) {
                at.push(st.pos[id as usize]);
            }
        }
        ch.take(st, &ask(ctx, effect, 1), &at)
    }

    /// The operations of one effect, from the snapshot, and what they touch. `on_table`: the
    /// source acts from the table (not a destroyed card's last words).
    #[allow(clippy::too_many_arguments)]
    fn plan_effect<C: Choices>(
        &mut self,
        st: &State,
        rng: &mut GameRng,
        effect: &Effect,
        ctx: &Ctx,
        on_table: bool,
        plan: &mut Plan,
        ch: &mut C,
    ) {
        // The found buffer, borrowed apart from the operations it is read into.
        let found = &mut self.found;
        let mut pick = |sel: &Selector, found: &mut Vec<u8>| {
            targets(st, sel, ctx, rng, found, |from, out| ch.targets(st, &ask(ctx, effect, sel.n), from, out))
        };
        let times = |per: &Option<Selector>| per.map_or(1, |p| st.count(&p, ctx) as i16);
        let seats = |p: Player| match p {
            Player::You => 1u8 << ctx.side,
            Player::Opp => 1u8 << (1 - ctx.side),
            Player::Both => 3,
        };
        // A modifier, set or factor from a card on the table ends when its source leaves the
        // table or turns face down, whatever its duration (only counters stay). One started by a
        // destroyed card's last words has no source on the table to end with: a `round` one lasts
        // the round, a `source` one never starts.
        let lasting = |d: Duration| on_table || d == Duration::Source;
        match *effect {
            Effect::Modify { target, amount, per, duration } => {
                let amount = amount as i16 * times(&per);
                let while_source = lasting(duration);
                pick(&target, found);
                for &t in found.iter().filter(|_| amount != 0) {
                    self.ops.push(Op::Modify { target: t, amount, while_source });
                    plan.soft |= 1 << t;
                }
            }
            Effect::Set { target, to, from, duration } => {
                let while_source = lasting(duration);
                // A value taken from another card is read now, from the snapshot; without that
                // card the set does nothing.
                let oc = st.opposing(ctx);
                let to = match from {
                    ValueFrom::Fixed => Some(to as i32),
                    ValueFrom::Oc => (oc != NONE).then(|| st.value(oc)),
                    ValueFrom::HandHighest => st.hands[ctx.side]
                        .as_slice()
                        .iter()
                        .map(|&id| st.pools.printed[id as usize] as i32)
                        .max(),
                    ValueFrom::Stacked => st.stacked_high(ctx),
                };
                if let Some(to) = to {
                    let to = to.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                    pick(&target, found);
                    for &t in found.iter() {
                        self.ops.push(Op::Set { target: t, to, while_source });
                        plan.hard |= 1 << t;
                    }
                }
            }
            Effect::Multiply { target, by, duration } => {
                let while_source = lasting(duration);
                let by = match by {
                    Factor::Number(n) => Some(n as i32),
                    Factor::Stacked => st.stacked_high(ctx),
                };
                // By 1 (a stacked card worth 1) changes nothing and touches nothing.
                if let Some(by) = by.filter(|&b| b != 1) {
                    let by = by.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                    pick(&target, found);
                    for &t in found.iter() {
                        self.ops.push(Op::Multiply { target: t, by, while_source });
                        plan.soft |= 1 << t;
                    }
                }
            }
            Effect::Place { player, slot, pick, up } => {
                let s = seats(player);
                self.ops.push(Op::Place { seats: s, slot: slot_of_rule(slot, ctx), pick, up });
                // It takes a card from the hand, as a discard does.
                plan.zones.add(Zones::DISCARD, s);
            }
            Effect::Move { target, slot } => {
                pick(&target, found);
                for &t in found.iter() {
                    self.ops.push(Op::Move { target: t, slot: slot_of_rule(slot, ctx) });
                    plan.hard |= 1 << t;
                }
            }
            Effect::Look { player, bottom } => {
                self.ops.push(Op::Look { seats: seats(player), bottom });
                plan.zones.add(Zones::LOOK, seats(player));
            }
            Effect::Recover { player, amount, pick } => {
                self.ops.push(Op::Recover { seats: seats(player), n: amount, pick });
                // It takes from the pile and adds to the hand, as a draw does.
                plan.zones.add(Zones::RECOVER, seats(player));
                plan.zones.add(Zones::DRAW, seats(player));
            }
            Effect::Shuffle { player } => {
                self.ops.push(Op::Shuffle { seats: seats(player) });
                plan.zones.add(Zones::SHUFFLE, seats(player));
            }
            Effect::Counter { target, amount, per } => {
                let amount = amount as i16 * times(&per);
                pick(&target, found);
                for &t in found.iter().filter(|_| amount != 0) {
                    self.ops.push(Op::Counter { target: t, amount });
                    plan.soft |= 1 << t;
                }
            }
            Effect::ClearCounters { target, .. }
            | Effect::Destroy { target }
            | Effect::Return { target }
            | Effect::Reveal { target }
            | Effect::Hide { target } => {
                pick(&target, found);
                // Revealing a face-up card or hiding a face-down one does nothing, so it touches
                // nothing (and conflicts with nothing).
                let idle = |t: u8| match effect {
                    Effect::Reveal { .. } => st.is_face_up(t),
                    Effect::Hide { .. } => !st.is_face_up(t),
                    _ => false,
                };
                if matches!(effect, Effect::Reveal { .. } | Effect::Hide { .. }) {
                    let before = found.len();
                    found.retain(|&t| !idle(t));
                    if matches!(effect, Effect::Reveal { .. }) {
                        self.idle_reveals += (before - found.len()) as u64;
                    }
                }
                for &t in found.iter() {
                    self.ops.push(match effect {
                        Effect::ClearCounters { sign, .. } => Op::Clear { target: t, sign: *sign },
                        Effect::Destroy { .. } => {
                            plan.zones.add(Zones::PILE, 1 << owner(t));
                            Op::Destroy { target: t }
                        }
                        Effect::Return { .. } => {
                            plan.zones.add(Zones::DRAW, 1 << owner(t));
                            Op::Return { target: t }
                        }
                        Effect::Reveal { .. } => Op::Reveal { target: t },
                        _ => Op::Hide { target: t },
                    });
                    plan.hard |= 1 << t;
                }
            }
            Effect::Swap { a, b } => {
                if let Some((a, b)) = swap_pair(st, &a, &b, ctx, rng, effect, ch, found)
                    && a != b
                {
                    self.ops.push(Op::Swap { a, b });
                    plan.hard |= (1 << a) | (1 << b);
                }
            }
            Effect::Draw { player, amount } => {
                let s = seats(player);
                self.ops.push(Op::Draw { seats: s, n: amount });
                plan.zones.add(Zones::DRAW, s);
            }
            Effect::Discard { player, amount, pick } => {
                let s = seats(player);
                self.ops.push(Op::Discard { seats: s, n: amount, pick });
                plan.zones.add(Zones::DISCARD, s);
                plan.zones.add(Zones::PILE, s);
            }
            Effect::LowerWins { slot } => {
                self.ops.push(Op::LowerWins { slot: slot_of_rule(slot, ctx) });
            }
            Effect::WinTies { slot } => {
                self.ops.push(Op::WinTies { slot: slot_of_rule(slot, ctx), seat: ctx.side as u8 });
            }
            Effect::Points { player, amount, per } => {
                let amount = amount as i16 * times(&per);
                if amount != 0 {
                    self.ops.push(Op::Points { seats: seats(player), amount });
                }
            }
        }
    }
}

/// Where an instance's `watch` is matched from: a watcher's place when its event happened, a
/// destroyed card's last place, else its place now (what the other triggers do not read).
fn seen_from(st: &State, inst: &Instance) -> Ctx {
    let pos = match (inst.from_pile, inst.seen) {
        (Some(s), _) => s.slot as usize * SEATS + s.side as usize,
        (None, NONE) => st.pos[inst.source as usize] as usize,
        (None, p) => p as usize,
    };
    Ctx { source: inst.source, slot: pos / SEATS, side: pos % SEATS, event: inst.event }
}

/// Whether an event `what` about card `id` of the table, happening now, can trigger anything,
/// as `Resolver::triggered_by_events` would answer it: the card's own abilities (its `reveal`
/// ones, or a face-up card's last words), or a face-up card watching such events; draws and
/// discards always count. Most reveals and placements trigger nothing, and then the event is not
/// kept: a snapshot and a search for watchers for each card turned up is most of what a moment
/// costs.
#[inline]
pub(super) fn heard(st: &State, what: Happened, id: u8) -> bool {
    let Some((own, watch)) = what.triggers() else { return true };
    let own_acts = match own {
        Trigger::Reveal => st.acts_on(id, Trigger::Reveal),
        Trigger::Destroyed => st.is_face_up(id) && st.design(id).is_some(),
        _ => false,
    };
    let watchers = st.armed[watch as usize] & st.face_up;
    own_acts || watchers != 0 && watchers & !others_only(st, id) != 0
}

/// The bit of card `id` when none of its watchers can hear an event about itself (`id`'s own
/// reveal: a `revealed` watcher whose `watch` takes its source in, `CardSet::hears_itself`),
/// else 0: what to leave out of the watchers of an event about `id`.
#[inline]
fn others_only(st: &State, id: u8) -> u64 {
    let hears = match (&st.set, st.design(id)) {
        (Some(set), Some(d)) => set.hears_itself[d as usize],
        _ => false,
    };
    u64::from(!hears) << id
}

/// The first of `inst`'s abilities its moment triggers (an index in the order written) and how
/// many it triggers, each matched on its own (`fires`).
#[inline(never)]
fn firing(st: &State, set: &CardSet, d: u16, inst: &Instance) -> (u16, u16) {
    let seen = seen_from(st, inst);
    let (heads, abilities) = (set.heads_of(d), set.abilities_of(d));
    let mut firing =
        heads.iter().zip(abilities).enumerate().filter(|(_, (h, a))| fires(st, h, a, inst, &seen));
    match firing.next() {
        Some((first, _)) => (first as u16, 1 + firing.count() as u16),
        None => (0, 0),
    }
}

/// Whether ability `a` of an instance's source is triggered by the instance's moment: its
/// trigger, its turns, and for a watch the card watched, matched from `seen` (`seen_from`).
fn fires(st: &State, h: &Head, a: &Ability, inst: &Instance, seen: &Ctx) -> bool {
    h.on == inst.on
        && (!inst.on.per_turn() || (h.turns.0..=h.turns.1).contains(&st.turn))
        && match (inst.on.watches(), inst.from_pile, inst.event) {
            (true, Some(_), _) => a.watch == Selector::SOURCE,
            (true, None, Some(e)) => st.watches(&a.watch, seen, &e),
            _ => true,
        }
}

/// The question of an ability read from `ctx` that does `effect`, picking `n`.
fn ask(ctx: &Ctx, effect: &Effect, n: u8) -> Ask {
    Ask {
        seat: ctx.side as u8,
        source: (ctx.slot * SEATS + ctx.side) as u8,
        effect: *effect,
        n,
        partner: Places::default(),
    }
}

/// The places of the cards `ids`.
fn places(st: &State, ids: &[u8]) -> Places {
    let mut at = Places::default();
    ids.iter().for_each(|&id| at.push(st.pos[id as usize]));
    at
}

/// The two cards a swap names, if both name one: a side that chooses is asked with the other
/// side's candidates as partners (the first side's card once chosen, which the second side's
/// choice may not take again: choosing it would swap nothing, and the "you may" covers not
/// swapping).
#[allow(clippy::too_many_arguments)]
fn swap_pair<C: Choices>(
    st: &State,
    a: &Selector,
    b: &Selector,
    ctx: &Ctx,
    rng: &mut GameRng,
    effect: &Effect,
    ch: &mut C,
    found: &mut Vec<u8>,
) -> Option<(u8, u8)> {
    let all = |sel: &Selector, found: &mut Vec<u8>| {
        found.clear();
        st.matching(sel, ctx, |id| found.push(id));
    };
    let fixed = |sel: &Selector, rng: &mut GameRng, found: &mut Vec<u8>| {
        targets(st, sel, ctx, rng, found, |_, _| unreachable!("not a choice"));
        found.first().copied()
    };
    let chosen = |from: &[u8], partner: Places, n: u8, ch: &mut C| {
        if from.is_empty() {
            return None;
        }
        let mut out = Places::default();
        ch.targets(st, &Ask { partner, ..ask(ctx, effect, n) }, &places(st, from), &mut out);
        // The first candidate lying in the place chosen.
        let p = *out.as_slice().first()?;
        from.iter().copied().find(|&id| st.pos[id as usize] == p)
    };
    let (a_chooses, b_chooses) = (a.pick == Pick::Choose, b.pick == Pick::Choose);
    // The second side's candidates, known before the first side chooses.
    let mut b_from = Places::default();
    let b_fixed = if b_chooses {
        all(b, found);
        b_from = places(st, found);
        None
    } else {
        let id = fixed(b, rng, found);
        if let Some(id) = id {
            b_from.push(st.pos[id as usize]);
        }
        id
    };
    let first = if a_chooses {
        all(a, found);
        chosen(found, b_from, 1, ch)?
    } else {
        fixed(a, rng, found)?
    };
    let second = if b_chooses {
        all(b, found);
        found.retain(|&id| id != first);
        chosen(found, Places::of(&[st.pos[first as usize]]), 1, ch)?
    } else {
        b_fixed?
    };
    Some((first, second))
}

/// The cards `sel` picks now, into `out`: every match, or `n` of them at random, or chosen by
/// the source's controller (`choose` asks `choose(from, out)` with the candidates' places), or
/// the `n` highest or lowest by value with ties broken at random.
pub fn targets(
    st: &State,
    sel: &Selector,
    ctx: &Ctx,
    rng: &mut GameRng,
    out: &mut Vec<u8>,
    choose: impl FnOnce(&Places, &mut Places),
) {
    out.clear();
    st.matching(sel, ctx, |id| out.push(id));
    let n = (sel.n as usize).min(out.len());
    match sel.pick {
        Pick::All => {}
        Pick::Choose if !out.is_empty() => {
            let mut chosen = Places::default();
            choose(&places(st, out), &mut chosen);
            // Each place chosen takes the first candidate lying there not taken yet (a place
            // holding several candidates is offered once per candidate).
            let (mut taken, mut ids) = (0u64, Places::default());
            for &p in chosen.as_slice().iter().take(n) {
                if let Some(&id) = out.iter().find(|&&id| st.pos[id as usize] == p && taken >> id & 1 == 0) {
                    taken |= 1 << id;
                    ids.push(id);
                }
            }
            out.clear();
            out.extend_from_slice(ids.as_slice());
        }
        Pick::Choose => {}
        Pick::Random => {
            for i in 0..n {
                let j = i + below(rng, (out.len() - i) as u32) as usize;
                out.swap(i, j);
            }
            out.truncate(n);
        }
        // One candidate is the highest and the lowest: no value to read (and no draw to make).
        Pick::Highest | Pick::Lowest if out.len() <= 1 => {}
        Pick::Highest | Pick::Lowest => {
            // A random order first, so that a stable sort by value breaks ties at random.
            for i in (1..out.len()).rev() {
                let j = below(rng, i as u32 + 1) as usize;
                out.swap(i, j);
            }
            // Each value once (a value reads every static on the table), then a stable
            // insertion sort of the cards on the table.
            let high = sel.pick == Pick::Highest;
            let key = |v: i32, id: u8| (if high { -v } else { v }, id);
            if n == 1 {
                // The first card of the random order with the best key: what the stable sort
                // below puts first, found in one pass.
                let mut best = (i32::MAX, NONE);
                each_value(st, out, |_, id, v| {
                    let k = key(v, id);
                    if k.0 < best.0 || best.1 == NONE {
                        best = k;
                    }
                });
                out.clear();
                out.push(best.1);
                return;
            }
            let mut keyed = [(0i32, 0u8); CARDS];
            each_value(st, out, |i, id, v| keyed[i] = key(v, id));
            let keyed = &mut keyed[..out.len()];
            for i in 1..keyed.len() {
                let mut k = i;
                while k > 0 && keyed[k].0 < keyed[k - 1].0 {
                    keyed.swap(k - 1, k);
                    k -= 1;
                }
            }
            for (o, k) in out.iter_mut().zip(keyed.iter()) {
                *o = k.1;
            }
            out.truncate(n);
        }
    }
}

/// Calls `f(i, id, value)` for each card `id` of `cards` (the `i`-th), each value read once and
/// two by two where it can (`value_pair`: one walk over the auras on the table values both).
#[inline(always)]
fn each_value(st: &State, cards: &[u8], mut f: impl FnMut(usize, u8, i32)) {
    let pairs = cards.chunks_exact(2);
    let last = pairs.remainder().first().copied();
    for (i, pair) in pairs.enumerate() {
        let (a, b) = st.value_pair(pair[0], pair[1]);
        f(2 * i, pair[0], a);
        f(2 * i + 1, pair[1], b);
    }
    if let Some(id) = last {
        f(cards.len() - 1, id, st.value(id));
    }
}

/// Applies one operation. Table operations on a card no longer on the table do nothing.
fn apply<C: Choices>(
    st: &mut State,
    tally: &mut Tally,
    rng: &mut GameRng,
    op: Op,
    source: u8,
    log: &mut Log,
    ch: &mut C,
) {
    match op {
        // An effect that ends with its source starts only if the source is still face up on the
        // table (an earlier instance of the batch may have hidden or removed it: it would end at
        // once).
        Op::Modify { target, amount, while_source }
            if st.on_table(target) && stays(st, source, while_source) =>
        {
            st.timed.push(Timed { target, source, amount, set: false, times: false, while_source });
        }
        Op::Set { target, to, while_source } if st.on_table(target) && stays(st, source, while_source) => {
            st.timed.push(Timed { target, source, amount: to, set: true, times: false, while_source });
        }
        Op::Multiply { target, by, while_source }
            if st.on_table(target) && stays(st, source, while_source) =>
        {
            st.timed.push(Timed { target, source, amount: by, set: false, times: true, while_source });
        }
        Op::Counter { target, amount } if st.on_table(target) => {
            // Kept by sign: a -1 on a card with a +1 counter joins it, it does not cancel it.
            let kind = usize::from(amount < 0);
            let c = &mut st.counters[target as usize];
            tally.opposed_counters += u64::from(c[1 - kind] != 0);
            c[kind] = c[kind].saturating_add(i32::from(amount));
        }
        Op::Clear { target, sign } if st.on_table(target) => {
            let c = &mut st.counters[target as usize];
            match sign {
                Sign::Any => *c = [0; 2],
                Sign::Plus => c[0] = 0,
                Sign::Minus => c[1] = 0,
            }
        }
        Op::Destroy { target } if st.on_table(target) => {
            let snap = st.snap(target);
            tally.effects_ended += st.end_lasting(target) as u64;
            let owner = st.lift(target, tally);
            st.piles[owner].push(target);
            log.push(st, Happened::Destroyed, snap);
        }
        Op::Return { target } if st.on_table(target) => {
            tally.effects_ended += st.end_lasting(target) as u64;
            let owner = st.lift(target, tally);
            st.hands[owner].push(target);
        }
        Op::Swap { a, b } if st.on_table(a) && st.on_table(b) => {
            let (pa, pb) = (st.pos[a as usize] as usize, st.pos[b as usize] as usize);
            // Each card takes the other's place in its stack; the cards over and under stay.
            if pa != pb {
                for p in [pa, pb] {
                    tally.stack_swaps += u64::from(st.depth(p / SEATS, p % SEATS) > 1);
                }
            }
            const HELD: u8 = NONE - 1;
            st.replace_in_place(pa, a, HELD);
            st.replace_in_place(pb, b, a);
            st.replace_in_place(pa, HELD, b);
            st.pos[a as usize] = pb as u8;
            st.pos[b as usize] = pa as u8;
            log.moves.push((a, pa as u8));
            log.moves.push((b, pb as u8));
            if pa % SEATS != pb % SEATS {
                tally.control_changes += 2;
            }
        }
        Op::Reveal { target } if st.on_table(target) && !st.is_face_up(target) => {
            if st.turn_up(target) {
                tally.re_reveals += 1;
            }
            log.push(st, Happened::Revealed, st.snap(target));
        }
        Op::Hide { target } if st.on_table(target) => tally.effects_ended += st.turn_down(target) as u64,
        Op::Draw { seats, n } => {
            let heard = st.armed[Trigger::Drawn as usize] & st.face_up != 0;
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                for _ in 0..n {
                    if let Some(id) = st.draw(seat, tally)
                        && heard
                    {
                        log.push(st, Happened::Drawn, st.snap_off(id, seat));
                    }
                }
            }
        }
        Op::Place { seats, slot, pick, up } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                if st.hands[seat].is_empty() {
                    continue;
                }
                let slot = slot as usize;
                if !st.has_room(slot, seat) {
                    tally.place_refused += 1;
                    continue;
                }
                let i = discard_index(st, seat, pick, rng, ch);
                let id = st.hands[seat].remove(i);
                // Placed from hand, as a turn places: the card is played this round.
                st.placed |= 1 << id;
                tally.stacked_cards += u64::from(st.slots[slot][seat] != NONE);
                st.set_down(id, slot, seat);
                log.push(st, Happened::Placed, st.snap(id));
                if up {
                    tally.re_reveals += u64::from(st.turn_up(id));
                    log.push(st, Happened::Revealed, st.snap(id));
                }
            }
        }
        Op::Move { target, slot } if st.on_table(target) => {
            let from = st.pos[target as usize];
            let side = from as usize % SEATS;
            let slot = slot as usize;
            if slot * SEATS + side == from as usize {
                return;
            }
            if !st.has_room(slot, side) {
                tally.place_refused += 1;
                return;
            }
            st.leave_place(target, tally);
            tally.stacked_cards += u64::from(st.slots[slot][side] != NONE);
            st.set_down(target, slot, side);
            log.moves.push((target, from));
        }
        Op::Look { seats, bottom } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                let deck = st.decks[seat].as_mut_slice();
                if let Some(&top) = deck.last()
                    && bottom.holds(st.pools.printed[top as usize] as i32)
                {
                    // The top is the end: turning the deck by one puts it first, at the bottom.
                    deck.rotate_right(1);
                    tally.bottomed += 1;
                }
            }
        }
        Op::Recover { seats, n, pick } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                for _ in 0..n {
                    let pile = st.piles[seat].as_slice();
                    if pile.is_empty() {
                        break;
                    }
                    let printed = |i: usize| st.pools.printed[pile[i] as usize];
                    let i = match pick {
                        DiscardPick::Random => below(rng, pile.len() as u32) as usize,
                        DiscardPick::Lowest => {
                            (0..pile.len()).fold(0, |b, i| if printed(i) < printed(b) { i } else { b })
                        }
                        _ => (0..pile.len()).fold(0, |b, i| if printed(i) > printed(b) { i } else { b }),
                    };
                    let id = st.piles[seat].remove(i);
                    st.hands[seat].push(id);
                }
            }
        }
        Op::Shuffle { seats } => {
            // The game's chance stream: a shuffle by card text never shifts the seats' streams.
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                shuffle(rng, st.decks[seat].as_mut_slice());
            }
        }
        Op::Discard { seats, n, pick } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                for _ in 0..n {
                    if st.hands[seat].is_empty() {
                        break;
                    }
                    let i = discard_index(st, seat, pick, rng, ch);
                    let id = st.hands[seat].remove(i);
                    st.piles[owner(id)].push(id);
                    if st.armed[Trigger::Discarded as usize] & st.face_up != 0 {
                        log.push(st, Happened::Discarded, st.snap_off(id, seat));
                    }
                }
            }
        }
        Op::LowerWins { slot } => st.lower_wins |= 1 << slot,
        Op::WinTies { slot, seat } => st.ties_to[slot as usize] = seat,
        Op::Points { seats, amount } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                st.points[seat] += amount as i32;
            }
        }
        _ => {}
    }
}

/// The 0-based slot a rule-changing effect names: its `slot` (1-9), or the source's (0).
fn slot_of_rule(slot: u8, ctx: &Ctx) -> u8 {
    if slot == 0 { ctx.slot as u8 } else { slot - 1 }
}

/// Whether an effect from `source` may start: one that ends with its source only while the source
/// lies face up on the table (an earlier instance of its batch may have hidden or removed it).
#[inline]
fn stays(st: &State, source: u8, while_source: bool) -> bool {
    !while_source || (st.on_table(source) && st.is_face_up(source))
}

/// Which hand card `seat` discards: at random, by printed value (the first of equals), or as
/// the discarding player chooses (`choose`).
fn discard_index<C: Choices>(
    st: &State,
    seat: usize,
    pick: DiscardPick,
    rng: &mut GameRng,
    ch: &mut C,
) -> usize {
    let hand = st.hands[seat].as_slice();
    let printed = |i: usize| st.pools.printed[hand[i] as usize];
    match pick {
        DiscardPick::Random => below(rng, hand.len() as u32) as usize,
        DiscardPick::Highest => (0..hand.len()).fold(0, |b, i| if printed(i) > printed(b) { i } else { b }),
        DiscardPick::Lowest => (0..hand.len()).fold(0, |b, i| if printed(i) < printed(b) { i } else { b }),
        DiscardPick::Choose => {
            let i = ch.discard(st, seat);
            assert!(i < hand.len(), "seat {seat} discarded hand card {i} of {}", hand.len());
            i
        }
    }
}
