//! The players of Territorial Warfare: `random`, two heuristics with different ideas (`greedy`
//! plays for points that last, `drawer` keeps its hand full through Draw), and `search`, a flat
//! Monte Carlo player over determinized hidden cards. Every agent decides from an `Observation`
//! alone; `docs/policies.md` describes them.

use super::state::{
    DRAW, FACES, HIGH, KEEP, MAX_PLAYERS, Observation, QUEEN, STRAIGHT, Slot, State, Tally, is_royal, settle,
};
use super::{
    NO_SWAP, Place, PlaceLegal, RoundBufs, Rules, Seats, Silent, Swap, SwapLegal, Version, play_round,
};
use crate::policy::{Legal, Policy, Random};
use rand_core::Rng;

use crate::seed::{GameRng, GameSeed, shuffle};

/// Policy names, in the order `policies` indices refer to.
pub const POLICIES: [&str; 4] = ["random", "greedy", "drawer", "search"];

/// One seat's player. An enum dispatched by `match`: no virtual calls in the hot loop.
pub enum Agent {
    Random,
    Greedy(Heuristic),
    Drawer(Heuristic),
    Search(Box<Searcher>),
}

impl Agent {
    pub fn new(policy: usize, rules: &Rules) -> Agent {
        match POLICIES[policy] {
            "random" => Agent::Random,
            "greedy" => Agent::Greedy(Heuristic::new(Style::Greedy)),
            "drawer" => Agent::Drawer(Heuristic::new(Style::Drawer)),
            _ => Agent::Search(Box::new(Searcher::new(rules))),
        }
    }

    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut Vec<u8>) {
        Policy::<Place>::decide(self, obs, legal, rng, out);
    }

    pub fn swap(&mut self, obs: &Observation, legal: &SwapLegal, rng: &mut GameRng, out: &mut Vec<u8>) {
        Policy::<Swap>::decide(self, obs, legal, rng, out);
    }
}

impl Policy<Place> for Agent {
    fn decide(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut Vec<u8>) {
        match self {
            Agent::Random => Policy::<Place>::decide(&mut Random, obs, legal, rng, out),
            Agent::Greedy(h) | Agent::Drawer(h) => h.place(obs, legal, out),
            Agent::Search(s) => s.place(obs, legal, rng, out),
        }
    }
}

impl Policy<Swap> for Agent {
    fn decide(&mut self, obs: &Observation, legal: &SwapLegal, rng: &mut GameRng, out: &mut Vec<u8>) {
        match self {
            Agent::Random => Policy::<Swap>::decide(&mut Random, obs, legal, rng, out),
            Agent::Greedy(h) | Agent::Drawer(h) => h.swap(obs, legal, out),
            Agent::Search(s) => s.greedy.swap(obs, legal, out),
        }
    }
}

/// Which idea a `Heuristic` follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `greedy`: plays for persistent points. Each round it puts on High, Low and Straight every
    /// card whose placement gains the most this round (its points minus half of what it gives the
    /// others, doubled because a card that survives scores again, minus the card's worth in hand),
    /// uses Jacks where the others hold more than it, Kings where they save its points, and draws
    /// only when its hand runs low, when it has nothing better to place, or with a Queen (which
    /// draws at no cost).
    Greedy,
    /// `drawer`: keeps its hand full. Every round while the pile lasts it sends its least useful
    /// card to Draw (two in Version B when its hand is short), and commits at most one card per
    /// round to a scoring territory, only for a clear gain; in the last round it plays all out.
    Drawer,
}

/// Weight of the others' points against one's own: a card that feeds them is half as bad as a
/// point of one's own is good.
const OTHERS: f32 = 0.5;
/// What a card in hand is worth while the game goes on, in points.
const CARD_WORTH: f32 = 0.6;
/// Gain the drawer asks for before it commits a card to a scoring territory.
const DRAWER_THRESHOLD: f32 = 1.5;

/// A rule-based player: scores each (card, territory) by settling the territory with and without
/// the card, then fills territories best gain first. Buffers are reused from decision to decision.
pub struct Heuristic {
    style: Style,
    buf: Vec<Slot>,
    /// Gain of each hand card on High, Low, Straight.
    gains: Vec<[f32; 3]>,
    /// This seat's and the others' points per scoring territory as the table stands.
    base: [(i32, i32); 3],
}

impl Heuristic {
    pub fn new(style: Style) -> Heuristic {
        Heuristic { style, buf: Vec::with_capacity(64), gains: Vec::with_capacity(32), base: [(0, 0); 3] }
    }

