//! One battle of War, under every variant: the board of a game in progress and its rules of play.
//!
//! The common case (two players, different cards) takes a short path: two pops, one comparison,
//! two pushes. Everything else (wars, more players, every variant) goes through `contested`,
//! which lays cards into a reusable spoils buffer in layers, exactly as `docs/rules/war.md` orders them for
//! deterministic pickup. Nothing here allocates after `Board::new`.

use rand_core::Rng;

use super::ring::Table;
use super::setup::{MAX_PLAYERS, Pickup, WarRules};
use crate::games::narrate::{Narrator, Silent};
use crate::record::GameRecord;
use crate::seed::{GameRng, shuffle};

crate::declare! {
    /// War's event counters (`docs/rules/war.md` says when each fires), declared once.
    pub mod counter: Counter {
        WARS = "wars",
        DOUBLE_WARS = "double_wars",
        MAX_WAR_DEPTH = "max_war_depth",
        CARDS_KILLED = "cards_killed",
        SPOILS_REMOVED = "spoils_removed",
        CARDS_REMOVED = "cards_removed",
        PLAYERS_OUT = "players_out",
        SHORT_IN_WAR = "short_in_war",
        LAST_DITCH_STANDS = "last_ditch_stands",
    }
}

/// How a game ended, before the runner maps it to an outcome index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Win(usize),
    Draw,
    /// A state repeated: `period` battles apart.
    Cycle {
        period: u64,
    },
    Capped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LayerKind {
    First,
    Down,
    Up,
}

/// One player's cards within one layer of the spoils.
#[derive(Clone, Copy, Debug)]
struct Seg {
    seat: u8,
    start: u32,
    len: u32,
}

/// A game in progress plus the reusable buffers of a battle.
#[derive(Clone, Debug)]
pub struct Board {
    pub table: Table,
    alive: [u8; MAX_PLAYERS],
    n_alive: usize,
    pub battles: u64,
    laid: Vec<u8>,
    segs: Vec<Seg>,
    layers: Vec<(u32, LayerKind)>,
    gather: Vec<u8>,
    faceup: [u8; MAX_PLAYERS],
    bits: u64,
    nbits: u32,
}

impl Board {
    pub fn new(rules: &WarRules) -> Self {
        let total = rules.dealt_size().max(rules.deck_size()) + MAX_PLAYERS;
        Board {
            table: Table::new(rules.players, total),
            alive: [0; MAX_PLAYERS],
            n_alive: 0,
            battles: 0,
            laid: Vec::with_capacity(total),
            segs: Vec::with_capacity(2 * total + 4 * MAX_PLAYERS),
            layers: Vec::with_capacity(2 * total + 4),
            gather: Vec::with_capacity(total),
            faceup: [0; MAX_PLAYERS],
            bits: 0,
            nbits: 0,
        }
    }

    /// Starts a game from dealt hands (top of stack first).
    pub fn setup(&mut self, hands: &[Vec<u8>]) {
        self.table.fill(hands);
        self.restart();
    }

    /// Starts a game from cards dealt round-robin onto empty stacks (`Table::deal_round_robin`).
    pub fn setup_round_robin(&mut self, cards: &[u8]) {
        self.table.deal_round_robin(cards);
        self.restart();
    }

    /// Starts a game from a table saved earlier.
    pub fn setup_from(&mut self, table: &Table) {
        self.table.copy_from(table);
        self.restart();
    }

    fn restart(&mut self) {
        self.battles = 0;
        self.bits = 0;
        self.nbits = 0;
        self.n_alive = 0;
        for seat in 0..self.table.players() {
            if self.table.len(seat) > 0 {
                self.alive[self.n_alive] = seat as u8;
                self.n_alive += 1;
            }
        }
    }

    pub fn alive(&self) -> &[u8] {
        &self.alive[..self.n_alive]
    }

    /// One fair coin, 64 to a draw of the generator.
    #[inline(always)]
    fn coin(&mut self, rng: &mut GameRng) -> bool {
        if self.nbits == 0 {
            self.bits = rng.next_u64();
            self.nbits = 64;
        }
        let b = self.bits & 1 == 1;
        self.bits >>= 1;
        self.nbits -= 1;
        b
    }

