//! Hand-built cases for what mutation testing found unpinned in the players and the event
//! (`docs/testing.md`, "Mutation testing"): the greedy judge, the strength estimate, the random
//! chooser, `reader`'s judge, `search`, `adapt`'s sideboard, the deal's printing. Each test names
//! one rule and fails when one line of it is changed.

use std::sync::Arc;

use super::*;
use crate::decide::search::Steps;
use crate::games::contest::schedule::{game_seed, round_robin};
use crate::games::contest::{Contest, IntoEvent};
use crate::games::slots::cardset::{Effect, Player, Selector};
use crate::games::slots::deal::{Dealing, Printing};
use crate::games::slots::event::SlotsEvent;
use crate::games::slots::judge;
use crate::games::slots::search::{HighestRollout, Searcher, Sim};
use crate::games::slots::sideboard::Sideboard;
use crate::record::GameRecord;

/// A card set of `cards` (TOML `[[card]]` tables), compiled.
fn set_of(cards: &str) -> super::super::cardset::CardSet {
    let text = format!("format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n{cards}");
    parse("t.toml", &text).expect("the test set parses")
}

/// The estimated worth, in tenths, of a common 5 with one ability of `body` (TOML keys).
fn worth_of(body: &str) -> i32 {
    let set = set_of(&format!(
        "[[card]]\nid = \"c\"\nname = \"C\"\nrarity = \"common\"\nvalue = 5\n  [[card.ability]]\n  on = \"score_end\"\n{body}"
    ));
    set.worth[0]
}

/// An observation of seat 0 whose table holds `cards` (slot, side, what the seat sees).
fn seen(cards: &[(usize, usize, Seen)]) -> Observation {
    let mut obs = Observation::default();
    for &(slot, side, s) in cards {
        obs.table[slot][side] = s;
    }
    obs
}

fn up(printed: u8, value: i32) -> Seen {
    Seen::Up { id: 0, printed, value, counters: value - printed as i32 }
}

// ---- the greedy judge (`judge.rs`) ----

#[test]
fn the_greedy_judge_values_a_swap_by_the_two_cards_trading_places() {
    // Slot 1: my 3 against their 6. Swapping the two (places 0 and 1) turns a lost slot into a
    // taken one: from -8 - 3 to +8 + 3.
    let obs = seen(&[(0, 0, up(3, 3)), (0, 1, up(6, 6))]);
    let swap = Effect::Swap { a: Selector::ALL, b: Selector::ALL };
    assert_eq!(judge::gain(&obs, 0, &swap, &[0, 1]), 22);
    assert_eq!(judge::gain(&obs, 1, &swap, &[0, 1]), -22);
}

#[test]
fn the_greedy_judge_values_hiding_a_face_up_card_as_leaving_only_what_it_carries() {
    // Their face-up 7 with +2 counters (value 9) against my 5: hidden, it keeps its counters
    // alone (a face-down card is 0 plus what it carries), 2, and my 5 takes the slot.
    let obs = seen(&[(0, 0, up(5, 5)), (0, 1, up(7, 9))]);
    let hide = Effect::Hide { target: Selector::ALL };
    // Before: -8 + (5 - 9); after: +8 + (5 - 2).
    assert_eq!(judge::gain(&obs, 0, &hide, &[1]), 8 + 3 - (-8 - 4));
}

#[test]
fn the_greedy_judge_values_a_card_drawn_at_card_for_the_drawer_and_against_it_for_the_opponent() {
    let obs = Observation::default();
    let draw = |player, amount| judge::gain(&obs, 0, &Effect::Draw { player, amount }, &[]);
    assert_eq!(
        [draw(Player::You, 1), draw(Player::Opp, 1), draw(Player::Both, 1), draw(Player::You, 3)],
        [judge::CARD, -judge::CARD, 0, 3 * judge::CARD]
    );
    let discard = |player, amount| {
        let pick = super::super::cardset::DiscardPick::Random;
        judge::gain(&obs, 0, &Effect::Discard { player, amount, pick }, &[])
    };
    assert_eq!(
        [discard(Player::You, 1), discard(Player::Opp, 1), discard(Player::Both, 1), discard(Player::Opp, 2)],
        [-judge::CARD, judge::CARD, 0, 2 * judge::CARD]
    );
}

