//! The story of a Cardwars game for `warsim play`: each turn's draw and hand, the resource and
//! faces played with their payments, the attack, the joker or the blocks, the damage order, the
//! damage card by card and the lives. The rules call these only when the narrator is on
//! (`Narrator::ON`), so a run pays nothing for them.

use super::rules::{End, Game, JOKER_VALUE, NO_BLOCK, Player, Unit, Zone, label, value};
use crate::games::narrate::Narrator;

/// "[5H 7D* QH+]": the field, `*` marked, `+` played this turn.
pub fn field(units: &[Unit]) -> String {
    let cards: Vec<String> = units
        .iter()
        .map(|u| {
            format!("{}{}{}", label(u.card), if u.marked { "*" } else { "" }, if u.fresh { "+" } else { "" })
        })
        .collect();
    format!("[{}]", cards.join(" "))
}

fn cards(cs: &[u8]) -> String {
    cs.iter().map(|&c| label(c)).collect::<Vec<_>>().join(" ")
}

/// The deal: who plays first, each seat's policy and opening hand.
pub fn deal<N: Narrator>(g: &Game, policy: impl Fn(usize) -> &'static str, narr: &mut N) {
    narr.line(format_args!(
        "Deal: 27 cards each, {} life, opening hand {}, first draw {}; P{} plays first",
        g.config.life, g.config.opening_hand, g.config.first_draw, g.first
    ));
    for (s, p) in g.players.iter().enumerate() {
        narr.line(format_args!("  P{s} ({}) holds [{}]", policy(s), cards(p.hand.as_slice())));
    }
    legend(narr);
}

/// What the story's card names and marks mean, once before the first turn.
fn legend<N: Narrator>(narr: &mut N) {
    narr.line(format_args!(
        "  Reading: AH is the ace of hearts. Resources: the numerals, worth 1 (A) to 10, and the \
         joker, worth {JOKER_VALUE} of any suit."
    ));
    narr.line(format_args!(
        "  Faces: J 11, Q 12, K 13, paid for by destroying resources of their suit from the field."
    ));
    narr.line(format_args!(
        "  On a field, * marks a card that attacked (it cannot block before its owner's next turn), + \
         one played this turn (it cannot attack yet)."
    ));
}

/// The turn's head, then each seat's state: life, hand and deck sizes, the graveyard's cards and
/// the field, so every number later in the turn follows from these lines.
pub fn turn<N: Narrator>(g: &Game, narr: &mut N) {
    narr.line(format_args!("Turn {}: P{} to play", g.turn, g.active));
    for s in [g.active, 1 - g.active] {
        state(g, s, narr);
    }
}

/// One seat's state in one line.
fn state<N: Narrator>(g: &Game, s: usize, narr: &mut N) {
    let p = &g.players[s];
    narr.line(format_args!(
        "  P{s}: life {}, hand {}, deck {}, graveyard [{}], field {}",
        p.life,
        p.hand.len(),
        p.deck.len(),
        cards(p.grave.as_slice()),
        field(p.field.as_slice())
    ));
}

pub fn hand<N: Narrator>(g: &Game, s: usize, narr: &mut N) {
    narr.line(format_args!("  P{s}'s hand: [{}]", cards(g.players[s].hand.as_slice())));
}

/// A face played, before its payment leaves the field.
pub fn face<N: Narrator>(s: usize, c: u8, p: &Player, payment: u32, narr: &mut N) {
    let paid: Vec<u8> =
        (0..p.field.len()).filter(|i| payment >> i & 1 == 1).map(|i| p.field.as_slice()[i].card).collect();
    let total: u32 = paid.iter().map(|&c| value(c) as u32).sum();
    narr.line(format_args!(
        "  P{s} plays {}, destroying {} to pay ({total} for {}{})",
        label(c),
        cards(&paid),
        value(c),
        if total > value(c) as u32 { format!(", {} lost", total - value(c) as u32) } else { String::new() }
    ));
}

fn masked(units: &[Unit], mask: u32) -> String {
    let cs: Vec<u8> = (0..units.len()).filter(|i| mask >> i & 1 == 1).map(|i| units[i].card).collect();
    cards(&cs)
}

