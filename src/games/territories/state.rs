//! The table of Territorial Warfare and how one round settles on it (RULINGS §3).
//!
//! `State` is the whole game: hands, draw pile, the four territories with every card's owner, the
//! burned cards (face up, so public) and the scores. `settle` is the pure scoring rule of one
//! territory, shared by the engine and by the agents' evaluations, so the agents can never disagree
//! with the rules they are judged by. `Observation` is what one seat may see of a `State`.

use super::{Narr, Version};
use crate::seed::{GameRng, below};

/// Most players the game supports.
pub const MAX_PLAYERS: usize = 6;
/// Cards dealt to each player.
pub const HAND: usize = 7;
/// Cards drawn for each card placed on Draw.
pub const DRAW_PER_CARD: usize = 3;

/// Territory indices, in the order they settle.
pub const HIGH: usize = 0;
pub const LOW: usize = 1;
pub const STRAIGHT: usize = 2;
pub const DRAW: usize = 3;
pub const TERRITORIES: [&str; 4] = ["High", "Low", "Straight", "Draw"];
/// A placement target meaning "stays in hand".
pub const KEEP: u8 = 4;

/// Faces: 1 (ace) to 10 are values; the royals follow.
pub const JACK: u8 = 11;
pub const QUEEN: u8 = 12;
pub const KING: u8 = 13;
/// Faces are indexed 1..=13; index 0 is unused.
pub const FACES: usize = 14;

#[inline]
pub fn is_royal(face: u8) -> bool {
    face >= JACK
}

pub fn face_label(face: u8) -> &'static str {
    const L: [&str; FACES] = ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    L[face as usize]
}

/// One card on a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub owner: u8,
    pub face: u8,
    /// Placed this round (so it draws on Draw, and is still face down before the reveal).
    pub fresh: bool,
    /// Marked during settlement; removed right after.
    pub burn: bool,
}

impl Slot {
    pub fn new(owner: usize, face: u8, fresh: bool) -> Slot {
        Slot { owner: owner as u8, face, fresh, burn: false }
    }
}

/// What happened on one territory when it settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// A Jack without a King burned the territory.
    pub jack_burn: bool,
    /// A King stopped a burn (a Jack's, the territory rule's, or both: counted once each).
    pub king_saves: u32,
    pub burned: u32,
}

/// Settles territory `t`: marks the cards that burn (`Slot::burn`) and adds this round's points to
/// `points[seat]`. Draw scores nothing and its draws are the engine's business; here it only burns.
/// Pure: depends on the cards alone.
pub fn settle(t: usize, slots: &mut [Slot], points: &mut [i32; MAX_PLAYERS]) -> Settled {
    let mut out = Settled::default();
    let king = slots.iter().any(|s| s.face == KING);
    if slots.iter().any(|s| s.face == JACK) {
        if king {
            out.king_saves += 1;
        } else {
            for s in slots.iter_mut() {
                s.burn = true;
            }
            out.jack_burn = true;
            out.burned = slots.len() as u32;
            return out;
        }
    }
    match t {
        HIGH | LOW => settle_ranked(t == HIGH, king, slots, points, &mut out),
        STRAIGHT => settle_straight(king, slots, points, &mut out),
        _ => {
            if king {
                out.king_saves += u32::from(slots.iter().any(|s| !is_royal(s.face)));
            } else {
                slots.iter_mut().for_each(|s| s.burn = true);
            }
        }
    }
    out.burned = slots.iter().filter(|s| s.burn).count() as u32;
    out
}