#[test]
fn the_greedy_judge_values_losing_a_slot_against_it_and_clearing_counters_by_their_sum() {
    // My 5 against their 3: destroying my own card loses the slot: from +8 + 2 to -8 - 3.
    let obs = seen(&[(0, 0, up(5, 5)), (0, 1, up(3, 3))]);
    assert_eq!(judge::gain(&obs, 0, &Effect::Destroy { target: Selector::ALL }, &[0]), -21);
    // Their 7 with +2 counters (9) against my 8: cleared, it is a 7 and my 8 takes the slot.
    let obs = seen(&[(0, 0, up(8, 8)), (0, 1, up(7, 9))]);
    let clear = Effect::ClearCounters { target: Selector::ALL, sign: super::super::cardset::Sign::Any };
    assert_eq!(judge::gain(&obs, 0, &clear, &[1]), (8 + 1) - (-8 - 1));
}

#[test]
fn the_greedy_judge_values_a_point_at_a_slot_and_points_to_both_at_nothing() {
    let obs = Observation::default();
    let points = |player, amount| judge::gain(&obs, 0, &Effect::Points { player, amount, per: None }, &[]);
    assert_eq!(
        [points(Player::You, 2), points(Player::Opp, 1), points(Player::Both, 3)],
        [2 * judge::SLOT, -judge::SLOT, 0]
    );
}

#[test]
fn heuristic_players_take_you_may_when_it_gains_and_random_either_way() {
    let st = fresh_state(10);
    let mut obs = Observation::default();
    st.observe(0, &mut obs);
    let ask = |player| Ask {
        seat: 0,
        source: 0,
        effect: Effect::Draw { player, amount: 1 },
        n: 1,
        partner: Places::default(),
    };
    let mut rng = rng();
    for mut agent in [Agent::Highest, Agent::Reader(Box::default())] {
        assert!(agent.take(&obs, &ask(Player::You), &Places::default(), &mut rng));
        assert!(
            !agent.take(&obs, &ask(Player::Opp), &Places::default(), &mut rng),
            "drawing for the opponent gains nothing"
        );
    }
    let taken =
        (0..64).filter(|_| Agent::Random.take(&obs, &ask(Player::Opp), &Places::default(), &mut rng)).count();
    assert!(taken > 0 && taken < 64, "{taken} of 64 taken");
}

#[test]
fn the_greedy_judge_picks_the_card_whose_best_swap_gains_most() {
    // Slot 1: my 8 against their 2; slot 2: my 3 against their 9. My 8's best swap gains 2 (with
    // their 9: slot 2 lost to an 8 instead of a 9, slot 1 held by a 9), my 3's gains 28 (with
    // their 9: slot 2 turns mine).
    let obs = seen(&[(0, 0, up(8, 8)), (0, 1, up(2, 2)), (1, 0, up(3, 3)), (1, 1, up(9, 9))]);
    let ask = Ask {
        seat: 0,
        source: 0,
        effect: Effect::Swap { a: Selector::ALL, b: Selector::ALL },
        n: 1,
        partner: Places::of(&[1, 3]),
    };
    assert_eq!(judge::gain(&obs, 0, &ask.effect, &[0, 3]), 2);
    assert_eq!(judge::gain(&obs, 0, &ask.effect, &[2, 3]), 28);
    let mut out = Places::default();
    judge::targets(&obs, &ask, &Places::of(&[0, 2]), &mut out);
    assert_eq!(out.as_slice(), [2]);
}

// ---- the strength estimate (`strength.rs`, `docs/policies.md`) ----

#[test]
fn a_discard_is_worth_a_card_against_the_discarding_player_and_nothing_for_both() {
    let discard = |player: &str, amount: u8| {
        worth_of(&format!("  effect = \"discard\"\n  player = \"{player}\"\n  amount = {amount}\n"))
    };
    assert_eq!(
        [discard("you", 1), discard("opp", 1), discard("opp", 2), discard("both", 1)],
        [-10, 10, 20, 0]
    );
}

