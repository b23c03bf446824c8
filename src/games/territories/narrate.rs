//! The story of a Territorial Warfare game for `warsim play`: the deal, each round's placements,
//! swaps, settlements, draws and scores, and the end. The rules call these only when the narrator
//! is on (`Narrator::ON`), so a run pays nothing for them.

use super::rules::{End, KEEP, MAX_PLAYERS, Settled, Slot, State, TERRITORIES, face_label};
use crate::games::narrate::Narrator;

/// "7(P0) 5(P1)".
pub fn describe_slots(slots: &[Slot]) -> String {
    slots.iter().map(|s| format!("{}(P{})", face_label(s.face), s.owner)).collect::<Vec<_>>().join(" ")
}

/// The deal: the table's size and every seat's hand with the policy that plays it.
pub fn deal<N: Narrator>(st: &State, decks: usize, policy: impl Fn(usize) -> &'static str, narr: &mut N) {
    narr.line(format_args!(
        "Deal: {} players, {} deck(s), version {:?}; {} cards in the pile",
        st.players,
        decks,
        st.version,
        st.pile.len()
    ));
    for seat in 0..st.players {
        let hand: Vec<&str> = st.hands[seat].iter().map(|&c| face_label(c)).collect();
        narr.line(format_args!("  P{seat} ({}) holds {}", policy(seat), hand.join(" ")));
    }
}

pub fn round<N: Narrator>(st: &State, narr: &mut N) {
    let last = if st.last_round { " (the last: the pile is empty)" } else { "" };
    narr.line(format_args!("Round {}{last}", st.round));
}

/// One seat's placement, before it is applied: what goes where and what stays in hand.
pub fn placement<N: Narrator>(st: &State, seat: usize, targets: &[u8], narr: &mut N) {
    let cards_to = |t: u8| -> Vec<&str> {
        st.hands[seat].iter().zip(targets).filter(|(_, x)| **x == t).map(|(c, _)| face_label(*c)).collect()
    };
    let parts: Vec<String> = (0..4u8)
        .filter_map(|t| {
            let cards = cards_to(t);
            (!cards.is_empty()).then(|| format!("{} {}", TERRITORIES[t as usize], cards.join(" ")))
        })
        .collect();
    let placed = if parts.is_empty() { "nothing".to_string() } else { parts.join(", ") };
    narr.line(format_args!("  P{seat} places {placed}; keeps [{}]", cards_to(KEEP).join(" ")));
}

pub fn swap<N: Narrator>(seat: usize, t: usize, card: u8, narr: &mut N) {
    narr.line(format_args!("  P{seat} swaps the Queen on {} for {}", TERRITORIES[t], face_label(card)));
}

/// Territory `t` as it settled (its cards still there, the burning ones marked) and who scored.
pub fn settled<N: Narrator>(st: &State, t: usize, done: Settled, pts: &[i32; MAX_PLAYERS], narr: &mut N) {
    let cards = describe_slots(&st.territories[t]);
    let burned: Vec<String> = st.territories[t]
        .iter()
        .filter(|s| s.burn)
        .map(|s| format!("{}(P{})", face_label(s.face), s.owner))
        .collect();
    let scored: Vec<String> =
        (0..st.players).filter(|&s| pts[s] != 0).map(|s| format!("P{s} +{}", pts[s])).collect();
    narr.line(format_args!(
        "  {:<8} [{}]{}{}{} scores: {}",
        TERRITORIES[t],
        cards,
        if done.jack_burn { " Jack burns the territory;" } else { "" },
        if done.king_saves > 0 { " King saves it;" } else { "" },
        if burned.is_empty() { String::new() } else { format!(" burns {};", burned.join(" ")) },
        if scored.is_empty() { "none".to_string() } else { scored.join(", ") }
    ));
}

pub fn short_pile<N: Narrator>(start: usize, narr: &mut N) {
    narr.line(format_args!("  the pile is short: draws go one at a time from P{start}"));
}

pub fn draws<N: Narrator>(st: &State, got: &[usize; MAX_PLAYERS], narr: &mut N) {
    let drew: Vec<String> =
        (0..st.players).filter(|&s| got[s] > 0).map(|s| format!("P{s} draws {}", got[s])).collect();
    narr.line(format_args!("  {} ({} left in the pile)", drew.join(", "), st.pile.len()));
}

pub fn scores<N: Narrator>(st: &State, gained: &[i32; MAX_PLAYERS], narr: &mut N) {
    let totals: Vec<String> =
        (0..st.players).map(|s| format!("P{s} +{} = {}", gained[s], st.scores[s])).collect();
    narr.line(format_args!("  scores: {}", totals.join(", ")));
}

/// The end: what is left on the table, why the game stopped and who won.
pub fn ending<N: Narrator>(st: &State, end: End, winner: Option<usize>, narr: &mut N) {
    for (name, slots) in TERRITORIES.iter().zip(&st.territories) {
        if !slots.is_empty() {
            narr.line(format_args!("  left on {name}: {}", describe_slots(slots)));
        }
    }
    let why = match end {
        End::PileOut => "the last round after the pile ran out is over",
        End::HandsEmpty => "no player holds a card",
        End::Capped => "the round cap is reached (capped)",
    };
    let result = match (end, winner) {
        (End::Capped, _) => "no result".to_string(),
        (_, Some(w)) => format!("P{w} wins"),
        (_, None) => "a draw".to_string(),
    };
    narr.line(format_args!("Game over after {} rounds: {why}; {result}.", st.round));
}
