//! A search agent for any decision game that can be played step by step: determinised flat Monte
//! Carlo with common random numbers.
//!
//! What a game provides:
//! - `Steps`: its state as a machine that stops at every decision (who decides, what they see, a
//!   uniform legal answer, applying an answer and the chance events up to the next decision, and
//!   what the finished game is worth to a seat). Sequential games stop at each decision, a block
//!   asked in the middle of the opponent's turn included; simultaneous decisions are asked one seat
//!   after the other, each answer held back (unseen by the later seats) until the last is given.
//! - `Determinize`: a full state consistent with one seat's observation, the hidden cards dealt at
//!   random from what that seat has not seen, stopped at the seat's decision, or at the start of
//!   the simultaneous step that holds it (the other seats' hidden answers of that step are then
//!   played again by the rollout policy).
//! - `Rollout`: the policy that plays every other decision of a simulated game (`UniformRollout`
//!   is every game's `random`; a game may give a heuristic).
//! - the candidates for the decision searched (`Candidates`): every legal action where they are
//!   few, a chosen handful where the legal set is combinatorial.
//!
//! `FlatMonteCarlo` then values each candidate by playing `budget / candidates` sampled games from
//! it and picks the best mean. Every candidate sees the same samples (the hidden cards and the
//! chance events of sample `k` come from one seed), so differences between candidates are not
//! sampling noise of the deals. Everything is generic (no trait objects in the rollout loop) and
//! every buffer is kept from one decision to the next.

use rand_core::Rng;

use crate::seed::{GameRng, GameSeed};

/// A game state that stops at every decision.
pub trait Steps {
    /// What one seat may see.
    type Observation;
    /// An answer to any of the game's decisions (filled in place, so one buffer serves them all).
    type Action;

    /// The seat asked the decision this state stops at; `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// What `seat` sees now.
    fn observe(&self, seat: usize, obs: &mut Self::Observation);
    /// A uniformly random legal answer to the decision this state stops at.
    fn random_action(&self, rng: &mut GameRng, out: &mut Self::Action);
    /// Applies the answer of the seat to move, then plays on to the next decision or the end.
    fn apply(&mut self, action: &Self::Action, rng: &mut GameRng);
    /// What the finished game is worth to `seat` (higher is better; see `standing`).
    fn value(&self, seat: usize) -> f64;
}

/// Samples a full state consistent with an observation.
pub trait Determinize<S: Steps> {
    /// Writes into `st` a state the observing seat cannot tell from the true one, stopped where
    /// its next decision is the one observed: at that decision, or at the start of the
    /// simultaneous step that contains it.
    fn determinize(&mut self, obs: &S::Observation, rng: &mut GameRng, st: &mut S);
}

/// The policy playing the decisions of a simulated game.
pub trait Rollout<S: Steps> {
    /// Answers the decision `st` stops at, asked of `seat`.
    fn act(&mut self, st: &S, seat: usize, rng: &mut GameRng, out: &mut S::Action);
}

/// Rollouts by uniformly random legal answers: every game has them.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformRollout;

impl<S: Steps> Rollout<S> for UniformRollout {
    #[inline]
    fn act(&mut self, st: &S, _: usize, rng: &mut GameRng, out: &mut S::Action) {
        st.random_action(rng, out);
    }
}

/// What a finished game is worth to `seat` when seats score points: 1 for the top score alone,
/// 0.5 for a shared top, 0 below it, plus a thousandth of the margin over the best other seat (so
/// a bigger win is preferred, never at the cost of a win).
pub fn standing(scores: &[i32], seat: usize) -> f64 {
    let mine = scores[seat];
    let best_other = (0..scores.len()).filter(|&s| s != seat).map(|s| scores[s]).max().unwrap_or(0);
    let result = match mine.cmp(&best_other) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    };
    result + 0.001 * (mine - best_other) as f64
}

/// The candidate answers of one decision, distinct, in the order offered. The buffers are kept
/// from decision to decision: an offer writes into a reused one.
#[derive(Clone, Debug, Default)]
pub struct Candidates<A> {
    items: Vec<A>,
    len: usize,
}

