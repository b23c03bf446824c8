//! The rules of Card Wars (`docs/rules/slots.md`): the table of one round, a turn (place, reveal,
//! draw), the scoring slot by slot, best of three with replays, and what a seat may see and do.
//!
//! `State` is the game: the pools, this round's decks, hands, piles and the nine slots, each with
//! one place per side, which cards lie face up, and the rounds won so far. `Game` plays it step by
//! step and stops at every placement decision, so the engine's line-up and a search agent's
//! simulations play the same rules. Placement is simultaneous: each seat answers from the table as
//! it was before either card went down, and both cards are applied together.

use super::card::{NONE, POOL, ROUNDS_TO_WIN, SEATS, SLOTS, Stack, owner};
use super::cardset::Trigger;
use super::choices::Choices;
use super::ops::{Teller, Told};
use super::pools::DeckPolicy;
use super::resolve::{Happened, Resolver};
use super::table::{CardTally, State, Taken, Tally};
use crate::decide::{Decision, Legal};
use crate::seed::{GameRng, below};

impl State {
    /// What `seat` may see now (see `Observation`).
    pub fn observe(&self, seat: usize, obs: &mut Observation) {
        self.observe_table(seat, obs);
        self.view_for(seat, &mut obs.view);
    }

    /// The seat, turn, hand and the hand's printed values of `obs` only: what a decision that
    /// reads the hand alone needs (the greedy discard), without the table's values.
    pub fn observe_hand(&self, seat: usize, obs: &mut Observation) {
        obs.seat = seat as u8;
        obs.turn = self.turn;
        obs.hand = self.hands[seat];
        obs.hand_printed = [0; POOL];
        for (i, &id) in self.hands[seat].as_slice().iter().enumerate() {
            obs.hand_printed[i] = self.pools.printed[id as usize];
        }
    }

    /// What `seat` may see now, its `view` aside (what the decisions inside abilities read).
    pub fn observe_table(&self, seat: usize, obs: &mut Observation) {
        self.observe_hand(seat, obs);
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
                        counters: self.counter_sum(id),
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

/// The index of the highest printed value; among equal ones the first in hand (hand order is
/// draw order, itself random).
#[inline]
pub fn highest(printed: &[u8]) -> u8 {
    let mut best = 0;
    for (i, &v) in printed.iter().enumerate() {
        if v > printed[best] {
            best = i;
        }
    }
    best as u8
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
    pub(super) fn reveal_told_for_tests<C: Choices, N: Teller>(
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
    pub fn begin<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
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
    pub fn answer<N: Teller, C: Choices>(&mut self, index: u8, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
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
    fn ask_or_play<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        match (0..SEATS).find(|&s| !self.st.hands[s].is_empty()) {
            Some(seat) => self.next = Next::Place(seat),
            None => self.play_turn(rng, narr, ch),
        }
    }

    /// The rest of a turn once both seats have chosen: both cards go down together (a seat
    /// without cards leaves its place empty, `empty_slots`), are revealed together, and both
    /// seats draw. Then the next turn, or the scoring after turn 9.
    fn play_turn<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        let slot = self.st.turn as usize - 1;
        self.st.in_play |= 1 << slot;
        for seat in 0..SEATS {
            if self.st.hands[seat].is_empty() {
                self.tally.empty_slots += 1;
            } else {
                self.st.place(seat, self.chosen[seat] as usize, slot);
            }
        }
        if N::ON {
            narr.tell(&self.st, Told::Placed(slot));
        }
        // The turn's two cards (`NONE`: a side left empty): its reveal turns up these and no other.
        let placed = self.st.slots[slot];
        if self.st.text && self.st.armed[Trigger::Placed as usize] & self.st.face_up != 0 {
            self.res.events(
                &mut self.st,
                &mut self.tally,
                &mut self.chance,
                Happened::Placed,
                &placed,
                narr,
                ch,
            );
        }
        self.moment(Trigger::AfterPlace, narr, ch);
        if self.st.text {
            self.reveal_turn(slot, placed, narr, ch);
        } else {
            // Without text nothing turns a card up early or stacks one: the turn's two cards.
            for id in self.st.slots[slot] {
                if id != NONE {
                    self.tally.re_reveals += u64::from(self.st.turn_up(id));
                }
            }
            if N::ON {
                narr.tell(&self.st, Told::Revealed(slot));
            }
        }
        self.moment(Trigger::AfterReveal, narr, ch);
        if !self.st.draw_first {
            self.draws(narr, ch);
        }
        if self.st.turn as usize == SLOTS {
            self.score(rng, narr, ch);
        } else {
            self.st.turn += 1;
            self.begin_turn(rng, narr, ch);
        }
    }

    /// The reveal of slot `slot` when cards carry text, and its moment: the cards the players
    /// placed this turn (`placed`) turn up together, wherever the [P] moment left them on the
    /// table, and nothing else (a card an effect put into the slot stays as it lies).
    fn reveal_turn<N: Teller, C: Choices>(
        &mut self,
        slot: usize,
        mut placed: [u8; SEATS],
        narr: &mut N,
        ch: &mut C,
    ) {
        for id in placed.iter_mut() {
            // A card an effect took off the table before the reveal (destroyed, returned) is
            // not revealed.
            if *id == NONE || !self.st.on_table(*id) {
                *id = NONE;
                continue;
            }
            // Only a face-down card is revealed: one turned up early (by an effect at [P]) stays
            // as it is and fires no reveal ability again.
            if self.st.is_face_up(*id) {
                self.tally.already_up += 1;
                *id = NONE;
            } else {
                self.tally.re_reveals += u64::from(self.st.turn_up(*id));
            }
        }
        if N::ON {
            narr.tell(&self.st, Told::Revealed(slot));
        }
        self.res.revealed(&mut self.st, &mut self.tally, &mut self.chance, &placed, narr, ch);
    }

    /// A turn begins: its [BT] moment, the draw phase when the draw comes first (`draw_first`),
    /// then the first placement.
    fn begin_turn<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.moment(Trigger::TurnStart, narr, ch);
        if self.st.draw_first {
            self.draws(narr, ch);
        }
        self.ask_or_play(rng, narr, ch);
    }

    /// The draw phase where the turn calls it: without text the two draws, inlined at both of its
    /// call sites (`draw_phase`, a function called from two places, cost more than the draws).
    #[inline(always)]
    fn draws<N: Teller, C: Choices>(&mut self, narr: &mut N, ch: &mut C) {
        if self.st.text {
            self.draw_phase(narr, ch);
        } else {
            for seat in 0..SEATS {
                self.st.draw(seat, &mut self.tally);
            }
        }
    }

    /// Both seats draw one card, then the [D] moment.
    fn draw_phase<N: Teller, C: Choices>(&mut self, narr: &mut N, ch: &mut C) {
        if !self.st.text {
            for seat in 0..SEATS {
                self.st.draw(seat, &mut self.tally);
            }
            return;
        }
        let mut drawn = [NONE; SEATS];
        for (seat, d) in drawn.iter_mut().enumerate() {
            *d = self.st.draw(seat, &mut self.tally).unwrap_or(NONE);
        }
        if self.st.armed[Trigger::Drawn as usize] & self.st.face_up != 0 {
            self.res.drawn(&mut self.st, &mut self.tally, &mut self.chance, drawn, narr, ch);
        }
        self.moment(Trigger::AfterDraw, narr, ch);
    }

    /// The moment of trigger `on`, when the cards carry text.
    #[inline]
    pub(super) fn moment<N: Teller, C: Choices>(&mut self, on: Trigger, narr: &mut N, ch: &mut C) {
        // No face-up card with such an ability: nothing to call (most moments of most turns).
        if self.st.text && self.st.armed[on as usize] & self.st.face_up != 0 {
            self.res.moment(&mut self.st, &mut self.tally, &mut self.chance, on, narr, ch);
        }
    }

    /// A new round: decks, shuffles, five cards each, turn 1.
    fn new_round<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.sideboard(ch);
        self.st.start_round(rng, &mut self.tally);
        if N::ON {
            narr.tell(&self.st, Told::Round);
        }
        self.st.turn = 1;
        self.begin_turn(rng, narr, ch);
    }

