//! Hand-built cases for what the second mutation run found unpinned (`docs/testing.md`, "Card
//! Wars, 2026-11-26"): each test names one rule of the table, the text, the players or the event
//! and fails when one line of it is changed.

use super::Script;
use super::abilities::{bench, score_start};
use super::kit::*;
use crate::games::narrate::Silent;
use crate::games::slots::Rules;
use crate::games::slots::choices::uniform_targets;
use crate::games::slots::judge::Greedy;
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
    // P0 a card. One takes from the hand the other adds to (their order would decide which card
    // is placed), so both fizzle: the hand, the deck and the slot stay as they were.
    let placer = probe(
        "placer",
        4,
        "  on = \"score_start\"\n  effect = \"place\"\n  pick = \"highest\"\n  player = \"you\"",
    );
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
        let set =
            set_of(&probe("mover", 5, &format!("  effect = \"move\"\n  target = \"self\"\n  slot = {slot}")));
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
    let discard = |player: &str| {
        worth(&format!("  effect = \"discard\"\n  player = \"{player}\"\n  pick = \"lowest\""))
    };
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
    let from = Places::of(&[0, 3, 5, 8]);
    let mut rng = GameSeed::new(3, 3).rng();
    let mut out = Places::default();
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
    use crate::games::contest::Contest;
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

#[test]
fn a_draw_wakes_the_drawn_watchers_of_the_drawing_player_only() {
    // Scholar: "Each time you draw a card: put a +1 counter on this card". A probe draws P0 one
    // card: P0's Scholar in S3 takes a counter, P1's in S1 does not.
    let drawer = probe("drawer", 4, "  on = \"score_start\"\n  effect = \"draw\"\n  player = \"you\"");
    let mut b = bench(&drawer);
    b.up(0, "drawer", 5);
    let mine = b.up(0, "scholar", 3);
    let theirs = b.up(1, "scholar", 1);
    b.deck(0, "vanilla-6");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.hands[0].len(), 1);
    assert_eq!((g.st.counter_sum(mine), g.st.counter_sum(theirs)), (1, 0));
}

#[test]
fn the_greedy_chooser_hides_an_opposing_card_that_takes_its_slot() {
    // "You may turn the opposing card face down": a face-down card is worth 0. P0's 6 faces P1's
    // 8: hidden, the 8 loses the slot, so the hide is taken. Facing P1's 3, already beaten, the
    // hide still takes 3 from P1's side: taken too.
    let run = |theirs: &str| {
        let shade = probe(
            "shade",
            6,
            "  on = \"score_start\"\n  optional = true\n  effect = \"hide\"\n  target = \"oc\"",
        );
        let mut b = bench(&shade);
        b.up(0, "shade", 1);
        let other = b.up(1, theirs, 1);
        let mut g = b.game();
        g.st.scoring = SLOTS as u8;
        g.moment(Trigger::ScoreStart, &mut Silent, &mut Greedy::new());
        (g.st.is_face_up(other), g.tally.declined)
    };
    assert_eq!(run("vanilla-8"), (false, 0));
    assert_eq!(run("vanilla-3"), (false, 0));
}

#[test]
fn a_turn_trigger_reads_one_turn_or_a_range_of_turns() {
    let sentence = |turns: &str| {
        let set = set_of(&probe(
            "t",
            5,
            &format!("  on = \"turn_start\"\n  turns = {turns}\n  effect = \"draw\"\n  player = \"you\""),
        ));
        super::super::spell::read(&set, 0).sentences
    };
    assert_eq!(sentence("3"), ["At the start of turn 3: you draw 1 card."]);
    assert_eq!(sentence("\"3-5\""), ["At the start of turns 3-5: you draw 1 card."]);
    assert_eq!(sentence("\"1-9\""), ["At the start of each turn: you draw 1 card."]);
}