impl<A: Default + PartialEq> Candidates<A> {
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Offers a candidate: `make` writes it over a reused buffer (clearing it first if it must)
    /// and says whether it may be played. It is kept if so and if not already offered.
    pub fn offer(&mut self, make: impl FnOnce(&mut A) -> bool) -> bool {
        if self.items.len() <= self.len {
            self.items.push(A::default());
        }
        let playable = make(&mut self.items[self.len]);
        let fresh = playable && !self.items[..self.len].contains(&self.items[self.len]);
        self.len += usize::from(fresh);
        fresh
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> &A {
        &self.items[..self.len][i]
    }

    pub fn as_slice(&self) -> &[A] {
        &self.items[..self.len]
    }
}

/// Determinised flat Monte Carlo: for each sample, a determinisation of the observation is played
/// to the end once per candidate, the searching seat's first decision answered by the candidate
/// and every other decision by the rollout policy; the candidate with the best mean value wins
/// (ties to the first offered).
pub struct FlatMonteCarlo<S: Steps, D, R> {
    /// Simulated games per decision, shared out evenly over the candidates (at least one each).
    pub budget: u32,
    pub candidates: Candidates<S::Action>,
    values: Vec<f64>,
    sim: S,
    action: S::Action,
    sampler: D,
    rollout: R,
}

impl<S, D, R> FlatMonteCarlo<S, D, R>
where
    S: Steps,
    S::Action: Default + PartialEq,
    D: Determinize<S>,
    R: Rollout<S>,
{
    /// `sim` is the state the simulations run in (sized for the game; overwritten by `sampler`).
    pub fn new(budget: u32, sim: S, sampler: D, rollout: R) -> Self {
        FlatMonteCarlo {
            budget,
            candidates: Candidates::default(),
            values: Vec::new(),
            sim,
            action: S::Action::default(),
            sampler,
            rollout,
        }
    }

    /// Searches `seat`'s decision among `self.candidates` (offered by the caller) from the seat's
    /// observation; returns the best candidate, `None` if none was offered. Draws one number from
    /// `rng` per sample (each sample's seed), nothing else.
    pub fn search(&mut self, seat: usize, obs: &S::Observation, rng: &mut GameRng) -> Option<&S::Action> {
        let n = self.candidates.len();
        if n == 0 {
            return None;
        }
        let samples = (self.budget as usize / n).max(1);
        self.values.clear();
        self.values.resize(n, 0.0);
        for _ in 0..samples {
            let sample = GameSeed::new(rng.next_u64(), 0);
            for c in 0..n {
                let mut sample_rng = sample.rng();
                self.sampler.determinize(obs, &mut sample_rng, &mut self.sim);
                self.values[c] += self.play_out(seat, c, &mut sample_rng);
            }
        }
        let best = (0..n).fold(0, |b, c| if self.values[c] > self.values[b] { c } else { b });
        Some(self.candidates.get(best))
    }

    /// Plays `sim` to the end with candidate `c` as `seat`'s next answer; returns its value.
    fn play_out(&mut self, seat: usize, c: usize, rng: &mut GameRng) -> f64 {
        let mut pending = true;
        while let Some(to_move) = self.sim.to_move() {
            if pending && to_move == seat {
                self.sim.apply(self.candidates.get(c), rng);
                pending = false;
            } else {
                self.rollout.act(&self.sim, to_move, rng, &mut self.action);
                self.sim.apply(&self.action, rng);
            }
        }
        self.sim.value(seat)
    }

    /// The mean value of each candidate at the last search, in candidate order.
    pub fn means(&self) -> impl Iterator<Item = f64> + '_ {
        let samples = (self.budget as usize / self.candidates.len().max(1)).max(1) as f64;
        self.values.iter().map(move |v| v / samples)
    }
}

#[cfg(test)]
mod tests {
    //! Two toy games with a known best move: Nim (take 1 to 3 stones, who takes the last wins),
    //! sequential and open, and a one-card showdown with a hidden opposing card.

    use super::*;
    use crate::seed::below;

