//! Reading the table of Card Wars when cards carry text: a card's value (printed or face-down 0,
//! the latest set, static and timed modifiers, counters), which cards a selector finds, and
//! whether a condition holds, all seen from an ability's source (`docs/cards.md`).
//!
//! Everything here only reads the state. A static ability never reads a value (the parser
//! refuses it), so computing a value never needs another value and never recurses.

use super::card::{NONE, SEATS, SLOTS, TEXTLESS};
use super::cardset::{Ability, Base, Cond, Effect, Face, OcState, Outcome, Selector, Side, Slots, Trigger};
use super::table::{State, Taken};

/// A card as an event saw it: where it lay, face and value, just before it left or as it turned up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snap {
    pub id: u8,
    pub slot: u8,
    pub side: u8,
    pub up: bool,
    /// Its value then; kept only when some `watch` of the set reads values (else 0).
    pub value: i32,
    /// Whether it carried a counter (of either sign).
    pub counters: bool,
    /// Whether it lay on top of its place (a card under another is not the card of its place
    /// for a watcher by side and slots).
    pub top: bool,
}

/// Where an ability is read from: its source, the place it lies (or lay, for a destroyed card's
/// last words), and the card its event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctx {
    pub source: u8,
    pub slot: usize,
    /// The side the source lies on: "you".
    pub side: usize,
    pub event: Option<Snap>,
}

/// One place of the table holding a card, as a selector tests it.
#[derive(Clone, Copy, Debug)]
struct Place {
    id: u8,
    slot: usize,
    side: usize,
    up: bool,
    /// Carries a counter of either sign.
    counters: bool,
}

impl State {
    /// A card's value: on the table, the latest set (else printed face up, 0 face down) plus
    /// static and timed modifiers and counters; off the table, its printed value.
    #[inline(always)]
    pub fn value(&self, id: u8) -> i32 {
        if !self.text {
            return if self.is_face_up(id) { self.pools.printed[id as usize] as i32 } else { 0 };
        }
        self.value_with_text(id)
    }

    /// `value` when cards carry text.
    fn value_with_text(&self, id: u8) -> i32 {
        let pos = self.pos[id as usize];
        if pos == NONE {
            return self.pools.printed[id as usize] as i32;
        }
        let [statics] = self.statics_of([(id, pos as usize / SEATS, pos as usize % SEATS)]);
        self.value_from(id, statics)
    }

    /// The values of two cards (the two sides of a slot being scored): `value` of each, the
    /// auras on the table read once for both (a scoring reads every place's value, and each value
    /// reads every aura).
    #[inline]
    pub fn value_pair(&self, a: u8, b: u8) -> (i32, i32) {
        let (pa, pb) = (self.pos[a as usize], self.pos[b as usize]);
        if !self.text || pa == NONE || pb == NONE {
            return (self.value(a), self.value(b));
        }
        let place = |id: u8, pos: u8| (id, pos as usize / SEATS, pos as usize % SEATS);
        let [sa, sb] = self.statics_of([place(a, pa), place(b, pb)]);
        (self.value_from(a, sa), self.value_from(b, sb))
    }

    /// The value of card `id` on the table whose static modifiers sum to `statics`: the latest
    /// set (else printed face up, 0 face down) plus timed modifiers, counters and statics, times
    /// the multipliers.
    #[inline]
    fn value_from(&self, id: u8, statics: i32) -> i32 {
        let printed = self.pools.printed[id as usize] as i32;
        let mut base = if self.is_face_up(id) { printed } else { 0 };
        let mut add = self.counter_sum(id);
        let mut times = 1i32;
        // A timed effect is in `timed` only while its source stays face up on the table (or, from
        // last words, for the round).
        for t in self.timed.iter().filter(|t| t.target == id) {
            if t.set {
                base = t.amount as i32;
            } else if t.times {
                times = times.saturating_mul(t.amount as i32);
            } else {
                add += t.amount as i32;
            }
        }
        let sum = base + add + statics;
        // Multipliers act last, on everything added (saturating: no number of them wraps).
        if times == 1 { sum } else { sum.saturating_mul(times) }
    }

