//! The Card Wars rulings settled while balancing card sets (`docs/rules/slots.md`, "Rulings
//! settled while balancing"): one hand-built position per ruling, each asserting exactly what
//! happens, and each failing under the other reading of its ruling.

use super::Script;
use super::abilities::{bench, score_start};
use super::kit::*;
use crate::games::narrate::Silent;
use crate::seed::GameSeed;

/// A rare of value `value` named `id` with the abilities `abilities` (TOML `[[card.ability]]`
/// tables, each a list of `key = value` lines).
fn design(id: &str, value: u8, abilities: &[&str]) -> String {
    let mut text =
        format!("\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = {value}\n");
    for a in abilities {
        text.push_str("  [[card.ability]]\n");
        for line in a.lines() {
            text.push_str(&format!("  {}\n", line.trim()));
        }
    }
    text
}

fn rng() -> crate::seed::GameRng {
    GameSeed::new(3, 3).rng()
}

// ---------------------------------------------------------------------------------------------
// 1. Effects end with their source

#[test]
fn a_round_modifier_ends_when_its_source_turns_down_or_leaves_and_its_counter_stays() {
    // Each booster gives its opposing card +3 for the round and a +1 counter. At [SSCORE] the
    // sweeper hides the booster of S2 and destroys the one of S3: both +3 end with their source,
    // the counters stay.
    let cards = design(
        "booster",
        2,
        &[
            "effect = \"modify\"\ntarget = \"oc\"\namount = 3",
            "effect = \"counter\"\ntarget = \"oc\"\namount = 1",
        ],
    ) + &design(
        "sweeper",
        4,
        &[
            "on = \"score_start\"\neffect = \"hide\"\ntarget = { side = \"opp\", slots = 2 }",
            "on = \"score_start\"\neffect = \"destroy\"\ntarget = { side = \"opp\", slots = 3 }",
        ],
    );
    let mut b = bench(&cards);
    let hidden = b.down(0, "booster", 2);
    let five = b.down(1, "vanilla-5", 2);
    let destroyed = b.down(0, "booster", 3);
    let six = b.down(1, "vanilla-6", 3);
    b.up(1, "sweeper", 6);
    let mut g = b.game();
    g.reveal_for_tests(&[hidden, five, destroyed, six], &mut Script::none());
    assert_eq!((g.st.value(five), g.st.value(six)), (5 + 3 + 1, 6 + 3 + 1));
    score_start(&mut g);
    assert!(!g.st.is_face_up(hidden) && !g.st.on_table(destroyed));
    assert_eq!((g.st.value(five), g.st.value(six)), (5 + 1, 6 + 1), "the +3s went, the counters stayed");
    assert_eq!(g.tally.effects_ended, 2);
    // Turned up again, the hidden booster starts fresh effects: the old +3 never returns.
    g.reveal_for_tests(&[hidden], &mut Script::none());
    assert_eq!(g.st.value(five), 5 + 3 + 2);
}

// ---------------------------------------------------------------------------------------------
// 2. Watchers revealed together

#[test]
fn watchers_revealed_together_hear_the_other_cards_reveal_and_their_own_when_their_watch_takes_it_in() {
    // S4: P0's all-ears (watch = "all") and P1's ears (no watch: any other card) turn up in one
    // reveal. All-ears hears both reveals, its own included; ears hears all-ears' alone.
    let cards =
        design(
            "all-ears",
            3,
            &["on = \"revealed\"\nwatch = \"all\"\neffect = \"counter\"\ntarget = \"self\"\namount = 1"],
        ) + &design("ears", 6, &["on = \"revealed\"\neffect = \"counter\"\ntarget = \"self\"\namount = 1"]);
    let mut b = bench(&cards);
    let all_ears = b.down(0, "all-ears", 4);
    let ears = b.down(1, "ears", 4);
    let mut g = b.game();
    g.reveal_for_tests(&[all_ears, ears], &mut Script::none());
    assert_eq!((g.st.counter_sum(all_ears), g.st.counter_sum(ears)), (2, 1));
    // A lone card turned up later: both face up, both hear it once.
    let mut b = bench(&cards);
    let all_ears = b.up(0, "all-ears", 4);
    let ears = b.up(1, "ears", 4);
    let five = b.down(1, "vanilla-5", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[five], &mut Script::none());
    assert_eq!((g.st.counter_sum(all_ears), g.st.counter_sum(ears)), (1, 1));
}

