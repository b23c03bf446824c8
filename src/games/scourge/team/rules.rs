//! Scourge War for four and six players (`docs/rules/scourge.md`, "Team games"): two sides of two or
//! three players, one player per position. One `round` at a time: laying the Units (waiting
//! unfought cards challenged, the others paired across at random, leftovers waiting face down),
//! classifying the face-up cards, then the war region, Scourge War, Scarsands, Scorched Earth or
//! Final Battle.
//!
//! The duel keeps its own fast state (`rules.rs`); this one is the general battlefield (sides ×
//! positions). Cards on the battlefield are counted, waiting cards are kept by owner, and every
//! set of players is a small array or a bit mask, so nothing allocates after the deal. Every step
//! is public so that tests can set an exact position and apply one step of the rules to it.

use crate::games::narrate::Narrator;
use crate::games::scourge::cards::{BLACK_ANCIENT, Decks, Legend, Unit, strength, suit, value};
use crate::games::scourge::rules::{Cause, End, counter};
use crate::record::{Counter, GameRecord};
use crate::seed::{GameRng, below, shuffle};

crate::declare! {
    /// The team game's own counters, declared after the duel's (`rules::counter`), whose indices
    /// they follow: `extra` turns one into the record's index.
    pub mod team_counter: Counter {
        UNFOUGHT_CHALLENGED = "unfought_challenged",
        PARTIAL_ROUNDS = "partial_rounds",
        SCOURGE_BYSTANDERS = "scourge_bystanders",
        SHARED_BEST = "shared_best",
        LEGEND_SIT_OUTS = "legend_sit_outs",
        WAR_STANDS = "war_stands",
        SCARSANDS_ESCALATIONS = "scarsands_escalations",
        UNFOUGHT_FINAL = "unfought_final",
        SIDE_WITHOUT_LEGEND = "side_without_legend",
        MVP_SHARED = "mvp_shared",
        MVP_SHARED_A = "mvp_shared_a",
        MVP_SHARED_B = "mvp_shared_b",
    }
}

/// A team counter's index in the team game's layout: after every duel counter.
#[inline(always)]
pub const fn extra(c: Counter) -> Counter {
    Counter(counter::NAMES.len() as u32 + c.0)
}

/// At most three positions a side, six players.
pub const MAX_SEATS: usize = 6;
/// No card in this slot of a column.
pub const EMPTY: u8 = u8::MAX;

/// What a player without a Legend does when called to a Legend contest (setting `legendless`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legendless {
    /// Sits the contest out; it stands off only when a side shows no Legend.
    SitOut,
    /// Stands the whole contest off.
    StandOff,
}

/// A set of seats (bit s = seat s).
pub type Seats = u8;

/// The battlefield of a round. Columns `0..fought` are fought (a face-up card on both sides);
/// columns `fought..n` are unfought (a face-down waiting card against an empty position).
/// `cols[c] = [side a's seat, side b's seat]`, `EMPTY` where nobody lays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Field {
    pub cols: [[u8; 2]; 3],
    pub n: usize,
    pub fought: usize,
    /// The face-up card of each seat in a fought column.
    pub up: [Unit; MAX_SEATS],
    /// The seats whose waiting card was challenged this round.
    pub challenged: Seats,
}

impl Field {
    /// The fought seats (every face-up card's owner).
    pub fn face_up(&self) -> Seats {
        self.cols[..self.fought].iter().fold(0, |m, c| m | 1 << c[0] | 1 << c[1])
    }
}

/// Which kind of war a region is; each region counts once, in the first kind that fits.
pub use crate::games::scourge::rules::WarKind;

/// The one war region of a team round (T5): the matched cards' owners and the columns they stand in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub kind: WarKind,
    pub matched: Seats,
    /// Bit c = fought column c.
    pub columns: u8,
}

/// The classification of a round's face-up cards; the first that applies wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    ScorchedEarth,
    Scarsands,
    /// The players at war: every face-up card's owner whose value some opposing face-up card has.
    ScourgeWar(Seats),
    War(Region),
    Plain,
}

