//! The words of the format for stacked cards, values taken from other cards, multiplying, the
//! hand/deck/pile effects and their triggers, each on a hand-written table (with the sample set's
//! card for the word where it shows it), and the one-line refusals of their malformed uses.

use super::Script;
use super::abilities::{Bench, bench, play_turn, score_start};
use super::kit::*;
use crate::games::narrate::Silent;
use crate::games::slots::values::Ctx;
use crate::seed::shuffle;

/// Probes acting at [SSCORE] (so a test decides when), one word each.
const PROBES: &str = r#"
[[card]]
id = "oc-breaker"
name = "OC Breaker"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "destroy"
  target = "oc"

[[card]]
id = "oc-bouncer"
name = "OC Bouncer"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "return"
  target = "oc"

[[card]]
id = "unstacker"
name = "Unstacker"
rarity = "rare"
value = 8
  [[card.ability]]
  on = "score_start"
  effect = "return"
  target = "stacked"

[[card]]
id = "turncoat"
name = "Turncoat"
rarity = "rare"
value = 8
  [[card.ability]]
  on = "score_start"
  effect = "swap"
  a = "self"
  b = "oc"

[[card]]
id = "sender"
name = "Sender"
rarity = "rare"
value = 8
  [[card.ability]]
  on = "score_start"
  effect = "move"
  target = "self"
  slot = 9

[[card]]
id = "reinforcer"
name = "Reinforcer"
rarity = "rare"
value = 8
  [[card.ability]]
  on = "after_place"
  effect = "place"
  slot = 4
  pick = "highest"

[[card]]
id = "doubler"
name = "Doubler"
rarity = "rare"
value = 8
  [[card.ability]]
  on = "score_start"
  effect = "multiply"
  target = "oc"
  by = -2
"#;

fn table() -> Bench {
    bench(PROBES)
}

// ---------------------------------------------------------------------------------------------
// Stacks

#[test]
fn only_the_highest_card_of_each_side_scores_a_stacked_slot() {
    // The rules' FAQ: a 6 and a 7 stacked against an 8: the 8 takes the slot.
    let mut b = table();
    let six = b.up(0, "vanilla-6", 3);
    let seven = b.up(0, "vanilla-7", 3);
    b.up(1, "vanilla-8", 3);
    // A 9 under a 2 against a 5: the 9 counts, so seat 0 takes slot 4.
    b.up(0, "vanilla-9", 4);
    b.up(0, "vanilla-2", 4);
    b.up(1, "vanilla-5", 4);
    let mut g = b.game();
    assert_eq!((g.st.slots[2][0], g.st.under[2][0].as_slice()), (seven, &[six][..]), "the later card on top");
    assert_eq!((g.st.winner_of(2), g.st.winner_of(3)), (Taken::Seat(1), Taken::Seat(0)));
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!(g.tally.stack_scored, 1, "only slot 4's count came from under the top");
    assert_eq!(g.st.points, [1, 1]);
}

#[test]
fn a_card_placed_from_hand_onto_an_occupied_place_goes_on_top() {
    // Rally Banner (4) puts the highest hand card face up onto its own place: a 7 over it.
    let mut b = table();
    let banner = b.down(0, "rally-banner", 2);
    let five = b.down(1, "vanilla-5", 2);
    b.hand(0, "vanilla-3");
    let seven = b.hand(0, "vanilla-7");
    let mut g = b.game();
    g.reveal_for_tests(&[banner, five], &mut Script::none());
    assert_eq!((g.st.slots[1][0], g.st.under[1][0].as_slice()), (seven, &[banner][..]));
    assert!(g.st.is_face_up(seven) && g.st.is_covered(banner));
    assert_eq!((g.tally.stacked_cards, g.st.hands[0].len()), (1, 1));
    assert_eq!(g.st.winner_of(1), Taken::Seat(0), "7 against 5");
    // Seen from the other side, `oc` names the top card.
    let ctx = Ctx { source: five, slot: 1, side: 1, event: None };
    assert_eq!(g.st.opposing(&ctx), seven);
}