/// High (`high`) or Low: with two or more values, the extreme value burns; the rest rank with shared
/// ranks and each scores (cards ranked) - rank + 1, which is the number of ranked cards whose value
/// is not better. Counting by value keeps this linear in the cards.
fn settle_ranked(
    high: bool,
    king: bool,
    slots: &mut [Slot],
    points: &mut [i32; MAX_PLAYERS],
    out: &mut Settled,
) {
    let mut count = [0i32; FACES];
    for s in slots.iter().filter(|s| !is_royal(s.face)) {
        count[s.face as usize] += 1;
    }
    let (Some(lo), Some(hi)) = ((1..=10).find(|&v| count[v] > 0), (1..=10).rev().find(|&v| count[v] > 0))
    else {
        return;
    };
    if lo != hi {
        if king {
            out.king_saves += 1;
        } else {
            let extreme = if high { hi } else { lo };
            for s in slots.iter_mut().filter(|s| s.face as usize == extreme) {
                s.burn = true;
            }
            count[extreme] = 0;
        }
    }
    // not_better[v]: ranked cards of value v or worse (below v on High, above it on Low).
    let mut not_better = [0i32; FACES];
    let mut run = 0;
    for i in 0..10 {
        let v = if high { 1 + i } else { 10 - i };
        run += count[v];
        not_better[v] = run;
    }
    for s in slots.iter().filter(|s| !s.burn && !is_royal(s.face)) {
        points[s.owner as usize] += not_better[s.face as usize];
    }
}

/// Straight: values shown more than once burn; each remaining card with a remaining neighbour value
/// scores 1.
fn settle_straight(king: bool, slots: &mut [Slot], points: &mut [i32; MAX_PLAYERS], out: &mut Settled) {
    let mut count = [0u8; FACES + 1];
    for s in slots.iter().filter(|s| !is_royal(s.face)) {
        count[s.face as usize] += 1;
    }
    if count.iter().any(|&c| c > 1) {
        if king {
            out.king_saves += 1;
        } else {
            for s in slots.iter_mut().filter(|s| !is_royal(s.face) && count[s.face as usize] > 1) {
                s.burn = true;
            }
            count.iter_mut().filter(|c| **c > 1).for_each(|c| *c = 0);
        }
    }
    for s in slots.iter().filter(|s| !s.burn && !is_royal(s.face)) {
        let v = s.face as usize;
        if count[v - 1] > 0 || count[v + 1] > 0 {
            points[s.owner as usize] += 1;
        }
    }
}

/// Event totals of one game (mapped onto the record's counters by the engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub cards_burned: u64,
    pub jack_burns: u64,
    pub king_saves: u64,
    pub queen_swaps: u64,
    pub cards_drawn: u64,
    pub short_pile_draws: u64,
    pub draws_blocked: u64,
}

/// The whole state of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub players: usize,
    pub version: Version,
    pub decks: usize,
    pub max_rounds: u32,
    pub hands: Vec<Vec<u8>>,
    /// The draw pile; the top is the end.
    pub pile: Vec<u8>,
    pub territories: [Vec<Slot>; 4],
    /// Burned cards by face: every burned card was face up, so this is public.
    pub burned: [u16; FACES],
    pub scores: [i32; MAX_PLAYERS],
    /// Points by seat and scoring territory (High, Low, Straight).
    pub points: [[i32; 3]; MAX_PLAYERS],
    /// Rounds played so far (the round in progress included).
    pub round: u32,
    /// The pile ran out at the end of a round: the round in progress is the last.
    pub last_round: bool,
    /// Queens every player saw return to a hand by a swap and not yet placed again.
    pub queens_known: [u8; MAX_PLAYERS],
}

impl State {
    pub fn new(players: usize, version: Version, decks: usize, max_rounds: u32) -> State {
        let capacity = decks * 52;
        State {
            players,
            version,
            decks,
            max_rounds,
            hands: vec![Vec::with_capacity(capacity); players],
            pile: Vec::with_capacity(capacity),
            territories: std::array::from_fn(|_| Vec::with_capacity(capacity)),
            burned: [0; FACES],
            scores: [0; MAX_PLAYERS],
            points: [[0; 3]; MAX_PLAYERS],
            round: 0,
            last_round: false,
            queens_known: [0; MAX_PLAYERS],
        }
    }

