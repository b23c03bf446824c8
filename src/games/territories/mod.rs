//! Territorial Warfare (`territories`, RULINGS §3): players place cards face down on four
//! territories at once, and the territories burn and score what lands on them. The first decision
//! game of warsim: its players are policies (`crate::policy`), named per seat by `policies`.
//! `docs/rules/territories.md` summarises the rules as warsim plays them; `docs/policies.md` the agents.

pub mod agents;
pub mod state;
#[cfg(test)]
mod tests;

use agents::{Agent, POLICIES};
use state::{KEEP, MAX_PLAYERS, Observation, QUEEN, State, Tally, describe_slots, face_label};

pub use crate::games::narrate::{Narrator as Narr, Silent, Story};

use super::{Engine, GameDef, Point};
use crate::policy::{Decision, Legal, Lineup, Seating};
use crate::record::{
    Counters, Dist, Dists, Ending, GameRecord, Layout, LayoutBuilder, OutcomeKind, Outcomes,
};
use crate::seed::{GameRng, GameSeed, below, shuffle};
use crate::settings::{Allowed, Preset, SettingSpec, Settings};

pub const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "players",
        default: "2",
        allowed: Allowed::Int { min: 2, max: 6 },
        help: "players",
        deal: true,
    },
    SettingSpec {
        key: "decks",
        default: "auto",
        allowed: Allowed::IntOr { min: 1, max: 4, words: &["auto"] },
        help: "standard decks shuffled together; auto: 1 for 2-4 players, 2 for 5-6",
        deal: true,
    },
    SettingSpec {
        key: "version",
        default: "A",
        allowed: Allowed::Choice(&["A", "B"]),
        help: "A: at most one card per territory per round; B: any number",
        deal: false,
    },
    SettingSpec {
        key: "max_rounds",
        default: "200",
        allowed: Allowed::Int { min: 1, max: 100_000 },
        help: "a game still going after this many rounds ends as capped",
        deal: false,
    },
    SettingSpec {
        key: "policies",
        default: "greedy",
        allowed: Allowed::Text(
            "policy names, one for every seat or one per seat: random, greedy, drawer, search",
        ),
        help: "who plays each seat, e.g. greedy,random",
        deal: false,
    },
    SettingSpec {
        key: "rotate_seats",
        default: "true",
        allowed: Allowed::Bool,
        help: "play each deal once per rotation of the policies over the seats (game i: deal i/n, rotation i%n)",
        deal: true,
    },
    SettingSpec {
        key: "search_budget",
        default: "200",
        allowed: Allowed::Int { min: 1, max: 1_000_000 },
        help: "rollouts per placement decision of the search agent",
        deal: false,
    },
];

pub const PRESETS: &[Preset] = &[
    Preset { name: "standard", about: "Version A, the rules as written", sets: &[] },
    Preset {
        name: "version-b",
        about: "Version B: any number of cards per territory",
        sets: &[("version", "B")],
    },
];

pub const DEF: GameDef = GameDef {
    name: "territories",
    title: "Territorial Warfare",
    about: "Players place cards face down on High, Low, Straight and Draw at once; territories burn and score.",
    settings: SETTINGS,
    presets: PRESETS,
    build,
};

fn build(s: &Settings) -> Result<Box<dyn Point>, String> {
    Ok(Box::new(TerritoriesEngine::new(Rules::from_settings(s)?)))
}

/// How many cards a player may put on one territory in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// At most one card per territory per round.
    A,
    /// Any number.
    B,
}

/// The validated rules of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: usize,
    pub decks: usize,
    pub version: Version,
    pub max_rounds: u32,
    pub lineup: Lineup,
    pub rotate: bool,
    pub search_budget: u32,
}

impl Rules {
    pub fn from_settings(s: &Settings) -> Result<Rules, String> {
        let players = s.int("players") as usize;
        let decks = match s.get("decks") {
            "auto" => 1 + usize::from(players > 4),
            d => d.parse().map_err(|_| format!("territories: bad decks '{d}'"))?,
        };
        let lineup =
            Lineup::parse(s.get("policies"), players, &POLICIES).map_err(|e| format!("territories: {e}"))?;
        Ok(Rules {
            players,
            decks,
            version: if s.get("version") == "B" { Version::B } else { Version::A },
            max_rounds: s.int("max_rounds") as u32,
            lineup,
            rotate: s.flag("rotate_seats"),
            search_budget: s.int("search_budget") as u32,
        })
    }