#[test]
fn removing_every_card_of_both_sides_cancels_out_to_nothing() {
    // Destroy, return and hide: 5 per opposing card, against it per own card; both sides: 0.
    for effect in ["destroy", "return", "hide"] {
        assert_eq!(worth_of(&format!("  effect = \"{effect}\"\n  target = \"all\"\n")), 0, "{effect}");
        assert_eq!(worth_of(&format!("  effect = \"{effect}\"\n  target = \"oc\"\n")), 50, "{effect}");
    }
}

#[test]
fn a_value_set_is_worth_its_distance_from_five_and_a_counted_amount_twice() {
    let set = |target: &str, to: u8| {
        worth_of(&format!("  effect = \"set\"\n  target = \"{target}\"\n  to = {to}\n"))
    };
    assert_eq!([set("self", 9), set("oc", 2)], [40, 30]);
    let per =
        worth_of("  effect = \"points\"\n  player = \"you\"\n  amount = 1\n  per = { side = \"you\" }\n");
    assert_eq!(per, 60, "3 a point, twice for a count");
}

#[test]
fn points_are_worth_three_each_to_their_player_and_nothing_to_both() {
    let points =
        |player: &str| worth_of(&format!("  effect = \"points\"\n  player = \"{player}\"\n  amount = 2\n"));
    assert_eq!([points("you"), points("opp"), points("both")], [60, -60, 0]);
}

// ---- the random chooser (`choices.rs`) ----

#[test]
fn a_random_choose_takes_n_different_places_among_those_offered() {
    let from = Places::of(&[2, 5, 7, 11]);
    let mut rng = GameSeed::new(3, 3).rng();
    let mut hits = [0; 4];
    for _ in 0..40 {
        let mut out = Places::of(&[1, 1, 1]);
        super::super::choices::uniform_targets(&from, 2, &mut rng, &mut out);
        let o = out.as_slice();
        assert!(o.len() == 2 && o[0] != o[1] && o.iter().all(|p| from.as_slice().contains(p)), "{o:?}");
        for (h, p) in hits.iter_mut().zip(from.as_slice()) {
            *h += usize::from(o.contains(p));
        }
    }
    // Each place is taken with chance 1/2: never taken in 40 draws has chance 2^-40.
    assert!(hits.iter().all(|&h| h > 0), "{hits:?}");
    // More asked than offered: every place, once.
    let mut out = Places::default();
    super::super::choices::uniform_targets(&from, 9, &mut rng, &mut out);
    let mut o = out.as_slice().to_vec();
    o.sort();
    assert_eq!(o, from.as_slice());
}

#[test]
fn the_rollouts_chooser_answers_you_may_both_ways() {
    let mut c = UniformChoices { rng: GameSeed::new(8, 1).rng() };
    let st = fresh_state(10);
    let ask = Ask {
        seat: 0,
        source: 0,
        effect: Effect::Draw { player: Player::You, amount: 1 },
        n: 1,
        partner: Places::default(),
    };
    let taken = (0..64).filter(|_| c.take(&st, &ask, &Places::default())).count();
    // Yes with chance 1/2: all 64 answers alike has chance 2^-63.
    assert!(taken > 0 && taken < 64, "{taken} of 64 taken");
}

// ---- `search` (`search.rs`) ----

#[test]
fn a_searched_round_is_worth_one_won_nothing_lost_and_one_half_tied() {
    let mut sim = Sim::new();
    assert_eq!([sim.value(0), sim.value(1)], [0.5, 0.5], "nothing decided yet");
    sim.game.st.wins[1] = 1;
    assert_eq!([sim.value(0), sim.value(1)], [0.0, 1.0]);
    sim.game.st.wins = [1, 0];
    assert_eq!([sim.value(0), sim.value(1)], [1.0, 0.0]);
}