    /// Starts a game from a shuffled deck: 7 cards each, dealt one at a time from the top.
    pub fn deal(&mut self, deck: &[u8]) {
        self.pile.clear();
        self.pile.extend_from_slice(deck);
        for h in &mut self.hands {
            h.clear();
        }
        for _ in 0..HAND {
            for seat in 0..self.players {
                if let Some(c) = self.pile.pop() {
                    self.hands[seat].push(c);
                }
            }
        }
        self.reset_table();
    }

    fn reset_table(&mut self) {
        for t in &mut self.territories {
            t.clear();
        }
        self.burned = [0; FACES];
        self.scores = [0; MAX_PLAYERS];
        self.points = [[0; 3]; MAX_PLAYERS];
        self.round = 0;
        self.last_round = false;
        self.queens_known = [0; MAX_PLAYERS];
    }

    pub fn hands_empty(&self) -> bool {
        self.hands.iter().all(|h| h.is_empty())
    }

    /// Cards anywhere in the game (hands, pile, table, burned): constant through a game.
    pub fn total_cards(&self) -> usize {
        self.hands.iter().map(Vec::len).sum::<usize>()
            + self.pile.len()
            + self.territories.iter().map(Vec::len).sum::<usize>()
            + self.burned.iter().map(|&b| b as usize).sum::<usize>()
    }

    /// Puts `seat`'s cards face down where `targets` (one per hand card, `KEEP` or a territory) says.
    pub fn place(&mut self, seat: usize, targets: &[u8]) {
        let hand = &mut self.hands[seat];
        debug_assert_eq!(targets.len(), hand.len());
        let mut i = 0;
        let mut k = 0;
        hand.retain(|&face| {
            let t = targets[i];
            i += 1;
            if t == KEEP {
                return true;
            }
            self.territories[t as usize].push(Slot::new(seat, face, true));
            if face == QUEEN && self.queens_known[seat] > 0 {
                // A Queen seen going back to this hand may be this one: the public knows one fewer.
                k += 1;
            }
            false
        });
        self.queens_known[seat] = self.queens_known[seat].saturating_sub(k);
    }

    /// Swaps `seat`'s fresh Queen at (territory, index) for hand card `hand_index`: the Queen goes
    /// back to the hand (face up, so everyone knows it is there) and the card counts as placed.
    pub fn swap_queen(&mut self, seat: usize, t: usize, index: usize, hand_index: usize) {
        let slot = &mut self.territories[t][index];
        debug_assert!(slot.face == QUEEN && slot.owner as usize == seat && slot.fresh);
        let card = self.hands[seat][hand_index];
        debug_assert!(card != QUEEN);
        slot.face = card;
        self.hands[seat][hand_index] = QUEEN;
        self.queens_known[seat] += 1;
    }

    /// Settles the round after placement and Queen swaps: Jacks, then High, Low, Straight, Draw
    /// (each territory's Jack is decided before any scoring, and territories never interact, so
    /// settling them in order is the same), then every royal burns.
    pub fn settle_round<N: Narr>(&mut self, rng: &mut GameRng, tally: &mut Tally, narr: &mut N) {
        let mut round_points = [0i32; MAX_PLAYERS];
        for t in HIGH..=STRAIGHT {
            let mut pts = [0i32; MAX_PLAYERS];
            let done = settle(t, &mut self.territories[t], &mut pts);
            self.record_settled(done, tally);
            if N::ON {
                self.tell_settled(t, done, &pts, narr);
            }
            for s in 0..self.players {
                self.points[s][t] += pts[s];
                round_points[s] += pts[s];
            }
            self.burn_marked(t);
        }
        self.settle_draw(rng, tally, narr);
        self.burn_royals(tally);
        for (score, gained) in self.scores.iter_mut().zip(round_points) {
            *score += gained;
        }
        for t in &mut self.territories {
            t.iter_mut().for_each(|s| s.fresh = false);
        }
        if N::ON {
            let totals: Vec<String> = (0..self.players)
                .map(|s| format!("P{s} +{} = {}", round_points[s], self.scores[s]))
                .collect();
            narr.line(format_args!("  scores: {}", totals.join(", ")));
        }
    }