#[test]
fn designer_dealing_needs_one_uncommon_and_two_commons_of_each_value_per_player() {
    use super::super::deal::{Dealing, NO_DESIGNER, Printing};
    // For 2 players: 6 rares, and of each value 2 uncommons and 4 printed commons (a common
    // design is printed twice); `short` leaves out one uncommon of value 5.
    let set = |short: bool| {
        let mut cards = String::new();
        for r in 0..6 {
            cards += &format!("[[card]]\nid = \"r{r}\"\nname = \"r{r}\"\nrarity = \"rare\"\nvalue = 9\n");
        }
        for v in 1..=9 {
            for k in 0..2 {
                if !(short && v == 5 && k == 1) {
                    cards += &format!(
                        "[[card]]\nid = \"u{v}{k}\"\nname = \"u{v}{k}\"\nrarity = \"uncommon\"\nvalue = {v}\n"
                    );
                }
                cards += &format!(
                    "[[card]]\nid = \"c{v}{k}\"\nname = \"c{v}{k}\"\nrarity = \"common\"\nvalue = {v}\n"
                );
            }
        }
        set_of(&cards)
    };
    let full = set(false);
    let none = vec![NO_DESIGNER; full.designs.len()];
    assert!(Printing::new(Some(&full), &none, 2, Dealing::Designer).is_ok());
    let short = set(true);
    let none = vec![NO_DESIGNER; short.designs.len()];
    let err = Printing::new(Some(&short), &none, 2, Dealing::Designer).unwrap_err();
    assert!(
        err.starts_with(
            "deal=designer for 2 players needs 2 printed uncommons of value 5 (the set prints 1)"
        ),
        "{err}"
    );
}

#[test]
fn search_places_the_card_that_wins_the_deciding_slot() {
    // Turn 9, slots 1-4 P0's and 5-8 P1's (every card from the decks `top21` keeps): slot 9
    // decides the round. P0 holds a 5, a 6 and a 9 (last); P1 holds one card P0 has not seen,
    // one of its 13 unseen cards of values 5-9. The 9 wins the slot against any card but a 9,
    // the 5 and the 6 against few: search plays the 9.
    let mine = [(8, 0), (8, 1), (8, 2), (7, 0), (4, 0), (4, 1), (4, 2), (5, 0)];
    let theirs = [(4, 0), (4, 1), (4, 2), (5, 0), (9, 0), (9, 1), (9, 2), (8, 0)];
    let table: Vec<[u8; 2]> = mine
        .iter()
        .zip(&theirs)
        .map(|(&(a, i), &(b, j))| [super::card(0, a, i), super::card(1, b, j)])
        .collect();
    let hands =
        [vec![super::card(0, 5, 1), super::card(0, 6, 0), super::card(0, 9, 0)], vec![super::card(1, 6, 0)]];
    // The rest of each kept deck is still in the deck.
    let kept = super::fresh_state(10).kept;
    let decks: Vec<Vec<u8>> = (0..SEATS)
        .map(|s| {
            let used = |id: &u8| table.iter().any(|p| p.contains(id)) || hands[s].contains(id);
            kept[s].as_slice().iter().copied().filter(|id| !used(id)).collect()
        })
        .collect();
    assert_eq!((decks[0].len(), decks[1].len()), (10, 12));
    let g = super::position(9, [&hands[0], &hands[1]], [&decks[0], &decks[1]], &table);
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    let mut searcher = crate::games::slots::search::Searcher::new(&Rules::with("search"));
    assert_eq!(searcher.place(&obs, &g.place_legal(0), &mut GameSeed::new(5, 5).rng()), 2);
}

#[test]
fn the_rollout_chooser_takes_a_you_may_ability_half_the_time() {
    let mut ch = UniformChoices { rng: GameSeed::new(9, 9).rng() };
    let st = bench("").st;
    let ask = Ask {
        seat: 0,
        source: 0,
        effect: super::super::cardset::Effect::Draw { player: super::super::cardset::Player::You, amount: 1 },
        n: 0,
        partner: Places::default(),
    };
    let taken = (0..400).filter(|_| ch.take(&st, &ask, &Places::default())).count();
    // 200 of 400 expected, sd 10: 150-250 is five sd.
    assert!((150..=250).contains(&taken), "{taken}");
}

#[test]
fn the_reader_weighs_the_turns_slot_by_its_chance_against_the_model() {
    // Turn 1: a textless 9 likely takes S1 (it beats every modelled card but a 9); a 1 that
    // scores a point when revealed surely loses it. A point is worth a slot, so the 9 is played.
    let pointer = probe("pointer", 1, "  effect = \"points\"\n  amount = 1");
    let mut b = bench(&pointer);
    b.hand(0, "pointer");
    b.hand(0, "vanilla-9");
    let theirs = b.hand(1, "vanilla-4");
    b.st.kept[1] = Stack::of(&[theirs]);
    let mut g = b.game();
    g.st.turn = 1;
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    assert_eq!(crate::games::slots::reader::Reader::new().place(&obs), 1);
}

