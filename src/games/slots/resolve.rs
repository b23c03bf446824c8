//! The resolution engine of Card Wars (`docs/rules/slots.md`, "When abilities act"): which
//! abilities a moment triggers, their batches by printed value, the snapshot each batch reads,
//! conflicts and fizzles, applying effects, and the moments their events start in turn.
//!
//! A moment is a list of instances (one card's abilities triggered by one event). They resolve
//! in batches of equal printed value, lowest first. Every instance of a batch is planned from the
//! state at the batch's start (targets, conditions, counts, picks), into a flat list of
//! operations; instances of different cards whose operations touch the same card, one of them
//! not additive, or that draw for and discard from the same player, fizzle; the rest apply in
//! table order. Cards destroyed or turned up make the next moment, until `MAX_NESTED` nested
//! moments have passed. All buffers live in the `Resolver` and are reused: no allocation per
//! slot in the hot loop.

use super::card::{NONE, SEATS, SLOTS, owner};
use super::cardset::{DiscardPick, Duration, Effect, Pick, Player, Selector, Trigger};
use super::choices::{Ask, Choices, Places};
use super::ops::{Op, Teller, Told};
use super::table::{State, Tally, Timed};
use super::values::{Ctx, Snap};
use crate::seed::{GameRng, below};

/// Nested moments (events of events) resolved before the rest is dropped (`cascade_cut`).
pub const MAX_NESTED: usize = 8;

/// Something a card did that other abilities may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Revealed(Snap),
    Destroyed(Snap),
}

/// One card's abilities triggered by one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    pub source: u8,
    pub on: Trigger,
    pub event: Option<Snap>,
    /// A destroyed card's own last words: read from where it lay.
    pub from_pile: Option<Snap>,
    /// Collection order: the last key of every order below.
    order: u16,
}

/// An instance planned from its batch's snapshot: its operations and what they touch.
#[derive(Clone, Copy, Debug)]
struct Plan {
    source: u8,
    order: u16,
    slot: u8,
    side: u8,
    first: u16,
    end: u16,
    /// Cards an order-dependent operation touches (destroy, return, swap, set, reveal, hide, clear).
    hard: u64,
    /// Cards a modifier or counter touches.
    soft: u64,
    draws: u8,
    discards: u8,
    fizzled: bool,
}

impl Plan {
    fn conflicts(&self, o: &Plan) -> bool {
        self.source != o.source
            && ((self.hard & (o.hard | o.soft)) | (o.hard & self.soft) != 0
                || self.draws & o.discards != 0
                || self.discards & o.draws != 0)
    }
}

/// The resolution engine's working memory, reused from moment to moment.
#[derive(Clone, Debug, Default)]
pub struct Resolver {
    now: Vec<Instance>,
    events: Vec<Event>,
    plans: Vec<Plan>,
    ops: Vec<Op>,
    found: Vec<u8>,
}

