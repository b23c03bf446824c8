//! The rules of Card Wars (`docs/rules/slots.md`): the table of one round, a turn (place, reveal,
//! draw), the scoring slot by slot, best of three with replays, and what a seat may see and do.
//!
//! `State` is the game: the pools, this round's decks, hands, piles and the nine slots, each with
//! one place per side, which cards lie face up, and the rounds won so far. `Game` plays it step by
//! step and stops at every placement decision, so the engine's line-up and a search agent's
//! simulations play the same rules. Placement is simultaneous: each seat answers from the table as
//! it was before either card went down, and both cards are applied together.

use std::sync::Arc;

use super::cardset::CardSet;
use super::cardset::{TRIGGERS, Trigger};
use super::choices::Choices;
use super::narrate;
use super::pools::{DeckPolicy, Pools, owner};
use super::resolve::Resolver;
use super::values::Timed;
use crate::decide::{Decision, Legal};
use crate::games::narrate::Narrator;
use crate::pile::Pile;
use crate::seed::{GameRng, below, shuffle};

/// Players: Card Wars is a two-player game.
pub const SEATS: usize = 2;
/// Slots on the table, one per turn.
pub const SLOTS: usize = 9;
/// Cards in a pool.
pub const POOL: usize = 30;
/// Cards in a deck.
pub const DECK: usize = 21;
/// Cards drawn at the start of a round.
pub const FIRST_HAND: usize = 5;
/// Card ids of a game: one pool per seat.
pub const CARDS: usize = SEATS * POOL;
/// No card (an empty place).
pub const NONE: u8 = u8::MAX;
/// The design of a card without text.
pub const TEXTLESS: u16 = u16::MAX;
/// Rounds a player must win.
pub const ROUNDS_TO_WIN: u8 = 2;

