//! One event as one record: deal, play every meeting of the schedule, rank the table, record.

use std::fmt::Write as _;

use crate::decide::PolicyRows;
use crate::games::contest::schedule::{Meeting, game_seed, round_robin};
use crate::games::contest::standings::{Table, table_text};
use crate::games::contest::{Contest, Effect, GameResult, IntoEvent, share_unit};
use crate::games::narrate::{Narrator, Silent, Story};
use crate::games::{Engine, Point};
use crate::record::{Counters, Dists, Ending, EntrantCounters, GameRecord, Layout, OutcomeKind, Outcomes};
use crate::seed::GameSeed;

crate::declare! {
    /// An event's own counters.
    pub mod counter: Counter {
        GAMES = "games",
        DRAWN_GAMES = "drawn_games",
        SHARED_FIRST = "shared_first",
        WINNER_GAMES_WON = "winner_games_won",
    }
}

crate::declare! {
    /// An event's own distributions.
    pub mod dist: Dist {
        WINNER_WON = "winner_games_won",
        WINNER_LOST = "winner_games_lost",
        FIRST_PLACE_SIZE = "first_place_size",
        RANK_CORRELATION = "strength_place_correlation_permille",
    }
}

/// A round robin of `C`'s entrants as an engine: one event per index.
pub struct Tournament<C: Contest> {
    pub contest: C,
    layout: Layout,
    outcomes: Outcomes,
    schedule: Vec<Meeting>,
    table: EntrantCounters,
    /// The unit of first-place shares (`share_unit`).
    share_unit: u64,
    _own: (Counters, Dists),
}

/// One thread's event.
pub struct TournamentScratch<S> {
    pub contest: S,
    pub table: Table,
    strength: Vec<i64>,
    standing: Vec<i64>,
    ranks: Vec<f64>,
    places: Vec<f64>,
    /// Each meeting's result as played, in schedule order.
    results: Vec<GameResult>,
    /// The table with one entrant's games replayed by a variant of its hand.
    variant: Table,
    /// Per entrant, whether its hand has variants (asked before the games when the contest
    /// measures its variants alone).
    varied: Vec<bool>,
}

/// Every contest plays as events: the one way a game's contest becomes a scenario point.
impl<C: Contest> IntoEvent for C {
    fn into_event(self) -> Box<dyn Point> {
        Box::new(Tournament::new(self))
    }
}

impl<C: Contest> Tournament<C> {
    pub fn new(mut contest: C) -> Self {
        let names = contest.entrants().to_vec();
        let n = names.len();
        assert!(n >= 2, "an event needs two entrants");
        // Entrant `e` is seat `e` of the event's outcome rows: the seats of a line-up not rotated.
        let rows = PolicyRows::named(&names, false);
        let (mut b, counters) =
            rows.open_layout(contest.length_unit(), &[OutcomeKind::Shared], counter::NAMES);
        let dists = b.declared_distributions(dist::NAMES);
        // One event is one observation of the standings' intervals, whatever the game: its
        // points and their products are kept per event (`stats::ratings`).
        let table = b.entrants(&names, true);
        contest.declare(&mut b);
        let (layout, outcomes) = b.finish();
        Tournament {
            contest,
            layout,
            outcomes,
            schedule: round_robin(n),
            table,
            share_unit: share_unit(n),
            _own: (counters, dists),
        }
    }

    /// The meetings of an event, in the order they are played.
    pub fn schedule(&self) -> &[Meeting] {
        &self.schedule
    }

    /// The seed of meeting `k` of event `event`.
    pub fn game_seed(&self, event: GameSeed, k: usize) -> GameSeed {
        game_seed(event, self.schedule.len(), k)
    }