    fn record_settled(&self, done: Settled, tally: &mut Tally) {
        tally.cards_burned += done.burned as u64;
        tally.jack_burns += done.jack_burn as u64;
        tally.king_saves += done.king_saves as u64;
    }

    fn tell_settled<N: Narr>(&self, t: usize, done: Settled, pts: &[i32; MAX_PLAYERS], narr: &mut N) {
        let cards = describe_slots(&self.territories[t]);
        let burned: Vec<String> = self.territories[t]
            .iter()
            .filter(|s| s.burn)
            .map(|s| format!("{}(P{})", face_label(s.face), s.owner))
            .collect();
        let scored: Vec<String> =
            (0..self.players).filter(|&s| pts[s] != 0).map(|s| format!("P{s} +{}", pts[s])).collect();
        narr.line(format_args!(
            "  {:<8} [{}]{}{}{} scores: {}",
            TERRITORIES[t],
            cards,
            if done.jack_burn { " Jack burns the territory;" } else { "" },
            if done.king_saves > 0 { " King saves it;" } else { "" },
            if burned.is_empty() { String::new() } else { format!(" burns {};", burned.join(" ")) },
            if scored.is_empty() { "none".to_string() } else { scored.join(", ") }
        ));
    }

    /// Draw: each card placed there this round draws 3 for its owner, except that a Jack (without
    /// a King) lets only its owners draw; then the territory burns unless a King is there.
    fn settle_draw<N: Narr>(&mut self, rng: &mut GameRng, tally: &mut Tally, narr: &mut N) {
        let slots = &self.territories[DRAW];
        let mut jack_owner = [false; MAX_PLAYERS];
        for s in slots.iter().filter(|s| s.face == JACK) {
            jack_owner[s.owner as usize] = true;
        }
        let jacked = jack_owner.iter().any(|&j| j) && !slots.iter().any(|s| s.face == KING);
        let mut due = [0usize; MAX_PLAYERS];
        for s in slots.iter().filter(|s| s.fresh) {
            if jacked && !jack_owner[s.owner as usize] {
                tally.draws_blocked += 1;
            } else {
                due[s.owner as usize] += DRAW_PER_CARD;
            }
        }
        let mut pts = [0i32; MAX_PLAYERS];
        let done = settle(DRAW, &mut self.territories[DRAW], &mut pts);
        self.record_settled(done, tally);
        if N::ON {
            self.tell_settled(DRAW, done, &pts, narr);
        }
        self.draw_dues(&due, rng, tally, narr);
        self.burn_marked(DRAW);
    }

    /// Hands out the draws; when the pile cannot cover them all, one card at a time in seat order
    /// from a random seat, until every due is met or the pile is empty.
    fn draw_dues<N: Narr>(
        &mut self,
        due: &[usize; MAX_PLAYERS],
        rng: &mut GameRng,
        tally: &mut Tally,
        narr: &mut N,
    ) {
        let total: usize = due.iter().sum();
        if total == 0 {
            return;
        }
        let mut got = [0usize; MAX_PLAYERS];
        if total <= self.pile.len() {
            for s in 0..self.players {
                for _ in 0..due[s] {
                    let c = self.pile.pop().expect("pile covers the draws");
                    self.hands[s].push(c);
                }
                got[s] = due[s];
            }
        } else {
            tally.short_pile_draws += 1;
            let start = below(rng, self.players as u32) as usize;
            let mut s = start;
            while !self.pile.is_empty() && (0..self.players).any(|x| got[x] < due[x]) {
                if got[s] < due[s] {
                    let c = self.pile.pop().expect("checked");
                    self.hands[s].push(c);
                    got[s] += 1;
                }
                s = (s + 1) % self.players;
            }
            if N::ON {
                narr.line(format_args!("  the pile is short: draws go one at a time from P{start}"));
            }
        }
        tally.cards_drawn += got.iter().sum::<usize>() as u64;
        if N::ON {
            let drew: Vec<String> =
                (0..self.players).filter(|&s| got[s] > 0).map(|s| format!("P{s} draws {}", got[s])).collect();
            narr.line(format_args!("  {} ({} left in the pile)", drew.join(", "), self.pile.len()));
        }
    }

