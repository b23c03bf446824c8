//! Hand-built cases for what the second mutation run found unpinned (`docs/testing.md`, "Card
//! Wars, 2026-11-26"): each test names one rule of the table, the text, the players or the event
//! and fails when one line of it is changed.

use super::Script;
use super::abilities::{bench, score_start};
use super::kit::*;
use crate::games::narrate::Silent;
use crate::games::slots::choices::uniform_targets;
use crate::games::slots::judge::Greedy;
use crate::games::slots::Rules;
use crate::seed::GameSeed;

/// A rare of value `value` named `id` with one ability of `lines` (TOML keys, one per line).
fn probe(id: &str, value: u8, lines: &str) -> String {
    format!(
        "\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = {value}\n  [[card.ability]]\n{lines}\n"
    )
}

/// A card set of `cards` (TOML `[[card]]` tables) alone, compiled.
fn set_of(cards: &str) -> super::super::cardset::CardSet {
    let text = format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}");
    parse("t.toml", &text).expect("the test set parses")
}

// ---------------------------------------------------------------------------------------------
// The table and its resolution

#[test]
fn a_card_placed_face_up_that_was_face_up_earlier_in_the_round_counts_a_re_reveal() {
    // Rally Banner (4) puts the highest hand card face up onto its place: the 7, which was face
    // up earlier this round (then returned to hand), so its turning up is a re-reveal.
    let run = |seven_was_up: bool| {
        let mut b = bench("");
        let banner = b.down(0, "rally-banner", 2);
        let five = b.down(1, "vanilla-5", 2);
        b.hand(0, "vanilla-3");
        let seven = b.hand(0, "vanilla-7");
        if seven_was_up {
            b.st.was_up |= 1 << seven;
        }
        let mut g = b.game();
        g.reveal_for_tests(&[banner, five], &mut Script::none());
        assert!(g.st.is_face_up(seven) && g.st.slots[1][0] == seven);
        g.tally.re_reveals
    };
    assert_eq!(run(true), 1);
    assert_eq!(run(false), 0, "a first reveal is not a re-reveal");
}

#[test]
fn a_place_from_a_hand_and_a_draw_for_that_player_in_one_batch_conflict() {
    // Two 4s of P0 at [SSCORE]: one places P0's highest hand card onto its slot, the other draws
    // P0 a card. The place takes from the hand as a discard does, so both fizzle: the hand, the
    // deck and the slot stay as they were.
    let placer =
        probe("placer", 4, "  on = \"score_start\"\n  effect = \"place\"\n  pick = \"highest\"\n  player = \"you\"");
    let drawer = probe("drawer", 4, "  on = \"score_start\"\n  effect = \"draw\"\n  player = \"you\"");
    let mut b = bench(&format!("{placer}{drawer}"));
    let p = b.up(0, "placer", 1);
    b.up(0, "drawer", 2);
    let six = b.hand(0, "vanilla-6");
    let nine = b.deck(0, "vanilla-9");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.tally.fizzles, 2);
    assert_eq!((g.st.hands[0].as_slice(), g.st.decks[0].as_slice()), (&[six][..], &[nine][..]));
    assert_eq!(g.st.slots[0][0], p);
    // Apart (a draw for P1 instead), both apply.
    let drawer = probe("drawer", 4, "  on = \"score_start\"\n  effect = \"draw\"\n  player = \"opp\"");
    let mut b = bench(&format!("{placer}{drawer}"));
    b.up(0, "placer", 1);
    b.up(0, "drawer", 2);
    let six = b.hand(0, "vanilla-6");
    let nine = b.deck(1, "vanilla-9");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.tally.fizzles, 0);
    assert_eq!((g.st.slots[0][0], g.st.hands[1].as_slice()), (six, &[nine][..]));
}

#[test]
fn a_card_turned_face_down_ends_only_the_effects_that_last_while_it_stays() {
    let mut st = bench("").st;
    for (id, slot) in [(1u8, 1), (2, 2), (3, 3), (4, 4)] {
        st.set_down(id, slot, 0);
        st.turn_up(id);
    }
    let timed = |target, source, while_source| Timed {
        target,
        source,
        amount: 1,
        set: false,
        times: false,
        while_source,
    };
    // Card 1 gave card 2 a round-long +1 and card 3 a +1 while it stays; card 4 gave card 3 a +1
    // while card 4 stays.
    st.timed = vec![timed(2, 1, false), timed(3, 1, true), timed(3, 4, true)];
    assert_eq!(st.turn_down(1), 1);
    // The round-long one lasts the round; card 4's lasts while card 4 stays.
    assert_eq!(st.timed, [timed(2, 1, false), timed(3, 4, true)]);
}

// ---------------------------------------------------------------------------------------------
// The designer's reading and the strength estimate

#[test]
fn a_card_that_moves_itself_onto_its_own_slot_is_flagged_as_never_acting() {
    let flags = |slot: &str| {
        let set = set_of(&probe("mover", 5, &format!("  effect = \"move\"\n  target = \"self\"\n  slot = {slot}")));
        super::super::spell::read(&set, 0).flags
    };
    assert_eq!(flags("\"this\""), ["ability 1 can never act: this card already lies in this slot"]);
    assert!(flags("3").is_empty(), "{:?}", flags("3"));
}