    /// One pile; `to_move` takes 1 to 3 stones; whoever takes the last stone wins.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Nim {
        stones: u32,
        to_move: usize,
        winner: Option<usize>,
    }

    impl Steps for Nim {
        type Observation = Nim;
        type Action = u32;
        fn to_move(&self) -> Option<usize> {
            (self.stones > 0).then_some(self.to_move)
        }
        fn observe(&self, _: usize, obs: &mut Nim) {
            obs.clone_from(self);
        }
        fn random_action(&self, rng: &mut GameRng, out: &mut u32) {
            *out = 1 + below(rng, self.stones.min(3));
        }
        fn apply(&mut self, take: &u32, _: &mut GameRng) {
            assert!((1..=self.stones.min(3)).contains(take), "illegal take {take}");
            self.stones -= take;
            if self.stones == 0 {
                self.winner = Some(self.to_move);
            }
            self.to_move = 1 - self.to_move;
        }
        fn value(&self, seat: usize) -> f64 {
            f64::from(u8::from(self.winner == Some(seat)))
        }
    }

    /// Nim hides nothing: the observation is the state.
    struct Open;

    impl Determinize<Nim> for Open {
        fn determinize(&mut self, obs: &Nim, _: &mut GameRng, st: &mut Nim) {
            st.clone_from(obs);
        }
    }

    fn nim_search(stones: u32, seat: usize) -> u32 {
        let mut agent = FlatMonteCarlo::new(3000, Nim::default(), Open, UniformRollout);
        let obs = Nim { stones, to_move: seat, winner: None };
        agent.candidates.clear();
        for take in 1..=stones.min(3) {
            agent.candidates.offer(|c| {
                *c = take;
                true
            });
        }
        *agent.search(seat, &obs, &mut GameSeed::new(1, stones as u64).seat_rng(seat)).unwrap()
    }

    #[test]
    fn flat_monte_carlo_finds_the_winning_take_in_nim() {
        // Leaving a multiple of 4 wins. Against random replies the winning take is also the best
        // mean: from 5, taking 1 wins 2/3 of random games, taking 2 or 3 wins 1/2 (gaps of 10+
        // standard errors at 1,000 games a candidate).
        assert_eq!(nim_search(5, 1), 1);
        assert_eq!(nim_search(6, 0), 2);
        assert_eq!(nim_search(7, 1), 3);
        // The last stones: take them all.
        assert_eq!(nim_search(3, 0), 3);
    }

    /// Each seat holds one card of 1..=9; seat 0 shows down (`SHOW`, the higher card wins) or
    /// passes (`PASS`, a draw). Seat 1 never decides.
    #[derive(Clone, Debug, Default)]
    struct Showdown {
        cards: [u32; 2],
        answer: Option<u32>,
    }

    const PASS: u32 = 0;
    const SHOW: u32 = 1;

    impl Steps for Showdown {
        type Observation = u32;
        type Action = u32;
        fn to_move(&self) -> Option<usize> {
            self.answer.is_none().then_some(0)
        }
        fn observe(&self, seat: usize, obs: &mut u32) {
            *obs = self.cards[seat];
        }
        fn random_action(&self, rng: &mut GameRng, out: &mut u32) {
            *out = below(rng, 2);
        }
        fn apply(&mut self, answer: &u32, _: &mut GameRng) {
            self.answer = Some(*answer);
        }
        fn value(&self, seat: usize) -> f64 {
            let scores = match self.answer {
                Some(SHOW) if self.cards[0] > self.cards[1] => [1, 0],
                Some(SHOW) => [0, 1],
                _ => [0, 0],
            };
            standing(&scores, seat)
        }
    }

    /// Deals the opposing card from the eight seat 0 does not hold.
    struct DealUnseen;

    impl Determinize<Showdown> for DealUnseen {
        fn determinize(&mut self, mine: &u32, rng: &mut GameRng, st: &mut Showdown) {
            let k = 1 + below(rng, 8);
            st.cards = [*mine, if k >= *mine { k + 1 } else { k }];
            st.answer = None;
        }
    }

    fn showdown(truth: Showdown) -> u32 {
        let mut agent = FlatMonteCarlo::new(400, Showdown::default(), DealUnseen, UniformRollout);
        agent.candidates.clear();
        for answer in [PASS, SHOW] {
            agent.candidates.offer(|c| {
                *c = answer;
                true
            });
        }
        let mut obs = 0;
        truth.observe(0, &mut obs);
        let pick = *agent.search(0, &obs, &mut GameSeed::new(2, 0).seat_rng(0)).unwrap();
        let means: Vec<f64> = agent.means().collect();
        // The showdown's mean is the share of unseen cards below this one (exact up to sampling).
        let share = f64::from(obs - 1) / 8.0;
        assert!((means[1] - share).abs() < 0.1, "{means:?} for card {obs}");
        pick
    }

    #[test]
    fn the_search_plays_from_the_unseen_cards_not_the_true_ones() {
        // An 8 shows down (7 of 8 unseen cards are lower), even when the opposing card is the 9;
        // a 2 passes (1 of 8), even when the opposing card is the ace.
        assert_eq!(showdown(Showdown { cards: [8, 9], answer: None }), SHOW);
        assert_eq!(showdown(Showdown { cards: [2, 1], answer: None }), PASS);
    }

    /// Both seats show one of the cards 1, 2, 3 at once (seat 0 answers first, unseen by seat 1);
    /// the higher card wins. The state records the answers so far.
    #[derive(Clone, Debug, Default)]
    struct Simultaneous {
        shown: Vec<u32>,
    }

    impl Steps for Simultaneous {
        type Observation = ();
        type Action = u32;
        fn to_move(&self) -> Option<usize> {
            (self.shown.len() < 2).then_some(self.shown.len())
        }
        fn observe(&self, _: usize, _: &mut ()) {}
        fn random_action(&self, rng: &mut GameRng, out: &mut u32) {
            *out = 1 + below(rng, 3);
        }
        fn apply(&mut self, card: &u32, _: &mut GameRng) {
            self.shown.push(*card);
        }
        fn value(&self, seat: usize) -> f64 {
            let scores = [self.shown[0] as i32, self.shown[1] as i32];
            standing(&scores, seat)
        }
    }

    /// Seat 1 cannot see seat 0's answer: the step starts again from nobody having answered.
    struct StepStart;

    impl Determinize<Simultaneous> for StepStart {
        fn determinize(&mut self, _: &(), _: &mut GameRng, st: &mut Simultaneous) {
            st.shown.clear();
        }
    }

    #[test]
    fn a_simultaneous_answer_is_searched_against_the_others_answers_played_again() {
        // Seat 1 answers second: each simulation replays seat 0's hidden answer (uniform) first.
        // Against a uniform card, the 3 wins 2/3 and ties 1/3; the 1 never wins.
        let mut agent = FlatMonteCarlo::new(300, Simultaneous::default(), StepStart, UniformRollout);
        for card in 1..=3 {
            agent.candidates.offer(|c| {
                *c = card;
                true
            });
        }
        assert_eq!(agent.search(1, &(), &mut GameSeed::new(3, 0).seat_rng(1)), Some(&3));
        let means: Vec<f64> = agent.means().collect();
        assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
    }

    #[test]
    fn candidates_are_kept_distinct_and_playable_in_reused_buffers() {
        let mut c: Candidates<Vec<u8>> = Candidates::default();
        let offer = |c: &mut Candidates<Vec<u8>>, v: &[u8], ok: bool| {
            c.offer(|buf| {
                buf.clear();
                buf.extend_from_slice(v);
                ok
            })
        };
        assert!(offer(&mut c, &[1, 2], true));
        assert!(!offer(&mut c, &[1, 2], true), "a duplicate is dropped");
        assert!(!offer(&mut c, &[4, 4], false), "an unplayable one is dropped");
        assert!(offer(&mut c, &[3], true));
        assert_eq!(c.as_slice(), [vec![1, 2], vec![3]]);
        c.clear();
        assert!(c.is_empty());
        assert!(offer(&mut c, &[3], true));
        assert_eq!((c.len(), c.get(0)), (1, &vec![3]));
    }

    #[test]
    fn standing_prefers_any_win_to_a_bigger_margin_without_one() {
        assert_eq!(standing(&[5, 3], 0), 1.002);
        assert_eq!(standing(&[5, 5, 1], 1), 0.5);
        assert!(standing(&[1, 0], 0) > standing(&[9, 9], 0));
        assert!(standing(&[2, 9, 4], 0) < 0.0 + 1e-9);
    }
}