// ---------------------------------------------------------------------------------------------
// 3. Cascade depth

#[test]
fn a_cascade_resolves_eight_moments_the_first_being_the_phases_own_and_cuts_the_ninth() {
    // Strobe answers every other card turned up by hiding it and turning it up again, so each
    // reveal of P1's 4 makes the next moment; the counter-man puts a counter on itself at each
    // reveal it hears, one per moment.
    let cards = design(
        "counter-man",
        6,
        &[
            "on = \"revealed\"\nwatch = { side = \"opp\" }\neffect = \"counter\"\ntarget = \"self\"\namount = 1",
        ],
    ) + &design(
        "flasher",
        2,
        &["on = \"score_start\"\neffect = \"reveal\"\ntarget = { side = \"opp\", face = \"down\" }"],
    );
    // The turn's reveal is the first moment: eight moments hear a reveal, the ninth is cut.
    let mut b = bench(&cards);
    b.up(0, "strobe", 1);
    let man = b.up(0, "counter-man", 2);
    let four = b.down(1, "vanilla-4", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[four], &mut Script::none());
    assert_eq!(MAX_MOMENTS, 8);
    assert_eq!(g.st.counter_sum(man), 8);
    assert_eq!((g.tally.re_reveals, g.tally.cascade_cut), (8, 1));
    // [SSCORE] is the first moment of its cascade: the flasher turns the 4 up there, so seven
    // reveals are heard, in moments 2 to 8.
    let mut b = bench(&cards);
    b.up(0, "strobe", 1);
    let man = b.up(0, "counter-man", 2);
    b.up(0, "flasher", 3);
    b.down(1, "vanilla-4", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.counter_sum(man), 7);
    assert_eq!((g.tally.re_reveals, g.tally.cascade_cut), (7, 1));
}

// ---------------------------------------------------------------------------------------------
// 4. Future turn order

#[test]
fn with_the_draw_first_the_turn_start_moment_comes_before_the_turns_draw() {
    // P0's counter scores a point per card in P0's hand at [BT]. Turn 3 is played with two
    // cards in each hand; turn 4's [BT] sees P0's one card left, then the turn's draw makes two.
    let cards = design(
        "hand-counter",
        5,
        &[
            "on = \"turn_start\"\neffect = \"points\"\nplayer = \"you\"\namount = 1\nper = { zone = \"hand\", side = \"you\" }",
        ],
    );
    let mut b = bench(&cards);
    b.up(0, "hand-counter", 1);
    b.up(1, "vanilla-1", 1);
    for (seat, names) in [(0, ["vanilla-5", "vanilla-6"]), (1, ["vanilla-4", "vanilla-3"])] {
        for name in names {
            b.hand(seat, name);
        }
        for name in ["vanilla-2", "vanilla-7"] {
            b.deck(seat, name);
        }
    }
    let mut g = b.game();
    g.st.turn = 3;
    g.st.draw_first = true;
    g.stop_at_turn();
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.st.turn, g.next()), (4, Next::Place(0)));
    assert_eq!(g.st.points[0], 1, "[BT] counted the hand before the draw");
    assert_eq!(g.st.hands[0].len(), 2);
}

// ---------------------------------------------------------------------------------------------
// 5. The reveal phase

