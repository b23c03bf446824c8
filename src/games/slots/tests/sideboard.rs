//! The `adapt` deck policy between rounds: it swaps a sideboard card in when simulated rounds
//! against the opponent's shown cards say the swap wins more, and keeps its deck otherwise.

use std::sync::Arc;

use super::kit::*;
use crate::games::slots::{Rules, SlotsEngine};
use crate::games::{Engine, Point};
use crate::seed::GameSeed;

/// A nine that takes the opposing card off the table when that card is a printed 9.
const BREAKER: &str = r#"format = "warsim-slots-cards"
version = 1
name = "t"

[[card]]
id = "breaker"
name = "Breaker"
rarity = "common"
value = 9
text = "Destroy OC if printed 9."
  [[card.ability]]
  if = [ { oc_printed = ">=9" } ]
  effect = "destroy"
  target = "oc"
"#;

/// Between rounds 1 and 2 (the first tied): seat 0 holds 29 textless nines and one Breaker last
/// in pool order (so `top21` leaves it on the sideboard); seat 1's pool is all `opponent`, of
/// which nine cards have been shown.
fn between_rounds(opponent: u8) -> State {
    let set = parse("t.toml", BREAKER).expect("the test set parses");
    let mut st = State::new(DeckPolicy::Adapt, 10);
    st.text = true;
    st.set = Some(Arc::new(set));
    st.pools.size = [POOL as u8; SEATS];
    for id in 0..CARDS {
        st.pools.printed[id] = if owner(id as u8) == 0 { 9 } else { opponent };
        st.pools.design[id] = TEXTLESS;
    }
    st.pools.design[POOL - 1] = 0;
    for seat in 0..SEATS {
        DeckPolicy::Adapt.keep(&st.pools, st.set.as_deref(), seat, &mut st.kept[seat]);
    }
    assert!(!st.kept[0].as_slice().contains(&(POOL as u8 - 1)), "Breaker starts on the sideboard");
    st.rounds = 1;
    st.ties = 1;
    st.shown = ((1u64 << 9) - 1) << POOL;
    st
}

fn choose(st: &State) -> Option<Stack> {
    let mut sb = super::super::sideboard::Sideboard::default();
    let mut out = Stack::default();
    sb.choose(st, 0, &mut GameSeed::new(5, 5).rng(), &mut out).then_some(out)
}

#[test]
fn against_shown_nines_the_breaker_comes_in_for_the_last_plain_nine() {
    let deck = choose(&between_rounds(9)).expect("a swap: nine against nine ties, Breaker takes a slot");
    assert_eq!(deck.len(), DECK);
    assert!(deck.as_slice().contains(&(POOL as u8 - 1)), "Breaker is in");
    // Out went the card `top21` drops first: the last nine of the deck in pool order.
    assert!(!deck.as_slice().contains(&(DECK as u8 - 1)));
    assert!(deck.as_slice().windows(2).all(|w| w[0] < w[1]), "in pool order");
}

#[test]
fn against_shown_fives_or_before_anything_was_shown_the_deck_stays() {
    // Nines beat fives whatever Breaker does: the swap gains nothing, so none is made.
    assert_eq!(choose(&between_rounds(5)), None);
    let mut st = between_rounds(9);
    st.shown = 0;
    assert_eq!(choose(&st), None, "nothing shown, nothing to adapt to");
}

#[test]
fn a_game_counts_the_swaps_of_adapting_seats_only() {
    let top21 = SlotsEngine::new(Rules::with("highest"));
    let acc = Point::play_range(&top21, 9, 0, 50, &|_| {});
    assert_eq!(acc.counters[Engine::layout(&top21).counter("sideboard_swaps").unwrap().0 as usize].total, 0);
    // With the tournament set's text, adapting seats swap in some games.
    let text = std::fs::read_to_string("scenarios/cards/tournament.toml").unwrap();
    let set = Arc::new(parse("tournament.toml", &text).unwrap());
    let e = SlotsEngine::new(Rules {
        cards: Some(set),
        deck_policy: DeckPolicy::lineup("adapt").unwrap(),
        ..Rules::with("highest")
    });
    let acc = Point::play_range(&e, 9, 0, 100, &|_| {});
    let c = &acc.counters[Engine::layout(&e).counter("sideboard_swaps").unwrap().0 as usize];
    assert!(c.games_with > 0 && c.total >= c.games_with as u128, "{c:?}");
}