#[test]
fn the_cards_a_round_showed_are_added_to_those_shown_before() {
    let mut st = bench("").st;
    st.shown = 1 << 40;
    st.was_up = 1 << 3 | 1 << 5;
    st.face_up = 1 << 5 | 1 << 7;
    st.remember_shown();
    assert_eq!(st.shown, 1 << 40 | 1 << 3 | 1 << 5 | 1 << 7);
}

#[test]
fn adapt_models_the_opponent_as_its_shown_cards_repeated_in_turn() {
    // P1 showed its uncommon 4 (place 6) and its uncommon 8 (place 10). The model's deck is P1's
    // first 21 places: those two as they are, every other place a 4, an 8, a 4, ... in turn.
    let mut st = super::fresh_state(10);
    let (four, eight) = (super::card(1, 4, 0), super::card(1, 8, 0));
    st.shown = 1 << four | 1 << eight;
    let mut sim = st.clone();
    crate::games::slots::sideboard::model_opponent(&st, 1, &[four, eight], &mut sim);
    let first = POOL as u8;
    assert_eq!(sim.kept[1].as_slice(), (first..first + DECK as u8).collect::<Vec<u8>>());
    let values: Vec<u8> = sim.kept[1].as_slice().iter().map(|&id| sim.pools.printed[id as usize]).collect();
    // Places 0-5 take turns 0-5, place 6 is the shown 4, 7-9 turns 6-8, place 10 the shown 8.
    assert_eq!(values, [4, 8, 4, 8, 4, 8, 4, 4, 8, 4, 8, 8, 4, 8, 4, 8, 4, 8, 4, 8, 4]);
    // Its own side is left as it was.
    assert_eq!(sim.pools.printed[..POOL], st.pools.printed[..POOL]);
}

#[test]
fn a_factor_ends_when_its_source_turns_face_down_whatever_its_duration() {
    // At [SSCORE] a 4 doubles the opposing 3: for the round, or while the 4 stays face up.
    // Then the 4 is turned face down: either factor ends with it.
    let run = |duration: &str| {
        let doubler = probe(
            "doubler",
            4,
            &format!(
                "  on = \"score_start\"\n  effect = \"multiply\"\n  target = \"oc\"\n  by = 2\n  duration = \"{duration}\""
            ),
        );
        let mut b = bench(&doubler);
        let d = b.up(0, "doubler", 1);
        let three = b.up(1, "vanilla-3", 1);
        let mut g = b.game();
        score_start(&mut g);
        let doubled = g.st.value(three);
        g.st.turn_down(d);
        (doubled, g.st.value(three))
    };
    assert_eq!(run("round"), (6, 3));
    assert_eq!(run("source"), (6, 3));
}

#[test]
fn a_swap_whose_card_left_the_table_earlier_in_its_batch_does_nothing() {
    // One card, two instances in one batch (no conflict: the same card): when P0's 6 in S2
    // turns up it destroys the card opposing it in S1, and when P1's 5 in S2 turns up it swaps
    // itself with that card. Table order applies the destroy first; the swap then finds its
    // partner gone and does nothing.
    let both = "\n[[card]]\nid = \"both\"\nname = \"both\"\nrarity = \"rare\"\nvalue = 4\n  [[card.ability]]\n  on = \"revealed\"\n  watch = { side = \"you\" }\n  effect = \"destroy\"\n  target = \"oc\"\n  [[card.ability]]\n  on = \"revealed\"\n  watch = { side = \"opp\" }\n  effect = \"swap\"\n  a = \"self\"\n  b = \"oc\"\n";
    let mut b = bench(both);
    let w = b.up(0, "both", 1);
    let z = b.up(1, "vanilla-8", 1);
    let six = b.down(0, "vanilla-6", 2);
    let five = b.down(1, "vanilla-5", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[six, five], &mut Script::none());
    assert_eq!(g.st.piles[1].as_slice(), [z]);
    assert_eq!((g.st.slots[0], g.tally.control_changes, g.tally.fizzles), ([w, NONE], 0, 0));
}