#[test]
fn destroying_cards_of_both_sides_is_worth_nothing_and_a_discard_the_opposite_of_a_draw() {
    let worth = |lines: &str| set_of(&probe("w", 5, &format!("  on = \"score_end\"\n{lines}"))).worth[0];
    // Destroy: 5 values per opposing card, against it per own card, 0 when it hits both sides.
    assert_eq!(worth("  effect = \"destroy\"\n  target = \"oc\""), 50);
    assert_eq!(worth("  effect = \"destroy\"\n  target = \"self\""), -50);
    assert_eq!(worth("  effect = \"destroy\"\n  target = \"all\""), 0);
    // A discard is worth one card: to the controller when the opponent discards.
    let discard = |player: &str| worth(&format!("  effect = \"discard\"\n  player = \"{player}\"\n  pick = \"lowest\""));
    assert_eq!([discard("you"), discard("opp"), discard("both")], [-10, 10, 0]);
}

// ---------------------------------------------------------------------------------------------
// The players

#[test]
fn the_greedy_chooser_takes_a_swap_that_turns_a_slot_and_declines_one_that_loses_it() {
    // "You may swap this card with the opposing card": a 2 facing an 8 takes it (the 8 comes to
    // its side and wins the slot); a 9 facing a 3 declines (it would hand the slot over).
    let run = |mine: u8, theirs: &str| {
        let switch = probe(
            "switch",
            mine,
            "  on = \"score_start\"\n  optional = true\n  effect = \"swap\"\n  a = \"self\"\n  b = \"oc\"",
        );
        let mut b = bench(&switch);
        let sw = b.up(0, "switch", 1);
        let other = b.up(1, theirs, 1);
        let mut g = b.game();
        g.st.scoring = SLOTS as u8;
        g.moment(Trigger::ScoreStart, &mut Silent, &mut Greedy::new());
        (g.st.slots[0] == [other, sw], g.tally.declined)
    };
    assert_eq!(run(2, "vanilla-8"), (true, 0));
    assert_eq!(run(9, "vanilla-3"), (false, 1));
}

#[test]
fn random_picks_its_count_of_distinct_candidates_each_equally_often() {
    let from = Stack::of(&[0, 3, 5, 8]);
    let mut rng = GameSeed::new(3, 3).rng();
    let mut out = Stack::default();
    let mut times = [0u32; 9];
    for _ in 0..400 {
        uniform_targets(&from, 2, &mut rng, &mut out);
        assert_eq!(out.len(), 2);
        assert!(out.as_slice()[0] != out.as_slice()[1], "{out:?}");
        for &p in out.as_slice() {
            assert!(from.as_slice().contains(&p), "{p}");
            times[p as usize] += 1;
        }
    }
    // Each place is picked with chance 1/2: 200 of 400 expected, sd 10; 150-250 is five sd.
    for p in [0, 3, 5, 8] {
        assert!((150..=250).contains(&times[p]), "{times:?}");
    }
    // Asked for more than it is offered, it takes every candidate.
    uniform_targets(&from, 6, &mut rng, &mut out);
    let mut all = out.as_slice().to_vec();
    all.sort_unstable();
    assert_eq!(all, [0, 3, 5, 8]);
}

#[test]
fn the_reader_plays_the_card_that_draws_among_cards_of_equal_value() {
    // Turn 2, P0 to place in S2 (P1's 8 beats P0's 5 in S1, P1 holds one card): a textless 5
    // and a 5 that draws a card when revealed score alike on the table; the draw leaves P0 a
    // card more in hand, so the reader plays it.
    let drawer = probe("drawer", 5, "  effect = \"draw\"\n  player = \"you\"");
    let mut b = bench(&drawer);
    b.up(0, "vanilla-5", 1);
    let eight = b.up(1, "vanilla-8", 1);
    b.hand(0, "vanilla-5");
    b.hand(0, "drawer");
    b.deck(0, "vanilla-3");
    let theirs = b.hand(1, "vanilla-4");
    b.st.kept[1] = Stack::of(&[eight, theirs]);
    let mut g = b.game();
    g.st.turn = 2;
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    assert_eq!(crate::games::slots::reader::Reader::new().place(&obs), 1);
}

// ---------------------------------------------------------------------------------------------
// The event

#[test]
fn an_event_ranks_a_pool_by_printed_value_and_text_worth() {
    use crate::tournament::Contest;
    // One rare design, a 9 worth a point at the end of scoring: dealt independently, each pool's
    // three rares are that 9, every other place a textless card of its value (one uncommon and
    // two commons of each value 1-9).
    let set = set_of(&probe("crown", 9, "  on = \"score_end\"\n  effect = \"points\"\n  amount = 1"));
    let worth = set.worth[0];
    assert!(worth > 0);
    let rules = Rules { cards: Some(std::sync::Arc::new(set)), ..Rules::with("highest") };
    let ev = super::super::event::SlotsEvent::new(rules, 2, super::super::deal::Dealing::Independent)
        .expect("the set deals");
    let mut sc = Contest::new_scratch(&ev);
    let mut story = String::new();
    let mut rec = crate::record::GameRecord::EMPTY.clone();
    Contest::deal(&ev, GameSeed::new(6, 0), &mut sc, &mut rec, &mut crate::games::narrate::Story(&mut story));
    let mut keys: Vec<i64> = vec![90 + i64::from(worth); 3];
    for v in 1..=9 {
        keys.extend([v * 10; 3]);
    }
    keys.sort_unstable_by(|a, b| b.cmp(a));
    let want: i64 = keys[..DECK].iter().sum();
    for p in 0..2 {
        assert_eq!(Contest::strength(&ev, &sc, p), Some(want), "{story}");
    }
}