    /// The sum of the static modifiers on each card `(id, slot, side)` of `cards` (`statics_on`),
    /// out of line: the aura walk is most of a value's cost and large.
    #[inline(never)]
    fn statics_of<const N: usize>(&self, cards: [(u8, usize, usize); N]) -> [i32; N] {
        let mut sums = [0; N];
        self.each_static_of(cards, |k, _, by| sums[k] += by);
        sums
    }

    /// The design of card `id`, if it has text.
    #[inline]
    pub fn design(&self, id: u8) -> Option<u16> {
        let d = self.pools.design[id as usize];
        (d != TEXTLESS).then_some(d)
    }

    /// Whether card `id` lies face up on the table with an ability of trigger `t`.
    #[inline]
    pub fn acts_on(&self, id: u8, t: Trigger) -> bool {
        match (self.design(id), &self.set) {
            (Some(d), Some(set)) => self.is_face_up(id) && set.has(d, t),
            _ => false,
        }
    }

    /// The sum of the static modifiers that apply now to the card at (`slot`, `side`): its own
    /// (while it lies face up) and the auras of the face-up cards on the table.
    pub fn statics_on(&self, id: u8, slot: usize, side: usize) -> i32 {
        let [sum] = self.statics_of([(id, slot, side)]);
        sum
    }

    /// Each static modifier of `statics_on` with its source: `add(source, amount)` (the amount
    /// may be 0 where a condition fails), so the story can name what moves a value.
    pub fn each_static(&self, id: u8, slot: usize, side: usize, mut add: impl FnMut(u8, i32)) {
        self.each_static_of([(id, slot, side)], |_, src, by| add(src, by));
    }

    /// `each_static` of each card `(id, slot, side)` of `cards` at once, `add(k, source, amount)`
    /// for the `k`-th: the aura sources on the table are walked once for all of them. Always
    /// inlined, so that a value costs one call (a value is read most of all).
    #[inline(always)]
    fn each_static_of<const N: usize>(
        &self,
        cards: [(u8, usize, usize); N],
        mut add: impl FnMut(usize, u8, i32),
    ) {
        let Some(set) = &self.set else { return };
        let own = self.armed[Trigger::Static as usize] & self.face_up;
        for (k, &(id, slot, side)) in cards.iter().enumerate() {
            if own >> id & 1 == 1 {
                let ctx = Ctx { source: id, slot, side, event: None };
                for a in set.own_statics.of(self.pools.design[id as usize]) {
                    add(k, id, self.static_amount(a, &ctx));
                }
            }
        }
        // Only the face-up cards on the table with an aura, one bit each.
        let mut sources = self.auras & self.face_up;
        if sources == 0 {
            return;
        }
        // A selector naming one slot names the top card of each place (`Selector::names_tops`);
        // one over a whole side or several slots reaches a card under another too.
        let targets = cards.map(|(id, slot, side)| {
            let place = Place { id, slot, side, up: self.is_face_up(id), counters: self.carries(id) };
            (place, self.slots[slot][side] != id)
        });
        while sources != 0 {
            let src = sources.trailing_zeros() as u8;
            sources &= sources - 1;
            let pos = self.pos[src as usize] as usize;
            let ctx = Ctx { source: src, slot: pos / SEATS, side: pos % SEATS, event: None };
            let (auras, selectors) = set.auras.with_targets(self.pools.design[src as usize]);
            for (a, sel) in auras.iter().zip(selectors) {
                for (k, &(target, covered)) in targets.iter().enumerate() {
                    // A cheap refusal first: most auras name one side.
                    let out_of_reach = covered && sel.names_tops()
                        || match sel.side {
                            Side::You => target.side != ctx.side,
                            Side::Opp => target.side == ctx.side,
                            Side::Both => false,
                        };
                    if !out_of_reach && self.fits(sel, &ctx, target) {
                        add(k, src, self.static_amount(a, &ctx));
                    }
                }
            }
        }
    }

    /// What static modifier `a`, read from `ctx`, adds to a card it targets: its amount (times
    /// its `per` count) if its conditions hold, else 0.
    #[inline]
    fn static_amount(&self, a: &Ability, ctx: &Ctx) -> i32 {
        let Effect::Modify { amount, per, .. } = &a.effect else { return 0 };
        if !a.conds().all(|c| self.holds(c, ctx)) {
            return 0;
        }
        let times = per.as_ref().map_or(1, |p| self.count(p, ctx) as i32);
        *amount as i32 * times
    }