    /// Plays on from between two rounds of `self.st` (a simulation's copy of a game): the next
    /// round starts, with fresh tallies (a simulation's are never read).
    pub fn next_round<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.tally = Tally::default();
        self.cards = CardTally::default();
        self.new_round(rng, narr, ch);
    }

    /// Between rounds: what the ending round showed is remembered, and each seat whose deck
    /// policy adapts may change its deck (`sideboard_swaps`: the cards that came in).
    fn sideboard<C: Choices>(&mut self, ch: &mut C) {
        if self.st.rounds == 0 {
            return;
        }
        self.st.remember_shown();
        for seat in 0..SEATS {
            if !self.st.deck_policy[seat].adapts() {
                continue;
            }
            let mut deck = Stack::default();
            if ch.sideboard(&self.st, seat, &mut deck) {
                let before = &self.st.kept[seat];
                debug_assert_eq!(deck.len(), before.len(), "a deck keeps its size");
                debug_assert!(deck.as_slice().iter().all(|&id| owner(id) == seat));
                let came_in = deck.as_slice().iter().filter(|id| !before.as_slice().contains(id)).count();
                self.tally.sideboard_swaps += came_in as u64;
                self.st.kept[seat] = deck;
            }
        }
    }

    /// Scores slots 1-9 in order, then ends the round: a winner, or a tie replayed (the tied
    /// round after `max_replays` replays ends the game as a draw).
    fn score<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        self.score_slots(narr, ch);
        self.end_round(rng, narr, ch);
    }

    /// [SSCORE], each slot scored once in order with its `slot_scored` abilities, [ESCORE].
    pub(super) fn score_slots<N: Teller, C: Choices>(&mut self, narr: &mut N, ch: &mut C) {
        self.st.scoring = SLOTS as u8;
        self.moment(Trigger::ScoreStart, narr, ch);
        for slot in 0..SLOTS {
            let taken = if self.st.text { self.st.winner_of(slot) } else { self.st.plain_winner_of(slot) };
            if let Taken::Seat(seat) = taken {
                self.st.points[seat] += 1;
            }
            if N::ON {
                narr.tell(&self.st, Told::Scored(slot, taken));
            }
            if self.st.text {
                if self.st.is_stacked(slot) {
                    self.tally.stack_scored += self.st.covered_scorers(slot);
                }
                self.st.taken[slot] = taken;
                self.st.scoring = slot as u8;
                self.moment(Trigger::SlotScored, narr, ch);
                if self.st.armed[Trigger::SlotLost as usize] & self.st.face_up != 0 {
                    self.moment(Trigger::SlotLost, narr, ch);
                }
            }
        }
        self.st.scoring = SLOTS as u8;
        self.moment(Trigger::ScoreEnd, narr, ch);
    }

    /// Ends a scored round: the winner's round, or a tie.
    pub(super) fn end_round<N: Teller, C: Choices>(&mut self, rng: &mut GameRng, narr: &mut N, ch: &mut C) {
        let winner = self.st.round_winner();
        self.cards.round(&self.st.kept, self.st.placed, winner);
        match winner {
            Some(seat) => self.st.wins[seat] += 1,
            None => self.st.ties += 1,
        }
        if N::ON {
            narr.tell(&self.st, Told::RoundResult(winner));
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
