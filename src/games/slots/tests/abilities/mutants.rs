//! Card text on hand-built tables for what mutation testing found unpinned (`docs/testing.md`,
//! "Mutation testing"): each test shows one rule of the text firing and fails when one line of it
//! is changed.

use super::*;
use crate::games::slots::judge::Greedy;

/// A rare of value `value` named `id` with one ability of `lines` (TOML keys, one per line).
fn probe(id: &str, value: u8, lines: &str) -> String {
    format!(
        "\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = {value}\n  [[card.ability]]\n{lines}\n"
    )
}

#[test]
fn the_greedy_chooser_destroys_the_card_whose_loss_turns_a_slot() {
    // P1's 3 in S2 loses to P0's 5 already; its 8 in S3 beats P0's 5: destroying the 8 takes S3.
    let mut b = bench(&probe(
        "picker",
        9,
        "  on = \"score_start\"\n  effect = \"destroy\"\n  target = { side = \"opp\", pick = \"choose\" }",
    ));
    b.up(0, "picker", 1);
    b.up(0, "vanilla-5", 2);
    let three = b.up(1, "vanilla-3", 2);
    b.up(0, "vanilla-5", 3);
    let eight = b.up(1, "vanilla-8", 3);
    let mut g = b.game();
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreStart, &mut Silent, &mut Greedy::new());
    assert!(g.st.on_table(three));
    assert!(!g.st.on_table(eight));
}

#[test]
fn a_modifier_and_a_destroy_of_one_card_in_one_batch_conflict() {
    // Two 4s at [SSCORE]: one gives P1's card in S1 -2, the other destroys it: both fizzle.
    let weaken =
        probe("weaken", 4, "  on = \"score_start\"\n  effect = \"modify\"\n  target = \"oc\"\n  amount = -2");
    let crush = probe(
        "crush",
        4,
        "  on = \"score_start\"\n  effect = \"destroy\"\n  target = { side = \"opp\", slots = 1 }",
    );
    let mut b = bench(&format!("{weaken}{crush}"));
    b.up(0, "weaken", 1);
    let seven = b.up(1, "vanilla-7", 1);
    b.up(0, "crush", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.tally.fizzles, 2);
    assert!(g.st.on_table(seven));
    assert_eq!(g.st.value(seven), 7);
}

#[test]
fn a_seats_view_does_not_tell_which_abilities_a_hidden_card_has() {
    // P1's face-down card in S3: a Mud Slinger (a `reveal` ability) or a textless 2. P0 sees a
    // face-down card either way, and its view must not say which triggers the card answers.
    let view = |hidden: &str| {
        let mut b = bench("");
        b.up(0, "vanilla-5", 3);
        let id = b.down(1, hidden, 3);
        let mut st = b.st;
        st.kept[1] = Stack::of(&[id]);
        assert!(st.armed.iter().any(|a| a >> id & 1 == 1) == (hidden != "vanilla-2"));
        let mut out = State::new(DeckPolicy::Top21, 10);
        st.view_for(0, &mut out);
        out
    };
    assert!(view("mud-slinger") == view("vanilla-2"), "the views differ");
}

#[test]
fn the_greedy_chooser_takes_a_point_it_may_score() {
    let bonus =
        probe("bonus", 4, "  on = \"score_start\"\n  optional = true\n  effect = \"points\"\n  amount = 1");
    let mut b = bench(&bonus);
    b.up(0, "bonus", 1);
    let mut g = b.game();
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreStart, &mut Silent, &mut Greedy::new());
    assert_eq!((g.st.points, g.tally.declined), ([1, 0], 0));
}

#[test]
fn the_reader_counts_a_slot_the_opponent_holds_against_itself() {
    // Turn 2, P0 to place in S2. P1's 8 takes S1 from P0's 5. In hand: a textless 7, and a 2 that
    // destroys the opposing card in the slot before its own. The 7 likely wins S2 but leaves S1
    // lost; the 2 likely loses S2 but takes S1 back: the reader plays the 2.
    let wrecker =
        probe("wrecker", 2, "  effect = \"destroy\"\n  target = { side = \"opp\", slots = \"prev1\" }");
    assert_eq!(reader_at_turn_two(&wrecker, "wrecker", "vanilla-5"), 1);
}