/// Classifies a round (T5): Scorched Earth and the Scarsands on a full field only; a Scourge War
/// when two disjoint across-pairs of equal values exist; else the one war region (one card matched
/// by one, two or three opposing cards); else plain battles.
pub fn classify(d: &Decks, f: &Field, positions: usize) -> Class {
    let k = f.fought;
    let mut ua = [0u8; 3];
    let mut ub = [0u8; 3];
    for c in 0..k {
        ua[c] = f.up[f.cols[c][0] as usize];
        ub[c] = f.up[f.cols[c][1] as usize];
    }
    let va = ua.map(value);
    let vb = ub.map(value);
    if k == positions
        && (va[0] == vb[0] || suit(ua[0]) == suit(ub[0]))
        && let Some(class) = one_of_a_kind(d, &ua[..k], &ub[..k])
    {
        return class;
    }
    // Most rounds match nothing: one bit per value on each side tells at once.
    let values = |v: &[u8]| v.iter().fold(0u16, |m, &x| m | 1 << x);
    if values(&va[..k]) & values(&vb[..k]) == 0 {
        return Class::Plain;
    }
    // Bit i of `rows` / bit j of `cols`: side a's card in column i equals side b's in column j.
    let mut rows = 0u8;
    let mut cols = 0u8;
    let mut at_war: Seats = 0;
    for (i, x) in va[..k].iter().enumerate() {
        for (j, y) in vb[..k].iter().enumerate() {
            if x == y {
                rows |= 1 << i;
                cols |= 1 << j;
                at_war |= 1 << f.cols[i][0] | 1 << f.cols[j][1];
            }
        }
    }
    // A bipartite graph without two disjoint edges is a star (König): one row or one column.
    if rows.count_ones() >= 2 && cols.count_ones() >= 2 {
        return Class::ScourgeWar(at_war);
    }
    let columns = rows | cols;
    let kind = if at_war.count_ones() >= 3 {
        WarKind::ThreeCard
    } else if columns.count_ones() == 1 {
        WarKind::Column
    } else {
        WarKind::Diagonal
    };
    Class::War(Region { kind, matched: at_war, columns })
}

/// A full field of one value and colour (Scorched Earth), or of one suit or value (Scarsands).
fn one_of_a_kind(d: &Decks, a: &[Unit], b: &[Unit]) -> Option<Class> {
    let first = a[0];
    let cards = || a.iter().chain(b);
    let one_value = cards().all(|&u| value(u) == value(first));
    if one_value && cards().all(|&u| d.colour(u) == d.colour(first)) {
        return Some(Class::ScorchedEarth);
    }
    if one_value || cards().all(|&u| suit(u) == suit(first)) {
        return Some(Class::Scarsands);
    }
    None
}

/// A team game in progress. Stacks and the Legends deck have their top at the end.
#[derive(Clone, Debug)]
pub struct Team {
    /// Positions a side: 2 (four players) or 3 (six).
    pub positions: usize,
    pub legendless: Legendless,
    pub stacks: [Vec<Unit>; MAX_SEATS],
    pub legends: Vec<Legend>,
    /// Each player's face-down Legend, if they have one.
    pub held: [Option<Legend>; MAX_SEATS],
    /// Each player's face-down unfought card waiting for a challenger (at most one: its owner lays
    /// nothing new while it waits).
    pub waiting: [Option<Unit>; MAX_SEATS],
    /// Units and Legends on the battlefield (waiting cards apart), not yet captured or set aside.
    pub field_units: u32,
    pub field_legends: u32,
    /// Captured cards per seat (Units and Legends), and how many of them are Legends.
    pub captured: [u32; MAX_SEATS],
    pub captured_legends: [u32; MAX_SEATS],
    pub set_aside_units: u32,
    pub set_aside_legends: u32,
    /// Rounds laid so far (the game's length).
    pub rounds: u64,
}

/// Seat `s`'s side: 0 (`a`) for seats `0..P`, 1 (`b`) for `P..2P`.
#[inline(always)]
pub fn side_of(seat: usize, positions: usize) -> usize {
    (seat >= positions) as usize
}

pub fn side_name(side: usize) -> &'static str {
    if side == 0 { "a" } else { "b" }
}

/// Picks `k` of the first `n` items into the front of `items`, in uniformly random order.
#[inline]
fn pick(rng: &mut GameRng, items: &mut [u8], n: usize, k: usize) {
    for i in 0..k.min(n.saturating_sub(1)) {
        let j = i + below(rng, (n - i) as u32) as usize;
        items.swap(i, j);
    }
}

impl Team {
    /// An empty game for `2 * positions` players with room for `units` Units and `legends` Legends.
    pub fn with_capacity(positions: usize, legendless: Legendless, units: usize, legends: usize) -> Self {
        Team {
            positions,
            legendless,
            stacks: std::array::from_fn(|_| Vec::with_capacity(units)),
            legends: Vec::with_capacity(legends),
            held: [None; MAX_SEATS],
            waiting: [None; MAX_SEATS],
            field_units: 0,
            field_legends: 0,
            captured: [0; MAX_SEATS],
            captured_legends: [0; MAX_SEATS],
            set_aside_units: 0,
            set_aside_legends: 0,
            rounds: 0,
        }
    }

    pub fn players(&self) -> usize {
        2 * self.positions
    }