    fn burn_marked(&mut self, t: usize) {
        if !self.territories[t].iter().any(|s| s.burn) {
            return;
        }
        let burned = &mut self.burned;
        self.territories[t].retain(|s| {
            if s.burn {
                burned[s.face as usize] += 1;
            }
            !s.burn
        });
    }

    /// End of round: every royal still on the table burns, Kings included.
    fn burn_royals(&mut self, tally: &mut Tally) {
        for t in 0..4 {
            let mut any = false;
            for s in self.territories[t].iter_mut() {
                s.burn = is_royal(s.face);
                any |= s.burn;
            }
            if !any {
                continue;
            }
            let before = self.territories[t].len();
            self.burn_marked(t);
            tally.cards_burned += (before - self.territories[t].len()) as u64;
        }
    }

    /// What `seat` may see now. `reveal` is false during placement (this round's cards are face
    /// down; as placement is one simultaneous step there are none yet) and true after the reveal.
    pub fn observe(&self, seat: usize, reveal: bool, obs: &mut Observation) {
        obs.seat = seat as u8;
        obs.players = self.players as u8;
        obs.version = self.version;
        obs.decks = self.decks as u8;
        obs.max_rounds = self.max_rounds;
        obs.round = self.round;
        obs.last_round = self.last_round;
        obs.pile = self.pile.len() as u16;
        obs.hand.clear();
        obs.hand.extend_from_slice(&self.hands[seat]);
        obs.hand_sizes = [0; MAX_PLAYERS];
        for s in 0..self.players {
            obs.hand_sizes[s] = self.hands[s].len() as u16;
        }
        for t in 0..4 {
            obs.territories[t].clear();
            obs.territories[t].extend(self.territories[t].iter().filter(|s| reveal || !s.fresh));
        }
        obs.burned = self.burned;
        obs.scores = self.scores;
        obs.queens_known = self.queens_known;
    }
}

/// "7(P0) 5(P1)".
pub fn describe_slots(slots: &[Slot]) -> String {
    slots.iter().map(|s| format!("{}(P{})", face_label(s.face), s.owner)).collect::<Vec<_>>().join(" ")
}

/// Everything one seat may know: its hand, every face-up card with its owner, the burned cards,
/// scores, hand sizes, the pile's size, and Queens seen going back to a hand. Never another hand's
/// cards, the pile's cards, or this round's face-down placements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub seat: u8,
    pub players: u8,
    pub version: Version,
    pub decks: u8,
    pub max_rounds: u32,
    pub round: u32,
    pub last_round: bool,
    pub pile: u16,
    pub hand: Vec<u8>,
    pub hand_sizes: [u16; MAX_PLAYERS],
    pub territories: [Vec<Slot>; 4],
    pub burned: [u16; FACES],
    pub scores: [i32; MAX_PLAYERS],
    pub queens_known: [u8; MAX_PLAYERS],
}

impl Default for Observation {
    fn default() -> Self {
        Observation {
            seat: 0,
            players: 0,
            version: Version::A,
            decks: 1,
            max_rounds: 0,
            round: 0,
            last_round: false,
            pile: 0,
            hand: Vec::with_capacity(32),
            hand_sizes: [0; MAX_PLAYERS],
            territories: std::array::from_fn(|_| Vec::with_capacity(32)),
            burned: [0; FACES],
            scores: [0; MAX_PLAYERS],
            queens_known: [0; MAX_PLAYERS],
        }
    }
}
