//! Hand-built cases for what the third mutation run found unpinned (`docs/testing.md`, "Card
//! Wars, re-run after the rules audit"): each test names one rule of the table, the text, the
//! players or the event and fails when one line of it is changed.

use super::Script;
use super::abilities::{bench, score_start};
use super::kit::*;
use crate::games::narrate::Silent;
use crate::games::slots::Rules;
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
    let err = parse(
        "t.toml",
        &file_of(&probe("p", 3, "  on = \"revealed\"\n  turns = \"2-4\"\n  effect = \"draw\"")),
    )
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
        probe(
            "p",
            3,
            &format!(
                "  on = \"score_start\"\n  if = [ {{ count = {cond}, is = \">=1\" }} ]\n  effect = \"points\"\n  amount = 1"
            ),
        )
    };
    let err = parse("t.toml", &file_of(&card("{ side = \"opp\", pick = \"highest\" }")))
        .expect_err("a pick in a count is refused");
    assert!(err.ends_with("no pick here: a count takes every match"), "{err}");
    assert!(parse("t.toml", &file_of(&card("{ side = \"opp\" }"))).is_ok());
}

// ---------------------------------------------------------------------------------------------
// The designer's reading

/// The designer's flags of the first design of a set of `cards`.
fn flags(cards: &str) -> Vec<String> {
    let set = parse("t.toml", &file_of(cards)).expect("the test set parses");
    super::super::spell::read(&set, 0).flags
}

#[test]
fn a_per_over_slot_9_is_not_flagged_but_one_over_no_printed_value_is() {
    // Slot 9 is the last slot, not past it.
    let per = |sel: &str| {
        probe("p", 3, &format!("  on = \"score_end\"\n  effect = \"points\"\n  amount = 1\n  per = {sel}"))
    };
    assert_eq!(flags(&per("{ side = \"you\", slots = 9 }")), Vec::<String>::new());
    assert_eq!(flags(&per("{ side = \"you\", slots = \"9-9\" }")), Vec::<String>::new());
    assert_eq!(
        flags(&per("{ side = \"you\", printed = \">9\" }")),
        ["ability 1 can never act: its `per` counts no card (no printed value 1-9 passes)"]
    );
}

#[test]
fn a_cards_strength_is_its_effect_times_its_reach_side_trigger_and_conditions() {
    // Worths in tenths of a point (`strength.rs`): effect x side x reach x fires x 1/2 per
    // condition, x 10.
    let cards = [
        // destroy: 5 per opposing card, 2 adjacent places: 5 x 2 = 10 points.
        probe("destroyer", 3, "  effect = \"destroy\"\n  target = { side = \"opp\", slots = \"adjacent\" }"),
        // counter +2 on 4 places behind, per a count: 2 x 2 (per) x 4 = 16.
        probe(
            "counter",
            3,
            "  effect = \"counter\"\n  amount = 2\n  target = { side = \"you\", slots = \"prev\" }\n  per = { side = \"you\" }",
        ),
        // set to 8 on the opponent's slots 1-3: (8 - 5) x -1 x 3 = -9.
        probe("setter", 3, "  effect = \"set\"\n  to = 8\n  target = { side = \"opp\", slots = \"1-3\" }"),
        // a point for the opponent on turns 2-5 (fires twice), if slot 1 is taken by you: -3 x 2 / 2.
        probe(
            "gift",
            3,
            "  on = \"turn_start\"\n  turns = \"2-5\"\n  if = [ { slot = 1 } ]\n  effect = \"points\"\n  player = \"opp\"\n  amount = 1",
        ),
        // modify +1 on the opposing card only while it is face up (one filter halves): watcher 1/2.
        probe(
            "watcher",
            3,
            "  on = \"revealed\"\n  watch = \"oc\"\n  effect = \"modify\"\n  amount = 1\n  target = { side = \"you\", face = \"up\" }",
        ),
        // multiply the opponent's slots 1-2: about 3 points each, against: 3 x -1 x 2 = -6.
        probe(
            "doubler",
            3,
            "  effect = \"multiply\"\n  by = 2\n  target = { side = \"opp\", slots = \"1-2\" }",
        ),
        // set to 8 on both sides' slots 1-2: for one side as much as against it, 0.
        probe("leveller", 3, "  effect = \"set\"\n  to = 8\n  target = { side = \"both\", slots = \"1-2\" }"),
    ];
    let set = parse("t.toml", &file_of(&cards.concat())).expect("the test set parses");
    assert_eq!(set.worth, [100, 160, -90, -30, 23, -60, 0]);
}

/// Answers no decision inside an ability; between rounds seat 0 takes `deck`, seat 1 keeps its own.
struct NewDeck(Stack);

impl Choices for NewDeck {
    fn targets(&mut self, _: &State, _: &Ask, _: &Places, _: &mut Places) {
        unreachable!("no text")
    }
    fn take(&mut self, _: &State, _: &Ask, _: &Places) -> bool {
        unreachable!("no text")
    }
    fn discard(&mut self, _: &State, _: usize) -> usize {
        unreachable!("no text")
    }
    fn sideboard(&mut self, _: &State, seat: usize, out: &mut Stack) -> bool {
        *out = self.0;
        seat == 0
    }
}

#[test]
fn a_new_deck_between_rounds_counts_the_cards_that_came_in() {
    // Equal printed values: `top21` keeps seat 0's first 21 cards (ids 0-20). The new deck drops
    // 0 and 1 for 21 and 22: two cards came in.
    let mut st = State::new(DeckPolicy::Adapt, 10);
    st.pools.size = [POOL as u8; SEATS];
    st.pools.printed.fill(5);
    for seat in 0..SEATS {
        DeckPolicy::Adapt.keep(&st.pools, None, seat, &mut st.kept[seat]);
    }
    assert_eq!(st.kept[0].as_slice(), (0..21).collect::<Vec<u8>>());
    st.rounds = 1;
    let deck: Vec<u8> = (2..23).collect();
    let mut g = Game::on(st);
    g.stop_at_turn();
    g.next_round(&mut GameSeed::new(1, 1).rng(), &mut Silent, &mut NewDeck(Stack::of(&deck)));
    assert_eq!((g.tally.sideboard_swaps, g.st.kept[0].as_slice()), (2, &deck[..]));
    assert_eq!(g.st.kept[1].as_slice(), (POOL as u8..POOL as u8 + 21).collect::<Vec<u8>>());
}

