//! The players of Territorial Warfare: `random`, two heuristics with different ideas (`greedy`
//! plays for points that last, `drawer` keeps its hand full through Draw), and `search`, a flat
//! Monte Carlo player over determinized hidden cards (the kit's `FlatMonteCarlo` on this game).
//! Every agent decides from an `Observation` alone; `docs/policies.md` describes them.

use super::rules::{
    DRAW, FACES, Game, HIGH, KEEP, MAX_PLAYERS, NO_SWAP, Next, Observation, Place, PlaceLegal, QUEEN,
    STRAIGHT, Slot, Swap, SwapLegal, is_royal, settle,
};
use super::{Rules, Version};
use crate::decide::search::{Candidates, Determinize, FlatMonteCarlo, Rollout};
use crate::decide::{Legal, Policy, Random};
use crate::games::narrate::Silent;
use crate::seed::{GameRng, shuffle};

/// Policy names, in the order `policies` indices refer to.
pub const POLICIES: [&str; 4] = ["random", "greedy", "drawer", "search"];

/// One seat's player, of the kit's three kinds (`crate::decide::Agent`); `greedy` and `drawer`
/// are the one `Heuristic` with two styles.
pub type Agent = crate::decide::Agent<Heuristic, Searcher>;

impl Agent {
    pub fn new(policy: usize, rules: &Rules) -> Agent {
        match POLICIES[policy] {
            "random" => Agent::Random,
            "greedy" => Agent::Heuristic(Heuristic::new(Style::Greedy)),
            "drawer" => Agent::Heuristic(Heuristic::new(Style::Drawer)),
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
        // `Random` (`PlaceLegal::uniform`) sizes the placement itself; the others fill one entry per
        // hand card, all kept to begin with.
        let sized = |out: &mut Vec<u8>| {
            out.clear();
            out.resize(legal.hand, KEEP);
        };
        match self {
            Agent::Random => Policy::<Place>::decide(&mut Random, obs, legal, rng, out),
            Agent::Heuristic(h) => {
                sized(out);
                h.place(obs, legal, out)
            }
            Agent::Search(s) => {
                sized(out);
                s.place(obs, legal, rng, out)
            }
        }
    }
}

impl Policy<Swap> for Agent {
    fn decide(&mut self, obs: &Observation, legal: &SwapLegal, rng: &mut GameRng, out: &mut Vec<u8>) {
        match self {
            Agent::Random => Policy::<Swap>::decide(&mut Random, obs, legal, rng, out),
            Agent::Heuristic(h) => h.swap(obs, legal, out),
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

/// `search`: flat Monte Carlo over determinizations (`crate::decide::search`). For a placement it
/// offers a few candidates (greedy's and drawer's choices, greedy's choice with one card held back
/// or one more card sent to Draw, and some uniform random placements; never a pass, which would
/// stall the game); the kit then plays `budget / candidates` samples of the hidden cards per
/// candidate (`Unseen`), every other decision by `greedy` (`GreedyRollout`), and keeps the
/// candidate with the best mean result (`crate::decide::search::standing`). Queen swaps follow
/// `greedy`. It reads only its observation: the hidden cards it plays with are its own guesses.
pub struct Searcher {
    pub greedy: Heuristic,
    drawer: Heuristic,
    /// Greedy's and drawer's own choices, the seeds of the candidates.
    base: Vec<u8>,
    other: Vec<u8>,
    search: FlatMonteCarlo<Game, Unseen, GreedyRollout>,
}

/// Offers the placement `make` writes; a pass never moves the game on (only the pile's end does),
/// so it is never a candidate.
fn offer(cands: &mut Candidates<Vec<u8>>, make: impl FnOnce(&mut Vec<u8>)) {
    cands.offer(|c| {
        c.clear();
        make(c);
        !c.iter().all(|&t| t == KEEP)
    });
}

impl Searcher {
    pub fn new(rules: &Rules) -> Searcher {
        let sim = Game::of_rules(rules);
        let unseen = Unseen { pool: Vec::with_capacity(rules.decks * 52) };
        let rollout = GreedyRollout { heuristic: Heuristic::new(Style::Greedy), obs: Observation::default() };
        Searcher {
            greedy: Heuristic::new(Style::Greedy),
            drawer: Heuristic::new(Style::Drawer),
            base: Vec::with_capacity(32),
            other: Vec::with_capacity(32),
            search: FlatMonteCarlo::new(rules.search_budget, sim, unseen, rollout),
        }
    }

    fn candidates(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng) {
        let h = obs.hand.len();
        let (base, other) = (&mut self.base, &mut self.other);
        let cands = &mut self.search.candidates;
        cands.clear();
        base.clear();
        base.resize(h, KEEP);
        self.greedy.place(obs, legal, base);
        offer(cands, |c| c.extend_from_slice(base));
        other.clear();
        other.resize(h, KEEP);
        self.drawer.place(obs, legal, other);
        offer(cands, |c| c.extend_from_slice(other));
        let draw_free = legal.version == Version::B || !base.contains(&(DRAW as u8));
        for i in 0..h {
            if base[i] != KEEP {
                offer(cands, |c| {
                    c.extend_from_slice(base);
                    c[i] = KEEP;
                });
            } else if draw_free && obs.pile > 0 {
                offer(cands, |c| {
                    c.extend_from_slice(base);
                    c[i] = DRAW as u8;
                });
            }
        }
        for _ in 0..4 {
            offer(cands, |c| legal.uniform(rng, c));
        }
    }

    pub fn place(&mut self, obs: &Observation, legal: &PlaceLegal, rng: &mut GameRng, out: &mut [u8]) {
        if obs.hand.is_empty() {
            return;
        }
        self.candidates(obs, legal, rng);
        if let Some(best) = self.search.search(obs.seat as usize, obs, rng) {
            out.copy_from_slice(best);
        }
    }
}

/// The search's determinization: the observed table and the seat's hand, the cards it has not seen
/// dealt at random to the other hands (by their known sizes, Queens seen going back to a hand
/// first) and to the pile; stopped at the start of the round's placement, so the other seats'
/// placements of this round (face down, unseen) are played again by the rollout.
pub struct Unseen {
    pool: Vec<u8>,
}

impl Determinize<Game> for Unseen {
    fn determinize(&mut self, obs: &Observation, rng: &mut GameRng, game: &mut Game) {
        let me = obs.seat as usize;
        let mut unseen = [0i32; FACES];
        for (f, u) in unseen.iter_mut().enumerate().skip(1) {
            *u = 4 * obs.decks as i32 - obs.burned[f] as i32;
        }
        obs.hand.iter().for_each(|&f| unseen[f as usize] -= 1);
        obs.territories.iter().flatten().for_each(|s| unseen[s.face as usize] -= 1);
        let sim = &mut game.st;
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
        game.begin(&mut Silent);
    }
}

/// The search's rollout policy: `greedy` at every seat, from each seat's own observation of the
/// simulated game.
pub struct GreedyRollout {
    heuristic: Heuristic,
    obs: Observation,
}

impl Rollout<Game> for GreedyRollout {
    fn act(&mut self, game: &Game, seat: usize, _: &mut GameRng, out: &mut Vec<u8>) {
        game.observe(seat, &mut self.obs);
        match game.next() {
            Next::Place(_) => {
                let legal = game.place_legal(seat);
                out.clear();
                out.resize(legal.hand, KEEP);
                self.heuristic.place(&self.obs, &legal, out);
            }
            Next::Swap(_) => self.heuristic.swap(&self.obs, game.swap_legal(), out),
            Next::Over(_) => out.clear(),
        }
    }
}