#[test]
fn a_searchs_rollouts_place_the_highest_card_in_hand() {
    let mut sim = Sim::new();
    sim.game =
        position(1, [&[card(0, 3, 1), card(0, 9, 1), card(0, 5, 1)], &[card(1, 7, 1)]], [&[], &[]], &[]);
    let mut out = 7;
    crate::decide::search::Rollout::act(&mut HighestRollout, &sim, 0, &mut rng(), &mut out);
    assert_eq!(out, 1);
}

#[test]
fn search_places_the_only_kind_of_card_in_hand_without_searching() {
    // One card in hand, or two textless fives: index 0 (the first of its kind).
    for hand in [&[card(0, 7, 0)][..], &[card(0, 5, 1), card(0, 5, 2)][..]] {
        let game = position(1, [hand, &[card(1, 7, 0)]], [&[card(0, 9, 1)], &[card(1, 9, 1)]], &[]);
        let mut obs = Observation::default();
        game.observe(0, &mut obs);
        let mut s = Searcher::new(&Rules::with("search"));
        assert_eq!(s.place(&obs, &game.place_legal(0), &mut rng()), 0, "{hand:?}");
    }
}

// ---- `reader`'s judge (`reader.rs`) ----

/// The model of a typical deck: three cards of each value 3 to 9, mean 6.
fn typical() -> super::super::reader::Model {
    super::super::reader::Model { counts: [0, 0, 0, 3, 3, 3, 3, 3, 3, 3], mean: 6 }
}

#[test]
fn reader_judges_this_turns_slot_by_its_chance_against_the_model() {
    // Slot 1: my 8 against the model card (a 6, the model's mean). Of the 21 model cards, 15 are
    // lower and 3 higher: 8 * (15 - 3) / 21, plus a tenth of the strength ahead (8 - 6).
    let game = position(1, [&[], &[]], [&[], &[]], &[[card(0, 8, 0), card(1, 6, 0)]]);
    let st = &game.st;
    let score = super::super::reader::judge(st, 0, 0, card(0, 8, 0), card(1, 6, 0), &typical());
    assert!((score - (8.0 * 12.0 / 21.0 + 0.2)).abs() < 1e-9, "{score}");
}

#[test]
fn reader_moves_the_whole_model_by_what_the_forward_play_did_to_the_model_card() {
    // The model card carries +2 counters (value 8): every model value counts 2 more, so my 8
    // beats 3, 4, 5 and loses to 7, 8, 9 (shifted to 9, 10, 11): the slot is even.
    let (mine, theirs) = (card(0, 8, 0), card(1, 6, 0));
    let mut st = fresh_state(10);
    st.text = true;
    st.set = Some(Arc::new(set_of("[[card]]\nid = \"x\"\nname = \"X\"\nrarity = \"rare\"\nvalue = 9\n")));
    st.set_down(mine, 0, 0);
    st.set_down(theirs, 0, 1);
    st.reveal_slot(0);
    st.counters[theirs as usize] = [2, 0];
    assert_eq!((st.value(mine), st.value(theirs)), (8, 8));
    let score = super::super::reader::judge(&st, 0, 0, mine, theirs, &typical());
    assert!(score.abs() < 1e-9, "{score}");
}

#[test]
fn reader_counts_each_card_more_in_hand_at_two() {
    // No slot this turn (no opposing card): slot 1 is mine (+8), and I hold 2 cards more.
    let game = position(1, [&[card(0, 1, 1), card(0, 2, 1)], &[]], [&[], &[]], &[[card(0, 8, 0), NONE]]);
    let score = super::super::reader::judge(&game.st, 0, 0, card(0, 8, 0), NONE, &typical());
    assert!((score - (8.0 + 0.8 + 2.0 * 2.0)).abs() < 1e-9, "{score}");
}