impl Resolver {
    pub fn new() -> Resolver {
        Resolver {
            now: Vec::with_capacity(64),
            events: Vec::with_capacity(64),
            plans: Vec::with_capacity(64),
            ops: Vec::with_capacity(256),
            found: Vec::with_capacity(32),
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
        if on == Trigger::SlotScored {
            let scored = st.slots[st.scoring as usize];
            let bit = |id: u8| if id == NONE { 0 } else { 1u64 << id };
            cards &= bit(scored[0]) | bit(scored[1]);
        }
        if cards == 0 {
            return;
        }
        // By card id: a fixed order (the batches and the application put them in their own).
        while cards != 0 {
            let id = cards.trailing_zeros() as u8;
            cards &= cards - 1;
            if self.fires_now(st, id, on) {
                self.push(Instance { source: id, on, event: None, from_pile: None, order: 0 });
            }
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
        self.now.clear();
        self.events.clear();
        for &id in cards.iter().filter(|&&id| id != NONE && st.on_table(id)) {
            self.events.push(Event::Revealed(st.snap(id)));
        }
        self.triggered_by_events(st);
        self.cascade(st, tally, rng, narr, ch);
    }

    /// Whether a per-turn ability of card `id` acts this turn.
    fn fires_now(&self, st: &State, id: u8, on: Trigger) -> bool {
        if !on.per_turn() {
            return true;
        }
        let set = st.set.as_ref().expect("text needs a set");
        set.abilities_of(st.pools.design[id as usize])
            .iter()
            .any(|a| a.on == on && (a.turns.0..=a.turns.1).contains(&st.turn))
    }

    fn push(&mut self, mut inst: Instance) {
        inst.order = self.now.len() as u16;
        self.now.push(inst);
    }

    /// Resolves the moment in `now`, then each moment its events start, up to `MAX_NESTED`.
    fn cascade<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        narr: &mut N,
        ch: &mut C,
    ) {
        let mut nested = 0;
        loop {
            self.resolve_moment(st, tally, rng, narr, ch);
            if self.events.is_empty() {
                return;
            }
            if nested == MAX_NESTED {
                tally.cascade_cut += self.events.len() as u64;
                if N::ON {
                    narr.tell(st, Told::CascadeCut(self.events.len()));
                }
                self.events.clear();
                return;
            }
            nested += 1;
            self.triggered_by_events(st);
        }
    }

    /// The instances the queued events trigger (the events are consumed).
    fn triggered_by_events(&mut self, st: &State) {
        self.now.clear();
        let Some(set) = st.set.as_ref() else {
            return self.events.clear();
        };
        for i in 0..self.events.len() {
            let (snap, own, watch) = match self.events[i] {
                Event::Revealed(s) => (s, Trigger::Reveal, Trigger::Revealed),
                Event::Destroyed(s) => (s, Trigger::Destroyed, Trigger::Destroyed),
            };
            let id = snap.id;
            if own == Trigger::Reveal && st.acts_on(id, Trigger::Reveal) {
                self.push(Instance { source: id, on: own, event: Some(snap), from_pile: None, order: 0 });
            }
            // A destroyed card keeps only its own last words, and only if it had text showing.
            if own == Trigger::Destroyed
                && snap.up
                && let Some(d) = st.design(id)
                && set
                    .abilities_of(d)
                    .iter()
                    .any(|a| a.on == Trigger::Destroyed && a.watch == Selector::SOURCE)
            {
                self.push(Instance {
                    source: id,
                    on: own,
                    event: Some(snap),
                    from_pile: Some(snap),
                    order: 0,
                });
            }
            let mut watchers = st.armed[watch as usize] & st.face_up & !(1u64 << id);
            while watchers != 0 {
                let w = watchers.trailing_zeros() as u8;
                watchers &= watchers - 1;
                {
                    let pos = st.pos[w as usize] as usize;
                    let ctx = Ctx { source: w, slot: pos / SEATS, side: pos % SEATS, event: Some(snap) };
                    let abilities = set.abilities_of(st.pools.design[w as usize]);
                    if abilities.iter().any(|a| a.on == watch && st.watches(&a.watch, &ctx, &snap)) {
                        self.push(Instance {
                            source: w,
                            on: watch,
                            event: Some(snap),
                            from_pile: None,
                            order: 0,
                        });
                    }
                }
            }
        }
        self.events.clear();
    }

    /// Resolves `now` batch by batch, lowest printed value first.
    fn resolve_moment<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        narr: &mut N,
        ch: &mut C,
    ) {
        let printed = st.pools.printed;
        self.now.sort_unstable_by_key(|i| (printed[i.source as usize], i.order));
        let mut start = 0;
        while start < self.now.len() {
            let p = printed[self.now[start].source as usize];
            let end =
                start + self.now[start..].iter().take_while(|i| printed[i.source as usize] == p).count();
            self.batch(st, tally, rng, start..end, narr, ch);
            start = end;
        }
        self.now.clear();
    }

    /// One batch: plan every instance from the same snapshot, fizzle the conflicts, apply the rest.
    fn batch<N: Teller, C: Choices>(
        &mut self,
        st: &mut State,
        tally: &mut Tally,
        rng: &mut GameRng,
        range: std::ops::Range<usize>,
        narr: &mut N,
        ch: &mut C,
    ) {
        self.plans.clear();
        self.ops.clear();
        for k in range {
            let inst = self.now[k];
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
            tally.declined += self.plan(st, rng, &inst, &ctx, ch);
        }
        let n = self.plans.len();
        for x in 0..n {
            for y in x + 1..n {
                if self.plans[x].conflicts(&self.plans[y]) {
                    self.plans[x].fizzled = true;
                    self.plans[y].fizzled = true;
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
                    apply(st, tally, rng, self.ops[o as usize], plan.source, &mut self.events, ch);
                }
            }
        }
        if N::ON && n > 0 {
            narr.tell(st, Told::Values);
        }
    }