    /// Plays event `seed` into `rec`, telling each game's result to `narr` in one line.
    fn run<N: Narrator>(
        &self,
        seed: GameSeed,
        sc: &mut TournamentScratch<C::Scratch>,
        rec: &mut GameRecord,
        narr: &mut N,
    ) {
        let names = self.contest.entrants();
        sc.table.reset(names.len());
        sc.results.clear();
        self.contest.deal(seed, &mut sc.contest, rec, narr);
        // Measuring variants alone, a game neither of whose entrants has any is never looked at.
        let only = self.contest.variants_only();
        if only {
            sc.varied.clear();
            for e in 0..names.len() {
                let v = self.contest.variants(&mut sc.contest, e) > 0;
                sc.varied.push(v);
            }
        }
        for (k, m) in self.schedule.iter().enumerate() {
            let seats = m.seats(seed.index);
            if only && !sc.varied[seats[0]] && !sc.varied[seats[1]] {
                sc.results.push(GameResult { winner: None, score: [0, 0], length: 0 });
                continue;
            }
            let r = self.contest.play(self.game_seed(seed, k), seats, &mut sc.contest, rec, &mut Silent);
            self.enter(seats, r, sc, rec);
            sc.results.push(r);
            if N::ON {
                narr.line(format_args!("{}", result_line(k, m, seats, r, names)));
            }
        }
        for e in 0..names.len() {
            rec.count(self.table.won(e), sc.table.won[e] as u64);
        }
        for e in 0..names.len() {
            let points = sc.table.points(e) as u64;
            rec.count(self.table.points(e), points);
            for k in e + 1..names.len() {
                rec.count(self.table.points_product(e, k), points * sc.table.points(k) as u64);
            }
        }
        self.finish(seed, sc, rec);
        if N::ON {
            narr.line(format_args!("{}", table_text(&sc.table, names)));
        }
    }

    /// Enters one game into the table and the record.
    fn enter(
        &self,
        seats: [usize; 2],
        r: GameResult,
        sc: &mut TournamentScratch<C::Scratch>,
        rec: &mut GameRecord,
    ) {
        let winner = r.winner.map(|s| seats[s]);
        sc.table.enter(seats[0], seats[1], winner, r.score);
        rec.length += r.length;
        rec.count(counter::GAMES, 1);
        match winner {
            Some(w) => rec.count(self.table.beat(w, seats[0] + seats[1] - w), 1),
            None => {
                rec.count(counter::DRAWN_GAMES, 1);
                rec.count(self.table.drew(seats[0], seats[1]), 1);
            }
        }
    }

    /// Ranks the finished table and records the event's outcome and statistics.
    fn finish(&self, seed: GameSeed, sc: &mut TournamentScratch<C::Scratch>, rec: &mut GameRecord) {
        let n = sc.table.entrants();
        let first = sc.table.rank();
        let winners = (0..n).filter(|&e| sc.table.place[e] == 1);
        if first == 1 {
            let w = sc.table.place.iter().position(|&p| p == 1).expect("someone is first");
            rec.end(self.outcomes.row(Ending::Seat { seat: w, entry: w }));
            rec.count(self.table.alone(w), 1);
        } else {
            rec.end(self.outcomes.row(Ending::Plain(OutcomeKind::Shared)));
            rec.count(counter::SHARED_FIRST, 1);
            for e in winners.clone() {
                rec.count(self.table.shared(e), 1);
            }
        }
        // The first-placed entrants share one record (level on points; a draw aside, on games won).
        let w = winners.clone().next().expect("someone is first");
        rec.observe(dist::WINNER_WON, sc.table.won[w] as i64);
        // Also a counter, so that comparisons pair the winner's record event by event.
        rec.count(counter::WINNER_GAMES_WON, sc.table.won[w] as u64);
        rec.observe(dist::WINNER_LOST, sc.table.lost[w] as i64);
        rec.observe(dist::FIRST_PLACE_SIZE, first as i64);
        self.measure_variants(seed, sc);
        self.contest.finished(&mut sc.contest, &sc.table, rec);
        if let Some(rho) = self.rank_correlation(sc) {
            rec.observe(dist::RANK_CORRELATION, (rho * 1000.0).round() as i64);
        }
    }

