//! Hand-built cases for what mutation testing found unpinned (`docs/testing.md`, "Mutation
//! testing"): each test names one rule of the table, the deal, the players or the story and fails
//! when one line of it is changed.

use super::*;
use crate::decide::search::Steps;
use crate::games::slots::agents::SeatChoices;
use crate::games::slots::cardset::Order;
use crate::games::slots::deal::{self, Dealing, EventPools, NO_DESIGN, Printing};
use crate::games::slots::search::Sim;
use crate::games::slots::table::Tally;

/// A card set of `cards` (TOML `[[card]]` tables), compiled.
fn set_of(cards: &str) -> super::super::cardset::CardSet {
    let text = format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}");
    parse("t.toml", &text).expect("the test set parses")
}

#[test]
fn a_lifted_card_leaves_its_face_counters_abilities_and_timed_effects_on_the_table() {
    let mut st = fresh_state(10);
    st.text = true;
    st.set = Some(std::sync::Arc::new(set_of(
        "[[card]]\nid = \"a\"\nname = \"A\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = { side = \"you\", slots = \"adjacent\" }\n  amount = 1\n  [[card.ability]]\n  on = \"score_end\"\n  effect = \"draw\"\n",
    )));
    // Card 1 of seat 0 (a rare) carries design 0; card 2 is textless and stays.
    st.pools.design[1] = 0;
    st.set_down(1, 4, 0);
    st.set_down(2, 5, 0);
    st.turn_up(1);
    st.turn_up(2);
    st.counters[1] = [2, -1];
    st.timed.push(Timed { target: 1, source: 2, amount: 1, set: false, times: false, while_source: false });
    st.timed.push(Timed { target: 2, source: 1, amount: 1, set: false, times: false, while_source: false });
    assert!(st.auras >> 1 & 1 == 1 && st.armed.iter().any(|a| a >> 1 & 1 == 1));
    let mut tally = Tally::default();
    assert_eq!(st.lift(1, &mut tally), 0);
    assert_eq!(tally.uncovered, 0, "nothing lay under it");
    assert_eq!((st.slots[4], st.pos[1], st.is_face_up(1), st.carries(1)), ([NONE, NONE], NONE, false, false));
    assert_eq!((st.auras >> 1 & 1, st.armed.iter().map(|a| a >> 1 & 1).sum::<u64>()), (0, 0));
    // Its own timed effects go; the one it gave card 2 is card 2's (it lasts the round).
    assert_eq!(
        st.timed,
        [Timed { target: 2, source: 1, amount: 1, set: false, times: false, while_source: false }]
    );
    assert!(st.is_face_up(2) && st.on_table(2));
}

#[test]
fn every_order_of_a_comparison_holds_exactly_where_it_says() {
    // (order, holds for 1 v 2, 2 v 2, 3 v 2)
    let cases = [
        (Order::Lt, [true, false, false]),
        (Order::Le, [true, true, false]),
        (Order::Eq, [false, true, false]),
        (Order::Ne, [true, false, true]),
        (Order::Ge, [false, true, true]),
        (Order::Gt, [false, false, true]),
    ];
    for (order, want) in cases {
        assert_eq!([1, 2, 3].map(|a| order.holds(a, 2)), want, "{order:?}");
    }
}

#[test]
fn independent_dealing_without_a_set_gives_each_rare_a_value_from_one_to_nine() {
    let printing = Printing::new(None, &[], 2, Dealing::Independent).expect("textless sheets always deal");
    let mut pools = EventPools::default();
    let mut seen = [0u32; 10];
    for i in 0..40 {
        pools.deal(&printing, Dealing::Independent, &mut GameSeed::new(4, i).rng());
        for p in 0..2 {
            for c in &pools.pool(p)[..3] {
                assert_eq!(c.design, NO_DESIGN);
                seen[c.value as usize] += 1;
            }
        }
    }
    // 240 rares: each value 1-9 turns up (a value missing has chance below 1e-11).
    assert_eq!(seen[0], 0);
    assert!(seen[1..].iter().all(|&n| n > 0), "{seen:?}");
    // A textless printing fills nothing: no design was missing.
    assert_eq!(pools.vanilla_fill, 0);
}

#[test]
fn points_per_counted_card_are_worth_twice_the_points_in_the_strength_estimate() {
    let card = |per: &str| {
        format!(
            "[[card]]\nid = \"p\"\nname = \"P\"\nrarity = \"rare\"\nvalue = 5\n  [[card.ability]]\n  on = \"score_end\"\n  effect = \"points\"\n  amount = 1\n{per}"
        )
    };
    // A point is worth 3 values (30 tenths) for its controller; `per` counts twice.
    assert_eq!(set_of(&card("")).worth, [30]);
    assert_eq!(set_of(&card("  per = { side = \"you\" }\n")).worth, [60]);
}