#[test]
fn reader_models_the_opponents_deck_less_its_cards_seen_this_round() {
    // The opponent's 9 face up and two 9s on its pile: the model has no 9 left (mean of 3-8 is
    // 5.5, rounded to 6). My own face-up 3 takes nothing from it.
    let mut game =
        position(3, [&[card(0, 5, 1)], &[card(1, 5, 1)]], [&[], &[]], &[[card(0, 3, 0), card(1, 9, 1)]]);
    game.st.piles[1] = Stack::of(&[card(1, 9, 2), card(1, 9, 0)]);
    let mut obs = Observation::default();
    game.observe(0, &mut obs);
    let m = super::super::reader::model(&obs);
    assert_eq!((m.counts, m.mean), ([0, 0, 0, 3, 3, 3, 3, 3, 3, 0], 6));
}

#[test]
fn reader_places_the_first_of_two_cards_judged_alike() {
    // Two sevens, one textless and one whose text never acts (it destroys opposing cards printed
    // above 9): the same forward play, the same printed value, so the first in hand goes down.
    let dud = "[[card]]\nid = \"dud\"\nname = \"Dud\"\nrarity = \"common\"\nvalue = 7\n  [[card.ability]]\n  effect = \"destroy\"\n  target = { side = \"opp\", printed = \">9\" }\n";
    let (plain, texted) = (card(0, 7, 1), card(0, 7, 2));
    for hand in [[plain, texted], [texted, plain]] {
        let mut game = position(1, [&hand, &[card(1, 7, 1)]], [&[card(0, 9, 1)], &[card(1, 9, 1)]], &[]);
        game.st.text = true;
        game.st.set = Some(Arc::new(set_of(dud)));
        game.st.pools.design[texted as usize] = 0;
        let mut obs = Observation::default();
        game.observe(0, &mut obs);
        assert_eq!(super::super::reader::Reader::new().place(&obs), 0, "{hand:?}");
    }
}

// ---- `adapt`'s sideboard (`sideboard.rs`) ----

/// A nine that takes the opposing card off the table when that card is a printed 9 (and a copy
/// under another name).
const BREAKERS: &str = "[[card]]\nid = \"breaker\"\nname = \"Breaker\"\nrarity = \"common\"\nvalue = 9\n  [[card.ability]]\n  if = [ { oc_printed = \">=9\" } ]\n  effect = \"destroy\"\n  target = \"oc\"\n[[card]]\nid = \"breaker2\"\nname = \"Breaker Two\"\nrarity = \"common\"\nvalue = 9\n  [[card.ability]]\n  if = [ { oc_printed = \">=9\" } ]\n  effect = \"destroy\"\n  target = \"oc\"\n";

/// Between rounds 1 and 2 (the first tied): `seat` holds 30 textless nines but for `breakers`
/// Breakers last in its pool (so `top21` leaves them on the sideboard); the opponent's pool has
/// printed values `opp(k)` (k: pool place), of which its first nine cards have been shown.
fn between_rounds(seat: usize, breakers: usize, opp: impl Fn(usize) -> u8) -> State {
    let mut st = State::new(DeckPolicy::Adapt, 10);
    st.text = true;
    st.set = Some(Arc::new(set_of(BREAKERS)));
    st.pools.size = [POOL as u8; SEATS];
    for id in 0..CARDS {
        let k = id % POOL;
        st.pools.printed[id] = if owner(id as u8) == seat { 9 } else { opp(k) };
        st.pools.design[id] = TEXTLESS;
    }
    for b in 0..breakers {
        st.pools.design[seat * POOL + POOL - breakers + b] = b as u16;
    }
    for s in 0..SEATS {
        DeckPolicy::Adapt.keep(&st.pools, st.set.as_deref(), s, &mut st.kept[s]);
    }
    st.rounds = 1;
    st.ties = 1;
    st.shown = ((1u64 << 9) - 1) << ((1 - seat) * POOL);
    st
}

fn sideboard(st: &State, seat: usize) -> Option<Stack> {
    let mut out = Stack::default();
    Sideboard::default().choose(st, seat, &mut GameSeed::new(5, 5).rng(), &mut out).then_some(out)
}

#[test]
fn the_second_seat_adapts_to_the_first_seats_shown_cards() {
    let st = between_rounds(1, 1, |_| 9);
    let deck = sideboard(&st, 1).expect("nine against nine ties, Breaker takes a slot");
    assert!(deck.as_slice().contains(&(CARDS as u8 - 1)), "Breaker is in");
    assert!(deck.as_slice().iter().all(|&id| owner(id) == 1));
}

