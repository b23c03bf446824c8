//! Cardwars' tests: a hand-written position for every rule of the rulings (state, answer,
//! assert), `random`'s draws against the rulings' definition, the observation's blindness to
//! hidden cards, the layout and settings, and the agents' strength with Wilson intervals.

use super::agents::{Agent, POLICIES};
use super::engine::CardwarsEngine;
use super::rules::{
    Action, Config, DECK, End, Game, JOKER, NO_BLOCK, Next, Observation, Options, Unit, Zone, card, payments,
};
use super::{DEF, PRESETS, Rules, SETTINGS, deck_of};
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