    /// Plays one battle. Returns how the game ended, if it did.
    #[inline(always)]
    pub fn battle<N: Narrator>(
        &mut self,
        r: &WarRules,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        self.battles += 1;
        if self.n_alive == 2 {
            let (a, b) = (self.alive[0] as usize, self.alive[1] as usize);
            let (ca, cb) = (self.table.top(a), self.table.top(b));
            if ca != cb {
                self.table.pop(a);
                self.table.pop(b);
                let (w, l, cw, cl) = if ca > cb { (a, b, ca, cb) } else { (b, a, cb, ca) };
                if r.instant {
                    self.table.push(w, cw);
                    rec.count(counter::CARDS_KILLED, 1);
                } else {
                    let winner_first = match r.pickup {
                        Pickup::Shuffled => self.coin(rng),
                        Pickup::WinnerFirst => true,
                        Pickup::LoserFirst => false,
                        Pickup::SeatOrder => w < l,
                    };
                    let (x, y) = if winner_first { (cw, cl) } else { (cl, cw) };
                    self.table.push2(w, x, y);
                }
                if N::ON {
                    let (la, lb) = (&r.labels[ca as usize], &r.labels[cb as usize]);
                    let taken = if r.instant {
                        format!(
                            "keeps its {}, the {} is killed",
                            r.labels[cw as usize], r.labels[cl as usize]
                        )
                    } else {
                        "takes 2 cards".to_string()
                    };
                    narr.line(format_args!("Battle {}: P{a} {la} v P{b} {lb}: P{w} {taken}", self.battles));
                }
                // Only the loser can have run out, and only Short War counts battles won.
                if N::ON || r.battles_to_win > 0 || self.table.len(l) == 0 {
                    return self.after_battle(r, Some(w), rec, narr);
                }
                return None;
            }
            if !N::ON && r.pickup == Pickup::Shuffled && !r.instant && !r.last_ditch {
                return self.duel_war(r, rng, rec, a, b);
            }
        }
        self.contested(r, rng, rec, narr)
    }

    /// Plays the plain battles of a two-player game with shuffled pickup and spoils capture, with
    /// both stacks' indices held in registers, until the top cards tie (the war is left to
    /// `battle`), a player runs out (returns the end) or `limit` battles are played. Each battle
    /// is exactly `battle`'s short path, drawing the same coin, so the game is the same game.
    #[inline(never)]
    pub fn plain_streak(
        &mut self,
        r: &WarRules,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        limit: u64,
    ) -> Option<End> {
        debug_assert!(
            self.n_alive == 2 && r.pickup == Pickup::Shuffled && !r.instant && r.battles_to_win == 0
        );
        let (a, b) = (self.alive[0] as usize, self.alive[1] as usize);
        let (mut bits, mut nbits, mut battles) = (self.bits, self.nbits, self.battles);
        let mut duo = self.table.duo(a, b);
        let mut loser = None;
        while battles < limit {
            let (ca, cb) = duo.tops();
            if ca == cb {
                break;
            }
            battles += 1;
            duo.pop_both();
            if nbits == 0 {
                bits = rng.next_u64();
                nbits = 64;
            }
            let winner_first = bits & 1 == 1;
            bits >>= 1;
            nbits -= 1;
            let (a_wins, cw, cl) = if ca > cb { (true, ca, cb) } else { (false, cb, ca) };
            let (x, y) = if winner_first { (cw, cl) } else { (cl, cw) };
            duo.push2(a_wins, x, y);
            if duo.either_empty() {
                loser = Some(if a_wins { b } else { a });
                break;
            }
        }
        duo.close();
        (self.bits, self.nbits, self.battles) = (bits, nbits, battles);
        let loser = loser?;
        let winner = if loser == a { b } else { a };
        self.after_battle(r, Some(winner), rec, &mut Silent)
    }