    /// Plans one instance: the abilities its trigger fires, in file order, whose conditions hold
    /// (a "you may" one only if its controller takes it). Returns the abilities declined.
    fn plan<C: Choices>(
        &mut self,
        st: &State,
        rng: &mut GameRng,
        inst: &Instance,
        ctx: &Ctx,
        ch: &mut C,
    ) -> u64 {
        let mut declined = 0;
        let set = st.set.as_ref().expect("text needs a set");
        let first = self.ops.len() as u16;
        let mut plan = Plan {
            source: inst.source,
            order: inst.order,
            slot: ctx.slot as u8,
            side: ctx.side as u8,
            first,
            end: first,
            hard: 0,
            soft: 0,
            draws: 0,
            discards: 0,
            fizzled: false,
        };
        for a in set.abilities_of(st.pools.design[inst.source as usize]) {
            let fires = a.on == inst.on
                && (!inst.on.per_turn() || (a.turns.0..=a.turns.1).contains(&st.turn))
                && match (inst.on.watches(), inst.from_pile, inst.event) {
                    (true, Some(_), _) => a.watch == Selector::SOURCE,
                    (true, None, Some(e)) => a.watch != Selector::SOURCE && st.watches(&a.watch, ctx, &e),
                    _ => true,
                };
            if fires && a.conds().all(|c| st.holds(c, ctx)) {
                let before = (self.ops.len(), plan);
                self.plan_effect(st, rng, &a.effect, ctx, &mut plan, ch);
                if a.optional && !self.taken(st, &a.effect, ctx, before.0, ch) {
                    self.ops.truncate(before.0);
                    plan = before.1;
                    declined += 1;
                }
            }
        }
        plan.end = self.ops.len() as u16;
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
                | Op::Clear { target }
                | Op::Destroy { target }
                | Op::Return { target }
                | Op::Reveal { target }
                | Op::Hide { target } => (target, NONE),
                Op::Swap { a, b } => (a, b),
                Op::Draw { .. } | Op::Discard { .. } | Op::Points { .. } => (NONE, NONE),
            };
            for id in [a, b].into_iter().filter(|&id| id != NONE) {
                at.push(st.pos[id as usize]);
            }
        }
        ch.take(st, &ask(ctx, effect, 1), &at)
    }

    /// The operations of one effect, from the snapshot, and what they touch.
    fn plan_effect<C: Choices>(
        &mut self,
        st: &State,
        rng: &mut GameRng,
        effect: &Effect,
        ctx: &Ctx,
        plan: &mut Plan,
        ch: &mut C,
    ) {
        let mut found = std::mem::take(&mut self.found);
        let mut pick = |sel: &Selector, found: &mut Vec<u8>| {
            targets(st, sel, ctx, rng, found, |from, out| ch.targets(st, &ask(ctx, effect, sel.n), from, out))
        };
        let times = |per: &Option<Selector>| per.map_or(1, |p| st.count(&p, ctx) as i16);
        let seats = |p: Player| match p {
            Player::You => 1u8 << ctx.side,
            Player::Opp => 1u8 << (1 - ctx.side),
            Player::Both => 3,
        };
        match *effect {
            Effect::Modify { target, amount, per, duration } => {
                let amount = amount as i16 * times(&per);
                let while_source = duration == Duration::Source;
                pick(&target, &mut found);
                for &t in found.iter().filter(|_| amount != 0) {
                    self.ops.push(Op::Modify { target: t, amount, while_source });
                    plan.soft |= 1 << t;
                }
            }
            Effect::Set { target, to, duration } => {
                let while_source = duration == Duration::Source;
                pick(&target, &mut found);
                for &t in &found {
                    self.ops.push(Op::Set { target: t, to, while_source });
                    plan.hard |= 1 << t;
                }
            }
            Effect::Counter { target, amount, per } => {
                let amount = amount as i16 * times(&per);
                pick(&target, &mut found);
                for &t in found.iter().filter(|_| amount != 0) {
                    self.ops.push(Op::Counter { target: t, amount });
                    plan.soft |= 1 << t;
                }
            }
            Effect::ClearCounters { target }
            | Effect::Destroy { target }
            | Effect::Return { target }
            | Effect::Reveal { target }
            | Effect::Hide { target } => {
                pick(&target, &mut found);
                for &t in &found {
                    self.ops.push(match effect {
                        Effect::ClearCounters { .. } => Op::Clear { target: t },
                        Effect::Destroy { .. } => Op::Destroy { target: t },
                        Effect::Return { .. } => Op::Return { target: t },
                        Effect::Reveal { .. } => Op::Reveal { target: t },
                        _ => Op::Hide { target: t },
                    });
                    plan.hard |= 1 << t;
                }
            }
            Effect::Swap { a, b } => {
                if let Some((a, b)) = swap_pair(st, &a, &b, ctx, rng, effect, ch, &mut found)
                    && a != b
                {
                    self.ops.push(Op::Swap { a, b });
                    plan.hard |= (1 << a) | (1 << b);
                }
            }
            Effect::Draw { player, amount } => {
                let s = seats(player);
                self.ops.push(Op::Draw { seats: s, n: amount });
                plan.draws |= s;
            }
            Effect::Discard { player, amount, pick } => {
                let s = seats(player);
                self.ops.push(Op::Discard { seats: s, n: amount, pick });
                plan.discards |= s;
            }
            Effect::Points { player, amount, per } => {
                let amount = amount as i16 * times(&per);
                if amount != 0 {
                    self.ops.push(Op::Points { seats: seats(player), amount });
                }
            }
        }
        self.found = found;
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
        out.as_slice().first().map(|&p| st.slots[p as usize / SEATS][p as usize % SEATS])
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
            out.clear();
            let ids = chosen.as_slice().iter().map(|&p| st.slots[p as usize / SEATS][p as usize % SEATS]);
            out.extend(ids.take(n));
        }
        Pick::Choose => {}
        Pick::Random => {
            for i in 0..n {
                let j = i + below(rng, (out.len() - i) as u32) as usize;
                out.swap(i, j);
            }
            out.truncate(n);
        }
        Pick::Highest | Pick::Lowest => {
            // A random order first, so that a stable sort by value breaks ties at random.
            for i in (1..out.len()).rev() {
                let j = below(rng, i as u32 + 1) as usize;
                out.swap(i, j);
            }
            // Each value once (a value reads every static on the table), then a stable
            // insertion sort of at most 18 cards.
            let high = sel.pick == Pick::Highest;
            let mut keyed = [(0i32, NONE); 2 * SLOTS];
            for (k, &id) in keyed.iter_mut().zip(out.iter()) {
                let v = st.value(id);
                *k = (if high { -v } else { v }, id);
            }
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

/// Applies one operation. Table operations on a card no longer on the table do nothing.
fn apply<C: Choices>(
    st: &mut State,
    tally: &mut Tally,
    rng: &mut GameRng,
    op: Op,
    source: u8,
    events: &mut Vec<Event>,
    ch: &mut C,
) {
    match op {
        Op::Modify { target, amount, while_source } if st.on_table(target) => {
            st.timed.push(Timed { target, source, amount, set: false, while_source });
        }
        Op::Set { target, to, while_source } if st.on_table(target) => {
            st.timed.push(Timed { target, source, amount: to, set: true, while_source });
        }
        Op::Counter { target, amount } if st.on_table(target) => st.counters[target as usize] += amount,
        Op::Clear { target } if st.on_table(target) => st.counters[target as usize] = 0,
        Op::Destroy { target } if st.on_table(target) => {
            let snap = st.snap(target);
            let owner = st.lift(target);
            st.piles[owner].push(target);
            events.push(Event::Destroyed(snap));
        }
        Op::Return { target } if st.on_table(target) => {
            let owner = st.lift(target);
            st.hands[owner].push(target);
        }
        Op::Swap { a, b } if st.on_table(a) && st.on_table(b) => {
            let (pa, pb) = (st.pos[a as usize] as usize, st.pos[b as usize] as usize);
            st.slots[pa / SEATS][pa % SEATS] = b;
            st.slots[pb / SEATS][pb % SEATS] = a;
            st.pos[a as usize] = pb as u8;
            st.pos[b as usize] = pa as u8;
            if pa % SEATS != pb % SEATS {
                tally.control_changes += 2;
            }
        }
        Op::Reveal { target } if st.on_table(target) && !st.is_face_up(target) => {
            if st.turn_up(target) {
                tally.re_reveals += 1;
            }
            events.push(Event::Revealed(st.snap(target)));
        }
        Op::Hide { target } if st.on_table(target) => st.face_up &= !(1 << target),
        Op::Draw { seats, n } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                for _ in 0..n {
                    st.draw(seat, tally);
                }
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
                }
            }
        }
        Op::Points { seats, amount } => {
            for seat in (0..SEATS).filter(|s| seats >> s & 1 == 1) {
                st.points[seat] += amount as i32;
            }
        }
        _ => {}
    }
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
