//! The story of a Card Wars game for `warsim play`: the pools and decks, each round's hands,
//! every turn's placements and reveals, the scoring slot by slot, and the end. The rules tell
//! their steps as typed values (`ops::Told`) only when the narrator is on (`Teller::ON`), so a run
//! pays nothing for them; here each becomes a line.

use super::card::{NONE, SEATS, SLOTS, TEXTLESS};
use super::cardset::Sign;
use super::ops::{Op, Teller, Told};
use super::rules::End;
use super::table::{State, Taken};
use crate::games::narrate::Narrator;

/// Every narrator hears the rules' steps and writes each as a line of the story.
impl<N: Narrator> Teller for N {
    const ON: bool = N::ON;

    fn tell(&mut self, st: &State, what: Told) {
        match what {
            Told::Placed(slot) => placed(st, slot, self),
            Told::Revealed(slot) => revealed(st, slot, self),
            Told::Resolved { source, fizzled, ops } => resolved(st, source, fizzled, ops, self),
            Told::Lost(source) => lost(st, source, self),
            Told::Values => values(st, self),
            Told::CascadeCut(events) => cascade_cut(events, self),
            Told::Round => round(st, self),
            Told::Scored(slot, taken) => scored(st, slot, taken, self),
            Told::RoundResult(winner) => round_result(st, winner, self),
        }
    }
}

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

/// One turn's placements, face down.
pub fn placed<N: Narrator>(st: &State, slot: usize, narr: &mut N) {
    let [a, b] = st.slots[slot];
    let placed = |id: u8| if id == NONE { "nothing (empty hand)".to_string() } else { label(st, id) };
    narr.line(format_args!("  S{}: P0 places {}, P1 places {}", slot + 1, placed(a), placed(b)));
}

/// The turn's cards turned face up.
pub fn revealed<N: Narrator>(st: &State, slot: usize, narr: &mut N) {
    let [a, b] = st.slots[slot];
    narr.line(format_args!("    revealed: {} v {}", label(st, a), label(st, b)));
    // A static ability acts from now on without a moment of its own: say it once, here.
    let Some(set) = &st.set else { return };
    for id in [a, b].into_iter().filter(|&id| id != NONE) {
        let d = st.pools.design[id as usize];
        if d == TEXTLESS {
            continue;
        }
        for ab in set.own_statics.of(d).iter().chain(set.auras.of(d)) {
            narr.line(format_args!(
                "    {} {}: {}",
                label(st, id),
                whose(st, id),
                super::spell::sentence(ab)
            ));
        }
    }
}

/// An instance resolved (or fizzled): its source, where it lies, and each operation.
pub fn resolved<N: Narrator>(st: &State, source: u8, fizzled: bool, ops: &[Op], narr: &mut N) {
    let what: Vec<String> = ops.iter().map(|op| describe(st, op)).collect();
    let did = if fizzled {
        "fizzles (conflict)".to_string()
    } else if what.is_empty() {
        "does nothing".to_string()
    } else {
        what.join("; ")
    };
    narr.line(format_args!("    {} {}: {did}", label(st, source), whose(st, source)));
}

/// "(P0, S4)" for a card on the table, "(off the table)" for one returned, destroyed or discarded.
fn whose(st: &State, id: u8) -> String {
    let pos = st.pos[id as usize];
    if pos == NONE {
        "(off the table)".into()
    } else {
        format!("(P{}, S{})", pos as usize % SEATS, pos as usize / SEATS + 1)
    }
}

