//! A card set as the game plays it: every design with its printed value and rarity, and its
//! abilities compiled into a closed vocabulary of small `Copy` values (`docs/cards.md`).
//!
//! A set is read and checked once per scenario point (`cardfile::parse`); the game then reads
//! abilities by index and never allocates for them. Every enum here is one keyword of the format,
//! so what a file can say is exactly what the engine can do.

use super::card::MAX_VALUE;

/// Rarity of a design, which bounds its text and decides where a dealt pool places it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rarity {
    Common,
    Uncommon,
    Rare,
}

impl Rarity {
    pub const ALL: [Rarity; 3] = [Rarity::Common, Rarity::Uncommon, Rarity::Rare];

    pub fn name(self) -> &'static str {
        match self {
            Rarity::Common => "common",
            Rarity::Uncommon => "uncommon",
            Rarity::Rare => "rare",
        }
    }

    /// The characters its printed text may hold.
    pub fn text_limit(self) -> usize {
        match self {
            Rarity::Common => 30,
            Rarity::Uncommon => 60,
            Rarity::Rare => 180,
        }
    }
}

/// The number of triggers.
pub const TRIGGERS: usize = 15;

/// When an ability acts (`on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// When this card turns face up (the default).
    Reveal,
    /// Never fires: a modifier that holds while this card is face up on the table.
    Static,
    TurnStart,
    AfterPlace,
    AfterReveal,
    AfterDraw,
    ScoreStart,
    /// Right after this card's slot is scored.
    SlotScored,
    ScoreEnd,
    /// When a card the `watch` selector matches is destroyed.
    Destroyed,
    /// When another card the `watch` selector matches turns face up.
    Revealed,
    /// When a card the `watch` selector matches is placed from a hand onto the table.
    Placed,
    /// When the source's controller draws a card (once per card).
    Drawn,
    /// When the source's controller discards a card (once per card).
    Discarded,
    /// Right after this card's slot is scored, if the opponent took it.
    SlotLost,
}

impl Trigger {
    pub const WORDS: [(&'static str, Trigger); TRIGGERS] = [
        ("reveal", Trigger::Reveal),
        ("static", Trigger::Static),
        ("turn_start", Trigger::TurnStart),
        ("after_place", Trigger::AfterPlace),
        ("after_reveal", Trigger::AfterReveal),
        ("after_draw", Trigger::AfterDraw),
        ("score_start", Trigger::ScoreStart),
        ("slot_scored", Trigger::SlotScored),
        ("score_end", Trigger::ScoreEnd),
        ("destroyed", Trigger::Destroyed),
        ("revealed", Trigger::Revealed),
        ("placed", Trigger::Placed),
        ("drawn", Trigger::Drawn),
        ("discarded", Trigger::Discarded),
        ("slot_lost", Trigger::SlotLost),
    ];

    /// Its bit in `CardSet::triggers`.
    #[inline]
    pub fn bit(self) -> u16 {
        1 << self as u16
    }

    pub fn name(self) -> &'static str {
        Trigger::WORDS.iter().find(|(_, t)| *t == self).map(|(w, _)| *w).expect("every trigger has a word")
    }

    /// Fires once per turn (and may be limited to some turns).
    pub fn per_turn(self) -> bool {
        matches!(self, Trigger::TurnStart | Trigger::AfterPlace | Trigger::AfterReveal | Trigger::AfterDraw)
    }

    /// Fires on an event about a card (and may watch for some cards).
    pub fn watches(self) -> bool {
        matches!(self, Trigger::Destroyed | Trigger::Revealed | Trigger::Placed)
    }
}

/// A comparison of an integer: `=5`, `>=3`, `2-4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq(i16),
    Ne(i16),
    Lt(i16),
    Le(i16),
    Gt(i16),
    Ge(i16),
    /// Inclusive range.
    In(i16, i16),
}

