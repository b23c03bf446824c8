//! Card text on hand-written positions: each trigger, selector key and shortcut, condition and
//! effect of the format, and each timing rule (batches by printed value, a fizzle, a card hidden
//! before its ability resolves, a swap changing control and scoring, the cascade cut), with the
//! sample set's cards where one shows the rule and small probe designs where none does.

use std::sync::Arc;

use super::Script;
use super::kit::*;
use crate::games::narrate::Silent;
use crate::seed::GameSeed;

mod mutants;

const SAMPLE: &str = include_str!("../../../../scenarios/cards/sample.toml");

/// Probe designs: one keyword each, acting at [SSCORE] so a test decides when.
const PROBES: &str = r#"
[[card]]
id = "last-words"
name = "Last Words"
rarity = "common"
value = 2
  [[card.ability]]
  on = "destroyed"
  effect = "draw"

[[card]]
id = "strobe"
name = "Strobe"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "revealed"
  effect = "hide"
  target = "event"
  [[card.ability]]
  on = "revealed"
  effect = "reveal"
  target = "event"

[[card]]
id = "dimmer"
name = "Dimmer"
rarity = "rare"
value = 3
  [[card.ability]]
  effect = "set"
  target = "oc"
  to = 1
  duration = "source"

[[card]]
id = "tracker"
name = "Tracker"
rarity = "rare"
value = 5
  [[card.ability]]
  on = "revealed"
  effect = "set"
  target = "self"
  to = 7

[[card]]
id = "tally-man"
name = "Tally Man"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "score_end"
  effect = "points"
  amount = 1
  per = { side = "you", face = "up" }
"#;

/// A probe at [SSCORE] putting a +1 counter on `target`.
fn selector_probe(target: &str) -> String {
    format!(
        "\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"counter\"\n  target = {target}\n  amount = 1\n"
    )
}

/// A probe at [SSCORE] scoring 1 point for its controller if `cond` holds.
fn condition_probe(cond: &str) -> String {
    format!(
        "\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  if = [ {cond} ]\n  effect = \"points\"\n  amount = 1\n"
    )
}

/// A table being set up by hand: the sample set, the probes and `extra`, cards handed out by id.
pub(super) struct Bench {
    pub(super) st: State,
    used: [usize; SEATS],
}

pub(super) fn bench(extra: &str) -> Bench {
    let set = parse("test.toml", &format!("{SAMPLE}\n{PROBES}\n{extra}")).expect("the test set parses");
    let mut st = State::new(DeckPolicy::Top21, 10);
    st.text = true;
    st.set = Some(Arc::new(set));
    st.pools.size = [POOL as u8; SEATS];
    st.rounds = 1;
    st.turn = 9;
    Bench { st, used: [0; SEATS] }
}

impl Bench {
    /// A new card of `seat`: a design by id, or `vanilla-N`.
    pub(super) fn card(&mut self, seat: usize, name: &str) -> u8 {
        let id = (seat * POOL + self.used[seat]) as u8;
        self.used[seat] += 1;
        let set = self.st.set.as_ref().expect("a set");
        let (printed, design) = match name.strip_prefix("vanilla-") {
            Some(v) => (v.parse().expect("a value"), TEXTLESS),
            None => {
                let d = set
                    .designs
                    .iter()
                    .position(|d| d.id == name)
                    .unwrap_or_else(|| panic!("no design {name}"));
                (set.designs[d].value, d as u16)
            }
        };
        self.st.pools.printed[id as usize] = printed;
        self.st.pools.design[id as usize] = design;
        id
    }

    /// A card of `seat` face down on its own side of slot `slot` (1-based).
    pub(super) fn down(&mut self, seat: usize, name: &str, slot: usize) -> u8 {
        let id = self.card(seat, name);
        self.st.set_down(id, slot - 1, seat);
        id
    }

    /// A card of `seat` face up on its own side of slot `slot` (1-based).
    pub(super) fn up(&mut self, seat: usize, name: &str, slot: usize) -> u8 {
        let id = self.down(seat, name, slot);
        self.st.turn_up(id);
        id
    }

    pub(super) fn hand(&mut self, seat: usize, name: &str) -> u8 {
        let id = self.card(seat, name);
        self.st.hands[seat].push(id);
        id
    }

    pub(super) fn deck(&mut self, seat: usize, name: &str) -> u8 {
        let id = self.card(seat, name);
        self.st.decks[seat].push(id);
        id
    }

    pub(super) fn game(self) -> Game {
        let mut g = Game::on(self.st);
        g.chance = GameSeed::new(7, 7).rng();
        g
    }
}

pub(super) fn score_start(g: &mut Game) {
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreStart, &mut Silent, &mut Script::none());
}

// ---------------------------------------------------------------------------------------------
// Timing rules

#[test]
fn a_reveal_ability_acts_when_its_card_turns_up() {
    let mut b = bench("");
    let mud = b.down(0, "mud-slinger", 1);
    let five = b.down(1, "vanilla-5", 1);
    let mut g = b.game();
    assert_eq!(g.st.value(five), 0, "face down: 0");
    g.reveal_for_tests(&[mud, five], &mut Script::none());
    assert_eq!((g.st.counter_sum(five), g.st.value(five), g.st.value(mud)), (-1, 4, 2));
}

#[test]
fn batches_go_by_printed_value_and_a_card_hidden_first_loses_its_ability() {
    // Gust Sprite (3) and Colossus (9) meet in S4: batch 3 hides Colossus, whose batch 9 is lost.
    let mut b = bench("");
    let three = b.up(0, "vanilla-5", 3);
    let sprite = b.down(0, "gust-sprite", 4);
    let colossus = b.down(1, "colossus", 4);
    let five = b.up(1, "vanilla-5", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[sprite, colossus], &mut Script::none());
    assert!(!g.st.is_face_up(colossus));
    assert_eq!((g.st.value(colossus), g.tally.lost_triggers), (0, 1));
    assert_eq!((g.st.counter_sum(three), g.st.counter_sum(five)), (0, 0));
    assert_eq!(g.st.winner_of(3), Taken::Seat(0));
}

#[test]
fn conflicting_instances_of_one_batch_fizzle_together() {
    // Archivist (4) draws two for P0, then discards one; Tollkeeper (4) makes P0 discard. The first
    // step (Archivist's draw, Tollkeeper's discard) fizzles; Archivist's discard then acts alone.
    let mut b = bench("");
    let archivist = b.down(0, "archivist", 6);
    let toll = b.down(1, "tollkeeper", 6);
    for v in ["vanilla-1", "vanilla-2"] {
        b.hand(0, v);
    }
    for v in ["vanilla-3", "vanilla-4"] {
        b.deck(0, v);
    }
    let mut g = b.game();
    let mut discard_first = Script { discard: vec![0], ..Script::none() };
    g.reveal_for_tests(&[archivist, toll], &mut discard_first);
    assert_eq!((g.tally.fizzles, g.tally.then_steps), (2, 1));
    assert_eq!((g.st.hands[0].len(), g.st.decks[0].len(), g.st.piles[0].len()), (1, 2, 1));
}

#[test]
fn a_counter_and_a_destroy_of_one_card_in_one_batch_conflict() {
    // Mud Slinger (2) counters Lantern Scout, Quarry Mole (2) destroys it: both fizzle.
    let mut b = bench("");
    let mud = b.down(0, "mud-slinger", 2);
    let scout = b.down(1, "lantern-scout", 2);
    let mole = b.down(0, "quarry-mole", 3);
    let five = b.down(1, "vanilla-5", 3);
    let mut g = b.game();
    // Quarry Mole's controller chooses among the opposing face-up 1s: Lantern Scout (S2, P1).
    let mut choose_scout = Script { targets: vec![vec![3]], ..Script::none() };
    g.reveal_for_tests(&[mud, scout, mole, five], &mut choose_scout);
    assert_eq!(g.tally.fizzles, 2);
    assert!(g.st.on_table(scout));
    assert_eq!(g.st.counter_sum(scout), 0);
}

#[test]
fn two_instances_of_one_card_never_conflict() {
    // Two cards turn up together: Tracker sets itself twice in one batch, and both apply.
    let mut b = bench("");
    let tracker = b.up(0, "tracker", 1);
    let one = b.down(0, "vanilla-1", 2);
    let two = b.down(1, "vanilla-2", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[one, two], &mut Script::none());
    assert_eq!((g.tally.fizzles, g.st.value(tracker)), (0, 7));
}

#[test]
fn additive_touches_of_one_card_never_conflict() {
    let mut b = bench("");
    let a = b.down(0, "mud-slinger", 5);
    let c = b.down(1, "mud-slinger", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[a, c], &mut Script::none());
    assert_eq!(g.tally.fizzles, 0);
    assert_eq!((g.st.value(a), g.st.value(c)), (1, 1));
}

#[test]
fn a_swap_changes_control_and_scoring_until_the_round_ends() {
    // The Usurper (P0, S3) swaps with the highest other card on the table, P1's 9 in S2.
    let mut b = bench("");
    let one = b.up(0, "vanilla-1", 2);
    let nine = b.up(1, "vanilla-9", 2);
    let usurper = b.down(0, "the-usurper", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[usurper], &mut Script::none());
    assert_eq!((g.st.slots[1], g.st.slots[2]), ([one, usurper], [nine, NONE]));
    assert_eq!(g.tally.control_changes, 2);
    // S2: P0's 1 against the Usurper, now P1's (1 v 1: nobody); S3: the 9 scores for P0.
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!(g.st.points, [1, 0]);
    // Back to their owners: the next round starts from an empty table.
    g.end_round(&mut GameSeed::new(1, 1).rng(), &mut Silent, &mut Script::none());
    assert!(g.st.slots.iter().all(|s| *s == [NONE, NONE]));
}

#[test]
fn the_cascade_is_cut_after_eight_moments() {
    // Strobe hides and reveals every other card turned up: each reveal starts the next moment.
    let mut b = bench("");
    b.up(0, "strobe", 1);
    let four = b.down(1, "vanilla-4", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[four], &mut Script::none());
    assert_eq!((g.tally.cascade_cut, g.tally.re_reveals), (1, MAX_MOMENTS as u64));
    assert!(g.st.is_face_up(four));
}

