//! The rules of Cardwars (`docs/rules/cardwars.md`): cards, the zones of each seat, the legal
//! answers of every decision, and the game as a machine that stops at each decision.
//!
//! A turn: unmark, draw, play (at most one resource, then faces one at a time, each with a minimal
//! payment), attack, defense (a joker from hand, or blocks), the attacker's damage order for each
//! attacker blocked twice or more, damage, end. `Game` plays it step by step: it stops wherever a
//! seat has more than one legal answer (the defender's block in the middle of the attacker's turn
//! included) and plays everything else itself, so the engine's line-up and the search agent's
//! simulations play the same rules. `Options` are the legal answers of the decision the game
//! stops at, and their uniform draw is `random` exactly as the rulings define it. `Observation` is
//! what one seat may see. Every zone is a fixed-size array: a game allocates nothing.

use super::PLAYERS;
use super::narrate;
use crate::decide::search::Steps;
use crate::decide::{Decision, Legal};
use crate::games::narrate::{Narrator, Silent};
use crate::pile::Pile;
use rand_core::Rng;

use crate::seed::{GameRng, below, shuffle};

/// Cards in each seat's deck: two suits of 13 and a joker.
pub const DECK: usize = 27;
/// The rank of a joker (numerals are 1 to 10, J 11, Q 12, K 13).
pub const JOKER: u8 = 14;
/// What a joker is worth as a resource: value 10, of every suit.
pub const JOKER_VALUE: u8 = 10;
/// "No block" in a block answer.
pub const NO_BLOCK: u8 = u8::MAX;

/// A card: its rank in the low four bits, its suit (standard index) above; a joker's "suit" is
/// its seat, so the two jokers stay distinct.
#[inline]
pub const fn card(rank: u8, suit: u8) -> u8 {
    suit << 4 | rank
}

#[inline]
pub const fn rank(c: u8) -> u8 {
    c & 15
}

#[inline]
pub const fn suit(c: u8) -> u8 {
    c >> 4
}

#[inline]
pub const fn is_joker(c: u8) -> bool {
    rank(c) == JOKER
}

/// Jacks, Queens and Kings.
#[inline]
pub const fn is_face(c: u8) -> bool {
    rank(c) >= 11 && rank(c) <= 13
}

/// Numerals and jokers.
#[inline]
pub const fn is_resource(c: u8) -> bool {
    !is_face(c)
}

/// What a card pays, deals (faces) and absorbs: its rank, 10 for a joker.
#[inline]
pub const fn value(c: u8) -> u8 {
    if is_joker(c) { JOKER_VALUE } else { rank(c) }
}

/// Whether resource `r` may pay for a face of suit `s`: one of that suit, or a joker.
#[inline]
pub const fn pays_for(r: u8, s: u8) -> bool {
    is_joker(r) || (is_resource(r) && suit(r) == s)
}

/// "QH", "10D", "AS", "Joker".
pub fn label(c: u8) -> String {
    if is_joker(c) {
        return "Joker".into();
    }
    const R: [&str; 14] = ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    format!("{}{}", R[rank(c) as usize], crate::cards::suit_label(suit(c)))
}

/// A fixed-capacity list (a deck, a hand, a graveyard, a battlefield): no seat ever holds more
/// than its 27 cards in one zone, so no zone allocates.
pub type Zone<T> = Pile<T, DECK>;

/// A card on a battlefield.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub card: u8,
    /// Turned sideways: a face that attacked, until its owner's next recovery.
    pub marked: bool,
    /// Put into play this turn (a face cannot attack the turn it is played).
    pub fresh: bool,
}

/// One seat's cards and life. The deck's top is its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player {
    pub deck: Zone<u8>,
    pub hand: Zone<u8>,
    pub grave: Zone<u8>,
    pub field: Zone<Unit>,
    pub life: i32,
}

impl Player {
    /// A mask of the field's units for which `keep` holds.
    #[inline]
    pub fn field_mask(&self, keep: impl Fn(&Unit) -> bool) -> u32 {
        let mut m = 0;
        for (i, u) in self.field.as_slice().iter().enumerate() {
            m |= u32::from(keep(u)) << i;
        }
        m
    }

    /// Faces that may attack: unmarked and not played this turn.
    pub fn ready_faces(&self) -> u32 {
        self.field_mask(|u| is_face(u.card) && !u.marked && !u.fresh)
    }