    /// Replays, for each entrant and each variant of its hand the contest names, the entrant's
    /// games of event `seed` on their own seeds with the variant, re-ranks the table with those
    /// games in place of the played ones (every other game as played), and hands the contest the
    /// entrant's points and first-place share as played minus with the variant. Nothing is
    /// allocated once the scratch is sized.
    fn measure_variants(&self, seed: GameSeed, sc: &mut TournamentScratch<C::Scratch>) {
        let n = sc.table.entrants();
        for e in 0..n {
            let variants = self.contest.variants(&mut sc.contest, e);
            if variants == 0 {
                continue;
            }
            let points = sc.table.points(e) as i64;
            let first = sc.table.first_share(e, self.share_unit);
            for v in 0..variants {
                sc.variant.reset(n);
                for (k, m) in self.schedule.iter().enumerate() {
                    let seats = m.seats(seed.index);
                    let r = if seats.contains(&e) {
                        self.contest.play_variant(self.game_seed(seed, k), seats, e, v, &mut sc.contest)
                    } else {
                        sc.results[k]
                    };
                    sc.variant.enter(seats[0], seats[1], r.winner.map(|s| seats[s]), r.score);
                }
                sc.variant.rank();
                // Measuring variants alone, the other entrants' games were not played: first
                // place is not measured.
                let first = if self.contest.variants_only() {
                    0
                } else {
                    first - sc.variant.first_share(e, self.share_unit)
                };
                let effect = Effect { points: points - sc.variant.points(e) as i64, first };
                self.contest.variant_effect(&mut sc.contest, e, v, effect);
            }
        }
    }

    /// Spearman's rank correlation between the entrants' strengths and their final standing
    /// (place reversed, so that +1 means the strongest finished first), average ranks for ties;
    /// `None` when the game tells no strength or either ranking is constant.
    fn rank_correlation(&self, sc: &mut TournamentScratch<C::Scratch>) -> Option<f64> {
        let n = sc.table.entrants();
        sc.strength.clear();
        for e in 0..n {
            sc.strength.push(self.contest.strength(&sc.contest, e)?);
        }
        sc.standing.clear();
        sc.standing.extend(sc.table.place.iter().map(|&p| -(p as i64)));
        average_ranks(&sc.strength, &mut sc.ranks);
        average_ranks(&sc.standing, &mut sc.places);
        pearson(&sc.ranks, &sc.places)
    }

    fn scratch(&self) -> TournamentScratch<C::Scratch> {
        TournamentScratch {
            contest: self.contest.new_scratch(),
            table: Table::default(),
            strength: Vec::new(),
            standing: Vec::new(),
            ranks: Vec::new(),
            places: Vec::new(),
            results: Vec::new(),
            variant: Table::default(),
            varied: Vec::new(),
        }
    }

    /// Tells game `a`-`b` of event `seed` in full (entrants counted from 0 as `play` shows them),
    /// after the event's deal and the games before it.
    pub fn narrate_game(&self, seed: GameSeed, a: usize, b: usize, out: &mut String) -> Result<(), String> {
        let n = self.contest.entrants().len();
        let (lo, hi) = (a.min(b), a.max(b));
        if lo == hi || hi >= n {
            // Counted from 1, the last entrant was `n`: say that entrants now count from 0.
            let from_one = if hi == n {
                format!(", as seats and game indices do (there is no entrant {n})")
            } else {
                String::new()
            };
            return Err(format!(
                "--match {a}-{b}: name two different entrants from 0 to {}; entrants count from 0{from_one}",
                n - 1
            ));
        }
        let k = self.schedule.iter().position(|m| m.low as usize == lo && m.high as usize == hi);
        let k = k.expect("every pair meets");
        let mut sc = self.scratch();
        let mut rec = GameRecord::new(&self.layout);
        let mut story = Story(out);
        self.contest.deal(seed, &mut sc.contest, &mut rec, &mut story);
        let seats = self.schedule[k].seats(seed.index);
        let names = self.contest.entrants();
        story.line(format_args!(
            "Game {} of the event: {} (seat 0) against {} (seat 1)",
            k + 1,
            names[seats[0]],
            names[seats[1]]
        ));
        let r = self.contest.play(self.game_seed(seed, k), seats, &mut sc.contest, &mut rec, &mut story);
        story.line(format_args!("{}", result_line(k, &self.schedule[k], seats, r, names)));
        Ok(())
    }
}