/// A watcher that answers every other card turned up by hiding every other card and turning them
/// up again: each reveal sets off one reveal per other face-up card.
const MULTIPLIER: &str = r#"
[[card]]
id = "multiplier"
name = "Multiplier"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "revealed"
  effect = "hide"
  target = { other = true }
  [[card.ability]]
  on = "revealed"
  effect = "reveal"
  target = { other = true }
"#;

/// The multiplier face up in P0's S1 with `others` face-up textless cards and one face-down 4
/// (P1's S9) beside it; the 4 is turned up.
fn multiplied(others: usize) -> Game {
    let mut b = bench(MULTIPLIER);
    b.up(0, "multiplier", 1);
    let places = (2..=9).map(|s| (0, s)).chain((1..=8).map(|s| (1, s)));
    for (seat, slot) in places.take(others) {
        b.up(seat, "vanilla-5", slot);
    }
    let four = b.down(1, "vanilla-4", 9);
    let mut g = b.game();
    g.reveal_for_tests(&[four], &mut Script::none());
    g
}

#[test]
fn a_moment_setting_off_more_events_than_the_budget_ends_the_cascade() {
    // Nine other cards (eight and the 4). The 4's reveal: the multiplier hides and turns up the
    // nine, 9 events. They make the next moment: nine instances, each hiding and turning up the
    // nine, 81 events, over the budget of 64: the cascade ends there, every one of the 81 counted
    // once (the cards stay as that moment left them: face up).
    const { assert!(81 > MAX_EVENTS && 9 <= MAX_EVENTS) };
    let g = multiplied(8);
    assert_eq!((g.tally.cascade_cut, g.tally.re_reveals), (81, 9 + 81));
    assert!(g.st.face_up.count_ones() == 10, "every card face up");
}

#[test]
fn a_moment_setting_off_exactly_the_budget_goes_on() {
    // Eight other cards: 8 events, then 64 (exactly the budget: they make the next moment), then
    // 64 x 8 = 512, over it: cut. Below the budget, only the nesting limit would cut.
    assert_eq!(MAX_EVENTS, 64);
    let g = multiplied(7);
    assert_eq!((g.tally.cascade_cut, g.tally.re_reveals), (512, 8 + 64 + 512));
    // Two other cards: 2, 4, 8, 16, 32 events, then 64, then 128: cut after six nested moments.
    let g = multiplied(1);
    assert_eq!((g.tally.cascade_cut, g.tally.re_reveals), (128, 2 + 4 + 8 + 16 + 32 + 64 + 128));
}

#[test]
fn the_cascade_cut_is_told() {
    let mut b = bench(MULTIPLIER);
    b.up(0, "multiplier", 1);
    for slot in 2..=9 {
        b.up(0, "vanilla-5", slot);
    }
    let four = b.down(1, "vanilla-4", 9);
    let mut g = b.game();
    let mut story = String::new();
    g.reveal_told_for_tests(&[four], &mut Script::none(), &mut crate::games::narrate::Story(&mut story));
    assert!(story.contains("cascade limit: 81 event(s) dropped"), "{story}");
}

// ---------------------------------------------------------------------------------------------
// Triggers

#[test]
fn static_modifiers_hold_while_their_source_is_face_up() {
    let mut b = bench("");
    let guard = b.up(0, "hearth-guard", 4);
    let left = b.up(0, "vanilla-5", 3);
    let right = b.up(0, "vanilla-5", 5);
    let theirs = b.up(1, "vanilla-5", 5);
    let mut g = b.game();
    assert_eq!((g.st.value(left), g.st.value(right), g.st.value(theirs), g.st.value(guard)), (6, 6, 5, 3));
    g.st.turn_down(guard);
    assert_eq!((g.st.value(left), g.st.value(right)), (5, 5));
}

#[test]
fn static_conditions_and_per_counts_are_read_now() {
    let mut b = bench("");
    let swarm = b.up(0, "swarmling", 1);
    b.up(0, "mud-slinger", 2);
    b.down(0, "quarry-mole", 3); // a face-down printed 2 never matches `printed`
    let late = b.up(0, "late-bloomer", 8);
    let early = b.up(1, "late-bloomer", 2);
    let g = b.game();
    assert_eq!((g.st.value(swarm), g.st.value(late), g.st.value(early)), (3, 6, 4));
}

#[test]
fn turn_start_abilities_act_on_their_turns_only() {
    let mut b = bench("");
    b.up(0, "hourglass", 1);
    for _ in 0..3 {
        b.deck(0, "vanilla-1");
    }
    let mut g = b.game();
    g.st.turn = 5;
    g.moment(Trigger::TurnStart, &mut Silent, &mut Script::none());
    assert_eq!(g.st.hands[0].len(), 0, "[BT6-BT9] does nothing on turn 5");
    g.st.turn = 6;
    g.moment(Trigger::TurnStart, &mut Silent, &mut Script::none());
    assert_eq!(g.st.hands[0].len(), 1);
}

#[test]
fn after_place_reaches_the_cards_still_face_down() {
    let mut b = bench("");
    b.up(0, "saboteur", 1);
    let up = b.up(1, "vanilla-6", 1);
    let down = b.down(1, "vanilla-5", 2);
    let mut g = b.game();
    g.moment(Trigger::AfterPlace, &mut Silent, &mut Script::none());
    assert_eq!((g.st.counter_sum(up), g.st.counter_sum(down)), (0, -1));
    assert_eq!(g.st.value(down), -1, "face down: 0 plus its counter");
}

#[test]
fn after_reveal_marks_your_card_of_the_turn() {
    let mut b = bench("");
    b.up(0, "drill-sergeant", 1);
    let mine = b.up(0, "vanilla-5", 3);
    let theirs = b.up(1, "vanilla-5", 3);
    let mut g = b.game();
    g.st.turn = 3;
    g.moment(Trigger::AfterReveal, &mut Silent, &mut Script::none());
    assert_eq!((g.st.counter_sum(mine), g.st.counter_sum(theirs)), (1, 0));
}

#[test]
fn after_draw_acts_every_turn() {
    let mut b = bench("");
    let rat = b.up(0, "copper-rat", 2);
    let mut g = b.game();
    g.moment(Trigger::AfterDraw, &mut Silent, &mut Script::none());
    g.moment(Trigger::AfterDraw, &mut Silent, &mut Script::none());
    assert_eq!(g.st.value(rat), 4);
}

