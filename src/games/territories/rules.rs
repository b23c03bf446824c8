//! The rules of Territorial Warfare (`docs/rules/territories.md`): the table, how a territory
//! settles and scores, how a round is played, and what each seat may see and do.
//!
//! `State` is the table: hands, draw pile, the four territories with every card's owner, the
//! burned cards (face up, so public) and the scores. `settle` is the pure scoring rule of one
//! territory, shared by the engine and by the agents' evaluations, so the agents can never disagree
//! with the rules they are judged by. `Observation` is what one seat may see of a `State`; `Place`
//! and `Swap` are the two decisions a round asks. `Game` plays the rounds step by step: it stops at
//! every decision, so the engine's line-up and the search agent's simulations play the same rules.

use super::Version;
use super::narrate;
use crate::decide::search::{Steps, standing};
use crate::decide::{Decision, Legal};
use crate::games::narrate::{Narrator, Silent};
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
    // Indexed by face: a value's neighbours (0 to 11) stay inside, and royals are never counted.
    let mut count = [0u8; FACES];
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
    /// Cards dealt to each player (`HAND` by the rules text; the `hand_size` setting).
    pub hand: usize,
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
            hand: HAND,
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

    /// Starts a game from a shuffled deck: `hand` cards each (7 by the rules text), dealt one at a
    /// time from the top while the deck lasts.
    pub fn deal(&mut self, deck: &[u8]) {
        self.pile.clear();
        self.pile.extend_from_slice(deck);
        for h in &mut self.hands {
            h.clear();
        }
        for _ in 0..self.hand {
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
            // A Queen seen going back to this hand may be this one: the public knows one fewer.
            k += u8::from(face == QUEEN);
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
    pub fn settle_round<N: Narrator>(&mut self, rng: &mut GameRng, tally: &mut Tally, narr: &mut N) {
        let mut round_points = [0i32; MAX_PLAYERS];
        for t in HIGH..=STRAIGHT {
            let mut pts = [0i32; MAX_PLAYERS];
            let done = settle(t, &mut self.territories[t], &mut pts);
            self.record_settled(done, tally);
            if N::ON {
                narrate::settled(self, t, done, &pts, narr);
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
            narrate::scores(self, &round_points, narr);
        }
    }

    fn record_settled(&self, done: Settled, tally: &mut Tally) {
        tally.cards_burned += done.burned as u64;
        tally.jack_burns += done.jack_burn as u64;
        tally.king_saves += done.king_saves as u64;
    }

    /// Draw: each card placed there this round draws 3 for its owner, except that a Jack (without
    /// a King) lets only its owners draw; then the territory burns unless a King is there.
    fn settle_draw<N: Narrator>(&mut self, rng: &mut GameRng, tally: &mut Tally, narr: &mut N) {
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
            narrate::settled(self, DRAW, done, &pts, narr);
        }
        self.draw_dues(&due, rng, tally, narr);
        self.burn_marked(DRAW);
    }

    /// Hands out the draws; when the pile cannot cover them all, one card at a time in seat order
    /// from a random seat, until every due is met or the pile is empty.
    fn draw_dues<N: Narrator>(
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
            // The pile holds fewer cards than the dues, so it runs out before every seat is served.
            while !self.pile.is_empty() {
                if got[s] < due[s] {
                    let c = self.pile.pop().expect("checked");
                    self.hands[s].push(c);
                    got[s] += 1;
                }
                s = (s + 1) % self.players;
            }
            if N::ON {
                narrate::short_pile(start, narr);
            }
        }
        tally.cards_drawn += got.iter().sum::<usize>() as u64;
        if N::ON {
            narrate::draws(self, &got, narr);
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

/// The placement decision: one target per hand card (`KEEP` or a territory index).
pub struct Place;

impl Decision for Place {
    type Observation = Observation;
    type Legal = PlaceLegal;
    type Action = Vec<u8>;
}

/// Legal placements: any card to any territory or kept (B); at most one card per territory (A).
#[derive(Clone, Copy, Debug)]
pub struct PlaceLegal {
    pub version: Version,
    pub hand: usize,
}

impl PlaceLegal {
    pub fn allows(&self, targets: &[u8]) -> bool {
        let mut used = [0u32; 5];
        for &t in targets {
            if t > KEEP {
                return false;
            }
            used[t as usize] += 1;
        }
        targets.len() == self.hand && (self.version == Version::B || used[..4].iter().all(|&u| u <= 1))
    }
}

/// Placements with `r` hand cards left and territories `t..4` to fill, at most one card each:
/// the sum over k filled territories of C(4 - t, k) times the falling factorial r (r-1) ... (r-k+1).
/// Read from a table built at compile time for the hands a game holds (fewer than `COUNTED` cards):
/// a random placement asks for it twice per territory.
pub(super) fn completions(t: usize, r: u64) -> u64 {
    match COMPLETIONS[t].get(r as usize) {
        Some(&n) => n,
        None => count_completions(t, r),
    }
}

/// Hands of up to `COUNTED - 1` cards have their completions in `COMPLETIONS`.
const COUNTED: usize = 32;
const COMPLETIONS: [[u64; COUNTED]; 5] = {
    let mut table = [[0; COUNTED]; 5];
    let mut t = 0;
    while t < 5 {
        let mut r = 0;
        while r < COUNTED {
            table[t][r] = count_completions(t, r as u64);
            r += 1;
        }
        t += 1;
    }
    table
};

/// `completions`, counted.
const fn count_completions(t: usize, r: u64) -> u64 {
    const BINOMIAL: [[u64; 5]; 5] =
        [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]];
    let free = 4 - t;
    let mut total = 0;
    let mut falling = 1;
    let mut k = 0;
    while k <= free {
        total += BINOMIAL[free][k] * falling;
        falling *= r.saturating_sub(k as u64);
        k += 1;
    }
    total
}

impl Legal<Vec<u8>> for PlaceLegal {
    /// B: each card independently kept or on one of four territories (5^h placements, uniform).
    /// A: territory by territory, empty or one of the remaining cards, with the probabilities that
    /// make every legal placement equally likely (counted by `completions`).
    fn uniform(&self, rng: &mut GameRng, out: &mut Vec<u8>) {
        out.clear();
        out.resize(self.hand, KEEP);
        match self.version {
            Version::B => out.iter_mut().for_each(|t| *t = below(rng, 5) as u8),
            Version::A => {
                let mut r = self.hand as u64;
                for t in 0..4 {
                    let total = completions(t, r);
                    let pick = below(rng, total as u32) as u64;
                    if pick < completions(t + 1, r) {
                        continue;
                    }
                    let k = below(rng, r as u32) as usize;
                    let slot = out.iter().enumerate().filter(|(_, x)| **x == KEEP).nth(k).expect("k < r").0;
                    out[slot] = t as u8;
                    r -= 1;
                }
            }
        }
    }
}

/// The Queen-swap decision, asked after the reveal of a seat that placed Queens this round: one
/// entry per such Queen (in territory order, then table order): `NO_SWAP` or a hand index.
pub struct Swap;
pub const NO_SWAP: u8 = u8::MAX;

impl Decision for Swap {
    type Observation = Observation;
    type Legal = SwapLegal;
    type Action = Vec<u8>;
}

/// The seat's fresh Queens, as (territory, index on it), and the hand cards that may replace one
/// (anything but another Queen).
#[derive(Clone, Debug, Default)]
pub struct SwapLegal {
    pub queens: Vec<(u8, u16)>,
    pub swappable: Vec<u8>,
}

impl SwapLegal {
    pub fn allows(&self, picks: &[u8]) -> bool {
        let chosen = picks.iter().filter(|&&p| p != NO_SWAP);
        picks.len() == self.queens.len()
            && chosen.clone().all(|p| self.swappable.contains(p))
            && chosen.clone().enumerate().all(|(i, p)| !chosen.clone().skip(i + 1).any(|q| q == p))
    }
}

impl Legal<Vec<u8>> for SwapLegal {
    /// Per Queen: uniform over "keep it" and the hand cards not yet used by an earlier Queen.
    fn uniform(&self, rng: &mut GameRng, out: &mut Vec<u8>) {
        out.clear();
        for _ in 0..self.queens.len() {
            let free = self.swappable.iter().filter(|h| !out.contains(h)).count() as u32;
            let k = below(rng, free + 1);
            let pick = if k == free {
                NO_SWAP
            } else {
                *self.swappable.iter().filter(|h| !out.contains(h)).nth(k as usize).expect("k < free")
            };
            out.push(pick);
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The last round after the pile ran out was played.
    PileOut,
    /// No player held a card at the start of a round.
    HandsEmpty,
    Capped,
}

/// Where a game stands: the decision it waits for, or its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// `seat` places (every seat in turn, each from the table as it was before any placement).
    Place(usize),
    /// `seat`, which has fresh Queens on the revealed table, decides its swaps.
    Swap(usize),
    Over(End),
}

/// A game in progress, stopped at its next decision: the table, where the round stands, and the
/// round's answers, held back until every seat has given its own (so no seat sees another's
/// answer of the same moment).
#[derive(Clone, Debug)]
pub struct Game {
    pub st: State,
    pub tally: Tally,
    next: Next,
    /// This round's placements, applied together once the last seat has chosen.
    targets: Vec<Vec<u8>>,
    /// Each seat's fresh Queens, as (territory, index), once the placements are revealed.
    swap_at: Vec<Vec<(u8, u16)>>,
    /// Each seat's swap answers, applied together once the last seat has chosen.
    picks: Vec<Vec<u8>>,
    /// The legal swaps of the seat asked now.
    swap: SwapLegal,
}

impl Game {
    pub fn new(players: usize, version: Version, decks: usize, max_rounds: u32) -> Game {
        Game::on(State::new(players, version, decks, max_rounds))
    }

    /// A new game under `rules` (players, version, decks, round cap and hand size).
    pub fn of_rules(rules: &super::Rules) -> Game {
        let mut g = Game::new(rules.players, rules.version, rules.decks, rules.max_rounds);
        g.st.hand = rules.hand;
        g
    }

    /// A game on the given table, not yet started (`begin`).
    pub fn on(st: State) -> Game {
        let players = st.players;
        Game {
            st,
            tally: Tally::default(),
            next: Next::Over(End::HandsEmpty),
            targets: vec![Vec::with_capacity(32); players],
            swap_at: vec![Vec::with_capacity(8); players],
            picks: vec![Vec::with_capacity(8); players],
            swap: SwapLegal::default(),
        }
    }

    /// Starts a game from a shuffled deck (`begin` then plays it).
    pub fn deal(&mut self, deck: &[u8]) {
        self.st.deal(deck);
        self.tally = Tally::default();
    }

    /// Plays on from the table as it stands to the first decision of the next round (or the end).
    pub fn begin<N: Narrator>(&mut self, narr: &mut N) {
        self.start_round(narr);
    }

    #[inline]
    pub fn next(&self) -> Next {
        self.next
    }

    /// The legal placements of `seat` this round.
    #[inline]
    pub fn place_legal(&self, seat: usize) -> PlaceLegal {
        PlaceLegal { version: self.st.version, hand: self.st.hands[seat].len() }
    }

    /// The legal swaps of the seat asked now (at `Next::Swap`).
    pub fn swap_legal(&self) -> &SwapLegal {
        &self.swap
    }

    /// What `seat` sees at this decision: this round's cards are face down while seats place and
    /// face up once they decide their swaps.
    pub fn observe(&self, seat: usize, obs: &mut Observation) {
        self.st.observe(seat, matches!(self.next, Next::Swap(_)), obs);
    }

    /// Takes the answer of the seat asked now, then plays on to the next decision or the end.
    /// Panics on an illegal answer: a policy that breaks the rules is a bug.
    pub fn answer<N: Narrator>(&mut self, action: &[u8], rng: &mut GameRng, narr: &mut N) {
        match self.next {
            Next::Place(seat) => {
                assert!(
                    self.place_legal(seat).allows(action),
                    "seat {seat} chose an illegal placement {action:?}"
                );
                self.targets[seat].clear();
                self.targets[seat].extend_from_slice(action);
                if seat + 1 < self.st.players {
                    self.next = Next::Place(seat + 1);
                } else {
                    self.reveal(rng, narr);
                }
            }
            Next::Swap(seat) => {
                assert!(self.swap.allows(action), "seat {seat} chose an illegal Queen swap {action:?}");
                self.picks[seat].clear();
                self.picks[seat].extend_from_slice(action);
                self.ask_swaps(seat + 1, rng, narr);
            }
            Next::Over(end) => panic!("the game is over ({end:?})"),
        }
    }

    /// A new round, unless no hand holds a card or the round cap is reached.
    fn start_round<N: Narrator>(&mut self, narr: &mut N) {
        let st = &mut self.st;
        self.next = if st.hands_empty() {
            Next::Over(End::HandsEmpty)
        } else if st.round >= st.max_rounds {
            Next::Over(End::Capped)
        } else {
            st.round += 1;
            if N::ON {
                narrate::round(st, narr);
            }
            Next::Place(0)
        };
    }

    /// Every placement is applied at once; then the seats with fresh Queens decide their swaps (with
    /// none, `ask_swaps` settles the round at once).
    fn reveal<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        for seat in 0..self.st.players {
            if N::ON {
                narrate::placement(&self.st, seat, &self.targets[seat], narr);
            }
            self.st.place(seat, &self.targets[seat]);
        }
        for seat in 0..self.st.players {
            self.swap_at[seat].clear();
            self.picks[seat].clear();
        }
        for t in 0..4 {
            for (i, s) in self.st.territories[t].iter().enumerate() {
                if s.fresh && s.face == QUEEN {
                    self.swap_at[s.owner as usize].push((t as u8, i as u16));
                }
            }
        }
        self.ask_swaps(0, rng, narr);
    }

    /// Asks the first seat from `from` on with fresh Queens; once none is left, applies every
    /// swap and settles the round.
    fn ask_swaps<N: Narrator>(&mut self, from: usize, rng: &mut GameRng, narr: &mut N) {
        if let Some(seat) = (from..self.st.players).find(|&s| !self.swap_at[s].is_empty()) {
            let hand = &self.st.hands[seat];
            self.swap.queens.clone_from(&self.swap_at[seat]);
            self.swap.swappable.clear();
            self.swap.swappable.extend((0..hand.len() as u8).filter(|&h| hand[h as usize] != QUEEN));
            self.next = Next::Swap(seat);
            return;
        }
        for seat in 0..self.st.players {
            for (q, &pick) in self.swap_at[seat].iter().zip(&self.picks[seat]) {
                if pick != NO_SWAP {
                    if N::ON {
                        narrate::swap(seat, q.0 as usize, self.st.hands[seat][pick as usize], narr);
                    }
                    self.st.swap_queen(seat, q.0 as usize, q.1 as usize, pick as usize);
                    self.tally.queen_swaps += 1;
                }
            }
        }
        self.settle(rng, narr);
    }

    /// Settles the round; the game ends after the last round, else the next one starts.
    fn settle<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.st.settle_round(rng, &mut self.tally, narr);
        if self.st.last_round {
            self.next = Next::Over(End::PileOut);
            return;
        }
        self.st.last_round = self.st.pile.is_empty();
        self.start_round(narr);
    }
}

/// The game as the search agent simulates it (`crate::decide::search`).
impl Steps for Game {
    type Observation = Observation;
    type Action = Vec<u8>;

    #[inline]
    fn to_move(&self) -> Option<usize> {
        match self.next {
            Next::Place(seat) | Next::Swap(seat) => Some(seat),
            Next::Over(_) => None,
        }
    }

    fn observe(&self, seat: usize, obs: &mut Observation) {
        Game::observe(self, seat, obs);
    }

    fn random_action(&self, rng: &mut GameRng, out: &mut Vec<u8>) {
        match self.next {
            Next::Place(seat) => self.place_legal(seat).uniform(rng, out),
            Next::Swap(_) => self.swap.uniform(rng, out),
            Next::Over(_) => out.clear(),
        }
    }

    fn apply(&mut self, action: &Vec<u8>, rng: &mut GameRng) {
        self.answer(action, rng, &mut Silent);
    }

    fn value(&self, seat: usize) -> f64 {
        standing(&self.st.scores[..self.st.players], seat)
    }
}