// ---------------------------------------------------------------------------------------------
// The event

#[test]
fn an_event_judges_each_design_against_its_rarity_and_printed_value() {
    // Two designers; rares of 9, uncommons and commons of every value. A design's stratum is
    // rarity x 16 + value (common 0, uncommon 1, rare 2): a common 5 and an uncommon 4 differ.
    let mut text = String::new();
    let mut want = Vec::new();
    let mut card = |id: String, rarity: usize, value: u8, k: usize| {
        let designer = ["A", "B"][k % 2];
        let name = ["common", "uncommon", "rare"][rarity];
        text += &format!(
            "[[card]]\nid = \"{id}\"\nname = \"{id}\"\nrarity = \"{name}\"\nvalue = {value}\ndesigner = \"{designer}\"\n"
        );
        want.push(rarity as u16 * 16 + value as u16);
    };
    for k in 0..6 {
        card(format!("r{k}"), 2, 9, k);
    }
    for v in 1..=9u8 {
        for k in 0..2 {
            card(format!("u{v}{k}"), 1, v, k);
            card(format!("c{v}{k}"), 0, v, k);
        }
    }
    let set = parse("t.toml", &file_of(&text)).expect("the test set parses");
    let rules = Rules { cards: Some(std::sync::Arc::new(set)), ..Rules::with("highest") };
    let ev = super::super::event::SlotsEvent::new(rules, 2, super::super::deal::Dealing::Piles)
        .expect("the set deals");
    let t = crate::games::contest::IntoEvent::into_event(ev);
    let layout = t.layout();
    let makers = layout.cards.as_ref().and_then(|c| c.makers.as_ref()).expect("the designers are known");
    assert_eq!(&want[..3], [41, 41, 41]);
    assert_eq!(makers.stratum, want);
}

#[test]
fn an_effect_lasting_while_its_source_stays_does_not_start_once_its_source_was_hidden_in_its_batch() {
    // Two 4s at [SSCORE], applied in table order: P1's in S1 hides P0's in S2 first; P0's then
    // would change the 5 opposing it while it stays face up. It no longer is: nothing starts,
    // and the 5 stays 5.
    let hider = probe(
        "hider",
        4,
        "  on = \"score_start\"\n  effect = \"hide\"\n  target = { side = \"opp\", slots = 2 }",
    );
    for (change, changed) in [
        ("effect = \"multiply\"\n  by = 2", 10),
        ("effect = \"modify\"\n  amount = 2", 7),
        ("effect = \"set\"\n  to = 1", 1),
    ] {
        let changer = probe(
            "changer",
            4,
            &format!("  on = \"score_start\"\n  {change}\n  target = \"oc\"\n  duration = \"source\""),
        );
        let run = |hidden: bool| {
            let mut b = bench(&format!("{hider}{changer}"));
            if hidden {
                b.up(1, "hider", 1);
            }
            let c = b.up(0, "changer", 2);
            let five = b.up(1, "vanilla-5", 2);
            let mut g = b.game();
            score_start(&mut g);
            assert_eq!((g.st.is_face_up(c), g.tally.fizzles), (!hidden, 0), "{change}");
            (g.st.value(five), g.st.timed.len())
        };
        assert_eq!(run(false), (changed, 1), "{change}");
        assert_eq!(run(true), (5, 0), "{change}");
    }
}

#[test]
fn a_fixed_pool_names_seat_0_or_1() {
    let pool = |seat: usize| {
        let cards = vec!["\"vanilla-5\""; 21].join(", ");
        file_of(&format!(
            "{}\n[[pool]]\nseat = {seat}\ncards = [{cards}]\n",
            probe("p", 3, "  effect = \"draw\"")
        ))
    };
    assert!(parse("t.toml", &pool(1)).expect("seat 1 is a seat").fixed[1].is_some());
    let err = parse("t.toml", &pool(2)).expect_err("there is no seat 2");
    assert!(err.ends_with("pool, key 'seat': out of range: allowed 0 to 1"), "{err}");
}