#[test]
fn a_card_moves_onto_the_next_slot_and_a_move_onto_its_own_place_does_nothing() {
    let mover = |slot: u8| {
        probe(
            "mover",
            5,
            &format!("  on = \"score_start\"\n  effect = \"move\"\n  target = \"self\"\n  slot = {slot}"),
        )
    };
    // From S1 to S2, onto P0's 3 there.
    let mut b = bench(&mover(2));
    let m = b.up(0, "mover", 1);
    let three = b.up(0, "vanilla-3", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[0][0], g.st.slots[1][0], g.st.under[1][0].as_slice()), (NONE, m, &[three][..]));
    // Under a 7 in S3, told to move onto S3: it stays under the 7.
    let mut b = bench(&mover(3));
    let m = b.up(0, "mover", 3);
    let seven = b.up(0, "vanilla-7", 3);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[2][0], g.st.under[2][0].as_slice(), g.tally.stacked_cards), (seven, &[m][..], 0));
}

#[test]
fn a_look_for_you_looks_at_your_deck_only() {
    // Seer (5): "look at the top card of your deck; if it is 4 or less, put it on the bottom".
    let mut b = bench("");
    let seer = b.down(0, "seer", 1);
    let five = b.down(1, "vanilla-5", 1);
    let mut decks = [[0u8; 2]; 2];
    for (seat, deck) in decks.iter_mut().enumerate() {
        *deck = [b.deck(seat, "vanilla-8"), b.deck(seat, "vanilla-2")];
    }
    let mut g = b.game();
    g.reveal_for_tests(&[seer, five], &mut Script::none());
    assert_eq!(g.st.decks[0].as_slice(), [decks[0][1], decks[0][0]], "P0's 2 went to the bottom");
    assert_eq!(g.st.decks[1].as_slice(), decks[1], "P1's deck is not P0's to look at");
}

#[test]
fn an_aura_on_the_stacked_cards_reaches_the_cards_under_its_source_only() {
    // A static +2 to "the cards stacked with this": the 4 under it, not itself, not P1's 5 in
    // the same slot, not P0's 6 in another slot.
    let banner =
        probe("banner", 3, "  on = \"static\"\n  effect = \"modify\"\n  target = \"stacked\"\n  amount = 2");
    let mut b = bench(&banner);
    let four = b.up(0, "vanilla-4", 3);
    let top = b.up(0, "banner", 3);
    let five = b.up(1, "vanilla-5", 3);
    let six = b.up(0, "vanilla-6", 4);
    let g = b.game();
    assert_eq!([four, top, five, six].map(|id| g.st.value(id)), [6, 3, 5, 6]);
}

#[test]
fn a_pick_of_more_than_one_card_is_read_with_its_count() {
    let read = |pick: &str, n: u8| {
        let set = set_of(&probe(
            "p",
            5,
            &format!("  effect = \"destroy\"\n  target = {{ side = \"opp\", pick = \"{pick}\", n = {n} }}"),
        ));
        super::super::spell::read(&set, 0).sentences.join(" ")
    };
    // A count above one names cards in the plural.
    assert!(read("random", 1).contains("destroy a random card of"), "{}", read("random", 1));
    assert!(read("random", 2).contains("destroy 2 random cards of"), "{}", read("random", 2));
    assert!(read("lowest", 1).contains("destroy the lowest card"), "{}", read("lowest", 1));
    assert!(read("lowest", 2).contains("destroy the 2 lowest cards of"), "{}", read("lowest", 2));
    assert!(read("highest", 1).contains("destroy the highest card"), "{}", read("highest", 1));
    assert!(read("highest", 2).contains("destroy the 2 highest cards of"), "{}", read("highest", 2));
}

#[test]
fn a_count_over_printed_values_that_none_has_is_flagged_and_one_some_have_is_not() {
    let flags = |printed: &str| {
        let set = set_of(&probe(
            "c",
            5,
            &format!(
                "  on = \"score_end\"\n  effect = \"points\"\n  amount = 1\n  per = {{ side = \"you\", printed = \"{printed}\" }}"
            ),
        ));
        super::super::spell::read(&set, 0).flags
    };
    assert!(flags(">=5").is_empty(), "{:?}", flags(">=5"));
    assert_eq!(
        flags(">9"),
        ["ability 1 can never act: its `per` counts no card (no printed value 1-9 passes)"]
    );
}

#[test]
fn a_draw_takes_no_per_count() {
    let text = format!(
        "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{}",
        probe("d", 5, "  effect = \"draw\"\n  per = { side = \"you\" }")
    );
    let err = parse("t.toml", &text).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("per"), "{err}");
}

