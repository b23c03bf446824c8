//! The table of Card Wars (`docs/rules/slots.md`): the whole state of a game (the pools, this
//! round's decks, hands, piles and the nine slots, each with one place per side, which cards lie
//! face up, counters and timed effects, the rounds won so far), and the plain moves of the rules on
//! it: deal a round, draw, place, lift a card off the table, turn it up, who takes a slot.
//! Reading values lives in `values`; playing a round in `rules`.

use std::sync::Arc;

use super::card::{CARDS, FIRST_HAND, MAX_STACK, NONE, SEATS, SLOTS, Stack, Under, owner};
use super::cardset::{CardSet, TRIGGERS};
use super::pools::{DeckPolicy, Pools};
use crate::seed::{GameRng, shuffle};

/// A triggered modifier, set or factor on a card, until the round ends or its source leaves the
/// table or turns face down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timed {
    pub target: u8,
    pub source: u8,
    /// The modifier, or the value set.
    pub amount: i16,
    pub set: bool,
    /// A factor the value is multiplied by (`multiply`), not a modifier.
    pub times: bool,
    /// Ends when the source leaves the table or turns face down: every effect of a card on the
    /// table, whatever its duration; not one started by a destroyed card's last words.
    pub while_source: bool,
}

/// Per card id, what its rounds of one game did (mapped onto the per-card counters by the
/// engine): rounds in a deck, rounds placed, and of those the decisive ones, the ones its owner
/// won, and the tied ones; and the cards placed in any round of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardTally {
    pub in_deck: [u16; CARDS],
    pub played: [u16; CARDS],
    pub decisive: [u16; CARDS],
    pub won: [u16; CARDS],
    pub tied: [u16; CARDS],
    pub in_game: u64,
}

impl Default for CardTally {
    fn default() -> Self {
        let zero = [0; CARDS];
        CardTally { in_deck: zero, played: zero, decisive: zero, won: zero, tied: zero, in_game: 0 }
    }
}

impl CardTally {
    /// Counts a finished round: `kept` were the decks, `placed` the cards placed, `winner` its
    /// winner (`None`: tied).
    pub(super) fn round(&mut self, kept: &[Stack; SEATS], placed: u64, winner: Option<usize>) {
        for id in kept.iter().flat_map(|k| k.as_slice()) {
            self.in_deck[*id as usize] += 1;
        }
        self.in_game |= placed;
        let mut rest = placed;
        while rest != 0 {
            let id = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.played[id] += 1;
            match winner {
                Some(seat) => {
                    self.decisive[id] += 1;
                    self.won[id] += u16::from(owner(id as u8) == seat);
                }
                None => self.tied[id] += 1,
            }
        }
    }
}

/// Event totals of one game (mapped onto the record's counters by the engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub replayed_rounds: u64,
    pub empty_slots: u64,
    pub empty_draws: u64,
    pub sideboard_swaps: u64,
    /// Instances that fizzled in a conflict.
    pub fizzles: u64,
    /// Instances whose source was hidden or gone when its batch came.
    pub lost_triggers: u64,
    /// Events dropped at the end of a cascade: those of its last moment (`resolve::MAX_MOMENTS`),
    /// or of a moment that set off more than `resolve::MAX_EVENTS`.
    pub cascade_cut: u64,
    /// Cards that changed sides in a swap.
    pub control_changes: u64,
    /// Cards turned face up again in a round.
    pub re_reveals: u64,
    /// "You may" abilities their controller declined.
    pub declined: u64,
    /// Counters put on a card that carries counters of the other sign (kept apart, not cancelled).
    pub opposed_counters: u64,
    /// Cards already face up at their slot's reveal or when an effect would reveal them (not
    /// revealed again).
    pub already_up: u64,
    /// Timed effects (modifiers, sets, factors) ended because their source left the table or
    /// turned face down.
    pub effects_ended: u64,
    /// Watchers matched from the place they lay in at their event, which a swap then changed.
    pub watchers_moved: u64,
    /// Later abilities of a card (its second, third, ...) resolved after its earlier ones.
    pub then_steps: u64,
    /// Cards put into an occupied place: they join its stack, on top.
    pub stacked_cards: u64,
    /// Cards an effect could not put into a place: it was full, or its slot's turn had not come.
    pub place_refused: u64,
    /// Cards that became the top of their place because the card on them left it.
    pub uncovered: u64,
    /// Sides of a scored slot whose highest card, the one that counted, lay under the top.
    pub stack_scored: u64,
    /// Cards a swap took out of a stack (the cards under or over them stayed).
    pub stack_swaps: u64,
    /// Top cards of a deck a `look` put on the bottom.
    pub bottomed: u64,
    /// Pairs of instances of one batch that conflicted over a player's hand, deck or pile.
    pub zone_conflicts: u64,
    /// Events about a card under the top of its place, which watchers by side and slot do not see.
    pub covered_events: u64,
}

