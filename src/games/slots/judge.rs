//! The greedy rule the heuristic players (`highest`, `reader`) answer the decisions inside
//! abilities with (`docs/policies.md`): each answer is judged by what it would do to the table
//! the seat sees, one effect at a time, with nothing looked ahead.
//!
//! The table is judged as a board of strengths: a face-up card's value, the value of one's own
//! face-down card, and `DOWN_GUESS` for an opposing face-down card (its value is hidden; it will
//! most often turn up). A board is worth `SLOT` per slot its seat takes minus one per slot it
//! loses, plus the difference of the two sides' total strength (so among answers that change no
//! slot, the one that moves strength its way wins).

use super::card::{CARDS, SEATS, SLOTS};
use super::cardset::{Effect, Player, ValueFrom};
use super::choices::{Ask, Choices, Places, side_of, slot_of};
use super::rules::{Observation, Seen};
use super::table::State;

/// The strength the judge gives an opposing face-down card.
pub const DOWN_GUESS: i32 = 5;
/// What a slot taken is worth against one point of strength.
pub const SLOT: i32 = 8;
/// What one card drawn (or one the opponent discards) is worth.
pub const CARD: i32 = 2;

/// Strengths by place, from the observation: `None` for an empty place.
type Board = [[Option<i32>; SEATS]; SLOTS];

fn board(obs: &Observation) -> Board {
    let mut b = [[None; SEATS]; SLOTS];
    for (slot, row) in obs.table.iter().enumerate() {
        for (side, seen) in row.iter().enumerate() {
            b[slot][side] = match *seen {
                Seen::Empty => None,
                Seen::Down => Some(DOWN_GUESS),
                Seen::Mine { value, .. } | Seen::Up { value, .. } => Some(value),
            };
        }
    }
    b
}

/// What `b` is worth to `seat`.
fn worth(b: &Board, seat: usize) -> i32 {
    let mut total = 0;
    for row in b {
        let (mine, theirs) = (row[seat], row[1 - seat]);
        total += match (mine, theirs) {
            (None, None) => 0,
            (Some(_), None) => SLOT,
            (None, Some(_)) => -SLOT,
            (Some(m), Some(t)) => SLOT * (m - t).signum(),
        };
        total += mine.unwrap_or(0) - theirs.unwrap_or(0);
    }
    total
}

/// `effect` done to the card at `place` of board `b`.
fn touch(obs: &Observation, b: &mut Board, effect: &Effect, place: u8) {
    let (slot, side) = (slot_of(place), side_of(place));
    let seen = obs.table[slot][side];
    let Some(s) = b[slot][side] else { return };
    b[slot][side] = match *effect {
        Effect::Modify { amount, .. } | Effect::Counter { amount, .. } => Some(s + amount as i32),
        Effect::Set { to, from: ValueFrom::Fixed, .. } => Some(to as i32),
        // A value read from another card or a factor: judged as leaving the card as it is.
        Effect::Set { .. } | Effect::Multiply { .. } => Some(s),
        Effect::Move { .. } => None,
        Effect::ClearCounters { .. } => match seen {
            Seen::Up { counters, .. } => Some(s - counters),
            _ => Some(s),
        },
        Effect::Destroy { .. } | Effect::Return { .. } => None,
        Effect::Hide { .. } => match seen {
            Seen::Up { printed, .. } => Some(s - printed as i32),
            _ => Some(s),
        },
        Effect::Reveal { .. } => match seen {
            Seen::Mine { printed, .. } => Some(s + printed as i32),
            _ => Some(s),
        },
        Effect::Swap { .. }
        | Effect::Draw { .. }
        | Effect::Discard { .. }
        | Effect::Points { .. }
        | Effect::LowerWins { .. }
        | Effect::WinTies { .. }
        | Effect::Place { .. }
        | Effect::Look { .. }
        | Effect::Recover { .. }
        | Effect::Shuffle { .. } => Some(s),
    };
}

