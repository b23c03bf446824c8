//! The Future Suggestions' turn order (`draw_first`, `opening_hand`): the draw opens each turn,
//! none follows the last reveal, and a round starts with the opening hand.

use super::kit::*;
use super::{Script, card, even_table, fresh_state, last_turn, rng};
use crate::games::narrate::Silent;

/// A fresh game on default pools with the given turn order, begun: at its first placement.
fn begun(draw_first: bool, opening_hand: u8) -> Game {
    let mut st = fresh_state(10);
    st.draw_first = draw_first;
    st.opening_hand = opening_hand;
    let mut g = Game::on(st);
    g.begin(&mut rng(), &mut Silent, &mut Script::none());
    g
}

#[test]
fn a_round_starts_with_the_opening_hand_and_the_first_turn_draws_before_placing() {
    let g = begun(true, 4);
    assert_eq!(g.next(), Next::Place(0));
    // Four to start, one drawn at the start of turn 1.
    assert_eq!((g.st.hands[0].len(), g.st.decks[0].len()), (5, DECK - 5));
    assert_eq!((g.st.hands[1].len(), g.st.decks[1].len()), (5, DECK - 5));
    // The rules text's order with four to start: no draw before the first placement.
    let g = begun(false, 4);
    assert_eq!((g.st.hands[0].len(), g.st.decks[0].len()), (4, DECK - 4));
}

#[test]
fn no_draw_follows_the_last_reveal_when_the_draw_comes_first() {
    // The same last turn on empty decks: the rules text's order draws after it (two empty
    // draws); drawing first, nothing is drawn after turn 9 and the next round draws from fresh decks.
    let play = |draw_first: bool| {
        let mut g = last_turn(&even_table(), [card(0, 8, 2), card(1, 2, 2)]);
        g.st.draw_first = draw_first;
        g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
        g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
        g
    };
    let standard = play(false);
    assert_eq!((standard.st.wins, standard.tally.empty_draws), ([1, 0], 2));
    let first = play(true);
    assert_eq!((first.st.wins, first.tally.empty_draws, first.st.rounds), ([1, 0], 0, 2));
    // Round 2 has begun with five cards (the rules text's opening hand) plus turn 1's draw.
    assert_eq!(first.st.hands[0].len(), FIRST_HAND + 1);
}

#[test]
fn a_middle_turn_draws_once_either_way() {
    let (a7, a2, b3, b5) = (card(0, 7, 0), card(0, 2, 0), card(1, 3, 0), card(1, 5, 0));
    let (a_top, b_top) = (card(0, 4, 0), card(1, 4, 0));
    for draw_first in [false, true] {
        let mut g = super::position(
            2,
            [&[a2, a7], &[b3, b5]],
            [&[a_top], &[b_top]],
            &[[card(0, 1, 0), card(1, 1, 0)]],
        );
        g.st.draw_first = draw_first;
        g.answer(1, &mut rng(), &mut Silent, &mut Script::none());
        g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
        // Turn 3 is asked with one card drawn: after turn 2's reveal, or at the start of turn 3.
        assert_eq!((g.st.turn, g.next()), (3, Next::Place(0)));
        assert_eq!(g.st.hands[0].as_slice(), [a2, a_top], "draw_first={draw_first}");
        assert_eq!(g.st.hands[1].as_slice(), [b5, b_top], "draw_first={draw_first}");
    }
}