    /// Cards that may block: every unmarked one.
    pub fn blockers(&self) -> u32 {
        self.field_mask(|u| !u.marked)
    }

    /// The joker in hand, if held.
    pub fn joker_in_hand(&self) -> Option<usize> {
        self.hand.as_slice().iter().position(|&c| is_joker(c))
    }

    /// Moves the field's units in `mask` to the graveyard, in field order; returns how many.
    fn destroy(&mut self, mask: u32) -> u64 {
        let n = self.field.len();
        let grave = &mut self.grave;
        self.field.keep(|i, u| {
            let stays = mask >> i & 1 == 0;
            if !stays {
                grave.push(u.card);
            }
            stays
        });
        (n - self.field.len()) as u64
    }
}

/// The settings the rules read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub life: i32,
    pub opening_hand: u8,
    pub first_draw: bool,
    pub max_turns: u32,
    pub stall_turns: u32,
    /// Compensation for moving second: extra cards in the second player's opening hand, extra
    /// draws on its first turn, extra starting life.
    pub second_extra_cards: u8,
    pub second_extra_draws: u8,
    pub second_extra_life: i32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            life: 20,
            opening_hand: 0,
            first_draw: true,
            max_turns: 400,
            stall_turns: 40,
            second_extra_cards: 0,
            second_extra_draws: 0,
            second_extra_life: 0,
        }
    }
}

/// Event totals of one game (mapped onto the record's counters by the engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub faces_played: u64,
    pub overpaid_value: u64,
    pub joker_resources: u64,
    pub attacks: u64,
    pub blocks: u64,
    pub trades: u64,
    pub joker_defenses: u64,
    pub cards_destroyed: u64,
    pub reshuffles: u64,
    pub empty_draws: u64,
    pub damage_to_life: u64,
    /// The turn of the first attack (0: none yet).
    pub first_attack: u32,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The seat whose opponent's life fell to 0 or less.
    Won(usize),
    /// `max_turns` turns were played.
    Capped,
    /// `stall_turns` turns in a row changed nothing: frozen, ended as capped.
    Stalled,
}

/// Where a game stands: the decision it waits for (and whose), or its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The active seat may play one resource from hand.
    Resource(usize),
    /// The active seat may play a face with a payment (again after each face).
    Face(usize),
    /// The active seat chooses its attackers.
    Attack(usize),
    /// The defending seat plays its joker or declares blocks.
    Defend(usize),
    /// The active seat orders the blockers of one attacker (`Game::ordering`).
    Order(usize),
    Over(End),
}

/// An answer to any decision. `Pass` is "none": no resource, no face, no attack, no block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    #[default]
    Pass,
    /// The resource at this hand index.
    Resource(u8),
    /// The face at hand index `.0`, paid by the field's resources in mask `.1`.
    Face(u8, u32),
    /// The faces of the field in this mask attack (never empty: no attack is `Pass`).
    Attack(u32),
    /// The defender plays its joker from hand.
    Joker,
    /// Per defender field index: `NO_BLOCK` or the field index of the attacker it blocks.
    Block([u8; DECK]),
    /// The blockers of the attacker being ordered, as defender field indices, in damage order.
    Order(Zone<u8>),
}

impl Action {
    /// An attack by `mask`, `Pass` when it is empty.
    pub fn attack(mask: u32) -> Action {
        if mask == 0 { Action::Pass } else { Action::Attack(mask) }
    }

    /// Blocks as given, `Pass` when nothing blocks.
    pub fn block(blocks: [u8; DECK]) -> Action {
        if blocks.iter().all(|&b| b == NO_BLOCK) { Action::Pass } else { Action::Block(blocks) }
    }
}

/// The legal answers of the decision the game stops at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Resource: hand indices of the resources held.
    pub resources: u32,
    /// Face: every (hand index, minimal payment mask), face by face in hand order.
    pub faces: Vec<(u8, u32)>,
    /// Attack: the faces that may attack.
    pub ready: u32,
    /// Defend: whether a joker is held; the attackers; the defender's cards that may block.
    pub joker: bool,
    pub attackers: u32,
    pub blockers: u32,
    /// Order: the blockers to order (defender field indices, in field order).
    pub to_order: Zone<u8>,
}