#[test]
fn the_story_tells_every_slot_revealed_after_its_placement() {
    let engine = SlotsEngine::new(Rules::with("highest,random"));
    let mut story = String::new();
    Engine::narrate(&engine, GameSeed::new(2, 0), &mut story);
    let lines: Vec<&str> = story.lines().collect();
    let placed: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(": P0 places ")).collect();
    assert!(placed.len() >= 2 * SLOTS);
    for &i in &placed {
        // "  S4: P0 places [7], P1 places [3]" then "    revealed: 7 v 3".
        let cards = |line: &str| line.replace(['[', ']'], "");
        let (a, b) = lines[i].split_once(", P1 places ").expect("both seats");
        let a = a.rsplit_once("P0 places ").expect("seat 0").1;
        assert_eq!(lines[i + 1], format!("    revealed: {} v {}", cards(a), cards(b)), "line {i}");
    }
}

#[test]
fn an_agent_asked_to_discard_answers_by_its_own_rule() {
    // `highest` discards its lowest printed value: the 2, second in hand.
    let engine = SlotsEngine::new(Rules::with("highest,highest"));
    let mut sc = Engine::new_scratch(&engine);
    let mut st = fresh_state(10);
    st.hands[0] = Stack::of(&[card(0, 5, 0), card(0, 2, 0), card(0, 7, 0)]);
    let mut obs = Observation::default();
    let mut ch = SeatChoices { players: &mut sc.players, obs: &mut obs, sideboard: None };
    assert_eq!(kit::Choices::discard(&mut ch, &st, 0), 1);
}

#[test]
fn a_simulated_game_shows_a_seat_what_the_game_would() {
    let (a7, a2, b3) = (card(0, 7, 0), card(0, 2, 0), card(1, 3, 0));
    let g = position(2, [&[a2], &[b3]], [&[], &[]], &[[a7, NONE]]);
    let mut want = Observation::default();
    g.observe(0, &mut want);
    let mut sim = Sim::new();
    sim.game = g;
    let mut got = Observation::default();
    sim.observe(0, &mut got);
    assert_eq!(got, want);
    assert_eq!(got.hand.as_slice(), [a2]);
}

#[test]
fn designer_dealing_refuses_a_set_with_too_few_rares_for_its_players() {
    let set = sample_set();
    let none = vec![deal::NO_DESIGNER; set.designs.len()];
    let rares = set.designs.iter().filter(|d| d.rarity == super::super::cardset::Rarity::Rare).count();
    let err = Printing::new(Some(&set), &none, 9, Dealing::Designer).unwrap_err();
    assert_eq!(
        err,
        format!(
            "deal=designer for 9 players needs 27 printed rares (the set prints {rares}); use fewer players, a larger set or deal=independent"
        )
    );
}

/// A rare named `id` of value 5 with `extra` lines (keys of the card, then its abilities).
fn design(id: &str, extra: &str) -> String {
    format!("[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"rare\"\nvalue = 5\n{extra}")
}

#[test]
fn a_name_holds_thirty_characters_and_no_more() {
    let named = |n: usize| {
        let text = format!(
            "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n[[card]]\nid = \"x\"\nname = \"{}\"\nrarity = \"rare\"\nvalue = 5\n",
            "n".repeat(n)
        );
        parse("t.toml", &text).map(|set| set.designs[0].name.chars().count()).map_err(|e| e.to_string())
    };
    assert_eq!(named(30), Ok(30));
    let err = named(31).unwrap_err();
    assert!(err.contains("31 characters; a name holds 1-30"), "{err}");
}

#[test]
fn a_design_keeps_its_designer_and_not_its_notes() {
    let set = set_of(&design("x", "designer = \"Ann\"\nnotes = \"kept aside\"\n"));
    assert_eq!(set.designs[0].designer, "Ann");
}

#[test]
fn drawing_is_worth_a_card_to_the_drawer_and_the_opposite_to_the_opponent() {
    let draw = |player: &str| {
        set_of(&design(
            "d",
            &format!(
                "  [[card.ability]]\n  on = \"score_end\"\n  effect = \"draw\"\n  player = \"{player}\"\n"
            ),
        ))
        .worth[0]
    };
    assert_eq!([draw("you"), draw("opp"), draw("both")], [10, -10, 0]);
}

#[test]
fn a_selector_that_leaves_its_source_out_reads_other_card() {
    let read = |target: &str| {
        let set = set_of(&design(
            "o",
            &format!("  [[card.ability]]\n  effect = \"counter\"\n  target = {target}\n  amount = 1\n"),
        ));
        super::super::spell::read(&set, 0).sentences
    };
    assert_eq!(
        read("{ side = \"you\", other = true }"),
        ["When revealed: put a +1 counter on every other card of yours."]
    );
    assert_eq!(
        read("{ side = \"you\", other = true, pick = \"random\" }"),
        ["When revealed: put a +1 counter on a random other card of yours."]
    );
    let set = set_of(&design(
        "w",
        "  [[card.ability]]\n  on = \"destroyed\"\n  watch = { side = \"you\", other = true }\n  effect = \"draw\"\n",
    ));
    assert_eq!(
        super::super::spell::read(&set, 0).sentences,
        ["When another card of yours is destroyed: you draw 1 card."]
    );
}