#[test]
fn of_two_equally_clear_swaps_the_first_sideboard_card_comes_in() {
    // Two Breakers of identical text play identical rollouts: the first in pool order comes in.
    let st = between_rounds(0, 2, |_| 9);
    let deck = sideboard(&st, 0).expect("a swap");
    assert!(deck.as_slice().contains(&(POOL as u8 - 2)) && !deck.as_slice().contains(&(POOL as u8 - 1)));
}

#[test]
fn a_deck_short_of_twenty_one_cards_is_kept() {
    let mut st = between_rounds(0, 1, |_| 9);
    assert!(sideboard(&st, 0).is_some(), "a full deck swaps");
    let full = st.kept[0];
    st.kept[0] = Stack::of(&full.as_slice()[..DECK - 1]);
    assert_eq!(sideboard(&st, 0), None);
}

#[test]
fn the_opponent_model_repeats_every_shown_card_in_turn() {
    // Shown: a one first, then eight nines. Repeated in turn, they fill the model's deck with 18
    // nines and 3 ones: nearly every round ties nine against nine, so Breaker comes in. (The first
    // shown card repeated alone would make it 13 ones: those rounds are won anyway.)
    let st = between_rounds(0, 1, |k| if k == 0 { 1 } else { 9 });
    assert!(sideboard(&st, 0).is_some());
}

#[test]
fn the_opponent_model_keeps_each_shown_card_at_its_place_and_fills_the_others_in_turn() {
    // The opponent's places 5-13 were shown, printed 1-9 in turn. The model's deck is its first
    // 21 places: 0-4 carry the shown 1-5, 5-13 stay 1-9, 14-20 carry 6-9 then 1-3.
    let mut st = between_rounds(0, 1, |k| if (5..14).contains(&k) { k as u8 - 4 } else { 5 });
    st.shown = ((1u64 << 9) - 1) << (POOL + 5);
    let shown: Vec<u8> = (POOL as u8 + 5..POOL as u8 + 14).collect();
    let mut g = st.clone();
    super::super::sideboard::model_opponent(&st, 1, &shown, &mut g);
    assert_eq!(g.kept[1].as_slice(), (POOL as u8..POOL as u8 + 21).collect::<Vec<_>>());
    let model: Vec<u8> = g.kept[1].as_slice().iter().map(|&id| g.pools.printed[id as usize]).collect();
    assert_eq!(model, [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 6, 7, 8, 9, 1, 2, 3]);
}

// ---- the deal's printing (`deal.rs`) ----

#[test]
fn textless_sheets_give_each_player_an_equal_share_of_own_cards_or_none_independently() {
    let printing = |d| Printing::new(None, &[], 3, d).expect("textless sheets always deal");
    for d in [Dealing::Piles, Dealing::Designer] {
        assert_eq!(printing(d).expected_own(1, d), POOL as f64 / 3.0, "{}", d.name());
    }
    assert_eq!(printing(Dealing::Independent).expected_own(0, Dealing::Independent), 0.0);
}

/// A set with `rares` rares, `uncommons[v - 1]` uncommons of each value v and two commons of
/// each value (four printed cards).
fn printed_set(rares: usize, uncommons: [usize; 9]) -> super::super::cardset::CardSet {
    let mut text = String::new();
    let mut card = |rarity: &str, v: usize, i: usize| {
        text += &format!(
            "[[card]]\nid = \"{rarity}{v}-{i}\"\nname = \"{rarity} {v} {i}\"\nrarity = \"{rarity}\"\nvalue = {v}\n"
        );
    };
    (0..rares).for_each(|i| card("rare", 9, i));
    for v in 1..=9 {
        (0..uncommons[v - 1]).for_each(|i| card("uncommon", v, i));
        (0..2).for_each(|i| card("common", v, i));
    }
    set_of(&text)
}