#[test]
fn result_lost_holds_only_for_a_slot_the_opponent_took() {
    // A 1 scoring 5 points when its slot is lost: against a 5 it is; against a 1 (a tie) or an
    // empty place (its own) it is not.
    let loser = probe(
        "loser",
        1,
        "  on = \"slot_scored\"\n  if = [ { result = \"lost\" } ]\n  effect = \"points\"\n  amount = 5",
    );
    for (opposing, points) in [(Some("vanilla-5"), [5, 1]), (Some("vanilla-1"), [0, 0]), (None, [1, 0])] {
        let mut b = bench(&loser);
        b.up(0, "loser", 1);
        if let Some(card) = opposing {
            b.up(1, card, 1);
        }
        let mut g = b.game();
        g.score_slots(&mut Silent, &mut Script::none());
        assert_eq!(g.st.points, points, "against {opposing:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The players

#[test]
fn the_greedy_player_declines_a_you_may_that_gains_exactly_nothing() {
    // A draw for both players gains each as much as the other: worth 0, so not taken; one for
    // the player alone gains a card.
    let st = super::fresh_state(10);
    let mut obs = Observation::default();
    st.observe(0, &mut obs);
    let ask = |player| Ask {
        seat: 0,
        source: 0,
        effect: super::super::cardset::Effect::Draw { player, amount: 1 },
        n: 1,
        partner: Places::default(),
    };
    use super::super::cardset::Player;
    use super::super::judge;
    assert_eq!(judge::gain(&obs, 0, &ask(Player::Both).effect, &[]), 0);
    assert!(!judge::take(&obs, &ask(Player::Both), &Places::default()));
    assert!(judge::take(&obs, &ask(Player::You), &Places::default()));
}

#[test]
fn an_event_keeps_design_columns_only_for_known_designers_or_measured_impact() {
    // The sample set names no designers: its designs get columns only when their impact is
    // measured (`impact=cards`). An event's games share its deal, so its entrants' points are
    // counted too.
    let sample = include_str!("../../../../scenarios/cards/sample.toml");
    let set = std::sync::Arc::new(parse("sample.toml", sample).expect("the sample set parses"));
    let layout = |impact| {
        let rules = Rules { cards: Some(set.clone()), impact, ..Rules::with("highest") };
        let ev = super::super::event::SlotsEvent::new(rules, 2, super::super::deal::Dealing::Piles)
            .expect("the sample set deals");
        crate::games::contest::IntoEvent::into_event(ev).layout().clone()
    };
    let (plain, measured) = (layout(Impact::None), layout(Impact::Cards));
    assert!(plain.cards.is_none());
    let cards = measured.cards.as_ref().expect("impact=cards measures each design");
    assert_eq!(cards.keys.len(), set.designs.len());
    for l in [&plain, &measured] {
        assert!(l.entrants.as_ref().expect("an event has entrants").by_event);
    }
}

#[test]
fn recover_reads_back_which_card_it_takes() {
    let sentence = |pick: &str| {
        let set = parse(
            "t.toml",
            &file_of(&probe(
                "p",
                4,
                &format!("  on = \"score_start\"\n  effect = \"recover\"\n  pick = \"{pick}\""),
            )),
        )
        .expect("the test set parses");
        super::super::spell::read(&set, 0).sentences
    };
    let said = |how: &str| {
        [format!("At the start of scoring: you take 1 card {how} from your pile into your hand.")]
    };
    assert_eq!(sentence("lowest"), said("with the lowest printed value"));
    assert_eq!(sentence("highest"), said("with the highest printed value"));
    assert_eq!(sentence("random"), said("at random"));
}

#[test]
fn only_search_is_timed_at_every_decision_and_only_reader_and_search_observe() {
    // `random` and `highest` decide from the hand alone and cost next to nothing: one decision
    // in 64 is timed; `search` plays rollouts for each decision, so each is timed.
    let rules = Rules::with("highest");
    for (p, name) in super::super::setup::POLICIES.iter().enumerate() {
        let agent = Agent::new(p, &rules);
        assert_eq!(agent.costly(), *name == "search", "{name}");
        assert_eq!(agent.observes(), matches!(*name, "reader" | "search"), "{name}");
    }
}

#[test]
fn a_searchs_random_answer_is_any_card_of_the_hand_alike() {
    // Seat 0 holds three cards: over 300 draws each index comes about 100 times (binomial, sd
    // 8.2; the bounds are 5 sd).
    use crate::decide::search::Steps;
    let mut sim = super::super::search::Sim::new();
    let hand = [super::card(0, 3, 1), super::card(0, 9, 1), super::card(0, 5, 1)];
    sim.game = super::position(1, [&hand, &[super::card(1, 7, 1)]], [&[], &[]], &[]);
    let mut rng = GameSeed::new(4, 4).rng();
    let mut seen = [0; 3];
    for _ in 0..300 {
        let mut out = u8::MAX;
        sim.random_action(&mut rng, &mut out);
        seen[out as usize] += 1;
    }
    assert!(seen.iter().all(|n| (59..=141).contains(n)), "{seen:?}");
}

// ---------------------------------------------------------------------------------------------
// The story and the designer's report

#[test]
fn a_rounds_story_says_how_many_rounds_were_tied_only_when_some_were() {
    let first_line = |ties: u32| {
        let mut st = super::fresh_state(10);
        (st.rounds, st.ties, st.wins) = (3, ties, [1, 0]);
        let mut story = String::new();
        super::super::narrate::round(&st, &mut crate::games::narrate::Story(&mut story));
        story.lines().next().expect("a line").to_string()
    };
    assert_eq!(first_line(0), "Round 3; rounds won P0 1 P1 0");
    assert_eq!(first_line(1), "Round 3 (1 tied so far); rounds won P0 1 P1 0");
}

#[test]
fn the_designers_csv_report_has_a_header_and_a_row_per_design() {
    let set = parse(
        "t.toml",
        &file_of(
            "[[card]]\nid = \"drawer\"\nname = \"Drawer, Sr\"\nrarity = \"rare\"\nvalue = 4\ntext = \"Draw 7.\"\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"draw\"\n",
        ),
    )
    .expect("the test set parses");
    // One header, one row: a name with a comma is quoted; the 7 of the text is in no ability, so
    // the design is flagged and not expressed.
    assert_eq!(
        super::super::spell::report(&set, true),
        "id,name,rarity,value,text,abilities,expressed,flags\n\
         drawer,\"Drawer, Sr\",rare,4,Draw 7.,At the start of scoring: you draw 1 card.,false,\
         the text's number(s) 7 appear in no ability\n"
    );
}

#[test]
fn the_values_line_sums_the_statics_of_one_source() {
    // Twin Aura gives the card beside it +2 and +1 with two static abilities: one source, +3.
    let aura = "\n[[card]]\nid = \"twin-aura\"\nname = \"Twin Aura\"\nrarity = \"rare\"\nvalue = 2\n  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = { side = \"you\", slots = \"adjacent\" }\n  amount = 2\n  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = { side = \"you\", slots = \"adjacent\" }\n  amount = 1\n";
    let mut b = bench(aura);
    let five = b.up(0, "vanilla-5", 1);
    b.up(0, "twin-aura", 2);
    let g = b.game();
    assert_eq!(g.st.value(five), 8);
    let mut story = String::new();
    super::super::narrate::values(&g.st, &mut crate::games::narrate::Story(&mut story));
    assert_eq!(story.trim(), "values: S1 8(+3 static: Twin Aura 2 +3)/- S2 2/-");
}

#[test]
fn a_count_of_a_zone_reads_the_side_of_the_cards_controller() {
    // P1's 4 scores 1 point per card in a zone: P0 holds 3 cards in hand, 2 in the pile and 1
    // in the deck; P1 holds 1, 0 and 4.
    let run = |per: &str| {
        let counter = probe(
            "counter",
            4,
            &format!("  on = \"score_start\"\n  effect = \"points\"\n  amount = 1\n  per = {per}"),
        );
        let mut b = bench(&counter);
        b.up(1, "counter", 3);
        for (seat, hand, pile, deck) in [(0, 3, 2, 1), (1, 1, 0, 4)] {
            for _ in 0..hand {
                b.hand(seat, "vanilla-2");
            }
            for _ in 0..pile {
                let id = b.card(seat, "vanilla-2");
                b.st.piles[seat].push(id);
            }
            for _ in 0..deck {
                b.deck(seat, "vanilla-2");
            }
        }
        let mut g = b.game();
        score_start(&mut g);
        g.st.points
    };
    assert_eq!(run("{ zone = \"hand\", side = \"opp\" }"), [0, 3]);
    assert_eq!(run("{ zone = \"hand\", side = \"you\" }"), [0, 1]);
    assert_eq!(run("{ zone = \"pile\", side = \"opp\" }"), [0, 2]);
    assert_eq!(run("{ zone = \"deck\", side = \"you\" }"), [0, 4]);
    assert_eq!(run("{ zone = \"deck\", side = \"both\" }"), [0, 5]);
}

#[test]
fn a_swap_counts_each_of_its_places_that_holds_a_stack() {
    // In S3 P0's swapper lies on a 3 and swaps itself with the 6 opposing it, alone in its
    // place: one of the two places holds a stack (S1 and S2 are empty).
    let swapper =
        probe("swapper", 4, "  on = \"score_start\"\n  effect = \"swap\"\n  a = \"self\"\n  b = \"oc\"");
    let mut b = bench(&swapper);
    let three = b.up(0, "vanilla-3", 3);
    let s = b.up(0, "swapper", 3);
    let six = b.up(1, "vanilla-6", 3);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[2], g.st.under[2][0].as_slice()), ([six, s], &[three][..]));
    assert_eq!(g.tally.stack_swaps, 1);
}

#[test]
fn a_watch_on_this_slot_answers_only_cards_turned_up_in_the_watchers_slot() {
    // P0's watcher in S2 takes a +1 counter whenever a card of its own slot turns up.
    let watcher = probe(
        "watcher",
        4,
        "  on = \"revealed\"\n  watch = { slots = \"this\" }\n  effect = \"counter\"\n  target = \"self\"\n  amount = 1",
    );
    let mut b = bench(&watcher);
    let w = b.up(0, "watcher", 2);
    let here = b.down(1, "vanilla-5", 2);
    let there = b.down(1, "vanilla-6", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[there], &mut Script::none());
    assert_eq!(g.st.counter_sum(w), 0, "S3 is not this slot");
    g.reveal_for_tests(&[here], &mut Script::none());
    assert_eq!(g.st.counter_sum(w), 1);
}

#[test]
fn other_leaves_the_source_out_of_its_own_targets() {
    // A 4 puts a +1 counter on each of "your other cards": the 2 and the 3 beside it, not itself.
    let booster = probe(
        "booster",
        4,
        "  on = \"score_start\"\n  effect = \"counter\"\n  target = { side = \"you\", other = true }\n  amount = 1",
    );
    let mut b = bench(&booster);
    let two = b.up(0, "vanilla-2", 1);
    let me = b.up(0, "booster", 2);
    let three = b.up(0, "vanilla-3", 3);
    let theirs = b.up(1, "vanilla-3", 2);
    let mut g = b.game();
    score_start(&mut g);
    let counters = [two, me, three, theirs].map(|id| g.st.counter_sum(id));
    assert_eq!(counters, [1, 0, 1, 0]);
}

#[test]
fn a_watch_on_the_stacked_cards_answers_only_cards_of_its_own_place() {
    // P0's watcher in S2 lies on P0's face-down 5 and takes a +1 counter whenever a card stacked
    // with it turns up: the 5 under it does, P1's 6 across the slot does not.
    let watcher = probe(
        "watcher",
        4,
        "  on = \"revealed\"\n  watch = \"stacked\"\n  effect = \"counter\"\n  target = \"self\"\n  amount = 1",
    );
    let mut b = bench(&watcher);
    let under = b.down(0, "vanilla-5", 2);
    let w = b.up(0, "watcher", 2);
    let across = b.down(1, "vanilla-6", 2);
    let mut g = b.game();
    assert_eq!(g.st.under[1][0].as_slice(), [under]);
    g.reveal_for_tests(&[across], &mut Script::none());
    assert_eq!(g.st.counter_sum(w), 0, "across the slot is another place");
    g.reveal_for_tests(&[under], &mut Script::none());
    assert_eq!(g.st.counter_sum(w), 1);
}

#[test]
fn an_events_census_checks_every_step_of_its_games() {
    // Two entrants meet once. A textless game is checked after the deal and after each of its
    // placements, 18 a round (9 turns, two seats, a hand never empty); it plays at least
    // `ROUNDS_TO_WIN` rounds.
    let t = crate::games::contest::IntoEvent::into_event(
        super::super::event::SlotsEvent::new(Rules::with("highest"), 2, super::super::deal::Dealing::Piles)
            .expect("textless events deal"),
    );
    for index in 0..3 {
        let steps = t.census(GameSeed::new(9, index)).expect("every card accounted for");
        let placements = steps - 1;
        assert!(placements >= 18 * ROUNDS_TO_WIN as u64 && placements.is_multiple_of(18), "{steps}");
    }
}

#[test]
fn the_designers_reading_flags_watches_on_faces_a_trigger_never_sees_and_a_slot_past_9() {
    let watcher = |on: &str, face: &str| {
        probe(
            "w",
            3,
            &format!(
                "  on = \"{on}\"\n  watch = {{ face = \"{face}\" }}\n  effect = \"counter\"\n  target = \"self\"\n  amount = 1"
            ),
        )
    };
    assert_eq!(
        flags(&watcher("revealed", "down")),
        ["ability 1 can never act: a revealed card is face up, and the watch wants it face down"]
    );
    assert_eq!(
        flags(&watcher("placed", "up")),
        ["ability 1 can never act: a card is placed face down, and the watch wants it face up"]
    );
    // A face-down card can be destroyed, a face-up one revealed.
    assert_eq!(flags(&watcher("destroyed", "down")), Vec::<String>::new());
    assert_eq!(flags(&watcher("revealed", "up")), Vec::<String>::new());
    let slot = |cmp: &str| {
        probe(
            "s",
            3,
            &format!("  on = \"score_start\"\n  if = [ {{ slot = \"{cmp}\" }} ]\n  effect = \"draw\""),
        )
    };
    assert_eq!(flags(&slot(">9")), ["ability 1 can never act: a condition never holds (slots are 1-9)"]);
    assert_eq!(flags(&slot(">=9")), Vec::<String>::new());
}

#[test]
fn an_opposing_card_face_up_or_down_needs_an_opposing_card() {
    // A 4 scores a point if the card opposing it is face up (or face down): an empty place is
    // neither.
    for (state, opposing, point) in [
        ("up", None, 0),
        ("up", Some(true), 1),
        ("up", Some(false), 0),
        ("down", None, 0),
        ("down", Some(false), 1),
        ("down", Some(true), 0),
    ] {
        let cond = probe(
            "cond",
            4,
            &format!(
                "  on = \"score_start\"\n  if = [ {{ oc = \"{state}\" }} ]\n  effect = \"points\"\n  amount = 1"
            ),
        );
        let mut b = bench(&cond);
        b.up(0, "cond", 2);
        match opposing {
            Some(true) => {
                b.up(1, "vanilla-5", 2);
            }
            Some(false) => {
                b.down(1, "vanilla-5", 2);
            }
            None => {}
        }
        let mut g = b.game();
        score_start(&mut g);
        assert_eq!(g.st.points[0], point, "oc {state}, opposing {opposing:?}");
    }
}

#[test]
fn adapt_weighs_each_kind_of_sideboard_card_not_only_the_first() {
    // As in `sideboard.rs`: between rounds 1 and 2 (the first tied), seat 0 holds textless nines
    // and, last in pool order, a 1 and then a nine that destroys an opposing printed 9; seat 1
    // has shown nine nines. `top21` keeps 21 nines: the 1 and the destroyer wait on the
    // sideboard, two kinds. The 1 in for a nine loses; the destroyer in wins, and comes in.
    let breaker = "[[card]]\nid = \"breaker\"\nname = \"Breaker\"\nrarity = \"common\"\nvalue = 9\n  [[card.ability]]\n  if = [ { oc_printed = \">=9\" } ]\n  effect = \"destroy\"\n  target = \"oc\"\n";
    let set = parse("t.toml", &file_of(breaker)).expect("the test set parses");
    let mut st = State::new(DeckPolicy::Adapt, 10);
    st.text = true;
    st.set = Some(std::sync::Arc::new(set));
    st.pools.size = [POOL as u8; SEATS];
    st.pools.printed.fill(9);
    st.pools.design.fill(TEXTLESS);
    let (one, destroyer) = (POOL as u8 - 2, POOL as u8 - 1);
    st.pools.printed[one as usize] = 1;
    st.pools.design[destroyer as usize] = 0;
    for seat in 0..SEATS {
        DeckPolicy::Adapt.keep(&st.pools, st.set.as_deref(), seat, &mut st.kept[seat]);
    }
    assert_eq!(st.kept[0].as_slice(), (0..21).collect::<Vec<u8>>());
    (st.rounds, st.ties) = (1, 1);
    st.shown = ((1u64 << 9) - 1) << POOL;
    let mut sb = super::super::sideboard::Sideboard::default();
    let mut deck = Stack::default();
    assert!(sb.choose(&st, 0, &mut GameSeed::new(5, 5).rng(), &mut deck), "a swap is made");
    assert!(deck.as_slice().contains(&destroyer) && !deck.as_slice().contains(&one));
    // Out went the nine `top21` drops first: the last in pool order.
    assert!(!deck.as_slice().contains(&20) && deck.len() == DECK);
}

#[test]
fn impact_needs_a_card_set_and_none_needs_nothing() {
    let rules = |pairs: &[(&str, &str)]| {
        let explicit: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let s = crate::settings::resolve(
            "slots",
            super::super::SETTINGS,
            super::super::PRESETS,
            &Default::default(),
            &explicit,
        )
        .expect("known settings");
        Rules::from_settings(&s)
    };
    assert_eq!(rules(&[]).expect("the textless default").impact, Impact::None);
    assert_eq!(
        rules(&[("impact", "cards")]).expect_err("no set to measure"),
        "impact=cards measures the cards of a card set: add cards=FILE (or leave impact=none)"
    );
}

#[test]
fn a_random_discard_is_any_card_of_the_hand_alike() {
    // Five cards: over 500 draws each index comes about 100 times (binomial, sd 8.9; the bounds
    // are 5 sd).
    let mut rng = GameSeed::new(6, 6).rng();
    let mut seen = [0; 5];
    for _ in 0..500 {
        seen[super::super::choices::uniform_discard(5, &mut rng)] += 1;
    }
    assert!(seen.iter().all(|n| (55..=145).contains(n)), "{seen:?}");
}

#[test]
fn the_story_says_how_many_events_the_cascade_limit_dropped() {
    let mut story = String::new();
    super::super::narrate::cascade_cut(3, &mut crate::games::narrate::Story(&mut story));
    assert_eq!(story, "    cascade limit: 3 event(s) dropped\n");
}

#[test]
fn a_card_of_seat_1_moves_onto_the_next_slot() {
    // At the start of scoring (every slot played), P1's mover in S1 moves itself onto S2, empty
    // on its side; a move onto its own slot does nothing.
    let mover = |slot: &str| {
        probe(
            "mover",
            5,
            &format!("  on = \"score_start\"\n  effect = \"move\"\n  target = \"self\"\n  slot = {slot}"),
        )
    };
    for (slot, to) in [("2", 1), ("\"this\"", 0)] {
        let mut b = bench(&mover(slot));
        let m = b.up(1, "mover", 1);
        b.st.in_play = (1 << SLOTS) - 1;
        let mut g = b.game();
        score_start(&mut g);
        assert_eq!(g.st.slots[to][1], m, "slot = {slot}");
        assert_eq!(g.st.under[to][1].as_slice(), &[] as &[u8], "slot = {slot}");
        assert_eq!(g.st.slots[1 - to][1], NONE, "slot = {slot}");
    }
}

#[test]
fn the_cascade_limit_drops_only_events_someone_listens_for() {
    // Strobe hides and reveals again every card turned up, so each reveal of P1's 4 starts the
    // next moment until the limit cuts the cascade; P0's drummer draws P0 a card whenever a card
    // of P1 turns up. No card answers a draw, so no draw is an event: the cut drops the 4's last
    // reveal alone.
    let drummer = probe(
        "drummer",
        6,
        "  on = \"revealed\"\n  watch = { side = \"opp\" }\n  effect = \"draw\"\n  player = \"you\"",
    );
    let mut b = bench(&drummer);
    b.up(0, "strobe", 1);
    b.up(0, "drummer", 2);
    let four = b.down(1, "vanilla-4", 1);
    for _ in 0..12 {
        b.deck(0, "vanilla-2");
    }
    let mut g = b.game();
    g.reveal_for_tests(&[four], &mut Script::none());
    assert_eq!((g.tally.cascade_cut, g.tally.re_reveals), (1, MAX_MOMENTS as u64));
    // The drummer drew once in each of the MAX_MOMENTS moments: for the first reveal, then for
    // each reveal heard before the cut.
    assert_eq!(g.st.hands[0].len(), MAX_MOMENTS);
}

#[test]
fn the_strength_policy_weighs_a_printed_point_as_ten_tenths_of_text() {
    // Seat 0's pool: 21 textless 9s (strength 90) and, first in pool order, nine 1s that draw two
    // cards when revealed (10 + 20 = 30). The 21 strongest are the nines.
    let drawer = probe("drawer", 1, "  effect = \"draw\"\n  amount = 2");
    let set = parse("t.toml", &file_of(&drawer)).expect("the test set parses");
    assert_eq!(set.worth, [20]);
    let mut st = State::new(DeckPolicy::Strength, 10);
    st.pools.size = [POOL as u8; SEATS];
    st.pools.printed.fill(9);
    st.pools.design.fill(TEXTLESS);
    for id in 0..9 {
        (st.pools.printed[id], st.pools.design[id]) = (1, 0);
    }
    let mut deck = Stack::default();
    DeckPolicy::Strength.keep(&st.pools, Some(&set), 0, &mut deck);
    assert_eq!(deck.as_slice(), (9..30).collect::<Vec<u8>>());
}

#[test]
fn the_greedy_judge_adds_a_modifier_or_counter_to_the_cards_strength() {
    // Slot 1: my 5 against their 6. +2 on my 5 turns the slot: from -8 - 1 to +8 + 1, a gain of
    // 18 (the same for a +2 counter); -2 on their 6 as well.
    use super::super::cardset::{Duration, Effect, Selector};
    use super::super::judge;
    use super::super::rules::Seen;
    let mut obs = Observation::default();
    obs.table[0][0] = Seen::Up { id: 0, printed: 5, value: 5, counters: 0 };
    obs.table[0][1] = Seen::Up { id: POOL as u8, printed: 6, value: 6, counters: 0 };
    let modify =
        |amount| Effect::Modify { target: Selector::ALL, amount, per: None, duration: Duration::Round };
    let counter = |amount| Effect::Counter { target: Selector::ALL, amount, per: None };
    assert_eq!(judge::gain(&obs, 0, &modify(2), &[0]), 18);
    assert_eq!(judge::gain(&obs, 0, &counter(2), &[0]), 18);
    assert_eq!(judge::gain(&obs, 0, &modify(-2), &[1]), 18);
}

#[test]
fn adapt_takes_the_first_of_equally_clear_swaps_however_much_each_gains() {
    // Every card in hand from the start (an opening hand of 21) and both seats placing their
    // highest card: each simulated round is the same whatever the shuffle. Seat 1 has shown only
    // 5s. Seat 0's deck: four 6s, five 4s and twelve 1s; it places the 6s, then the 4s: four
    // slots won, five lost, the round lost (0). Its sideboard: a 5 (first in pool order), a 6,
    // and 1s like the card a swap drops. With the 5 in, one 4-v-5 becomes 5-v-5: four won, four
    // lost, a tie (1, a gain of 1 in each rollout); with the 6 in, five won: a win (a gain of 2).
    // Each gain is the same in all 24 rollouts, so each swap is as clear as can be (the sum over
    // the root of the sum of squares: 24 / 24^0.5 = 48 / 96^0.5); the first, the 5, is taken.
    let mut st = State::new(DeckPolicy::Adapt, 10);
    st.pools.size = [POOL as u8; SEATS];
    st.pools.printed.fill(5);
    st.pools.design.fill(TEXTLESS);
    let mine = [6, 6, 6, 6, 4, 4, 4, 4, 4, 5, 6];
    for (id, &v) in mine.iter().enumerate() {
        st.pools.printed[id] = v;
    }
    st.pools.printed[mine.len()..POOL].fill(1);
    // The deck: ids 0-8 and twelve 1s (11-22); the 5 (9), the 6 (10) and seven 1s wait.
    let deck: Vec<u8> = (0..9).chain(11..23).collect();
    st.kept[0] = Stack::of(&deck);
    DeckPolicy::Top21.keep(&st.pools, None, 1, &mut st.kept[1]);
    st.opening_hand = DECK as u8;
    (st.rounds, st.wins) = (1, [0, 1]);
    st.shown = ((1u64 << 9) - 1) << POOL;
    let mut sb = super::super::sideboard::Sideboard::default();
    let mut out = Stack::default();
    assert!(sb.choose(&st, 0, &mut GameSeed::new(8, 8).rng(), &mut out), "a swap is made");
    let five_in: Vec<u8> = (0..10).chain(11..22).collect();
    assert_eq!(out.as_slice(), five_in, "the 5 in for the last 1");
}

#[test]
fn a_look_that_bottoms_no_printed_value_is_flagged() {
    let look = |bottom: &str| {
        probe("l", 3, &format!("  on = \"score_start\"\n  effect = \"look\"\n  bottom = \"{bottom}\""))
    };
    assert_eq!(flags(&look(">9")), ["ability 1 can never act: no printed value 1-9 goes to the bottom"]);
    assert_eq!(flags(&look("<=4")), Vec::<String>::new());
}

#[test]
fn recover_takes_from_the_pile_of_seat_1_too() {
    // P1's digger takes the highest card of P1's pile into P1's hand.
    let digger = probe("digger", 4, "  on = \"score_start\"\n  effect = \"recover\"\n  pick = \"highest\"");
    let mut b = bench(&digger);
    b.up(1, "digger", 1);
    let pile: Vec<u8> = [5, 7, 2].iter().map(|v| b.card(1, &format!("vanilla-{v}"))).collect();
    b.st.piles[1] = Stack::of(&pile);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(
        (g.st.hands[1].as_slice(), g.st.piles[1].as_slice()),
        (&[pile[1]][..], &[pile[0], pile[2]][..])
    );
}

#[test]
fn a_multiply_and_a_destroy_of_one_card_in_one_batch_conflict() {
    // Two 4s at [SSCORE]: P0's doubles the card opposing it, P1's destroys that same card (its own
    // 6 in S1 is the target of both). Their order would decide the outcome: both fizzle.
    let doubler =
        probe("doubler", 4, "  on = \"score_start\"\n  effect = \"multiply\"\n  by = 2\n  target = \"oc\"");
    let breaker = probe(
        "breaker",
        4,
        "  on = \"score_start\"\n  effect = \"destroy\"\n  target = { side = \"you\", slots = 1 }",
    );
    let mut b = bench(&format!("{doubler}{breaker}"));
    b.up(0, "doubler", 1);
    let six = b.up(1, "vanilla-6", 1);
    b.up(1, "breaker", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.tally.fizzles, g.st.value(six), g.st.slots[0][1]), (2, 6, six));
}