/// The one kind of decision Cardwars asks (its stage is in the observation's `next`).
pub struct Turn;

impl Decision for Turn {
    type Observation = Observation;
    type Legal = Options;
    type Action = Action;
}

impl Options {
    /// Whether `a` answers the decision `next` legally.
    pub fn allows(&self, next: Next, a: &Action) -> bool {
        match (next, a) {
            (Next::Resource(_) | Next::Face(_) | Next::Attack(_) | Next::Defend(_), Action::Pass) => true,
            (Next::Resource(_), Action::Resource(h)) => *h < 32 && self.resources >> h & 1 == 1,
            (Next::Face(_), Action::Face(h, m)) => self.faces.contains(&(*h, *m)),
            (Next::Attack(_), Action::Attack(m)) => *m != 0 && m & !self.ready == 0,
            (Next::Defend(_), Action::Joker) => self.joker,
            (Next::Defend(_), Action::Block(b)) => b.iter().enumerate().all(|(i, &t)| {
                t == NO_BLOCK || (self.blockers >> i & 1 == 1 && t < 32 && self.attackers >> t & 1 == 1)
            }),
            (Next::Order(_), Action::Order(o)) => {
                let want = self.to_order.as_slice().iter().fold(0u32, |m, &b| m | 1 << b);
                let mut seen = 0u32;
                o.len() == self.to_order.len()
                    && o.as_slice().iter().all(|&b| {
                        let fresh = b < 32 && want >> b & 1 == 1 && seen >> b & 1 == 0;
                        seen |= 1u32.checked_shl(b as u32).unwrap_or(0);
                        fresh
                    })
            }
            _ => false,
        }
    }
}

/// Index of the `k`-th set bit of `mask`.
#[inline]
fn nth_bit(mask: u32, k: u32) -> u32 {
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

impl Legal<Action> for Options {
    /// `random` as the rulings define it: the resource and the face (with its payment) uniform
    /// over the legal options and "none"; each ready face attacks with probability 1/2 (one bit
    /// of a draw each); a held joker defends with probability 1/2, otherwise each card that may
    /// block picks uniformly
    /// among "no block" and the attackers; a uniform damage order. The stage is the one these
    /// options were made for (each stage fills its own fields and clears the others).
    fn uniform(&self, rng: &mut GameRng, out: &mut Action) {
        *out = if self.resources != 0 {
            let k = below(rng, self.resources.count_ones() + 1);
            if k == 0 { Action::Pass } else { Action::Resource(nth_bit(self.resources, k - 1) as u8) }
        } else if !self.faces.is_empty() {
            let k = below(rng, self.faces.len() as u32 + 1) as usize;
            self.faces.get(k).map_or(Action::Pass, |&(h, m)| Action::Face(h, m))
        } else if self.ready != 0 {
            // One fair coin per ready face: the bits of one 32-bit draw.
            Action::attack(self.ready & rng.next_u32())
        } else if self.attackers != 0 {
            if self.joker && below(rng, 2) == 1 {
                Action::Joker
            } else {
                let n = self.attackers.count_ones();
                let mut b = [NO_BLOCK; DECK];
                let mut free = self.blockers;
                while free != 0 {
                    let i = free.trailing_zeros() as usize;
                    free &= free - 1;
                    let k = below(rng, n + 1);
                    if k > 0 {
                        b[i] = nth_bit(self.attackers, k - 1) as u8;
                    }
                }
                Action::block(b)
            }
        } else {
            let mut o = self.to_order;
            shuffle(rng, o.as_mut_slice());
            Action::Order(o)
        };
    }
}

/// Everything one seat may see: its own hand, both battlefields (marks, cards played this turn),
/// both graveyards, the sizes of every deck and hand, both lives, the turn, and where the turn
/// stands (attackers, blocks declared, the attacker being ordered). Never a card of another hand
/// or the order of a deck.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    pub seat: u8,
    pub config: Config,
    pub next: Next,
    pub turn: u32,
    pub active: u8,
    pub first: u8,
    pub quiet: u32,
    pub moved: bool,
    pub life: [i32; PLAYERS],
    pub field: [Zone<Unit>; PLAYERS],
    pub grave: [Zone<u8>; PLAYERS],
    pub deck_len: [u8; PLAYERS],
    pub hand_len: [u8; PLAYERS],
    pub hand: Zone<u8>,
    pub attackers: u32,
    pub blocks: [u8; DECK],
    pub order_pos: [u8; DECK],
    pub ordering: u8,
}

