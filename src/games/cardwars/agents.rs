//! The players of Cardwars: `random` (the rulings' uniform player), two heuristics with different
//! ideas (`aggressive` develops faces and attacks whenever no bigger face can block for free;
//! `defensive` attacks only where it is safe, keeps a face home and holds its joker for the big
//! attacks), and `search`, the kit's flat Monte Carlo over the hidden cards. Every agent decides
//! from an `Observation` and the game's `Options` alone; `docs/policies.md` describes them.

use super::rules::{
    Action, DECK, Game, NO_BLOCK, Next, Observation, Options, Turn, Unit, Zone, is_face, is_joker,
    is_resource, pays_for, suit, value,
};
use super::{PLAYERS, Rules, deck_of};
use crate::decide::search::{Determinize, FlatMonteCarlo, Rollout};
use crate::decide::{Legal, Policy, Random};
use crate::seed::{GameRng, shuffle};

/// Policy names, in the order `policies` indices refer to.
pub const POLICIES: [&str; 4] = ["random", "aggressive", "defensive", "search"];

/// One seat's player, of the kit's three kinds (`crate::decide::Agent`).
pub type Agent = crate::decide::Agent<Heuristic, Searcher>;

impl Agent {
    pub fn new(policy: usize, rules: &Rules) -> Agent {
        match POLICIES[policy] {
            "random" => Agent::Random,
            "aggressive" => Agent::Heuristic(Heuristic { style: Style::Aggressive }),
            "defensive" => Agent::Heuristic(Heuristic { style: Style::Defensive }),
            _ => Agent::Search(Box::new(Searcher::new(rules))),
        }
    }

    #[inline]
    pub fn decide(&mut self, obs: &Observation, options: &Options, rng: &mut GameRng, out: &mut Action) {
        Policy::<Turn>::decide(self, obs, options, rng, out);
    }
}

impl Policy<Turn> for Agent {
    #[inline]
    fn decide(&mut self, obs: &Observation, options: &Options, rng: &mut GameRng, out: &mut Action) {
        match self {
            Agent::Random => Policy::<Turn>::decide(&mut Random, obs, options, rng, out),
            Agent::Heuristic(h) => *out = h.decide(obs, options),
            Agent::Search(s) => *out = s.decide(obs, options, rng),
        }
    }
}

/// Which idea a `Heuristic` follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `aggressive`: plays every resource it can (the joker too, as soon as it pays for a face),
    /// the biggest face it can pay for, and attacks with every ready face that no unmarked
    /// opposing face outvalues (an equal face is a trade it accepts). Defends with blocks that
    /// kill or trade, the joker only against a lethal attack or two faces or more, and throws
    /// cheap blockers in front of a lethal attack.
    Aggressive,
    /// `defensive`: never plays its joker as a resource; attacks only with faces that every
    /// unmarked opposing face is smaller than, so no attack of its own is a trade (once nothing
    /// is left to draw, it attacks like `aggressive`, so a standoff does not stall the game). Blocks like `aggressive`, and also throws cheap blockers in front of an attack
    /// that would bring its life to 5 or less; plays the joker against two faces or more, or
    /// against an attack that would take half of its life.
    Defensive,
}

/// A rule-based player: each decision from the observation and the options alone.
#[derive(Clone, Copy, Debug)]
pub struct Heuristic {
    pub style: Style,
}

/// The values of the units of `units` in `mask`, highest first, with their field indices.
fn by_value(units: &[Unit], mask: u32, out: &mut Zone<u8>) {
    out.clear();
    for i in 0..units.len() {
        if mask >> i & 1 == 1 {
            out.push(i as u8);
        }
    }
    out.as_mut_slice()
        .sort_unstable_by(|&a, &b| value(units[b as usize].card).cmp(&value(units[a as usize].card)));
}

impl Heuristic {
    pub fn decide(&self, obs: &Observation, o: &Options) -> Action {
        match obs.next {
            Next::Resource(_) => self.resource(obs, o),
            Next::Face(_) => self.face(obs, o),
            Next::Attack(_) => self.attack(obs, o),
            Next::Defend(_) => self.defend(obs, o),
            Next::Order(_) => order(obs, o),
            Next::Over(_) => Action::Pass,
        }
    }