#[test]
fn a_count_of_a_hand_pile_or_deck_is_read_back_by_its_zone() {
    let sentence = |zone: &str| {
        let set = parse(
            "t.toml",
            &file_of(&probe(
                "p",
                4,
                &format!(
                    "  on = \"score_end\"\n  effect = \"points\"\n  amount = 1\n  per = {{ zone = \"{zone}\", side = \"you\" }}"
                ),
            )),
        )
        .expect("the test set parses");
        super::super::spell::read(&set, 0).sentences
    };
    let said = |zone: &str| {
        [format!("At the end of scoring: you get +1 point for each of the cards in your {zone}.")]
    };
    for zone in ["hand", "pile", "deck"] {
        assert_eq!(sentence(zone), said(zone));
    }
}

#[test]
fn one_cards_instances_of_one_moment_resolve_one_after_the_other() {
    // One ability, two events at once: whenever any card turns up, return the card opposing this
    // one. P0's 6 and P1's 5 turn up together: the second instance waits for the first (a step
    // later), then finds the 8 gone. (A 3 of P0 lies in S4 so that the bouncer is not card 0.)
    let bouncer = probe(
        "bouncer",
        4,
        "  on = \"revealed\"\n  watch = { side = \"both\" }\n  effect = \"return\"\n  target = \"oc\"",
    );
    let mut b = bench(&bouncer);
    b.up(0, "vanilla-3", 4);
    b.up(0, "bouncer", 1);
    let eight = b.up(1, "vanilla-8", 1);
    let six = b.down(0, "vanilla-6", 2);
    let five = b.down(1, "vanilla-5", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[six, five], &mut Script::none());
    assert_eq!((g.st.hands[1].as_slice(), g.st.slots[0][1]), (&[eight][..], NONE));
    assert_eq!((g.tally.fizzles, g.tally.then_steps), (0, 1));
}