#[test]
fn destroying_or_returning_a_top_card_uncovers_the_card_under_it() {
    let mut b = table();
    let three = b.up(0, "vanilla-3", 1);
    let eight = b.up(0, "vanilla-8", 1);
    b.up(1, "oc-breaker", 1);
    let four = b.up(0, "vanilla-4", 2);
    let six = b.up(0, "vanilla-6", 2);
    b.up(1, "oc-bouncer", 2);
    let mut g = b.game();
    score_start(&mut g);
    // Only the named card goes; the card under it becomes the top and stays where it was.
    assert_eq!((g.st.slots[0][0], g.st.slots[1][0]), (three, four));
    assert!(g.st.under[0][0].is_empty() && g.st.under[1][0].is_empty());
    assert_eq!((g.st.piles[0].as_slice(), g.st.hands[0].as_slice()), (&[eight][..], &[six][..]));
    assert_eq!((g.tally.uncovered, g.st.is_face_up(three)), (2, true));
}

#[test]
fn stacked_names_the_other_cards_of_the_sources_place() {
    // Unstacker returns the cards under it, not itself, not the opposing card.
    let mut b = table();
    let two = b.up(0, "vanilla-2", 5);
    let three = b.up(0, "vanilla-3", 5);
    let un = b.up(0, "unstacker", 5);
    let oc = b.up(1, "vanilla-5", 5);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[5 - 1], g.st.depth(4, 0)), ([un, oc], 1));
    assert_eq!(g.st.hands[0].as_slice(), &[two, three]);
    assert_eq!(g.tally.uncovered, 0, "the top never left");
    // Shield Wall (static): +1 for each card stacked with it, under it or over it.
    let mut b = table();
    let wall = b.up(0, "shield-wall", 3);
    let g = b.game();
    assert_eq!(g.st.value(wall), 5);
    let mut b = table();
    b.up(0, "vanilla-1", 3);
    let wall = b.up(0, "shield-wall", 3);
    b.up(0, "vanilla-1", 3);
    let g = b.game();
    assert_eq!(g.st.value(wall), 5 + 2);
    // An aura over several slots reaches every card of their places: Hearth Guard's +1 to your
    // adjacent cards lifts the 4 on top and the 6 under it.
    let mut b = table();
    b.up(0, "hearth-guard", 2);
    let six = b.up(0, "vanilla-6", 3);
    let four = b.up(0, "vanilla-4", 3);
    let g = b.game();
    assert_eq!((g.st.value(four), g.st.value(six)), (5, 7));
}

#[test]
fn a_swap_moves_only_the_named_card_and_the_stacks_stay() {
    // Turncoat, on top of a 4 in S1, swaps with P1's 9: the 9 lands on the 4, Turncoat alone.
    let mut b = table();
    let four = b.up(0, "vanilla-4", 1);
    let coat = b.up(0, "turncoat", 1);
    let nine = b.up(1, "vanilla-9", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.slots[0], [nine, coat]);
    assert_eq!((g.st.under[0][0].as_slice(), g.st.pos[four as usize]), (&[four][..], 0));
    assert_eq!((g.tally.stack_swaps, g.tally.control_changes), (1, 2));
}

#[test]
fn move_puts_a_card_onto_another_slot_only_once_its_turn_has_come_and_never_past_four() {
    // Muster moves P0's card in the slot before it onto its own place.
    let mut b = table();
    let six = b.up(0, "vanilla-6", 2);
    let muster = b.down(0, "muster", 3);
    let five = b.down(1, "vanilla-5", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[muster, five], &mut Script::none());
    assert_eq!((g.st.slots[1][0], g.st.slots[2][0]), (NONE, six));
    assert_eq!((g.st.under[2][0].as_slice(), g.tally.stacked_cards), (&[muster][..], 1));
    assert_eq!(g.st.pos[six as usize] as usize, 2 * SEATS);
    // Sender moves itself to slot 9: refused while slot 9's turn has not come, and onto a full
    // place; accepted once it is in play with room.
    let mut b = table();
    let sender = b.up(0, "sender", 1);
    let mut g = b.game();
    g.st.in_play = 1;
    score_start(&mut g);
    assert_eq!((g.st.pos[sender as usize], g.tally.place_refused), (0, 1));
    let mut b = table();
    let sender = b.up(0, "sender", 1);
    for _ in 0..MAX_STACK {
        b.up(0, "vanilla-1", 9);
    }
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.pos[sender as usize], g.tally.place_refused), (0, 1), "a full place");
    let mut b = table();
    let sender = b.up(0, "sender", 1);
    b.up(0, "vanilla-1", 9);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[8][0], g.st.slots[0][0], g.tally.stacked_cards), (sender, NONE, 1));
}