#[test]
fn points_for_both_players_are_worth_nothing_in_the_strength_estimate() {
    let points = |player: &str| {
        set_of(&probe(
            "p",
            5,
            &format!("  on = \"score_end\"\n  effect = \"points\"\n  player = \"{player}\"\n  amount = 1"),
        ))
        .worth[0]
    };
    assert_eq!([points("you"), points("opp"), points("both")], [30, -30, 0]);
}

#[test]
fn the_greedy_chooser_declines_a_draw_for_the_opponent_and_takes_one_for_itself() {
    let run = |player: &str| {
        let gift = probe(
            "gift",
            4,
            &format!(
                "  on = \"score_start\"\n  optional = true\n  effect = \"draw\"\n  player = \"{player}\""
            ),
        );
        let mut b = bench(&gift);
        b.up(0, "gift", 1);
        b.deck(0, "vanilla-6");
        b.deck(1, "vanilla-6");
        let mut g = b.game();
        g.st.scoring = SLOTS as u8;
        g.moment(Trigger::ScoreStart, &mut Silent, &mut Greedy::new());
        (g.st.hands[0].len(), g.st.hands[1].len(), g.tally.declined)
    };
    assert_eq!(run("you"), (1, 0, 0));
    assert_eq!(run("opp"), (0, 0, 1));
}

/// The hand index `reader` places at turn `turn` of `b`'s table, P1 holding one textless 4
/// (its kept deck: that card and its cards on the table).
fn reader_places(mut b: super::abilities::Bench, turn: u8) -> u8 {
    let theirs = b.hand(1, "vanilla-4");
    let mut kept: Vec<u8> = b.st.slots.iter().map(|s| s[1]).filter(|&id| id != NONE).collect();
    kept.push(theirs);
    b.st.kept[1] = Stack::of(&kept);
    let mut g = b.game();
    g.st.turn = turn;
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    crate::games::slots::reader::Reader::new().place(&obs)
}

#[test]
fn the_reader_leaves_the_opponents_cards_it_has_seen_out_of_its_model() {
    // Turn 7: P1's 9, 9, 9, 8, 8, 8 are face up in S1-S6, so the model of its card in S7 is
    // three each of 3-7, mean 5 (with them in, it would be 6). A 1 that destroys an opposing card
    // worth exactly 5 takes S7 outright against the model card; the reader prefers it to a 7.
    let sniper =
        probe("sniper", 1, "  if = [ { oc_value = \"5\" } ]\n  effect = \"destroy\"\n  target = \"oc\"");
    let mut b = bench(&sniper);
    for (k, v) in [9, 9, 9, 8, 8, 8].into_iter().enumerate() {
        b.up(0, "vanilla-2", k + 1);
        b.up(1, &format!("vanilla-{v}"), k + 1);
    }
    b.hand(0, "sniper");
    b.hand(0, "vanilla-7");
    assert_eq!(reader_places(b, 7), 0);
}

#[test]
fn the_reader_breaks_a_tie_by_the_first_card_in_hand() {
    // A textless 5 and a 5 whose ability acts only at the end of scoring judge alike at this
    // turn's reveal: the first in hand is played, whichever it is.
    let quiet = probe("quiet", 5, "  on = \"score_end\"\n  effect = \"draw\"");
    for first in ["vanilla-5", "quiet"] {
        let mut b = bench(&quiet);
        b.hand(0, first);
        b.hand(0, if first == "quiet" { "vanilla-5" } else { "quiet" });
        assert_eq!(reader_places(b, 1), 0, "{first} first");
    }
}

#[test]
fn adapt_reads_the_cards_its_opponent_showed_not_its_own() {
    // Only P1's own cards were shown: at either seat, nothing of the opponent is known, so the
    // deck stays.
    let mut st = super::fresh_state(10);
    st.rounds = 1;
    st.shown = 0b111 << POOL;
    let mut sb = crate::games::slots::sideboard::Sideboard::default();
    let mut out = Stack::default();
    assert!(!sb.choose(&st, 1, &mut GameSeed::new(2, 2).rng(), &mut out));
    // P0's shown instead: seat 0 still has nothing of P1's to read.
    st.shown = 0b111;
    assert!(!sb.choose(&st, 0, &mut GameSeed::new(2, 2).rng(), &mut out));
}