#[test]
fn an_events_design_columns_count_the_crown_kept_and_played_among_textless_fills() {
    // One rare design, a 9 (`crown`), no designers, impact measured: dealt independently, each
    // pool's three rares are crowns and its other 27 places textless fills. Both seats keep their
    // crowns (9s are among the 21 highest), so the one game of a two-player event counts the
    // crown in two decks; with the whole deck in hand from the start, each seat places its
    // highest cards, the crowns, first: played in two games.
    let set = parse(
        "t.toml",
        &file_of(&probe("crown", 9, "  on = \"score_end\"\n  effect = \"points\"\n  amount = 1")),
    )
    .expect("the test set parses");
    let rules = Rules {
        cards: Some(std::sync::Arc::new(set)),
        impact: Impact::Cards,
        opening_hand: DECK as u8,
        ..Rules::with("highest")
    };
    let ev = super::super::event::SlotsEvent::new(rules, 2, super::super::deal::Dealing::Independent)
        .expect("the set deals");
    let t = crate::games::contest::IntoEvent::into_event(ev);
    let layout = t.layout().clone();
    let rec = t.play_one(GameSeed::new(3, 0));
    let fills = layout.counter("vanilla_fill").expect("an event counts its fills");
    assert_eq!(rec.counters[fills], 2 * 27);
    let cards = layout.cards.as_ref().expect("impact=cards keeps design columns");
    let col = |name: &str| cards.columns.iter().position(|c| c == name).expect("a column");
    assert_eq!(rec.counters[cards.first as usize + col("games_in_deck")], 2);
    assert_eq!(rec.counters[cards.first as usize + col("games_played")], 2);
}