impl Cmp {
    #[inline]
    pub fn holds(self, x: i32) -> bool {
        match self {
            Cmp::Eq(a) => x == a as i32,
            Cmp::Ne(a) => x != a as i32,
            Cmp::Lt(a) => x < a as i32,
            Cmp::Le(a) => x <= a as i32,
            Cmp::Gt(a) => x > a as i32,
            Cmp::Ge(a) => x >= a as i32,
            Cmp::In(a, b) => (a as i32..=b as i32).contains(&x),
        }
    }
}

/// How this card's value compares with the opposing card's (`vs_oc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl Order {
    pub const WORDS: [(&'static str, Order); 6] = [
        ("<", Order::Lt),
        ("<=", Order::Le),
        ("=", Order::Eq),
        ("!=", Order::Ne),
        (">=", Order::Ge),
        (">", Order::Gt),
    ];

    #[inline]
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Order::Lt => a < b,
            Order::Le => a <= b,
            Order::Eq => a == b,
            Order::Ne => a != b,
            Order::Ge => a >= b,
            Order::Gt => a > b,
        }
    }
}

/// Whose cards or whose hand, seen from the ability's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Both,
    /// The player on whose side the source lies.
    You,
    Opp,
}

/// Which slots a selector looks at, relative to the source's slot s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slots {
    All,
    /// s.
    This,
    /// The slot of the turn in progress (during scoring: the slot being scored).
    Current,
    /// s-1 and s+1.
    Adjacent,
    /// Every slot below s.
    Prev,
    /// Every slot above s.
    Next,
    /// s-1.
    Prev1,
    /// s+1.
    Next1,
    /// Absolute slots, 1-based, inclusive.
    Range(u8, u8),
}

/// Face up, face down, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Any,
    Up,
    Down,
}

/// How many of the matching cards a selector takes, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    All,
    /// The source's controller chooses `n` (a policy decision).
    Choose,
    Random,
    Highest,
    Lowest,
}

/// What a selector starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Cards on the table matching the filter.
    Filter,
    /// The source itself.
    Source,
    /// The card the triggering event is about.
    Event,
    /// The other cards in the source's place (its stack, `stacked`).
    Stacked,
    /// The cards in a hand, pile or deck (only counted: `per` and `count`), of `side`.
    Hand,
    Pile,
    Deck,
}

impl Base {
    /// Whether it names a zone off the table (hand, pile, deck).
    pub fn is_zone(self) -> bool {
        matches!(self, Base::Hand | Base::Pile | Base::Deck)
    }
}

/// A choice of cards on the table, relative to the ability's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selector {
    pub base: Base,
    pub side: Side,
    pub slots: Slots,
    pub printed: Option<Cmp>,
    pub value: Option<Cmp>,
    pub face: Face,
    /// `Some(true)`: has at least one counter; `Some(false)`: has none.
    pub counters: Option<bool>,
    /// Leaves the source out.
    pub other: bool,
    pub pick: Pick,
    pub n: u8,
}

impl Selector {
    /// Every card on the table.
    pub const ALL: Selector = Selector {
        base: Base::Filter,
        side: Side::Both,
        slots: Slots::All,
        printed: None,
        value: None,
        face: Face::Any,
        counters: None,
        other: false,
        pick: Pick::All,
        n: 1,
    };
    pub const SOURCE: Selector = Selector { base: Base::Source, ..Selector::ALL };
    pub const EVENT: Selector = Selector { base: Base::Event, ..Selector::ALL };
    /// The opposing card (OC).
    pub const OC: Selector = Selector { side: Side::Opp, slots: Slots::This, ..Selector::ALL };

    /// Whether it reads current values (which a static ability may not).
    pub fn reads_values(&self) -> bool {
        self.value.is_some() || matches!(self.pick, Pick::Highest | Pick::Lowest)
    }

    /// Whether the filter tests each card of its places (`State::fits_card`): a face, `other`,
    /// counters, a printed value or a value. One that names sides and slots only takes every card
    /// lying there without reading any. Every field is named, so that a filter key added to
    /// `Selector` must be sorted here too.
    #[inline]
    pub fn tests_each_card(&self) -> bool {
        let Selector { base: _, side: _, slots: _, printed, value, face, counters, other, pick: _, n: _ } =
            *self;
        face != Face::Any || other || counters.is_some() || printed.is_some() || value.is_some()
    }