impl Default for Next {
    fn default() -> Self {
        Next::Over(End::Capped)
    }
}

/// A game in progress, stopped at its next decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub config: Config,
    pub players: [Player; PLAYERS],
    /// The seat whose turn it is, and the seat that played the first turn.
    pub active: usize,
    pub first: usize,
    /// Turns begun so far (the turn in progress included).
    pub turn: u32,
    /// Turns in a row, ending with the last one finished, in which nothing changed.
    pub quiet: u32,
    /// Something was drawn, played or destroyed, or life lost, in the turn in progress.
    pub moved: bool,
    pub tally: Tally,
    next: Next,
    options: Options,
    /// This turn's attackers (the active seat's field mask).
    pub attackers: u32,
    /// Per defender field index: `NO_BLOCK` or the attacker it blocks.
    pub blocks: [u8; DECK],
    /// Per defender field index: its place in its attacker's damage order.
    pub order_pos: [u8; DECK],
    /// The attacker whose blockers are being ordered.
    pub ordering: u8,
}

impl Game {
    pub fn new(config: Config) -> Game {
        Game {
            config,
            players: [Player::default(); PLAYERS],
            active: 0,
            first: 0,
            turn: 0,
            quiet: 0,
            moved: false,
            tally: Tally::default(),
            next: Next::Over(End::Capped),
            options: Options { faces: Vec::with_capacity(64), ..Options::default() },
            attackers: 0,
            blocks: [NO_BLOCK; DECK],
            order_pos: [0; DECK],
            ordering: 0,
        }
    }

    /// Sets up a game from each seat's shuffled deck (top last) with `first` to play first:
    /// full life, the opening hands drawn, nothing else anywhere. `begin` then plays it.
    pub fn deal(&mut self, decks: [&[u8]; PLAYERS], first: usize) {
        for (seat, (p, deck)) in self.players.iter_mut().zip(decks).enumerate() {
            let second = seat != first;
            let (extra_life, extra_cards) = match second {
                true => (self.config.second_extra_life, self.config.second_extra_cards),
                false => (0, 0),
            };
            *p = Player { deck: Zone::of(deck), life: self.config.life + extra_life, ..Player::default() };
            for _ in 0..self.config.opening_hand + extra_cards {
                if let Some(c) = p.deck.pop() {
                    p.hand.push(c);
                }
            }
        }
        self.first = first;
        self.active = first;
        self.turn = 0;
        self.quiet = 0;
        self.tally = Tally::default();
        self.attackers = 0;
    }