    /// A two-player war under the most common rules (shuffled pickup, spoils, `short = lose`),
    /// without the layer bookkeeping that only deterministic pickups need. It lays the cards into
    /// the spoils in exactly the order `contested` gathers them (layer by layer, seat by seat), so
    /// the shuffle turns them into the same stack and both paths play the same game.
    #[inline(never)]
    fn duel_war(
        &mut self,
        r: &WarRules,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        a: usize,
        b: usize,
    ) -> Option<End> {
        self.laid.clear();
        let tied = self.table.pop(a);
        self.table.pop(b);
        self.laid.push(tied);
        self.laid.push(tied);
        let mut best = tied;
        let mut depth = 0u64;
        let winner = loop {
            depth += 1;
            rec.count(counter::WARS, 1);
            if depth == 2 {
                rec.count(counter::DOUBLE_WARS, 1);
            }
            let k = r.lay[best as usize] as usize;
            let (able_a, able_b) = (self.table.len(a) > k, self.table.len(b) > k);
            if !(able_a && able_b) {
                for (seat, able) in [(a, able_a), (b, able_b)] {
                    if !able {
                        rec.count(counter::SHORT_IN_WAR, 1);
                        let have = self.table.len(seat);
                        self.table.pop_into(seat, have, &mut self.laid);
                    }
                }
                break if able_a {
                    Some(a)
                } else if able_b {
                    Some(b)
                } else {
                    None
                };
            }
            self.table.pop_into(a, k, &mut self.laid);
            self.table.pop_into(b, k, &mut self.laid);
            let (ua, ub) = (self.table.pop(a), self.table.pop(b));
            self.laid.push(ua);
            self.laid.push(ub);
            if ua != ub {
                break Some(if ua > ub { a } else { b });
            }
            best = ua;
        };
        rec.raise(counter::MAX_WAR_DEPTH, depth);
        match winner {
            Some(w) => {
                shuffle(rng, &mut self.laid);
                self.table.push_slice(w, &self.laid);
            }
            None => {
                rec.count(counter::SPOILS_REMOVED, 1);
                rec.count(counter::CARDS_REMOVED, self.laid.len() as u64);
            }
        }
        self.after_battle(r, winner, rec, &mut Silent)
    }

    fn open_layer(&mut self, kind: LayerKind) {
        self.layers.push((self.segs.len() as u32, kind));
    }

    /// Moves `n` cards from the top of `seat`'s stack into the current layer.
    #[inline(always)]
    fn lay(&mut self, seat: usize, n: usize) {
        if n == 0 {
            return;
        }
        let start = self.laid.len() as u32;
        self.table.pop_into(seat, n, &mut self.laid);
        self.segs.push(Seg { seat: seat as u8, start, len: n as u32 });
    }

    /// The general battle: any number of players, wars of any depth, every variant.
    #[inline(never)]
    fn contested<N: Narrator>(
        &mut self,
        r: &WarRules,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        self.laid.clear();
        self.segs.clear();
        self.layers.clear();
        let in_battle = self.alive;
        let n_in = self.n_alive;
        self.open_layer(LayerKind::First);
        for &s in &in_battle[..n_in] {
            let s = s as usize;
            self.faceup[s] = self.table.top(s);
            self.lay(s, 1);
        }
        if N::ON {
            let shown: Vec<String> = in_battle[..n_in]
                .iter()
                .map(|&s| format!("P{s} {}", r.labels[self.faceup[s as usize] as usize]))
                .collect();
            narr.line(format_args!("Battle {}: {}", self.battles, shown.join(" v ")));
        }
        let mut contenders = in_battle;
        let mut n_cont = n_in;
        let mut depth: u64 = 0;
        let winner = loop {
            let best =
                contenders[..n_cont].iter().map(|&s| self.faceup[s as usize]).max().expect("contenders");
            let mut tied = [0u8; MAX_PLAYERS];
            let mut n_tied = 0;
            for &s in &contenders[..n_cont] {
                if self.faceup[s as usize] == best {
                    tied[n_tied] = s;
                    n_tied += 1;
                }
            }
            if n_tied == 1 {
                break Some(tied[0] as usize);
            }
            depth += 1;
            rec.count(counter::WARS, 1);
            if depth == 2 {
                rec.count(counter::DOUBLE_WARS, 1);
            }
            let k = r.lay[best as usize] as usize;
            let (war, n_war) = if depth == 1 && !r.scope_tied { (in_battle, n_in) } else { (tied, n_tied) };
            if N::ON {
                let who: Vec<String> = tied[..n_tied].iter().map(|s| format!("P{s}")).collect();
                let all: Vec<String> = war[..n_war].iter().map(|s| format!("P{s}")).collect();
                narr.line(format_args!(
                    "  WAR{}: {} tie with {}; {} each lay {k} face down and 1 face up",
                    if depth > 1 { format!(" again (depth {depth})") } else { String::new() },
                    who.join(", "),
                    r.labels[best as usize],
                    all.join(", ")
                ));
            }
            let outcome = if r.last_ditch {
                self.step_last_ditch(&war[..n_war], k, rec, narr)
            } else {
                self.step_lose(&war[..n_war], k, rec, narr)
            };
            match outcome {
                Step::Winner(w) => break Some(w),
                Step::Removed => break None,
                Step::Compare(c, n) => {
                    contenders = c;
                    n_cont = n;
                    if N::ON {
                        let shown: Vec<String> = contenders[..n_cont]
                            .iter()
                            .map(|&s| format!("P{s} {}", r.labels[self.faceup[s as usize] as usize]))
                            .collect();
                        narr.line(format_args!("  face up: {}", shown.join(" v ")));
                    }
                }
            }
        };
        rec.raise(counter::MAX_WAR_DEPTH, depth);
        match winner {
            Some(w) => {
                self.collect(r, w, rng, rec, narr);
            }
            None => {
                rec.count(counter::SPOILS_REMOVED, 1);
                rec.count(counter::CARDS_REMOVED, self.laid.len() as u64);
                if N::ON {
                    narr.line(format_args!(
                        "  nobody in the war can go on: the {} cards of this battle are removed from the game",
                        self.laid.len()
                    ));
                }
            }
        }
        self.after_battle(r, winner, rec, narr)
    }