#[test]
fn the_story_ends_with_the_winner_or_the_draw_and_the_slots_played() {
    let ending = |end: End| {
        let mut st = super::fresh_state(10);
        (st.rounds, st.wins, st.ties) = (3, [2, 1], 0);
        if end == End::Drawn {
            (st.rounds, st.wins, st.ties) = (11, [0, 0], 11);
        }
        let mut story = String::new();
        super::super::narrate::ending(&st, end, &mut crate::games::narrate::Story(&mut story));
        story
    };
    assert_eq!(ending(End::Won(0)), "Game over after 3 rounds (27 slots): P0 wins 2-1.\n");
    assert_eq!(ending(End::Drawn), "Game over after 11 rounds (99 slots): a draw after 11 tied rounds.\n");
}

#[test]
fn the_greedy_choice_ranks_every_place_of_a_full_table() {
    // Nine tied slots, 5 against 5: +1 on one of my cards takes its slot (a gain of 8 + 1), on
    // one of theirs loses it. Among all 18 places the three best are my first three, in table
    // order (equal gains keep it).
    use super::super::cardset::{Effect, Selector};
    use super::super::rules::Seen;
    let mut obs = Observation::default();
    for slot in 0..SLOTS {
        for side in 0..SEATS {
            let id = (side * POOL + slot) as u8;
            obs.table[slot][side] = Seen::Up { id, printed: 5, value: 5, counters: 0 };
        }
    }
    let all: Vec<u8> = (0..(SLOTS * SEATS) as u8).collect();
    let ask = Ask {
        seat: 0,
        source: 0,
        effect: Effect::Counter { target: Selector::ALL, amount: 1, per: None },
        n: 3,
        partner: Places::default(),
    };
    let mut out = Places::default();
    super::super::judge::targets(&obs, &ask, &Places::of(&all), &mut out);
    assert_eq!(out.as_slice(), [0, 2, 4]);
}