    /// The card on the other side of the source's slot.
    #[inline]
    pub fn opposing(&self, ctx: &Ctx) -> u8 {
        self.slots[ctx.slot][1 - ctx.side]
    }

    /// The slot a `current` selector means: the turn's slot, or the slot being scored.
    #[inline]
    fn current_slot(&self) -> Option<usize> {
        match self.scoring {
            NONE if self.turn >= 1 => Some(self.turn as usize - 1),
            NONE => None,
            s if (s as usize) < SLOTS => Some(s as usize),
            _ => None,
        }
    }

    /// Whether the card at `c` is one `sel`'s filter keys accept (its pick aside).
    #[inline]
    fn fits(&self, sel: &Selector, ctx: &Ctx, c: Place) -> bool {
        self.fits_valued(sel, ctx, c, |id| self.value(id))
    }

    /// `fits`, with `value` giving a card's value where the filter asks for one (a watch reads
    /// the value its event saw).
    #[inline]
    fn fits_valued(&self, sel: &Selector, ctx: &Ctx, c: Place, value: impl FnOnce(u8) -> i32) -> bool {
        match sel.base {
            Base::Source => return c.id == ctx.source,
            Base::Event => return ctx.event.is_some_and(|e| e.id == c.id),
            Base::Stacked => {
                return c.slot == ctx.slot
                    && c.side == ctx.side
                    && c.id != ctx.source
                    && self.fits_card_valued(sel, ctx, c, value);
            }
            // A zone is off the table: no place of the table fits it.
            Base::Hand | Base::Pile | Base::Deck => return false,
            Base::Filter => {}
        }
        let side_ok = match sel.side {
            Side::Both => true,
            Side::You => c.side == ctx.side,
            Side::Opp => c.side != ctx.side,
        };
        let s = ctx.slot as isize;
        let k = c.slot as isize;
        let slot_ok = match sel.slots {
            Slots::All => true,
            Slots::This => k == s,
            Slots::Current => self.current_slot() == Some(c.slot),
            Slots::Adjacent => (k - s).abs() == 1,
            Slots::Prev => k < s,
            Slots::Next => k > s,
            Slots::Prev1 => k == s - 1,
            Slots::Next1 => k == s + 1,
            Slots::Range(a, b) => (a as isize - 1..=b as isize - 1).contains(&k),
        };
        side_ok && slot_ok && self.fits_card_valued(sel, ctx, c, value)
    }

    /// Whether the card at `c` passes `sel`'s filter keys other than side and slots.
    #[inline]
    fn fits_card(&self, sel: &Selector, ctx: &Ctx, c: Place) -> bool {
        self.fits_card_valued(sel, ctx, c, |id| self.value(id))
    }

    /// `fits_card`, with `value` giving the card's value where the filter asks for one.
    #[inline]
    fn fits_card_valued(&self, sel: &Selector, ctx: &Ctx, c: Place, value: impl FnOnce(u8) -> i32) -> bool {
        let face_ok = match sel.face {
            Face::Any => true,
            Face::Up => c.up,
            Face::Down => !c.up,
        };
        face_ok
            && !(sel.other && c.id == ctx.source)
            && sel.counters.is_none_or(|want| c.counters == want)
            && sel.printed.is_none_or(|p| c.up && p.holds(self.pools.printed[c.id as usize] as i32))
            && sel.value.is_none_or(|v| v.holds(value(c.id)))
    }