#[test]
fn the_turns_reveal_turns_up_the_placed_cards_only() {
    let mut b = table();
    for seat in 0..SEATS {
        b.hand(seat, "vanilla-2");
        b.hand(seat, "vanilla-1");
    }
    let mut g = b.game();
    g.st.turn = 4;
    play_turn(&mut g);
    assert!(g.st.is_face_up(g.st.slots[3][0]));
    // Reinforcer, at [P], puts P0's highest hand card face down onto slot 4, over the turn's 2:
    // the reveal turns up the 2 the player placed; the 9 stays face down.
    let mut b = table();
    b.up(0, "reinforcer", 1);
    let two = b.hand(0, "vanilla-2");
    let nine = b.hand(0, "vanilla-9");
    b.hand(0, "vanilla-1");
    b.hand(1, "vanilla-3");
    b.hand(1, "vanilla-1");
    let mut g = b.game();
    g.st.turn = 4;
    play_turn(&mut g);
    assert_eq!((g.st.slots[3][0], g.st.under[3][0].as_slice()), (nine, &[two][..]));
    assert!(g.st.is_face_up(two) && !g.st.is_face_up(nine));
    assert_eq!((g.tally.stacked_cards, g.tally.already_up), (1, 0));
}

// ---------------------------------------------------------------------------------------------
// Values from other cards, multiplying

#[test]
fn set_takes_its_value_from_the_opposing_card_the_hand_or_the_stack() {
    let mut b = table();
    let mirror = b.down(0, "mirror-image", 1);
    let eight = b.down(1, "vanilla-8", 1);
    let reserve = b.down(0, "hidden-reserve", 2);
    b.hand(0, "vanilla-3");
    b.hand(0, "vanilla-7");
    b.hand(1, "vanilla-9");
    let mut g = b.game();
    g.reveal_for_tests(&[mirror, eight, reserve], &mut Script::none());
    assert_eq!((g.st.value(mirror), g.st.value(reserve)), (8, 7), "the 9 is the opponent's");
    // Without the card to read, nothing is set.
    let mut b = table();
    let mirror = b.down(0, "mirror-image", 1);
    let reserve = b.down(0, "hidden-reserve", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[mirror, reserve], &mut Script::none());
    assert_eq!((g.st.value(mirror), g.st.value(reserve), g.st.timed.len()), (3, 2, 0));
    // Echo Shell at [SSCORE]: the highest value stacked with it.
    let mut b = table();
    b.up(0, "vanilla-6", 7);
    b.up(0, "vanilla-4", 7);
    let shell = b.up(0, "echo-shell", 7);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.value(shell), 6);
}

#[test]
fn multiply_acts_after_every_addition_by_a_number_or_a_stacked_value() {
    // Twin Flame (2) with a +1 counter, opposed: (2 + 1) x 2.
    let mut b = table();
    let flame = b.down(0, "twin-flame", 1);
    let five = b.down(1, "vanilla-5", 1);
    let mut g = b.game();
    g.st.counters[flame as usize] = [1, 0];
    g.reveal_for_tests(&[flame, five], &mut Script::none());
    assert_eq!(g.st.value(flame), 6);
    g.st.counters[flame as usize] = [2, 0];
    assert_eq!(g.st.value(flame), 8, "a later counter is multiplied too");
    // Unopposed, its condition fails.
    let mut b = table();
    let flame = b.down(0, "twin-flame", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[flame], &mut Script::none());
    assert_eq!(g.st.value(flame), 2);
    // Resonator (1) on a 7 and a 3: x 7; alone: nothing happens.
    let mut b = table();
    b.up(1, "vanilla-7", 4);
    b.up(1, "vanilla-3", 4);
    let res = b.up(1, "resonator", 4);
    let lone = b.up(0, "resonator", 5);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.value(res), g.st.value(lone)), (7, 1));
    // A negative factor: Doubler makes its OC's 4 worth -8.
    let mut b = table();
    b.up(0, "doubler", 6);
    let four = b.up(1, "vanilla-4", 6);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.value(four), -8);
}

// ---------------------------------------------------------------------------------------------
// Triggers

#[test]
fn a_placed_watcher_answers_the_opponents_placements_only() {
    let mut b = table();
    let tower = b.up(0, "watchtower", 1);
    for seat in 0..SEATS {
        b.hand(seat, "vanilla-2");
        b.hand(seat, "vanilla-1");
    }
    let mut g = b.game();
    g.st.turn = 2;
    play_turn(&mut g);
    assert_eq!(g.st.counter_sum(tower), 1, "P1's placement, not P0's own");
}