    /// The resource that lets a face in hand be paid now, else one of a face's suit, else the
    /// biggest; `defensive` keeps its joker.
    fn resource(&self, obs: &Observation, o: &Options) -> Action {
        let me = obs.seat as usize;
        let field = obs.field[me].as_slice();
        let hand = obs.hand.as_slice();
        let mut best: Option<(u32, u8)> = None;
        for h in 0..hand.len() {
            let r = hand[h];
            if o.resources >> h & 1 == 0 || (is_joker(r) && self.style == Style::Defensive) {
                continue;
            }
            let mut score = value(r) as u32;
            for &f in hand.iter().filter(|&&f| is_face(f)) {
                if pays_for(r, suit(f)) {
                    let have: u32 = field
                        .iter()
                        .filter(|u| pays_for(u.card, suit(f)))
                        .map(|u| value(u.card) as u32)
                        .sum();
                    score += if have + value(r) as u32 >= value(f) as u32 { 100 } else { 20 };
                }
            }
            // The joker is worth keeping for defense unless it pays for a face now.
            if is_joker(r) && score < 100 {
                continue;
            }
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, h as u8));
            }
        }
        best.map_or(Action::Pass, |(_, h)| Action::Resource(h))
    }

    /// The biggest face, paid with the least value lost, then the fewest cards, then no joker.
    fn face(&self, obs: &Observation, o: &Options) -> Action {
        let me = obs.seat as usize;
        let field = obs.field[me].as_slice();
        let hand = obs.hand.as_slice();
        let key = |&(h, m): &(u8, u32)| {
            let paid: u32 =
                (0..field.len()).filter(|i| m >> i & 1 == 1).map(|i| value(field[i].card) as u32).sum();
            let jokers = (0..field.len()).filter(|&i| m >> i & 1 == 1 && is_joker(field[i].card)).count();
            (std::cmp::Reverse(value(hand[h as usize])), paid, m.count_ones(), jokers, h, m)
        };
        o.faces.iter().min_by_key(|x| key(x)).map_or(Action::Pass, |&(h, m)| Action::Face(h, m))
    }

    fn attack(&self, obs: &Observation, o: &Options) -> Action {
        let me = obs.seat as usize;
        let mine = obs.field[me].as_slice();
        let theirs = obs.field[1 - me].as_slice();
        let biggest_blocker =
            theirs.iter().filter(|u| is_face(u.card) && !u.marked).map(|u| value(u.card)).max().unwrap_or(0);
        let all: u32 =
            (0..mine.len()).filter(|i| o.ready >> i & 1 == 1).map(|i| value(mine[i].card) as u32).sum();
        let blockers = theirs.iter().filter(|u| !u.marked).count();
        if blockers == 0 && all as i32 >= obs.life[1 - me] {
            return Action::attack(o.ready);
        }
        // Once nothing is left to draw (a quiet turn has passed), a standoff would only stall:
        // `defensive` then attacks like `aggressive`.
        let cautious = self.style == Style::Defensive && obs.quiet == 0;
        let mut mask = 0u32;
        for (i, u) in mine.iter().enumerate() {
            let v = value(u.card);
            let safe = if cautious { biggest_blocker < v } else { biggest_blocker <= v };
            if o.ready >> i & 1 == 1 && safe {
                mask |= 1 << i;
            }
        }
        Action::attack(mask)
    }

    fn defend(&self, obs: &Observation, o: &Options) -> Action {
        let me = obs.seat as usize;
        let mine = obs.field[me].as_slice();
        let theirs = obs.field[1 - me].as_slice();
        let mut attackers = Zone::default();
        by_value(theirs, o.attackers, &mut attackers);
        let mut free = o.blockers;
        let mut blocks = [NO_BLOCK; DECK];
        let mut unblocked = 0i32;
        // Kill and survive with the smallest face that can; else trade with an equal face.
        for &a in attackers.as_slice() {
            let v = value(theirs[a as usize].card);
            let pick = |ok: &dyn Fn(u8) -> bool| {
                (0..mine.len())
                    .filter(|&j| free >> j & 1 == 1 && is_face(mine[j].card) && ok(value(mine[j].card)))
                    .min_by_key(|&j| (value(mine[j].card), j))
            };
            match pick(&|b| b > v).or_else(|| pick(&|b| b == v)) {
                Some(j) => {
                    blocks[j] = a;
                    free &= !(1 << j);
                }
                None => unblocked += v as i32,
            }
        }
        let life = obs.life[me];
        let faces = o.attackers.count_ones();
        let joker = match self.style {
            Style::Aggressive => unblocked >= life || faces >= 2,
            Style::Defensive => unblocked >= life || faces >= 2 || 2 * unblocked >= life,
        };
        if o.joker && joker && unblocked > 0 {
            return Action::Joker;
        }
        // Cheap blockers in front of the biggest unblocked attackers while the damage is too much.
        let floor = match self.style {
            Style::Aggressive => 0,
            Style::Defensive => 5,
        };
        let mut cheap = Zone::default();
        by_value(mine, free, &mut cheap);
        let cheap = cheap.as_slice();
        let mut k = cheap.len();
        for &a in attackers.as_slice() {
            if life - unblocked > floor || k == 0 {
                break;
            }
            if blocks.contains(&a) {
                continue;
            }
            k -= 1;
            blocks[cheap[k] as usize] = a;
            unblocked -= value(theirs[a as usize].card).min(value(mine[cheap[k] as usize].card)) as i32;
        }
        Action::block(blocks)
    }
}