    /// Whether it names "the card" of each place it looks at: a filter over one slot (`oc`, `this`,
    /// `current`, `prev1`, `next1`, a single slot number), which reads the top card of each of its
    /// places. Every other filter (a whole side, `all`, several slots) takes every card lying in
    /// its places, the cards covered in a stack too.
    #[inline]
    pub fn names_tops(&self) -> bool {
        self.base == Base::Filter
            && match self.slots {
                Slots::This | Slots::Current | Slots::Prev1 | Slots::Next1 => true,
                Slots::Range(a, b) => a == b,
                Slots::All | Slots::Adjacent | Slots::Prev | Slots::Next => false,
            }
    }

    /// Whether it can name at most one card (what a swap needs).
    pub fn names_one(&self) -> bool {
        match self.base {
            Base::Source | Base::Event => true,
            Base::Stacked | Base::Hand | Base::Pile | Base::Deck => false,
            Base::Filter if self.pick != Pick::All => self.n == 1,
            Base::Filter => {
                self.side != Side::Both
                    && match self.slots {
                        Slots::This | Slots::Current | Slots::Prev1 | Slots::Next1 => true,
                        Slots::Range(a, b) => a == b,
                        _ => false,
                    }
            }
        }
    }
}

/// The state of the opposing place (`oc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OcState {
    Empty,
    Present,
    Up,
    Down,
}

/// Who took the source's slot (`result`, for `slot_scored`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Tied,
}

/// A condition an ability needs (`if`); all must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Slot(Cmp),
    Count(Selector, Cmp),
    Oc(OcState),
    OcPrinted(Cmp),
    OcValue(Cmp),
    SelfValue(Cmp),
    VsOc(Order),
    Hand(Cmp),
    HandDiff(Cmp),
    Lead(Cmp),
    Result(Outcome),
}

impl Cond {
    /// Whether it reads current values (which a static ability may not).
    pub fn reads_values(&self) -> bool {
        match self {
            Cond::OcValue(_) | Cond::SelfValue(_) | Cond::VsOc(_) => true,
            Cond::Count(sel, _) => sel.reads_values(),
            _ => false,
        }
    }
}

/// Whose hand or score an effect changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    You,
    Opp,
    Both,
}

/// Which cards a discard takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscardPick {
    /// The discarding player chooses.
    Choose,
    Random,
    /// By printed value.
    Highest,
    Lowest,
}

/// How long a triggered modifier or set lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duration {
    /// Until the round ends (or the card leaves the table).
    Round,
    /// While the source stays face up on the table.
    Source,
}

/// Which counters a `clear_counters` takes off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// Both kinds.
    Any,
    /// The +N counters only.
    Plus,
    /// The -N counters only.
    Minus,
}

/// What an ability does: exactly one effect each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Modify {
        target: Selector,
        amount: i8,
        per: Option<Selector>,
        duration: Duration,
    },
    Set {
        target: Selector,
        /// The value set, when `from` is `Fixed`.
        to: i16,
        from: ValueFrom,
        duration: Duration,
    },
    /// Multiplies the targets' values (after every addition) by a number or a stacked card's value.
    Multiply {
        target: Selector,
        by: Factor,
        duration: Duration,
    },
    Counter {
        target: Selector,
        amount: i8,
        per: Option<Selector>,
    },
    ClearCounters {
        target: Selector,
        sign: Sign,
    },
    Destroy {
        target: Selector,
    },
    Return {
        target: Selector,
    },
    Swap {
        a: Selector,
        b: Selector,
    },
    Reveal {
        target: Selector,
    },
    Hide {
        target: Selector,
    },
    Draw {
        player: Player,
        amount: u8,
    },
    Discard {
        player: Player,
        amount: u8,
        pick: DiscardPick,
    },
    Points {
        player: Player,
        amount: i8,
        per: Option<Selector>,
    },
    /// This round, the lower card takes slot `slot` (1-9; 0: the source's slot).
    LowerWins {
        slot: u8,
    },
    /// This round, a tie in slot `slot` (1-9; 0: the source's slot) goes to the controller.
    WinTies {
        slot: u8,
    },
    /// The player(s) put a hand card onto their side of slot `slot` (1-9; 0: the source's),
    /// on top of what lies there.
    Place {
        player: Player,
        slot: u8,
        pick: DiscardPick,
        up: bool,
    },
    /// The target goes onto its side of slot `slot` (1-9; 0: the source's), on top of what
    /// lies there.
    Move {
        target: Selector,
        slot: u8,
    },
    /// The player(s) look at the top card of their deck and put it on the bottom if its printed
    /// value matches `bottom` (else back on top).
    Look {
        player: Player,
        bottom: Cmp,
    },
    /// The player(s) take `amount` cards from their pile into their hand.
    Recover {
        player: Player,
        amount: u8,
        pick: DiscardPick,
    },
    /// The player(s) shuffle their deck.
    Shuffle {
        player: Player,
    },
}