fn describe(st: &State, op: &Op) -> String {
    let c = |id: u8| format!("{} {}", label(st, id), whose(st, id));
    let who = |seats: u8| match seats {
        1 => "P0".to_string(),
        2 => "P1".to_string(),
        _ => "both".to_string(),
    };
    match *op {
        Op::Modify { target, amount, while_source } => {
            format!("{amount:+} to {}{}", c(target), if while_source { " while it stays" } else { "" })
        }
        Op::Set { target, to, .. } => format!("{} set to {to}", c(target)),
        Op::Counter { target, amount } => format!("{amount:+} counter(s) on {}", c(target)),
        Op::Clear { target, sign } => {
            let which = match sign {
                Sign::Any => "counters",
                Sign::Plus => "+ counters",
                Sign::Minus => "- counters",
            };
            format!("{which} cleared on {}", c(target))
        }
        Op::Destroy { target } => format!("destroys {}", c(target)),
        Op::Return { target } => format!("returns {}", c(target)),
        Op::Swap { a, b } => format!("swaps {} and {}", c(a), c(b)),
        Op::Reveal { target } => format!("reveals {}", c(target)),
        Op::Hide { target } => format!("hides {}", c(target)),
        Op::Draw { seats, n } => format!("{} draw {n}", who(seats)),
        Op::Discard { seats, n, .. } => format!("{} discard {n}", who(seats)),
        Op::Points { seats, amount } => {
            format!("{} {amount:+} {}", who(seats), if amount.abs() == 1 { "point" } else { "points" })
        }
        Op::LowerWins { slot } => format!("the lower card wins S{} this round", slot + 1),
        Op::WinTies { slot, seat } => format!("a tie in S{} goes to P{seat} this round", slot + 1),
        Op::Multiply { target, by, while_source } => {
            format!("{} multiplied by {by}{}", c(target), if while_source { " while it stays" } else { "" })
        }
        Op::Place { seats, slot, up, .. } => {
            format!(
                "{} place a card from hand {} onto S{}",
                who(seats),
                if up { "face up" } else { "face down" },
                slot + 1
            )
        }
        Op::Move { target, slot } => format!("moves {} onto S{}", c(target), slot + 1),
        Op::Look { seats, .. } => format!("{} look at the top of the deck", who(seats)),
        Op::Recover { seats, n, .. } => format!("{} take {n} from the pile into hand", who(seats)),
        Op::Shuffle { seats } => format!("{} shuffle the deck", who(seats)),
    }
}

/// An instance whose source was hidden or removed before its batch.
pub fn lost<N: Narrator>(st: &State, source: u8, narr: &mut N) {
    narr.line(format_args!(
        "    {} {}: lost (no longer face up on the table)",
        label(st, source),
        whose(st, source)
    ));
}

/// The values on the table after a batch.
pub fn values<N: Narrator>(st: &State, narr: &mut N) {
    let slots: Vec<String> = (0..SLOTS)
        .filter(|&k| st.slots[k] != [NONE, NONE])
        .map(|k| {
            let v = |side: usize| match st.slots[k][side] {
                NONE => "-".to_string(),
                id => value_words(st, id, k, side),
            };
            format!("S{} {}/{}", k + 1, v(0), v(1))
        })
        .collect();
    narr.line(format_args!("      values: {}", slots.join(" ")));
}

/// The value of the card at (`slot`, `side`), with what static abilities add and whose they are,
/// so no number moves without a cause in the lines above: "9(+1 static: Warlord 5 +1)".
fn value_words(st: &State, id: u8, slot: usize, side: usize) -> String {
    match st.statics_on(id, slot, side) {
        0 => st.value(id).to_string(),
        by => format!("{}({by:+} static: {})", st.value(id), statics(st, id, slot, side)),
    }
}

/// The static modifiers on the card at (`slot`, `side`) by source, in table order: "own text -4",
/// "Oathkeeper 8 +1".
fn statics(st: &State, id: u8, slot: usize, side: usize) -> String {
    let mut by: Vec<(u8, i32)> = Vec::new();
    st.each_static(id, slot, side, |src, amount| match by.iter_mut().find(|(s, _)| *s == src) {
        Some((_, sum)) => *sum += amount,
        None => by.push((src, amount)),
    });
    let named = by.iter().filter(|(_, amount)| *amount != 0).map(|&(src, amount)| {
        let who = if src == id { "own text".to_string() } else { label(st, src) };
        format!("{who} {amount:+}")
    });
    named.collect::<Vec<_>>().join(", ")
}

/// Events dropped at the cascade limit.
pub fn cascade_cut<N: Narrator>(events: usize, narr: &mut N) {
    narr.line(format_args!("    cascade limit: {events} event(s) dropped"));
}

/// One slot scored: the two sides and who took it.
pub fn scored<N: Narrator>(st: &State, slot: usize, taken: Taken, narr: &mut N) {
    let [a, b] = st.slots[slot];
    // A stacked side scores with its highest card, which may lie under the top: name that one.
    let value = |id: u8, side: usize| {
        if id == NONE {
            return "empty".to_string();
        }
        let best = st.side_value(slot, side, id);
        let under = st.under[slot][side].as_slice().iter().rev().find(|&&c| st.value(c) == best);
        match under {
            Some(&c) if best > st.value(id) => format!("{best} ({} under the top)", label(st, c)),
            _ => value_words(st, id, slot, side),
        }
    };
    let who = match taken {
        Taken::Seat(s) => format!("P{s} scores"),
        Taken::Nobody => "nobody scores".into(),
    };
    narr.line(format_args!(
        "  score S{}: {} v {} (values {} v {}): {who}; points {}-{}",
        slot + 1,
        label(st, a),
        label(st, b),
        value(a, 0),
        value(b, 1),
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