/// The attacker's damage order: faces first, then resources, smallest first, so the damage
/// destroys as many blockers, threats first, as it can.
pub fn order(obs: &Observation, o: &Options) -> Action {
    let theirs = obs.field[1 - obs.seat as usize].as_slice();
    let mut z = o.to_order;
    z.as_mut_slice().sort_unstable_by_key(|&j| {
        let c = theirs[j as usize].card;
        (is_resource(c), value(c), j)
    });
    Action::Order(z)
}

/// `search`: flat Monte Carlo over determinizations (`crate::decide::search`). Candidates per
/// decision: every resource and "none"; "no face" and, for each face in hand, the heuristics'
/// payment of it; every set of attackers when three faces or fewer are ready, else no attack, all,
/// each heuristic's and each face alone; the joker, no block and each heuristic's blocks. The
/// damage order follows the heuristics. Each candidate is played `budget / candidates` times from
/// the same samples of the hidden cards (`Unseen`), every later decision by `aggressive`
/// (`HeuristicRollout`), and the best mean wins (1 a win, 0 a loss, one half capped).
pub struct Searcher {
    aggressive: Heuristic,
    defensive: Heuristic,
    /// The face options of one face at a time (kept between decisions).
    one: Options,
    search: FlatMonteCarlo<Game, Unseen, HeuristicRollout>,
}

impl Searcher {
    pub fn new(rules: &Rules) -> Searcher {
        let sim = Game::new(rules.config);
        let unseen = Unseen::new();
        let rollout = HeuristicRollout {
            heuristic: Heuristic { style: Style::Defensive },
            obs: Observation::default(),
        };
        Searcher {
            aggressive: Heuristic { style: Style::Aggressive },
            defensive: Heuristic { style: Style::Defensive },
            one: Options { faces: Vec::with_capacity(64), ..Options::default() },
            search: FlatMonteCarlo::new(rules.search_budget, sim, unseen, rollout),
        }
    }

    fn offer(&mut self, a: Action) {
        self.search.candidates.offer(|c| {
            *c = a;
            true
        });
    }