/// What `effect` on the cards at `targets` (a swap: the two cards trade places) is worth to
/// `seat`, against leaving the table as it is; an effect on players by its points and cards.
pub fn gain(obs: &Observation, seat: usize, effect: &Effect, targets: &[u8]) -> i32 {
    let before = board(obs);
    let mut after = before;
    match *effect {
        Effect::Swap { .. } => {
            if let [a, b] = *targets {
                let (pa, pb) = ((slot_of(a), side_of(a)), (slot_of(b), side_of(b)));
                let x = after[pa.0][pa.1];
                after[pa.0][pa.1] = after[pb.0][pb.1];
                after[pb.0][pb.1] = x;
            }
        }
        Effect::Draw { player, amount } => return CARD * amount as i32 * sign(player),
        Effect::Discard { player, amount, .. } => return -CARD * amount as i32 * sign(player),
        Effect::Points { player, amount, .. } => return SLOT * amount as i32 * sign(player),
        _ => targets.iter().for_each(|&p| touch(obs, &mut after, effect, p)),
    }
    worth(&after, seat) - worth(&before, seat)
}

/// +1 for an effect on the deciding seat, -1 on its opponent, 0 on both (it cancels out).
fn sign(p: Player) -> i32 {
    match p {
        Player::You => 1,
        Player::Opp => -1,
        Player::Both => 0,
    }
}

/// The greedy answer to a `choose`: the `ask.n` candidates of highest gain each (ties to table
/// order); a swap's side is judged by the best swap it makes with one of its partners.
pub fn targets(obs: &Observation, ask: &Ask, from: &Places, out: &mut Places) {
    let seat = ask.seat as usize;
    let judge = |p: u8| match ask.effect {
        Effect::Swap { .. } => ask
            .partner
            .as_slice()
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| gain(obs, seat, &ask.effect, &[p, q]))
            .max(),
        _ => Some(gain(obs, seat, &ask.effect, &[p])),
    };
    let mut keyed = [(i32::MIN, 0u8); CARDS];
    for (k, &p) in keyed.iter_mut().zip(from.as_slice()) {
        *k = (judge(p).unwrap_or(i32::MIN + 1), p);
    }
    let keyed = &mut keyed[..from.len()];
    // Stable: equal gains keep table order.
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    out.clear();
    keyed.iter().take(ask.n as usize).for_each(|k| out.push(k.1));
}

/// The greedy answer to "you may": take the ability when it gains something.
pub fn take(obs: &Observation, ask: &Ask, targets: &Places) -> bool {
    gain(obs, ask.seat as usize, &ask.effect, targets.as_slice()) > 0
}

/// The greedy discard: the lowest printed value in hand (the first of equals).
pub fn discard(obs: &Observation) -> usize {
    let printed = &obs.hand_printed[..obs.hand.len()];
    (0..printed.len()).fold(0, |b, i| if printed[i] < printed[b] { i } else { b })
}

/// The greedy rule as a chooser on a state a player plays forward (its view, a simulation): each
/// question answered from the deciding seat's observation of that state.
pub struct Greedy {
    obs: Observation,
}

impl Greedy {
    pub fn new() -> Greedy {
        Greedy { obs: Observation::default() }
    }
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy::new()
    }
}

impl Choices for Greedy {
    fn targets(&mut self, st: &State, ask: &Ask, from: &Places, out: &mut Places) {
        st.observe_table(ask.seat as usize, &mut self.obs);
        targets(&self.obs, ask, from, out);
    }

    fn take(&mut self, st: &State, ask: &Ask, at: &Places) -> bool {
        st.observe_table(ask.seat as usize, &mut self.obs);
        take(&self.obs, ask, at)
    }

    fn discard(&mut self, st: &State, seat: usize) -> usize {
        st.observe_table(seat, &mut self.obs);
        discard(&self.obs)
    }
}