    /// Plays the first turn up to its first decision (or the end).
    pub fn begin<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.begin_turn(rng, narr);
    }

    #[inline]
    pub fn next(&self) -> Next {
        self.next
    }

    /// The legal answers of the decision the game stops at.
    #[inline]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The defending seat.
    #[inline]
    pub fn defender(&self) -> usize {
        1 - self.active
    }

    /// What `seat` may see now.
    pub fn observe(&self, seat: usize, obs: &mut Observation) {
        *obs = Observation {
            seat: seat as u8,
            config: self.config,
            next: self.next,
            turn: self.turn,
            active: self.active as u8,
            first: self.first as u8,
            quiet: self.quiet,
            moved: self.moved,
            life: [self.players[0].life, self.players[1].life],
            field: [self.players[0].field, self.players[1].field],
            grave: [self.players[0].grave, self.players[1].grave],
            deck_len: [self.players[0].deck.len() as u8, self.players[1].deck.len() as u8],
            hand_len: [self.players[0].hand.len() as u8, self.players[1].hand.len() as u8],
            hand: self.players[seat].hand,
            attackers: self.attackers,
            blocks: self.blocks,
            order_pos: self.order_pos,
            ordering: self.ordering,
        };
    }

    /// Places the game at the decision an observation shows, with the given hands and decks
    /// (the search's determinization): everything public from `obs`, then the options remade.
    pub fn resume_at(&mut self, obs: &Observation, hands: [Zone<u8>; PLAYERS], decks: [Zone<u8>; PLAYERS]) {
        self.config = obs.config;
        for s in 0..PLAYERS {
            self.players[s] = Player {
                deck: decks[s],
                hand: hands[s],
                grave: obs.grave[s],
                field: obs.field[s],
                life: obs.life[s],
            };
        }
        self.active = obs.active as usize;
        self.first = obs.first as usize;
        self.turn = obs.turn;
        self.quiet = obs.quiet;
        self.moved = obs.moved;
        self.tally = Tally::default();
        self.attackers = obs.attackers;
        self.blocks = obs.blocks;
        self.order_pos = obs.order_pos;
        self.ordering = obs.ordering;
        self.next = obs.next;
        self.stop_at(obs.next);
    }

    /// Panics on an answer the options do not allow: a policy that breaks the rules is a bug.
    pub fn check_answer(&self, a: &Action) {
        assert!(self.options.allows(self.next, a), "{:?}: illegal answer {a:?}", self.next);
    }

    /// Takes the answer of the seat asked now, then plays on to the next decision or the end.
    /// The answer must be one the options allow: the game does not check it here, because the
    /// check (a scan of every face payment) costs about 6% of a game and every policy's answers
    /// are checked in the census the conformance test plays and in every told game
    /// ([`Game::check_answer`]).
    pub fn answer<N: Narrator>(&mut self, a: &Action, rng: &mut GameRng, narr: &mut N) {
        match (self.next, *a) {
            (Next::Resource(s), Action::Resource(h)) => {
                self.play_resource(s, h as usize, narr);
                self.ask_faces(rng, narr);
            }
            (Next::Resource(_), _) => self.ask_faces(rng, narr),
            (Next::Face(s), Action::Face(h, m)) => {
                self.play_face(s, h as usize, m, narr);
                self.ask_faces(rng, narr);
            }
            (Next::Face(_), _) => self.ask_attack(rng, narr),
            (Next::Attack(_), Action::Attack(m)) => self.declare_attack(m, rng, narr),
            (Next::Attack(_), _) => {
                if N::ON {
                    narrate::no_attack(self, true, narr);
                }
                self.end_turn(rng, narr)
            }
            (Next::Defend(_), Action::Joker) => self.joker_defense(rng, narr),
            (Next::Defend(_), Action::Block(b)) => {
                self.blocks = b;
                self.order_pos = [0; DECK];
                if N::ON {
                    narrate::blocks(self, narr);
                }
                self.ask_order(0, rng, narr);
            }
            (Next::Defend(_), _) => {
                self.blocks = [NO_BLOCK; DECK];
                if N::ON {
                    narrate::blocks(self, narr);
                }
                self.resolve(rng, narr);
            }
            (Next::Order(_), Action::Order(o)) => {
                for (k, &b) in o.as_slice().iter().enumerate() {
                    self.order_pos[b as usize] = k as u8;
                }
                if N::ON {
                    narrate::order(self, &o, narr);
                }
                self.ask_order(self.ordering as u32 + 1, rng, narr);
            }
            (next, a) => unreachable!("{next:?} answered {a:?}"),
        }
    }

    /// Recovery and draw, then the play phase.
    fn begin_turn<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.turn += 1;
        self.moved = false;
        self.attackers = 0;
        let s = self.active;
        for u in self.players[s].field.as_mut_slice() {
            u.marked = false;
            u.fresh = false;
        }
        if N::ON {
            narrate::turn(self, narr);
        }
        if self.turn > 1 || self.config.first_draw {
            self.draw(s, rng, narr);
        }
        // The second player's first turn: its compensation draws, out of the common path.
        if self.turn == 2 && self.config.second_extra_draws > 0 {
            self.extra_draws(s, rng, narr);
        }
        if N::ON {
            narrate::hand(self, s, narr);
        }
        self.ask_resource(rng, narr);
    }

    /// The compensation draws of the second player's first turn (`second_extra_draws`).
    #[cold]
    #[inline(never)]
    fn extra_draws<N: Narrator>(&mut self, s: usize, rng: &mut GameRng, narr: &mut N) {
        for _ in 0..self.config.second_extra_draws {
            self.draw(s, rng, narr);
        }
    }

    /// Draws one card; an empty deck takes the shuffled graveyard first; with both empty, nothing.
    /// Inlined into the turn's start, its common caller: as a call of its own it cost more per turn.
    #[inline(always)]
    fn draw<N: Narrator>(&mut self, s: usize, rng: &mut GameRng, narr: &mut N) {
        let p = &mut self.players[s];
        if p.deck.is_empty() {
            if p.grave.is_empty() {
                self.tally.empty_draws += 1;
                if N::ON {
                    narr.line(format_args!("  P{s} has no card in deck or graveyard: no draw"));
                }
                return;
            }
            // Copied, not swapped: the graveyard's array keeps only cards that were face up.
            p.deck = p.grave;
            p.grave.clear();
            shuffle(rng, p.deck.as_mut_slice());
            self.tally.reshuffles += 1;
            if N::ON {
                narr.line(format_args!(
                    "  P{s}'s deck is empty: the graveyard ({}) is shuffled in",
                    p.deck.len()
                ));
            }
        }
        let c = p.deck.pop().expect("a deck with cards");
        p.hand.push(c);
        self.moved = true;
        if N::ON {
            narr.line(format_args!("  P{s} draws {}", label(c)));
        }
    }

    /// Stops at `next` with its options made from the table as it stands (the game's own flow
    /// passes straight on where a decision has one answer only; a test may stop anywhere).
    pub fn stop_at(&mut self, next: Next) {
        self.next = next;
        let o = &mut self.options;
        o.resources = 0;
        o.faces.clear();
        o.ready = 0;
        o.joker = false;
        o.attackers = 0;
        o.blockers = 0;
        o.to_order.clear();
        match next {
            Next::Resource(s) => {
                for (i, &c) in self.players[s].hand.as_slice().iter().enumerate() {
                    o.resources |= u32::from(is_resource(c)) << i;
                }
            }
            Next::Face(s) => payments(&self.players[s], &mut o.faces),
            Next::Attack(s) => o.ready = self.players[s].ready_faces(),
            Next::Defend(d) => {
                o.joker = self.players[d].joker_in_hand().is_some();
                o.attackers = self.attackers;
                o.blockers = self.players[d].blockers();
            }
            Next::Order(_) => {
                for (i, &b) in self.blocks.iter().enumerate() {
                    if b == self.ordering {
                        o.to_order.push(i as u8);
                    }
                }
            }
            Next::Over(_) => {}
        }
    }

    fn ask_resource<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.stop_at(Next::Resource(self.active));
        if self.options.resources == 0 {
            self.ask_faces(rng, narr);
        }
    }

    fn ask_faces<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.stop_at(Next::Face(self.active));
        if self.options.faces.is_empty() {
            self.ask_attack(rng, narr);
        }
    }

    fn ask_attack<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.stop_at(Next::Attack(self.active));
        if self.options.ready == 0 {
            if N::ON && self.players[self.active].field.as_slice().iter().any(|u| is_face(u.card)) {
                narrate::no_attack(self, false, narr);
            }
            self.end_turn(rng, narr);
        }
    }

    fn play_resource<N: Narrator>(&mut self, s: usize, h: usize, narr: &mut N) {
        let p = &mut self.players[s];
        let c = p.hand.remove(h);
        p.field.push(Unit { card: c, marked: false, fresh: true });
        self.tally.joker_resources += u64::from(is_joker(c));
        self.moved = true;
        if N::ON {
            narr.line(format_args!("  P{s} plays the resource {}", label(c)));
        }
    }

    fn play_face<N: Narrator>(&mut self, s: usize, h: usize, payment: u32, narr: &mut N) {
        let p = &mut self.players[s];
        let c = p.hand.remove(h);
        let paid: u32 = (0..p.field.len())
            .filter(|i| payment >> i & 1 == 1)
            .map(|i| value(p.field.item(i).card) as u32)
            .sum();
        if N::ON {
            narrate::face(s, c, p, payment, narr);
        }
        self.tally.cards_destroyed += p.destroy(payment);
        self.tally.overpaid_value += u64::from(paid - value(c) as u32);
        p.field.push(Unit { card: c, marked: false, fresh: true });
        self.tally.faces_played += 1;
        self.moved = true;
    }

    fn declare_attack<N: Narrator>(&mut self, mask: u32, rng: &mut GameRng, narr: &mut N) {
        let s = self.active;
        for (i, u) in self.players[s].field.as_mut_slice().iter_mut().enumerate() {
            u.marked |= mask >> i & 1 == 1;
        }
        self.attackers = mask;
        self.tally.attacks += u64::from(mask.count_ones());
        if self.tally.first_attack == 0 {
            self.tally.first_attack = self.turn;
        }
        if N::ON {
            narrate::attack(self, narr);
        }
        self.blocks = [NO_BLOCK; DECK];
        self.stop_at(Next::Defend(self.defender()));
        if !self.options.joker && self.options.blockers == 0 {
            self.resolve(rng, narr);
        }
    }

    fn joker_defense<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        let d = self.defender();
        let h = self.players[d].joker_in_hand().expect("a held joker");
        let j = self.players[d].hand.remove(h);
        self.players[d].grave.push(j);
        if N::ON {
            narrate::joker(self, narr);
        }
        let killed = self.players[self.active].destroy(self.attackers);
        self.tally.cards_destroyed += killed;
        self.tally.joker_defenses += 1;
        self.moved = true;
        self.end_turn(rng, narr);
    }

    /// Asks the attacker to order the blockers of the next attacker from field index `from` on
    /// that has two or more; with none left, resolves the combat.
    fn ask_order<N: Narrator>(&mut self, from: u32, rng: &mut GameRng, narr: &mut N) {
        for a in from..32 {
            if self.attackers >> a & 1 == 1 && self.blocks.iter().filter(|&&b| b == a as u8).count() >= 2 {
                self.ordering = a as u8;
                self.stop_at(Next::Order(self.active));
                return;
            }
        }
        self.resolve(rng, narr);
    }

    /// Damage, all at once: each attacker's value fills its blockers in its order, each up to its
    /// value; what none absorbs goes to the defender's life; an attacker takes its face blockers'
    /// values; then every card whose absorbed damage reached its value is destroyed.
    fn resolve<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        let (a, d) = (self.active, self.defender());
        let mut absorbed = [0u8; DECK];
        let mut dead_att = 0u32;
        let mut dead_def = 0u32;
        let mut to_life = 0i32;
        let mut slots = [0u8; DECK];
        for i in 0..self.players[a].field.len() {
            if self.attackers >> i & 1 == 0 {
                continue;
            }
            let att = self.players[a].field.item(i).card;
            let mut n = 0;
            for (j, &b) in self.blocks.iter().enumerate() {
                if b == i as u8 {
                    slots[n] = j as u8;
                    n += 1;
                }
            }
            let blockers = &mut slots[..n];
            blockers.sort_unstable_by_key(|&j| self.order_pos[j as usize]);
            let mut left = value(att);
            let mut taken = 0u32;
            let mut killed_one = false;
            for &j in blockers.iter() {
                let b = self.players[d].field.item(j as usize).card;
                let take = left.min(value(b));
                absorbed[j as usize] = take;
                left -= take;
                if is_face(b) {
                    taken += value(b) as u32;
                }
                if take >= value(b) {
                    dead_def |= 1 << j;
                    killed_one = true;
                }
            }
            let dies = taken >= value(att) as u32;
            dead_att |= u32::from(dies) << i;
            self.tally.trades += u64::from(dies && killed_one);
            self.tally.blocks += n as u64;
            to_life += left as i32;
        }
        if N::ON {
            narrate::damage(self, &absorbed, dead_att, dead_def, to_life, narr);
        }
        let destroyed = self.players[a].destroy(dead_att) + self.players[d].destroy(dead_def);
        self.tally.cards_destroyed += destroyed;
        self.players[d].life -= to_life;
        self.tally.damage_to_life += to_life as u64;
        self.moved |= destroyed > 0 || to_life > 0;
        self.blocks = [NO_BLOCK; DECK];
        self.attackers = 0;
        if self.players[d].life <= 0 {
            self.stop_at(Next::Over(End::Won(a)));
            return;
        }
        self.end_turn(rng, narr);
    }

    /// The stall rule, then the cap, then the opponent's turn.
    fn end_turn<N: Narrator>(&mut self, rng: &mut GameRng, narr: &mut N) {
        self.quiet = if self.moved { 0 } else { self.quiet + 1 };
        if N::ON {
            narrate::end_of_turn(self, narr);
        }
        if self.quiet >= self.config.stall_turns {
            self.stop_at(Next::Over(End::Stalled));
        } else if self.turn >= self.config.max_turns {
            self.stop_at(Next::Over(End::Capped));
        } else {
            self.active = self.defender();
            self.begin_turn(rng, narr);
        }
    }
}