    fn candidates(&mut self, obs: &Observation, o: &Options, rng: &mut GameRng) {
        self.search.candidates.clear();
        let (agg, def) = (self.aggressive.decide(obs, o), self.defensive.decide(obs, o));
        match obs.next {
            Next::Resource(_) => {
                self.offer(agg);
                self.offer(def);
                self.offer(Action::Pass);
                for h in 0..32 {
                    if o.resources >> h & 1 == 1 {
                        self.offer(Action::Resource(h));
                    }
                }
            }
            Next::Face(_) => {
                self.offer(agg);
                self.offer(Action::Pass);
                for &(h, _) in &o.faces {
                    self.one.faces.clear();
                    self.one.faces.extend(o.faces.iter().filter(|f| f.0 == h));
                    let paid = self.aggressive.decide(obs, &self.one);
                    self.offer(paid);
                }
            }
            Next::Attack(_) => {
                self.offer(agg);
                self.offer(def);
                self.offer(Action::Pass);
                self.offer(Action::attack(o.ready));
                let ready = o.ready;
                if ready.count_ones() <= 3 {
                    let mut sub = ready;
                    while sub != 0 {
                        self.offer(Action::Attack(sub));
                        sub = (sub - 1) & ready;
                    }
                } else {
                    for i in 0..32 {
                        if ready >> i & 1 == 1 {
                            self.offer(Action::Attack(1 << i));
                        }
                    }
                }
            }
            Next::Defend(_) => {
                self.offer(agg);
                self.offer(def);
                self.offer(Action::Pass);
                if o.joker {
                    self.offer(Action::Joker);
                }
                let mut a = Action::Pass;
                o.uniform(rng, &mut a);
                self.offer(a);
            }
            Next::Order(_) | Next::Over(_) => self.offer(agg),
        }
    }

    pub fn decide(&mut self, obs: &Observation, o: &Options, rng: &mut GameRng) -> Action {
        self.candidates(obs, o, rng);
        if self.search.candidates.len() == 1 {
            return *self.search.candidates.get(0);
        }
        *self.search.search(obs.seat as usize, obs, rng).expect("a candidate")
    }
}

/// Turns a simulated game is played ahead at most.
pub const HORIZON: u32 = 40;

/// The search's determinization: everything public from the observation and the seat's own
/// hand; its own unseen cards (its 27 less hand, battlefield and graveyard) shuffled into its
/// deck; the opponent's unseen cards shuffled, its hand taken from them by its known size, the
/// rest its deck. Stopped at the observed decision.
pub struct Unseen {
    decks: [[u8; DECK]; PLAYERS],
}

impl Unseen {
    pub fn new() -> Unseen {
        Unseen { decks: [deck_of(0), deck_of(1)] }
    }
}

impl Default for Unseen {
    fn default() -> Self {
        Unseen::new()
    }
}

impl Determinize<Game> for Unseen {
    fn determinize(&mut self, obs: &Observation, rng: &mut GameRng, game: &mut Game) {
        let me = obs.seat as usize;
        let mut hands = [Zone::default(); PLAYERS];
        let mut decks = [Zone::default(); PLAYERS];
        for s in 0..PLAYERS {
            let mut seen = [false; 256];
            obs.field[s].as_slice().iter().for_each(|u| seen[u.card as usize] = true);
            obs.grave[s].as_slice().iter().for_each(|&c| seen[c as usize] = true);
            if s == me {
                obs.hand.as_slice().iter().for_each(|&c| seen[c as usize] = true);
            }
            let mut unseen: Zone<u8> = Zone::default();
            self.decks[s].iter().filter(|&&c| !seen[c as usize]).for_each(|&c| unseen.push(c));
            shuffle(rng, unseen.as_mut_slice());
            if s == me {
                hands[s] = obs.hand;
            } else {
                for _ in 0..obs.hand_len[s] {
                    let c = unseen.pop().expect("the unseen cards cover the hand");
                    hands[s].push(c);
                }
            }
            debug_assert_eq!(unseen.len(), obs.deck_len[s] as usize);
            decks[s] = unseen;
        }
        game.resume_at(obs, hands, decks);
        // A simulation looks `HORIZON` turns ahead at most; one still going then is judged by the
        // lives (`Steps::value` of a capped game).
        game.config.max_turns = obs.config.max_turns.min(obs.turn + HORIZON);
    }
}

/// The search's rollout policy: one heuristic at every seat, from each seat's own observation of
/// the simulated game.
pub struct HeuristicRollout {
    heuristic: Heuristic,
    obs: Observation,
}

impl Rollout<Game> for HeuristicRollout {
    fn act(&mut self, game: &Game, seat: usize, _: &mut GameRng, out: &mut Action) {
        game.observe(seat, &mut self.obs);
        *out = self.heuristic.decide(&self.obs, game.options());
    }
}