/// The hand index `reader` places at turn 2 of a table where P0's `mine` faces P1's 8 in S1 (the
/// 8 seen, so out of the reader's model), P0 holds a textless 7 and the probe card `id`, and P1
/// keeps the 8 and a 4.
fn reader_at_turn_two(probe_text: &str, id: &str, mine: &str) -> u8 {
    let mut b = bench(probe_text);
    b.up(0, mine, 1);
    let eight = b.up(1, "vanilla-8", 1);
    b.hand(0, "vanilla-7");
    b.hand(0, id);
    let theirs = b.hand(1, "vanilla-4");
    b.st.kept[1] = Stack::of(&[eight, theirs]);
    let mut g = b.game();
    g.st.turn = 2;
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    crate::games::slots::reader::Reader::new().place(&obs)
}

#[test]
fn a_swap_and_a_counter_on_either_of_its_cards_in_one_batch_conflict() {
    // Two 4s at [SSCORE]: one swaps itself with P1's 7 opposite it (the 7 named first or second),
    // the other puts a counter on that 7: both fizzle, and nothing moves.
    for (a, b) in [("self", "oc"), ("oc", "self")] {
        let switch = probe(
            "switch",
            4,
            &format!("  on = \"score_start\"\n  effect = \"swap\"\n  a = \"{a}\"\n  b = \"{b}\""),
        );
        let marker = probe(
            "marker",
            4,
            "  on = \"score_start\"\n  effect = \"counter\"\n  target = { side = \"opp\", slots = 1 }\n  amount = 1",
        );
        let mut bench = bench(&format!("{switch}{marker}"));
        let sw = bench.up(0, "switch", 1);
        let seven = bench.up(1, "vanilla-7", 1);
        bench.up(0, "marker", 2);
        let mut g = bench.game();
        score_start(&mut g);
        assert_eq!(g.tally.fizzles, 2, "a = {a}");
        assert_eq!((g.st.slots[0], g.st.counter_sum(seven)), ([sw, seven], 0), "a = {a}");
    }
}

#[test]
fn the_story_names_where_an_acting_card_lies() {
    let bonus = probe("bonus", 4, "  on = \"score_start\"\n  effect = \"points\"\n  amount = 1");
    let mut b = bench(&bonus);
    b.up(0, "bonus", 3);
    let mut g = b.game();
    g.st.scoring = SLOTS as u8;
    let mut story = String::new();
    g.moment(Trigger::ScoreStart, &mut crate::games::narrate::Story(&mut story), &mut Script::none());
    assert!(story.contains("bonus 4 (P0, S3): P0 +1 point"), "{story}");
}

#[test]
fn the_reader_models_the_opposing_card_at_its_rounded_mean_value() {
    // P1's 8 is seen, so the model is three cards of each value 3-9 less one 8: 20 cards of mean
    // 5.9, which rounds to 6. The 1 in hand destroys an opposing card worth 6 or 7: against the
    // modelled 6 it takes S2 outright, which the reader prefers to its 7's chances (against a
    // model of 5 or 8 it would do nothing, and the 7 would be played).
    let sniper =
        probe("sniper", 1, "  if = [ { oc_value = \"6-7\" } ]\n  effect = \"destroy\"\n  target = \"oc\"");
    assert_eq!(reader_at_turn_two(&sniper, "sniper", "vanilla-9"), 1);
}

#[test]
fn an_ability_takes_four_conditions_and_no_more() {
    let conds = |n: usize| {
        let list = vec!["{ slot = \">=1\" }"; n].join(", ");
        parse(
            "t.toml",
            &format!("{SAMPLE}\n{}", probe("c", 5, &format!("  if = [ {list} ]\n  effect = \"draw\""))),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    assert_eq!(conds(4), Ok(()));
    let err = conds(5).unwrap_err();
    assert!(err.contains("at most 4 conditions"), "{err}");
}

#[test]
fn a_won_slot_ability_scores_for_a_win_and_not_for_a_loss() {
    // Ash Wisp: "wins its slot: you get +1 pt". Alone in S1 it wins (2 points); against a 5 it
    // loses (the 5's slot, no bonus).
    let points = |against: Option<&str>| {
        let mut b = bench("");
        b.up(0, "ash-wisp", 1);
        if let Some(other) = against {
            b.up(1, other, 1);
        }
        let mut g = b.game();
        g.score_slots(&mut Silent, &mut Script::none());
        g.st.points
    };
    assert_eq!(points(None), [2, 0]);
    assert_eq!(points(Some("vanilla-5")), [0, 1]);
}