    /// Forgets the previous game, keeping the buffers.
    pub fn clear(&mut self) {
        self.stacks.iter_mut().for_each(Vec::clear);
        self.legends.clear();
        self.held = [None; MAX_SEATS];
        self.waiting = [None; MAX_SEATS];
        self.field_units = 0;
        self.field_legends = 0;
        self.captured = [0; MAX_SEATS];
        self.captured_legends = [0; MAX_SEATS];
        self.set_aside_units = 0;
        self.set_aside_legends = 0;
        self.rounds = 0;
    }

    /// Each side's captured cards.
    pub fn scores(&self) -> [u32; 2] {
        let p = self.positions;
        [self.captured[..p].iter().sum(), self.captured[p..2 * p].iter().sum()]
    }

    /// Which side leads on captured cards right now.
    pub fn standing(&self) -> End {
        let [a, b] = self.scores();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => End::Win(0),
            std::cmp::Ordering::Less => End::Win(1),
            std::cmp::Ordering::Equal => End::Draw,
        }
    }

    /// Whether some player of `side` holds a Unit in their stack (waiting cards do not count).
    fn side_has_units(&self, side: usize) -> bool {
        let p = self.positions;
        self.stacks[side * p..(side + 1) * p].iter().any(|s| !s.is_empty())
    }

    pub fn waiting_cards(&self) -> u32 {
        self.waiting.iter().flatten().count() as u32
    }

    /// Plays one round: the Final Battle if a side has no Unit left (T4), else lays the round and
    /// fights it. `Some` when the game is over.
    pub fn round<N: Narrator>(
        &mut self,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        if !self.side_has_units(0) || !self.side_has_units(1) {
            return Some(self.final_battle(Cause::OutOfUnits, d, rng, rec, narr));
        }
        let field = self.lay(rng, rec);
        self.fight(field, d, rng, rec, narr)
    }

    /// Lays a round (T3): waiting cards stay; each is challenged by a player of the other side
    /// who holds a Unit and has no waiting card (at random, and which are challenged at random when
    /// they outnumber the challengers); the other players with a Unit are paired across at
    /// random; the larger side's leftovers lay face down, waiting.
    pub fn lay(&mut self, rng: &mut GameRng, rec: &mut GameRecord) -> Field {
        let p = self.positions;
        let n = 2 * p;
        if self.waiting[..n].iter().all(Option::is_none) && self.stacks[..n].iter().all(|s| !s.is_empty()) {
            return self.lay_full(rng);
        }
        let mut waiting = [[0u8; 3]; 2];
        let mut free = [[0u8; 3]; 2];
        let (mut nw, mut nf) = ([0usize; 2], [0usize; 2]);
        for s in 0..2 {
            for seat in s * p..(s + 1) * p {
                if self.waiting[seat].is_some() {
                    waiting[s][nw[s]] = seat as u8;
                    nw[s] += 1;
                } else if !self.stacks[seat].is_empty() {
                    free[s][nf[s]] = seat as u8;
                    nf[s] += 1;
                }
            }
        }
        let mut f = Field { cols: [[EMPTY; 2]; 3], ..Field::default() };
        // Challenges: the waiting side's cards against the other side's free players.
        let mut left = [0usize; 2];
        for s in 0..2 {
            let o = 1 - s;
            if nw[s] == 0 {
                continue;
            }
            let m = nw[s].min(nf[o]);
            if nf[o] >= nw[s] {
                pick(rng, &mut free[o], nf[o], m);
            } else {
                pick(rng, &mut waiting[s], nw[s], m);
            }
            for i in 0..m {
                let (w, c) = (waiting[s][i] as usize, free[o][i] as usize);
                f.up[w] = self.waiting[w].take().expect("a waiting card");
                f.up[c] = self.stacks[c].pop().expect("a free player holds a Unit");
                let mut col = [EMPTY; 2];
                col[s] = w as u8;
                col[o] = c as u8;
                f.cols[f.n] = col;
                f.challenged |= 1 << w;
                f.n += 1;
            }
            rec.count(extra(team_counter::UNFOUGHT_CHALLENGED), m as u64);
            // Free players of side o used as challengers leave the front of the list.
            free[o].copy_within(m..nf[o], 0);
            nf[o] -= m;
            left[s] = nw[s] - m;
            // Unchallenged waiting cards stay, at the back of `waiting[s]`.
            waiting[s].copy_within(m..nw[s], 0);
        }
        // The other players with a Unit, paired across at random.
        let pairs = nf[0].min(nf[1]);
        let big = (nf[1] > nf[0]) as usize;
        pick(rng, &mut free[big], nf[big], pairs);
        for (&a, &b) in free[0][..pairs].iter().zip(&free[1][..pairs]) {
            let (a, b) = (a as usize, b as usize);
            f.up[a] = self.stacks[a].pop().expect("a free player holds a Unit");
            f.up[b] = self.stacks[b].pop().expect("a free player holds a Unit");
            f.cols[f.n] = [a as u8, b as u8];
            f.n += 1;
        }
        f.fought = f.n;
        self.field_units += 2 * f.fought as u32;
        // Unfought columns: waiting cards left unchallenged, then the leftovers laid face down.
        for s in 0..2 {
            for &w in &waiting[s][..left[s]] {
                let mut col = [EMPTY; 2];
                col[s] = w;
                f.cols[f.n] = col;
                f.n += 1;
            }
        }
        for &seat in &free[big][pairs..nf[big]] {
            let seat = seat as usize;
            self.waiting[seat] = Some(self.stacks[seat].pop().expect("a free player holds a Unit"));
            let mut col = [EMPTY; 2];
            col[big] = seat as u8;
            f.cols[f.n] = col;
            f.n += 1;
            rec.count(counter::UNFOUGHT, 1);
        }
        if f.fought < p {
            rec.count(extra(team_counter::PARTIAL_ROUNDS), 1);
        }
        f
    }

    /// The common round: no waiting card and every player holds a Unit, so side a's players face
    /// side b's in one uniformly random matching (one draw of the generator).
    #[inline(always)]
    fn lay_full(&mut self, rng: &mut GameRng) -> Field {
        const PERMS: [[u8; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let p = self.positions;
        // With two positions the first two permutations of three keep 2 last: [0, 1] and [1, 0]
        // are PERMS[0] and PERMS[2].
        let perm = if p == 3 { PERMS[below(rng, 6) as usize] } else { PERMS[2 * below(rng, 2) as usize] };
        let mut f = Field { cols: [[EMPTY; 2]; 3], n: p, fought: p, up: [0; MAX_SEATS], challenged: 0 };
        for (a, col) in f.cols[..p].iter_mut().enumerate() {
            let b = p + perm[a] as usize;
            f.up[a] = self.stacks[a].pop().expect("every player holds a Unit");
            f.up[b] = self.stacks[b].pop().expect("every player holds a Unit");
            *col = [a as u8, b as u8];
        }
        self.field_units += 2 * p as u32;
        f
    }

    /// Fights a laid round on `field`.
    pub fn fight<N: Narrator>(
        &mut self,
        field: Field,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        self.rounds += 1;
        let class = classify(d, &field, self.positions);
        if N::ON {
            self.tell_field(&field, class, d, narr);
        }
        let end = match class {
            Class::ScorchedEarth => self.scorched_earth(d, rng, rec, narr),
            Class::Scarsands => Some(self.scarsands(&field, d, rng, rec, narr)),
            Class::ScourgeWar(at_war) => {
                self.scourge_war(&field, at_war, d, rng, rec, narr);
                None
            }
            Class::War(region) => self.war_round(&field, region, d, rng, rec, narr),
            Class::Plain => {
                for c in 0..field.fought {
                    self.plain_battle(&field, c, d, rec, narr);
                }
                None
            }
        };
        if N::ON && end.is_none() {
            self.tell_totals(narr);
        }
        end
    }

    /// The war region first, then the plain battles of the fought columns it does not cover.
    fn war_round<N: Narrator>(
        &mut self,
        field: &Field,
        region: Region,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        if !self.war_region(field, region, d, rng, rec, narr) {
            return Some(self.final_battle(Cause::WarShort, d, rng, rec, narr));
        }
        for c in 0..field.fought {
            if region.columns & (1 << c) == 0 {
                self.plain_battle(field, c, d, rec, narr);
            }
        }
        None
    }

    /// Fought column `c` as a plain battle: the higher card's owner takes both.
    pub fn plain_battle<N: Narrator>(
        &mut self,
        field: &Field,
        c: usize,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        rec.count(counter::PLAIN_BATTLES, 1);
        let [a, b] = field.cols[c].map(usize::from);
        let w = if value(field.up[b]) > value(field.up[a]) { b } else { a };
        self.take_units(w, 2);
        if N::ON {
            narr.line(format_args!(
                "  column {}: P{w} takes it ({} v {})",
                c + 1,
                d.unit_label(field.up[a]),
                d.unit_label(field.up[b])
            ));
        }
    }

    /// Fights the war region step by step (T7, T9). Each card in contention gets a face-down and a
    /// face-up Unit from its owner; one Unit left: face up only; none: the card stands at the tied
    /// value (`understaffed`, `war_stands`). The side with the best face-up card takes every card
    /// of the region's columns and every war card (one of its players showing that best, at
    /// random, when several do: `shared_best`); on a tie, only the cards showing the tied best go
    /// on. Returns false when a step cannot be fought: no card in contention gets a Unit.
    pub fn war_region<N: Narrator>(
        &mut self,
        field: &Field,
        region: Region,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> bool {
        rec.count(
            match region.kind {
                WarKind::ThreeCard => counter::THREE_CARD_WARS,
                WarKind::Column => counter::COLUMN_WARS,
                WarKind::Diagonal => counter::DIAGONAL_WARS,
            },
            1,
        );
        let p = self.positions;
        let mut contention = region.matched;
        let mut shown = [0u8; MAX_SEATS];
        for seat in seats(contention) {
            shown[seat] = value(field.up[seat]);
        }
        let mut war_cards = 0u32;
        let mut step = 0u32;
        loop {
            step += 1;
            if seats(contention).all(|s| self.stacks[s].is_empty()) {
                if N::ON {
                    narr.line(format_args!(
                        "  war step {step}: no card in contention can be fed a Unit: the war cannot be fought"
                    ));
                }
                return false;
            }
            rec.count(counter::WAR_STEPS, 1);
            if N::ON {
                narr.line(format_args!("  war step {step}: {} cards in contention", contention.count_ones()));
            }
            let mut best = [0u8; 2];
            for seat in seats(contention) {
                let laid = self.feed(seat, &mut shown[seat], d, rec, narr);
                war_cards += laid;
                self.field_units += laid;
                let s = side_of(seat, p);
                best[s] = best[s].max(shown[seat]);
            }
            if best[0] != best[1] {
                let w = (best[1] > best[0]) as usize;
                let showing = seats(contention)
                    .filter(|&s| side_of(s, p) == w && shown[s] == best[w])
                    .fold(0, |m, s| m | 1 << s);
                let taker = self.one_of(showing, rng, rec);
                let taken = 2 * region.columns.count_ones() + war_cards;
                self.take_units(taker, taken);
                if N::ON {
                    narr.line(format_args!(
                        "  side {} has the best face-up card: P{taker} takes the region, {taken} cards{}",
                        side_name(w),
                        shared_note(showing)
                    ));
                }
                return true;
            }
            contention = seats(contention).filter(|&s| shown[s] == best[0]).fold(0, |m, s| m | 1 << s);
            if N::ON {
                narr.line(format_args!("  the best face-up cards tie: the tied cards fight on"));
            }
        }
    }

    /// Lays one war step on `seat`'s card: face down and face up, face up only with one Unit, or
    /// nothing (the card stands). Returns the Units laid.
    fn feed<N: Narrator>(
        &mut self,
        seat: usize,
        shown: &mut u8,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> u32 {
        let stack = &mut self.stacks[seat];
        let laid = stack.len().min(2) as u32;
        let down = if laid == 2 { stack.pop() } else { None };
        let up = stack.pop();
        if laid < 2 {
            rec.count(counter::UNDERSTAFFED, 1);
        }
        if let Some(u) = up {
            *shown = value(u);
        } else {
            rec.count(extra(team_counter::WAR_STANDS), 1);
        }
        if N::ON {
            match (down, up) {
                (Some(x), Some(y)) => narr.line(format_args!(
                    "    P{seat} lays {} face down, {} face up",
                    d.unit_label(x),
                    d.unit_label(y)
                )),
                (None, Some(y)) => narr.line(format_args!(
                    "    P{seat} has one Unit: lays {} face up only (understaffed)",
                    d.unit_label(y)
                )),
                _ => narr.line(format_args!("    P{seat} has no Unit: the card stands (understaffed)")),
            }
        }
        laid
    }

    /// The one player of `showing` who takes: alone, or one at random (`shared_best`).
    fn one_of(&mut self, showing: Seats, rng: &mut GameRng, rec: &mut GameRecord) -> usize {
        let n = showing.count_ones();
        if n == 1 {
            return showing.trailing_zeros() as usize;
        }
        rec.count(extra(team_counter::SHARED_BEST), 1);
        let k = below(rng, n) as usize;
        seats(showing).nth(k).expect("k < n")
    }

    /// Scourge War (T6): the players at war contest the round's face-up cards with their Legends;
    /// waiting cards stay; then every player without a Legend draws one (T12).
    pub fn scourge_war<N: Narrator>(
        &mut self,
        field: &Field,
        at_war: Seats,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        rec.count(counter::SCOURGE_WARS, 1);
        if at_war != field.face_up() {
            rec.count(extra(team_counter::SCOURGE_BYSTANDERS), 1);
        }
        self.legend_contest(at_war, d, rng, rec, narr);
        self.refill(d, rng, narr);
    }

    /// The Battle of the Scarsands Canyon for teams (T10): the pairs fight column by column with
    /// their Legends; a tie puts everything left at stake and the pairs rotate, each laying a new
    /// Legend pair on top, until one pair's Legends differ. Then the game ends.
    pub fn scarsands<N: Narrator>(
        &mut self,
        field: &Field,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> End {
        rec.count(counter::SCARSANDS, 1);
        rec.count(counter::FINAL_BATTLE_SCARSANDS, 1);
        let before = self.standing();
        let p = self.positions;
        // The columns' order on the table is random with respect to seats (T2).
        let mut order = [0u8, 1, 2];
        shuffle(rng, &mut order[..p]);
        if N::ON {
            let pairs: Vec<String> = order[..p]
                .iter()
                .map(|&c| format!("P{} v P{}", field.cols[c as usize][0], field.cols[c as usize][1]))
                .collect();
            narr.line(format_args!("  the pairs fight in table order: {}", pairs.join(", ")));
        }
        for i in 0..p {
            let [a, b] = field.cols[order[i] as usize].map(usize::from);
            let la = self.held[a].take();
            let lb = self.held[b].take();
            self.field_legends += la.is_some() as u32 + lb.is_some() as u32;
            let (Some(la), Some(lb)) = (la, lb) else {
                if N::ON {
                    narr.line(format_args!("  P{a} v P{b}: a player has no Legend"));
                }
                // The column's Units and the Legend turned up go aside.
                self.set_aside(2, self.field_legends, rec, narr);
                continue;
            };
            if N::ON {
                narr.line(format_args!("  P{a} {} v P{b} {}", d.legend_label(la), d.legend_label(lb)));
            }
            if strength(la) != strength(lb) {
                let w = if strength(lb) > strength(la) { b } else { a };
                if N::ON {
                    narr.line(format_args!("  P{w} takes the column: 2 Units and 2 Legends"));
                }
                self.take(w, 2, self.field_legends);
                continue;
            }
            rec.count(counter::LEGEND_TIES, 1);
            if N::ON {
                narr.line(format_args!(
                    "  the Legends tie: everything left is at stake and the pairs rotate"
                ));
            }
            self.escalate(field, &order[..p], i, d, rec, narr);
            break;
        }
        self.end_of_game(before, rec, narr)
    }

    /// The Scarsands escalation after a tie in table column `tied`: the next pairs, wrapping round,
    /// each lay a Legend pair on top (face-down ones first, else newly drawn); the first pair whose
    /// Legends differ takes everything on the battlefield; a draw the deck cannot serve stands it off.
    fn escalate<N: Narrator>(
        &mut self,
        field: &Field,
        order: &[u8],
        tied: usize,
        d: &Decks,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        let p = order.len();
        let mut k = tied;
        loop {
            k = (k + 1) % p;
            let [a, b] = field.cols[order[k] as usize].map(usize::from);
            let draws = self.held[a].is_none() as usize + self.held[b].is_none() as usize;
            if draws > self.legends.len() {
                if N::ON {
                    narr.line(format_args!(
                        "  P{a} and P{b} need {draws} Legends; the deck has {}",
                        self.legends.len()
                    ));
                }
                self.set_aside(self.field_units, self.field_legends, rec, narr);
                return;
            }
            rec.count(extra(team_counter::SCARSANDS_ESCALATIONS), 1);
            let la = self.held[a].take().or_else(|| self.legends.pop()).expect("checked");
            let lb = self.held[b].take().or_else(|| self.legends.pop()).expect("checked");
            self.field_legends += 2;
            if N::ON {
                narr.line(format_args!(
                    "  escalation: P{a} {} v P{b} {} on top",
                    d.legend_label(la),
                    d.legend_label(lb)
                ));
            }
            if strength(la) != strength(lb) {
                let w = if strength(lb) > strength(la) { b } else { a };
                if N::ON {
                    narr.line(format_args!(
                        "  P{w} takes everything: {} Units and {} Legends",
                        self.field_units, self.field_legends
                    ));
                }
                self.take(w, self.field_units, self.field_legends);
                return;
            }
            rec.count(counter::LEGEND_TIES, 1);
            if N::ON {
                narr.line(format_args!("  the Legends tie again: the next pair"));
            }
        }
    }

    /// Scorched Earth for teams (T11): every player draws an extra Legend and turns both up; the
    /// Wyrm scorches the game; otherwise the extras go back, the deck is shuffled, the original
    /// Legends contest the battlefield and everyone without a Legend draws.
    pub fn scorched_earth<N: Narrator>(
        &mut self,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        rec.count(counter::SCORCHED_EARTH, 1);
        let everyone: Seats = (1u8 << self.players()) - 1;
        let extra_legends = self.draw_for(everyone, rng);
        let drawn = extra_legends.iter().flatten().count() as u32;
        self.field_legends += drawn;
        if N::ON {
            for (s, extra) in extra_legends[..self.players()].iter().enumerate() {
                let shown: Vec<String> =
                    [self.held[s], *extra].into_iter().flatten().map(|l| d.legend_label(l)).collect();
                let shown = if shown.is_empty() { "no Legend".to_string() } else { shown.join(" and ") };
                narr.line(format_args!("  P{s} turns up {shown}"));
            }
        }
        let wyrm = self.held.iter().chain(extra_legends.iter()).any(|&l| l == Some(BLACK_ANCIENT));
        if wyrm {
            rec.count(counter::SCORCHED, 1);
            if N::ON {
                narr.line(format_args!("  the Wyrm of Chaos is up: the game is scorched, nobody wins"));
            }
            return Some(End::Scorched);
        }
        self.legends.extend(extra_legends.iter().flatten());
        self.field_legends -= drawn;
        shuffle(rng, &mut self.legends);
        if N::ON {
            narr.line(format_args!(
                "  spared: the extra Legends are shuffled back; the original Legends fight"
            ));
        }
        self.legend_contest(everyone, d, rng, rec, narr);
        self.refill(d, rng, narr);
        None
    }

    /// The Final Battle for teams (T13): every player turns up their Legend for everything on the
    /// battlefield, waiting cards included (`unfought_final`); then the game ends.
    pub fn final_battle<N: Narrator>(
        &mut self,
        cause: Cause,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> End {
        rec.count(cause.counter(), 1);
        let before = self.standing();
        let waiting = self.waiting_cards();
        self.waiting = [None; MAX_SEATS];
        self.field_units += waiting;
        rec.count(extra(team_counter::UNFOUGHT_FINAL), waiting as u64);
        if N::ON {
            narr.line(format_args!(
                "Final Battle ({}), for {} Units on the battlefield ({waiting} of them waiting unfought cards)",
                match cause {
                    Cause::OutOfUnits => "a side has no Unit left in its stacks",
                    Cause::WarShort => "no card in the war can be fed a Unit",
                    Cause::Scarsands => "the Scarsands",
                },
                self.field_units
            ));
        }
        let everyone: Seats = (1u8 << self.players()) - 1;
        self.legend_contest(everyone, d, rng, rec, narr);
        self.end_of_game(before, rec, narr)
    }

    /// The end after the game-ending contest: `final_battle_decisive`, `units_unplayed`, the outcome.
    fn end_of_game<N: Narrator>(&mut self, before: End, rec: &mut GameRecord, narr: &mut N) -> End {
        let after = self.standing();
        if after != before {
            rec.count(counter::FINAL_BATTLE_DECISIVE, 1);
        }
        let unplayed: usize = self.stacks.iter().map(Vec::len).sum();
        rec.count(counter::UNITS_UNPLAYED, unplayed as u64);
        if N::ON {
            let [a, b] = self.scores();
            narr.line(format_args!("  {unplayed} Units stay unplayed; captured: side a {a}, side b {b}"));
        }
        after
    }

    /// A Legend contest among `who` (T7, T8): each turns up their Legend; the side with the best
    /// takes everything on the battlefield (one of its players showing the best, at random, when
    /// several do); on a tie every player showing the best draws one more Legend and only the new
    /// ones compare. A player without a Legend sits out (or, with `legendless = stand-off`, stands
    /// the contest off); a side showing none, or a tie the deck cannot serve, stands it off.
    /// Returns the taker.
    pub fn legend_contest<N: Narrator>(
        &mut self,
        who: Seats,
        d: &Decks,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<usize> {
        let p = self.positions;
        let mut shown = [0u8; MAX_SEATS];
        let mut showing: Seats = 0;
        for seat in seats(who) {
            if let Some(l) = self.held[seat].take() {
                shown[seat] = strength(l);
                showing |= 1 << seat;
                self.field_legends += 1;
                if N::ON {
                    narr.line(format_args!("  P{seat} turns up {}", d.legend_label(l)));
                }
            }
        }
        let missing = who & !showing;
        if missing != 0 {
            if N::ON {
                let names: Vec<String> = seats(missing).map(|s| format!("P{s}")).collect();
                narr.line(format_args!("  {} without a Legend", names.join(", ")));
            }
            let side_empty = (0..2).any(|s| showing & side_mask(s, p) == 0);
            if side_empty {
                rec.count(extra(team_counter::SIDE_WITHOUT_LEGEND), 1);
            }
            match self.legendless {
                Legendless::StandOff => {
                    self.stand_off(rec, narr);
                    return None;
                }
                Legendless::SitOut => {
                    rec.count(extra(team_counter::LEGEND_SIT_OUTS), missing.count_ones() as u64);
                    if side_empty {
                        self.stand_off(rec, narr);
                        return None;
                    }
                }
            }
        }
        loop {
            let mut best = [0u8; 2];
            for seat in seats(showing) {
                let s = side_of(seat, p);
                best[s] = best[s].max(shown[seat]);
            }
            if best[0] != best[1] {
                let w = (best[1] > best[0]) as usize;
                let top = seats(showing & side_mask(w, p))
                    .filter(|&s| shown[s] == best[w])
                    .fold(0, |m, s| m | 1 << s);
                let taker = self.one_of(top, rng, rec);
                if N::ON {
                    narr.line(format_args!(
                        "  side {} has the best Legend: P{taker} takes the battlefield, {} Unit{} and {} Legend{}{}",
                        side_name(w),
                        self.field_units,
                        if self.field_units == 1 { "" } else { "s" },
                        self.field_legends,
                        if self.field_legends == 1 { "" } else { "s" },
                        shared_note(top)
                    ));
                }
                self.take(taker, self.field_units, self.field_legends);
                return Some(taker);
            }
            rec.count(counter::LEGEND_TIES, 1);
            let tied = seats(showing).filter(|&s| shown[s] == best[0]).fold(0u8, |m, s| m | 1 << s);
            if (tied.count_ones() as usize) > self.legends.len() {
                if N::ON {
                    narr.line(format_args!(
                        "  the Legends tie and {} left to draw for {} players",
                        self.legends.len(),
                        tied.count_ones()
                    ));
                }
                self.stand_off(rec, narr);
                return None;
            }
            if N::ON {
                narr.line(format_args!("  the Legends tie: each tied player draws another"));
            }
            for seat in seats(tied) {
                let l = self.legends.pop().expect("checked");
                shown[seat] = strength(l);
                self.field_legends += 1;
                if N::ON {
                    narr.line(format_args!("  P{seat} draws {}", d.legend_label(l)));
                }
            }
            showing = tied;
        }
    }

    /// After a Scourge War or a spared Scorched Earth (T12): every player without a face-down
    /// Legend draws one, in random order when the deck is short.
    pub fn refill<N: Narrator>(&mut self, d: &Decks, rng: &mut GameRng, narr: &mut N) {
        let need = (0..self.players()).filter(|&s| self.held[s].is_none()).fold(0u8, |m, s| m | 1 << s);
        let drawn = self.draw_for(need, rng);
        for s in seats(need) {
            self.held[s] = drawn[s];
            if N::ON {
                match drawn[s] {
                    Some(l) => narr.line(format_args!("  P{s} draws a Legend ({})", d.legend_label(l))),
                    None => narr.line(format_args!("  P{s} finds no Legend to draw")),
                }
            }
        }
    }

    /// One Legend for each seat of `need`, in seat order; when fewer are left than players who need
    /// one, the ones who get them are a uniformly random subset.
    pub fn draw_for(&mut self, need: Seats, rng: &mut GameRng) -> [Option<Legend>; MAX_SEATS] {
        let mut out = [None; MAX_SEATS];
        let wanted = need.count_ones() as usize;
        if self.legends.len() >= wanted {
            for s in seats(need) {
                out[s] = self.legends.pop();
            }
            return out;
        }
        let mut list = [0u8; MAX_SEATS];
        for (i, s) in seats(need).enumerate() {
            list[i] = s as u8;
        }
        let k = self.legends.len();
        pick(rng, &mut list, wanted, k);
        for &s in &list[..k] {
            out[s as usize] = self.legends.pop();
        }
        out
    }

    /// A stand-off: everything on the battlefield is set aside, captured by nobody.
    fn stand_off<N: Narrator>(&mut self, rec: &mut GameRecord, narr: &mut N) {
        self.set_aside(self.field_units, self.field_legends, rec, narr);
    }

    /// Sets `units` Units and `legends` Legends of the battlefield aside (one stand-off).
    fn set_aside<N: Narrator>(&mut self, units: u32, legends: u32, rec: &mut GameRecord, narr: &mut N) {
        rec.count(counter::LEGEND_SHORTAGE, 1);
        rec.count(counter::CARDS_SET_ASIDE, (units + legends) as u64);
        if N::ON {
            narr.line(format_args!(
                "  stand-off: {units} Units and {legends} Legends are set aside uncaptured"
            ));
        }
        self.set_aside_units += units;
        self.set_aside_legends += legends;
        self.field_units -= units;
        self.field_legends -= legends;
    }

    fn take_units(&mut self, w: usize, n: u32) {
        self.take(w, n, 0);
    }

    fn take(&mut self, w: usize, units: u32, legends: u32) {
        debug_assert!(units <= self.field_units && legends <= self.field_legends);
        self.captured[w] += units + legends;
        self.captured_legends[w] += legends;
        self.field_units -= units;
        self.field_legends -= legends;
    }
}

/// The narrative's note when several players of the winning side show the best card.
fn shared_note(showing: Seats) -> &'static str {
    if showing.count_ones() > 1 { " (a shared best: one of its players, at random)" } else { "" }
}

/// The seats of side `side`.
#[inline(always)]
pub fn side_mask(side: usize, positions: usize) -> Seats {
    (((1u8 << positions) - 1) << (side * positions)) as Seats
}

/// The seats of a set, lowest first.
#[inline(always)]
pub fn seats(set: Seats) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        Some(s)
    })
}