/// Who took a slot at scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    Seat(usize),
    Nobody,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The card set the pools come from (`None`: textless cards only).
    pub set: Option<Arc<CardSet>>,
    pub pools: Pools,
    /// Each seat's deck policy (the engine seats the line-up's for every game).
    pub deck_policy: [DeckPolicy; SEATS],
    pub max_replays: u32,
    /// Each seat's deck for this round, in pool order (the cards in play this round).
    pub kept: [Stack; SEATS],
    /// Each seat's draw pile this round; the top is the end.
    pub decks: [Stack; SEATS],
    pub hands: [Stack; SEATS],
    /// Each seat's discard pile this round.
    pub piles: [Stack; SEATS],
    /// The card in each slot on each side (`NONE`: an empty place), the top of its place when
    /// cards are stacked there. A card scores for the side it lies on.
    pub slots: [[u8; SEATS]; SLOTS],
    /// The cards under the top of each place, bottom first (empty unless an effect stacked cards).
    pub under: [[Under; SEATS]; SLOTS],
    /// Slots whose turn's placement has come this round, one bit each: effects may put cards
    /// into these only.
    pub in_play: u16,
    /// Face-up cards, one bit per card id.
    pub face_up: u64,
    /// Whether any card of the pools has an ability: without, no moment is ever looked at.
    pub text: bool,
    /// Where each card lies on the table, `slot * SEATS + side`, or `NONE`.
    pub pos: [u8; CARDS],
    /// Counters on each card, kept by sign: `[plus, minus]`, the sum of its +N counters and of its
    /// -N counters (a +1 and a -1 counter do not cancel: the card carries both). Wide
    /// enough, and added saturating, that no number of counters a card set allows wraps.
    pub counters: [[i32; 2]; CARDS],
    /// Cards that have been face up this round (so a later reveal is a re-reveal).
    pub was_up: u64,
    /// Cards placed from hand this round, one bit per card id (the per-card `played`).
    pub placed: u64,
    /// Cards that have been face up in an earlier round of this game, one bit per card id (what
    /// a deck policy that adapts knows of its opponent's pool).
    pub shown: u64,
    /// Per trigger, the cards on the table with an ability of that trigger, one bit each (they
    /// act only while face up): a moment looks at these cards only.
    pub armed: [u64; TRIGGERS],
    /// The cards on the table with a static modifier of other cards (an aura), one bit each: a
    /// value reads these sources only (and its own card's statics).
    pub auras: u64,
    /// Triggered modifiers and sets of this round.
    pub timed: Vec<Timed>,
    /// Slots whose lower card wins this round (`lower_wins`), one bit per slot.
    pub lower_wins: u16,
    /// Per slot, the seat a tie goes to this round (`win_ties`), or `NONE`.
    pub ties_to: [u8; SLOTS],
    /// Who took each slot scored so far this round.
    pub taken: [Taken; SLOTS],
    /// `NONE` outside scoring; the slot being scored (0-8); `SLOTS` at the start and end of scoring.
    pub scoring: u8,
    /// The turn in progress, 1-9; 0 before the first placement of a round.
    pub turn: u8,
    /// Points of the round in progress.
    pub points: [i32; SEATS],
    pub wins: [u8; SEATS],
    /// Tied rounds so far.
    pub ties: u32,
    /// Rounds started so far (replays included).
    pub rounds: u32,
    /// Cards each player draws when a round starts (`opening_hand`; the rules text: 5).
    pub opening_hand: u8,
    /// Whether each turn draws before placing, with no draw after the last reveal (`draw_first`,
    /// the rules' Future Suggestions); else the draw follows the reveal, after turn 9 too.
    pub draw_first: bool,
}

