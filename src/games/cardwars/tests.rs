//! Cardwars' tests: a hand-written position for every rule of the rulings (state, answer,
//! assert), `random`'s draws against the rulings' definition, the observation's blindness to
//! hidden cards, the layout and settings, and the agents' strength with Wilson intervals.

use super::agents::{Agent, POLICIES};
use super::engine::CardwarsEngine;
use super::rules::{
    Action, Config, DECK, End, Game, JOKER, NO_BLOCK, Next, Observation, Options, Unit, Zone, card, payments,
};
use super::{PRESETS, Rules, SETTINGS, deck_of};
use crate::decide::Legal;
use crate::games::narrate::Silent;
use crate::games::{Engine, Point};
use crate::seed::{GameRng, GameSeed, shuffle};
use crate::stats::{Timings, wilson};

/// A card by its label: "QH", "10D", "AS"; "X0" and "X1" are the jokers of seats 0 and 1.
fn c(label: &str) -> u8 {
    if let Some(seat) = label.strip_prefix('X') {
        return card(JOKER, seat.parse().unwrap());
    }
    let (r, s) = label.split_at(label.len() - 1);
    let rank = match r {
        "A" => 1,
        "J" => 11,
        "Q" => 12,
        "K" => 13,
        n => n.parse().unwrap(),
    };
    let suit = "SHDC".find(s).unwrap() as u8;
    card(rank, suit)
}

fn zone(cards: &[&str]) -> Zone<u8> {
    Zone::of(&cards.iter().map(|l| c(l)).collect::<Vec<_>>())
}

/// A battlefield: a trailing `*` marks a card, a trailing `+` makes it played this turn.
fn field(cards: &[&str]) -> Zone<Unit> {
    let units: Vec<Unit> = cards
        .iter()
        .map(|l| {
            let bare = l.trim_end_matches(['*', '+']);
            Unit { card: c(bare), marked: l.contains('*'), fresh: l.contains('+') }
        })
        .collect();
    Zone::of(&units)
}

fn rng() -> GameRng {
    GameSeed::new(7, 0).rng()
}

/// An empty table at 20 life each, `active` to play in turn 5 (so no first-turn rule applies),
/// each deck holding two numerals (so the next turn stops at its resource decision).
fn table(active: usize) -> Game {
    let mut g = table_with(active, Config::default());
    g.players[0].deck = zone(&["2D", "3D"]);
    g.players[1].deck = zone(&["2S", "3S"]);
    g
}

fn table_with(active: usize, config: Config) -> Game {
    let mut g = Game::new(config);
    g.deal([&[], &[]], active);
    g.turn = 5;
    g
}

fn answer(g: &mut Game, a: Action) {
    g.answer(&a, &mut rng(), &mut Silent);
}

fn cards(z: &Zone<u8>) -> Vec<u8> {
    z.as_slice().to_vec()
}

fn field_cards(z: &Zone<Unit>) -> Vec<u8> {
    z.as_slice().iter().map(|u| u.card).collect()
}

/// The mask of field indices.
fn m(indices: &[usize]) -> u32 {
    indices.iter().fold(0, |m, &i| m | 1 << i)
}

// ---- Play phase: payments --------------------------------------------------------------------

#[test]
fn a_payment_is_a_minimal_set_and_the_excess_is_lost() {
    // 9H 5H 3H pay for the QH (12) as 9+5 (14, 2 lost) or 9+3 (12 exactly); 5+3 is short and
    // 9+5+3 could leave the 3 out, so neither is legal.
    let mut g = table(0);
    g.players[0].field = field(&["9H", "5H", "3H"]);
    g.players[0].hand = zone(&["QH"]);
    g.stop_at(Next::Face(0));
    assert_eq!(g.options().faces, vec![(0, m(&[0, 1])), (0, m(&[0, 2]))]);
    assert!(!g.options().allows(Next::Face(0), &Action::Face(0, m(&[0, 1, 2]))));
    answer(&mut g, Action::Face(0, m(&[0, 1])));
    assert_eq!(field_cards(&g.players[0].field), vec![c("3H"), c("QH")]);
    assert_eq!(cards(&g.players[0].grave), vec![c("9H"), c("5H")]);
    assert_eq!((g.tally.overpaid_value, g.tally.faces_played, g.tally.cards_destroyed), (2, 1, 2));
    let mut exact = table(0);
    exact.players[0].field = field(&["9H", "5H", "3H"]);
    exact.players[0].hand = zone(&["QH"]);
    exact.stop_at(Next::Face(0));
    answer(&mut exact, Action::Face(0, m(&[0, 2])));
    assert_eq!((exact.tally.overpaid_value, exact.tally.faces_played), (0, 1));
}

/// The check every told game and every census makes of a policy's answer (`Game::answer` itself
/// trusts it): the payment 9+5+3 that could leave the 3 out is refused, the minimal one is not.
#[test]
#[should_panic(expected = "illegal answer")]
fn a_policys_illegal_answer_is_caught_by_the_check() {
    let mut g = table(0);
    g.players[0].field = field(&["9H", "5H", "3H"]);
    g.players[0].hand = zone(&["QH"]);
    g.stop_at(Next::Face(0));
    g.check_answer(&Action::Face(0, m(&[0, 1])));
    g.check_answer(&Action::Face(0, m(&[0, 1, 2])));
}

#[test]
fn only_resources_of_the_faces_suit_or_a_joker_pay_and_faces_never_pay() {
    // KD (13): the 2H is the wrong suit and the JD is a face; the joker (10) and the 3D pay.
    let mut g = table(0);
    g.players[0].field = field(&["X0", "2H", "JD", "3D"]);
    g.players[0].hand = zone(&["KD"]);
    g.stop_at(Next::Face(0));
    assert_eq!(g.options().faces, vec![(0, m(&[0, 3]))]);
    answer(&mut g, Action::Face(0, m(&[0, 3])));
    assert_eq!(field_cards(&g.players[0].field), vec![c("2H"), c("JD"), c("KD")]);
    assert_eq!(cards(&g.players[0].grave), vec![c("X0"), c("3D")]);
    // A joker in hand never pays.
    let mut held = table(0);
    held.players[0].field = field(&["3D"]);
    held.players[0].hand = zone(&["KD", "X0"]);
    let mut out = Vec::new();
    payments(&held.players[0], &mut out);
    assert!(out.is_empty());
}