/// One line of a game's result: `game 3 (round 1): P1 beat P4 2-1`.
fn result_line(k: usize, m: &Meeting, seats: [usize; 2], r: GameResult, names: &[String]) -> String {
    let (a, b) = (&names[seats[0]], &names[seats[1]]);
    let head = format!("game {} (round {}): ", k + 1, m.round + 1);
    match r.winner {
        Some(w) => {
            let (x, y) = (&names[seats[w]], &names[seats[1 - w]]);
            format!("{head}{x} beat {y} {}-{} ({a} at seat 0)", r.score[w], r.score[1 - w])
        }
        None => format!("{head}{a} drew {b} {}-{}", r.score[0], r.score[1]),
    }
}

/// The average ranks (from 1) of `x` into `out`.
fn average_ranks(x: &[i64], out: &mut Vec<f64>) {
    out.clear();
    out.extend(x.iter().map(|&v| {
        let below = x.iter().filter(|&&w| w < v).count() as f64;
        let equal = x.iter().filter(|&&w| w == v).count() as f64;
        below + (equal + 1.0) / 2.0
    }));
}

/// Pearson's correlation of `x` and `y`, `None` when either is constant.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

impl<C: Contest> Engine for Tournament<C> {
    type Scratch = TournamentScratch<C::Scratch>;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn new_scratch(&self) -> Self::Scratch {
        self.scratch()
    }

    fn play(&self, seed: GameSeed, sc: &mut Self::Scratch, rec: &mut GameRecord) {
        self.run(seed, sc, rec, &mut Silent);
    }

    fn narrate(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let mut sc = self.scratch();
        let mut rec = GameRecord::new(&self.layout);
        self.run(seed, &mut sc, &mut rec, &mut Story(out));
        // The standings above tell each entrant's and each pair's results: the closing line has the
        // event's own counters and the game's.
        let (names, values): (Vec<&String>, Vec<u64>) =
            (self.layout.events().iter().zip(rec.counters.iter()))
                .enumerate()
                .filter(|(i, _)| !self.layout.is_entrant_counter(*i))
                .map(|(_, (n, &v))| (n, v))
                .unzip();
        let _ = writeln!(out, "{}", crate::games::narrate::counters_line(&names, &values));
        rec
    }

    fn census(&self, seed: GameSeed) -> Result<u64, String> {
        let mut sc = self.scratch();
        let mut rec = GameRecord::new(&self.layout);
        self.contest.deal(seed, &mut sc.contest, &mut rec, &mut Silent);
        let mut steps = 0;
        for (k, m) in self.schedule.iter().enumerate() {
            let seats = m.seats(seed.index);
            steps += self
                .contest
                .census(self.game_seed(seed, k), seats, &mut sc.contest)
                .map_err(|e| format!("game {} of the event: {e}", k + 1))?;
        }
        Ok(steps)
    }