#[test]
fn drawn_acts_once_per_card_its_controller_draws() {
    // Scholar: the turn's draw (1), then two more by an effect at [SSCORE]; P1's draws are not its.
    let probe = "\n[[card]]\nid = \"draw-two\"\nname = \"Draw Two\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"draw\"\n  player = \"both\"\n  amount = 2\n";
    let mut b = bench(&format!("{PROBES}{probe}"));
    let scholar = b.up(0, "scholar", 1);
    b.up(1, "draw-two", 2);
    for seat in 0..SEATS {
        b.hand(seat, "vanilla-2");
        b.hand(seat, "vanilla-1");
        for _ in 0..4 {
            b.deck(seat, "vanilla-1");
        }
    }
    let mut g = b.game();
    g.st.turn = 3;
    play_turn(&mut g);
    assert_eq!(g.st.counter_sum(scholar), 1);
    score_start(&mut g);
    assert_eq!(g.st.counter_sum(scholar), 3);
}

#[test]
fn discarded_acts_once_per_card_its_controller_discards() {
    // Pyre discards its controller's lowest card, then draws one for it.
    let mut b = table();
    let pyre = b.down(0, "pyre", 1);
    let one = b.hand(0, "vanilla-1");
    b.hand(0, "vanilla-6");
    let top = b.deck(0, "vanilla-8");
    let mut g = b.game();
    g.reveal_for_tests(&[pyre], &mut Script::none());
    assert_eq!(g.st.piles[0].as_slice(), &[one]);
    assert_eq!((g.st.hands[0].len(), g.st.hands[0].as_slice().contains(&top)), (2, true));
}

#[test]
fn slot_lost_acts_when_the_opponent_takes_the_slot_only() {
    let mut b = table();
    b.up(0, "consolation", 1);
    b.up(1, "vanilla-9", 1);
    b.up(0, "consolation", 2);
    b.up(1, "vanilla-1", 2);
    b.up(0, "consolation", 3);
    b.up(1, "vanilla-2", 3);
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    // S1 lost (+1 from the card), S2 won, S3 tied: 1 + 1 for seat 0, 1 for seat 1.
    assert_eq!(g.st.points, [2, 1]);
}

// ---------------------------------------------------------------------------------------------
// Deck, hand and pile

#[test]
fn look_puts_a_low_top_card_on_the_bottom_and_leaves_a_high_one() {
    let mut b = table();
    let seer = b.down(0, "seer", 1);
    let bottom = b.deck(0, "vanilla-9");
    let low = b.deck(0, "vanilla-3");
    let mut g = b.game();
    g.reveal_for_tests(&[seer], &mut Script::none());
    assert_eq!((g.st.decks[0].as_slice(), g.tally.bottomed), (&[low, bottom][..], 1));
    // Now the 9 is on top: it stays.
    g.st.turn_down(seer);
    g.reveal_for_tests(&[seer], &mut Script::none());
    assert_eq!((g.st.decks[0].as_slice(), g.tally.bottomed), (&[low, bottom][..], 1));
}

#[test]
fn recover_takes_the_highest_card_of_the_pile_into_the_hand() {
    let mut b = table();
    let exhumer = b.down(0, "exhumer", 1);
    let two = b.card(0, "vanilla-2");
    let eight = b.card(0, "vanilla-8");
    let mut g = b.game();
    g.st.piles[0] = Stack::of(&[two, eight]);
    g.reveal_for_tests(&[exhumer], &mut Script::none());
    assert_eq!((g.st.hands[0].as_slice(), g.st.piles[0].as_slice()), (&[eight][..], &[two][..]));
}

#[test]
fn shuffle_reorders_decks_from_the_games_chance_stream() {
    let mut b = table();
    let imp = b.down(0, "chaos-imp", 1);
    for seat in 0..SEATS {
        for v in 1..=9 {
            b.deck(seat, &format!("vanilla-{v}"));
        }
    }
    let mut g = b.game();
    let mut want = g.st.decks;
    let mut chance = g.chance.clone();
    for deck in &mut want {
        shuffle(&mut chance, deck.as_mut_slice());
    }
    let before = g.st.decks;
    g.reveal_for_tests(&[imp], &mut Script::none());
    assert_eq!(g.st.decks, want, "seat 0's deck, then seat 1's, from the chance stream");
    assert_ne!(g.st.decks, before);
}

// ---------------------------------------------------------------------------------------------
// Spelled, and refused when malformed

fn sentence_of(id: &str) -> Vec<String> {
    let b = bench("");
    let set = b.st.set.as_ref().expect("a set");
    let d = set.designs.iter().position(|d| d.id == id).expect("a sample design");
    set.abilities_of(d as u16).iter().map(crate::games::slots::spell::sentence).collect()
}