/// Every (face in hand, minimal payment) `p` may play, face by face in hand order. A payment is a
/// set of resources on `p`'s field, each of the face's suit or a joker, totalling at least the
/// face's value, with no card that could be left out.
pub fn payments(p: &Player, out: &mut Vec<(u8, u32)>) {
    out.clear();
    let hand = p.hand.as_slice();
    if !hand.iter().any(|&c| is_face(c)) {
        return;
    }
    let worth = worth_by_suit(p);
    for (h, &c) in hand.iter().enumerate() {
        if !is_face(c) || worth[suit(c) as usize] < value(c) as u32 {
            continue;
        }
        // The usable resources, highest value first: a set reached in that order is minimal when
        // its last (smallest) card was needed.
        let mut items = [(0u8, 0u8); DECK];
        let mut n = 0;
        for (i, u) in p.field.as_slice().iter().enumerate() {
            if pays_for(u.card, suit(c)) {
                items[n] = (i as u8, value(u.card));
                n += 1;
            }
        }
        let items = &mut items[..n];
        items.sort_unstable_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        let mut rest = [0u32; DECK + 1];
        for k in (0..n).rev() {
            rest[k] = rest[k + 1] + items[k].1 as u32;
        }
        minimal_sets(items, &rest, value(c) as u32, 0, 0, 0, &mut |m| out.push((h as u8, m)));
    }
}