    /// (this seat's points, the others' points) on territory `t` this round, with `extra` added
    /// and, if `without` is given, that card of the table left out.
    fn points(
        &mut self,
        obs: &Observation,
        t: usize,
        extra: Option<Slot>,
        without: Option<usize>,
    ) -> (i32, i32) {
        self.buf.clear();
        for (i, s) in obs.territories[t].iter().enumerate() {
            if Some(i) != without {
                self.buf.push(Slot { burn: false, ..*s });
            }
        }
        self.buf.extend(extra);
        let mut pts = [0i32; MAX_PLAYERS];
        settle(t, &mut self.buf, &mut pts);
        let me = obs.seat as usize;
        (pts[me], pts.iter().sum::<i32>() - pts[me])
    }

    fn weigh(obs: &Observation, before: (i32, i32), after: (i32, i32)) -> f32 {
        let persist = if obs.last_round { 1.0 } else { 2.0 };
        let cost = if obs.last_round { 0.0 } else { CARD_WORTH };
        persist * ((after.0 - before.0) as f32 - OTHERS * (after.1 - before.1) as f32) - cost
    }

    fn fill_gains(&mut self, obs: &Observation) {
        let me = obs.seat as usize;
        for t in HIGH..=STRAIGHT {
            self.base[t] = self.points(obs, t, None, None);
        }
        self.gains.clear();
        for i in 0..obs.hand.len() {
            let face = obs.hand[i];
            let mut g = [f32::NEG_INFINITY; 3];
            if face != QUEEN {
                for (t, gt) in g.iter_mut().enumerate() {
                    let after = self.points(obs, t, Some(Slot::new(me, face, true)), None);
                    *gt = Self::weigh(obs, self.base[t], after);
                }
            }
            self.gains.push(g);
        }
    }

    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, out: &mut [u8]) {
        out.iter_mut().for_each(|t| *t = KEEP);
        if obs.hand.is_empty() {
            return;
        }
        self.fill_gains(obs);
        let all_out = obs.last_round || obs.pile == 0;
        let max_scoring = if self.style == Style::Drawer && !all_out { 1 } else { 3 };
        let threshold = if self.style == Style::Drawer && !all_out { DRAWER_THRESHOLD } else { 0.0 };
        let mut used = [false; 3];
        for _ in 0..max_scoring {
            let Some((i, t, g)) = self.best_gain(out, &used) else { break };
            if g <= threshold {
                break;
            }
            out[i] = t as u8;
            used[t] = true;
        }
        if obs.pile > 0 && !obs.last_round {
            self.send_to_draw(obs, legal, out);
        }
    }

    fn best_gain(&self, out: &[u8], used: &[bool; 3]) -> Option<(usize, usize, f32)> {
        let mut best: Option<(usize, usize, f32)> = None;
        for (i, g) in self.gains.iter().enumerate().filter(|(i, _)| out[*i] == KEEP) {
            for t in (0..3).filter(|&t| !used[t]) {
                if best.is_none_or(|b| g[t] > b.2) {
                    best = Some((i, t, g[t]));
                }
            }
        }
        best
    }

    /// Which kept card goes to Draw: a Queen (it draws and costs nothing that scores), else the
    /// value card with the least to gain, else a royal.
    fn draw_candidate(&self, obs: &Observation, out: &[u8]) -> Option<usize> {
        let kept = || (0..out.len()).filter(|&i| out[i] == KEEP);
        if let Some(q) = kept().find(|&i| obs.hand[i] == QUEEN) {
            return Some(q);
        }
        let worth = |i: usize| self.gains[i].iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        kept()
            .filter(|&i| !is_royal(obs.hand[i]))
            .min_by(|&a, &b| worth(a).total_cmp(&worth(b)))
            .or_else(|| kept().next())
    }

    fn send_to_draw(&self, obs: &Observation, legal: &PlaceLegal, out: &mut [u8]) {
        let kept = out.iter().filter(|&&t| t == KEEP).count();
        let has_queen = (0..out.len()).any(|i| out[i] == KEEP && obs.hand[i] == QUEEN);
        // A round with nothing worth placing is spent drawing, so the game always moves on.
        let idle = kept == out.len();
        let cards = match self.style {
            Style::Greedy if kept <= 3 || has_queen || idle => 1,
            Style::Greedy => 0,
            Style::Drawer if legal.version == Version::B && kept <= 4 => 2,
            Style::Drawer => 1,
        };
        for _ in 0..cards {
            if let Some(i) = self.draw_candidate(obs, out) {
                out[i] = DRAW as u8;
            }
        }
    }

    /// Swaps a Queen for the hand card that gains most on its territory, now that every card there
    /// is face up; keeps the Queen when nothing gains (and always on Draw, where both draw alike).
    pub fn swap(&mut self, obs: &Observation, legal: &SwapLegal, out: &mut Vec<u8>) {
        out.clear();
        let me = obs.seat as usize;
        for &(t, index) in &legal.queens {
            let t = t as usize;
            let mut best = (NO_SWAP, 0.0f32);
            if t != DRAW {
                let before = self.points(obs, t, None, None);
                for &h in legal.swappable.iter().filter(|h| !out.contains(h)) {
                    let card = Slot::new(me, obs.hand[h as usize], true);
                    let after = self.points(obs, t, Some(card), Some(index as usize));
                    let g = Self::weigh(obs, before, after);
                    if g > best.1 {
                        best = (h, g);
                    }
                }
            }
            out.push(best.0);
        }
    }
}