    /// A war step under `short = lose`: who cannot lay `k + 1` cards is out and their stack joins
    /// the spoils; one player left takes the spoils at once; nobody left removes them.
    fn step_lose<N: Narrator>(&mut self, war: &[u8], k: usize, rec: &mut GameRecord, narr: &mut N) -> Step {
        let mut able = [0u8; MAX_PLAYERS];
        let mut n_able = 0;
        for &s in war {
            if self.table.len(s as usize) > k {
                able[n_able] = s;
                n_able += 1;
            }
        }
        self.open_layer(LayerKind::Down);
        for &s in war {
            let s = s as usize;
            let have = self.table.len(s);
            if have > k {
                if n_able >= 2 {
                    self.lay(s, k);
                }
            } else {
                rec.count(counter::SHORT_IN_WAR, 1);
                if N::ON {
                    narr.line(format_args!(
                        "  P{s} has {have} card(s), cannot lay {} and is out; they join the spoils",
                        k + 1
                    ));
                }
                self.lay(s, have);
            }
        }
        match n_able {
            0 => Step::Removed,
            1 => {
                if N::ON && war.len() > 1 {
                    narr.line(format_args!(
                        "  only P{} can go on and takes the spoils without laying",
                        able[0]
                    ));
                }
                Step::Winner(able[0] as usize)
            }
            _ => {
                self.open_layer(LayerKind::Up);
                for &s in &able[..n_able] {
                    let s = s as usize;
                    self.faceup[s] = self.table.top(s);
                    self.lay(s, 1);
                }
                Step::Compare(able, n_able)
            }
        }
    }

