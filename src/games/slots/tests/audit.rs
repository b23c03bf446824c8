//! A rules audit on small tables whose outcome is worked out by hand: timing (batches, equal
//! values, "then"), durations, watchers, counters, stacks, values taken from other cards, deck and
//! pile effects, rule-changing cards, the scoring order and face-down values. Each test states the
//! hand-worked answer in its comment; `docs/rules/slots.md` gives the rulings.

use super::Script;
use super::abilities::{Bench, bench, score_start};
use super::kit::*;
use crate::games::narrate::Silent;

/// The audit's probes, one rule each, at [SSCORE] unless a test needs another moment: each
/// design (all rares, named by id) with its abilities, one TOML body each (`; ` between keys).
const AUDIT: &[(&str, u8, &[&str])] = &[
    ("au-sapper", 2, &[r#"on = "score_start"; effect = "counter"; target = "oc"; amount = -3"#]),
    (
        "au-proud",
        7,
        &[r#"on = "score_start"; if = [ { self_value = ">=5" } ]; effect = "points"; amount = 1"#],
    ),
    ("au-grower", 4, &[r#"on = "score_start"; effect = "counter"; target = "self"; amount = 2"#]),
    ("au-gazer", 4, &[r#"on = "score_start"; if = [ { oc_value = ">=6" } ]; effect = "points"; amount = 1"#]),
    (
        "au-twostep",
        3,
        &[
            r#"on = "score_start"; effect = "counter"; target = "oc"; amount = 1"#,
            r#"on = "score_start"; if = [ { self_value = ">=4" } ]; effect = "points"; amount = 1"#,
        ],
    ),
    ("au-gift", 2, &[r#"effect = "modify"; target = "oc"; amount = 3"#]),
    ("au-smasher", 8, &[r#"on = "score_start"; effect = "destroy"; target = { side = "opp", slots = 1 }"#]),
    ("au-self-counter", 6, &[r#"on = "score_start"; effect = "counter"; target = "self"; amount = 3"#]),
    (
        "au-gatekeeper",
        5,
        &[
            r#"on = "placed"; watch = { side = "opp", slots = "next1" }; effect = "counter"; target = "event"; amount = -1"#,
        ],
    ),
    ("au-reader", 5, &[r#"on = "drawn"; effect = "counter"; target = "self"; amount = 1"#]),
    ("au-drawer", 3, &[r#"on = "score_start"; effect = "draw"; amount = 2"#]),
    ("au-loser", 1, &[r#"on = "slot_lost"; effect = "points"; amount = 1"#]),
    ("au-mourner", 2, &[r#"on = "destroyed"; watch = "oc"; effect = "points"; amount = 1"#]),
    ("au-twin", 3, &[r#"on = "score_start"; effect = "multiply"; target = "self"; by = "stacked""#]),
    ("au-copycat", 2, &[r#"on = "score_start"; effect = "set"; target = "self"; to = "oc""#]),
    ("au-handy", 2, &[r#"on = "score_start"; effect = "set"; target = "self"; to = "hand_highest""#]),
    ("au-peeker", 5, &[r#"on = "score_start"; effect = "look"; bottom = ">=7""#]),
    ("au-digger", 5, &[r#"on = "score_start"; effect = "recover""#]),
    ("au-tosser", 5, &[r#"on = "score_start"; effect = "discard"; pick = "highest""#]),
    ("au-puller", 5, &[r#"on = "score_start"; effect = "draw""#]),
    (
        "au-booster",
        1,
        &[
            r#"on = "slot_scored"; effect = "counter"; target = { side = "you", slots = "next1" }; amount = 5"#,
        ],
    ),
    ("au-low", 1, &[r#"on = "score_start"; effect = "lower_wins""#]),
    ("au-ties", 1, &[r#"on = "score_start"; effect = "win_ties""#]),
    ("au-swapper", 9, &[r#"on = "score_start"; effect = "swap"; a = "self"; b = "oc""#]),
    (
        "au-mover",
        6,
        &[r#"on = "score_start"; effect = "move"; target = { side = "you", slots = 1 }; slot = 2"#],
    ),
    (
        "au-plain-eye",
        6,
        &[r#"on = "score_start"; effect = "counter"; target = { printed = "0-9" }; amount = 1"#],
    ),
    ("au-crusher", 7, &[r#"on = "score_start"; effect = "destroy"; target = "stacked""#]),
    ("au-returner", 5, &[r#"on = "score_start"; effect = "return"; target = { side = "you", slots = 1 }"#]),
    ("au-fiver", 5, &[r#"on = "score_start"; effect = "destroy"; target = { side = "opp", slots = 1 }"#]),
    ("au-stayer", 3, &[r#"effect = "modify"; target = "oc"; amount = -2; duration = "source""#]),
    (
        "au-exchanger",
        8,
        &[
            r#"on = "score_start"; effect = "swap"; a = { side = "you", slots = 1 }; b = { side = "opp", slots = 2 }"#,
        ],
    ),
    (
        "au-double-point",
        3,
        &[
            r#"on = "score_start"; effect = "points"; amount = 1"#,
            r#"on = "score_start"; effect = "points"; amount = 1"#,
        ],
    ),
    ("au-hider", 3, &[r#"on = "score_start"; effect = "hide"; target = "oc""#]),
    ("au-bonus", 2, &[r#"effect = "points"; amount = 1"#]),
    ("au-leader", 3, &[r#"on = "score_start"; if = [ { lead = ">=1" } ]; effect = "points"; amount = 5"#]),
    ("au-flash", 2, &[r#"on = "score_start"; effect = "reveal"; target = { side = "opp", slots = 1 }"#]),
    ("au-dim", 2, &[r#"on = "score_start"; effect = "hide"; target = { side = "opp", slots = 1 }"#]),
    (
        "au-late-smash",
        5,
        &[r#"on = "slot_scored"; effect = "destroy"; target = { side = "opp", slots = 1 }"#],
    ),
    ("au-revealer", 5, &[r#"on = "score_start"; effect = "reveal"; target = { side = "opp", slots = 1 }"#]),
    (
        "au-shifter",
        5,
        &[
            r#"on = "score_start"; effect = "swap"; a = { side = "you", slots = 1 }; b = { side = "you", slots = 3 }"#,
        ],
    ),
    (
        "au-lookout",
        2,
        &[r#"on = "revealed"; watch = "oc"; effect = "counter"; target = "event"; amount = -1"#],
    ),
    (
        "au-echo",
        3,
        &[
            r#"on = "revealed"; effect = "counter"; target = "self"; amount = 1"#,
            r#"on = "revealed"; if = [ { self_value = ">=5" } ]; effect = "points"; amount = 1"#,
        ],
    ),
    (
        "au-herald",
        3,
        &[
            r#"effect = "counter"; target = "self"; amount = 2"#,
            r#"on = "revealed"; watch = "oc"; if = [ { self_value = ">=5" } ]; effect = "points"; amount = 1"#,
        ],
    ),
    ("au-mixer", 5, &[r#"on = "score_start"; effect = "shuffle""#]),
    ("au-reserve", 4, &[r#"on = "score_start"; effect = "place"; slot = 1; pick = "highest""#]),
    (
        "au-clean",
        6,
        &[r#"on = "score_start"; effect = "destroy"; target = { side = "opp", counters = false }"#],
    ),
];

/// The audit's designs as a card file's text.
fn audit_designs() -> String {
    let mut text = String::new();
    for (id, value, abilities) in AUDIT {
        text += &format!("\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = {value}\n");
        for body in *abilities {
            text += &format!("[[card.ability]]\n{}\n", body.replace("; ", "\n"));
        }
    }
    text
}

fn audit() -> Bench {
    bench(&audit_designs())
}

// ---------------------------------------------------------------------------------------------
// Timing

#[test]
fn a_lower_printed_value_resolves_first_and_the_higher_reads_its_result() {
    // Sapper (2) gives Proud (7) a -3 counter first; Proud then reads 4 < 5: no point.
    let mut b = audit();
    b.up(0, "au-sapper", 1);
    let proud = b.up(1, "au-proud", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(proud), g.st.points), (4, [0, 0]));
}

#[test]
fn equal_printed_values_read_one_snapshot() {
    // Grower (4) and Gazer (4) face each other: Gazer reads Grower's value before Grower's
    // counters land (4, not 6), so no point; they touch different cards, so nothing fizzles.
    let mut b = audit();
    let grower = b.up(0, "au-grower", 1);
    b.up(1, "au-gazer", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(grower), g.st.points, g.tally.fizzles), (6, [0, 0], 0));
}

#[test]
fn then_steps_of_equal_values_batch_first_abilities_then_second_ones() {
    // Two Two Steps (3) face each other: step 1 puts +1 on each (both 4), step 2 reads 4 on
    // both: a point each. Had each card run both steps alone, the first would read 3.
    let mut b = audit();
    let a = b.up(0, "au-twostep", 1);
    let c = b.up(1, "au-twostep", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(a), g.st.value(c)), (4, 4));
    assert_eq!((g.st.points, g.tally.then_steps), ([1, 1], 2));
}

// ---------------------------------------------------------------------------------------------
// Durations

#[test]
fn a_round_long_modifier_ends_when_its_source_is_destroyed() {
    // Gift (2) gives its OC +3 for the round; Smasher destroys Gift: the +3 goes with it.
    let mut b = audit();
    let gift = b.down(0, "au-gift", 1);
    let five = b.down(1, "vanilla-5", 1);
    b.up(1, "au-smasher", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[gift, five], &mut Script::none());
    score_start(&mut g);
    assert!(!g.st.on_table(gift));
    assert_eq!((g.st.value(five), g.tally.effects_ended), (5, 1));
}

#[test]
fn a_static_aura_hidden_and_revealed_again_counts_once() {
    // Hearth Guard (+1 to your adjacent cards): hidden, the 5 beside it is 5; turned up again, 6.
    let mut b = audit();
    let guard = b.up(0, "hearth-guard", 1);
    let five = b.up(0, "vanilla-5", 2);
    let mut g = b.game();
    assert_eq!(g.st.value(five), 6);
    g.st.turn_down(guard);
    assert_eq!(g.st.value(five), 5);
    g.reveal_for_tests(&[guard], &mut Script::none());
    assert_eq!((g.st.value(five), g.tally.re_reveals), (6, 1));
}

// ---------------------------------------------------------------------------------------------
// Watchers

#[test]
fn a_placed_watcher_answers_the_card_placed_where_it_watches() {
    // Gatekeeper (P0, S2) watches P1's S3: turn 3's card gets a -1 counter as it lands.
    let mut b = audit();
    b.up(0, "au-gatekeeper", 2);
    b.hand(0, "vanilla-2");
    let six = b.hand(1, "vanilla-6");
    // A card more each, so the game stops at turn 4 instead of playing the round out.
    for seat in 0..SEATS {
        b.hand(seat, "vanilla-1");
    }
    let mut g = b.game();
    g.st.turn = 3;
    super::abilities::play_turn(&mut g);
    assert_eq!(g.st.slots[2][1], six);
    assert_eq!((g.st.counters[six as usize], g.st.value(six)), ([0, -1], 5));
}

#[test]
fn drawn_fires_once_per_card_drawn_by_the_controller() {
    // Drawer (3) draws two for P0: Reader (P0) gets +1 per card; P1's Reader nothing.
    let mut b = audit();
    let mine = b.up(0, "au-reader", 1);
    let theirs = b.up(1, "au-reader", 1);
    b.up(0, "au-drawer", 2);
    b.deck(0, "vanilla-1");
    b.deck(0, "vanilla-2");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.counter_sum(mine), g.st.counter_sum(theirs)), (2, 0));
}

#[test]
fn slot_lost_fires_only_for_the_side_that_lost_the_slot() {
    // Sore Loser (1) against a 5 loses S1: +1 point to its controller; in S2 it ties a 1: nothing.
    let mut b = audit();
    b.up(0, "au-loser", 1);
    b.up(1, "vanilla-5", 1);
    b.up(1, "au-loser", 2);
    b.up(0, "vanilla-1", 2);
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    // P1 took S1 (1 point), P0's loser scored 1; S2 tied.
    assert_eq!(g.st.points, [1, 1]);
}

#[test]
fn a_watch_by_place_answers_the_top_card_of_the_place_only() {
    // Mourner (P0, S1) watches its OC, P1's 6 on top of a 4. Crusher (P1, top of S2) destroys the
    // card under it... here the 4 under the 6 is destroyed by the 6 itself (Crusher, on top): the
    // 4 was never "the opposing card" (selectors by place name the top), so no point.
    let mut b = audit();
    b.up(0, "au-mourner", 1);
    let four = b.up(1, "vanilla-4", 1);
    let crusher = b.up(1, "au-crusher", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.piles[1].as_slice(), g.st.slots[0][1]), (&[four][..], crusher));
    assert_eq!((g.st.points, g.tally.covered_events), ([0, 0], 1));
    // The top card destroyed is the opposing card: Mourner scores.
    let mut b = audit();
    b.up(0, "au-mourner", 1);
    let six = b.up(1, "vanilla-6", 1);
    b.up(0, "au-smasher", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.piles[1].as_slice(), g.st.points), (&[six][..], [1, 0]));
}

// ---------------------------------------------------------------------------------------------
// Counters

#[test]
fn counters_false_leaves_out_a_card_with_a_plus_and_a_minus_counter() {
    // P1's 5 carries +1 and -1 (net 0): Clean (no counters) destroys P1's 3 only.
    let mut b = audit();
    let five = b.up(1, "vanilla-5", 1);
    let three = b.up(1, "vanilla-3", 2);
    b.up(0, "au-clean", 3);
    let mut g = b.game();
    g.st.counters[five as usize] = [1, -1];
    score_start(&mut g);
    assert_eq!(g.st.piles[1].as_slice(), [three]);
    assert_eq!(g.st.value(five), 5);
}

// ---------------------------------------------------------------------------------------------
// Stacks

#[test]
fn self_names_the_source_even_under_another_card() {
    // Self Counter (6) lies under a 2 in S1: its +3 counters go on itself, not on the 2.
    let mut b = audit();
    let sc = b.up(0, "au-self-counter", 1);
    let two = b.up(0, "vanilla-2", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.counter_sum(sc), g.st.counter_sum(two)), (3, 0));
}

#[test]
fn multiply_by_a_stacked_cards_value() {
    // Twin (3) on a 4: 3 x 4 = 12; the 4 is unchanged; the side scores 12 against a 9.
    let mut b = audit();
    let four = b.up(0, "vanilla-4", 1);
    let twin = b.up(0, "au-twin", 1);
    b.up(1, "vanilla-9", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(twin), g.st.value(four)), (12, 4));
    assert_eq!(g.st.winner_of(0), Taken::Seat(0));
}

#[test]
fn a_moved_card_lands_on_top_of_an_occupied_place() {
    // Mover takes your S1 card (a 7) onto your S2 (a 3): the 7 on top, S1 empty.
    let mut b = audit();
    let seven = b.up(0, "vanilla-7", 1);
    let three = b.up(0, "vanilla-3", 2);
    b.up(0, "au-mover", 3);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[0][0], g.st.slots[1][0]), (NONE, seven));
    assert_eq!((g.st.under[1][0].as_slice(), g.tally.stacked_cards), (&[three][..], 1));
}

#[test]
fn lower_wins_on_a_stacked_slot_compares_each_sides_highest_card() {
    // Low (1) over a 9 against a 5: each side counts its highest (9 against 5), and the lower wins.
    let mut b = audit();
    b.up(0, "vanilla-9", 1);
    b.up(0, "au-low", 1);
    b.up(1, "vanilla-5", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.winner_of(0), Taken::Seat(1));
}

// ---------------------------------------------------------------------------------------------
// Values taken from other cards

#[test]
fn set_to_the_opposing_cards_value_and_to_the_highest_hand_card() {
    // Copycat (2) against a 7 with a +1 counter: 8. Handy (2) with 3 and 8 in hand: 8.
    let mut b = audit();
    let cat = b.up(0, "au-copycat", 1);
    let seven = b.up(1, "vanilla-7", 1);
    let handy = b.up(0, "au-handy", 2);
    b.hand(0, "vanilla-3");
    b.hand(0, "vanilla-8");
    let mut g = b.game();
    g.st.counters[seven as usize] = [1, 0];
    score_start(&mut g);
    assert_eq!((g.st.value(cat), g.st.value(handy)), (8, 8));
}

// ---------------------------------------------------------------------------------------------
// Deck, hand and pile

#[test]
fn look_puts_a_matching_top_card_on_the_bottom() {
    // P0's deck, top last: 2, 8: Peeker sees the 8 (>= 7) and puts it under the 2.
    let mut b = audit();
    b.up(0, "au-peeker", 1);
    let two = b.deck(0, "vanilla-2");
    let eight = b.deck(0, "vanilla-8");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.decks[0].as_slice(), g.tally.bottomed), (&[eight, two][..], 1));
}

#[test]
fn recover_takes_the_highest_card_of_the_pile() {
    let mut b = audit();
    b.up(0, "au-digger", 1);
    let three = b.card(0, "vanilla-3");
    let nine = b.card(0, "vanilla-9");
    let mut g = b.game();
    g.st.piles[0] = Stack::of(&[three, nine]);
    score_start(&mut g);
    assert_eq!((g.st.hands[0].as_slice(), g.st.piles[0].as_slice()), (&[nine][..], &[three][..]));
}

#[test]
fn a_draw_from_an_empty_deck_draws_nothing() {
    let mut b = audit();
    b.up(0, "au-drawer", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.hands[0].len(), g.tally.empty_draws), (0, 2));
}

#[test]
fn a_look_and_a_draw_of_one_deck_in_one_batch_conflict() {
    // Peeker (5) and Puller (5) act on P0's deck at one moment: whether the 8 is drawn depends on
    // which goes first, so both fizzle (as a draw and a discard of one player do).
    let mut b = audit();
    b.up(0, "au-peeker", 1);
    b.up(0, "au-puller", 2);
    let two = b.deck(0, "vanilla-2");
    let eight = b.deck(0, "vanilla-8");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.decks[0].as_slice(), g.st.hands[0].len()), (&[two, eight][..], 0));
    assert_eq!((g.tally.fizzles, g.tally.zone_conflicts), (2, 1));
}

#[test]
fn a_recover_and_a_discard_of_one_player_in_one_batch_conflict() {
    // Digger (5) takes P0's best pile card back, Tosser (5) makes P0 discard its highest: whether
    // the 9 comes back depends on the order, so both fizzle.
    let mut b = audit();
    b.up(0, "au-digger", 1);
    b.up(0, "au-tosser", 2);
    let nine = b.hand(0, "vanilla-9");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.hands[0].as_slice(), g.st.piles[0].len()), (&[nine][..], 0));
    assert_eq!((g.tally.fizzles, g.tally.zone_conflicts), (2, 1));
}

#[test]
fn a_return_to_a_hand_and_a_discard_from_it_in_one_batch_conflict() {
    // Returner (5) sends P0's 9 in S1 back to hand while Tosser (5) makes P0 discard its highest:
    // the 9 or the 2 goes to the pile depending on the order, so both fizzle.
    let mut b = audit();
    let nine = b.up(0, "vanilla-9", 1);
    b.up(0, "au-returner", 2);
    b.up(0, "au-tosser", 3);
    let two = b.hand(0, "vanilla-2");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[0][0], g.st.hands[0].as_slice()), (nine, &[two][..]));
    assert_eq!((g.tally.fizzles, g.tally.zone_conflicts), (2, 1));
}

#[test]
fn a_recover_and_a_destroy_into_that_pile_in_one_batch_conflict() {
    // Digger (5) recovers P0's best pile card while Fiver (5) destroys P0's 9: whether the 9
    // comes back depends on the order, so both fizzle.
    let mut b = audit();
    let nine = b.up(0, "vanilla-9", 1);
    b.up(0, "au-digger", 2);
    b.up(1, "au-fiver", 3);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[0][0], g.st.hands[0].len()), (nine, 0));
    assert_eq!((g.tally.fizzles, g.tally.zone_conflicts), (2, 1));
}

#[test]
fn two_shuffles_or_two_draws_of_one_deck_never_conflict() {
    // Two Pullers (5) draw for P0: both act, the two top cards in hand.
    let mut b = audit();
    b.up(0, "au-puller", 1);
    b.up(0, "au-puller", 2);
    for v in ["vanilla-1", "vanilla-2", "vanilla-3"] {
        b.deck(0, v);
    }
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.hands[0].len(), g.tally.fizzles, g.tally.zone_conflicts), (2, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// Rule-changing cards, scoring order, face-down values, control

#[test]
fn lower_wins_still_loses_to_nothing_and_win_ties_never_takes_two_empty_sides() {
    // Low in S1 against an empty side: Low takes it. Ties in S2 beside two empty sides of S3.
    let mut b = audit();
    b.up(0, "au-low", 1);
    b.up(1, "au-ties", 2);
    b.up(0, "vanilla-1", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.winner_of(0), Taken::Seat(0));
    assert_eq!((g.st.winner_of(1), g.st.winner_of(2)), (Taken::Seat(1), Taken::Nobody));
}

#[test]
fn a_slot_scored_ability_changes_the_next_slot_before_it_is_scored() {
    // Booster (1) in S1 loses to a 3, then gives your S2 card (a 2) +5: 7 beats the 6 there.
    let mut b = audit();
    b.up(0, "au-booster", 1);
    b.up(1, "vanilla-3", 1);
    b.up(0, "vanilla-2", 2);
    b.up(1, "vanilla-6", 2);
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!((g.st.taken[0], g.st.taken[1]), (Taken::Seat(1), Taken::Seat(0)));
}

#[test]
fn a_face_down_card_is_worth_its_counters_and_never_matches_a_printed_value() {
    // Plain Eye counters every card of printed value 0-9: the face-down 8 is not one of them.
    let mut b = audit();
    let down = b.down(1, "vanilla-8", 1);
    let up = b.up(0, "vanilla-2", 1);
    b.up(0, "au-plain-eye", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(down), g.st.value(up)), (0, 3));
    assert_eq!(g.st.winner_of(0), Taken::Seat(0));
}

#[test]
fn a_tie_given_by_a_swapped_card_goes_to_the_side_it_lies_on() {
    // P0's Ties (1) in S1 was swapped to P1's side before acting: the tie goes to P1.
    let mut b = audit();
    let ties = b.up(0, "au-ties", 1);
    let four = b.up(1, "vanilla-1", 1);
    let mut g = b.game();
    g.st.slots[0] = [four, ties];
    g.st.pos[ties as usize] = 1;
    g.st.pos[four as usize] = 0;
    score_start(&mut g);
    assert_eq!(g.st.winner_of(0), Taken::Seat(1));
}

#[test]
fn a_lasting_effect_stays_while_its_source_is_swapped_elsewhere_on_the_table() {
    // Stayer gives P1's 9 -2 while it stays; Exchanger swaps Stayer to P1's side of S2. It is
    // still face up on the table, so the 9 stays at 7 and nothing ends.
    let mut b = audit();
    let stayer = b.down(0, "au-stayer", 1);
    let nine = b.down(1, "vanilla-9", 1);
    let four = b.up(1, "vanilla-4", 2);
    b.up(0, "au-exchanger", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[stayer, nine], &mut Script::none());
    assert_eq!(g.st.value(nine), 7);
    score_start(&mut g);
    assert_eq!((g.st.slots[0][0], g.st.slots[1][1]), (four, stayer));
    assert_eq!((g.st.value(nine), g.tally.effects_ended, g.tally.control_changes), (7, 0, 2));
}

#[test]
fn a_source_hidden_by_an_earlier_step_loses_its_later_steps() {
    // Double Point (3) scores 1, then 1 more; Hider (3) hides it in the first step: the first
    // point stands (it touched no card), the second is lost with its hidden source.
    let mut b = audit();
    b.up(0, "au-double-point", 1);
    b.up(1, "au-hider", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.points, g.tally.lost_triggers, g.tally.fizzles), ([1, 0], 1, 0));
}

#[test]
fn a_value_taken_from_a_missing_card_changes_nothing() {
    // Copycat without an opposing card, Twin with nothing stacked under it: printed values.
    let mut b = audit();
    let cat = b.up(0, "au-copycat", 1);
    let twin = b.up(0, "au-twin", 2);
    b.up(1, "vanilla-5", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(cat), g.st.value(twin)), (2, 3));
}

#[test]
fn extra_points_given_before_scoring_count_in_the_lead() {
    // Bonus gives P0 a point at its reveal; at [SSCORE] Leader sees a lead of 1 and adds 5.
    let mut b = audit();
    let bonus = b.down(0, "au-bonus", 1);
    b.up(0, "au-leader", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[bonus], &mut Script::none());
    assert_eq!(g.st.points, [1, 0]);
    score_start(&mut g);
    assert_eq!(g.st.points, [6, 0]);
}

#[test]
fn a_card_placed_from_hand_by_an_effect_is_played() {
    // Rally Banner puts the 7 from P0's hand onto its place: the 7 was placed from hand this
    // round (the per-card `played`), as a turn's card is.
    let mut b = audit();
    let banner = b.down(0, "rally-banner", 2);
    let seven = b.hand(0, "vanilla-7");
    let mut g = b.game();
    g.reveal_for_tests(&[banner], &mut Script::none());
    assert_eq!(g.st.slots[1][0], seven);
    assert_eq!(g.st.placed >> seven & 1, 1);
}

#[test]
fn revealing_a_face_up_card_or_hiding_a_face_down_one_touches_nothing() {
    // Flash (2) reveals P1's 5, already face up, while Sapper (2) gives it -3: the reveal does
    // nothing, so nothing conflicts and the 5 is worth 2.
    let mut b = audit();
    b.up(0, "au-sapper", 1);
    let five = b.up(1, "vanilla-5", 1);
    b.up(0, "au-flash", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(five), g.tally.fizzles, g.tally.already_up), (2, 0, 1));
    // Dim (2) hides P1's face-down 5 while Sapper (2) gives it -3: the same.
    let mut b = audit();
    b.up(0, "au-sapper", 1);
    let five = b.down(1, "vanilla-5", 1);
    b.up(0, "au-dim", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(five), g.tally.fizzles), (-3, 0));
}

#[test]
fn a_slot_is_never_rescored_when_a_later_slot_changes_it() {
    // P1's 9 takes S1 from P0's 1. At S4's scoring Late Smash (P0) destroys that 9: S1 stays
    // P1's point (the rules' FAQ). S4: Late Smash 5 against a 2, P0's point.
    let mut b = audit();
    b.up(0, "vanilla-1", 1);
    let nine = b.up(1, "vanilla-9", 1);
    b.up(0, "au-late-smash", 4);
    b.up(1, "vanilla-2", 4);
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!(g.st.piles[1].as_slice(), [nine]);
    assert_eq!((g.st.taken[0], g.st.points), (Taken::Seat(1), [1, 1]));
}

#[test]
fn a_revealed_watcher_swapped_away_after_the_reveal_still_answers_it() {
    // One batch of 5s: Revealer (S5) turns up P1's S1 card, then Shifter (S6) swaps Lookout from
    // S1 to S3 (table order). Lookout lay opposite the card when it turned up: it answers, from
    // S3, with a -1 counter on that card.
    let mut b = audit();
    let lookout = b.up(0, "au-lookout", 1);
    let six = b.down(1, "vanilla-6", 1);
    b.up(0, "vanilla-3", 3);
    b.up(0, "au-revealer", 5);
    b.up(0, "au-shifter", 6);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.slots[2][0], lookout);
    assert_eq!((g.st.counters[six as usize], g.tally.watchers_moved), ([0, -1], 1));
    // Swapped first (Shifter in S4, before Revealer in S5): Lookout lay in S3 when the card
    // turned up, so it does not answer.
    let mut b = audit();
    b.up(0, "au-lookout", 1);
    let six = b.down(1, "vanilla-6", 1);
    b.up(0, "vanilla-3", 3);
    b.up(0, "au-shifter", 4);
    b.up(0, "au-revealer", 5);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.counters[six as usize], g.st.is_face_up(six)), ([0, 0], true));
}

#[test]
fn everything_a_round_put_on_the_table_ends_with_it() {
    // Counters, a round-long modifier, a lower-wins and a tie rule: a new round starts clean.
    let mut b = audit();
    let gift = b.down(0, "au-gift", 1);
    let five = b.down(1, "vanilla-5", 1);
    b.up(0, "au-low", 2);
    b.up(1, "au-ties", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[gift, five], &mut Script::none());
    g.st.counters[five as usize] = [2, -1];
    score_start(&mut g);
    assert_eq!((g.st.value(five), g.st.lower_wins, g.st.ties_to[2]), (9, 0b10, 1));
    let mut rng = crate::seed::GameSeed::new(1, 1).rng();
    g.st.start_round(&mut rng, &mut g.tally);
    assert!(g.st.timed.is_empty() && g.st.counters.iter().all(|c| *c == [0, 0]));
    assert_eq!((g.st.lower_wins, g.st.ties_to, g.st.pos[five as usize]), (0, [NONE; SLOTS], NONE));
}

#[test]
fn a_card_answering_two_events_of_one_moment_runs_its_abilities_once_per_event_in_turn() {
    // Echo (3) hears two cards turn up together. For the first: +1 counter (4), then 4 < 5, no
    // point; for the second: +1 counter (5), then a point. One point, value 5.
    let mut b = audit();
    let echo = b.up(0, "au-echo", 1);
    let one = b.down(0, "vanilla-1", 2);
    let two = b.down(1, "vanilla-2", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[one, two], &mut Script::none());
    assert_eq!((g.st.value(echo), g.st.points, g.tally.then_steps), (5, [1, 0], 3));
}

#[test]
fn a_cards_abilities_of_one_moment_follow_the_order_written_whatever_the_events_order() {
    // Herald (3) and the 6 opposite turn up together, the 6 first. Herald's own reveal ability
    // (written first: +2 counters, 5) runs before its watcher of the 6 (written second: 5, a point).
    let mut b = audit();
    let herald = b.down(0, "au-herald", 1);
    let six = b.down(1, "vanilla-6", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[six, herald], &mut Script::none());
    assert_eq!((g.st.value(herald), g.st.points), (5, [1, 0]));
}

#[test]
fn a_shuffle_and_a_draw_or_two_looks_of_one_deck_conflict_and_two_shuffles_do_not() {
    // Puller (5) draws for P0 while Mixer (5) shuffles P0's deck: which card is drawn depends on
    // the order, so both fizzle.
    let mut b = audit();
    b.up(0, "au-puller", 1);
    b.up(0, "au-mixer", 2);
    for v in ["vanilla-1", "vanilla-2", "vanilla-3"] {
        b.deck(0, v);
    }
    let mut g = b.game();
    let deck = g.st.decks[0];
    score_start(&mut g);
    assert_eq!((g.st.decks[0], g.tally.zone_conflicts, g.tally.fizzles), (deck, 1, 2));
    // Two Peekers: the second looks at what the first left on top, so they conflict.
    let mut b = audit();
    b.up(0, "au-peeker", 1);
    b.up(0, "au-peeker", 2);
    b.deck(0, "vanilla-9");
    b.deck(0, "vanilla-8");
    let mut g = b.game();
    let deck = g.st.decks[0];
    score_start(&mut g);
    assert_eq!((g.st.decks[0], g.tally.zone_conflicts), (deck, 1));
    // Two Mixers shuffle one after the other: both act (a shuffle of a shuffled deck).
    let mut b = audit();
    b.up(0, "au-mixer", 1);
    b.up(0, "au-mixer", 2);
    b.deck(0, "vanilla-1");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.tally.zone_conflicts, g.tally.fizzles), (0, 0));
}

#[test]
fn a_card_placed_face_down_after_its_slots_reveal_stays_face_down() {
    // At [SSCORE] Reserve puts P0's 7 face down on the 3 in S1: no reveal comes for it, so it is
    // worth 0, the side counts its 3, and P1's 5 takes the slot.
    let mut b = audit();
    let three = b.up(0, "vanilla-3", 1);
    b.up(1, "vanilla-5", 1);
    b.up(0, "au-reserve", 2);
    let seven = b.hand(0, "vanilla-7");
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!((g.st.slots[0][0], g.st.under[0][0].as_slice()), (seven, &[three][..]));
    assert!(!g.st.is_face_up(seven));
    assert_eq!((g.st.taken[0], g.tally.stacked_cards), (Taken::Seat(1), 1));
}