/// What `p`'s resources that pay for each suit are worth together (a joker counts for every suit).
#[inline]
fn worth_by_suit(p: &Player) -> [u32; 4] {
    let mut worth = [0u32; 4];
    for u in p.field.as_slice().iter().filter(|u| is_resource(u.card)) {
        if is_joker(u.card) {
            worth.iter_mut().for_each(|w| *w += JOKER_VALUE as u32);
        } else {
            worth[suit(u.card) as usize] += value(u.card) as u32;
        }
    }
    worth
}

/// Depth-first over `items` (highest value first) from `k`: every set that reaches `need` and
/// stops there (so no card of it could be left out).
fn minimal_sets(
    items: &[(u8, u8)],
    rest: &[u32],
    need: u32,
    k: usize,
    sum: u32,
    mask: u32,
    emit: &mut impl FnMut(u32),
) {
    if k == items.len() || sum + rest[k] < need {
        return;
    }
    let (i, v) = (items[k].0, items[k].1 as u32);
    if sum + v >= need {
        emit(mask | 1 << i);
    } else {
        minimal_sets(items, rest, need, k + 1, sum + v, mask | 1 << i, emit);
    }
    minimal_sets(items, rest, need, k + 1, sum, mask, emit);
}

/// The game as the search agent simulates it (`crate::decide::search`).
impl Steps for Game {
    type Observation = Observation;
    type Action = Action;