#[test]
fn a_joker_played_from_hand_is_a_resource_that_pays_for_any_suit_at_once() {
    // The joker comes down as this turn's resource and pays, with the 2H, for the JH (11).
    let mut g = table(0);
    g.players[0].deck = zone(&["5D"]);
    g.players[0].field = field(&["2H"]);
    g.players[0].hand = zone(&["X0", "JH"]);
    g.stop_at(Next::Resource(0));
    assert_eq!(g.options().resources, m(&[0]), "only the joker is a resource in hand");
    answer(&mut g, Action::Resource(0));
    assert_eq!(g.tally.joker_resources, 1);
    assert_eq!(g.next(), Next::Face(0));
    assert_eq!(g.options().faces, vec![(0, m(&[0, 1]))]);
}

#[test]
fn the_resource_just_played_pays_at_once() {
    let mut g = table(0);
    g.players[0].field = field(&["6H"]);
    g.players[0].hand = zone(&["JH", "5H"]);
    g.stop_at(Next::Resource(0));
    answer(&mut g, Action::Resource(1));
    assert_eq!(g.next(), Next::Face(0));
    assert_eq!(g.options().faces, vec![(0, m(&[0, 1]))]);
    answer(&mut g, Action::Face(0, m(&[0, 1])));
    assert_eq!(field_cards(&g.players[0].field), vec![c("JH")]);
}

#[test]
fn at_most_one_resource_a_turn_then_faces_one_at_a_time() {
    let mut g = table(0);
    g.players[0].deck = zone(&["2D"]);
    g.players[0].field = field(&["10H", "9H", "10D", "8D"]);
    g.players[0].hand = zone(&["4H", "3D", "JH", "QD"]);
    g.stop_at(Next::Resource(0));
    answer(&mut g, Action::Resource(0));
    // No second resource: the game asks for faces now, and again after each face.
    assert_eq!(g.next(), Next::Face(0));
    let jh = g.options().faces.iter().find(|f| f.0 == 1).copied().unwrap();
    answer(&mut g, Action::Face(jh.0, jh.1));
    assert_eq!(g.next(), Next::Face(0));
    let qd = g.options().faces[0];
    answer(&mut g, Action::Face(qd.0, qd.1));
    assert_eq!(g.tally.faces_played, 2);
    assert_eq!(cards(&g.players[0].hand), vec![c("3D")]);
}

#[test]
fn a_face_may_be_played_the_turn_it_is_drawn_but_not_attack() {
    let mut g = table(0);
    g.turn = 4;
    g.players[0].deck = zone(&["3D", "JH"]);
    g.players[0].field = field(&["8H", "3H"]);
    g.players[1].deck = zone(&["2S"]);
    g.begin(&mut rng(), &mut Silent);
    assert_eq!((g.turn, cards(&g.players[0].hand)), (5, vec![c("JH")]));
    assert_eq!(g.next(), Next::Face(0), "no resource in hand: straight to the faces");
    answer(&mut g, Action::Face(0, m(&[0, 1])));
    // The Jack was played this turn: it may not attack, so the turn passes to seat 1.
    assert_eq!((g.active, g.turn), (1, 6));
    assert_eq!(field_cards(&g.players[0].field), vec![c("JH")]);
    assert_eq!(g.next(), Next::Resource(1), "seat 1 drew the 2S");
    // At seat 0's next turn (it draws the 3D and keeps it) the Jack is ready.
    answer(&mut g, Action::Pass);
    assert_eq!((g.active, g.next()), (0, Next::Resource(0)));
    answer(&mut g, Action::Pass);
    assert_eq!(g.next(), Next::Attack(0));
    assert_eq!(g.options().ready, m(&[0]));
}

// ---- Attack, defense, damage -----------------------------------------------------------------

/// Seat 1 attacks seat 0 with the ready faces of `attackers` (its field), seat 0 holding `hand`
/// and `blockers` on its field; both decks hold a few cards so the next turn can draw.
fn combat(attackers: &[&str], blockers: &[&str], hand: &[&str]) -> Game {
    let mut g = table(1);
    g.players[1].field = field(attackers);
    g.players[0].field = field(blockers);
    g.players[0].hand = zone(hand);
    g.players[0].deck = zone(&["2D", "3D"]);
    g.players[1].deck = zone(&["2S", "3S"]);
    g.stop_at(Next::Attack(1));
    g
}

fn blocks(pairs: &[(usize, usize)]) -> Action {
    let mut b = [NO_BLOCK; DECK];
    for &(blocker, attacker) in pairs {
        b[blocker] = attacker as u8;
    }
    Action::Block(b)
}

#[test]
fn attackers_are_marked_and_unblocked_damage_goes_to_life() {
    let mut g = combat(&["QS", "JC"], &[], &[]);
    assert_eq!(g.options().ready, m(&[0, 1]));
    answer(&mut g, Action::Attack(m(&[0])));
    // Nothing to block with and no joker: the damage is dealt at once and the turn passes.
    assert_eq!(g.players[0].life, 8);
    assert_eq!((g.tally.attacks, g.tally.damage_to_life, g.tally.first_attack), (1, 12, 5));
    assert!(g.players[1].field.as_slice()[0].marked && !g.players[1].field.as_slice()[1].marked);
    assert_eq!(g.active, 0, "seat 0's turn");
}

#[test]
fn a_joker_from_hand_destroys_every_attacker_and_no_damage_is_dealt() {
    let mut g = combat(&["KS", "QC", "JS"], &["5H"], &["X0", "7D"]);
    answer(&mut g, Action::Attack(m(&[0, 1])));
    assert_eq!(g.next(), Next::Defend(0));
    assert!(g.options().joker);
    answer(&mut g, Action::Joker);
    assert_eq!(field_cards(&g.players[1].field), vec![c("JS")], "the two attackers are destroyed");
    assert_eq!(cards(&g.players[1].grave), vec![c("KS"), c("QC")]);
    assert_eq!(cards(&g.players[0].grave), vec![c("X0")]);
    assert_eq!(cards(&g.players[0].hand)[..1], [c("7D")]);
    assert_eq!(g.players[0].life, 20);
    assert_eq!((g.tally.joker_defenses, g.tally.cards_destroyed, g.tally.damage_to_life), (1, 2, 0));
}