    /// Calls `each` with every card on the table `sel`'s filter accepts, slot by slot, seat 0's
    /// side first (the pick is the resolver's business).
    pub fn matching(&self, sel: &Selector, ctx: &Ctx, mut each: impl FnMut(u8)) {
        if sel.base == Base::Stacked {
            // The source's own place (where it lies or, for last words, lay), but the source.
            self.each_in_place(ctx.slot, ctx.side, |id| {
                if id != ctx.source {
                    let c = Place {
                        id,
                        slot: ctx.slot,
                        side: ctx.side,
                        up: self.is_face_up(id),
                        counters: self.carries(id),
                    };
                    if self.fits_card(sel, ctx, c) {
                        each(id);
                    }
                }
            });
            return;
        }
        // `self` and `event` reach their card wherever it lies, under another card too.
        if let Some(id) = match sel.base {
            Base::Source => Some(ctx.source),
            Base::Event => ctx.event.map(|e| e.id),
            _ => None,
        } {
            if self.on_table(id) {
                each(id);
            }
            return;
        }
        // Only the places the filter's side and slots allow, in table order (bit
        // `slot * SEATS + side`): exactly the places `fits` would let through on those keys. A
        // filter naming one slot reads the top card of each place; any other every card there,
        // the top first, then the covered ones from the bottom (`Selector::names_tops`).
        let mut places = self.candidates(sel, ctx);
        let tops = sel.names_tops();
        if !sel.tests_each_card() {
            // No filter key beyond side and slots (most selectors): every card of those places
            // fits, with nothing of it to read.
            while places != 0 {
                let at = places.trailing_zeros() as usize;
                places &= places - 1;
                let (slot, side) = (at / SEATS, at % SEATS);
                match self.slots[slot][side] {
                    NONE => {}
                    top if tops || self.under[slot][side].is_empty() => each(top),
                    _ => self.each_in_place(slot, side, &mut each),
                }
            }
            return;
        }
        while places != 0 {
            let at = places.trailing_zeros() as usize;
            places &= places - 1;
            let (slot, side) = (at / SEATS, at % SEATS);
            let mut test = |id: u8| {
                let c = Place { id, slot, side, up: self.is_face_up(id), counters: self.carries(id) };
                if self.fits_card(sel, ctx, c) {
                    each(id);
                }
            };
            match self.slots[slot][side] {
                NONE => {}
                top if tops || self.under[slot][side].is_empty() => test(top),
                _ => self.each_in_place(slot, side, test),
            }
        }
    }

    /// The table places (bit `slot * SEATS + side`) a filter's side and slots accept, exactly as
    /// `fits` reads them.
    fn candidates(&self, sel: &Selector, ctx: &Ctx) -> u32 {
        if sel.base != Base::Filter {
            // `matching` reads the other bases itself.
            return 0;
        }
        // One bit per place of seat 0's side: the even bits of the table.
        const SIDE0: u32 = 0x15555;
        let sides = match sel.side {
            Side::Both => SIDE0 | SIDE0 << 1,
            Side::You => SIDE0 << ctx.side,
            Side::Opp => SIDE0 << (1 - ctx.side),
        };
        let slot = |k: usize| if k < SLOTS { 3u32 << (k * SEATS) } else { 0 };
        let below = |k: usize| (1u32 << (k * SEATS)) - 1;
        let s = ctx.slot;
        let slots = match sel.slots {
            Slots::All => below(SLOTS),
            Slots::This => slot(s),
            Slots::Current => self.current_slot().map_or(0, slot),
            Slots::Adjacent => slot(s + 1) | s.checked_sub(1).map_or(0, slot),
            Slots::Prev => below(s),
            Slots::Next => below(SLOTS) & !below(s + 1),
            Slots::Prev1 => s.checked_sub(1).map_or(0, slot),
            Slots::Next1 => slot(s + 1),
            Slots::Range(a, b) => (a.max(1) as usize - 1..b as usize).fold(0, |m, k| m | slot(k)),
        };
        sides & slots
    }

    /// How many cards `sel` accepts: on the table, or in the hands, piles or decks of its side.
    pub fn count(&self, sel: &Selector, ctx: &Ctx) -> usize {
        if sel.base.is_zone() {
            return self.zone_count(sel, ctx);
        }
        let mut n = 0;
        self.matching(sel, ctx, |_| n += 1);
        n
    }

    /// The cards in the hands, piles or decks of `sel`'s side, seen from `ctx`.
    fn zone_count(&self, sel: &Selector, ctx: &Ctx) -> usize {
        let zone = match sel.base {
            Base::Hand => &self.hands,
            Base::Pile => &self.piles,
            _ => &self.decks,
        };
        match sel.side {
            Side::Both => zone[0].len() + zone[1].len(),
            Side::You => zone[ctx.side].len(),
            Side::Opp => zone[1 - ctx.side].len(),
        }
    }