#[test]
fn the_reveal_turns_up_the_turns_placed_cards_and_not_a_card_an_effect_put_into_the_slot() {
    // Turn 3: at [P] the stacker (P0, S1) puts P0's highest hand card face down onto P0's side
    // of S3, over the card P0 placed. The reveal turns up the placed 2 (now covered) and P1's 4;
    // the 7 the effect put there stays face down.
    let cards = design(
        "stacker",
        3,
        &["on = \"after_place\"\neffect = \"place\"\nplayer = \"you\"\nslot = 3\npick = \"highest\""],
    );
    let mut b = bench(&cards);
    b.up(0, "stacker", 1);
    b.up(1, "vanilla-1", 1);
    let two = b.hand(0, "vanilla-2");
    let seven = b.hand(0, "vanilla-7");
    b.hand(0, "vanilla-1");
    let four = b.hand(1, "vanilla-4");
    b.hand(1, "vanilla-3");
    let mut g = b.game();
    g.st.turn = 3;
    g.stop_at_turn();
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!(g.st.turn, 4);
    assert_eq!((g.st.slots[2][0], g.st.under[2][0].as_slice()), (seven, &[two][..]));
    assert_eq!(g.tally.stacked_cards, 1);
    assert!(g.st.is_face_up(two) && g.st.is_face_up(four));
    assert!(!g.st.is_face_up(seven), "the card the effect placed stays face down");
    // P0's side counts its highest card: the 2 (the 7 is worth 0 face down) against the 4.
    assert_eq!(g.st.winner_of(2), Taken::Seat(1));
}

// ---------------------------------------------------------------------------------------------
// 6. Whole-side selectors

#[test]
fn selectors_over_a_whole_side_reach_covered_cards_and_one_naming_a_slots_card_reads_its_top() {
    // P1's S2 holds a 2 covered by an 8; S3 a 2 alone. At [SSCORE] the prober gives every 2 of
    // the opponent's a -1 counter (both 2s, the covered one too) and the card of the opposing
    // S2 a +5 counter (the top, the 8, only); the aura takes 1 from each of the opponent's 2s
    // while it is face up, covered or not.
    let cards = design(
        "prober",
        9,
        &[
            "on = \"score_start\"\neffect = \"counter\"\ntarget = { side = \"opp\", printed = 2 }\namount = -1",
            "on = \"score_start\"\neffect = \"counter\"\ntarget = { side = \"opp\", slots = 2 }\namount = 5",
        ],
    ) + &design(
        "aura",
        1,
        &["on = \"static\"\neffect = \"modify\"\ntarget = { side = \"opp\", printed = 2 }\namount = -1"],
    );
    let mut b = bench(&cards);
    let covered = b.up(1, "vanilla-2", 2);
    let eight = b.up(1, "vanilla-8", 2);
    let alone = b.up(1, "vanilla-2", 3);
    b.up(0, "prober", 5);
    b.up(0, "aura", 6);
    let mut g = b.game();
    assert!(g.st.is_covered(covered));
    assert_eq!((g.st.value(covered), g.st.value(alone), g.st.value(eight)), (1, 1, 8));
    score_start(&mut g);
    assert_eq!((g.st.counter_sum(covered), g.st.counter_sum(alone), g.st.counter_sum(eight)), (-1, -1, 5));
    assert_eq!((g.st.value(covered), g.st.value(alone), g.st.value(eight)), (0, 0, 13));
}

// ---------------------------------------------------------------------------------------------
// 7. Hand, deck and pile conflicts

