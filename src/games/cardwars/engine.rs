//! Cardwars' engine: seats the line-up for game `i`, shuffles each seat's deck and picks the
//! first player, asks each decision of the seat it falls to, and records the finished game (win
//! rows per seat and policy, the first player's win, the event counters, the life margin and the
//! turn of the first attack).

use super::agents::{Agent, POLICIES};
use super::rules::{DECK, End, Game, Next, Observation};
use super::{PLAYERS, Rules, deck_of, narrate};
use crate::decide::{Players, PolicyRows, Seating};
use crate::games::census::Watch;
use crate::games::decision::DecisionEngine;
use crate::games::narrate::{Narrator, Story};
use crate::record::{Counters, Dists, Ending, GameRecord, Layout, OutcomeKind, Outcomes};
use crate::seed::{GameRng, GameSeed, below, shuffle};

crate::declare! {
    /// The game's own counters (`docs/rules/cardwars.md`), declared once; one `wins_<policy>`
    /// counter per distinct policy of the line-up follows them.
    pub mod counter: Counter {
        FIRST_PLAYER_WINS = "first_player_wins",
        FACES_PLAYED = "faces_played",
        OVERPAID_VALUE = "overpaid_value",
        JOKER_RESOURCES = "joker_resources",
        ATTACKS = "attacks",
        BLOCKS = "blocks",
        TRADES = "trades",
        JOKER_DEFENSES = "joker_defenses",
        CARDS_DESTROYED = "cards_destroyed",
        RESHUFFLES = "reshuffles",
        EMPTY_DRAWS = "empty_draws",
        DAMAGE_TO_LIFE = "damage_to_life",
        STALLED = "stalled",
    }
}

crate::declare! {
    /// Distributions declared once; life at the end per seat and per policy follow them.
    pub mod dist: Dist {
        LIFE_MARGIN = "life_margin",
        FIRST_ATTACK_TURN = "first_attack_turn",
    }
}

pub struct CardwarsEngine {
    pub rules: Rules,
    layout: Layout,
    outcomes: Outcomes,
    rows: PolicyRows,
    decks: [[u8; DECK]; PLAYERS],
    wins_by_policy: Counters,
    life_by_seat: Dists,
    life_by_policy: Dists,
}

/// One thread's game, reused from game to game.
pub struct CardwarsScratch {
    game: Game,
    decks: [[u8; DECK]; PLAYERS],
    obs: Observation,
    action: super::rules::Action,
    players: Players<Agent>,
}

impl CardwarsEngine {
    pub fn new(rules: Rules) -> Self {
        let rows = PolicyRows::new(&rules.lineup, rules.rotate, &POLICIES);
        let (mut b, _) = rows.open_layout("turns", &[OutcomeKind::Capped], counter::NAMES);
        // The first player's edge among the games someone won: capped and stalled games are no
        // evidence either way, and their number is random, so the share has a random denominator.
        b.share(
            "first_player_win_share_of_decided",
            counter::FIRST_PLAYER_WINS,
            OutcomeKind::Win,
            "decided_games",
        );
        let wins_by_policy = b.counters(rows.per_policy("wins_"));
        b.declared_distributions(dist::NAMES);
        let life_by_seat = b.distributions(rows.per_seat("life_seat_"));
        let life_by_policy = b.distributions(rows.per_policy("life_policy_"));
        let (layout, outcomes) = b.finish();
        CardwarsEngine {
            rules,
            layout,
            outcomes,
            rows,
            decks: [deck_of(0), deck_of(1)],
            wins_by_policy,
            life_by_seat,
            life_by_policy,
        }
    }

    /// Sets up game `seed`: seating, each seat's stream, both decks shuffled (seat 0's first) and
    /// the first player drawn, all from the deal's stream. Returns the game's RNG.
    fn start(&self, seed: GameSeed, sc: &mut CardwarsScratch) -> GameRng {
        let seating = Seating::new(seed, PLAYERS, self.rules.rotate);
        let mut rng = seating.deal.rng();
        sc.decks = self.decks;
        for d in &mut sc.decks {
            shuffle(&mut rng, d);
        }
        let first = below(&mut rng, PLAYERS as u32) as usize;
        sc.game.deal([&sc.decks[0], &sc.decks[1]], first);
        sc.players.sit(seating);
        rng
    }
}