#[test]
fn an_event_expects_each_designer_to_hold_the_mean_share_of_own_cards() {
    // Two designers, each half of every rarity's pile: dealt from piles, a player expects half
    // of its 30 cards to be its own.
    let mut text = String::new();
    let mut card = |id: String, rarity: &str, value: u8, k: usize| {
        let designer = ["A", "B"][k % 2];
        text += &format!(
            "[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"{rarity}\"\nvalue = {value}\ndesigner = \"{designer}\"\n"
        );
    };
    for k in 0..6 {
        card(format!("r{k}"), "rare", 9, k);
    }
    for v in 1..=9u8 {
        for k in 0..2 {
            card(format!("u{v}{k}"), "uncommon", v, k);
            card(format!("c{v}{k}"), "common", v, k);
        }
    }
    let rules = Rules { cards: Some(std::sync::Arc::new(set_of(&text))), ..Rules::with("highest") };
    let ev = super::super::event::SlotsEvent::new(rules, 2, super::super::deal::Dealing::Piles)
        .expect("the set deals");
    let t = crate::games::contest::IntoEvent::into_event(ev);
    let layout = t.layout();
    let makers = layout.cards.as_ref().and_then(|c| c.makers.as_ref()).expect("the designers are known");
    assert_eq!(makers.own_expected_millionths, 15_000_000);
}

#[test]
fn recover_lowest_takes_the_first_of_the_lowest_printed_values_in_the_pile() {
    let digger = probe("digger", 4, "  on = \"score_start\"\n  effect = \"recover\"\n  pick = \"lowest\"");
    let mut b = bench(&digger);
    b.up(0, "digger", 1);
    let pile: Vec<u8> = [5, 2, 7, 2].iter().map(|v| b.card(0, &format!("vanilla-{v}"))).collect();
    b.st.piles[0] = Stack::of(&pile);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.hands[0].as_slice(), [pile[1]]);
    assert_eq!(g.st.piles[0].as_slice(), [pile[0], pile[2], pile[3]]);
}

#[test]
fn a_place_into_a_slot_whose_turn_has_not_come_is_counted_refused() {
    let placer =
        probe("placer", 4, "  on = \"score_start\"\n  effect = \"place\"\n  pick = \"highest\"\n  slot = 9");
    let mut b = bench(&placer);
    b.up(0, "placer", 1);
    let six = b.hand(0, "vanilla-6");
    let mut g = b.game();
    g.st.in_play = 1;
    score_start(&mut g);
    assert_eq!(
        (g.tally.place_refused, g.st.hands[0].as_slice(), g.st.slots[8]),
        (1, &[six][..], [NONE, NONE])
    );
}

#[test]
fn a_watch_cannot_name_the_event_card() {
    let text = format!(
        "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{}",
        probe("w", 5, "  on = \"destroyed\"\n  watch = \"event\"\n  effect = \"draw\"")
    );
    let err = parse("t.toml", &text).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("watch") && err.contains("event"), "{err}");
}

#[test]
fn a_wrongly_typed_key_is_refused_naming_the_type_found() {
    let err = |value: &str| {
        let text = format!(
            "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n[[card]]\nid = \"x\"\nname = \"X\"\nrarity = \"rare\"\nvalue = {value}\n"
        );
        parse("t.toml", &text).map(|_| ()).unwrap_err().to_string()
    };
    assert!(err("true").contains("a boolean"), "{}", err("true"));
    assert!(err("[5]").contains("an array"), "{}", err("[5]"));
}

#[test]
fn a_slot_range_of_one_slot_reads_as_that_slot() {
    let read = |slots: &str| {
        let set = set_of(&probe(
            "r",
            5,
            &format!("  effect = \"destroy\"\n  target = {{ side = \"opp\", slots = \"{slots}\" }}"),
        ));
        super::super::spell::read(&set, 0).sentences.join(" ")
    };
    assert!(read("3-3").ends_with("in slot 3."), "{}", read("3-3"));
    assert!(read("3-5").ends_with("in slots 3-5."), "{}", read("3-5"));
}

#[test]
fn a_count_condition_over_no_possible_card_is_flagged() {
    let flags = |printed: &str| {
        let set = set_of(&probe(
            "c",
            5,
            &format!(
                "  if = [ {{ count = {{ side = \"you\", printed = \"{printed}\" }}, is = \">=1\" }} ]\n  effect = \"draw\""
            ),
        ));
        super::super::spell::read(&set, 0).flags
    };
    assert!(flags(">=5").is_empty(), "{:?}", flags(">=5"));
    assert_eq!(
        flags(">9"),
        ["ability 1 can never act: a condition never holds (its count selector matches no card)"]
    );
}