impl State {
    pub fn new(deck_policy: DeckPolicy, max_replays: u32) -> State {
        State {
            set: None,
            pools: Pools::default(),
            deck_policy: [deck_policy; SEATS],
            max_replays,
            kept: [Stack::default(); SEATS],
            decks: [Stack::default(); SEATS],
            hands: [Stack::default(); SEATS],
            piles: [Stack::default(); SEATS],
            slots: [[NONE; SEATS]; SLOTS],
            under: [[Under::default(); SEATS]; SLOTS],
            in_play: 0,
            face_up: 0,
            text: false,
            pos: [NONE; CARDS],
            counters: [[0; 2]; CARDS],
            was_up: 0,
            placed: 0,
            shown: 0,
            armed: [0; TRIGGERS],
            auras: 0,
            lower_wins: 0,
            ties_to: [NONE; SLOTS],
            timed: Vec::with_capacity(64),
            taken: [Taken::Nobody; SLOTS],
            scoring: NONE,
            turn: 0,
            points: [0; SEATS],
            wins: [0; SEATS],
            ties: 0,
            rounds: 0,
            opening_hand: FIRST_HAND as u8,
            draw_first: false,
        }
    }

    /// A new game on the pools as dealt: no round played yet.
    pub fn reset_game(&mut self) {
        self.wins = [0; SEATS];
        self.ties = 0;
        self.rounds = 0;
        self.turn = 0;
        self.shown = 0;
        for seat in 0..SEATS {
            self.kept[seat].clear();
        }
        self.clear_table();
    }

    fn clear_table(&mut self) {
        self.slots = [[NONE; SEATS]; SLOTS];
        self.in_play = 0;
        self.face_up = 0;
        self.points = [0; SEATS];
        self.scoring = NONE;
        self.pos = [NONE; CARDS];
        self.was_up = 0;
        self.placed = 0;
        self.armed = [0; TRIGGERS];
        self.auras = 0;
        if self.text {
            self.under = [[Under::default(); SEATS]; SLOTS];
            self.counters = [[0; 2]; CARDS];
            self.timed.clear();
            self.taken = [Taken::Nobody; SLOTS];
            self.lower_wins = 0;
            self.ties_to = [NONE; SLOTS];
        }
        for seat in 0..SEATS {
            self.decks[seat].clear();
            self.hands[seat].clear();
            self.piles[seat].clear();
        }
    }

    #[inline]
    pub fn is_face_up(&self, id: u8) -> bool {
        self.face_up >> id & 1 == 1
    }

    /// The cards of the round ending face up or turned up in it, added to `shown`.
    pub fn remember_shown(&mut self) {
        self.shown |= self.was_up | self.face_up;
    }

    /// Every card back to its owner, the decks kept (chosen at the game's first round; a policy
    /// that adapts changes its deck before this, `rules`), shuffled (seat 0's first), and five
    /// cards drawn each.
    pub fn start_round(&mut self, rng: &mut GameRng, tally: &mut Tally) {
        self.clear_table();
        self.rounds += 1;
        self.turn = 0;
        for seat in 0..SEATS {
            if self.kept[seat].is_empty() {
                self.deck_policy[seat].keep(&self.pools, self.set.as_deref(), seat, &mut self.kept[seat]);
            }
            self.decks[seat] = self.kept[seat];
            shuffle(rng, self.decks[seat].as_mut_slice());
        }
        for seat in 0..SEATS {
            for _ in 0..self.opening_hand {
                self.draw(seat, tally);
            }
        }
    }

    /// `seat` draws the top card of its deck; from an empty deck nothing (`empty_draws`). Returns
    /// the card drawn.
    #[inline]
    pub fn draw(&mut self, seat: usize, tally: &mut Tally) -> Option<u8> {
        let drawn = self.decks[seat].pop();
        match drawn {
            Some(id) => self.hands[seat].push(id),
            None => tally.empty_draws += 1,
        }
        drawn
    }

    /// Puts `seat`'s hand card at `index` face down on its side of slot `slot` (0-based).
    /// The place is empty: a slot's turn comes once, and effects put cards only into slots whose
    /// turn has come (`has_room`).
    #[inline]
    pub fn place(&mut self, seat: usize, index: usize, slot: usize) {
        let id = self.hands[seat].remove(index);
        self.placed |= 1 << id;
        debug_assert_eq!(self.slots[slot][seat], NONE, "the turn's place is empty");
        self.put(id, slot, seat);
    }

    /// Puts card `id` face down on side `side` of slot `slot` (0-based), arming its abilities.
    /// On an occupied place it goes on top of the stack (only effects do that, and only where
    /// `has_room` allows).
    pub fn set_down(&mut self, id: u8, slot: usize, side: usize) {
        let top = self.slots[slot][side];
        if top != NONE {
            self.under[slot][side].push(top);
        }
        self.in_play |= 1 << slot;
        self.put(id, slot, side);
    }