/// Asks the seat `game` waits for: its observation (unless its agent reads none), and its
/// agent's answer to the game's options into `action`.
pub fn ask(
    game: &Game,
    players: &mut Players<Agent>,
    obs: &mut Observation,
    action: &mut super::rules::Action,
) {
    let Some(seat) = crate::decide::search::Steps::to_move(game) else { return };
    players.observe(seat, || game.observe(seat, obs));
    let options = game.options();
    players.decide(seat, |agent, rng| agent.decide(obs, options, rng, action));
}

impl DecisionEngine for CardwarsEngine {
    type Game = Game;
    type End = End;
    type Agent = Agent;
    type Scratch = CardwarsScratch;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> CardwarsScratch {
        let r = &self.rules;
        CardwarsScratch {
            game: Game::new(r.config),
            decks: self.decks,
            obs: Observation::default(),
            action: Default::default(),
            players: Players::seat(&r.lineup, &self.rows, |p| Agent::new(p, r)),
        }
    }

    fn table(sc: &mut CardwarsScratch) -> (&Game, &mut Players<Agent>) {
        (&sc.game, &mut sc.players)
    }

    /// Plays game `seed` to its end, telling it to `narr` and showing the table to `watch` after
    /// the deal and after every answer. A watch that stops the game ends it as capped.
    fn run<N: Narrator, W: Watch<Game>>(
        &self,
        seed: GameSeed,
        sc: &mut CardwarsScratch,
        rec: &GameRecord,
        narr: &mut N,
        watch: &mut W,
    ) -> End {
        let mut rng = self.start(seed, sc);
        if N::ON {
            let policy = |seat| POLICIES[self.rules.lineup.policies[sc.players.seating().entry(seat)]];
            narrate::deal(&sc.game, policy, narr);
        }
        if W::ON && !watch.step(&sc.game, rec) {
            return End::Capped;
        }
        sc.game.begin(&mut rng, narr);
        loop {
            if W::ON && !watch.step(&sc.game, rec) {
                return End::Capped;
            }
            if let Next::Over(end) = sc.game.next() {
                return end;
            }
            ask(&sc.game, &mut sc.players, &mut sc.obs, &mut sc.action);
            if W::ON || N::ON {
                sc.game.check_answer(&sc.action);
            }
            sc.game.answer(&sc.action, &mut rng, narr);
        }
    }

    /// Records the finished `game`, seated as `seating` says, into `rec`.
    fn finish(&self, end: End, game: &Game, seating: &Seating, rec: &mut GameRecord) {
        let t = &game.tally;
        rec.length = game.turn as u64;
        rec.end(self.outcomes.row(match end {
            End::Won(w) => self.rows.win(seating, w),
            End::Capped | End::Stalled => Ending::Plain(OutcomeKind::Capped),
        }));
        rec.count(counter::FIRST_PLAYER_WINS, u64::from(end == End::Won(game.first)));
        rec.count(counter::FACES_PLAYED, t.faces_played);
        rec.count(counter::OVERPAID_VALUE, t.overpaid_value);
        rec.count(counter::JOKER_RESOURCES, t.joker_resources);
        rec.count(counter::ATTACKS, t.attacks);
        rec.count(counter::BLOCKS, t.blocks);
        rec.count(counter::TRADES, t.trades);
        rec.count(counter::JOKER_DEFENSES, t.joker_defenses);
        rec.count(counter::CARDS_DESTROYED, t.cards_destroyed);
        rec.count(counter::RESHUFFLES, t.reshuffles);
        rec.count(counter::EMPTY_DRAWS, t.empty_draws);
        rec.count(counter::DAMAGE_TO_LIFE, t.damage_to_life);
        rec.count(counter::STALLED, u64::from(end == End::Stalled));
        let life = |s: usize| game.players[s].life as i64;
        if let End::Won(w) = end {
            rec.count(self.wins_by_policy.at(self.rows.policy(seating, w)), 1);
            rec.observe(dist::LIFE_MARGIN, life(w) - life(1 - w));
        }
        if t.first_attack > 0 {
            rec.observe(dist::FIRST_ATTACK_TURN, t.first_attack as i64);
        }
        for seat in 0..PLAYERS {
            rec.observe(self.life_by_seat.at(seat), life(seat));
            rec.observe(self.life_by_policy.at(self.rows.policy(seating, seat)), life(seat));
        }
    }

    fn tell_ending(&self, end: End, game: &Game, story: &mut Story) {
        narrate::ending(game, end, story);
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        super::census::census(self, seed)
    }
}