#[test]
fn a_joker_on_the_battlefield_cannot_stop_an_attack_but_blocks_and_absorbs_ten() {
    let mut g = combat(&["KS"], &["X0"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    assert!(!g.options().joker);
    answer(&mut g, blocks(&[(0, 0)]));
    // The joker absorbs 10 of the King's 13 and is destroyed; 3 reach life.
    assert_eq!(g.players[0].life, 17);
    assert_eq!(cards(&g.players[0].grave), vec![c("X0")]);
    assert_eq!(field_cards(&g.players[1].field), vec![c("KS")], "a resource deals no damage");
}

#[test]
fn several_blockers_take_the_damage_in_the_attackers_order_and_the_rest_goes_to_life() {
    // The King (13) blocked by the 5H and the 4D: both are destroyed whatever the order, 4 overflow.
    let mut g = combat(&["KS"], &["5H", "4D", "9H"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    answer(&mut g, blocks(&[(0, 0), (1, 0)]));
    assert_eq!(g.next(), Next::Order(1), "the attacker orders its blockers");
    assert_eq!(g.options().to_order.as_slice(), [0, 1]);
    answer(&mut g, Action::Order(Zone::of(&[1, 0])));
    assert_eq!(g.players[0].life, 16);
    assert_eq!(field_cards(&g.players[0].field), vec![c("9H")]);
    assert_eq!((g.tally.blocks, g.tally.damage_to_life, g.tally.cards_destroyed), (2, 4, 2));
}

#[test]
fn the_damage_order_decides_which_blockers_are_destroyed() {
    // The Queen (12) blocked by the 9H and the 5H: the first in order is filled up to its value.
    for (order, survivor) in [([0u8, 1u8], "5H"), ([1, 0], "9H")] {
        let mut g = combat(&["QS"], &["9H", "5H"], &[]);
        answer(&mut g, Action::Attack(m(&[0])));
        answer(&mut g, blocks(&[(0, 0), (1, 0)]));
        answer(&mut g, Action::Order(Zone::of(&order)));
        assert_eq!(field_cards(&g.players[0].field), vec![c(survivor)], "order {order:?}");
        assert_eq!(g.players[0].life, 20, "all 12 absorbed");
    }
}

#[test]
fn a_bigger_face_blocker_survives_and_destroys_the_attacker() {
    let mut g = combat(&["JS"], &["QH"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    answer(&mut g, blocks(&[(0, 0)]));
    // The Queen absorbs 11 < 12 and survives; the Jack takes 12 >= 11.
    assert_eq!(field_cards(&g.players[0].field), vec![c("QH")]);
    assert!(g.players[1].field.is_empty());
    assert_eq!((g.tally.trades, g.tally.cards_destroyed, g.players[0].life), (0, 1, 20));
}

#[test]
fn equal_faces_trade() {
    let mut g = combat(&["QS"], &["QH"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    answer(&mut g, blocks(&[(0, 0)]));
    assert!(g.players[0].field.is_empty() && g.players[1].field.is_empty());
    assert_eq!((g.tally.trades, g.tally.cards_destroyed), (1, 2));
}

#[test]
fn an_attacker_takes_the_sum_of_its_face_blockers_and_resources_deal_nothing() {
    // The King (13) blocked by the JH (11) and the 10H: 11 < 13, the King lives; blocked by
    // the JH and the QD: 23, it dies. Its 13 fill the Jack first: the Jack dies, 2 go to the next.
    let mut g = combat(&["KS"], &["JH", "10H"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    answer(&mut g, blocks(&[(0, 0), (1, 0)]));
    answer(&mut g, Action::Order(Zone::of(&[0, 1])));
    assert_eq!(field_cards(&g.players[1].field), vec![c("KS")]);
    assert_eq!(field_cards(&g.players[0].field), vec![c("10H")]);
    let mut two = combat(&["KS"], &["JH", "QD"], &[]);
    answer(&mut two, Action::Attack(m(&[0])));
    answer(&mut two, blocks(&[(0, 0), (1, 0)]));
    answer(&mut two, Action::Order(Zone::of(&[0, 1])));
    assert!(two.players[1].field.is_empty());
    assert_eq!(field_cards(&two.players[0].field), vec![c("QD")]);
    assert_eq!(two.tally.trades, 1, "the King and the Jack");
}

#[test]
fn marked_faces_cannot_block_but_faces_played_last_turn_can() {
    // Seat 0's KH attacked on its last turn (still marked); its JD was played then (unmarked).
    let mut g = combat(&["QS"], &["KH*", "JD+", "4H"], &[]);
    answer(&mut g, Action::Attack(m(&[0])));
    assert_eq!(g.options().blockers, m(&[1, 2]));
    assert!(!g.options().allows(Next::Defend(0), &blocks(&[(0, 0)])));
    assert!(g.options().allows(Next::Defend(0), &blocks(&[(1, 0), (2, 0)])));
}

#[test]
fn each_blocker_blocks_one_attacker_and_blocking_marks_nothing() {
    let mut g = combat(&["QS", "JC"], &["KH", "5D"], &[]);
    answer(&mut g, Action::Attack(m(&[0, 1])));
    answer(&mut g, blocks(&[(0, 0), (1, 1)]));
    // KH kills the Queen and lives; the 5D absorbs 5 of the Jack's 11, 6 go to life.
    assert_eq!(g.players[0].life, 14);
    assert_eq!(field_cards(&g.players[0].field), vec![c("KH")]);
    assert!(!g.players[0].field.as_slice()[0].marked);
    assert_eq!(field_cards(&g.players[1].field), vec![c("JC")]);
}

#[test]
fn life_at_zero_ends_the_game_at_once() {
    let mut g = combat(&["KS", "QC"], &[], &[]);
    g.players[0].life = 25;
    answer(&mut g, Action::Attack(m(&[0, 1])));
    assert_eq!((g.next(), g.players[0].life), (Next::Over(End::Won(1)), 0));
}

// ---- Turns, draws, the end -------------------------------------------------------------------

#[test]
fn an_empty_deck_takes_the_shuffled_graveyard_and_with_both_empty_nothing_is_drawn() {
    let mut g = table(0);
    g.turn = 4;
    g.players[0].deck = Zone::default();
    g.players[0].grave = zone(&["2H", "3H", "4H"]);
    g.players[1].deck = zone(&["9S"]);
    g.begin(&mut rng(), &mut Silent);
    assert_eq!(g.tally.reshuffles, 1);
    assert!(g.players[0].grave.is_empty());
    assert_eq!((g.players[0].deck.len(), g.players[0].hand.len()), (2, 1));
    let mut all: Vec<u8> = cards(&g.players[0].deck);
    all.extend(cards(&g.players[0].hand));
    all.sort();
    assert_eq!(all, vec![c("2H"), c("3H"), c("4H")]);
    let mut empty = table(0);
    empty.turn = 4;
    empty.players[0].deck = Zone::default();
    empty.players[0].hand = zone(&["QH"]);
    empty.players[1].deck = zone(&["9S"]);
    empty.begin(&mut rng(), &mut Silent);
    assert_eq!((empty.tally.empty_draws, empty.players[0].life), (1, 20), "no draw, no loss");
    assert_eq!(cards(&empty.players[0].hand), vec![c("QH")]);
    assert_eq!(empty.active, 1, "seat 0 had nothing to decide");
}

#[test]
fn the_first_player_draws_on_the_first_turn_unless_first_draw_is_false() {
    for (first_draw, drawn) in [(true, 1), (false, 0)] {
        let config = Config { first_draw, opening_hand: 2, ..Config::default() };
        let mut g = Game::new(config);
        let (d0, d1) = (zone(&["2H", "3H", "4H", "5H"]), zone(&["2S", "3S", "4S", "5S"]));
        g.deal([d0.as_slice(), d1.as_slice()], 1);
        assert_eq!((g.players[0].hand.len(), g.players[1].hand.len()), (2, 2));
        assert_eq!(cards(&g.players[1].hand), vec![c("5S"), c("4S")], "drawn from the top");
        g.begin(&mut rng(), &mut Silent);
        assert_eq!((g.turn, g.active), (1, 1));
        assert_eq!(g.players[1].hand.len(), 2 + drawn);
        answer(&mut g, Action::Pass);
        assert_eq!((g.turn, g.active, g.players[0].hand.len()), (2, 0, 3), "the second turn always draws");
    }
}

#[test]
fn the_second_player_gets_its_compensation_cards_draws_and_life() {
    let config = Config {
        opening_hand: 1,
        second_extra_cards: 2,
        second_extra_draws: 2,
        second_extra_life: 3,
        ..Config::default()
    };
    let mut g = Game::new(config);
    let (d0, d1) = (zone(&["2H", "3H", "4H", "5H", "6H", "7H"]), zone(&["2S", "3S", "4S", "5S", "6S", "7S"]));
    // Seat 1 plays first: seat 0 is the second player.
    g.deal([d0.as_slice(), d1.as_slice()], 1);
    assert_eq!((g.players[0].hand.len(), g.players[1].hand.len()), (3, 1), "1 + 2 extra in the opening hand");
    assert_eq!((g.players[0].life, g.players[1].life), (23, 20), "3 extra life");
    g.begin(&mut rng(), &mut Silent);
    assert_eq!(g.players[1].hand.len(), 2, "the first player's first turn: one draw");
    answer(&mut g, Action::Pass);
    assert_eq!((g.turn, g.active), (2, 0));
    assert_eq!(
        cards(&g.players[0].hand),
        vec![c("7H"), c("6H"), c("5H"), c("4H"), c("3H"), c("2H")],
        "1 + 2 extra drawn"
    );
    // Later turns draw one card as usual.
    answer(&mut g, Action::Pass);
    assert_eq!((g.turn, g.active, g.players[1].hand.len()), (3, 1, 3));
}

#[test]
fn stall_turns_quiet_turns_in_a_row_end_the_game_as_stalled() {
    // Nothing left to draw and nothing playable: every turn is quiet.
    let config = Config { stall_turns: 3, ..Config::default() };
    let mut g = table_with(0, config);
    g.turn = 0;
    g.players[0].hand = zone(&["QH"]);
    g.players[1].field = field(&["2S"]);
    g.begin(&mut rng(), &mut Silent);
    assert_eq!((g.next(), g.turn, g.quiet), (Next::Over(End::Stalled), 3, 3));
    assert_eq!(g.tally.empty_draws, 3);
    // A draw in the middle starts the count again.
    let mut again = table_with(0, config);
    again.turn = 0;
    again.players[1].deck = zone(&["2S"]);
    again.begin(&mut rng(), &mut Silent);
    assert_eq!(again.next(), Next::Resource(1), "seat 1 drew in turn 2");
    assert_eq!(again.quiet, 1);
    answer(&mut again, Action::Pass);
    // Turn 2 drew: the count starts again at turn 3. Keeping the 2S in hand is quiet too.
    assert_eq!((again.next(), again.turn, again.quiet), (Next::Resource(1), 4, 1));
    answer(&mut again, Action::Pass);
    assert_eq!((again.next(), again.turn), (Next::Over(End::Stalled), 5));
}

#[test]
fn the_game_ends_capped_after_max_turns() {
    let config = Config { max_turns: 4, ..Config::default() };
    let mut g = table_with(0, config);
    g.turn = 0;
    g.players[0].deck = zone(&["2H", "3H", "4H"]);
    g.players[1].deck = zone(&["2S", "3S", "4S"]);
    g.begin(&mut rng(), &mut Silent);
    for _ in 0..4 {
        assert!(matches!(g.next(), Next::Resource(_)));
        answer(&mut g, Action::Pass);
    }
    assert_eq!((g.next(), g.turn), (Next::Over(End::Capped), 4));
}

// ---- `random` as the rulings define it -------------------------------------------------------

/// Draws `n` answers of `random` to `o`.
fn draws(o: &Options, n: usize) -> Vec<Action> {
    let mut r = GameSeed::new(11, 3).rng();
    let mut a = Action::Pass;
    (0..n)
        .map(|_| {
            o.uniform(&mut r, &mut a);
            a
        })
        .collect()
}

/// `count` of `n` is within 4.5 standard deviations of `p n` (a fixed seed: never flaky).
fn near(count: usize, n: usize, p: f64, what: &str) {
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    assert!((count as f64 - p * n as f64).abs() < 4.5 * sd, "{what}: {count} of {n}, expected {p}");
}

#[test]
fn random_picks_the_resource_and_the_face_uniformly_among_the_options_and_none() {
    let n = 30_000;
    let res = Options { resources: m(&[1, 3]), ..Options::default() };
    let got = draws(&res, n);
    for want in [Action::Pass, Action::Resource(1), Action::Resource(3)] {
        near(got.iter().filter(|a| **a == want).count(), n, 1.0 / 3.0, &format!("{want:?}"));
    }
    let faces = Options { faces: vec![(0, 3), (0, 5), (2, 6)], ..Options::default() };
    let got = draws(&faces, n);
    for want in [Action::Pass, Action::Face(0, 3), Action::Face(0, 5), Action::Face(2, 6)] {
        near(got.iter().filter(|a| **a == want).count(), n, 0.25, &format!("{want:?}"));
    }
}

#[test]
fn random_attacks_with_each_ready_face_with_probability_one_half() {
    let n = 20_000;
    let o = Options { ready: m(&[0, 2, 5]), ..Options::default() };
    let got = draws(&o, n);
    for i in [0, 2, 5] {
        let with = got.iter().filter(|a| matches!(a, Action::Attack(x) if x >> i & 1 == 1)).count();
        near(with, n, 0.5, &format!("face {i}"));
    }
    near(got.iter().filter(|a| **a == Action::Pass).count(), n, 0.125, "no attack");
    near(got.iter().filter(|a| **a == Action::Attack(m(&[0, 2, 5]))).count(), n, 0.125, "all");
}

#[test]
fn random_defends_with_a_held_joker_half_the_time_else_each_card_picks_uniformly() {
    let n = 30_000;
    let o = Options { joker: true, attackers: m(&[1, 4]), blockers: m(&[0, 2]), ..Options::default() };
    let got = draws(&o, n);
    let jokers = got.iter().filter(|a| **a == Action::Joker).count();
    near(jokers, n, 0.5, "joker");
    for (blocker, target) in [(0, NO_BLOCK), (0, 1), (0, 4), (2, NO_BLOCK), (2, 1), (2, 4)] {
        let count = got
            .iter()
            .filter(|a| match a {
                Action::Block(b) => b[blocker] == target,
                Action::Pass => target == NO_BLOCK,
                _ => false,
            })
            .count();
        near(count, n - jokers, 1.0 / 3.0, &format!("card {blocker} -> {target}"));
    }
    assert!(got.iter().all(|a| o.allows(Next::Defend(0), a)));
}

#[test]
fn random_orders_the_blockers_uniformly() {
    let n = 24_000;
    let o = Options { to_order: Zone::of(&[1, 3, 4]), ..Options::default() };
    let got = draws(&o, n);
    let mut seen = std::collections::BTreeMap::new();
    for a in &got {
        let Action::Order(z) = a else { panic!("{a:?}") };
        *seen.entry(z.as_slice().to_vec()).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 6);
    for (order, count) in seen {
        near(count, n, 1.0 / 6.0, &format!("{order:?}"));
    }
}

// ---- Information: no agent sees a hidden card ------------------------------------------------

/// A mid-game state of game `seed` played by `random`, stopped at a decision of either seat.
fn mid_game(seed: u64, decisions: usize) -> (Game, GameRng) {
    let mut g = Game::new(Config::default());
    let mut r = GameSeed::new(seed, 0).rng();
    let mut decks = [deck_of(0), deck_of(1)];
    decks.iter_mut().for_each(|d| shuffle(&mut r, d));
    g.deal([&decks[0], &decks[1]], seed as usize % 2);
    g.begin(&mut r, &mut Silent);
    let mut a = Action::Pass;
    for _ in 0..decisions {
        if matches!(g.next(), Next::Over(_)) {
            break;
        }
        g.options().uniform(&mut r, &mut a);
        g.answer(&a, &mut r, &mut Silent);
    }
    (g, r)
}

#[test]
fn observations_never_show_hidden_cards() {
    let mut compared = 0;
    for seed in 0..60u64 {
        let (a, _) = mid_game(seed, 10 + seed as usize % 25);
        let Some(seat) = crate::decide::search::Steps::to_move(&a) else { continue };
        let opp = 1 - seat;
        // The opponent's hand card swapped with one of its deck cards, and both decks reordered.
        let mut b = a.clone();
        let (hand, deck) = (b.players[opp].hand.len(), b.players[opp].deck.len());
        if hand > 0 && deck > 0 {
            let (h, d) = (seed as usize % hand, seed as usize % deck);
            let card = b.players[opp].hand.as_slice()[h];
            b.players[opp].hand.as_mut_slice()[h] = b.players[opp].deck.as_slice()[d];
            b.players[opp].deck.as_mut_slice()[d] = card;
        }
        b.players[opp].deck.as_mut_slice().reverse();
        b.players[seat].deck.as_mut_slice().rotate_left(1);
        let (mut oa, mut ob) = (Observation::default(), Observation::default());
        a.observe(seat, &mut oa);
        b.observe(seat, &mut ob);
        assert_eq!(oa, ob, "seed {seed}");
        assert_eq!(a.options(), b.options());
        // Every agent, seeing equal observations with equal streams, decides alike.
        let rules = Rules { search_budget: 20, ..Rules::with("random") };
        for (p, name) in POLICIES.iter().enumerate() {
            let (mut da, mut db) = (Action::Pass, Action::Pass);
            Agent::new(p, &rules).decide(
                &oa,
                a.options(),
                &mut GameSeed::new(seed, 1).seat_rng(seat),
                &mut da,
            );
            Agent::new(p, &rules).decide(
                &ob,
                b.options(),
                &mut GameSeed::new(seed, 1).seat_rng(seat),
                &mut db,
            );
            assert_eq!(da, db, "{name} at seed {seed}");
        }
        compared += usize::from(a != b);
    }
    assert!(compared > 30, "only {compared} states had hidden cards to change");
}

#[test]
fn a_seat_sees_its_own_hand_and_the_public_table() {
    let (g, _) = mid_game(5, 30);
    let seat = crate::decide::search::Steps::to_move(&g).unwrap();
    let mut o = Observation::default();
    g.observe(seat, &mut o);
    assert_eq!(o.hand, g.players[seat].hand);
    for s in 0..2 {
        assert_eq!(
            (o.field[s], o.grave[s], o.life[s]),
            (g.players[s].field, g.players[s].grave, g.players[s].life)
        );
        assert_eq!(o.hand_len[s] as usize, g.players[s].hand.len());
        assert_eq!(o.deck_len[s] as usize, g.players[s].deck.len());
    }
}

#[test]
fn the_search_plays_from_a_determinization_consistent_with_what_it_saw() {
    use crate::decide::search::Determinize;
    for seed in 0..30u64 {
        let (g, _) = mid_game(seed, 20);
        let Some(seat) = crate::decide::search::Steps::to_move(&g) else { continue };
        let mut o = Observation::default();
        g.observe(seat, &mut o);
        let mut sim = Game::new(Config::default());
        let mut sampler = super::agents::Unseen::new();
        sampler.determinize(&o, &mut GameSeed::new(seed, 9).rng(), &mut sim);
        let mut so = Observation::default();
        sim.observe(seat, &mut so);
        let horizon = Observation { config: Config { max_turns: so.config.max_turns, ..o.config }, ..o };
        assert_eq!(so, horizon, "the simulation shows the seat what it saw");
        assert_eq!(sim.options(), g.options());
        for s in 0..2 {
            let mut all: Vec<u8> = [&sim.players[s].deck, &sim.players[s].hand, &sim.players[s].grave]
                .iter()
                .flat_map(|z| z.as_slice().to_vec())
                .chain(sim.players[s].field.as_slice().iter().map(|u| u.card))
                .collect();
            all.sort();
            let mut want = deck_of(s).to_vec();
            want.sort();
            assert_eq!(all, want, "seat {s}'s 27 cards");
        }
    }
}

// ---- The engine: layout, records, settings ---------------------------------------------------

fn engine(lineup: &str, rotate: bool) -> CardwarsEngine {
    CardwarsEngine::new(Rules { rotate, search_budget: 8, ..Rules::with(lineup) })
}

#[test]
fn layout_has_a_win_row_per_seat_and_policy_and_every_counter_of_the_rulings() {
    let e = engine("aggressive,random", true);
    let l = Engine::layout(&e);
    assert_eq!(l.length_unit, "turns");
    assert_eq!(l.outcomes.len(), 4 + 1);
    for name in [
        "first_player_wins",
        "faces_played",
        "overpaid_value",
        "joker_resources",
        "attacks",
        "blocks",
        "trades",
        "joker_defenses",
        "cards_destroyed",
        "reshuffles",
        "empty_draws",
        "damage_to_life",
        "stalled",
        "wins_aggressive",
        "wins_random",
    ] {
        assert!(l.counter(name).is_some(), "{name}");
    }
    for d in ["life_margin", "first_attack_turn", "life_seat_1", "life_policy_random"] {
        assert!(l.distribution(d).is_some(), "{d}");
    }
    assert_eq!(Engine::layout(&engine("aggressive,random", false)).outcomes.len(), 2 + 1);
}

#[test]
fn a_game_is_recorded_with_its_winner_first_player_margin_and_first_attack() {
    let e = engine("aggressive,random", true);
    let mut sc = e.new_scratch();
    let mut rec = crate::record::GameRecord::new(Engine::layout(&e));
    let l = Engine::layout(&e);
    let mut first_wins = 0;
    for i in 0..200 {
        rec.reset();
        e.play(GameSeed::new(3, i), &mut sc, &mut rec);
        let o = &l.outcomes[rec.outcome as usize];
        assert_eq!(o.kind, crate::record::OutcomeKind::Win, "aggressive and random always finish");
        let winner = o.policy.clone().unwrap();
        assert_eq!(rec.get(l.counter(&format!("wins_{winner}")).unwrap()), 1);
        let margin: Vec<i64> = rec.observed(l.distribution("life_margin").unwrap()).collect();
        let lives: Vec<i64> =
            (0..2).flat_map(|s| rec.observed(l.distribution(&format!("life_seat_{s}")).unwrap())).collect();
        let w = o.seat.unwrap() as usize;
        assert!(lives[1 - w] <= 0 && lives[w] > 0);
        assert_eq!(margin, vec![lives[w] - lives[1 - w]]);
        let first_attack: Vec<i64> = rec.observed(l.distribution("first_attack_turn").unwrap()).collect();
        assert!(first_attack.len() == 1 && first_attack[0] >= 2 && first_attack[0] as u64 <= rec.length);
        first_wins += rec.get(l.counter("first_player_wins").unwrap());
    }
    assert!((60..=140).contains(&first_wins), "{first_wins}");
}

#[test]
fn the_first_players_win_and_a_stall_are_counted_from_how_the_game_ended() {
    use crate::decide::Seating;
    use crate::games::decision::DecisionEngine;
    let e = engine("aggressive,random", false);
    let l = Engine::layout(&e);
    // Seat 1 opened the game; its opponent is down to 0 life.
    let mut g = table(1);
    g.first = 1;
    g.players[0].life = 0;
    let seating = Seating::new(GameSeed::new(1, 0), 2, false);
    let counted = |end: End| {
        let mut rec = crate::record::GameRecord::new(l);
        DecisionEngine::finish(&e, end, &g, &seating, &mut rec);
        let get = |name: &str| rec.get(l.counter(name).unwrap());
        (get("first_player_wins"), get("stalled"))
    };
    assert_eq!(counted(End::Won(1)), (1, 0), "the first player won");
    assert_eq!(counted(End::Won(0)), (0, 0), "the second player won");
    assert_eq!(counted(End::Stalled), (0, 1));
    assert_eq!(counted(End::Capped), (0, 0), "the cap is not a stall");
    // The turn of the first attack is observed only in a game that had one.
    let first_attack = |g: &Game| {
        let mut rec = crate::record::GameRecord::new(l);
        DecisionEngine::finish(&e, End::Won(1), g, &seating, &mut rec);
        rec.observed(l.distribution("first_attack_turn").unwrap()).collect::<Vec<i64>>()
    };
    assert_eq!(first_attack(&g), Vec::<i64>::new(), "no attack in the game");
    g.tally.first_attack = 3;
    assert_eq!(first_attack(&g), vec![3]);
}

/// A watch that notes the turn of every table it is shown and stops the game at the `stop`th.
struct StopAt {
    stop: usize,
    turns: Vec<u32>,
}

impl crate::games::census::Watch<Game> for StopAt {
    const ON: bool = true;

    fn step(&mut self, game: &Game, _: &crate::record::GameRecord) -> bool {
        self.turns.push(game.turn);
        self.turns.len() < self.stop
    }
}

#[test]
fn a_watch_sees_the_deal_then_every_answer_and_stopping_it_caps_the_game() {
    use crate::games::decision::DecisionEngine;
    let e = engine("aggressive,random", false);
    let rec = crate::record::GameRecord::new(Engine::layout(&e));
    let mut sc = Engine::new_scratch(&e);
    let seed = GameSeed::new(5, 0);
    let mut all = StopAt { stop: usize::MAX, turns: Vec::new() };
    let end = DecisionEngine::run(&e, seed, &mut sc, &rec, &mut Silent, &mut all);
    assert!(matches!(end, End::Won(_)), "{end:?}");
    // The deal (turn 0, before any draw), then the table after the first turn has begun.
    assert_eq!(&all.turns[..2], &[0, 1]);
    assert!(all.turns.len() > 10 && all.turns.is_sorted(), "{:?}", all.turns);
    for stop in [1, 2, 5] {
        let mut some = StopAt { stop, turns: Vec::new() };
        let end = DecisionEngine::run(&e, seed, &mut sc, &rec, &mut Silent, &mut some);
        assert_eq!((end, &some.turns[..]), (End::Capped, &all.turns[..stop]), "stopped at {stop}");
    }
    // The census is that watch: the deal and every answer of the game, all accounted for.
    assert_eq!(Engine::census(&e, seed), Ok(all.turns.len() as u64));
}

#[test]
fn rotation_plays_the_same_deal_with_the_policies_swapped() {
    let e = engine("aggressive,random", true);
    let (mut s0, mut s1) = (String::new(), String::new());
    Engine::narrate(&e, GameSeed::new(1, 0), &mut s0);
    Engine::narrate(&e, GameSeed::new(1, 1), &mut s1);
    let line = |s: &str, n: usize| s.lines().nth(n).unwrap().to_string();
    assert_eq!(line(&s0, 0), line(&s1, 0), "same first player and settings");
    assert!(s0.contains("P0 (aggressive)") && s1.contains("P0 (random)"), "{s0}\n{s1}");
    let draws = |s: &str| -> Vec<String> {
        s.lines().filter(|l| l.contains(" draws ")).take(4).map(String::from).collect()
    };
    assert_eq!(draws(&s0), draws(&s1), "the same decks");
}

#[test]
fn settings_are_validated() {
    let s = |pairs: &[(&str, &str)]| {
        let explicit: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        crate::settings::resolve("cardwars", SETTINGS, PRESETS, &Default::default(), &explicit)
    };
    let r = Rules::from_settings(
        &s(&[("life", "30"), ("opening_hand", "3"), ("variant", "no-first-draw")]).unwrap(),
    )
    .unwrap();
    assert_eq!(r.config, Config { life: 30, opening_hand: 3, first_draw: false, ..Config::default() });
    let e = Rules::from_settings(&s(&[("policies", "aggressive,random,random")]).unwrap()).unwrap_err();
    assert!(e.contains("policies"), "{e}");
    let e = Rules::from_settings(&s(&[("policies", "smart")]).unwrap()).unwrap_err();
    // The scenario names the game before the message: the game does not name itself again.
    assert!(e.starts_with("unknown policy 'smart'"), "{e}");
    assert!(s(&[("life", "0")]).is_err());
    assert!(s(&[("opening_hand", "21")]).is_err());
}

#[test]
fn the_decks_are_two_suits_and_a_joker_each() {
    for seat in 0..2 {
        let d = deck_of(seat);
        assert_eq!(d.iter().filter(|&&x| super::rules::is_joker(x)).count(), 1);
        assert_eq!(d.iter().filter(|&&x| super::rules::is_face(x)).count(), 6);
        let suits: std::collections::BTreeSet<u8> =
            d.iter().filter(|&&x| !super::rules::is_joker(x)).map(|&x| super::rules::suit(x)).collect();
        assert_eq!(suits.into_iter().collect::<Vec<_>>(), super::SUITS[seat].to_vec());
    }
    assert_eq!(super::rules::label(c("10D")), "10D");
    assert_eq!(super::rules::label(c("X1")), "Joker");
}

#[test]
fn timings_take_every_search_decision_and_one_in_64_of_the_others() {
    let e = engine("search,random", true);
    let mut sc = e.new_scratch();
    let mut rec = crate::record::GameRecord::new(Engine::layout(&e));
    for i in 0..20 {
        rec.reset();
        e.play(GameSeed::new(1, i), &mut sc, &mut rec);
    }
    let mut t = Timings::new();
    e.take_timings(&mut sc, &mut t);
    assert!(
        t.timed("search") > 20 * t.timed("random").max(1),
        "{} v {}",
        t.timed("search"),
        t.timed("random")
    );
    let mut again = Timings::new();
    e.take_timings(&mut sc, &mut again);
    assert!(again.is_empty());
}

// ---- Agent strength --------------------------------------------------------------------------

/// Plays `games` games of `lineup` (seats rotated) and returns the first policy's wins, the
/// second's, and the games played.
fn duel(lineup: &str, games: u64, budget: u32) -> (u64, u64, u64) {
    let e = CardwarsEngine::new(Rules { search_budget: budget, ..Rules::with(lineup) });
    let acc = Point::play_range(&e, 20_261_122, 0, games, &|_| {});
    let names: Vec<&str> = lineup.split(',').collect();
    let wins = |p: &str| {
        acc.counters[Engine::layout(&e).counter(&format!("wins_{p}")).unwrap().0 as usize].total as u64
    };
    (wins(names[0]), wins(names[1]), acc.games)
}

/// The first policy of `lineup` wins more than half of the decisive games, the Wilson 95%
/// interval clear of one half.
fn assert_beats(lineup: &str, games: u64, budget: u32) {
    let (a, b, n) = duel(lineup, games, budget);
    let ci = wilson(a, a + b);
    eprintln!(
        "{lineup}: {a} wins to {b} in {n} games; share {:.3} [{:.3}, {:.3}]",
        ci.estimate, ci.low, ci.high
    );
    assert!(ci.low > 0.5, "{lineup}: {a} to {b}, interval [{:.3}, {:.3}]", ci.low, ci.high);
}

#[test]
fn heuristics_beat_random() {
    // About 0.77 and 0.82 of the games (docs/policies.md): 1,000 games put the interval's low
    // end near 0.74 at worst.
    assert_beats("aggressive,random", 1000, 1);
    assert_beats("defensive,random", 1000, 1);
}

#[test]
fn search_beats_the_heuristics() {
    // About two games in three at budget 100 (docs/policies.md): 160 games a pair keep the
    // interval's low end near 0.55 and the test within seconds.
    assert_beats("search,aggressive", 160, 100);
    assert_beats("search,defensive", 160, 100);
}

#[test]
fn the_story_ends_with_who_won_and_the_lives() {
    // The last line of a told game names the winner the record holds, and the lives at the end.
    let e = engine("aggressive,random", false);
    let mut story = String::new();
    let rec = Engine::narrate(&e, GameSeed::new(1, 0), &mut story);
    let last = story.lines().rev().find(|l| l.starts_with("Game over")).expect(&story);
    let seat = Engine::layout(&e).outcomes[rec.outcome as usize].seat.expect("a won game");
    let winner = format!("P{seat} wins");
    assert!(last.contains(&winner) && last.contains("lives P0 "), "{last}");
}

#[test]
fn the_story_explains_its_marks_and_every_destroyed_card() {
    // The legend comes before the first turn; each payment names the cards it destroys, and the
    // cards named destroyed (payments, combat and a joker's defence) add up to the game's
    // cards_destroyed counter.
    let games =
        (0..12).map(|i| ("defensive,aggressive", i)).chain([("aggressive,random", 0), ("aggressive", 7)]);
    let mut jokers = 0;
    for (lineup, index) in games {
        let e = engine(lineup, true);
        let mut story = String::new();
        let rec = Engine::narrate(&e, GameSeed::new(5, index), &mut story);
        let first_turn = story.find("Turn 1:").expect(&story);
        for words in [
            "Reading: AH is the ace of hearts",
            "* marks a card that attacked",
            "+ \
                       one played this turn",
        ] {
            assert!(story[..first_turn].contains(words), "{words}: {story}");
        }
        let named = |line: &str, after: &str, before: &str| -> u64 {
            let Some(at) = line.find(after) else { return 0 };
            let rest = &line[at + after.len()..];
            let list = &rest[..rest.find(before).unwrap_or(rest.len())];
            if list == "none" { 0 } else { list.split_whitespace().count() as u64 }
        };
        let destroyed: u64 =
            story.lines().map(|l| named(l, ", destroying ", " to pay") + named(l, "destroyed: ", ";")).sum();
        let layout = Engine::layout(&e);
        let counter = layout.counters.iter().position(|c| c == "cards_destroyed").unwrap();
        assert_eq!(destroyed, rec.counters[counter], "{story}");
        assert!(story.contains(", destroying "), "a face was paid for: {story}");
        jokers += story.matches("plays the Joker from hand against every attacker; destroyed: ").count();
    }
    assert!(jokers > 0, "some game told a joker's defence");
}

#[test]
fn an_empty_zone_pops_nothing_and_a_zone_pops_from_its_top() {
    let mut z = zone(&["4H", "QS"]);
    assert_eq!((z.pop(), z.pop(), z.pop()), (Some(c("QS")), Some(c("4H")), None));
    assert!(z.is_empty());
}

#[test]
fn a_block_with_no_blocker_is_a_pass() {
    assert_eq!(Action::block([NO_BLOCK; DECK]), Action::Pass);
    let mut one = [NO_BLOCK; DECK];
    one[3] = 0;
    assert_eq!(Action::block(one), Action::Block(one));
}

/// A round robin of three policies through the generic tournament layer.
fn policy_round_robin() -> Box<dyn Point> {
    crate::games::contest::pairs::of_policies("aggressive,defensive,random", &POLICIES, |lineup| {
        Ok(CardwarsEngine::new(Rules { rotate: false, ..Rules::with(lineup) }))
    })
    .expect("three known policies")
}

#[test]
fn a_policy_round_robin_runs_through_the_tournament_layer() {
    let point = policy_round_robin();
    let layout = point.layout();
    let whole = point.play_range(4, 0, 600, &|_| {});
    // Any split of the events merges to the same statistics.
    let mut parts = point.play_range(4, 0, 250, &|_| {});
    parts.merge(&point.play_range(4, 250, 350, &|_| {}));
    assert_eq!(whole, parts);
    let total = |name: &str| whole.counters[layout.counter(name).expect(name).0 as usize].total as u64;
    assert_eq!(total("games"), 3 * 600);
    // Every game is counted once: won by one side, or drawn.
    let decided: u64 =
        ["aggressive", "defensive", "random"].iter().map(|p| total(&format!("{p} games won"))).sum();
    assert_eq!(decided + total("drawn_games"), 3 * 600);
    // The ladder random < aggressive: aggressive wins clearly more than half of their games.
    let (a, r) = (total("aggressive beat random"), total("random beat aggressive"));
    let ci = wilson(a, a + r);
    assert!(ci.low > 0.5, "aggressive beat random {a} times, lost {r}");
}

#[test]
fn a_policy_round_robin_needs_two_different_policies() {
    let one = crate::games::contest::pairs::of_policies("aggressive", &POLICIES, |l| {
        Ok(CardwarsEngine::new(Rules::with(l)))
    });
    assert!(one.err().unwrap().contains("at least two"));
    let twice = crate::games::contest::pairs::of_policies("random,random", &POLICIES, |l| {
        Ok(CardwarsEngine::new(Rules::with(l)))
    });
    assert!(twice.err().unwrap().contains("twice"));
}
