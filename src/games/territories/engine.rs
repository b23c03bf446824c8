//! Territorial Warfare's engine: seats the line-up for game `i`, deals, asks each decision of the
//! seat it falls to, and records the finished game (win rows per seat and policy, the event
//! counters, points per territory, seat and policy, and the winning margin).

use super::Rules;
use super::agents::{Agent, POLICIES};
use super::narrate;
use super::rules::{End, Game, KEEP, MAX_PLAYERS, Next, Observation, State, Tally};
use crate::decide::{Clock, Players, PolicyRows, Seating, Timings};
use crate::games::Engine;
use crate::games::narrate::{Narrator, Silent, Story};
use crate::record::{GameRecord, Layout, OutcomeKey, OutcomeKind};
use crate::seed::{GameRng, GameSeed, shuffle};

/// Counter names (RULINGS §3, then warsim's own), in index order; one `wins_<policy>` counter per
/// distinct policy of the line-up follows them: 1 in a game that a seat played by that policy won
/// alone.
pub const COUNTERS: [&str; 8] = [
    "cards_burned",
    "jack_burns",
    "king_saves",
    "queen_swaps",
    "cards_drawn",
    "short_pile_draws",
    "hands_empty_end",
    "draws_blocked",
];

/// Distribution indices: points per seat on High, Low, Straight; then per seat; then per policy;
/// then the winning margin.
const DIST_TERRITORY: usize = 0;
const DIST_SEAT: usize = 3;

pub struct TerritoriesEngine {
    pub rules: Rules,
    layout: Layout,
    deck: Vec<u8>,
    rows: PolicyRows,
}

/// One thread's game, reused from game to game.
pub struct TerritoriesScratch {
    game: Game,
    deck: Vec<u8>,
    obs: Observation,
    action: Vec<u8>,
    players: Players<Agent>,
}

impl TerritoriesEngine {
    pub fn new(rules: Rules) -> Self {
        let rows = PolicyRows::new(&rules.lineup, rules.rotate, &POLICIES);
        let mut outcomes = rows.win_keys().to_vec();
        outcomes.extend([OutcomeKind::Draw, OutcomeKind::Capped].map(OutcomeKey::plain));
        let mut counters: Vec<String> = COUNTERS.iter().map(|s| s.to_string()).collect();
        counters.extend(rows.per_policy("wins_"));
        let mut distributions: Vec<String> =
            ["points_high", "points_low", "points_straight"].map(String::from).to_vec();
        distributions.extend(rows.per_seat("points_seat_"));
        distributions.extend(rows.per_policy("points_policy_"));
        distributions.push("margin".into());
        let layout = Layout { length_unit: "rounds".into(), outcomes, counters, distributions };
        let deck = rules.deck();
        TerritoriesEngine { rules, layout, deck, rows }
    }

    /// Sets up game `seed`: seating, each seat's stream, the deal. Returns the game's RNG.
    fn start(&self, seed: GameSeed, sc: &mut TerritoriesScratch) -> GameRng {
        let seating = Seating::new(seed, self.rules.players, self.rules.rotate);
        let mut rng = seating.deal.rng();
        sc.deck.clear();
        sc.deck.extend_from_slice(&self.deck);
        shuffle(&mut rng, &mut sc.deck);
        sc.game.deal(&sc.deck);
        sc.players.sit(seating);
        rng
    }