    fn unit(&self) -> &'static str {
        "tournament"
    }

    fn narrate_game(&self, seed: GameSeed, a: usize, b: usize, out: &mut String) -> Result<(), String> {
        Tournament::narrate_game(self, seed, a, b, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three entrants whose games follow a fixed table of who beats whom (1-0, seat aside): as
    /// dealt, 0 beats 1 and 2, and 1 beats 2. Entrant 0 has two variants: 0 loses every game; 1
    /// beats 1 and loses to 2 (a cycle). The scratch keeps the effects handed back.
    struct Fixed(Vec<String>);

    /// `beats(a, b, variant of entrant 0)`.
    fn beats(a: usize, b: usize, v: Option<usize>) -> bool {
        match (v, a, b) {
            (Some(0), 0, _) => false,
            (Some(0), _, 0) => true,
            (Some(1), 0, 2) | (Some(1), 1, 0) => false,
            (Some(1), 2, 0) | (Some(1), 0, 1) => true,
            _ => a < b,
        }
    }

    impl Contest for Fixed {
        type Scratch = Vec<(usize, usize, Effect)>;
        fn entrants(&self) -> &[String] {
            &self.0
        }
        fn length_unit(&self) -> &str {
            "games"
        }
        fn new_scratch(&self) -> Self::Scratch {
            Vec::new()
        }
        fn play<N: Narrator>(
            &self,
            _seed: GameSeed,
            seats: [usize; 2],
            _sc: &mut Self::Scratch,
            _rec: &mut GameRecord,
            _narr: &mut N,
        ) -> GameResult {
            self.play_variant(_seed, seats, 0, usize::MAX, _sc)
        }
        fn variants(&self, _sc: &mut Self::Scratch, e: usize) -> usize {
            if e == 0 { 2 } else { 0 }
        }
        fn play_variant(
            &self,
            _seed: GameSeed,
            [a, b]: [usize; 2],
            _e: usize,
            v: usize,
            _sc: &mut Self::Scratch,
        ) -> GameResult {
            let v = (v != usize::MAX).then_some(v);
            let winner = if beats(a, b, v) { 0 } else { 1 };
            let mut score = [0; 2];
            score[winner] = 1;
            GameResult { winner: Some(winner), score, length: 1 }
        }
        fn variant_effect(&self, sc: &mut Self::Scratch, e: usize, v: usize, effect: Effect) {
            sc.push((e, v, effect));
        }
        fn census(&self, _: GameSeed, _: [usize; 2], _: &mut Self::Scratch) -> Result<u64, String> {
            Ok(0)
        }
    }

    #[test]
    fn a_variant_replays_its_entrants_games_and_ranks_the_table_again() {
        let t = Tournament::new(Fixed((0..3).map(|e| format!("e{e}")).collect()));
        let mut sc = Engine::new_scratch(&t);
        let mut rec = GameRecord::new(Engine::layout(&t));
        // Both seatings of the meetings (even and odd events): the table does not depend on them.
        for index in [0, 1] {
            sc.contest.clear();
            rec.reset();
            Engine::play(&t, GameSeed::new(1, index), &mut sc, &mut rec);
            // As played: 0 wins both games (4 points), first alone (the whole first place: 6/6).
            // Variant 0: 0 loses both (0 points), 1 is first alone: 0's share falls by 6/6.
            // Variant 1: one win each, every score difference 0 and head to head level: three
            // share first place, 0 keeps 2/6 of it and 2 of its 4 points.
            let unit = share_unit(3) as i64;
            assert_eq!(unit, 6);
            assert_eq!(
                sc.contest,
                [
                    (0, 0, Effect { points: 4, first: unit }),
                    (0, 1, Effect { points: 2, first: unit - unit / 3 })
                ],
                "event {index}"
            );
            // The event as played is recorded, not its variants.
            assert_eq!(sc.table.won, [2, 1, 0], "event {index}");
        }
    }

    #[test]
    fn spearman_of_ties_and_extremes() {
        let mut r = Vec::new();
        average_ranks(&[10, 20, 20, 5], &mut r);
        assert_eq!(r, [2.0, 3.5, 3.5, 1.0]);
        assert_eq!(pearson(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), Some(1.0));
        assert_eq!(pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), None);
    }
}