#[test]
fn the_new_words_are_spelled_as_sentences() {
    let cases = [
        (
            "rally-banner",
            "When revealed: you put a card from hand with the highest printed value face up onto your side of this slot.",
        ),
        (
            "muster",
            "When revealed: move a card of yours in the slot before this one onto its side of this slot.",
        ),
        (
            "shield-wall",
            "While face up on the table: this card gets +1 for each of the cards stacked with this card.",
        ),
        (
            "twin-flame",
            "When revealed if a card opposes it: multiply the value of this card by 2 this round.",
        ),
        (
            "resonator",
            "At the start of scoring: multiply the value of this card by the highest value among the cards stacked with this card this round.",
        ),
        ("mirror-image", "When revealed: set this card to the opposing card's value this round."),
        (
            "hidden-reserve",
            "When revealed: set this card to the highest printed value in your hand this round.",
        ),
        ("watchtower", "When a card of your opponent is placed from a hand: put a +1 counter on this card."),
        ("scholar", "Each time you draw a card: put a +1 counter on this card."),
        ("consolation", "When your opponent takes this card's slot: you get +1 point."),
        (
            "seer",
            "When revealed: look at the top card of your deck and put it on the bottom if its printed value is 4 or less, else back.",
        ),
        (
            "exhumer",
            "When revealed: you take 1 card with the highest printed value from your pile into your hand.",
        ),
        ("chaos-imp", "When revealed: each player shuffles their deck."),
    ];
    for (id, want) in cases {
        assert_eq!(sentence_of(id), [want.to_string()], "{id}");
    }
    assert_eq!(sentence_of("pyre")[1], "Each time you discard a card: you draw 1 card.");
}

#[test]
fn malformed_uses_of_the_new_words_are_refused_in_one_line() {
    let head = "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 3\n  [[card.ability]]\n";
    let cases = [
        ("effect = \"multiply\"\ntarget = \"self\"\nby = 1", "ability[1].by': 1 does nothing"),
        (
            "effect = \"multiply\"\ntarget = \"self\"\nby = \"oc\"",
            "ability[1].by': unknown value 'oc' (allowed: stacked)",
        ),
        (
            "effect = \"multiply\"\ntarget = \"self\"\nby = 10",
            "ability[1].by': out of range: allowed -9 to 9",
        ),
        ("effect = \"multiply\"\ntarget = \"self\"", "ability[1].by': missing"),
        (
            "effect = \"set\"\ntarget = \"self\"\nto = \"highest\"",
            "ability[1].to': unknown value 'highest' (allowed: oc, hand_highest, stacked)",
        ),
        ("effect = \"move\"\ntarget = \"mine\"\nslot = 3", "ability[1].target': a move takes one card"),
        ("effect = \"move\"\ntarget = \"self\"", "ability[1].slot': missing"),
        (
            "effect = \"move\"\ntarget = \"self\"\nslot = \"next\"",
            "ability[1].slot': 'next' is not a slot: allowed 1 to 9 or \"this\"",
        ),
        ("effect = \"place\"\nslot = 10", "ability[1].slot': out of range: allowed 1 to 9"),
        (
            "effect = \"place\"\nface = \"sideways\"",
            "ability[1].face': unknown value 'sideways' (allowed: down, up)",
        ),
        ("effect = \"draw\"\nface = \"up\"", "ability[1].face': not a parameter of effect 'draw'"),
        ("effect = \"look\"", "ability[1].bottom': missing"),
        ("effect = \"look\"\nbottom = \"low\"", "ability[1].bottom': 'low' is not a comparison"),
        (
            "effect = \"recover\"\npick = \"choose\"",
            "ability[1].pick': unknown value 'choose' (allowed: highest, lowest, random)",
        ),
        ("effect = \"shuffle\"\namount = 2", "ability[1].amount': not a parameter of effect 'shuffle'"),
        ("on = \"drawn\"\nwatch = \"mine\"\neffect = \"draw\"", "ability[1].watch'"),
        (
            "effect = \"destroy\"\ntarget = { zone = \"hand\" }",
            "ability[1].target.zone': a zone is only counted",
        ),
        (
            "effect = \"swap\"\na = \"self\"\nb = \"stacked\"",
            "ability[1].b': a swap needs one card on each side",
        ),
    ];
    for (body, want) in cases {
        let err = parse("t.toml", &format!("{head}{body}\n")).expect_err(body);
        assert!(err.contains(want), "{body}\n  gave: {err}\n  want: {want}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
}