    /// Two players, the given line-up, rotated seats, default everything else (for tests and benches).
    pub fn two(version: Version, lineup: &str) -> Rules {
        Rules {
            players: 2,
            decks: 1,
            version,
            max_rounds: 200,
            lineup: Lineup::parse(lineup, 2, &POLICIES).expect("known policies"),
            rotate: true,
            search_budget: 200,
        }
    }

    /// The cards of the game as faces 1..=13, in a fixed order, built from the shared deck shape.
    pub fn deck(&self) -> Vec<u8> {
        crate::cards::DeckShape::STANDARD.build(self.decks, 0).iter().map(|c| c.face_value()).collect()
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
fn completions(t: usize, r: u64) -> u64 {
    const BINOMIAL: [[u64; 5]; 5] =
        [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]];
    let free = 4 - t;
    let mut total = 0;
    let mut falling = 1;
    for (k, &ways) in BINOMIAL[free][..=free].iter().enumerate() {
        total += ways * falling;
        falling *= r.saturating_sub(k as u64);
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

/// Who decides for each seat during a round. The engine's line-up and the search agent's
/// rollouts both implement it, so they share one round loop.
pub trait Seats {
    /// Whether the player at `seat` reads its observation (`random` does not, so none is built).
    fn observes(&self, _seat: usize) -> bool {
        true
    }
    fn place(&mut self, seat: usize, obs: &Observation, legal: &PlaceLegal, out: &mut Vec<u8>);
    fn swap(&mut self, seat: usize, obs: &Observation, legal: &SwapLegal, out: &mut Vec<u8>);
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

/// The reusable buffers of a round.
#[derive(Clone, Debug, Default)]
pub struct RoundBufs {
    pub obs: Observation,
    pub targets: Vec<Vec<u8>>,
    pub picks: Vec<Vec<u8>>,
    pub swap: SwapLegal,
    pub swap_at: Vec<Vec<(u8, u16)>>,
}

impl RoundBufs {
    pub fn new(players: usize) -> RoundBufs {
        RoundBufs {
            targets: vec![Vec::with_capacity(32); players],
            picks: vec![Vec::with_capacity(8); players],
            swap_at: vec![Vec::with_capacity(8); players],
            ..RoundBufs::default()
        }
    }
}

/// Plays one round (if the game is not over) and says whether the game ended.
pub fn play_round<S: Seats, N: Narr>(
    st: &mut State,
    seats: &mut S,
    b: &mut RoundBufs,
    rng: &mut GameRng,
    tally: &mut Tally,
    narr: &mut N,
) -> Option<End> {
    if st.hands_empty() {
        return Some(End::HandsEmpty);
    }
    if st.round >= st.max_rounds {
        return Some(End::Capped);
    }
    st.round += 1;
    if N::ON {
        let last = if st.last_round { " (the last: the pile is empty)" } else { "" };
        narr.line(format_args!("Round {}{last}", st.round));
    }
    placement(st, seats, b, narr);
    queen_swaps(st, seats, b, tally, narr);
    st.settle_round(rng, tally, narr);
    if st.last_round {
        return Some(End::PileOut);
    }
    st.last_round = st.pile.is_empty();
    None
}

/// Every seat decides from the same table, then all placements are applied at once.
fn placement<S: Seats, N: Narr>(st: &mut State, seats: &mut S, b: &mut RoundBufs, narr: &mut N) {
    for seat in 0..st.players {
        if seats.observes(seat) {
            st.observe(seat, false, &mut b.obs);
        }
        let legal = PlaceLegal { version: st.version, hand: st.hands[seat].len() };
        let out = &mut b.targets[seat];
        out.clear();
        out.resize(legal.hand, KEEP);
        seats.place(seat, &b.obs, &legal, out);
        assert!(legal.allows(out), "seat {seat} chose an illegal placement {out:?}");
    }
    for seat in 0..st.players {
        if N::ON {
            tell_placement(st, seat, &b.targets[seat], narr);
        }
        st.place(seat, &b.targets[seat]);
    }
}

fn tell_placement<N: Narr>(st: &State, seat: usize, targets: &[u8], narr: &mut N) {
    let mut parts = Vec::new();
    for t in 0..4u8 {
        let cards: Vec<&str> = st.hands[seat]
            .iter()
            .zip(targets)
            .filter(|(_, x)| **x == t)
            .map(|(c, _)| face_label(*c))
            .collect();
        if !cards.is_empty() {
            parts.push(format!("{} {}", state::TERRITORIES[t as usize], cards.join(" ")));
        }
    }
    let kept: Vec<&str> = st.hands[seat]
        .iter()
        .zip(targets)
        .filter(|(_, x)| **x == KEEP)
        .map(|(c, _)| face_label(*c))
        .collect();
    let placed = if parts.is_empty() { "nothing".to_string() } else { parts.join(", ") };
    narr.line(format_args!("  P{seat} places {placed}; keeps [{}]", kept.join(" ")));
}

/// After the reveal, each seat with fresh Queens decides its swaps from the revealed table; the
/// swaps are applied once every seat has decided.
fn queen_swaps<S: Seats, N: Narr>(
    st: &mut State,
    seats: &mut S,
    b: &mut RoundBufs,
    tally: &mut Tally,
    narr: &mut N,
) {
    if !st.territories.iter().flatten().any(|s| s.fresh && s.face == QUEEN) {
        return;
    }
    for seat in 0..st.players {
        b.swap_at[seat].clear();
        b.picks[seat].clear();
        for t in 0..4 {
            for (i, s) in st.territories[t].iter().enumerate() {
                if s.fresh && s.face == QUEEN && s.owner as usize == seat {
                    b.swap_at[seat].push((t as u8, i as u16));
                }
            }
        }
        if b.swap_at[seat].is_empty() {
            continue;
        }
        if seats.observes(seat) {
            st.observe(seat, true, &mut b.obs);
        }
        b.swap.queens.clone_from(&b.swap_at[seat]);
        b.swap.swappable.clear();
        b.swap
            .swappable
            .extend((0..st.hands[seat].len() as u8).filter(|&h| st.hands[seat][h as usize] != QUEEN));
        let out = &mut b.picks[seat];
        seats.swap(seat, &b.obs, &b.swap, out);
        assert!(b.swap.allows(out), "seat {seat} chose an illegal Queen swap {out:?}");
    }
    for seat in 0..st.players {
        for (q, &pick) in b.swap_at[seat].iter().zip(&b.picks[seat]) {
            if pick != NO_SWAP {
                let card = st.hands[seat][pick as usize];
                if N::ON {
                    let t = state::TERRITORIES[q.0 as usize];
                    narr.line(format_args!("  P{seat} swaps the Queen on {t} for {}", face_label(card)));
                }
                st.swap_queen(seat, q.0 as usize, q.1 as usize, pick as usize);
                tally.queen_swaps += 1;
            }
        }
    }
}

/// The seats of a real game: each seat's agent (by line-up entry) and its own RNG stream.
pub struct Lineups {
    pub agents: Vec<Agent>,
    pub rngs: Vec<GameRng>,
    pub seating: Seating,
}

impl Seats for Lineups {
    fn observes(&self, seat: usize) -> bool {
        !matches!(self.agents[self.seating.entry(seat)], Agent::Random)
    }

    fn place(&mut self, seat: usize, obs: &Observation, legal: &PlaceLegal, out: &mut Vec<u8>) {
        let agent = &mut self.agents[self.seating.entry(seat)];
        agent.place(obs, legal, &mut self.rngs[seat], out);
    }

    fn swap(&mut self, seat: usize, obs: &Observation, legal: &SwapLegal, out: &mut Vec<u8>) {
        let agent = &mut self.agents[self.seating.entry(seat)];
        agent.swap(obs, legal, &mut self.rngs[seat], out);
    }
}

crate::declare! {
    /// The game's own counters (`docs/rules/territories.md`), declared once; one `wins_<policy>`
    /// counter per distinct policy of the line-up follows them: 1 in a game that a seat played by
    /// that policy won alone.
    pub mod counter: Counter {
        CARDS_BURNED = "cards_burned",
        JACK_BURNS = "jack_burns",
        KING_SAVES = "king_saves",
        QUEEN_SWAPS = "queen_swaps",
        CARDS_DRAWN = "cards_drawn",
        SHORT_PILE_DRAWS = "short_pile_draws",
        HANDS_EMPTY_END = "hands_empty_end",
        DRAWS_BLOCKED = "draws_blocked",
    }
}

crate::declare! {
    /// Points per seat on High, Low and Straight, declared once; per-seat and per-policy points and
    /// the winning margin follow them.
    pub mod dist: Dist {
        POINTS_HIGH = "points_high",
        POINTS_LOW = "points_low",
        POINTS_STRAIGHT = "points_straight",
    }
}

/// The names of `counter` in index order.
pub const COUNTERS: &[&str] = counter::NAMES;

pub struct TerritoriesEngine {
    pub rules: Rules,
    layout: Layout,
    outcomes: Outcomes,
    deck: Vec<u8>,
    /// Each line-up entry's index among the line-up's distinct policies.
    entry_policy: Vec<usize>,
    wins_by_policy: Counters,
    points_by_seat: Dists,
    points_by_policy: Dists,
    margin: Dist,
}

pub struct TerritoriesScratch {
    state: State,
    deck: Vec<u8>,
    bufs: RoundBufs,
    seats: Lineups,
}

impl TerritoriesEngine {
    pub fn new(rules: Rules) -> Self {
        let n = rules.players;
        let distinct = rules.lineup.distinct();
        let entry_policy: Vec<usize> = rules
            .lineup
            .policies
            .iter()
            .map(|p| distinct.iter().position(|d| d == p).expect("listed"))
            .collect();
        let mut b = LayoutBuilder::new("rounds");
        let policy = |entry: usize| Some(POLICIES[rules.lineup.policies[entry]].to_string());
        b.seat_policy_wins(n, n, policy, |seat, entry| rules.rotate || entry == seat)
            .plain(&[OutcomeKind::Draw, OutcomeKind::Capped]);
        b.declared_counters(counter::NAMES);
        let wins_by_policy = b.counters(distinct.iter().map(|&p| format!("wins_{}", POLICIES[p])));
        b.declared_distributions(dist::NAMES);
        let points_by_seat = b.distributions((0..n).map(|s| format!("points_seat_{s}")));
        let points_by_policy =
            b.distributions(distinct.iter().map(|&p| format!("points_policy_{}", POLICIES[p])));
        let margin = b.distribution("margin");
        let (layout, outcomes) = b.finish();
        let deck = rules.deck();
        TerritoriesEngine {
            rules,
            layout,
            outcomes,
            deck,
            entry_policy,
            wins_by_policy,
            points_by_seat,
            points_by_policy,
            margin,
        }
    }

    /// Sets up game `seed`: seating, the deal, each seat's agent and RNG. Returns the game's RNG.
    fn start(&self, seed: GameSeed, sc: &mut TerritoriesScratch) -> GameRng {
        let seating = Seating::new(seed, self.rules.players, self.rules.rotate);
        let mut rng = seating.deal.rng();
        sc.deck.clear();
        sc.deck.extend_from_slice(&self.deck);
        shuffle(&mut rng, &mut sc.deck);
        sc.state.deal(&sc.deck);
        sc.seats.seating = seating;
        for seat in 0..self.rules.players {
            sc.seats.rngs[seat] = seating.seat_rng(seat);
        }
        rng
    }

    fn run<N: Narr>(&self, seed: GameSeed, sc: &mut TerritoriesScratch, narr: &mut N) -> (End, Tally) {
        let mut rng = self.start(seed, sc);
        if N::ON {
            self.tell_deal(sc, narr);
        }
        let mut tally = Tally::default();
        loop {
            if let Some(end) =
                play_round(&mut sc.state, &mut sc.seats, &mut sc.bufs, &mut rng, &mut tally, narr)
            {
                return (end, tally);
            }
        }
    }

    fn tell_deal<N: Narr>(&self, sc: &TerritoriesScratch, narr: &mut N) {
        let st = &sc.state;
        narr.line(format_args!(
            "Deal: {} players, {} deck(s), version {:?}; {} cards in the pile",
            st.players,
            self.rules.decks,
            st.version,
            st.pile.len()
        ));
        for seat in 0..st.players {
            let policy = POLICIES[self.rules.lineup.policies[sc.seats.seating.entry(seat)]];
            let hand: Vec<&str> = st.hands[seat].iter().map(|&c| face_label(c)).collect();
            narr.line(format_args!("  P{seat} ({policy}) holds {}", hand.join(" ")));
        }
    }

    /// The winning seat, if one seat alone has the top score.
    fn winner(&self, st: &State) -> Option<usize> {
        let scores = &st.scores[..st.players];
        let top = *scores.iter().max().expect("players");
        let mut at_top = (0..st.players).filter(|&s| scores[s] == top);
        let first = at_top.next();
        if at_top.next().is_some() { None } else { first }
    }

    fn finish(&self, end: End, tally: Tally, sc: &TerritoriesScratch, rec: &mut GameRecord) {
        let st = &sc.state;
        let n = self.rules.players;
        rec.length = st.round as u64;
        let winner = if end == End::Capped { None } else { self.winner(st) };
        let ending = match (end, winner) {
            (End::Capped, _) => Ending::Plain(OutcomeKind::Capped),
            (_, Some(w)) => Ending::Seat { seat: w, entry: sc.seats.seating.entry(w) },
            (_, None) => Ending::Plain(OutcomeKind::Draw),
        };
        rec.end(self.outcomes.row(ending));
        rec.count(counter::CARDS_BURNED, tally.cards_burned);
        rec.count(counter::JACK_BURNS, tally.jack_burns);
        rec.count(counter::KING_SAVES, tally.king_saves);
        rec.count(counter::QUEEN_SWAPS, tally.queen_swaps);
        rec.count(counter::CARDS_DRAWN, tally.cards_drawn);
        rec.count(counter::SHORT_PILE_DRAWS, tally.short_pile_draws);
        rec.count(counter::HANDS_EMPTY_END, u64::from(end == End::HandsEmpty));
        rec.count(counter::DRAWS_BLOCKED, tally.draws_blocked);
        if let Some(w) = winner {
            rec.count(self.wins_by_policy.at(self.entry_policy[sc.seats.seating.entry(w)]), 1);
        }
        let by_territory = [dist::POINTS_HIGH, dist::POINTS_LOW, dist::POINTS_STRAIGHT];
        for seat in 0..n {
            for (t, &d) in by_territory.iter().enumerate() {
                rec.observe(d, st.points[seat][t] as i64);
            }
            rec.observe(self.points_by_seat.at(seat), st.scores[seat] as i64);
            let p = self.entry_policy[sc.seats.seating.entry(seat)];
            rec.observe(self.points_by_policy.at(p), st.scores[seat] as i64);
        }
        let mut sorted: [i32; MAX_PLAYERS] = st.scores;
        sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
        rec.observe(self.margin, (sorted[0] - sorted[1]) as i64);
    }
}

impl Engine for TerritoriesEngine {
    type Scratch = TerritoriesScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> TerritoriesScratch {
        let r = &self.rules;
        TerritoriesScratch {
            state: State::new(r.players, r.version, r.decks, r.max_rounds),
            deck: Vec::with_capacity(self.deck.len()),
            bufs: RoundBufs::new(r.players),
            seats: Lineups {
                agents: r.lineup.policies.iter().map(|&p| Agent::new(p, r)).collect(),
                rngs: (0..r.players).map(|s| GameSeed::new(0, 0).seat_rng(s)).collect(),
                seating: Seating::new(GameSeed::new(0, 0), r.players, r.rotate),
            },
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut TerritoriesScratch, rec: &mut GameRecord) {
        let (end, tally) = self.run(seed, sc, &mut Silent);
        self.finish(end, tally, sc, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) {
        let mut sc = self.new_scratch();
        let mut story = Story(out);
        let (end, tally) = self.run(seed, &mut sc, &mut story);
        let st = &sc.state;
        for t in 0..4 {
            if !st.territories[t].is_empty() {
                story.line(format_args!(
                    "  left on {}: {}",
                    state::TERRITORIES[t],
                    describe_slots(&st.territories[t])
                ));
            }
        }
        let why = match end {
            End::PileOut => "the last round after the pile ran out is over",
            End::HandsEmpty => "no player holds a card",
            End::Capped => "the round cap is reached (capped)",
        };
        let result = match (end, self.winner(st)) {
            (End::Capped, _) => "no result".to_string(),
            (_, Some(w)) => format!("P{w} wins"),
            (_, None) => "a draw".to_string(),
        };
        story.line(format_args!("Game over after {} rounds: {why}; {result}.", st.round));
        let mut rec = GameRecord::new(&self.layout);
        self.finish(end, tally, &sc, &mut rec);
        story.line(format_args!("{}", super::narrate::counters_line(&self.layout.counters, &rec.counters)));
    }
}