pub fn attack<N: Narrator>(g: &Game, narr: &mut N) {
    let s = g.active;
    narr.line(format_args!("  P{s} attacks with {}", masked(g.players[s].field.as_slice(), g.attackers)));
}

/// The defender plays its joker from hand: every attacker dies, by name, before it leaves the field.
pub fn joker<N: Narrator>(g: &Game, narr: &mut N) {
    let attackers = masked(g.players[g.active].field.as_slice(), g.attackers);
    narr.line(format_args!(
        "  P{} plays the Joker from hand against every attacker; destroyed: {attackers}; no damage",
        g.defender()
    ));
}

pub fn blocks<N: Narrator>(g: &Game, narr: &mut N) {
    let (a, d) = (g.active, g.defender());
    let pairs: Vec<String> = g
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| **b != NO_BLOCK)
        .map(|(j, &b)| {
            format!(
                "{} blocks {}",
                label(g.players[d].field.as_slice()[j].card),
                label(g.players[a].field.as_slice()[b as usize].card)
            )
        })
        .collect();
    let said = if pairs.is_empty() { "no blocks".to_string() } else { pairs.join(", ") };
    narr.line(format_args!("  P{d} (hand [{}]) declares {said}", cards(g.players[d].hand.as_slice())));
}

pub fn order<N: Narrator>(g: &Game, o: &Zone<u8>, narr: &mut N) {
    let d = &g.players[g.defender()];
    let blockers: Vec<u8> = o.as_slice().iter().map(|&j| d.field.as_slice()[j as usize].card).collect();
    narr.line(format_args!(
        "  P{} orders the damage of {}: {}",
        g.active,
        label(g.players[g.active].field.as_slice()[g.ordering as usize].card),
        cards(&blockers)
    ));
}

/// The combat's damage: what each blocker absorbed, what dies, what reaches life.
pub fn damage<N: Narrator>(
    g: &Game,
    absorbed: &[u8],
    dead_att: u32,
    dead_def: u32,
    to_life: i32,
    narr: &mut N,
) {
    let (a, d) = (g.active, g.defender());
    let taken: Vec<String> = (0..g.players[d].field.len())
        .filter(|&j| g.blocks[j] != NO_BLOCK)
        .map(|j| format!("{} absorbs {}", label(g.players[d].field.as_slice()[j].card), absorbed[j]))
        .collect();
    if !taken.is_empty() {
        narr.line(format_args!("  damage: {}", taken.join(", ")));
    }
    let dead = format!(
        "{}{}{}",
        masked(g.players[a].field.as_slice(), dead_att),
        if dead_att != 0 && dead_def != 0 { " " } else { "" },
        masked(g.players[d].field.as_slice(), dead_def)
    );
    narr.line(format_args!(
        "  destroyed: {}; {to_life} damage to P{d}'s life ({} -> {})",
        if dead.is_empty() { "none" } else { &dead },
        g.players[d].life,
        g.players[d].life - to_life
    ));
}

pub fn end_of_turn<N: Narrator>(g: &Game, narr: &mut N) {
    if g.quiet > 0 {
        narr.line(format_args!("  a quiet turn ({} in a row)", g.quiet));
    }
}

/// The seat to play does not attack (no face ready, or it chose not to).
pub fn no_attack<N: Narrator>(g: &Game, ready: bool, narr: &mut N) {
    let why = if ready { "chooses not to attack" } else { "has no face ready to attack" };
    narr.line(format_args!("  P{} {why}", g.active));
}

/// The end: the last turn's state, why the game stopped and who won.
pub fn ending<N: Narrator>(g: &Game, end: End, narr: &mut N) {
    narr.line(format_args!("After turn {}:", g.turn));
    for s in 0..2 {
        state(g, s, narr);
    }
    let lives = format!("lives P0 {}, P1 {}", g.players[0].life, g.players[1].life);
    match end {
        End::Won(w) => narr.line(format_args!("Game over after {} turns: P{w} wins ({lives}).", g.turn)),
        End::Capped => {
            narr.line(format_args!("Game over: the cap of {} turns is reached ({lives}); capped.", g.turn))
        }
        End::Stalled => narr.line(format_args!(
            "Game over after {} turns: {} turns in a row changed nothing ({lives}); stalled, capped.",
            g.turn, g.quiet
        )),
    }
}