/// Where a `set` takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFrom {
    /// The number `to`.
    Fixed,
    /// The opposing card's value now.
    Oc,
    /// The highest printed value in your hand.
    HandHighest,
    /// The highest value among the other cards in the source's place.
    Stacked,
}

/// What a `multiply` multiplies by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Factor {
    Number(i8),
    /// The highest value among the other cards in the source's place (nothing without one).
    Stacked,
}

impl Effect {
    pub const WORDS: [&'static str; 20] = [
        "modify",
        "set",
        "counter",
        "clear_counters",
        "destroy",
        "return",
        "swap",
        "reveal",
        "hide",
        "draw",
        "discard",
        "points",
        "lower_wins",
        "win_ties",
        "multiply",
        "place",
        "move",
        "look",
        "recover",
        "shuffle",
    ];
}

/// Most conditions on one ability.
pub const MAX_CONDS: usize = 4;

/// One ability of a design, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ability {
    pub on: Trigger,
    /// Turns a per-turn trigger fires on, 1-based inclusive.
    pub turns: (u8, u8),
    /// The cards whose event fires a watching trigger.
    pub watch: Selector,
    pub conds: [Option<Cond>; MAX_CONDS],
    /// The controller may decline it ("you may").
    pub optional: bool,
    pub effect: Effect,
}

impl Ability {
    pub fn conds(&self) -> impl Iterator<Item = &Cond> {
        self.conds.iter().flatten()
    }
}

/// A design's abilities of one trigger, as their heads tell them (`CardSet::fire_of`): where
/// a moment finds them without reading each head again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fire {
    /// The index (in the order written) of the first of them.
    pub first: u16,
    /// How many there are.
    pub count: u16,
    /// The turns they all fire in, when `exact`: every turn for a trigger not limited to turns.
    pub turns: (u8, u8),
    /// Whether the trigger and the turn alone decide which of them fire: they share their
    /// turns, and none watches for a card (else each is matched on its own).
    pub exact: bool,
}

/// The part of an ability that says when it fires (`CardSet::heads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    pub on: Trigger,
    pub turns: (u8, u8),
}

/// One card design.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    pub id: String,
    pub name: String,
    pub rarity: Rarity,
    pub value: u8,
    pub text: String,
    /// Who designed it (empty when the file does not say): an event's player `i` is the set's
    /// `i`-th designer in file order (`deal`).
    pub designer: String,
    /// Its abilities: `CardSet::abilities[first..first + len]`, in file order.
    pub first: u16,
    pub len: u16,
}

/// A card of a fixed pool: a design, or a textless card of a printed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolCard {
    Design(u16),
    Vanilla(u8),
}

