//! Hand-built cases for what the third mutation run found unpinned (`docs/testing.md`, "Card
//! Wars, re-run after the rules audit"): each test names one rule of the table, the text, the
//! players or the event and fails when one line of it is changed.

use super::abilities::{bench, score_start};
use super::super::cardfile::parse;
use crate::seed::GameSeed;

/// A rare of value `value` named `id` with one ability of `lines` (TOML keys, one per line).
fn probe(id: &str, value: u8, lines: &str) -> String {
    format!(
        "\n[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = {value}\n  [[card.ability]]\n{lines}\n"
    )
}

/// The text of a card set of `cards` (TOML `[[card]]` tables) alone.
fn file_of(cards: &str) -> String {
    format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}")
}

// ---------------------------------------------------------------------------------------------
// The text

#[test]
fn turns_on_a_trigger_that_is_not_a_turn_names_the_trigger_in_its_error() {
    let err = parse("t.toml", &file_of(&probe("p", 3, "  on = \"revealed\"\n  turns = \"2-4\"\n  effect = \"draw\"")))
        .expect_err("turns on a card trigger is refused");
    assert!(err.ends_with("only turn triggers take turns, not 'revealed'"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// The table and its resolution

#[test]
fn the_highest_of_two_tied_cards_is_either_one_at_even_odds() {
    // A 9 puts a +1 counter on the opponent's highest card; the opponent has two 6s. Ties break at
    // random, uniformly: over 400 games each 6 is picked about 200 times (binomial, sd 10; the
    // bounds are 5 sd). A shuffle that always moves each card (Sattolo's) picks one 6 every time.
    let picker = probe(
        "picker",
        9,
        "  on = \"score_start\"\n  effect = \"counter\"\n  target = { side = \"opp\", pick = \"highest\" }\n  amount = 1",
    );
    let mut first = 0;
    for seed in 0..400 {
        let mut b = bench(&picker);
        b.up(0, "picker", 5);
        let a = b.up(1, "vanilla-6", 1);
        let c = b.up(1, "vanilla-6", 2);
        let mut g = b.game();
        g.chance = GameSeed::new(seed, 3).rng();
        score_start(&mut g);
        assert_eq!(g.st.counter_sum(a) + g.st.counter_sum(c), 1, "one counter on one 6");
        first += g.st.counter_sum(a);
    }
    assert!((150..=250).contains(&first), "{first} of 400");
}

#[test]
fn a_count_condition_of_a_triggered_ability_takes_no_pick() {
    // A triggered ability may pick its targets, but its `count` condition counts every match.
    let card = |cond: &str| {
        probe("p", 3, &format!("  on = \"score_start\"\n  if = [ {{ count = {cond}, is = \">=1\" }} ]\n  effect = \"points\"\n  amount = 1"))
    };
    let err = parse("t.toml", &file_of(&card("{ side = \"opp\", pick = \"highest\" }")))
        .expect_err("a pick in a count is refused");
    assert!(err.ends_with("no pick here: a count takes every match"), "{err}");
    assert!(parse("t.toml", &file_of(&card("{ side = \"opp\" }"))).is_ok());
}