#[test]
fn score_start_reveals_and_the_revealed_cards_abilities_follow() {
    let mut b = bench("");
    b.up(0, "candlewick", 1);
    let five = b.up(0, "vanilla-5", 2);
    let mud = b.down(1, "mud-slinger", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert!(g.st.is_face_up(mud));
    assert_eq!((g.st.value(five), g.tally.re_reveals), (4, 0));
}

#[test]
fn slot_scored_sees_who_took_the_slot() {
    let mut b = bench("");
    b.up(0, "ash-wisp", 1);
    b.up(0, "ash-wisp", 2);
    b.up(1, "vanilla-5", 2);
    let mut g = b.game();
    g.score_slots(&mut Silent, &mut Script::none());
    // S1: the Wisp beats an empty place and adds a point; S2: it loses to the 5.
    assert_eq!(g.st.points, [2, 1]);
}

#[test]
fn score_end_reads_hands_and_per_counts() {
    let mut b = bench("");
    b.up(0, "tax-collector", 1);
    b.up(1, "tally-man", 2);
    b.up(1, "vanilla-4", 3);
    b.down(1, "vanilla-4", 4);
    b.hand(0, "vanilla-1");
    for _ in 0..3 {
        b.hand(1, "vanilla-1");
    }
    let mut g = b.game();
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    // Tax Collector: P1 holds more, +1; Tally Man: two face-up cards on P1's side, +2.
    assert_eq!(g.st.points, [1, 2]);
}

#[test]
fn destroyed_cards_start_watchers_and_their_own_last_words() {
    let mut b = bench("");
    let words = b.up(0, "last-words", 1);
    b.up(0, "vanilla-7", 2);
    let digger = b.up(1, "gravedigger", 3);
    b.up(0, "vanilla-9", 4);
    let bully = b.down(1, "bully", 4);
    b.deck(0, "vanilla-3");
    let mut g = b.game();
    g.reveal_for_tests(&[bully], &mut Script::none());
    assert_eq!(g.st.piles[0].as_slice(), [words]);
    assert_eq!((g.st.hands[0].len(), g.st.counter_sum(digger)), (1, 1));
}

#[test]
fn a_card_destroyed_face_down_has_no_last_words() {
    let mut b = bench("");
    let words = b.down(0, "last-words", 1);
    b.up(0, "vanilla-7", 2);
    let bully = b.down(1, "bully", 4);
    b.deck(0, "vanilla-3");
    let mut g = b.game();
    g.reveal_for_tests(&[bully], &mut Script::none());
    assert_eq!((g.st.piles[0].as_slice(), g.st.hands[0].len()), (&[words][..], 0));
}

#[test]
fn revealed_watchers_answer_only_the_cards_they_watch() {
    let mut b = bench("");
    b.up(0, "night-watch", 1);
    let eight = b.down(1, "vanilla-8", 2);
    let three = b.down(1, "vanilla-3", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[eight, three], &mut Script::none());
    assert_eq!((g.st.value(eight), g.st.value(three)), (7, 3));
}

/// A watcher of destroyed opposing cards of value 5 or more, as the event saw them.
const VALUE_WATCHER: &str = r#"
[[card]]
id = "value-watcher"
name = "Value Watcher"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "destroyed"
  watch = { side = "opp", value = ">=5" }
  effect = "counter"
  target = "self"
  amount = 1
"#;

#[test]
fn a_watcher_of_its_own_slot_answers_only_cards_destroyed_there() {
    let watcher = "\n[[card]]\nid = \"slot-watcher\"\nname = \"Slot Watcher\"\nrarity = \"rare\"\nvalue = 1\n  [[card.ability]]\n  on = \"destroyed\"\n  watch = { slots = \"this\" }\n  effect = \"counter\"\n  target = \"self\"\n  amount = 1\n";
    // Undertow (P1, S5) destroys the highest opposing card next to it: the 9 in S4 (the
    // watcher's slot), then, in a second position, the 9 in S6.
    for (nine_slot, counted) in [(4, 1), (6, 0)] {
        let mut b = bench(watcher);
        let w = b.up(1, "slot-watcher", 4);
        let nine = b.up(0, "vanilla-9", nine_slot);
        let undertow = b.down(1, "undertow", 5);
        let mut g = b.game();
        g.reveal_for_tests(&[undertow], &mut Script::none());
        assert_eq!(g.st.piles[0].as_slice(), [nine], "S{nine_slot}");
        assert_eq!(g.st.counter_sum(w), counted, "S{nine_slot}");
    }
}

#[test]
fn a_watcher_reads_the_value_the_destroyed_card_had_on_the_table() {
    // Bully destroys the opposing 3: below the watched value, no counter.
    let mut b = bench(VALUE_WATCHER);
    let watcher = b.up(0, "value-watcher", 1);
    b.up(1, "vanilla-6", 2);
    b.up(1, "vanilla-3", 3);
    let bully = b.down(0, "bully", 4);
    let mut g = b.game();
    g.reveal_for_tests(&[bully], &mut Script::none());
    assert_eq!((g.st.piles[1].len(), g.st.counter_sum(watcher)), (1, 0));
    // A printed 4 with a +2 counter is worth 6 when destroyed: the watcher counts it, though off
    // the table it is a 4 again.
    let mut b = bench(VALUE_WATCHER);
    let watcher = b.up(0, "value-watcher", 1);
    let four = b.up(1, "vanilla-4", 2);
    let bully = b.down(0, "bully", 4);
    let mut g = b.game();
    g.st.counters[four as usize] = [2, 0];
    g.reveal_for_tests(&[bully], &mut Script::none());
    assert_eq!((g.st.piles[1].as_slice(), g.st.counter_sum(watcher)), ([four].as_slice(), 1));
    // A card of value 6 on the watcher's own side, destroyed (by Undertow, next to it), is not
    // watched.
    let mut b = bench(VALUE_WATCHER);
    let watcher = b.up(0, "value-watcher", 1);
    let six = b.up(0, "vanilla-6", 3);
    let undertow = b.down(1, "undertow", 4);
    let mut g = b.game();
    g.reveal_for_tests(&[undertow], &mut Script::none());
    assert_eq!((g.st.piles[0].as_slice(), g.st.counter_sum(watcher)), ([six].as_slice(), 0));
}

#[test]
fn a_watcher_reads_the_value_a_revealed_card_turns_up_with() {
    let watcher = VALUE_WATCHER.replace("on = \"destroyed\"", "on = \"revealed\"");
    // A printed 4 turned up with a +2 counter on it is a 6: the watcher counts it; a bare 4 is not
    // counted.
    for (counter, counted) in [(2, 1), (0, 0)] {
        let mut b = bench(&watcher);
        let w = b.up(0, "value-watcher", 1);
        let four = b.down(1, "vanilla-4", 2);
        let mut g = b.game();
        g.st.counters[four as usize] = [counter, 0];
        g.reveal_for_tests(&[four], &mut Script::none());
        assert_eq!(g.st.counter_sum(w), counted, "counter {counter}");
    }
}

#[test]
fn a_reveal_or_a_placement_is_kept_only_if_a_card_can_answer_it() {
    use crate::games::slots::resolve::{Happened, heard};
    let watcher = VALUE_WATCHER.replace("on = \"destroyed\"", "on = \"revealed\"");
    let mut b = bench(&watcher);
    b.up(0, "vanilla-2", 4); // the watcher is not card 0
    let w = b.down(0, "value-watcher", 1);
    let four = b.up(1, "vanilla-4", 2);
    let bully = b.up(0, "bully", 3);
    let mut g = b.game();
    // The watcher lies face down: a textless card's reveal triggers nothing; Bully's own reveal
    // ability answers its own.
    assert!(!heard(&g.st, Happened::Revealed, four));
    assert!(heard(&g.st, Happened::Revealed, bully));
    g.st.turn_up(w);
    assert!(heard(&g.st, Happened::Revealed, four), "a face-up revealed watcher");
    // Face up at its own reveal, a watcher hears it only where its `watch` takes it in: this
    // one watches the other side.
    assert!(!heard(&g.st, Happened::Revealed, w), "a watcher whose watch leaves it out");
    assert!(!heard(&g.st, Happened::Placed, four), "no placed watcher on the table");
    assert!(!heard(&g.st, Happened::Destroyed, four), "no destroyed watcher on the table");
    assert!(heard(&g.st, Happened::Destroyed, bully), "a face-up card with text may have last words");
    assert!(heard(&g.st, Happened::Drawn, four), "draws are answered by the drawing seat's cards");
}

#[test]
fn a_highest_or_lowest_pick_of_one_candidate_draws_nothing_and_of_two_breaks_the_tie_by_chance() {
    use crate::games::slots::cardset::{Pick, Selector, Side};
    use crate::games::slots::resolve::targets;
    use crate::games::slots::values::Ctx;
    let mut b = bench("");
    let source = b.up(0, "vanilla-5", 1);
    let three = b.up(1, "vanilla-3", 1);
    let g = b.game();
    let ctx = Ctx { source, slot: 0, side: 0, event: None };
    let mut out = Vec::new();
    for pick in [Pick::Highest, Pick::Lowest] {
        let sel = Selector { side: Side::Opp, pick, ..Selector::ALL };
        let mut rng = GameSeed::new(1, 1).rng();
        targets(&g.st, &sel, &ctx, &mut rng, &mut out, |_, _| unreachable!());
        assert_eq!(out, [three]);
        assert_eq!(rng, GameSeed::new(1, 1).rng(), "{pick:?}: one candidate, no draw");
    }
    // Two equal opposing cards: each is the highest in some of the draws.
    let mut b = bench("");
    let source = b.up(0, "vanilla-5", 1);
    let (a, c) = (b.up(1, "vanilla-3", 1), b.up(1, "vanilla-3", 2));
    let g = b.game();
    let ctx = Ctx { source, slot: 0, side: 0, event: None };
    let sel = Selector { side: Side::Opp, pick: Pick::Highest, ..Selector::ALL };
    let mut firsts = [0; 2];
    for seed in 0..40 {
        let mut rng = GameSeed::new(seed, 1).rng();
        targets(&g.st, &sel, &ctx, &mut rng, &mut out, |_, _| unreachable!());
        firsts[usize::from(out[0] == c)] += 1;
        assert!(out == [a] || out == [c]);
    }
    assert!(firsts[0] > 0 && firsts[1] > 0, "{firsts:?}");
}

#[test]
fn a_filter_of_sides_and_slots_only_takes_every_card_there_and_one_more_key_tests_each() {
    use crate::games::slots::cardset::{Face, Pick, Selector, Side};
    use crate::games::slots::resolve::targets;
    use crate::games::slots::values::Ctx;
    let mut b = bench("");
    let source = b.up(0, "vanilla-5", 1);
    let (up, down) = (b.up(1, "vanilla-3", 1), b.down(1, "vanilla-7", 2));
    let mine = b.up(0, "vanilla-2", 2);
    let g = b.game();
    let ctx = Ctx { source, slot: 0, side: 0, event: None };
    let mut out = Vec::new();
    let mut take = |sel: Selector| {
        let mut rng = GameSeed::new(1, 1).rng();
        targets(
            &g.st,
            &Selector { pick: Pick::All, n: 9, ..sel },
            &ctx,
            &mut rng,
            &mut out,
            |_, _| unreachable!(),
        );
        let mut got = out.clone();
        got.sort();
        got
    };
    let opp = Selector { side: Side::Opp, ..Selector::ALL };
    assert!(!opp.tests_each_card() && !Selector::ALL.tests_each_card());
    assert_eq!(take(opp), [up.min(down), up.max(down)], "face up and face down alike");
    let mut all = vec![source, up, down, mine];
    all.sort();
    assert_eq!(take(Selector::ALL), all);
    // Each key beyond sides and slots tests the cards.
    let face_up = Selector { face: Face::Up, ..opp };
    assert!(face_up.tests_each_card());
    assert_eq!(take(face_up), [up]);
    let others = Selector { other: true, ..Selector::ALL };
    assert!(others.tests_each_card());
    assert!(!take(others).contains(&source));
}

#[test]
fn a_pick_of_one_by_value_takes_the_card_a_pick_of_all_orders_first() {
    use crate::games::slots::cardset::{Pick, Selector, Side};
    use crate::games::slots::resolve::targets;
    use crate::games::slots::values::Ctx;
    // Ties at the top and at the bottom, with an even and an odd number of candidates (values
    // are read two at a time, the odd one alone).
    for values in [&[3u8, 7, 7, 3][..], &[3, 7, 7, 3, 5]] {
        let mut b = bench("");
        let source = b.up(0, "vanilla-5", 1);
        for (k, v) in values.iter().enumerate() {
            b.up(1, &format!("vanilla-{v}"), k + 1);
        }
        let g = b.game();
        let ctx = Ctx { source, slot: 0, side: 0, event: None };
        let (mut one, mut all) = (Vec::new(), Vec::new());
        for pick in [Pick::Highest, Pick::Lowest] {
            for seed in 0..40 {
                let sel = Selector { side: Side::Opp, pick, n: 1, ..Selector::ALL };
                let mut rng_one = GameSeed::new(seed, 1).rng();
                targets(&g.st, &sel, &ctx, &mut rng_one, &mut one, |_, _| unreachable!());
                let sel = Selector { n: values.len() as u8, ..sel };
                let mut rng_all = GameSeed::new(seed, 1).rng();
                targets(&g.st, &sel, &ctx, &mut rng_all, &mut all, |_, _| unreachable!());
                assert_eq!(all.len(), values.len());
                assert_eq!(one, all[..1], "{pick:?}, {values:?}, seed {seed}");
                assert_eq!(rng_one, rng_all, "{pick:?}: the same draws");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Effects

#[test]
fn set_replaces_the_base_value_and_a_source_set_ends_with_its_source() {
    let mut b = bench("");
    let leveller = b.down(0, "leveller", 1);
    let nine = b.down(1, "vanilla-9", 1);
    let dimmer = b.down(0, "dimmer", 2);
    let seven = b.down(1, "vanilla-7", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[leveller, nine, dimmer, seven], &mut Script::none());
    g.st.counters[nine as usize] = [0, -1];
    assert_eq!((g.st.value(nine), g.st.value(seven)), (4, 1));
    g.st.turn_down(dimmer);
    assert_eq!(g.st.value(seven), 7);
}

#[test]
fn modifiers_last_the_round_or_while_their_source_stays() {
    let mut b = bench("");
    let slayer = b.down(0, "giant-slayer", 1);
    let nine = b.down(1, "vanilla-9", 1);
    let weaver = b.down(0, "hex-weaver", 2);
    let mut g = b.game();
    g.reveal_for_tests(&[slayer, nine], &mut Script::none());
    assert_eq!(g.st.value(slayer), 9);
    g.reveal_for_tests(&[weaver], &mut Script::none());
    assert_eq!(g.st.value(nine), 7, "the highest opposing card gets -2");
    g.st.turn_down(weaver);
    assert_eq!((g.st.value(nine), g.st.value(slayer)), (9, 9));
}

#[test]
fn clear_counters_removes_every_counter() {
    let mut b = bench("");
    let tide = b.up(0, "rust-tide", 1);
    let five = b.up(0, "vanilla-5", 2);
    let theirs = b.up(1, "vanilla-5", 2);
    let mut g = b.game();
    g.st.counters[five as usize] = [3, 0];
    g.st.counters[theirs as usize] = [0, -2];
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    assert_eq!((g.st.counter_sum(five), g.st.counter_sum(theirs), g.st.value(tide)), (0, -2, 6));
}

#[test]
fn return_sends_a_card_to_its_owners_hand_and_clears_what_was_on_it() {
    let mut b = bench("");
    let sigil = b.down(0, "recall-sigil", 1);
    let eight = b.down(1, "vanilla-8", 1);
    let mut g = b.game();
    g.st.counters[eight as usize] = [2, 0];
    g.reveal_for_tests(&[sigil, eight], &mut Script::none());
    assert_eq!((g.st.slots[0], g.st.hands[1].as_slice()), ([sigil, NONE], &[eight][..]));
    assert_eq!((g.st.counter_sum(eight), g.st.value(eight)), (0, 8));
}

#[test]
fn draw_and_discard_move_cards_between_deck_hand_and_pile() {
    let mut b = bench("");
    let pick = b.down(0, "pickpocket", 1);
    let toll = b.down(1, "tollkeeper", 2);
    let low = b.hand(0, "vanilla-2");
    b.hand(0, "vanilla-6");
    b.hand(1, "vanilla-7");
    b.hand(1, "vanilla-8");
    b.deck(0, "vanilla-1");
    let mut g = b.game();
    // Pickpocket: P1 discards one at random, P0 draws one (an empty deck afterwards draws nothing).
    g.reveal_for_tests(&[pick], &mut Script::none());
    assert_eq!((g.st.hands[1].len(), g.st.piles[1].len(), g.st.hands[0].len()), (1, 1, 3));
    // Tollkeeper (P1's): P0 discards, and P0 chooses which: here its hand card 2 (the drawn 1).
    let mut p0_discards = Script { discard: vec![2], ..Script::none() };
    g.reveal_for_tests(&[toll], &mut p0_discards);
    assert_eq!(p0_discards.asked, [('d', 0, vec![3])], "asked of the discarder, not the controller");
    assert_eq!((g.st.hands[0].len(), g.st.piles[0].len()), (2, 1));
    let discarded = g.st.piles[0].as_slice()[0];
    assert_eq!(g.st.pools.printed[discarded as usize], 1, "the drawn 1 goes, not the 2 or the 6");
    assert!(g.st.hands[0].as_slice().contains(&low));
}

#[test]
fn points_go_to_the_round_score() {
    let mut b = bench("");
    b.up(0, "underdogs-oath", 1);
    let mut g = b.game();
    g.st.points = [3, 4];
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    assert_eq!(g.st.points, [4, 4]);
}

// ---------------------------------------------------------------------------------------------
// Selectors and conditions, one probe each on one table:
//   S1 P0 1 up | S3 P0 6 down | S4 P1 2 up | S5 P0 probe 9 up, P1 8 up | S6 P1 3 up (-1 counter)
//   S7 P0 4 up

/// The table above with the probe made of `extra`; returns the game and the cards by name.
fn probe_table(extra: &str) -> (Game, [u8; 7]) {
    let mut b = bench(extra);
    let a1 = b.up(0, "vanilla-1", 1);
    let a6 = b.down(0, "vanilla-6", 3);
    let b2 = b.up(1, "vanilla-2", 4);
    let probe = b.up(0, "probe", 5);
    let b8 = b.up(1, "vanilla-8", 5);
    let b3 = b.up(1, "vanilla-3", 6);
    let a4 = b.up(0, "vanilla-4", 7);
    let mut g = b.game();
    g.st.counters[b3 as usize] = [0, -1];
    (g, [a1, a6, b2, probe, b8, b3, a4])
}

#[test]
fn every_selector_key_and_shortcut_finds_its_cards() {
    let names = ["a1", "a6", "b2", "probe", "b8", "b3", "a4"];
    let cases: &[(&str, &[&str])] = &[
        ("{ side = \"you\", slots = \"prev\" }", &["a1", "a6"]),
        ("{ slots = \"next\" }", &["b3", "a4"]),
        ("{ slots = \"prev1\" }", &["b2"]),
        ("{ slots = \"next1\" }", &["b3"]),
        ("{ slots = \"this\" }", &["probe", "b8"]),
        ("{ slots = \"2-3\" }", &["a6"]),
        ("{ slots = 7 }", &["a4"]),
        ("{ printed = \">=5\" }", &["probe", "b8"]),
        ("{ value = \"<3\" }", &["a1", "a6", "b2", "b3"]),
        ("{ face = \"down\" }", &["a6"]),
        ("{ counters = true }", &["b3"]),
        ("{ counters = false }", &["a1", "a6", "b2", "probe", "b8", "a4"]),
        ("{ face = \"up\" }", &["a1", "b2", "probe", "b8", "b3", "a4"]),
        // [SSCORE] comes before the first slot is scored: no slot is current.
        ("{ slots = \"current\" }", &[]),
        ("{ side = \"you\", other = true }", &["a1", "a6", "a4"]),
        ("{ side = \"opp\", pick = \"highest\" }", &["b8"]),
        ("{ pick = \"lowest\", n = 2 }", &["a1", "a6"]),
        ("\"mine\"", &["a1", "a6", "probe", "a4"]),
        ("\"theirs\"", &["b2", "b8", "b3"]),
        ("\"all\"", &["a1", "a6", "b2", "probe", "b8", "b3", "a4"]),
        ("\"adjacent\"", &["b2", "b3"]),
        ("\"self\"", &["probe"]),
        ("\"oc\"", &["b8"]),
    ];
    for (target, want) in cases {
        let (mut g, ids) = probe_table(&selector_probe(target));
        let before = g.st.counters;
        score_start(&mut g);
        let got: Vec<&str> = (0..7)
            .filter(|&k| g.st.counters[ids[k] as usize] != before[ids[k] as usize])
            .map(|k| names[k])
            .collect();
        assert_eq!(&got, want, "target = {target}");
    }
    // A random pick of two takes exactly two.
    let (mut g, ids) = probe_table(&selector_probe("{ pick = \"random\", n = 2 }"));
    score_start(&mut g);
    assert_eq!(ids.iter().filter(|&&id| g.st.counter_sum(id) > 0).count(), 2);
}

#[test]
fn every_condition_is_read_from_the_source() {
    let cases: &[(&str, bool)] = &[
        ("{ slot = 5 }", true),
        ("{ slot = \"!=5\" }", false),
        ("{ count = { side = \"opp\" }, is = 3 }", true),
        ("{ count = \"mine\", is = \">4\" }", false),
        ("{ oc = \"up\" }", true),
        ("{ oc = \"empty\" }", false),
        ("{ oc = \"present\" }", true),
        ("{ oc = \"down\" }", false),
        ("{ oc_printed = 8 }", true),
        ("{ oc_value = \">=9\" }", false),
        ("{ self_value = 9 }", true),
        ("{ vs_oc = \">\" }", true),
        ("{ vs_oc = \"<\" }", false),
        ("{ hand = 0 }", true),
        ("{ hand_diff = \"<0\" }", false),
        ("{ lead = 0 }", true),
    ];
    for (cond, holds) in cases {
        let (mut g, _) = probe_table(&condition_probe(cond));
        score_start(&mut g);
        assert_eq!(g.st.points[0] == 1, *holds, "if = [ {cond} ]");
    }
}

// ---------------------------------------------------------------------------------------------
// Sample cards not shown above, each on a small position.

/// A card of a position: (seat, design, slot).
type Card<'a> = (usize, &'a str, usize);

/// The values of `cards`, all face up, in order.
fn values_of(cards: &[Card]) -> Vec<i32> {
    let mut b = bench("");
    let ids: Vec<u8> = cards.iter().map(|&(seat, name, slot)| b.up(seat, name, slot)).collect();
    let g = b.game();
    ids.iter().map(|&id| g.st.value(id)).collect()
}

#[test]
fn the_sample_statics_change_the_values_their_texts_say() {
    let cases: &[(&[Card], &[i32])] = &[
        (&[(0, "early-riser", 2)], &[6]),
        (&[(0, "early-riser", 4)], &[5]),
        (&[(0, "last-stand", 9)], &[9]),
        (&[(0, "last-stand", 8)], &[2]),
        (&[(0, "tired-giant", 4)], &[5]),
        (&[(0, "tired-giant", 5)], &[9]),
        (&[(0, "banner-of-the-ninth", 9)], &[12]),
        (&[(0, "banner-of-the-ninth", 1)], &[6]),
        (&[(0, "shieldbearer", 4), (0, "vanilla-7", 3), (0, "vanilla-7", 5)], &[5, 9, 7]),
        (
            &[(0, "rearguard", 4), (0, "vanilla-7", 2), (0, "vanilla-7", 6), (1, "vanilla-7", 2)],
            &[5, 8, 7, 7],
        ),
        (&[(0, "rallying-horn", 4), (0, "vanilla-7", 2), (0, "vanilla-7", 6)], &[3, 7, 8]),
        (&[(0, "twin-lanterns", 1), (0, "vanilla-4", 2), (1, "vanilla-4", 3)], &[5, 5, 4]),
        (&[(0, "oathkeeper", 1), (1, "vanilla-9", 1)], &[10, 9]),
        (&[(0, "oathkeeper", 1), (1, "vanilla-8", 1)], &[8, 8]),
        (
            &[(0, "old-mentor", 1), (0, "vanilla-1", 2), (0, "vanilla-2", 3), (0, "vanilla-3", 4)],
            &[3, 4, 5, 3],
        ),
        (&[(0, "pact-of-threes", 1), (1, "vanilla-3", 2)], &[6, 6]),
    ];
    for (cards, want) in cases {
        assert_eq!(values_of(cards), *want, "{cards:?}");
    }
}

/// A position of face-down cards (seat, design, slot); the first is revealed alone.
fn reveal_first(cards: &[Card]) -> (Game, Vec<u8>) {
    let mut b = bench("");
    let ids: Vec<u8> = cards
        .iter()
        .enumerate()
        .map(
            |(k, &(seat, name, slot))| if k == 0 { b.down(seat, name, slot) } else { b.up(seat, name, slot) },
        )
        .collect();
    let mut g = b.game();
    g.reveal_for_tests(&ids[..1], &mut Script::none());
    (g, ids)
}

#[test]
fn the_sample_reveal_abilities_do_what_their_texts_say() {
    // Stone Ox: a +1 counter on OC.
    let (g, c) = reveal_first(&[(0, "stone-ox", 1), (1, "vanilla-5", 1)]);
    assert_eq!(g.st.value(c[1]), 6);
    // Undertow: destroys the highest opposing card in an adjacent slot.
    let (g, c) =
        reveal_first(&[(0, "undertow", 5), (1, "vanilla-9", 4), (1, "vanilla-3", 6), (1, "vanilla-8", 7)]);
    assert_eq!((g.st.on_table(c[1]), g.st.on_table(c[2]), g.st.on_table(c[3])), (false, true, true));
    // Pebble Thrower: -1 on each opposing card in earlier slots only.
    let (g, c) = reveal_first(&[
        (0, "pebble-thrower", 4),
        (1, "vanilla-5", 1),
        (1, "vanilla-5", 3),
        (1, "vanilla-5", 5),
    ]);
    assert_eq!((g.st.value(c[1]), g.st.value(c[2]), g.st.value(c[3])), (4, 4, 5));
    // Stormcaller: one -1 counter on each opposing card, two in S5.
    let (g, c) = reveal_first(&[(0, "stormcaller", 3), (1, "vanilla-5", 1), (1, "vanilla-5", 9)]);
    assert_eq!((g.st.value(c[1]), g.st.value(c[2])), (4, 4));
    let (g, c) = reveal_first(&[(0, "stormcaller", 5), (1, "vanilla-5", 1)]);
    assert_eq!(g.st.value(c[1]), 3);
    // Scatter Shot: two random opposing cards of three.
    let (g, c) = reveal_first(&[
        (0, "scatter-shot", 1),
        (1, "vanilla-5", 2),
        (1, "vanilla-5", 3),
        (1, "vanilla-5", 4),
    ]);
    assert_eq!(c[1..].iter().filter(|&&id| g.st.counter_sum(id) == -1).count(), 2);
    // Counterweight: destroys the opposing card that carries a counter.
    let mut b = bench("");
    let w = b.down(0, "counterweight", 1);
    let plain = b.up(1, "vanilla-7", 2);
    let marked = b.up(1, "vanilla-6", 3);
    let mut g = b.game();
    g.st.counters[marked as usize] = [1, 0];
    g.reveal_for_tests(&[w], &mut Script { targets: vec![vec![5]], ..Script::none() });
    assert_eq!((g.st.on_table(plain), g.st.on_table(marked)), (true, false));
    // Quiet Step: a higher OC is turned face down.
    let (g, c) = reveal_first(&[(0, "quiet-step", 1), (1, "vanilla-7", 1)]);
    assert_eq!((g.st.is_face_up(c[1]), g.st.value(c[1])), (false, 0));
    // The Jester: OC trades places with your card in the previous slot.
    let (g, c) = reveal_first(&[(0, "the-jester", 3), (1, "vanilla-8", 3), (0, "vanilla-2", 2)]);
    assert_eq!((g.st.slots[1], g.st.slots[2]), ([c[1], NONE], [c[0], c[2]]));
    assert_eq!(g.tally.control_changes, 2);
    // Market Day: both players draw one.
    let mut b = bench("");
    let day = b.down(0, "market-day", 1);
    b.deck(0, "vanilla-1");
    b.deck(1, "vanilla-1");
    let mut g = b.game();
    g.reveal_for_tests(&[day], &mut Script::none());
    assert_eq!((g.st.hands[0].len(), g.st.hands[1].len()), (1, 1));
    // Eclipse: hides every opposing card in S1-S3, and scores at [ESCORE] if none is face up.
    let (mut g, c) =
        reveal_first(&[(0, "eclipse", 5), (1, "vanilla-5", 1), (1, "vanilla-5", 3), (1, "vanilla-5", 4)]);
    assert_eq!((g.st.is_face_up(c[1]), g.st.is_face_up(c[2]), g.st.is_face_up(c[3])), (false, false, true));
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    assert_eq!(g.st.points, [1, 0]);
}

#[test]
fn the_sample_scoring_abilities_do_what_their_texts_say() {
    // Doomsayer: at [SSCORE] destroys every card of value 1 or 2, either side.
    let mut b = bench("");
    b.up(0, "doomsayer", 1);
    let one = b.up(0, "vanilla-1", 2);
    let two = b.up(1, "vanilla-2", 3);
    let three = b.up(1, "vanilla-3", 4);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.on_table(one), g.st.on_table(two), g.st.on_table(three)), (false, false, true));
    // Mirror Knight: trades places with a higher OC at [SSCORE].
    let mut b = bench("");
    let knight = b.up(0, "mirror-knight", 1);
    let nine = b.up(1, "vanilla-9", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.slots[0], [nine, knight]);
    // Tidal Switch: OC trades places with the opposing card one slot on.
    let mut b = bench("");
    b.up(0, "tidal-switch", 1);
    let oc = b.up(1, "vanilla-9", 1);
    let next = b.up(1, "vanilla-2", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.st.slots[0][1], g.st.slots[1][1]), (next, oc));
    // Proud Lion and Hoarder at [ESCORE].
    let mut b = bench("");
    let lion = b.up(0, "proud-lion", 1);
    b.up(1, "hoarder", 2);
    for _ in 0..6 {
        b.hand(1, "vanilla-1");
    }
    let mut g = b.game();
    g.st.counters[lion as usize] = [3, 0];
    g.st.scoring = SLOTS as u8;
    g.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    assert_eq!(g.st.points, [1, 1]);
    // Rust Tide at [BT]: a -1 counter on the opposing card of highest value.
    let mut b = bench("");
    b.up(0, "rust-tide", 1);
    let low = b.up(1, "vanilla-3", 2);
    let high = b.up(1, "vanilla-8", 3);
    let mut g = b.game();
    g.moment(Trigger::TurnStart, &mut Silent, &mut Script::none());
    assert_eq!((g.st.value(low), g.st.value(high)), (3, 7));
}

/// A probe acting right after its own slot is scored with `effect`, and `if` = `cond` when given.
fn slot_scored_probe(cond: &str, effect: &str) -> String {
    format!(
        "\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"slot_scored\"\n{cond}\n{effect}\n"
    )
}

#[test]
fn current_means_the_slot_being_scored_while_scoring() {
    // The probe in S5 marks the cards of the current slot right after S5 is scored: S5's two.
    let effect = "  effect = \"counter\"\n  target = { slots = \"current\" }\n  amount = 1";
    let (mut g, ids) = probe_table(&slot_scored_probe("", effect));
    let before = g.st.counters;
    g.score_slots(&mut Silent, &mut Script::none());
    let marked: Vec<usize> =
        (0..7).filter(|&k| g.st.counters[ids[k] as usize] != before[ids[k] as usize]).collect();
    assert_eq!(marked, [3, 4], "the probe and P1's 8 in S5");
}

#[test]
fn current_means_the_turns_slot_between_scorings() {
    // At the start of turn 4 the current slot is S4: P1's 2 there gets the counter.
    let probe = "\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"turn_start\"\n  effect = \"counter\"\n  target = { slots = \"current\" }\n  amount = 1\n";
    let (mut g, [_, _, b2, ..]) = probe_table(probe);
    g.st.turn = 4;
    g.moment(Trigger::TurnStart, &mut Silent, &mut Script::none());
    assert_eq!(g.st.counter_sum(b2), 1);
}

#[test]
fn result_tied_holds_only_for_a_slot_nobody_took() {
    let cond = "  if = [ { result = \"tied\" } ]";
    let effect = "  effect = \"points\"\n  amount = 5";
    for (opposing, bonus) in [("vanilla-9", 5), ("vanilla-8", 0)] {
        let mut b = bench(&slot_scored_probe(cond, effect));
        b.up(0, "probe", 1);
        b.up(1, opposing, 1);
        let mut g = b.game();
        g.score_slots(&mut Silent, &mut Script::none());
        let base = if opposing == "vanilla-8" { [1, 0] } else { [0, 0] };
        assert_eq!(g.st.points, [base[0] + bonus, base[1]], "against {opposing}");
    }
}

#[test]
fn per_multiplies_modify_and_counter_by_the_cards_it_finds() {
    // Three opposing cards on the probe table (2, 8, 3): +1 each way per card.
    let modify = "\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"modify\"\n  target = \"self\"\n  amount = 1\n  per = { side = \"opp\" }\n";
    let (mut g, [.., probe, _, _, _]) = probe_table(modify);
    score_start(&mut g);
    assert_eq!((g.st.value(probe), g.st.counter_sum(probe)), (12, 0));
    let counter = modify.replace("\"modify\"", "\"counter\"").replace("amount = 1", "amount = -2");
    let (mut g, [.., probe, _, _, _]) = probe_table(&counter);
    score_start(&mut g);
    assert_eq!((g.st.value(probe), g.st.counter_sum(probe)), (3, -6));
}

#[test]
fn quarry_mole_destroys_a_face_up_printed_one_of_the_opponent() {
    let mut b = bench("");
    let mole = b.down(0, "quarry-mole", 5);
    let one_up = b.up(1, "vanilla-1", 2);
    let one_down = b.down(1, "vanilla-1", 3);
    let mine = b.up(0, "vanilla-1", 4);
    let two = b.up(1, "vanilla-2", 6);
    let mut g = b.game();
    // Only the face-up 1 (S2, P1) is offered; the controller takes it.
    let mut script = Script { targets: vec![vec![3]], ..Script::none() };
    g.reveal_for_tests(&[mole], &mut script);
    assert_eq!(script.asked, [('t', 0, vec![3])]);
    assert_eq!(script.sources, [(8, vec![])], "the source's place: S5, P0's side");
    let on = |id| g.st.on_table(id);
    assert_eq!((on(one_up), on(one_down), on(mine), on(two)), (false, true, true, true));
    assert_eq!(g.st.piles[1].as_slice(), [one_up]);
    // No opposing printed 1 face up: nothing happens.
    let mut b = bench("");
    let mole = b.down(0, "quarry-mole", 5);
    let one_down = b.down(1, "vanilla-1", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[mole], &mut Script::none());
    assert!(g.st.on_table(one_down) && g.st.piles[1].is_empty());
}

#[test]
fn archivist_draws_two_then_discards_one() {
    let mut b = bench("");
    let archivist = b.down(0, "archivist", 6);
    let held = b.hand(0, "vanilla-5");
    let low = b.deck(0, "vanilla-3");
    let high = b.deck(0, "vanilla-8");
    let theirs = b.deck(1, "vanilla-2");
    let mut g = b.game();
    // The discard comes after both draws (hand: 5, 8, 3), and is the player's: here the 8.
    let mut script = Script { discard: vec![1], ..Script::none() };
    g.reveal_for_tests(&[archivist], &mut script);
    assert_eq!(script.asked, [('d', 0, vec![3])]);
    assert!(g.st.decks[0].is_empty() && g.st.decks[1].as_slice() == [theirs]);
    assert_eq!((g.st.hands[0].len(), g.st.piles[0].len(), g.tally.fizzles), (2, 1, 0));
    assert_eq!(g.st.piles[0].as_slice(), [high]);
    assert_eq!(g.st.hands[0].as_slice(), [held, low]);
}

#[test]
fn the_cartographer_may_trade_two_of_your_cards_never_an_opponents() {
    for take in [true, false] {
        let mut b = bench("");
        let map = b.up(0, "the-cartographer", 2);
        let mine = b.up(0, "vanilla-3", 7);
        let theirs = b.up(1, "vanilla-9", 7);
        let mut g = b.game();
        // The controller chooses both cards among its own (S2 and S7, P0's side: places 2 and
        // 12), the second among the others, then whether to swap them.
        let mut script = Script { targets: vec![vec![12], vec![2]], take: vec![take], ..Script::none() };
        g.st.scoring = SLOTS as u8;
        g.moment(Trigger::ScoreStart, &mut Silent, &mut script);
        let asked = [('t', 0, vec![2, 12]), ('t', 0, vec![2]), ('m', 0, vec![12, 2])];
        assert_eq!(script.asked, asked);
        // Asked from S2 (place 2); the first pick sees the other side's candidates as partners,
        // the second the card already chosen.
        assert_eq!(script.sources, [(2, vec![2, 12]), (2, vec![12]), (2, vec![])]);
        let (s2, s7) = (g.st.slots[1], g.st.slots[6]);
        assert_eq!((s2[1], s7[1]), (NONE, theirs), "the opponent's side is untouched");
        let expected = if take { (mine, map) } else { (map, mine) };
        assert_eq!((s2[0], s7[0]), expected);
        assert_eq!((g.tally.declined, g.tally.control_changes), (u64::from(!take), 0));
    }
}

#[test]
fn a_choice_is_asked_of_the_side_the_source_lies_on() {
    // P0's Quarry Mole lies on P1's side of S5 (where a swap left it): P1 controls it, so P1
    // chooses, among P0's cards; the destroyed 1 goes to its owner's pile.
    let mut b = bench("");
    let mole = b.card(0, "quarry-mole");
    b.st.set_down(mole, 4, 1);
    let one = b.up(0, "vanilla-1", 2);
    let other = b.up(0, "vanilla-1", 3);
    b.up(1, "vanilla-1", 4);
    let mut g = b.game();
    let mut script = Script { targets: vec![vec![4]], ..Script::none() };
    g.reveal_for_tests(&[mole], &mut script);
    assert_eq!(script.asked, [('t', 1, vec![2, 4])]);
    assert!(g.st.on_table(one) && !g.st.on_table(other));
    assert_eq!(g.st.piles[0].as_slice(), [other]);
}

// ---------------------------------------------------------------------------------------------
// Positions that pin rules a first round of mutation testing found unpinned

/// Probes acting at [SSCORE], all of printed value 9 (one batch), for the conflict rules.
const CONFLICT_PROBES: &str = r#"
[[card]]
id = "swapper"
name = "Swapper"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "swap"
  a = "self"
  b = "oc"

[[card]]
id = "drawer"
name = "Drawer"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "draw"
  amount = 1

[[card]]
id = "brander"
name = "Brander"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "counter"
  target = "oc"
  amount = 1
  [[card.ability]]
  on = "score_start"
  effect = "destroy"
  target = "oc"

[[card]]
id = "razer"
name = "Razer"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "destroy"
  target = { side = "you", slots = "prev1" }

[[card]]
id = "recaller"
name = "Recaller"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "return"
  target = "oc"
  [[card.ability]]
  on = "score_start"
  effect = "set"
  target = "oc"
  to = 1

[[card]]
id = "flasher"
name = "Flasher"
rarity = "rare"
value = 9
  [[card.ability]]
  on = "score_start"
  effect = "reveal"
  target = "oc"
"#;

#[test]
fn both_cards_of_a_swap_conflict_with_a_counter_on_either() {
    // Swapper (P0, S1) swaps with P1's 5; the probe (P0, S2) counters that 5 in the same batch.
    let mut b =
        bench(&format!("{CONFLICT_PROBES}\n{}", selector_probe(r#"{ side = "opp", slots = "prev1" }"#)));
    let swapper = b.up(0, "swapper", 1);
    let five = b.up(1, "vanilla-5", 1);
    b.up(0, "probe", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.tally.fizzles, 2);
    assert_eq!((g.st.slots[0], g.st.counter_sum(five)), ([swapper, five], 0));
}

#[test]
fn a_draw_conflicts_only_with_a_discard_of_the_same_player() {
    // Drawer (P0) draws while the probe counters a card in another slot: nothing to fizzle.
    let mut b = bench(&format!("{CONFLICT_PROBES}\n{}", selector_probe(r#""oc""#)));
    b.up(0, "drawer", 1);
    b.up(0, "probe", 2);
    let five = b.up(1, "vanilla-5", 2);
    b.deck(0, "vanilla-3");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.tally.fizzles, 0);
    assert_eq!((g.st.hands[0].len(), g.st.counter_sum(five)), (1, 1));
}

#[test]
fn a_draw_and_a_counter_never_conflict_in_either_order() {
    // The drawer and the probe in both slot orders and both collection orders: whichever plan a
    // batch compares first, a draw conflicts only with a discard.
    for (drawer_slot, probe_slot) in [(1, 3), (3, 1)] {
        for drawer_first in [true, false] {
            let mut b = bench(&format!("{CONFLICT_PROBES}\n{}", selector_probe(r#""oc""#)));
            if drawer_first {
                b.up(0, "drawer", drawer_slot);
                b.up(0, "probe", probe_slot);
            } else {
                b.up(0, "probe", probe_slot);
                b.up(0, "drawer", drawer_slot);
            }
            let oc = b.up(1, "vanilla-5", probe_slot);
            b.deck(0, "vanilla-3");
            let mut g = b.game();
            score_start(&mut g);
            let at = (drawer_slot, drawer_first);
            assert_eq!(g.tally.fizzles, 0, "{at:?}");
            assert_eq!((g.st.hands[0].len(), g.st.counter_sum(oc)), (1, 1), "{at:?}");
        }
    }
}

#[test]
fn a_discard_by_printed_value_takes_the_first_of_equals() {
    let shredder = "\n[[card]]\nid = \"shredder\"\nname = \"Shredder\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"discard\"\n  player = \"you\"\n  pick = \"highest\"\n";
    let mut b = bench(shredder);
    b.up(0, "shredder", 1);
    let low = b.hand(0, "vanilla-2");
    let first = b.hand(0, "vanilla-8");
    let second = b.hand(0, "vanilla-8");
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.piles[0].as_slice(), [first]);
    assert_eq!(g.st.hands[0].as_slice(), [low, second]);
}

#[test]
fn a_second_ability_resolves_after_its_first_fizzled() {
    // Brander (P0, S1) counters, then destroys P1's 5; Razer (P1, S2) destroys the same 5. Brander's
    // counter and Razer's destroy meet in the first step and fizzle; Brander's destroy follows.
    let mut b = bench(CONFLICT_PROBES);
    b.up(0, "brander", 1);
    let five = b.up(1, "vanilla-5", 1);
    b.up(1, "razer", 2);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.tally.fizzles, g.tally.then_steps), (2, 1));
    assert!(!g.st.on_table(five));
    assert_eq!(g.st.piles[1].as_slice(), [five]);
}

#[test]
fn a_set_on_a_card_already_gone_is_lost_with_it() {
    // Recaller returns its OC to hand, then sets it to 1: the card left, so the set does nothing,
    // even once the card is on the table again.
    let mut b = bench(CONFLICT_PROBES);
    b.up(0, "recaller", 1);
    let five = b.up(1, "vanilla-5", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.hands[1].as_slice(), &[five]);
    g.st.hands[1].clear();
    g.st.set_down(five, 1, 1);
    g.st.turn_up(five);
    assert_eq!(g.st.value(five), 5);
}

#[test]
fn revealing_a_face_up_card_does_nothing() {
    // Flasher reveals its OC, Mud Slinger, already face up: no re-reveal, no second counter.
    let mut b = bench(CONFLICT_PROBES);
    let flasher = b.up(0, "flasher", 1);
    b.up(1, "mud-slinger", 1);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!((g.tally.re_reveals, g.st.counter_sum(flasher)), (0, 0));
}

#[test]
fn a_watcher_on_seat_1_watches_seat_0_as_its_opponent() {
    // Night Watch on P1's side of S1: P0's 8 is an opposing card, P1's own 8 is not.
    let mut b = bench("");
    b.up(1, "night-watch", 1);
    let theirs = b.down(0, "vanilla-8", 2);
    let mine = b.down(1, "vanilla-8", 3);
    let mut g = b.game();
    g.reveal_for_tests(&[theirs, mine], &mut Script::none());
    assert_eq!((g.st.value(theirs), g.st.value(mine)), (7, 8));
}

#[test]
fn the_story_shows_values_after_a_batch_that_acted_and_not_after_a_lost_one() {
    // As above: batch 3 (Gust Sprite) acts and shows the values; batch 9 (Colossus, hidden) is lost.
    let mut b = bench("");
    b.up(0, "vanilla-5", 3);
    let sprite = b.down(0, "gust-sprite", 4);
    let colossus = b.down(1, "colossus", 4);
    b.up(1, "vanilla-5", 5);
    let mut g = b.game();
    let mut story = String::new();
    g.reveal_told_for_tests(
        &[sprite, colossus],
        &mut Script::none(),
        &mut crate::games::narrate::Story(&mut story),
    );
    let lines: Vec<&str> = story.lines().map(str::trim_start).collect();
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.starts_with("values:") {
                "values"
            } else if l.contains("lost") {
                "lost"
            } else {
                "act"
            }
        })
        .collect();
    assert_eq!(kinds, ["act", "values", "lost"], "{story}");
}

#[test]
fn a_turn_limited_ability_is_not_even_collected_outside_its_turns() {
    // Hourglass draws at [BT6]-[BT9] only: at turn 3 the moment has nothing to tell.
    let mut b = bench("");
    b.up(0, "hourglass", 1);
    b.deck(0, "vanilla-2");
    let mut g = b.game();
    g.st.turn = 3;
    let mut story = String::new();
    g.moment(Trigger::TurnStart, &mut crate::games::narrate::Story(&mut story), &mut Script::none());
    assert_eq!((story.as_str(), g.st.hands[0].len()), ("", 0));
    g.st.turn = 6;
    g.moment(Trigger::TurnStart, &mut crate::games::narrate::Story(&mut story), &mut Script::none());
    assert!(story.contains("Hourglass"), "{story}");
    assert_eq!(g.st.hands[0].len(), 1);
}

#[test]
fn a_card_leaving_the_table_takes_only_its_own_aura() {
    // Hearth Guard (P0, S2) gives P0's 5 in S1 +1; another card leaving changes nothing, the
    // Guard leaving ends it.
    let mut b = bench("");
    let guard = b.up(0, "hearth-guard", 2);
    let five = b.up(0, "vanilla-5", 1);
    let three = b.up(0, "vanilla-3", 5);
    let mut g = b.game();
    assert_eq!(g.st.value(five), 6);
    g.st.lift(three, &mut g.tally.clone());
    assert_eq!(g.st.value(five), 6);
    g.st.lift(guard, &mut g.tally.clone());
    assert_eq!(g.st.value(five), 5);
}

#[test]
fn the_story_names_each_static_when_revealed_and_each_source_in_the_values() {
    // Hearth Guard (P0, S2) gives P0's 5 in S1 +1; Tired Giant in S3 gets -4 from its own text.
    // Revealing them says their static texts; the values, and the values a slot is scored at,
    // name every source of a static change.
    let mut b = bench("");
    let five = b.up(0, "vanilla-5", 1);
    let guard = b.up(0, "hearth-guard", 2);
    let giant = b.up(1, "tired-giant", 3);
    let g = b.game();
    assert_eq!((g.st.value(five), g.st.value(giant)), (6, 5));
    let mut story = String::new();
    let mut narr = crate::games::narrate::Story(&mut story);
    for slot in [1, 2] {
        crate::games::slots::narrate::revealed(&g.st, slot, &mut narr);
    }
    crate::games::slots::narrate::values(&g.st, &mut narr);
    crate::games::slots::narrate::scored(&g.st, 0, crate::games::slots::table::Taken::Seat(0), &mut narr);
    let mut lines: Vec<&str> = story.lines().map(str::trim_start).collect();
    let score = lines.pop().unwrap();
    assert!(score.contains("(values 6(+1 static: Hearth Guard 3 +1) v empty)"), "{story}");
    assert!(lines[1].starts_with("Hearth Guard 3 (P0, S2): While face up"), "{story}");
    assert!(
        lines[3].starts_with("Tired Giant 9 (P1, S3): While face up") && lines[3].ends_with("-4."),
        "{story}"
    );
    let values = lines.last().unwrap();
    assert!(values.contains("S1 6(+1 static: Hearth Guard 3 +1)/-"), "{story}");
    assert!(values.contains("S3 -/5(-4 static: own text -4)"), "{story}");
    assert_eq!(g.st.value(guard), 3, "the guard's aura is on its neighbours, not itself");
}

#[test]
fn a_static_of_a_slot_range_reaches_exactly_those_slots() {
    // An aura of S2-S3 (from S5) gives +1 to the cards of S2 and S3, not S1 or S4.
    let aura = "\n[[card]]\nid = \"range-aura\"\nname = \"Range Aura\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"static\"\n  effect = \"modify\"\n  target = { slots = \"2-3\" }\n  amount = 1\n";
    let mut b = bench(aura);
    b.up(0, "range-aura", 5);
    let fives: Vec<u8> = (1..=4).map(|slot| b.up(1, "vanilla-5", slot)).collect();
    let g = b.game();
    let values: Vec<i32> = fives.iter().map(|&id| g.st.value(id)).collect();
    assert_eq!(values, [5, 6, 6, 5]);
}

// ---------------------------------------------------------------------------------------------
// Exact timing: a reveal only turns a face-down card up, lasting effects end for good, watchers
// are matched where they lay, counters are kept by sign, and a card's abilities resolve in order.

const TIMING_PROBES: &str = r#"
[[card]]
id = "lamplighter"
name = "Lamplighter"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "after_place"
  effect = "reveal"
  target = { slots = "current", face = "down" }

[[card]]
id = "glow"
name = "Glow"
rarity = "rare"
value = 3
  [[card.ability]]
  effect = "counter"
  target = "self"
  amount = 1

[[card]]
id = "warden"
name = "Warden"
rarity = "rare"
value = 2
  [[card.ability]]
  effect = "modify"
  target = "oc"
  amount = -2
  duration = "source"

[[card]]
id = "snuffer"
name = "Snuffer"
rarity = "rare"
value = 6
  [[card.ability]]
  on = "score_start"
  effect = "hide"
  target = { side = "opp", pick = "highest" }

[[card]]
id = "bouncer"
name = "Bouncer"
rarity = "rare"
value = 6
  [[card.ability]]
  on = "score_start"
  effect = "return"
  target = { side = "opp", pick = "highest" }

[[card]]
id = "avenger"
name = "Avenger"
rarity = "rare"
value = 2
  [[card.ability]]
  on = "destroyed"
  watch = "oc"
  effect = "counter"
  target = "oc"
  amount = 1

[[card]]
id = "axe"
name = "Axe"
rarity = "rare"
value = 5
  [[card.ability]]
  on = "score_start"
  effect = "destroy"
  target = { side = "you", slots = 1 }

[[card]]
id = "shuffler"
name = "Shuffler"
rarity = "rare"
value = 6
  [[card.ability]]
  on = "score_start"
  effect = "swap"
  a = { side = "you", slots = 1 }
  b = { side = "you", slots = 3 }

[[card]]
id = "booster"
name = "Booster"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "score_start"
  effect = "counter"
  target = { side = "you", slots = 1 }
  amount = 2

[[card]]
id = "cleanser"
name = "Cleanser"
rarity = "rare"
value = 1
  [[card.ability]]
  on = "score_end"
  effect = "clear_counters"
  target = { side = "opp", slots = 1 }
  sign = "minus"

[[card]]
id = "ascender"
name = "Ascender"
rarity = "rare"
value = 3
  [[card.ability]]
  effect = "counter"
  target = "self"
  amount = 2
  [[card.ability]]
  if = [ { self_value = ">=5" } ]
  effect = "points"
  amount = 1
"#;

/// A table for the timing cases: `bench` with the timing probes.
fn timing_bench() -> Bench {
    bench(TIMING_PROBES)
}

/// Plays the turn in progress: both seats place their first hand card.
pub(super) fn play_turn(g: &mut Game) {
    g.stop_at_turn();
    let mut rng = GameSeed::new(3, 3).rng();
    g.answer(0, &mut rng, &mut Silent, &mut Script::none());
    g.answer(0, &mut rng, &mut Silent, &mut Script::none());
}

#[test]
fn a_card_turned_up_early_is_not_revealed_again_at_its_slots_reveal() {
    // Lamplighter turns turn 2's cards up at [P]: Glow's reveal acts then, and not again.
    let mut b = timing_bench();
    b.up(0, "lamplighter", 1);
    let glow = b.hand(0, "glow");
    let four = b.hand(1, "vanilla-4");
    for seat in 0..SEATS {
        b.hand(seat, "vanilla-1");
    }
    let mut g = b.game();
    g.st.turn = 2;
    play_turn(&mut g);
    assert_eq!(g.st.slots[1], [glow, four]);
    assert_eq!((g.st.counter_sum(glow), g.st.value(glow)), (1, 4));
    assert_eq!((g.tally.already_up, g.tally.re_reveals), (2, 0));
}

#[test]
fn an_effect_lasting_while_its_source_stays_ends_for_good_when_it_turns_down() {
    // Warden gives its OC -2 while it stays; Snuffer hides it; revealed again, one fresh -2.
    let mut b = timing_bench();
    let warden = b.down(0, "warden", 2);
    let nine = b.down(1, "vanilla-9", 2);
    b.up(1, "snuffer", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[warden, nine], &mut Script::none());
    assert_eq!(g.st.value(nine), 7);
    score_start(&mut g);
    assert!(!g.st.is_face_up(warden));
    assert_eq!((g.st.value(nine), g.tally.effects_ended), (9, 1));
    g.reveal_for_tests(&[warden], &mut Script::none());
    assert_eq!(g.st.value(nine), 7, "one fresh instance, the old one gone");
}

#[test]
fn an_effect_lasting_while_its_source_stays_ends_when_it_leaves_and_comes_back() {
    // Bouncer returns Warden to hand; placed in S2 again and revealed, it gives one fresh -2.
    let mut b = timing_bench();
    let warden = b.down(0, "warden", 2);
    let nine = b.down(1, "vanilla-9", 2);
    b.up(1, "bouncer", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[warden, nine], &mut Script::none());
    score_start(&mut g);
    assert_eq!(g.st.hands[0].as_slice(), [warden]);
    assert_eq!((g.st.value(nine), g.tally.effects_ended), (9, 1));
    g.st.place(0, 0, 1);
    g.reveal_for_tests(&[warden], &mut Script::none());
    assert_eq!(g.st.value(nine), 7, "one fresh instance, the old one gone");
}

#[test]
fn a_watcher_moved_by_a_swap_is_matched_where_it_lay_and_acts_where_it_lies() {
    // Axe (5) destroys Avenger's OC in S1, then Shuffler (6) moves Avenger to S3, in one moment:
    // Avenger watched its OC in S1 when the 4 was destroyed, and counters its OC in S3 now.
    let mut b = timing_bench();
    let avenger = b.up(0, "avenger", 1);
    let four = b.up(1, "vanilla-4", 1);
    let three = b.up(0, "vanilla-3", 3);
    let six = b.up(1, "vanilla-6", 3);
    b.up(0, "shuffler", 4);
    let axe = b.up(1, "axe", 5);
    let mut g = b.game();
    score_start(&mut g);
    assert_eq!(g.st.piles[1].as_slice(), [four]);
    assert_eq!((g.st.slots[0], g.st.slots[2]), ([three, NONE], [avenger, six]));
    assert_eq!((g.st.counter_sum(six), g.st.counter_sum(three), g.st.counter_sum(axe)), (1, 0, 0));
    assert_eq!(g.tally.watchers_moved, 1);
}

#[test]
fn plus_and_minus_counters_are_kept_apart() {
    // Mud Slinger gives P1's 5 a -1 counter, Booster a +2: the 5 carries both (value 6), so
    // Counterweight may destroy it; Cleanser takes off the minus counters only.
    let mut b = timing_bench();
    let mud = b.down(0, "mud-slinger", 1);
    let five = b.down(1, "vanilla-5", 1);
    b.up(1, "booster", 2);
    let weight = b.down(0, "counterweight", 3);
    b.up(0, "cleanser", 4);
    let mut g = b.game();
    g.reveal_for_tests(&[mud, five], &mut Script::none());
    score_start(&mut g);
    assert_eq!((g.st.counters[five as usize], g.st.value(five)), ([2, -1], 6));
    assert_eq!(g.tally.opposed_counters, 1);
    let mut cleansed = g.clone();
    cleansed.moment(Trigger::ScoreEnd, &mut Silent, &mut Script::none());
    assert_eq!((cleansed.st.counters[five as usize], cleansed.st.value(five)), ([2, 0], 7));
    // Counterweight is offered the 5 (S1, P1: place 1) and destroys it.
    let mut pick_five = Script { targets: vec![vec![1]], ..Script::none() };
    g.reveal_for_tests(&[weight], &mut pick_five);
    assert_eq!(pick_five.asked[0].2, [1]);
    assert_eq!(g.st.piles[1].as_slice(), [five]);
}

#[test]
fn a_cards_second_ability_reads_the_table_as_its_first_left_it() {
    // Ascender (3) puts two +1 counters on itself, then scores a point if its value is 5 or more.
    let mut b = timing_bench();
    let ascender = b.down(0, "ascender", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[ascender], &mut Script::none());
    assert_eq!((g.st.value(ascender), g.st.points[0], g.tally.then_steps), (5, 1, 1));
}

#[test]
fn equal_printed_values_resolve_first_abilities_together_then_second_ones() {
    // Two Ascenders (3 each): both counters land in the first batch, both points in the second.
    let mut b = timing_bench();
    let a = b.down(0, "ascender", 1);
    let c = b.down(1, "ascender", 1);
    let mut g = b.game();
    g.reveal_for_tests(&[a, c], &mut Script::none());
    assert_eq!((g.st.value(a), g.st.value(c), g.st.points), (5, 5, [1, 1]));
    assert_eq!((g.tally.then_steps, g.tally.fizzles), (2, 0));
}

// ---------------------------------------------------------------------------------------------
// Rule-changing cards

#[test]
fn lower_wins_gives_a_slot_to_the_lower_card_this_round() {
    // Topsy-Turvy (P1, S2) turns S5 around: P0's 8 loses to P1's 3 there; S2 is untouched.
    let mut b = bench("");
    let turvy = b.down(1, "topsy-turvy", 2);
    let nine = b.down(0, "vanilla-9", 2);
    b.up(0, "vanilla-8", 5);
    b.up(1, "vanilla-3", 5);
    let mut g = b.game();
    g.reveal_for_tests(&[turvy, nine], &mut Script::none());
    assert_eq!((g.st.winner_of(4), g.st.winner_of(1)), (Taken::Seat(1), Taken::Seat(0)));
    g.end_round(&mut GameSeed::new(1, 1).rng(), &mut Silent, &mut Script::none());
    assert_eq!(g.st.lower_wins, 0, "for this round only");
}

#[test]
fn win_ties_gives_a_tied_slot_to_the_controller() {
    // Tiebreaker (P1, 4) meets P0's 4 in S3: a tie, which goes to P1; an empty S4 still gives nothing.
    let mut b = bench("");
    let breaker = b.down(1, "tiebreaker", 3);
    let four = b.down(0, "vanilla-4", 3);
    let mut g = b.game();
    assert_eq!(g.st.winner_of(2), Taken::Nobody);
    g.reveal_for_tests(&[breaker, four], &mut Script::none());
    assert_eq!((g.st.winner_of(2), g.st.winner_of(3)), (Taken::Seat(1), Taken::Nobody));
    g.score_slots(&mut Silent, &mut Script::none());
    assert_eq!(g.st.points, [0, 1]);
}

#[test]
fn purifier_removes_only_the_minus_counters_of_its_side() {
    let mut b = bench("");
    let purifier = b.down(0, "purifier", 1);
    let mine = b.up(0, "vanilla-5", 2);
    let theirs = b.up(1, "vanilla-5", 2);
    let mut g = b.game();
    g.st.counters[mine as usize] = [1, -2];
    g.st.counters[theirs as usize] = [0, -1];
    g.reveal_for_tests(&[purifier], &mut Script::none());
    assert_eq!((g.st.counters[mine as usize], g.st.counters[theirs as usize]), ([1, 0], [0, -1]));
    assert_eq!(g.st.value(mine), 6);
}

#[test]
fn per_and_count_read_a_hand_pile_or_deck() {
    // Miser: +1 per card in its controller's hand. A probe scores 1 if P0's pile holds 2+ cards,
    // and 1 per card in P1's deck.
    let probe = "\n[[card]]\nid = \"pile-reader\"\nname = \"Pile Reader\"\nrarity = \"rare\"\nvalue = 9\n  [[card.ability]]\n  on = \"score_start\"\n  if = [ { count = { zone = \"pile\", side = \"you\" }, is = \">=2\" } ]\n  effect = \"points\"\n  amount = 1\n  [[card.ability]]\n  on = \"score_start\"\n  effect = \"points\"\n  amount = 1\n  per = { zone = \"deck\", side = \"opp\" }\n";
    let mut b = bench(probe);
    let miser = b.up(0, "miser", 1);
    b.up(0, "pile-reader", 2);
    for _ in 0..3 {
        b.hand(0, "vanilla-1");
    }
    b.hand(1, "vanilla-1");
    for _ in 0..4 {
        b.deck(1, "vanilla-2");
    }
    let mut g = b.game();
    assert_eq!(g.st.value(miser), 2 + 3);
    let pile = g.st.hands[0].remove(0);
    g.st.piles[0].push(pile);
    assert_eq!(g.st.value(miser), 2 + 2, "read now");
    score_start(&mut g);
    assert_eq!(g.st.points[0], 4, "a pile of 1: no point; 4 cards in P1's deck");
    let pile = g.st.hands[0].remove(0);
    g.st.piles[0].push(pile);
    score_start(&mut g);
    assert_eq!(g.st.points[0], 4 + 1 + 4);
}