#[test]
fn a_players_expected_own_cards_are_its_share_of_each_pile_or_of_each_value() {
    // Rares shared (3 of 6 each: 1.5 own), uncommons all A's (9), commons all B's (18): the same
    // from piles and dealt by value.
    let set = two_designers("");
    let designers: Vec<u16> = (0..set.designs.len() as u16).map(|d| d % 2).collect();
    for dealing in [Dealing::Piles, Dealing::Designer] {
        let printing = Printing::new(Some(&set), &designers, 2, dealing).expect("the set deals two players");
        assert_eq!(
            [printing.expected_own(0, dealing), printing.expected_own(1, dealing)],
            [10.5, 19.5],
            "{}",
            dealing.name()
        );
    }
}

#[test]
fn designer_dealing_needs_one_uncommon_of_each_value_per_player() {
    let designers = [super::super::deal::NO_DESIGNER; 60];
    let ok = printed_set(6, [2; 9]);
    assert!(Printing::new(Some(&ok), &designers[..ok.designs.len()], 2, Dealing::Designer).is_ok());
    let mut short = [2; 9];
    short[4] = 1;
    let set = printed_set(6, short);
    let err = Printing::new(Some(&set), &designers[..set.designs.len()], 2, Dealing::Designer).unwrap_err();
    assert!(err.contains("needs 2 printed uncommons of value 5 (the set prints 1)"), "{err}");
}

// ---- the event (`event.rs`) ----

/// A set for two players dealt from piles, every printed card dealt (6 rares, 18 uncommons, 18
/// commons printed twice), designed by `A` and `B` in turn (so the rares are shared, the
/// uncommons are `A`'s and the commons `B`'s), each card with the abilities `text`.
fn two_designers(text: &str) -> Arc<super::super::cardset::CardSet> {
    let mut t = String::new();
    let mut n = 0;
    let mut card = |rarity: &str, v: usize, i: usize| {
        let designer = ["A", "B"][n % 2];
        n += 1;
        t += &format!(
            "[[card]]\nid = \"{rarity}{v}-{i}\"\nname = \"{rarity} {v} {i}\"\nrarity = \"{rarity}\"\nvalue = {v}\ndesigner = \"{designer}\"\n{text}"
        );
    };
    (0..6).for_each(|i| card("rare", 4 + i, i));
    for v in 1..=9 {
        for i in 0..2 {
            card("uncommon", v, i);
            card("common", v, i);
        }
    }
    Arc::new(set_of(&t))
}

fn two_player_contest(text: &str) -> SlotsEvent {
    let rules = Rules { cards: Some(two_designers(text)), ..Rules::with("highest") };
    SlotsEvent::new(rules, 2, Dealing::Piles).expect("the set deals two players")
}

fn two_player_event(text: &str) -> Box<dyn Point> {
    two_player_contest(text).into_event()
}

#[test]
fn the_designers_expect_the_pools_shared_among_them() {
    // From piles, A expects half the rares and every uncommon (1.5 + 9), B half the rares and
    // every common (1.5 + 18): on average 15 each, a pool of 30 shared by two.
    let t = two_player_event("");
    let makers = Point::layout(&*t).cards.as_ref().and_then(|c| c.makers.as_ref()).expect("makers");
    assert_eq!(makers.own_expected_millionths, 15_000_000);
}

#[test]
fn a_pools_strength_adds_each_cards_text_worth_to_its_printed_value() {
    // Every card draws a card at the end of scoring: worth 10 tenths. The 21 strongest are the 21
    // highest printed, so the strength is ten times their values plus 21 times 10.
    let t = two_player_event("  [[card.ability]]\n  on = \"score_end\"\n  effect = \"draw\"\n");
    let (story, _) = Point::story(&*t, GameSeed::new(6, 0));
    let pools: Vec<&str> = story.lines().filter(|l| l.contains(" pool (deal=piles, strength ")).collect();
    assert_eq!(pools.len(), 2, "{story}");
    for line in pools {
        let (head, values) = line.split_once("): ").expect("a pool line");
        let strength: i64 =
            head.split("strength ").nth(1).unwrap().split([',', ')']).next().unwrap().parse().unwrap();
        let mut v: Vec<i64> = values.split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v.len(), POOL);
        v.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(strength, 10 * v[..DECK].iter().sum::<i64>() + 21 * 10, "{line}");
    }
}