/// A whole card set, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardSet {
    pub name: String,
    pub designs: Vec<Design>,
    pub abilities: Vec<Ability>,
    /// A pool fixed by the set for each seat (21-30 cards), instead of a dealt one.
    pub fixed: [Option<Vec<PoolCard>>; 2],
    /// Designs by (rarity, printed value) for dealing pools; rares by rarity alone (index 0).
    pub by_place: [[Vec<u16>; MAX_VALUE as usize + 1]; 3],
    /// Per design, one bit per trigger its abilities use (`Trigger::bit`): the engine skips a
    /// card with one test when it has nothing to do at a moment.
    pub triggers: Vec<u16>,
    /// Each ability's trigger and turns, in `abilities`' order: what a moment reads of every
    /// ability of a card it wakes, kept apart so that it reads a few bytes, not whole abilities.
    pub heads: Vec<Head>,
    /// Per design, its static modifiers of its own value (`target = "self"`), in file order. A
    /// card's value reads its own and every aura on the table, so both are filed apart from the
    /// other abilities.
    pub own_statics: Shelf,
    /// Per design, its static modifiers of other cards' values (auras), in file order.
    pub auras: Shelf,
    /// Per design, whether it has an aura (`auras` not empty): read each time a card is armed,
    /// where one byte costs less than the shelf's two bounds.
    pub has_aura: Vec<bool>,
    /// Per design and trigger (`design * TRIGGERS + trigger`), where its abilities of that
    /// trigger lie and whether their heads alone say which fire (`fire_of`): most instances of a
    /// moment then take their steps with one read instead of a pass over the card's abilities.
    pub fire: Vec<Fire>,
    /// Per design, its own last words (`destroyed` abilities watching `self`), read from its pile.
    pub last_words: Vec<Fire>,
    /// Whether some `watch` reads a value (only then does an event keep its card's value).
    pub watches_values: bool,
    /// Per design, whether one of its `revealed` watchers may hear its own reveal (its `watch`
    /// is `self`, or a filter that neither leaves it out nor looks at the other side only): only
    /// then is a card's own reveal looked at for its watchers.
    pub hears_itself: Vec<bool>,
    /// Per design, what its text is estimated to be worth, in tenths of a point of value
    /// (`strength`): what the deck policy `strength` adds to the printed value.
    pub worth: Vec<i32>,
}

impl CardSet {
    /// The abilities of design `d`.
    #[inline]
    pub fn abilities_of(&self, d: u16) -> &[Ability] {
        let design = &self.designs[d as usize];
        &self.abilities[design.first as usize..(design.first + design.len) as usize]
    }

    /// The heads of design `d`'s abilities (`abilities_of`'s order).
    #[inline]
    pub fn heads_of(&self, d: u16) -> &[Head] {
        let design = &self.designs[d as usize];
        &self.heads[design.first as usize..(design.first + design.len) as usize]
    }

    /// Whether any design has an ability (if none, the game is the base game).
    pub fn has_text(&self) -> bool {
        !self.abilities.is_empty()
    }

    /// Design `d`'s abilities of trigger `t` (`fire`).
    #[inline]
    pub fn fire_of(&self, d: u16, t: Trigger) -> Fire {
        self.fire[d as usize * TRIGGERS + t as usize]
    }

    /// Whether design `d` has an ability with trigger `t`.
    #[inline]
    pub fn has(&self, d: u16, t: Trigger) -> bool {
        self.triggers[d as usize] & t.bit() != 0
    }

