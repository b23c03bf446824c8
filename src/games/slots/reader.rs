//! `reader`: a placement heuristic that reads the revealed board and the cards' text. For each
//! different card in hand it plays this turn's reveal forward on the table as the seat knows it
//! (`Observation::view`): its card goes down with a model of the opposing card beside it, both
//! turn up, and the abilities that fire resolve by the game's own rules, the decisions inside
//! them answered by the greedy rule (`judge`). It then judges the table: the slots taken and lost,
//! this turn's slot by its chance against the opposing card, points, hand sizes. It never looks
//! further than this turn's reveal.
//!
//! The opposing card is unknown. Its value is modelled by the values of a typical deck (three
//! cards of each value 3 to 9: the 21 highest of a default pool), less the opponent's cards seen
//! this round; in the forward play it is a textless card of the model's mean value, and its
//! slot is judged against the whole model (with any change the forward play made to it).

use super::card::{MAX_VALUE, NONE, SLOTS, TEXTLESS, owner};
use super::choices::UniformChoices;
use super::judge::{Greedy, SLOT};
use super::pools::DeckPolicy;
use super::resolve::Resolver;
use super::rules::Observation;
use super::table::{State, Taken, Tally};
use super::view::UNKNOWN;
use crate::games::narrate::Silent;
use crate::seed::GameSeed;

/// Cards of each value in the model of the opponent's deck (index: printed value).
const MODEL: [u32; MAX_VALUE as usize + 1] = [0, 0, 0, 3, 3, 3, 3, 3, 3, 3];
/// What a card in hand is worth against the opponent's, in the judge's units.
const CARD: f64 = 2.0;
/// What one point of strength on the table is worth (a tie-break between equal slot counts).
const STRENGTH: f64 = 0.1;

/// The reader's working memory, reused from decision to decision.
pub struct Reader {
    sim: State,
    res: Resolver,
    tally: Tally,
    chance: UniformChoices,
    greedy: Greedy,
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new()
    }
}

impl Reader {
    pub fn new() -> Reader {
        Reader {
            sim: State::new(DeckPolicy::Top21, 0),
            res: Resolver::new(),
            tally: Tally::default(),
            chance: UniformChoices { rng: GameSeed::new(0, 0).rng() },
            greedy: Greedy::new(),
        }
    }

    /// The hand index to place: the best judged forward play (ties: the higher printed value,
    /// then the first in hand).
    pub fn place(&mut self, obs: &Observation) -> u8 {
        let hand = obs.hand.as_slice();
        let model = model(obs);
        let mut best = (f64::MIN, 0u8, 0usize);
        for i in 0..hand.len() {
            let (p, d) = (obs.view.pools.printed[hand[i] as usize], obs.view.pools.design[hand[i] as usize]);
            let same = |j: usize| {
                let id = hand[j] as usize;
                (obs.view.pools.printed[id], obs.view.pools.design[id]) == (p, d)
            };
            if (0..i).any(same) {
                continue;
            }
            let score = self.try_card(obs, i, &model);
            if score > best.0 || (score == best.0 && p > best.1) {
                best = (score, p, i);
            }
        }
        best.2 as u8
    }

    /// Plays this turn's reveal forward with hand card `i` and judges the table.
    fn try_card(&mut self, obs: &Observation, i: usize, model: &Model) -> f64 {
        let seat = obs.seat as usize;
        let opp = 1 - seat;
        let slot = obs.turn as usize - 1;
        let sim = &mut self.sim;
        sim.clone_from(&obs.view);
        // The chance of the forward play is the same for every card: common random numbers.
        self.chance.rng = GameSeed::new(u64::from(obs.turn), obs.hand.len() as u64).rng();
        sim.place(seat, i, slot);
        let mine = sim.slots[slot][seat];
        let theirs = match sim.hands[opp].is_empty() {
            true => NONE,
            false => {
                let id = sim.hands[opp].as_slice()[0];
                sim.pools.printed[id as usize] = model.mean;
                sim.pools.design[id as usize] = TEXTLESS;
                sim.place(opp, 0, slot);
                id
            }
        };
        let placed = sim.slots[slot];
        for id in placed.into_iter().filter(|&id| id != NONE) {
            sim.turn_up(id);
        }
        if sim.text {
            self.res.revealed(
                sim,
                &mut self.tally,
                &mut self.chance.rng,
                &placed,
                &mut Silent,
                &mut self.greedy,
            );
        }
        judge(sim, seat, slot, mine, theirs, model)
    }
}

/// The model of the opposing card's value: counts by printed value and their mean.
pub(super) struct Model {
    pub(super) counts: [u32; MAX_VALUE as usize + 1],
    pub(super) mean: u8,
}

/// The opponent's deck model less its cards seen this round (face up, or in its pile).
pub(super) fn model(obs: &Observation) -> Model {
    let v = &obs.view;
    let opp = 1 - obs.seat as usize;
    let mut counts = MODEL;
    let mut seen = |id: u8| {
        let p = v.pools.printed[id as usize];
        if p != UNKNOWN && owner(id) == opp {
            counts[p as usize] = counts[p as usize].saturating_sub(1);
        }
    };
    v.slots.iter().flatten().copied().filter(|&id| id != NONE).for_each(&mut seen);
    v.piles[opp].as_slice().iter().copied().for_each(&mut seen);
    if counts.iter().sum::<u32>() == 0 {
        counts = MODEL;
    }
    let total: u32 = counts.iter().sum();
    let sum: u32 = counts.iter().enumerate().map(|(v, &c)| v as u32 * c).sum();
    Model { counts, mean: ((sum + total / 2) / total) as u8 }
}

/// What the table `sim` is worth to `seat` after the forward play: `SLOT` per slot taken, minus
/// per slot lost (this turn's slot, while both cards are still there, by the model's chances),
/// `SLOT` per point ahead, `CARD` per card more in hand, and a tenth per point of strength.
pub(super) fn judge(sim: &State, seat: usize, slot: usize, mine: u8, theirs: u8, model: &Model) -> f64 {
    let opp = 1 - seat;
    let slot_f = SLOT as f64;
    let mut score = 0.0;
    for k in 0..SLOTS {
        if k == slot && theirs != NONE && sim.slots[k][seat] == mine && sim.slots[k][opp] == theirs {
            // The model card's changes (counters, modifiers) apply to whichever card it stands for.
            let shift = sim.value(theirs) - model.mean as i32;
            let mv = sim.value(mine);
            let (mut win, mut lose, mut all) = (0u32, 0u32, 0u32);
            for (v, &c) in model.counts.iter().enumerate() {
                let tv = v as i32 + shift;
                win += c * u32::from(mv > tv);
                lose += c * u32::from(mv < tv);
                all += c;
            }
            score += slot_f * (win as f64 - lose as f64) / all.max(1) as f64;
        } else {
            score += match sim.winner_of(k) {
                Taken::Seat(s) if s == seat => slot_f,
                Taken::Seat(_) => -slot_f,
                Taken::Nobody => 0.0,
            };
        }
        for (side, &id) in sim.slots[k].iter().enumerate() {
            if id != NONE {
                let sign = if side == seat { 1.0 } else { -1.0 };
                score += STRENGTH * sign * sim.value(id) as f64;
            }
        }
    }
    score += slot_f * (sim.points[seat] - sim.points[opp]) as f64;
    score += CARD * (sim.hands[seat].len() as f64 - sim.hands[opp].len() as f64);
    score
}