#[test]
fn two_instances_conflict_when_their_order_would_change_a_hand_deck_or_pile() {
    // Two cards of printed value 5 act at [SSCORE] for P0, each doing one thing to P0's hand,
    // deck or pile. A pair whose order would change what a zone holds fizzles (both instances,
    // one zone conflict); a pair that commutes applies.
    let effects = [
        ("draw", "effect = \"draw\"\nplayer = \"you\""),
        ("discard", "effect = \"discard\"\nplayer = \"you\"\npick = \"lowest\""),
        ("recover", "effect = \"recover\"\nplayer = \"you\""),
        ("return", "effect = \"return\"\ntarget = { side = \"you\", slots = 3 }"),
        ("place", "effect = \"place\"\nplayer = \"you\"\npick = \"lowest\""),
        ("look", "effect = \"look\"\nplayer = \"you\"\nbottom = \">=1\""),
        ("shuffle", "effect = \"shuffle\"\nplayer = \"you\""),
        ("destroy", "effect = \"destroy\"\ntarget = { side = \"you\", slots = 4 }"),
    ];
    let cases = [
        ("draw", "discard", true),
        ("recover", "discard", true),
        ("return", "discard", true),
        ("return", "place", true),
        ("draw", "place", true),
        ("look", "draw", true),
        ("look", "look", true),
        ("shuffle", "draw", true),
        ("look", "shuffle", true),
        ("recover", "destroy", true),
        ("draw", "draw", false),
        ("discard", "discard", false),
        ("recover", "recover", false),
        ("shuffle", "shuffle", false),
        ("discard", "place", false),
        ("draw", "return", false),
        ("draw", "destroy", false),
    ];
    let text = |name: &str| effects.iter().find(|e| e.0 == name).expect("an effect").1;
    for (a, b_name, conflict) in cases {
        let cards = design("a", 5, &[&format!("on = \"score_start\"\n{}", text(a))])
            + &design("b", 5, &[&format!("on = \"score_start\"\n{}", text(b_name))]);
        let mut b = bench(&cards);
        b.up(0, "a", 1);
        b.up(0, "b", 2);
        b.up(0, "vanilla-3", 3);
        b.up(0, "vanilla-4", 4);
        for name in ["vanilla-1", "vanilla-6"] {
            b.hand(0, name);
        }
        for name in ["vanilla-2", "vanilla-7", "vanilla-8"] {
            b.deck(0, name);
        }
        let pile = b.card(0, "vanilla-9");
        b.st.piles[0].push(pile);
        let mut g = b.game();
        score_start(&mut g);
        let want = if conflict { (2, 1) } else { (0, 0) };
        assert_eq!((g.tally.fizzles, g.tally.zone_conflicts), want, "{a} and {b_name}");
    }
}

// ---------------------------------------------------------------------------------------------
// 8. Sets

#[test]
fn the_latest_set_in_force_gives_the_base_and_when_it_ends_the_one_before_applies_again() {
    // Three setters turn up one after another, each setting P1's 5 in S4: to 7, to 2, to 4. The
    // latest in force gives the base; ending the middle one changes nothing, ending the latest
    // brings back the first, ending that one the printed value.
    let setter = |id: &str, to: i32| {
        design(id, 3, &[&format!("effect = \"set\"\ntarget = {{ side = \"opp\", slots = 4 }}\nto = {to}")])
    };
    let cards = setter("set-7", 7) + &setter("set-2", 2) + &setter("set-4", 4);
    let mut b = bench(&cards);
    let five = b.up(1, "vanilla-5", 4);
    let set7 = b.down(0, "set-7", 1);
    let set2 = b.down(0, "set-2", 2);
    let set4 = b.down(0, "set-4", 3);
    let mut g = b.game();
    for (setter, value) in [(set7, 7), (set2, 2), (set4, 4)] {
        g.reveal_for_tests(&[setter], &mut Script::none());
        assert_eq!(g.st.value(five), value);
    }
    g.st.counters[five as usize] = [1, 0];
    for (setter, value) in [(set2, 4), (set4, 7), (set7, 5)] {
        g.st.turn_down(setter);
        assert_eq!(g.st.value(five), value + 1, "a counter still adds");
    }
}

// ---------------------------------------------------------------------------------------------
// What the rulings needed decided around them