    /// Card `id` becomes the top of side `side` of slot `slot`, armed.
    #[inline]
    fn put(&mut self, id: u8, slot: usize, side: usize) {
        self.slots[slot][side] = id;
        self.pos[id as usize] = (slot * SEATS + side) as u8;
        if self.text {
            self.arm(id);
        }
    }

    /// Whether an effect may put one more card on side `side` of slot `slot` (0-based): the
    /// slot's turn has come, and the place holds fewer than `MAX_STACK` cards.
    #[inline]
    pub fn has_room(&self, slot: usize, side: usize) -> bool {
        self.in_play >> slot & 1 == 1 && self.depth(slot, side) < MAX_STACK
    }

    /// The number of cards on side `side` of slot `slot`.
    #[inline]
    pub fn depth(&self, slot: usize, side: usize) -> usize {
        usize::from(self.slots[slot][side] != NONE) + self.under[slot][side].len()
    }

    /// Whether card `id` lies on the table under another card.
    #[inline]
    pub fn is_covered(&self, id: u8) -> bool {
        let pos = self.pos[id as usize];
        pos != NONE && self.slots[pos as usize / SEATS][pos as usize % SEATS] != id
    }

    /// Notes card `id`'s triggers among the cards on the table.
    pub(super) fn arm(&mut self, id: u8) {
        if let (Some(set), Some(d)) = (&self.set, self.design(id)) {
            // Only the triggers the design uses (most use one or two).
            let mut mask = set.triggers[d as usize];
            while mask != 0 {
                self.armed[mask.trailing_zeros() as usize] |= 1 << id;
                mask &= mask - 1;
            }
            self.auras |= u64::from(set.has_aura[d as usize]) << id;
        }
    }

    /// Takes card `id` off the table: it leaves its place (the card under it, if any, becomes
    /// the top: `uncovered`), and its face, counters and timed effects go (they are the table's,
    /// not the card's). Returns its owner.
    pub fn lift(&mut self, id: u8, tally: &mut Tally) -> usize {
        self.leave_place(id, tally);
        self.pos[id as usize] = NONE;
        self.face_up &= !(1 << id);
        for armed in &mut self.armed {
            *armed &= !(1 << id);
        }
        self.auras &= !(1 << id);
        self.counters[id as usize] = [0; 2];
        self.timed.retain(|t| t.target != id);
        owner(id)
    }

    /// Takes card `id` out of its place, which keeps the rest of its stack: the card under a
    /// top that leaves becomes the top (`uncovered`). `pos` is left to the caller.
    pub fn leave_place(&mut self, id: u8, tally: &mut Tally) {
        let pos = self.pos[id as usize] as usize;
        let (slot, side) = (pos / SEATS, pos % SEATS);
        if self.slots[slot][side] == id {
            self.slots[slot][side] = self.under[slot][side].pop().unwrap_or(NONE);
            tally.uncovered += u64::from(self.slots[slot][side] != NONE);
        } else {
            self.under[slot][side].keep(|_, c| c != id);
        }
    }

    /// Puts card `new` where card `old` lies in place `pos` (top or under): a swap's exchange.
    pub fn replace_in_place(&mut self, pos: usize, old: u8, new: u8) {
        let (slot, side) = (pos / SEATS, pos % SEATS);
        if self.slots[slot][side] == old {
            self.slots[slot][side] = new;
        } else if let Some(c) = self.under[slot][side].as_mut_slice().iter_mut().find(|c| **c == old) {
            *c = new;
        }
    }

    /// Calls `each` with every card on side `side` of slot `slot`: its top, then the cards under
    /// it from the bottom.
    #[inline]
    pub fn each_in_place(&self, slot: usize, side: usize, mut each: impl FnMut(u8)) {
        let top = self.slots[slot][side];
        if top != NONE {
            each(top);
            self.under[slot][side].as_slice().iter().for_each(|&id| each(id));
        }
    }

    /// Turns card `id` face down (a `hide`): its text stops, and its timed effects end for good.
    /// Returns how many ended.
    pub fn turn_down(&mut self, id: u8) -> usize {
        self.face_up &= !(1 << id);
        self.end_lasting(id)
    }

    /// Ends for good the timed effects card `id` started (it leaves the table or turns face
    /// down): a later reveal starts fresh ones, these never return. Returns how many ended.
    pub fn end_lasting(&mut self, id: u8) -> usize {
        let before = self.timed.len();
        self.timed.retain(|t| !(t.while_source && t.source == id));
        before - self.timed.len()
    }

    /// What card `id`'s counters add to its value: its plus and minus counters together.
    #[inline]
    pub fn counter_sum(&self, id: u8) -> i32 {
        let [plus, minus] = self.counters[id as usize];
        plus.saturating_add(minus)
    }