/// `search`: flat Monte Carlo over determinizations. For a placement it builds a few candidates
/// (greedy's and drawer's choices, greedy's choice with one card held back or
/// one more card sent to Draw, and some uniform random placements; never a pass, which would
/// stall the game), then for each of `budget /
/// candidates` samples of the hidden cards (the unseen cards, dealt to the other hands by their
/// known sizes, Queens seen going back to a hand included, and the rest to the pile) plays the
/// game out with `greedy` at every seat, and keeps the candidate with the best mean result (win 1,
/// shared top 0.5, plus a thousandth of the margin). Every candidate sees the same samples and
/// rollout randomness (common random numbers). Queen swaps follow `greedy`. It reads only its
/// observation: the hidden cards it plays with are its own guesses.
pub struct Searcher {
    budget: u32,
    pub greedy: Heuristic,
    drawer: Heuristic,
    cands: Vec<Vec<u8>>,
    values: Vec<f64>,
    /// Greedy's and drawer's own choices, the seeds of the candidates.
    base: Vec<u8>,
    other: Vec<u8>,
    sim: State,
    pool: Vec<u8>,
    bufs: RoundBufs,
    rollout: Heuristic,
}

impl Searcher {
    pub fn new(rules: &Rules) -> Searcher {
        Searcher {
            budget: rules.search_budget,
            greedy: Heuristic::new(Style::Greedy),
            drawer: Heuristic::new(Style::Drawer),
            cands: Vec::new(),
            values: Vec::new(),
            base: Vec::with_capacity(32),
            other: Vec::with_capacity(32),
            sim: State::new(rules.players, rules.version, rules.decks, rules.max_rounds),
            pool: Vec::with_capacity(rules.decks * 52),
            bufs: RoundBufs::new(rules.players),
            rollout: Heuristic::new(Style::Greedy),
        }
    }

    fn add_candidate(&mut self, n: &mut usize, make: impl FnOnce(&mut Vec<u8>)) {
        if self.cands.len() <= *n {
            self.cands.push(Vec::with_capacity(32));
        }
        let c = &mut self.cands[*n];
        c.clear();
        make(c);
        // A pass never moves the game on (only the pile's end does), so it is never a candidate.
        let passes = c.iter().all(|&t| t == KEEP);
        if !passes && !self.cands[..*n].contains(&self.cands[*n]) {
            *n += 1;
        }
    }

