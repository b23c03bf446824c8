//! The story of a Card Wars game for `warsim play`: the pools and decks, each round's hands,
//! every turn's placements and reveals, the scoring slot by slot, and the end. The rules call
//! these only when the narrator is on (`Narrator::ON`), so a run pays nothing for them.

use super::rules::{End, NONE, SEATS, SLOTS, State, TEXTLESS, Taken};
use crate::games::narrate::Narrator;

/// A card as the story names it: its design's name (if it has one) and printed value, in
/// brackets while it lies face down on the table.
pub fn label(st: &State, id: u8) -> String {
    if id == NONE {
        return "-".into();
    }
    let v = st.pools.printed[id as usize];
    let design = st.pools.design[id as usize];
    let name = match &st.set {
        Some(set) if design != TEXTLESS => format!("{} {v}", set.designs[design as usize].name),
        _ => v.to_string(),
    };
    let down = st.slots.iter().any(|s| s.contains(&id)) && !st.is_face_up(id);
    if down { format!("[{name}]") } else { name }
}

fn list(st: &State, ids: &[u8]) -> String {
    ids.iter().map(|&id| label(st, id)).collect::<Vec<_>>().join(" ")
}

/// Each seat's pool and the policy that plays it.
pub fn pools<N: Narrator>(st: &State, policy: impl Fn(usize) -> &'static str, narr: &mut N) {
    for seat in 0..SEATS {
        let pool: Vec<u8> = st.pools.ids(seat).collect();
        narr.line(format_args!("P{seat} ({}) pool: {}", policy(seat), list(st, &pool)));
    }
}

/// A new round: the decks kept and the first hands.
pub fn round<N: Narrator>(st: &State, narr: &mut N) {
    let replay = if st.ties > 0 { format!(" ({} tied so far)", st.ties) } else { String::new() };
    narr.line(format_args!("Round {}{replay}; rounds won P0 {} P1 {}", st.rounds, st.wins[0], st.wins[1]));
    for seat in 0..SEATS {
        narr.line(format_args!(
            "  P{seat} keeps {} cards; hand {}",
            st.kept[seat].len(),
            list(st, st.hands[seat].as_slice())
        ));
    }
}

/// One turn: what each seat placed in the slot (now revealed).
pub fn turn<N: Narrator>(st: &State, slot: usize, narr: &mut N) {
    let [a, b] = st.slots[slot];
    let placed = |id: u8| if id == NONE { "nothing (empty hand)".to_string() } else { label(st, id) };
    narr.line(format_args!(
        "  S{}: P0 places {}, P1 places {}; both revealed",
        slot + 1,
        placed(a),
        placed(b)
    ));
}

/// One slot scored: the two sides and who took it.
pub fn scored<N: Narrator>(st: &State, slot: usize, taken: Taken, narr: &mut N) {
    let [a, b] = st.slots[slot];
    let value = |id: u8| if id == NONE { "empty".to_string() } else { format!("{}", st.value(id)) };
    let who = match taken {
        Taken::Seat(s) => format!("P{s} scores"),
        Taken::Nobody => "nobody scores".into(),
    };
    narr.line(format_args!(
        "  score S{}: {} v {} (values {} v {}): {who}; points {}-{}",
        slot + 1,
        label(st, a),
        label(st, b),
        value(a),
        value(b),
        st.points[0],
        st.points[1]
    ));
}

/// The end of a round.
pub fn round_result<N: Narrator>(st: &State, winner: Option<usize>, narr: &mut N) {
    let (p0, p1) = (st.points[0], st.points[1]);
    match winner {
        Some(w) => narr.line(format_args!("  P{w} wins round {} by {p0}-{p1}", st.rounds)),
        None => narr.line(format_args!("  round {} tied {p0}-{p1}: it does not count", st.rounds)),
    }
}

/// The end of the game.
pub fn ending<N: Narrator>(st: &State, end: End, narr: &mut N) {
    let result = match end {
        End::Won(w) => format!("P{w} wins {}-{}", st.wins[w], st.wins[1 - w]),
        End::Drawn => format!("a draw after {} tied rounds", st.ties),
    };
    narr.line(format_args!(
        "Game over after {} rounds ({} slots): {result}.",
        st.rounds,
        st.rounds as usize * SLOTS
    ));
}