/// A few card ids in order (a deck, whose top is the end; a hand; a pile): fixed size, no
/// allocation, `Copy`.
pub type Stack = Pile<u8, POOL>;

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
    /// Events dropped after `resolve::MAX_NESTED` nested moments.
    pub cascade_cut: u64,
    /// Cards that changed sides in a swap.
    pub control_changes: u64,
    /// Cards turned face up again in a round.
    pub re_reveals: u64,
    /// "You may" abilities their controller declined.
    pub declined: u64,
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
    /// The card in each slot on each side (`NONE`: an empty place). A card scores for the side it
    /// lies on.
    pub slots: [[u8; SEATS]; SLOTS],
    /// Face-up cards, one bit per card id.
    pub face_up: u64,
    /// Whether any card of the pools has an ability: without, no moment is ever looked at.
    pub text: bool,
    /// Where each card lies on the table, `slot * SEATS + side`, or `NONE`.
    pub pos: [u8; CARDS],
    /// Counters on each card (their sum: a +1 and a -1 counter cancel).
    pub counters: [i32; CARDS],
    /// Cards that have been face up this round (so a later reveal is a re-reveal).
    pub was_up: u64,
    /// Cards placed from hand this round, one bit per card id (the per-card `played`).
    pub placed: u64,
    /// Per trigger, the cards on the table with an ability of that trigger, one bit each (they
    /// act only while face up): a moment looks at these cards only.
    pub armed: [u64; TRIGGERS],
    /// The cards on the table with a static modifier of other cards (an aura), one bit each: a
    /// value reads these sources only (and its own card's statics).
    pub auras: u64,
    /// Triggered modifiers and sets of this round.
    pub timed: Vec<Timed>,
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
            face_up: 0,
            text: false,
            pos: [NONE; CARDS],
            counters: [0; CARDS],
            was_up: 0,
            placed: 0,
            armed: [0; TRIGGERS],
            auras: 0,
            timed: Vec::with_capacity(64),
            taken: [Taken::Nobody; SLOTS],
            scoring: NONE,
            turn: 0,
            points: [0; SEATS],
            wins: [0; SEATS],
            ties: 0,
            rounds: 0,
        }
    }

    /// A new game on the pools as dealt: no round played yet.
    pub fn reset_game(&mut self) {
        self.wins = [0; SEATS];
        self.ties = 0;
        self.rounds = 0;
        self.turn = 0;
        for seat in 0..SEATS {
            self.kept[seat].clear();
        }
        self.clear_table();
    }

    fn clear_table(&mut self) {
        self.slots = [[NONE; SEATS]; SLOTS];
        self.face_up = 0;
        self.points = [0; SEATS];
        self.scoring = NONE;
        self.pos = [NONE; CARDS];
        self.was_up = 0;
        self.placed = 0;
        self.armed = [0; TRIGGERS];
        self.auras = 0;
        if self.text {
            self.counters = [0; CARDS];
            self.timed.clear();
            self.taken = [Taken::Nobody; SLOTS];
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

    /// Every card back to its owner, the decks kept (chosen again only by a policy that adapts),
    /// shuffled (seat 0's first), and five cards drawn each. Counts the cards that came in from
    /// the sideboard since the last round.
    pub fn start_round(&mut self, rng: &mut GameRng, tally: &mut Tally) {
        self.clear_table();
        self.rounds += 1;
        self.turn = 0;
        for seat in 0..SEATS {
            if self.kept[seat].is_empty() || self.deck_policy[seat].adapts() {
                let before = self.kept[seat];
                self.deck_policy[seat].keep(&self.pools, self.set.as_deref(), seat, &mut self.kept[seat]);
                if !before.is_empty() {
                    let came_in =
                        self.kept[seat].as_slice().iter().filter(|id| !before.as_slice().contains(id));
                    tally.sideboard_swaps += came_in.count() as u64;
                }
            }
            self.decks[seat] = self.kept[seat];
            shuffle(rng, self.decks[seat].as_mut_slice());
        }
        for seat in 0..SEATS {
            for _ in 0..FIRST_HAND {
                self.draw(seat, tally);
            }
        }
    }

    /// `seat` draws the top card of its deck; from an empty deck nothing (`empty_draws`).
    #[inline]
    pub fn draw(&mut self, seat: usize, tally: &mut Tally) {
        match self.decks[seat].pop() {
            Some(id) => self.hands[seat].push(id),
            None => tally.empty_draws += 1,
        }
    }

    /// Puts `seat`'s hand card at `index` face down on its side of slot `slot` (0-based).
    #[inline]
    pub fn place(&mut self, seat: usize, index: usize, slot: usize) {
        let id = self.hands[seat].remove(index);
        self.placed |= 1 << id;
        self.set_down(id, slot, seat);
    }

    /// Puts card `id` face down on side `side` of slot `slot` (0-based), arming its abilities.
    #[inline]
    pub fn set_down(&mut self, id: u8, slot: usize, side: usize) {
        debug_assert_eq!(self.slots[slot][side], NONE, "one card per side of a slot");
        self.slots[slot][side] = id;
        self.pos[id as usize] = (slot * SEATS + side) as u8;
        if self.text {
            self.arm(id);
        }
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
            self.auras |= u64::from(!set.auras.of(d).is_empty()) << id;
        }
    }

    /// Takes card `id` off the table: its place empties, and its face, counters and timed
    /// effects go (they are the table's, not the card's). Returns its owner.
    pub fn lift(&mut self, id: u8) -> usize {
        let pos = self.pos[id as usize] as usize;
        self.slots[pos / SEATS][pos % SEATS] = NONE;
        self.pos[id as usize] = NONE;
        self.face_up &= !(1 << id);
        for armed in &mut self.armed {
            *armed &= !(1 << id);
        }
        self.auras &= !(1 << id);
        self.counters[id as usize] = 0;
        self.timed.retain(|t| t.target != id);
        owner(id)
    }

    /// Whether card `id` lies on the table.
    #[inline]
    pub fn on_table(&self, id: u8) -> bool {
        self.pos[id as usize] != NONE
    }

    /// Turns the cards of slot `slot` (0-based) face up.
    #[inline]
    pub fn reveal_slot(&mut self, slot: usize) {
        for id in self.slots[slot] {
            if id != NONE {
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

    /// Who takes slot `slot` (0-based): the higher card; any card beats an empty place; equal
    /// cards and two empty places give nothing.
    #[inline]
    pub fn winner_of(&self, slot: usize) -> Taken {
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

    /// The winner of the round by points, if one seat has more.
    pub fn round_winner(&self) -> Option<usize> {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// What `seat` may see now (see `Observation`).
    pub fn observe(&self, seat: usize, obs: &mut Observation) {
        self.observe_table(seat, obs);
        self.view_for(seat, &mut obs.view);
    }

    /// What `seat` may see now, its `view` aside (what the decisions inside abilities read).
    pub fn observe_table(&self, seat: usize, obs: &mut Observation) {
        obs.seat = seat as u8;
        obs.turn = self.turn;
        obs.hand = self.hands[seat];
        obs.hand_printed = [0; POOL];
        for (i, &id) in self.hands[seat].as_slice().iter().enumerate() {
            obs.hand_printed[i] = self.pools.printed[id as usize];
        }
        for s in 0..SEATS {
            obs.hand_sizes[s] = self.hands[s].len() as u8;
            obs.deck_sizes[s] = self.decks[s].len() as u8;
            obs.piles[s] = self.piles[s];
        }
        for slot in 0..SLOTS {
            for side in 0..SEATS {
                let id = self.slots[slot][side];
                let seen = id != NONE && (self.is_face_up(id) || owner(id) == seat);
                obs.table[slot][side] = if id == NONE {
                    Seen::Empty
                } else if self.is_face_up(id) {
                    Seen::Up {
                        id,
                        printed: self.pools.printed[id as usize],
                        value: self.value(id),
                        counters: self.counters[id as usize],
                    }
                } else if seen {
                    Seen::Mine { id, printed: self.pools.printed[id as usize], value: self.value(id) }
                } else {
                    Seen::Down
                };
            }
        }
        obs.points = self.points;
        obs.wins = self.wins;
        obs.ties = self.ties;
    }
}

/// One place of the table as a seat sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seen {
    #[default]
    Empty,
    /// A face-down card the seat did not place: nothing about it is known.
    Down,
    /// A face-down card the seat owns (it placed it, so it knows it): its printed value, and its
    /// value now (0 plus the modifiers and counters it has while face down).
    Mine { id: u8, printed: u8, value: i32 },
    /// A face-up card: its printed value, its value now and the sum of its counters.
    Up { id: u8, printed: u8, value: i32, counters: i32 },
}

/// Everything one seat may know: its hand, both hand and deck sizes, the piles, every face-up
/// card with its value and counters, its own face-down cards, the points of the round and the rounds won.
/// Never another face-down card or a deck's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub seat: u8,
    pub turn: u8,
    pub hand: Stack,
    pub hand_printed: [u8; POOL],
    pub hand_sizes: [u8; SEATS],
    pub deck_sizes: [u8; SEATS],
    pub piles: [Stack; SEATS],
    pub table: [[Seen; SEATS]; SLOTS],
    pub points: [i32; SEATS],
    pub wins: [u8; SEATS],
    pub ties: u32,
    /// The whole table as the seat knows it, hidden cards masked (`view`): what a player plays
    /// the rules forward on.
    pub view: State,
}

impl Default for Observation {
    fn default() -> Self {
        Observation {
            seat: 0,
            turn: 0,
            hand: Stack::default(),
            hand_printed: [0; POOL],
            hand_sizes: [0; SEATS],
            deck_sizes: [0; SEATS],
            piles: [Stack::default(); SEATS],
            table: [[Seen::Empty; SEATS]; SLOTS],
            points: [0; SEATS],
            wins: [0; SEATS],
            ties: 0,
            view: State::new(DeckPolicy::Top21, 0),
        }
    }
}

/// The placement decision: which hand card goes into this turn's slot.
pub struct Place;

impl Decision for Place {
    type Observation = Observation;
    type Legal = PlaceLegal;
    type Action = u8;
}

/// The legal placements: any card of the hand (never empty when asked), by index, with the
/// cards' printed values (which the seat knows: they are its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaceLegal {
    pub printed: [u8; POOL],
    pub len: u8,
}

impl PlaceLegal {
    pub fn printed(&self) -> &[u8] {
        &self.printed[..self.len as usize]
    }
}

impl Legal<u8> for PlaceLegal {
    #[inline]
    fn uniform(&self, rng: &mut GameRng, out: &mut u8) {
        *out = below(rng, self.len as u32) as u8;
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A seat won two rounds.
    Won(usize),
    /// The tied round after `max_replays` replays: a draw.
    Drawn,
}

/// Where a game stands: the placement it waits for, or its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// `seat` places this turn's card (seat 0 first, each from the table before either placed).
    Place(usize),
    Over(End),
}

/// A game in progress, stopped at its next decision.
#[derive(Clone, Debug)]
pub struct Game {
    pub st: State,
    pub tally: Tally,
    pub cards: CardTally,
    /// The chance of card effects (random picks and discards): its own stream, so that effects
    /// never shift the deck shuffles.
    pub chance: GameRng,
    res: Resolver,
    next: Next,
    /// This turn's answers (hand indices), applied together once both seats have chosen.
    chosen: [u8; SEATS],
}

impl Game {
    pub fn new(deck_policy: DeckPolicy, max_replays: u32) -> Game {
        Game::on(State::new(deck_policy, max_replays))
    }

    /// A game on the given state, not yet started.
    pub fn on(st: State) -> Game {
        Game {
            st,
            tally: Tally::default(),
            cards: CardTally::default(),
            chance: crate::seed::GameSeed::new(0, 0).rng(),
            res: Resolver::new(),
            next: Next::Over(End::Drawn),
            chosen: [0; SEATS],
        }
    }

    /// Turns `cards` face up together and resolves the moment (a turn's reveal, for tests).
    #[cfg(test)]
    pub(super) fn reveal_for_tests<C: Choices>(&mut self, cards: &[u8], ch: &mut C) {
        self.reveal_told_for_tests(cards, ch, &mut crate::games::narrate::Silent);
    }

    /// As `reveal_for_tests`, telling the moment to `narr`.
    #[cfg(test)]
    pub(super) fn reveal_told_for_tests<C: Choices, N: Narrator>(
        &mut self,
        cards: &[u8],
        ch: &mut C,
        narr: &mut N,
    ) {
        for &id in cards {
            self.tally.re_reveals += u64::from(self.st.turn_up(id));
        }
        self.res.revealed(&mut self.st, &mut self.tally, &mut self.chance, cards, narr, ch);
    }

    /// Stops a position at its turn's first placement (hand-written positions, and a search's
    /// sampled states, which start at the simultaneous step that holds the searched decision).
    pub(super) fn stop_at_turn(&mut self) {
        self.next = match (0..SEATS).find(|&s| !self.st.hands[s].is_empty()) {
            Some(seat) => Next::Place(seat),
            None => Next::Over(End::Drawn),
        };
    }

    /// Starts a game on the pools as dealt and plays on to its first decision.
    pub fn begin<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.st.reset_game();
        self.tally = Tally::default();
        self.cards = CardTally::default();
        self.new_round(rng, narr, ch);
    }

    #[inline]
    pub fn next(&self) -> Next {
        self.next
    }

    /// The legal placements of `seat` now.
    #[inline]
    pub fn place_legal(&self, seat: usize) -> PlaceLegal {
        let hand = &self.st.hands[seat];
        let mut legal = PlaceLegal { printed: [0; POOL], len: hand.len() as u8 };
        for (p, &id) in legal.printed.iter_mut().zip(hand.as_slice()) {
            *p = self.st.pools.printed[id as usize];
        }
        legal
    }

    /// What `seat` sees at this decision.
    pub fn observe(&self, seat: usize, obs: &mut Observation) {
        self.st.observe(seat, obs);
    }

    /// Takes the answer of the seat asked now, then plays on to the next decision or the end.
    /// Panics on an illegal answer: a policy that breaks the rules is a bug.
    pub fn answer<N: Narrator, C: Choices>(
        &mut self,
        index: u8,
        rng: &mut GameRng,
        narr: &mut N,
        ch: &mut C,
    ) {
        let Next::Place(seat) = self.next else { panic!("the game is over") };
        assert!((index as usize) < self.st.hands[seat].len(), "seat {seat} placed hand card {index}");
        self.chosen[seat] = index;
        if seat == 0 && !self.st.hands[1].is_empty() {
            self.next = Next::Place(1);
            return;
        }
        self.play_turn(rng, narr, ch);
    }

    /// Asks the first seat with a card in hand to place, or plays a turn in which nobody can.
    fn ask_or_play<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        match (0..SEATS).find(|&s| !self.st.hands[s].is_empty()) {
            Some(seat) => self.next = Next::Place(seat),
            None => self.play_turn(rng, narr, ch),
        }
    }

    /// The rest of a turn once both seats have chosen: both cards go down together (a seat
    /// without cards leaves its place empty, `empty_slots`), are revealed together, and both
    /// seats draw. Then the next turn, or the scoring after turn 9.
    fn play_turn<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        let slot = self.st.turn as usize - 1;
        for seat in 0..SEATS {
            if self.st.hands[seat].is_empty() {
                self.tally.empty_slots += 1;
            } else {
                self.st.place(seat, self.chosen[seat] as usize, slot);
            }
        }
        if N::ON {
            narrate::placed(&self.st, slot, narr);
        }
        self.moment(Trigger::AfterPlace, narr, ch);
        let placed = self.st.slots[slot];
        for id in placed {
            if id != NONE && self.st.on_table(id) {
                self.tally.re_reveals += u64::from(self.st.turn_up(id));
            }
        }
        if N::ON {
            narrate::revealed(&self.st, slot, narr);
        }
        if self.st.text {
            self.res.revealed(&mut self.st, &mut self.tally, &mut self.chance, &placed, narr, ch);
        }
        self.moment(Trigger::AfterReveal, narr, ch);
        for seat in 0..SEATS {
            self.st.draw(seat, &mut self.tally);
        }
        self.moment(Trigger::AfterDraw, narr, ch);
        if self.st.turn as usize == SLOTS {
            self.score(rng, narr, ch);
        } else {
            self.st.turn += 1;
            self.begin_turn(rng, narr, ch);
        }
    }

    /// A turn begins: its [BT] moment, then the first placement.
    fn begin_turn<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.moment(Trigger::TurnStart, narr, ch);
        self.ask_or_play(rng, narr, ch);
    }

    /// The moment of trigger `on`, when the cards carry text.
    #[inline]
    pub(super) fn moment<N: Narrator, C: Choices>(&mut self, on: Trigger, narr: &mut N, ch: &mut C) {
        if self.st.text {
            self.res.moment(&mut self.st, &mut self.tally, &mut self.chance, on, narr, ch);
        }
    }

    /// A new round: decks, shuffles, five cards each, turn 1.
    fn new_round<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.st.start_round(rng, &mut self.tally);
        if N::ON {
            narrate::round(&self.st, narr);
        }
        self.st.turn = 1;
        self.begin_turn(rng, narr, ch);
    }

    /// Scores slots 1-9 in order, then ends the round: a winner, or a tie replayed (the tied
    /// round after `max_replays` replays ends the game as a draw).
    fn score<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.score_slots(narr, ch);
        self.end_round(rng, narr, ch);
    }

    /// [SSCORE], each slot scored once in order with its `slot_scored` abilities, [ESCORE].
    pub(super) fn score_slots<N: Narrator, C: Choices>(&mut self, narr: &mut N, ch: &mut C) {
        self.st.scoring = SLOTS as u8;
        self.moment(Trigger::ScoreStart, narr, ch);
        for slot in 0..SLOTS {
            let taken = self.st.winner_of(slot);
            if let Taken::Seat(seat) = taken {
                self.st.points[seat] += 1;
            }
            if N::ON {
                narrate::scored(&self.st, slot, taken, narr);
            }
            if self.st.text {
                self.st.taken[slot] = taken;
                self.st.scoring = slot as u8;
                self.moment(Trigger::SlotScored, narr, ch);
            }
        }
        self.st.scoring = SLOTS as u8;
        self.moment(Trigger::ScoreEnd, narr, ch);
    }

    /// Ends a scored round: the winner's round, or a tie.
    pub(super) fn end_round<N: Narrator, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        let winner = self.st.round_winner();
        self.cards.round(&self.st.kept, self.st.placed, winner);
        match winner {
            Some(seat) => self.st.wins[seat] += 1,
            None => self.st.ties += 1,
        }
        if N::ON {
            narrate::round_result(&self.st, winner, narr);
        }
        if let Some(seat) = (0..SEATS).find(|&s| self.st.wins[s] >= ROUNDS_TO_WIN) {
            self.next = Next::Over(End::Won(seat));
        } else if self.st.ties > self.st.max_replays {
            self.next = Next::Over(End::Drawn);
        } else {
            self.tally.replayed_rounds += u64::from(winner.is_none());
            self.new_round(rng, narr, ch);
        }
    }
}