#[test]
fn recover_highest_takes_the_first_of_the_highest_printed_values_in_the_pile() {
    let digger = probe("digger", 4, "  on = \"score_start\"\n  effect = \"recover\"\n  pick = \"highest\"");
    let mut b = bench(&digger);
    b.up(0, "digger", 1);
    let pile: Vec<u8> = [7, 5, 7].iter().map(|v| b.card(0, &format!("vanilla-{v}"))).collect();
    b.st.piles[0] = Stack::of(&pile);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.hands[0].as_slice(), g.st.piles[0].as_slice()), (&[pile[0]][..], &pile[1..]));
}

#[test]
fn a_card_destroyed_from_under_the_top_leaves_its_stack() {
    // P0's 4 lies on P0's 6 in S2 and destroys the card stacked with it.
    let crusher =
        probe("crusher", 4, "  on = \"score_start\"\n  effect = \"destroy\"\n  target = \"stacked\"");
    let mut b = bench(&crusher);
    let six = b.up(0, "vanilla-6", 2);
    let top = b.up(0, "crusher", 2);
    let mut g = b.game();
    assert_eq!(g.st.under[1][0].as_slice(), [six]);
    score_start(&mut g);
    assert_eq!(
        (g.st.slots[1][0], g.st.under[1][0].as_slice(), g.st.piles[0].as_slice()),
        (top, &[][..], &[six][..])
    );
}

