//! Hand-built cases for what the third mutation run found unpinned (`docs/testing.md`, "Card
//! Wars, re-run after the rules audit"): each test names one rule of the table, the text, the
//! players or the event and fails when one line of it is changed.

use super::super::cardfile::parse;

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