#[test]
fn a_number_of_the_text_used_by_a_count_condition_is_not_flagged() {
    let set = set_of(
        &probe(
            "c",
            5,
            "  if = [ { count = { side = \"you\", face = \"up\" }, is = \">=3\" } ]\n  effect = \"draw\"",
        )
        .replace("value = 5\n", "value = 5\ntext = \"If 3 of your cards are face up: draw a card.\"\n"),
    );
    let r = super::super::spell::read(&set, 0);
    assert!(r.flags.is_empty(), "{:?}", r.flags);
}

#[test]
fn a_cards_games_won_count_the_games_its_owner_won() {
    use super::super::engine::CARD_COLUMNS;
    // P0's fixed pool is 21 textless 9s, P1's 21 textless 1s: P0 wins every slot and the game.
    let pool = |seat: usize, v: u8| {
        format!("[[pool]]\nseat = {seat}\ncards = [{}]\n", vec![format!("\"vanilla-{v}\""); DECK].join(", "))
    };
    let set = set_of(&format!("{}{}{}", probe("x", 5, "  effect = \"draw\""), pool(0, 9), pool(1, 1)));
    let engine = super::super::engine::SlotsEngine::new(Rules {
        cards: Some(std::sync::Arc::new(set)),
        ..Rules::with("highest")
    });
    let layout = crate::games::Engine::layout(&engine);
    let table = layout.cards.clone().expect("a per-card table");
    let rec = crate::games::Point::play_one(&engine, GameSeed::new(3, 0));
    let at = |key: &str, col: &str| {
        let k =
            table.keys.iter().position(|x| x == key).unwrap_or_else(|| panic!("{key} in {:?}", table.keys));
        let c = CARD_COLUMNS.iter().position(|n| *n == col).expect("a column");
        rec.counters[table.first as usize + k * CARD_COLUMNS.len() + c]
    };
    // Every placed card is counted once in its game: at least 9 of each seat.
    assert!(at("textless-9", "games_played") >= 9 && at("textless-1", "games_played") >= 9);
    assert_eq!(at("textless-9", "games_won"), at("textless-9", "games_played"));
    assert_eq!(at("textless-1", "games_won"), 0);
}

#[test]
fn a_watcher_whose_watch_missed_the_event_is_not_counted_as_moved() {
    // One batch of 5s at [SSCORE]: the first turns up P1's card in S2, the second then swaps
    // P0's Lookout (it watches the card opposing it) from S1 to S3. The card turned up never
    // opposed Lookout: no answer, and no watcher moved between an event it answers and its answer.
    let revealer = probe(
        "revealer",
        5,
        "  on = \"score_start\"\n  effect = \"reveal\"\n  target = { side = \"opp\", slots = 2 }",
    );
    let shifter = probe(
        "shifter",
        5,
        "  on = \"score_start\"\n  effect = \"swap\"\n  a = { side = \"you\", slots = 1 }\n  b = { side = \"you\", slots = 3 }",
    );
    let lookout = probe(
        "lookout",
        2,
        "  on = \"revealed\"\n  watch = \"oc\"\n  effect = \"counter\"\n  target = \"event\"\n  amount = -1",
    );
    let mut b = bench(&format!("{revealer}{shifter}{lookout}"));
    let look = b.up(0, "lookout", 1);
    let six = b.down(1, "vanilla-6", 2);
    b.up(0, "vanilla-3", 3);
    b.up(0, "revealer", 5);
    b.up(0, "shifter", 6);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[2][0], g.st.is_face_up(six)), (look, true));
    assert_eq!((g.st.counters[six as usize], g.tally.watchers_moved), ([0, 0], 0));
}

#[test]
fn a_count_condition_can_reach_every_place_of_a_full_table_and_no_more() {
    // A count finds at most 9 slots x 2 sides x 4 stacked cards = 72 cards.
    let flags = |is: &str| {
        let set = set_of(&probe(
            "c",
            5,
            &format!("  if = [ {{ count = \"all\", is = \"{is}\" }} ]\n  effect = \"draw\""),
        ));
        super::super::spell::read(&set, 0).flags
    };
    assert!(flags(">=20").is_empty(), "{:?}", flags(">=20"));
    assert!(flags(">=72").is_empty(), "{:?}", flags(">=72"));
    assert_eq!(flags(">72"), ["ability 1 can never act: a condition never holds (a count is 0-72)"]);
}