    /// Whether card `id` carries a counter of either sign.
    #[inline]
    pub fn carries(&self, id: u8) -> bool {
        self.counters[id as usize] != [0; 2]
    }

    /// Whether card `id` lies on the table.
    #[inline]
    pub fn on_table(&self, id: u8) -> bool {
        self.pos[id as usize] != NONE
    }

    /// Turns the cards of slot `slot` (0-based) face up, stacked ones too.
    #[inline]
    pub fn reveal_slot(&mut self, slot: usize) {
        for side in 0..SEATS {
            let mut ids = [NONE; MAX_STACK];
            let mut n = 0;
            self.each_in_place(slot, side, |id| {
                ids[n] = id;
                n += 1;
            });
            for &id in &ids[..n] {
                self.turn_up(id);
            }
        }
    }

    /// Turns card `id` face up; returns whether it had been face up before this round.
    #[inline]
    pub fn turn_up(&mut self, id: u8) -> bool {
        let again = self.was_up >> id & 1 == 1;
        self.face_up |= 1 << id;
        self.was_up |= 1 << id;
        again
    }

    /// Who takes slot `slot` (0-based): the higher card (the lower one where a card said so);
    /// any card beats an empty place; equal cards give nothing (or go to the seat a card named),
    /// two empty places nothing.
    #[inline]
    pub fn winner_of(&self, slot: usize) -> Taken {
        match self.slots[slot] {
            [NONE, NONE] => Taken::Nobody,
            [_, NONE] => Taken::Seat(0),
            [NONE, _] => Taken::Seat(1),
            [a, b] => {
                let higher = if self.is_stacked(slot) {
                    self.side_value(slot, 0, a).cmp(&self.side_value(slot, 1, b))
                } else {
                    let (va, vb) = self.value_pair(a, b);
                    va.cmp(&vb)
                };
                // Rule-changing cards: the lower card may win the slot, a tie may go to a seat.
                let order = if self.lower_wins >> slot & 1 == 1 { higher.reverse() } else { higher };
                match order {
                    std::cmp::Ordering::Greater => Taken::Seat(0),
                    std::cmp::Ordering::Less => Taken::Seat(1),
                    std::cmp::Ordering::Equal if self.ties_to[slot] != NONE => {
                        Taken::Seat(self.ties_to[slot] as usize)
                    }
                    std::cmp::Ordering::Equal => Taken::Nobody,
                }
            }
        }
    }

    /// `winner_of` in a game without text, where no slot is stacked and no card changes the rule:
    /// the higher value. Inlined where the turn's scoring calls it (`winner_of`, too large to
    /// inline, was a call per slot).
    #[inline(always)]
    pub fn plain_winner_of(&self, slot: usize) -> Taken {
        debug_assert!(!self.text);
        match self.slots[slot] {
            [NONE, NONE] => Taken::Nobody,
            [_, NONE] => Taken::Seat(0),
            [NONE, _] => Taken::Seat(1),
            [a, b] => match self.value(a).cmp(&self.value(b)) {
                std::cmp::Ordering::Greater => Taken::Seat(0),
                std::cmp::Ordering::Less => Taken::Seat(1),
                std::cmp::Ordering::Equal => Taken::Nobody,
            },
        }
    }

    /// Whether either side of slot `slot` holds more than one card.
    #[inline]
    pub fn is_stacked(&self, slot: usize) -> bool {
        self.text && !(self.under[slot][0].is_empty() && self.under[slot][1].is_empty())
    }

    /// The value a side of slot `slot` scores with, `top` being its top card: the highest value
    /// of the cards stacked there (only the highest card of each side counts).
    #[inline]
    pub fn side_value(&self, slot: usize, side: usize, top: u8) -> i32 {
        let v = self.value(top);
        if !self.text {
            return v;
        }
        self.under[slot][side].as_slice().iter().fold(v, |best, &id| best.max(self.value(id)))
    }

    /// Sides of slot `slot` whose highest card lies under the top (`stack_scored`).
    pub fn covered_scorers(&self, slot: usize) -> u64 {
        let mut n = 0;
        for side in 0..SEATS {
            let top = self.slots[slot][side];
            if top != NONE && !self.under[slot][side].is_empty() {
                n += u64::from(self.side_value(slot, side, top) > self.value(top));
            }
        }
        n
    }

    /// The winner of the round by points, if one seat has more.
    pub fn round_winner(&self) -> Option<usize> {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
}