#[test]
fn counters_on_your_cards_are_worth_their_amount_per_card_and_on_both_sides_nothing() {
    let counter = |target: &str| {
        set_of(&design(
            "c",
            &format!("  [[card.ability]]\n  on = \"score_end\"\n  effect = \"counter\"\n  target = {target}\n  amount = 1\n"),
        ))
        .worth[0]
    };
    // Two adjacent cards of yours: 2 values; of the opponent: -2; every card: 0 (it cancels out).
    assert_eq!(counter("{ side = \"you\", slots = \"adjacent\" }"), 20);
    assert_eq!(counter("{ side = \"opp\", slots = \"adjacent\" }"), -20);
    assert_eq!(counter("\"all\""), 0);
}

#[test]
fn every_dealing_is_found_by_its_name() {
    for d in [Dealing::Piles, Dealing::Designer, Dealing::Independent] {
        assert_eq!(Dealing::named(d.name()), Some(d));
    }
    assert_eq!(Dealing::named("shuffled"), None);
}

#[test]
fn a_slot_range_runs_upwards() {
    let ranged = |slots: &str| {
        let text = format!(
            "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{}",
            design(
                "r",
                &format!(
                    "  [[card.ability]]\n  effect = \"counter\"\n  target = {{ slots = \"{slots}\" }}\n  amount = 1\n"
                )
            )
        );
        parse("t.toml", &text).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(ranged("3-6"), Ok(()));
    assert_eq!(ranged("4-4"), Ok(()));
    let err = ranged("6-3").unwrap_err();
    assert!(err.contains("'6-3' is not a slot or slot range within 1-9"), "{err}");
}

#[test]
fn the_census_stops_a_game_that_plays_past_its_cap() {
    // With one replay the cap is (3 decisive + 2 tied rounds) x 9 slots = 45 slots.
    let census = |rounds: u32| {
        let mut g = position(1, [&[], &[]], [&[], &[]], &[]);
        g.st.rounds = rounds;
        g.st.decks = g.st.kept;
        let mut watch = super::super::census::AnswerCensus::new(1);
        crate::games::census::Watch::step(&mut watch, &g, &crate::record::GameRecord::EMPTY);
        watch.verdict()
    };
    assert!(census(5).is_ok(), "{:?}", census(5));
    let err = census(6).unwrap_err();
    assert!(err.contains("still going after 54 slots, past the cap of 45"), "{err}");
}

#[test]
fn an_event_records_the_games_counters_and_the_own_card_count() {
    let t = crate::games::contest::IntoEvent::into_event(
        super::super::event::SlotsEvent::new(Rules::with("highest"), 3, Dealing::Piles)
            .expect("textless events deal"),
    );
    let layout = t.layout();
    for name in super::super::engine::counter::NAMES {
        assert!(layout.counter(name).is_some(), "{name}");
    }
    assert!(layout.distribution("own_cards").is_some());
}

#[test]
fn an_event_ranks_each_pool_by_its_21_strongest_cards() {
    use crate::games::contest::Contest;
    let ev = super::super::event::SlotsEvent::new(Rules::with("highest"), 3, Dealing::Piles)
        .expect("textless events deal");
    let mut sc = Contest::new_scratch(&ev);
    let mut story = String::new();
    let mut rec = crate::record::GameRecord::EMPTY.clone();
    Contest::deal(&ev, GameSeed::new(6, 0), &mut sc, &mut rec, &mut crate::games::narrate::Story(&mut story));
    let pools: Vec<&str> = story.lines().filter(|l| l.contains(" pool (deal=piles, strength ")).collect();
    assert_eq!(pools.len(), 3, "{story}");
    for (p, line) in pools.iter().enumerate() {
        // "player 0 pool (deal=piles, strength 1230, ...): 9 8 ...": textless, so tenths of value.
        let (head, values) = line.split_once("): ").expect("the values");
        let mut values: Vec<i64> = values.split(' ').map(|v| v.parse().expect("a value")).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        let want: i64 = values[..21].iter().sum::<i64>() * 10;
        assert!(head.contains(&format!("strength {want}")), "{line}");
        assert_eq!(Contest::strength(&ev, &sc, p), Some(want));
    }
}

#[test]
fn a_static_ability_may_count_cards_but_not_by_their_current_value() {
    let counting = |sel: &str| {
        let text = format!(
            "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{}",
            design(
                "s",
                &format!(
                    "  [[card.ability]]\n  on = \"static\"\n  if = [ {{ count = {sel}, is = \">=1\" }} ]\n  effect = \"modify\"\n  target = \"self\"\n  amount = 1\n"
                )
            )
        );
        parse("t.toml", &text).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(counting("{ side = \"you\", printed = \">5\" }"), Ok(()));
    let err = counting("{ side = \"you\", value = \">5\" }").unwrap_err();
    assert!(err.contains("a static ability cannot read current values"), "{err}");
}

#[test]
fn a_lone_designer_deals_herself_only_her_own_cards() {
    for dealing in [Dealing::Piles, Dealing::Designer] {
        let printing = Printing::new(None, &[], 1, dealing).expect("textless sheets always deal");
        let mut pools = EventPools::default();
        pools.deal(&printing, dealing, &mut GameSeed::new(8, 0).rng());
        assert_eq!(pools.own(0), POOL, "{}", dealing.name());
    }
}