    /// A war step under `short = last-ditch`: a short player lays what they have with the last
    /// card face up; with no card left they keep their face-up card. If nobody in the war has a
    /// card left, their face-up cards would tie forever: the spoils are removed.
    fn step_last_ditch<N: Narrator>(
        &mut self,
        war: &[u8],
        k: usize,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Step {
        if war.iter().all(|&s| self.table.len(s as usize) == 0) {
            return Step::Removed;
        }
        let mut ups = [0u8; MAX_PLAYERS];
        self.open_layer(LayerKind::Down);
        for (i, &s) in war.iter().enumerate() {
            let s = s as usize;
            let have = self.table.len(s);
            let down = if have > k {
                k
            } else if have > 0 {
                rec.count(counter::SHORT_IN_WAR, 1);
                if N::ON {
                    narr.line(format_args!(
                        "  P{s} has only {have}: lays {} face down and the last face up",
                        have - 1
                    ));
                }
                have - 1
            } else {
                rec.count(counter::LAST_DITCH_STANDS, 1);
                if N::ON {
                    narr.line(format_args!("  P{s} has no card left and keeps its face-up card"));
                }
                0
            };
            self.lay(s, down);
            ups[i] = (have > 0) as u8;
        }
        self.open_layer(LayerKind::Up);
        for (i, &s) in war.iter().enumerate() {
            if ups[i] == 1 {
                let s = s as usize;
                self.faceup[s] = self.table.top(s);
                self.lay(s, 1);
            }
        }
        let mut c = [0u8; MAX_PLAYERS];
        c[..war.len()].copy_from_slice(war);
        Step::Compare(c, war.len())
    }

    /// The winner gathers the spoils (or, in Instant War, what that rule lets them keep).
    fn collect<N: Narrator>(
        &mut self,
        r: &WarRules,
        w: usize,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        let mut killed = 0u64;
        let n_layers = self.layers.len();
        let shuffled = r.pickup == Pickup::Shuffled;
        self.gather.clear();
        for li in 0..n_layers {
            let (from, kind) = self.layers[li];
            let to = self.layers.get(li + 1).map_or(self.segs.len(), |l| l.0 as usize);
            let m = to - from as usize;
            let start = match r.pickup {
                Pickup::WinnerFirst => {
                    self.segs[from as usize..to].iter().position(|g| g.seat as usize >= w).unwrap_or(0)
                }
                Pickup::LoserFirst => {
                    self.segs[from as usize..to].iter().position(|g| g.seat as usize > w).unwrap_or(0)
                }
                Pickup::SeatOrder | Pickup::Shuffled => 0,
            };
            for j in 0..m {
                let g = self.segs[from as usize + (start + j) % m];
                let range = g.start as usize..(g.start + g.len) as usize;
                if r.instant && g.seat as usize != w && kind != LayerKind::Down {
                    killed += g.len as u64;
                } else {
                    self.gather.extend_from_slice(&self.laid[range]);
                }
            }
        }
        if shuffled {
            shuffle(rng, &mut self.gather);
        }
        self.table.push_slice(w, &self.gather);
        if killed > 0 {
            rec.count(counter::CARDS_KILLED, killed);
        }
        if N::ON {
            if r.instant {
                narr.line(format_args!(
                    "  P{w} wins: keeps or takes {} cards, {killed} killed",
                    self.gather.len()
                ));
            } else {
                narr.line(format_args!("  P{w} wins the battle and takes {} cards", self.gather.len()));
            }
        }
    }

    /// Bookkeeping after every battle: battles won, players out, end of game.
    #[inline]
    fn after_battle<N: Narrator>(
        &mut self,
        r: &WarRules,
        winner: Option<usize>,
        rec: &mut GameRecord,
        narr: &mut N,
    ) -> Option<End> {
        if let Some(w) = winner
            && r.battles_to_win > 0
        {
            self.table.won[w] += 1;
            if self.table.won[w] >= r.battles_to_win {
                if N::ON {
                    narr.line(format_args!("P{w} has won {} battles and wins the game", r.battles_to_win));
                }
                return Some(End::Win(w));
            }
        }
        let before = self.n_alive;
        let mut kept = 0;
        for i in 0..before {
            let s = self.alive[i];
            if self.table.len(s as usize) > 0 {
                self.alive[kept] = s;
                kept += 1;
            } else {
                rec.count(counter::PLAYERS_OUT, 1);
                if N::ON {
                    narr.line(format_args!("P{s} has no cards left and is out"));
                }
            }
        }
        self.n_alive = kept;
        if N::ON && kept > 1 {
            let counts: Vec<String> =
                self.alive().iter().map(|&s| format!("P{s} {}", self.table.len(s as usize))).collect();
            narr.line(format_args!("  cards: {}", counts.join(", ")));
        }
        match kept {
            0 => Some(End::Draw),
            1 => Some(End::Win(self.alive[0] as usize)),
            _ => None,
        }
    }
}

/// What a war step leads to.
enum Step {
    Winner(usize),
    Removed,
    Compare([u8; MAX_PLAYERS], usize),
}