    /// Whether the card an event is about matches a `watch` selector, as the event saw it.
    pub fn watches(&self, sel: &Selector, ctx: &Ctx, e: &Snap) -> bool {
        match sel.base {
            Base::Source => e.id == ctx.source,
            Base::Event => true,
            Base::Hand | Base::Pile | Base::Deck => false,
            // A watch naming one slot sees the top card of each place: a card under another is
            // not seen there (a watch over a whole side or several slots sees it).
            Base::Filter if !e.top && sel.names_tops() => false,
            Base::Stacked | Base::Filter => {
                // The card as it was: its place, face and counters from the snapshot.
                let c = Place {
                    id: e.id,
                    slot: e.slot as usize,
                    side: e.side as usize,
                    up: e.up,
                    counters: e.counters,
                };
                self.fits_valued(sel, ctx, c, |_| e.value)
            }
        }
    }

    /// Whether condition `c` holds for the ability read from `ctx`.
    pub fn holds(&self, c: &Cond, ctx: &Ctx) -> bool {
        let you = ctx.side;
        let oc = self.opposing(ctx);
        match *c {
            Cond::Slot(cmp) => cmp.holds(ctx.slot as i32 + 1),
            Cond::Count(sel, cmp) => cmp.holds(self.count(&sel, ctx) as i32),
            Cond::Oc(state) => match state {
                OcState::Empty => oc == NONE,
                OcState::Present => oc != NONE,
                OcState::Up => oc != NONE && self.is_face_up(oc),
                OcState::Down => oc != NONE && !self.is_face_up(oc),
            },
            Cond::OcPrinted(cmp) => {
                oc != NONE && self.is_face_up(oc) && cmp.holds(self.pools.printed[oc as usize] as i32)
            }
            Cond::OcValue(cmp) => oc != NONE && cmp.holds(self.value(oc)),
            Cond::SelfValue(cmp) => cmp.holds(self.value(ctx.source)),
            Cond::VsOc(order) => oc != NONE && order.holds(self.value(ctx.source), self.value(oc)),
            Cond::Hand(cmp) => cmp.holds(self.hands[you].len() as i32),
            Cond::HandDiff(cmp) => cmp.holds(self.hands[you].len() as i32 - self.hands[1 - you].len() as i32),
            Cond::Lead(cmp) => cmp.holds(self.points[you] - self.points[1 - you]),
            Cond::Result(want) => match (self.taken[ctx.slot], want) {
                (Taken::Seat(s), Outcome::Won) => s == you,
                (Taken::Seat(s), Outcome::Lost) => s != you,
                (Taken::Nobody, Outcome::Tied) => true,
                _ => false,
            },
        }
    }

    /// The highest value among the other cards in the place `ctx` reads from (its stack), if any.
    pub fn stacked_high(&self, ctx: &Ctx) -> Option<i32> {
        let mut best = None;
        self.each_in_place(ctx.slot, ctx.side, |id| {
            if id != ctx.source {
                let v = self.value(id);
                best = Some(best.map_or(v, |b: i32| b.max(v)));
            }
        });
        best
    }

    /// Card `id` off the table as an event sees it (drawn or discarded by `seat`): no slot.
    pub fn snap_off(&self, id: u8, seat: usize) -> Snap {
        Snap {
            id,
            slot: NONE,
            side: seat as u8,
            up: false,
            value: self.pools.printed[id as usize] as i32,
            counters: false,
            top: true,
        }
    }

    /// Where card `id` lies now, as an event's snapshot (it must be on the table).
    #[inline]
    pub fn snap(&self, id: u8) -> Snap {
        let pos = self.pos[id as usize] as usize;
        Snap {
            id,
            slot: (pos / SEATS) as u8,
            side: (pos % SEATS) as u8,
            up: self.is_face_up(id),
            // A value costs a read of every static on the table: kept only if a watch reads it.
            value: if self.set.as_ref().is_some_and(|s| s.watches_values) { self.value(id) } else { 0 },
            counters: self.carries(id),
            top: !self.is_covered(id),
        }
    }
}