#[test]
fn an_events_games_count_each_design_in_deck_played_and_played_won() {
    let t = two_player_event("");
    let layout = Point::layout(&*t);
    let keys = layout.cards.as_ref().expect("a per-design table").keys.clone();
    let (mut in_deck, mut played, mut won) = (0, 0, 0);
    for index in 0..3 {
        let rec = Point::play_one(&*t, GameSeed::new(12, index));
        let col =
            |key: &str, c: &str| rec.counters[layout.counter(&format!("card {key} {c}")).unwrap().0 as usize];
        for key in &keys {
            let [h, d, p, w] =
                ["holder_games", "games_in_deck", "games_played", "games_played_won"].map(|c| col(key, c));
            // Copies of a design count once a game: never more than its holders' games.
            assert!(w <= p && p <= d && d <= h, "{key}: {h} {d} {p} {w}");
            (in_deck, played, won) = (in_deck + d, played + p, won + w);
        }
    }
    // A deck of 21 holds designs a game leaves unplayed; some played designs win.
    assert!(in_deck > played && played > won && won > 0, "{in_deck} {played} {won}");
}

#[test]
fn a_design_on_the_sideboard_counts_no_game_in_deck_and_copies_hold_once() {
    // A pool of 30 holds at most 6 ones (2 uncommons, 4 commons): `top21` never keeps a one.
    let t = two_player_event("");
    let layout = Point::layout(&*t);
    let rec = Point::play_one(&*t, GameSeed::new(14, 0));
    let col =
        |key: &str, c: &str| rec.counters[layout.counter(&format!("card {key} {c}")).unwrap().0 as usize];
    let ones = ["uncommon1-0", "uncommon1-1", "common1-0", "common1-1"];
    assert!(ones.iter().map(|k| col(k, "holder_games")).sum::<u64>() > 0, "some one is held");
    assert_eq!(ones.map(|k| col(k, "games_in_deck")), [0; 4]);
    // Every printed card is dealt (60); a player holding both copies of a common is one holder.
    let keys = &layout.cards.as_ref().unwrap().keys;
    let holders: u64 = keys.iter().map(|k| col(k, "holders")).sum();
    assert!(holders < 60 && keys.iter().all(|k| col(k, "holders") <= 2), "{holders}");
}

#[test]
fn an_events_game_lasts_nine_slots_a_round() {
    let t = two_player_event("");
    let layout = t.layout();
    let mut ev = two_player_contest("");
    // The contest's own counters, declared as the event declares them after its own.
    let mut b = crate::record::LayoutBuilder::new("slots");
    ev.declare(&mut b);
    let (own, _) = b.finish();
    assert_eq!((ev.length_unit(), layout.length_unit.as_str()), ("slots", "slots"));
    let mut sc = ev.new_scratch();
    let mut rec = GameRecord::new(&own);
    let schedule = round_robin(2);
    for index in 0..3 {
        let seed = GameSeed::new(13, index);
        ev.deal(seed, &mut sc, &mut rec, &mut Silent);
        for (k, m) in schedule.iter().enumerate() {
            let r =
                ev.play(game_seed(seed, schedule.len(), k), m.seats(index), &mut sc, &mut rec, &mut Silent);
            let rounds = r.length / SLOTS as u64;
            assert_eq!(r.length % SLOTS as u64, 0, "{r:?}");
            assert!(rounds >= u64::from(r.score[0] + r.score[1]) && rounds >= 2, "{r:?}");
        }
    }
}

// ---- the deck policies (`pools.rs`) ----

#[test]
fn every_deck_policy_is_found_by_its_name() {
    for p in [DeckPolicy::Top21, DeckPolicy::Strength, DeckPolicy::Adapt] {
        assert_eq!(DeckPolicy::named(p.name()), Some(p));
    }
    assert_eq!(DeckPolicy::named("top22"), None);
}