#[test]
fn a_side_scores_with_a_covered_card_only_when_it_is_higher_than_the_top() {
    // S1: P0's 8 lies on a 3 (the top is the highest); S2: P0's 3 lies on an 8 (the 8 under it
    // scores for the side).
    let mut b = bench("");
    b.up(0, "vanilla-3", 1);
    b.up(0, "vanilla-8", 1);
    b.up(0, "vanilla-8", 2);
    b.up(0, "vanilla-3", 2);
    let g = b.game();
    assert_eq!((g.st.covered_scorers(0), g.st.covered_scorers(1)), (0, 1));
}

#[test]
fn a_set_and_a_modify_of_one_card_in_one_batch_conflict() {
    // Two 4s at [SSCORE] on P1's 6: P0's sets it to 1, P1's gives it +2. Their order would decide
    // its value: both fizzle, and the 6 stays 6.
    let setter =
        probe("setter", 4, "  on = \"score_start\"\n  effect = \"set\"\n  to = 1\n  target = \"oc\"");
    let booster = probe(
        "booster",
        4,
        "  on = \"score_start\"\n  effect = \"modify\"\n  amount = 2\n  target = { side = \"you\", slots = 1 }",
    );
    let mut b = bench(&format!("{setter}{booster}"));
    b.up(0, "setter", 1);
    let six = b.up(1, "vanilla-6", 1);
    b.up(1, "booster", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.tally.fizzles, g.st.value(six)), (2, 6));
}

#[test]
fn a_rounds_story_lists_each_seats_hand_by_printed_value() {
    let mut st = super::fresh_state(10);
    st.rounds = 1;
    st.hands[0] = Stack::of(&[super::card(0, 7, 1), super::card(0, 2, 1)]);
    st.hands[1] = Stack::of(&[super::card(1, 4, 2)]);
    let mut story = String::new();
    super::super::narrate::round(&st, &mut crate::games::narrate::Story(&mut story));
    let lines: Vec<&str> = story.lines().collect();
    assert_eq!(lines[1..], ["  P0 keeps 21 cards; hand 7 2", "  P1 keeps 21 cards; hand 4"]);
}

#[test]
fn the_greedy_judge_counts_my_face_down_card_at_its_printed_value_once_revealed() {
    // Slot 1: my face-down 7 (worth 0 while face down) against their face-up 5: revealing it
    // turns the slot, from -8 - 5 to +8 + 2, a gain of 23.
    use super::super::cardset::{Effect, Selector};
    use super::super::rules::Seen;
    let mut obs = Observation::default();
    obs.table[0][0] = Seen::Mine { id: 0, printed: 7, value: 0 };
    obs.table[0][1] = Seen::Up { id: POOL as u8, printed: 5, value: 5, counters: 0 };
    let reveal = Effect::Reveal { target: Selector::ALL };
    assert_eq!(super::super::judge::gain(&obs, 0, &reveal, &[0]), 23);
}

#[test]
fn a_search_simulates_its_own_round_only() {
    // A simulation started before round 1 (`Sim::new`) has no seat to move once round 1 is on;
    // the same position in its own round asks seat 0.
    use crate::decide::search::Steps;
    let mut sim = super::super::search::Sim::new();
    sim.game = super::position(1, [&[super::card(0, 3, 1)], &[super::card(1, 7, 1)]], [&[], &[]], &[]);
    assert_eq!(sim.to_move(), None);
    sim.game.st.rounds = 0;
    assert_eq!(sim.to_move(), Some(0));
}