    fn run<N: Narrator>(&self, seed: GameSeed, sc: &mut TerritoriesScratch, narr: &mut N) -> End {
        let mut rng = self.start(seed, sc);
        if N::ON {
            let policy = |seat| POLICIES[self.rules.lineup.policies[sc.players.seating().entry(seat)]];
            narrate::deal(&sc.game.st, self.rules.decks, policy, narr);
        }
        sc.game.begin(narr);
        loop {
            if let Next::Over(end) = sc.game.next() {
                return end;
            }
            ask(&sc.game, &mut sc.players, &mut sc.obs, &mut sc.action);
            sc.game.answer(&sc.action, &mut rng, narr);
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

    fn finish(&self, end: End, sc: &TerritoriesScratch, rec: &mut GameRecord) {
        let st = &sc.game.st;
        let tally: &Tally = &sc.game.tally;
        let seating = sc.players.seating();
        let n = self.rules.players;
        rec.length = st.round as u64;
        let draw_row = self.rows.win_keys().len() as u16;
        let winner = if end == End::Capped { None } else { self.winner(st) };
        rec.outcome = match (end, winner) {
            (End::Capped, _) => draw_row + 1,
            (_, Some(w)) => self.rows.win(seating, w) as u16,
            (_, None) => draw_row,
        };
        let c = [
            tally.cards_burned,
            tally.jack_burns,
            tally.king_saves,
            tally.queen_swaps,
            tally.cards_drawn,
            tally.short_pile_draws,
            u64::from(end == End::HandsEmpty),
            tally.draws_blocked,
        ];
        for (i, v) in c.into_iter().enumerate() {
            rec.count(i, v);
        }
        if let Some(w) = winner {
            rec.count(COUNTERS.len() + self.rows.policy(seating, w), 1);
        }
        for seat in 0..n {
            for t in 0..3 {
                rec.observe(DIST_TERRITORY + t, st.points[seat][t] as i64);
            }
            rec.observe(DIST_SEAT + seat, st.scores[seat] as i64);
            rec.observe(DIST_SEAT + n + self.rows.policy(seating, seat), st.scores[seat] as i64);
        }
        let mut sorted: [i32; MAX_PLAYERS] = st.scores;
        sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
        rec.observe(DIST_SEAT + n + self.rows.policies().len(), (sorted[0] - sorted[1]) as i64);
    }
}

/// Asks the seat `game` waits for: its observation (unless its agent reads none), its legal
/// answers, and its agent's answer into `action`.
pub fn ask(game: &Game, players: &mut Players<Agent>, obs: &mut Observation, action: &mut Vec<u8>) {
    match game.next() {
        Next::Place(seat) => {
            if players.agent(seat).observes() {
                game.observe(seat, obs);
            }
            let legal = game.place_legal(seat);
            action.clear();
            action.resize(legal.hand, KEEP);
            players.decide(seat, |agent, rng| agent.place(obs, &legal, rng, action));
        }
        Next::Swap(seat) => {
            if players.agent(seat).observes() {
                game.observe(seat, obs);
            }
            action.clear();
            players.decide(seat, |agent, rng| agent.swap(obs, game.swap_legal(), rng, action));
        }
        Next::Over(_) => action.clear(),
    }
}

impl Engine for TerritoriesEngine {
    type Scratch = TerritoriesScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> TerritoriesScratch {
        let r = &self.rules;
        let agents = r.lineup.policies.iter().map(|&p| Agent::new(p, r)).collect();
        let every = |a: &Agent| if a.costly() { Clock::COSTLY } else { Clock::CHEAP };
        TerritoriesScratch {
            game: Game::new(r.players, r.version, r.decks, r.max_rounds),
            deck: Vec::with_capacity(self.deck.len()),
            obs: Observation::default(),
            action: Vec::with_capacity(32),
            players: Players::new(agents, &self.rows, every),
        }
    }

    fn play(&self, seed: GameSeed, sc: &mut TerritoriesScratch, rec: &mut GameRecord) {
        let end = self.run(seed, sc, &mut Silent);
        self.finish(end, sc, rec);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) {
        let mut sc = self.new_scratch();
        let mut story = Story(out);
        let end = self.run(seed, &mut sc, &mut story);
        narrate::ending(&sc.game.st, end, self.winner(&sc.game.st), &mut story);
        let mut rec = GameRecord::default();
        self.finish(end, &sc, &mut rec);
        story.line(format_args!(
            "{}",
            crate::games::narrate::counters_line(&self.layout.counters, &rec.counters)
        ));
    }

    fn take_timings(&self, sc: &mut TerritoriesScratch, out: &mut Timings) {
        sc.players.take_timings(out);
    }
}