#[test]
fn a_round_effect_of_last_words_lasts_the_round_and_a_source_one_never_starts() {
    // The parting gift, destroyed at [SSCORE], gives P0's card in S3 +2 from the pile: for the
    // round (its source has already left, nothing ends it), or while it stays (never).
    for (duration, value) in [("round", 7), ("source", 5)] {
        let cards = design(
            "parting-gift",
            2,
            &[&format!(
                "on = \"destroyed\"\neffect = \"modify\"\ntarget = {{ side = \"you\", slots = 3 }}\namount = 2\nduration = \"{duration}\""
            )],
        ) + &design(
            "smasher",
            4,
            &["on = \"score_start\"\neffect = \"destroy\"\ntarget = { side = \"opp\", slots = 2 }"],
        );
        let mut b = bench(&cards);
        let gift = b.up(0, "parting-gift", 2);
        let five = b.up(0, "vanilla-5", 3);
        b.up(1, "smasher", 4);
        let mut g = b.game();
        score_start(&mut g);
        assert!(!g.st.on_table(gift));
        assert_eq!((g.st.value(five), g.tally.effects_ended), (value, 0), "{duration}");
    }
}

#[test]
fn a_choose_over_a_whole_side_offers_each_card_of_a_stack_at_its_place() {
    // P1's S2 holds a 2 covered by an 8. The picker chooses two of P1's cards for a -1 counter:
    // the place S2/P1 (3) is offered once per card lying there; chosen twice, it takes both
    // cards, the top first; chosen once, the top.
    let cards = design(
        "picker",
        9,
        &[
            "on = \"score_start\"\neffect = \"counter\"\ntarget = { side = \"opp\", pick = \"choose\", n = 2 }\namount = -1",
        ],
    );
    for (chosen, counters) in [(vec![3, 3], (-1, -1)), (vec![3], (0, -1))] {
        let mut b = bench(&cards);
        let two = b.up(1, "vanilla-2", 2);
        let eight = b.up(1, "vanilla-8", 2);
        b.up(0, "picker", 5);
        let mut g = b.game();
        let mut script = Script { targets: vec![chosen.clone()], ..Script::none() };
        g.st.scoring = SLOTS as u8;
        g.moment(Trigger::ScoreStart, &mut Silent, &mut script);
        assert_eq!(script.asked[0].2, [3, 3], "{chosen:?}");
        assert_eq!((g.st.counter_sum(two), g.st.counter_sum(eight)), counters, "{chosen:?}");
    }
}

#[test]
fn a_destroyed_card_keeps_only_its_own_last_words_not_its_watchers() {
    // The mourner's last words score 1 point; its other `destroyed` ability watches the
    // opponent's cards (5 points). Destroyed itself, only the last words act from the pile; an
    // opposing card destroyed, only the watcher answers.
    let cards = design(
        "mourner",
        3,
        &[
            "on = \"destroyed\"\neffect = \"points\"\nplayer = \"you\"\namount = 1",
            "on = \"destroyed\"\nwatch = { side = \"opp\" }\neffect = \"points\"\nplayer = \"you\"\namount = 5",
        ],
    ) + &design(
        "smasher",
        4,
        &["on = \"score_start\"\neffect = \"destroy\"\ntarget = { side = \"opp\", slots = 2 }"],
    );
    let mut b = bench(&cards);
    b.up(0, "mourner", 2);
    b.up(1, "smasher", 4);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.points, [1, 0], "the mourner destroyed");
    let mut b = bench(&cards);
    b.up(0, "mourner", 3);
    b.up(1, "vanilla-5", 2);
    b.up(0, "smasher", 4);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.points, [5, 0], "an opposing card destroyed");
}

#[test]
fn a_cards_own_reveal_is_kept_for_its_watchers_only_when_one_can_take_it_in() {
    use crate::games::slots::resolve::{Happened, heard};
    // Face up and alone on the table: its own reveal is an event only for a watch that takes
    // it in (`all`), not for the default watch (any other card) or one of the other side.
    for (watch, kept) in [("watch = \"all\"\n", true), ("", false), ("watch = \"theirs\"\n", false)] {
        let cards =
            design("w", 3, &[&format!("on = \"revealed\"\n{watch}effect = \"draw\"\nplayer = \"you\"")]);
        let mut b = bench(&cards);
        let w = b.up(0, "w", 4);
        let g = b.game();
        assert_eq!(heard(&g.st, Happened::Revealed, w), kept, "{watch}");
    }
}