    #[inline]
    fn to_move(&self) -> Option<usize> {
        match self.next {
            Next::Resource(s) | Next::Face(s) | Next::Attack(s) | Next::Defend(s) | Next::Order(s) => Some(s),
            Next::Over(_) => None,
        }
    }

    fn observe(&self, seat: usize, obs: &mut Observation) {
        Game::observe(self, seat, obs);
    }

    fn random_action(&self, rng: &mut GameRng, out: &mut Action) {
        self.options.uniform(rng, out);
    }

    fn apply(&mut self, action: &Action, rng: &mut GameRng) {
        self.answer(action, rng, &mut Silent);
    }

    /// 1 for a win and 0 for a loss, plus a thousandth of the life margin; a capped or stalled
    /// game (a simulation cut short by its horizon too) is worth one half plus a hundredth of the
    /// life difference, kept within 0.1 to 0.9 so that it never weighs as a win or a loss.
    fn value(&self, seat: usize) -> f64 {
        let diff = (self.players[seat].life - self.players[1 - seat].life) as f64;
        match self.next {
            Next::Over(End::Won(w)) if w == seat => 1.0 + 0.001 * diff,
            Next::Over(End::Won(_)) => (0.001 * diff).max(-0.09),
            _ => (0.5 + 0.01 * diff).clamp(0.1, 0.9),
        }
    }
}