    /// Files every design under its place in a dealt pool, and notes its triggers.
    pub fn index(&mut self) {
        self.watches_values = self.abilities.iter().any(|a| a.on.watches() && a.watch.value.is_some());
        self.heads = self.abilities.iter().map(|a| Head { on: a.on, turns: a.turns }).collect();
        self.triggers = (0..self.designs.len() as u16)
            .map(|d| self.abilities_of(d).iter().fold(0, |m, a| m | a.on.bit()))
            .collect();
        self.hears_itself = (0..self.designs.len() as u16)
            .map(|d| {
                self.abilities_of(d).iter().any(|a| {
                    a.on == Trigger::Revealed
                        && (a.watch.base == Base::Source
                            || a.watch.base == Base::Filter && !a.watch.other && a.watch.side != Side::Opp)
                })
            })
            .collect();
        let mut fire = Vec::with_capacity(self.designs.len() * TRIGGERS);
        let mut last_words = Vec::with_capacity(self.designs.len());
        for d in 0..self.designs.len() as u16 {
            let heads = self.heads_of(d);
            // Indexed by trigger, as `fire_of` reads them.
            let mut row = [Fire::default(); TRIGGERS];
            for &(_, t) in &Trigger::WORDS {
                let every_turn = if t.per_turn() { None } else { Some((0, u8::MAX)) };
                row[t as usize] =
                    Fire::of(heads.iter().map(|h| (h.on == t, h.turns)), every_turn, !t.watches());
            }
            fire.extend(row);
            let own = self.abilities_of(d).iter();
            let last = own.map(|a| (a.on == Trigger::Destroyed && a.watch == Selector::SOURCE, (0, u8::MAX)));
            last_words.push(Fire::of(last, Some((0, u8::MAX)), true));
        }
        (self.fire, self.last_words) = (fire, last_words);
        self.own_statics = Shelf::default();
        self.auras = Shelf::default();
        for design in &self.designs {
            let own = &self.abilities[design.first as usize..(design.first + design.len) as usize];
            let statics = || {
                own.iter().filter(|a| a.on == Trigger::Static && matches!(a.effect, Effect::Modify { .. }))
            };
            let on_self = |a: &&Ability| matches!(a.effect, Effect::Modify { target, .. } if target.base == Base::Source);
            self.own_statics.file(statics().filter(on_self));
            self.auras.file(statics().filter(|a| !on_self(a)));
        }
        self.has_aura = (0..self.designs.len() as u16).map(|d| !self.auras.of(d).is_empty()).collect();
        self.by_place = Default::default();
        for (d, design) in self.designs.iter().enumerate() {
            let r = Rarity::ALL.iter().position(|&r| r == design.rarity).expect("listed");
            let v = if design.rarity == Rarity::Rare { 0 } else { design.value as usize };
            self.by_place[r][v].push(d as u16);
        }
    }
}

impl Fire {
    /// The summary of a design's abilities, each given as (whether it is of the trigger, its
    /// turns): `turns` the turns to read for all of them (else their own, if they share them),
    /// `plain` whether the trigger watches for no card.
    fn of(abilities: impl Iterator<Item = (bool, (u8, u8))>, turns: Option<(u8, u8)>, plain: bool) -> Fire {
        let mut fire = Fire { exact: plain, ..Fire::default() };
        let mut shared = turns;
        for (k, (of, own)) in abilities.enumerate() {
            if !of {
                continue;
            }
            if fire.count == 0 {
                fire.first = k as u16;
                shared = shared.or(Some(own));
            }
            fire.count += 1;
            fire.exact &= turns.is_some() || shared == Some(own);
        }
        fire.turns = shared.unwrap_or((0, u8::MAX));
        fire
    }
}

/// Static modifiers filed design by design: design `d`'s are `list[at[d]..at[d + 1]]`, in file
/// order, with each one's target selector beside it in `targets` (same index): a value reads
/// every aura on the table, and most are out of reach of the card valued, which the target alone
/// tells, so the whole ability is read only for those in reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shelf {
    list: Vec<Ability>,
    targets: Vec<Selector>,
    at: Vec<u32>,
}

impl Default for Shelf {
    fn default() -> Self {
        Shelf { list: Vec::new(), targets: Vec::new(), at: vec![0] }
    }
}

impl Shelf {
    /// Files the next design's modifiers (`Effect::Modify` only).
    fn file<'a>(&mut self, abilities: impl Iterator<Item = &'a Ability>) {
        for a in abilities {
            let Effect::Modify { target, .. } = a.effect else { unreachable!("a shelf holds modifiers") };
            self.list.push(*a);
            self.targets.push(target);
        }
        self.at.push(self.list.len() as u32);
    }

    /// Design `d`'s modifiers.
    #[inline]
    pub fn of(&self, d: u16) -> &[Ability] {
        &self.list[self.span(d)]
    }

    /// Design `d`'s modifiers and their targets.
    #[inline]
    pub fn with_targets(&self, d: u16) -> (&[Ability], &[Selector]) {
        let span = self.span(d);
        (&self.list[span.clone()], &self.targets[span])
    }

    #[inline]
    fn span(&self, d: u16) -> std::ops::Range<usize> {
        self.at[d as usize] as usize..self.at[d as usize + 1] as usize
    }
}