    fn candidates(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) -> usize {
        let h = obs.hand.len();
        let mut n = 0;
        let mut base = std::mem::take(&mut self.base);
        let mut other = std::mem::take(&mut self.other);
        base.clear();
        base.resize(h, KEEP);
        self.greedy.place(obs, legal, &mut base);
        self.add_candidate(&mut n, |c| c.extend_from_slice(&base));
        other.clear();
        other.resize(h, KEEP);
        self.drawer.place(obs, legal, &mut other);
        self.add_candidate(&mut n, |c| c.extend_from_slice(&other));
        let draw_free = legal.version == Version::B || !base.contains(&(DRAW as u8));
        for i in 0..h {
            if base[i] != KEEP {
                self.add_candidate(&mut n, |c| {
                    c.extend_from_slice(&base);
                    c[i] = KEEP;
                });
            } else if draw_free && obs.pile > 0 {
                self.add_candidate(&mut n, |c| {
                    c.extend_from_slice(&base);
                    c[i] = DRAW as u8;
                });
            }
        }
        for _ in 0..4 {
            self.add_candidate(&mut n, |c| legal.uniform(rng, c));
        }
        self.base = base;
        self.other = other;
        n
    }

    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut [u8]) {
        if obs.hand.is_empty() {
            return;
        }
        let n = self.candidates(obs, legal, rng);
        if n == 0 {
            return;
        }
        let samples = (self.budget as usize / n).max(1);
        self.values.clear();
        self.values.resize(n, 0.0);
        for _ in 0..samples {
            let sample_seed = GameSeed::new(rng.next_u64(), 0);
            for c in 0..n {
                let mut sample_rng = sample_seed.rng();
                self.determinize(obs, &mut sample_rng);
                self.values[c] += self.rollout(obs, c, &mut sample_rng);
            }
        }
        let best = (0..n).fold(0, |b, c| if self.values[c] > self.values[b] { c } else { b });
        out.copy_from_slice(&self.cands[best]);
    }

    /// Builds `sim`: the observed table and this hand, the unseen cards dealt at random to the other
    /// hands (by their known sizes, known Queens first) and the pile.
    fn determinize(&mut self, obs: &Observation, rng: &mut GameRng) {
        let me = obs.seat as usize;
        let mut unseen = [0i32; FACES];
        for (f, u) in unseen.iter_mut().enumerate().skip(1) {
            *u = 4 * obs.decks as i32 - obs.burned[f] as i32;
        }
        obs.hand.iter().for_each(|&f| unseen[f as usize] -= 1);
        obs.territories.iter().flatten().for_each(|s| unseen[s.face as usize] -= 1);
        let sim = &mut self.sim;
        for t in 0..4 {
            sim.territories[t].clear();
            sim.territories[t].extend_from_slice(&obs.territories[t]);
        }
        for s in 0..sim.players {
            sim.hands[s].clear();
            if s != me {
                let known = (obs.queens_known[s] as i32).min(unseen[QUEEN as usize]).max(0);
                unseen[QUEEN as usize] -= known;
                sim.hands[s].extend(std::iter::repeat_n(QUEEN, known as usize));
            }
        }
        sim.hands[me].extend_from_slice(&obs.hand);
        self.pool.clear();
        for (f, &u) in unseen.iter().enumerate() {
            self.pool.extend(std::iter::repeat_n(f as u8, u.max(0) as usize));
        }
        shuffle(rng, &mut self.pool);
        for s in (0..sim.players).filter(|&s| s != me) {
            let missing = obs.hand_sizes[s] as usize - sim.hands[s].len();
            let at = self.pool.len() - missing;
            sim.hands[s].extend_from_slice(&self.pool[at..]);
            self.pool.truncate(at);
        }
        // In play the unseen cards fill the pile exactly; anything beyond it would be face down on
        // the table (never the case at a decision), so the pile takes exactly its known size.
        debug_assert!(self.pool.len() >= obs.pile as usize, "unseen cards must cover the pile");
        sim.pile.clear();
        sim.pile.extend_from_slice(&self.pool[self.pool.len() - obs.pile as usize..]);
        sim.burned = obs.burned;
        sim.scores = obs.scores;
        sim.points = [[0; 3]; MAX_PLAYERS];
        sim.round = obs.round - 1;
        sim.last_round = obs.last_round;
        sim.queens_known = obs.queens_known;
    }

    /// Plays `sim` to the end with candidate `c` as this seat's placement now; returns its value.
    fn rollout(&mut self, obs: &Observation, c: usize, rng: &mut GameRng) -> f64 {
        let me = obs.seat as usize;
        let mut seats =
            RolloutSeats { me, root_round: obs.round, first: &self.cands[c], heuristic: &mut self.rollout };
        let mut tally = Tally::default();
        while play_round(&mut self.sim, &mut seats, &mut self.bufs, rng, &mut tally, &mut Silent).is_none() {}
        let scores = &self.sim.scores[..self.sim.players];
        let mine = scores[me];
        let best_other = (0..scores.len()).filter(|&s| s != me).map(|s| scores[s]).max().unwrap_or(0);
        let result = match mine.cmp(&best_other) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        result + 0.001 * (mine - best_other) as f64
    }
}

/// The seats of a rollout: the candidate for the searching seat in the round searched, `greedy`
/// everywhere else.
struct RolloutSeats<'a> {
    me: usize,
    root_round: u32,
    first: &'a [u8],
    heuristic: &'a mut Heuristic,
}

impl Seats for RolloutSeats<'_> {
    fn place(&mut self, seat: usize, obs: &Observation, legal: &PlaceLegal, out: &mut Vec<u8>) {
        if seat == self.me && obs.round == self.root_round {
            out.copy_from_slice(self.first);
        } else {
            self.heuristic.place(obs, legal, out);
        }
    }

    fn swap(&mut self, _: usize, obs: &Observation, legal: &SwapLegal, out: &mut Vec<u8>) {
        self.heuristic.swap(obs, legal, out);
    }
}
