//! Territorial Warfare's engine: seats the line-up for game `i`, deals, asks each decision of the
//! seat it falls to, and records the finished game (win rows per seat and policy, the event
//! counters, points per territory, seat and policy, and the winning margin).

use super::Rules;
use super::agents::{Agent, POLICIES};
use super::narrate;
use super::rules::{End, Game, MAX_PLAYERS, Next, Observation, State, Tally};
use crate::decide::{Players, PolicyRows, Seating};
use crate::games::census::Watch;
use crate::games::decision::DecisionEngine;
use crate::games::narrate::{Narrator, Story};
use crate::record::{Counters, Dist, Dists, Ending, GameRecord, Layout, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed, shuffle};

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
    /// Points per seat on High, Low and Straight, declared once; points per seat and per policy
    /// and the winning margin follow them.
    pub mod dist: Dist {
        POINTS_HIGH = "points_high",
        POINTS_LOW = "points_low",
        POINTS_STRAIGHT = "points_straight",
    }
}

/// The names of `counter`, in index order.
pub const COUNTERS: &[&str] = counter::NAMES;

pub struct TerritoriesEngine {
    pub rules: Rules,
    layout: Layout,
    outcomes: Outcomes,
    deck: Vec<u8>,
    rows: PolicyRows,
    wins_by_policy: Counters,
    points_by_seat: Dists,
    points_by_policy: Dists,
    margin: Dist,
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
        let (mut b, _) =
            rows.open_layout("rounds", &[OutcomeKind::Draw, OutcomeKind::Capped], counter::NAMES);
        let wins_by_policy = b.counters(rows.per_policy("wins_"));
        b.declared_distributions(dist::NAMES);
        let points_by_seat = b.distributions(rows.per_seat("points_seat_"));
        let points_by_policy = b.distributions(rows.per_policy("points_policy_"));
        let margin = b.distribution("margin");
        let (layout, outcomes) = b.finish();
        let deck = rules.deck();
        TerritoriesEngine {
            rules,
            layout,
            outcomes,
            deck,
            rows,
            wins_by_policy,
            points_by_seat,
            points_by_policy,
            margin,
        }
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

    /// The winning seat, if one seat alone has the top score.
    fn winner(&self, st: &State) -> Option<usize> {
        let scores = &st.scores[..st.players];
        let top = *scores.iter().max().expect("players");
        let mut at_top = (0..st.players).filter(|&s| scores[s] == top);
        let first = at_top.next();
        if at_top.next().is_some() { None } else { first }
    }
}

/// Asks the seat `game` waits for: its observation (unless its agent reads none), its legal
/// answers, and its agent's answer into `action`.
pub fn ask(game: &Game, players: &mut Players<Agent>, obs: &mut Observation, action: &mut Vec<u8>) {
    match game.next() {
        Next::Place(seat) => {
            players.observe(seat, || game.observe(seat, obs));
            let legal = game.place_legal(seat);
            players.decide(seat, |agent, rng| agent.place(obs, &legal, rng, action));
        }
        Next::Swap(seat) => {
            players.observe(seat, || game.observe(seat, obs));
            action.clear();
            players.decide(seat, |agent, rng| agent.swap(obs, game.swap_legal(), rng, action));
        }
        Next::Over(_) => action.clear(),
    }
}

impl DecisionEngine for TerritoriesEngine {
    type Game = Game;
    type End = End;
    type Agent = Agent;
    type Scratch = TerritoriesScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> TerritoriesScratch {
        let r = &self.rules;
        TerritoriesScratch {
            game: Game::of_rules(r),
            deck: Vec::with_capacity(self.deck.len()),
            obs: Observation::default(),
            action: Vec::with_capacity(32),
            players: Players::seat(&r.lineup, &self.rows, |p| Agent::new(p, r)),
        }
    }

    fn table(sc: &mut TerritoriesScratch) -> (&Game, &mut Players<Agent>) {
        (&sc.game, &mut sc.players)
    }

    /// Plays game `seed` to its end, telling it to `narr` and showing the table to `watch` after
    /// the deal and after every answer (the census reads `rec`, which the game fills only when it
    /// is over). A watch that stops the game ends it as capped.
    fn run<N: Narrator, W: Watch<Game>>(
        &self,
        seed: GameSeed,
        sc: &mut TerritoriesScratch,
        rec: &GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut rng = self.start(seed, sc);
        if N::ON {
            let policy = |seat| POLICIES[self.rules.lineup.policies[sc.players.seating().entry(seat)]];
            narrate::deal(&sc.game.st, self.rules.decks, policy, narr);
        }
        sc.game.begin(narr);
        loop {
            if W::ON && !watch.step(&sc.game, rec) {
                return End::Capped;
            }
            if let Next::Over(end) = sc.game.next() {
                return end;
            }
            ask(&sc.game, &mut sc.players, &mut sc.obs, &mut sc.action);
            sc.game.answer(&sc.action, &mut rng, narr);
        }
    }

    /// Records the finished `game`, seated as `seating` says, into `rec`.
    fn finish(&self, end: End, game: &Game, seating: &Seating, rec: &mut GameRecord) {
        let st = &game.st;
        let tally: &Tally = &game.tally;
        let n = self.rules.players;
        rec.length = st.round as u64;
        let winner = if end == End::Capped { None } else { self.winner(st) };
        rec.end(self.outcomes.row(match (end, winner) {
            (End::Capped, _) => Ending::Plain(OutcomeKind::Capped),
            (_, Some(w)) => self.rows.win(seating, w),
            (_, None) => Ending::Plain(OutcomeKind::Draw),
        }));
        rec.count(counter::CARDS_BURNED, tally.cards_burned);
        rec.count(counter::JACK_BURNS, tally.jack_burns);
        rec.count(counter::KING_SAVES, tally.king_saves);
        rec.count(counter::QUEEN_SWAPS, tally.queen_swaps);
        rec.count(counter::CARDS_DRAWN, tally.cards_drawn);
        rec.count(counter::SHORT_PILE_DRAWS, tally.short_pile_draws);
        rec.count(counter::HANDS_EMPTY_END, u64::from(end == End::HandsEmpty));
        rec.count(counter::DRAWS_BLOCKED, tally.draws_blocked);
        if let Some(w) = winner {
            rec.count(self.wins_by_policy.at(self.rows.policy(seating, w)), 1);
        }
        let by_territory = [dist::POINTS_HIGH, dist::POINTS_LOW, dist::POINTS_STRAIGHT];
        for seat in 0..n {
            for (t, &d) in by_territory.iter().enumerate() {
                rec.observe(d, st.points[seat][t] as i64);
            }
            rec.observe(self.points_by_seat.at(seat), st.scores[seat] as i64);
            rec.observe(self.points_by_policy.at(self.rows.policy(seating, seat)), st.scores[seat] as i64);
        }
        let mut sorted: [i32; MAX_PLAYERS] = st.scores;
        sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
        rec.observe(self.margin, (sorted[0] - sorted[1]) as i64);
    }

    fn tell_ending(&self, end: End, game: &Game, story: &mut Story) {
        narrate::ending(&game.st, end, self.winner(&game.st), story);
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        super::census::census(self, seed)
    }
}
