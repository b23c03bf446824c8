//! Card Wars' tests: hand-written positions for every base rule (a turn, the scoring slot by
//! slot, empty places and empty draws, a tied round replayed, the draw after the cap, best of
//! three), the pools and `top21`, the two placement policies, the observation's blindness to the
//! opponent's face-down cards, and the engine's records.

use super::*;
use crate::decide::Legal;
use crate::games::narrate::Silent;
use crate::games::{Engine, Point};
use crate::seed::GameSeed;
use kit::*;

/// What the tests reach of the game, gathered here so that its files can move beneath them: a
/// test names `kit::X`, and only this list follows the layers.
pub(super) mod kit {
    pub use super::super::agents::Agent;
    pub use super::super::card::*;
    pub use super::super::cardfile::parse;
    pub use super::super::cardset::Trigger;
    pub use super::super::choices::{Ask, Choices, Places, UniformChoices};
    pub use super::super::impact::{Impact, score};
    pub use super::super::pools::{DeckPolicy, Pools, top21};
    pub use super::super::resolve::{MAX_EVENTS, MAX_MOMENTS};
    pub use super::super::rules::*;
    pub use super::super::setup::POLICIES;
    pub use super::super::table::*;
}

/// The id of a card of `seat`'s default pool with rares 9, 9, 9: `copy` 0 is the uncommon of
/// value `v`, 1 and 2 its commons.
fn card(seat: usize, v: u8, copy: usize) -> u8 {
    let place = if copy == 0 { 2 + v as usize } else { 12 + 2 * (v as usize - 1) + copy - 1 };
    (seat * POOL + place) as u8
}

/// Default pools (rares 9, 9, 9 each), nothing played yet.
fn fresh_state(max_replays: u32) -> State {
    let mut st = State::new(DeckPolicy::Top21, max_replays);
    let mut rng = GameSeed::new(0, 0).rng();
    st.pools.deal_default(&mut rng);
    for seat in 0..SEATS {
        st.pools.printed[seat * POOL..seat * POOL + 3].fill(9);
        DeckPolicy::Top21.keep(&st.pools, None, seat, &mut st.kept[seat]);
    }
    st
}

/// A game of round 1 at turn `turn` (1-based, before placement) with the given hands and decks
/// (top last) and `table[k]` = the cards of slot k+1, face up.
fn position(turn: u8, hands: [&[u8]; 2], decks: [&[u8]; 2], table: &[[u8; 2]]) -> Game {
    let mut st = fresh_state(10);
    st.rounds = 1;
    st.turn = turn;
    for seat in 0..SEATS {
        st.hands[seat] = Stack::of(hands[seat]);
        st.decks[seat] = Stack::of(decks[seat]);
    }
    for (k, pair) in table.iter().enumerate() {
        st.slots[k] = *pair;
        st.reveal_slot(k);
    }
    let mut game = Game::on(st);
    game.stop_at_turn();
    game
}

fn rng() -> crate::seed::GameRng {
    GameSeed::new(1, 1).rng()
}

/// A scripted chooser for hand-written positions: it answers the decisions inside abilities from
/// its script, in order, and records which seat each was asked of; an unscripted question fails
/// the test (`none()`: a position that must ask nothing).
#[derive(Debug, Default)]
pub(super) struct Script {
    /// The places each `choose` takes, one list per question.
    pub targets: Vec<Vec<u8>>,
    pub take: Vec<bool>,
    pub discard: Vec<usize>,
    /// Each question asked: its kind ('t', 'm' for "you may", 'd'), the seat asked, the
    /// candidates offered (places; the hand size for a discard).
    pub asked: Vec<(char, usize, Vec<u8>)>,
    /// Each choice's source place and, for a swap, the places its other side can name.
    pub sources: Vec<(u8, Vec<u8>)>,
}

impl Script {
    pub fn none() -> Script {
        Script::default()
    }
}

impl kit::Choices for Script {
    fn targets(&mut self, _: &State, ask: &kit::Ask, from: &kit::Places, out: &mut kit::Places) {
        self.asked.push(('t', ask.seat as usize, from.as_slice().to_vec()));
        self.sources.push((ask.source, ask.partner.as_slice().to_vec()));
        assert!(!self.targets.is_empty(), "an unscripted choice: {ask:?} among {from:?}");
        let pick = self.targets.remove(0);
        assert!(pick.iter().all(|p| from.as_slice().contains(p)), "scripted {pick:?} is not among {from:?}");
        *out = kit::Places::of(&pick);
    }

    fn take(&mut self, _: &State, ask: &kit::Ask, targets: &kit::Places) -> bool {
        self.asked.push(('m', ask.seat as usize, targets.as_slice().to_vec()));
        self.sources.push((ask.source, ask.partner.as_slice().to_vec()));
        assert!(!self.take.is_empty(), "an unscripted \"you may\": {ask:?}");
        self.take.remove(0)
    }

    fn discard(&mut self, st: &State, seat: usize) -> usize {
        self.asked.push(('d', seat, vec![st.hands[seat].len() as u8]));
        assert!(!self.discard.is_empty(), "an unscripted discard by seat {seat}");
        self.discard.remove(0)
    }
}

#[test]
fn a_turn_places_both_cards_face_down_together_reveals_them_and_both_draw() {
    let (a7, a2, b3, b5) = (card(0, 7, 0), card(0, 2, 0), card(1, 3, 0), card(1, 5, 0));
    let (a_top, b_top) = (card(0, 4, 0), card(1, 4, 0));
    let mut g = position(1, [&[a2, a7], &[b3, b5]], [&[a_top], &[b_top]], &[]);
    assert_eq!(g.next(), Next::Place(0));
    g.answer(1, &mut rng(), &mut Silent, &mut Script::none());
    // Seat 1 is asked before seat 0's card is on the table: placement is simultaneous.
    assert_eq!((g.next(), g.st.slots[0]), (Next::Place(1), [NONE, NONE]));
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!(g.st.slots[0], [a7, b3]);
    assert!(g.st.is_face_up(a7) && g.st.is_face_up(b3));
    assert_eq!(g.st.hands[0].as_slice(), [a2, a_top]);
    assert_eq!(g.st.hands[1].as_slice(), [b5, b_top]);
    assert_eq!((g.st.turn, g.next()), (2, Next::Place(0)));
}

#[test]
fn scoring_gives_each_slot_to_the_higher_card_and_any_card_beats_an_empty_place() {
    let mut st = fresh_state(10);
    let c = |s, v| card(s, v, 0);
    st.slots[0] = [c(0, 7), c(1, 3)];
    st.slots[1] = [c(0, 4), card(1, 4, 1)];
    st.slots[2] = [NONE, NONE];
    st.slots[3] = [c(0, 1), NONE];
    st.slots[4] = [NONE, c(1, 2)];
    st.slots[5] = [c(0, 9), c(1, 1)];
    for k in [0, 1, 3, 4] {
        st.reveal_slot(k);
    }
    st.face_up |= 1 << c(1, 1); // S6: P0's 9 stays face down (worth 0) against a face-up 1.
    st.slots[6] = [c(0, 8), NONE]; // a face-down card (0) still beats an empty place
    let taken: Vec<Taken> = (0..7).map(|k| st.winner_of(k)).collect();
    use Taken::*;
    assert_eq!(taken, vec![Seat(0), Nobody, Nobody, Seat(0), Seat(1), Seat(1), Seat(0)]);
    assert_eq!((st.value(c(0, 9)), st.value(c(1, 1))), (0, 1));
    // Without text the turn's scoring reads the plain comparison, inlined: the same slots.
    let plain: Vec<Taken> = (0..7).map(|k| st.plain_winner_of(k)).collect();
    assert_eq!(plain, taken);
}

/// Eight slots already played as `table`, one card left in each hand: the round's last turn.
fn last_turn(table: &[[u8; 2]; 8], last: [u8; 2]) -> Game {
    position(9, [&[last[0]], &[last[1]]], [&[], &[]], table)
}

/// Eight slots: P0 takes S1-S4, P1 takes S5-S8.
fn even_table() -> [[u8; 2]; 8] {
    let mut t = [[NONE; 2]; 8];
    for (k, pair) in t.iter_mut().enumerate() {
        let v = 1 + k as u8;
        *pair = if k < 4 {
            [card(0, 9 - k as u8, 0), card(1, v, 0)]
        } else {
            [card(0, v - 4, 1), card(1, v + 1, 1)]
        };
    }
    t
}

#[test]
fn the_scoring_counts_slot_by_slot_and_the_higher_total_wins_the_round() {
    let mut g = last_turn(&even_table(), [card(0, 8, 2), card(1, 2, 2)]);
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    // S1-S4 and S9 to P0, S5-S8 to P1: 5-4, P0 wins round 1, round 2 begins.
    assert_eq!((g.st.wins, g.st.rounds, g.st.ties), ([1, 0], 2, 0));
    // Both last draws found empty decks.
    assert_eq!(g.tally.empty_draws, 2);
    assert_eq!(g.next(), Next::Place(0));
}

#[test]
fn a_tied_round_counts_for_nobody_and_is_replayed() {
    let mut g = last_turn(&even_table(), [card(0, 5, 2), card(1, 5, 2)]);
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.st.wins, g.st.ties, g.tally.replayed_rounds), ([0, 0], 1, 1));
    // The replay is a fresh round: new decks, five cards each, an empty table.
    assert_eq!((g.st.rounds, g.st.turn), (2, 1));
    assert_eq!((g.st.hands[0].len(), g.st.decks[1].len()), (FIRST_HAND, DECK - FIRST_HAND));
    assert!(g.st.slots.iter().all(|s| *s == [NONE, NONE]) && g.st.face_up == 0);
}

#[test]
fn the_tied_round_after_max_replays_ends_the_game_as_a_draw() {
    let mut g = last_turn(&even_table(), [card(0, 5, 2), card(1, 5, 2)]);
    g.st.max_replays = 3;
    g.st.ties = 3;
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.next(), g.st.ties, g.tally.replayed_rounds), (Next::Over(End::Drawn), 4, 0));
    // One tie fewer: replayed.
    let mut g = last_turn(&even_table(), [card(0, 5, 2), card(1, 5, 2)]);
    g.st.max_replays = 3;
    g.st.ties = 2;
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.next(), g.tally.replayed_rounds), (Next::Place(0), 1));
}

#[test]
fn a_second_round_won_ends_the_game() {
    let mut g = last_turn(&even_table(), [card(0, 1, 2), card(1, 2, 2)]);
    g.st.wins = [1, 1];
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.next(), g.st.wins), (Next::Over(End::Won(1)), [1, 2]));
}

#[test]
fn an_empty_hand_leaves_an_empty_place_and_an_empty_deck_draws_nothing() {
    let a6 = card(0, 6, 0);
    let b_top = card(1, 1, 0);
    let mut g = position(1, [&[a6], &[]], [&[], &[b_top]], &[]);
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    // Seat 1 held nothing: it is not asked, its place stays empty, it still draws.
    assert_eq!(g.st.slots[0], [a6, NONE]);
    assert_eq!((g.tally.empty_slots, g.tally.empty_draws), (1, 1));
    assert_eq!((g.st.hands[0].len(), g.st.hands[1].as_slice()), (0, &[b_top][..]));
    assert_eq!(g.next(), Next::Place(1));
    assert_eq!(g.st.winner_of(0), Taken::Seat(0));
    // Next turn seat 0 has nothing: seat 1 alone places; then neither holds a card, so turns
    // 3-9 play out with no decision, two empty places and two empty draws each.
    g.answer(0, &mut rng(), &mut Silent, &mut Script::none());
    assert_eq!((g.tally.empty_slots, g.tally.empty_draws), (2 + 14, 3 + 14));
    // S1 to P0, S2 to P1 (a card against an empty place), S3-S9 to nobody: a 1-1 tie, replayed.
    assert_eq!((g.st.ties, g.st.rounds, g.tally.replayed_rounds), (1, 2, 1));
}

#[test]
fn default_pools_hold_three_of_each_value_and_three_rares() {
    let mut p = Pools::default();
    p.deal_default(&mut GameSeed::new(5, 5).rng());
    for seat in 0..SEATS {
        let printed = p.printed_of(seat);
        assert_eq!(printed.len(), POOL);
        assert!(printed[..3].iter().all(|v| (1..=9).contains(v)));
        assert_eq!(&printed[3..12], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(&printed[12..16], &[1, 1, 2, 2]);
        assert_eq!(&printed[28..30], &[9, 9]);
    }
}

#[test]
fn top21_keeps_the_highest_printed_values_ties_by_pool_order() {
    // Rares 9, 1, 4, then 1-9, then 1,1,...,9,9: 3 of 2 .. 9 except 4 (4 of them), 4 of 9 and 1.
    let mut printed = vec![9, 1, 4];
    printed.extend(1..=9);
    for v in 1..=9 {
        printed.extend([v, v]);
    }
    let mut out = Stack::default();
    top21(&printed, 30, &mut out);
    let kept: Vec<u8> = out.as_slice().iter().map(|&id| printed[id as usize - 30]).collect();
    assert_eq!(kept.len(), DECK);
    // 9s: 4, 8-5: 3 each (16), then 4s: room for 5 - 4 = 1... 4 + 12 = 16, five 4s room, four 4s exist.
    let mut sorted = kept.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(sorted, vec![9, 9, 9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 4, 3]);
    // The one 3 kept is the first in pool order: the uncommon (place 5), not a common.
    assert!(out.as_slice().contains(&(30 + 5)) && !out.as_slice().contains(&(30 + 16)));
    // A pool of 21 is kept whole.
    top21(&printed[..21], 0, &mut out);
    assert_eq!(out.len(), 21);
}

#[test]
fn highest_places_the_highest_printed_value_first_in_hand_among_equals() {
    assert_eq!(highest(&[3, 8, 2, 8]), 1);
    assert_eq!(highest(&[5]), 0);
    let legal = PlaceLegal { printed: [4; POOL], len: 3 };
    let mut agent = Agent::Highest;
    assert_eq!(agent.place(&Observation::default(), &legal, &mut rng()), 0);
}

#[test]
fn random_places_every_hand_card_equally_often() {
    // 5 cells, 50,000 draws: chi-square with 4 degrees of freedom; 18.5 is its 0.999 quantile.
    let legal = PlaceLegal { printed: [1; POOL], len: 5 };
    let mut r = rng();
    let mut cells = [0u64; 5];
    for _ in 0..50_000 {
        let mut out = 0;
        legal.uniform(&mut r, &mut out);
        cells[out as usize] += 1;
    }
    let chi: f64 = cells.iter().map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0).sum();
    assert!(chi < 18.5, "chi-square {chi} for {cells:?}");
}

#[test]
fn a_seat_sees_its_own_face_down_cards_never_the_opponents() {
    let (a7, b3, b5) = (card(0, 7, 0), card(1, 3, 0), card(1, 5, 0));
    let mut g = position(3, [&[], &[]], [&[], &[]], &[[a7, b3]]);
    g.st.slots[1] = [card(0, 2, 0), b5]; // slot 2 face down
    let mut obs = Observation::default();
    g.observe(0, &mut obs);
    assert_eq!(
        obs.table[0],
        [
            Seen::Up { id: a7, printed: 7, value: 7, counters: 0 },
            Seen::Up { id: b3, printed: 3, value: 3, counters: 0 }
        ]
    );
    assert_eq!(obs.table[1], [Seen::Mine { id: card(0, 2, 0), printed: 2, value: 0 }, Seen::Down]);
    assert_eq!(obs.table[2], [Seen::Empty, Seen::Empty]);
    g.observe(1, &mut obs);
    assert_eq!(obs.table[1], [Seen::Down, Seen::Mine { id: b5, printed: 5, value: 0 }]);
    // Counters on a face-up card are seen by both seats, with the value they make.
    g.st.text = true;
    g.st.set = Some(sample_set());
    g.st.counters[b3 as usize] = [0, -2];
    g.st.pos[b3 as usize] = 1; // slot 1, seat 1's side (the position sets the slots only)
    g.observe(0, &mut obs);
    assert_eq!(obs.table[0][1], Seen::Up { id: b3, printed: 3, value: 1, counters: -2 });
}

#[test]
fn games_last_whole_rounds_and_the_narrative_is_the_game_played() {
    let engine = SlotsEngine::new(Rules::with("highest,random"));
    for i in 0..50 {
        let seed = GameSeed::new(3, i);
        let rec = engine.play_one(seed);
        assert_eq!(rec.length % SLOTS as u64, 0);
        assert!(rec.length >= 2 * SLOTS as u64);
        let mut story = String::new();
        assert_eq!(Engine::narrate(&engine, seed, &mut story), rec);
        assert!(story.contains("score S9"), "{story}");
        assert!(Engine::census(&engine, seed).is_ok());
    }
}

mod card_sets {
    //! The card-set parser on the shipped sets and on one file per kind of mistake it must catch
    //! (the binary's exit code and message shape are tested in `tests/cards.rs`).

    use super::super::cardfile::parse;
    use super::super::cardset::*;
    use super::*;

    const SAMPLE: &str = include_str!("../../../scenarios/cards/sample.toml");
    const IMBALANCE: &str = include_str!("../../../scenarios/cards/imbalance.toml");
    const HEAD: &str = "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"rare\"\nvalue = 3\n";

    fn design<'s>(set: &'s CardSet, id: &str) -> (&'s Design, &'s [Ability]) {
        let d = set.designs.iter().position(|d| d.id == id).unwrap_or_else(|| panic!("no {id}"));
        (&set.designs[d], set.abilities_of(d as u16))
    }

    /// The one-line error for `body` written after a rare card's head.
    fn error(body: &str) -> String {
        parse("t.toml", &format!("{HEAD}{body}")).expect_err("the file must be refused")
    }

    #[test]
    fn the_sample_set_parses_into_its_designs_and_abilities() {
        let set = parse("sample.toml", SAMPLE).unwrap();
        let count = |r| set.designs.iter().filter(|d| d.rarity == r).count();
        assert_eq!((set.designs.len(), count(Rarity::Common), count(Rarity::Uncommon)), (75, 20, 30));
        let (guard, a) = design(&set, "hearth-guard");
        assert_eq!((guard.value, guard.rarity, a.len()), (3, Rarity::Common, 1));
        let want = Selector { side: Side::You, slots: Slots::Adjacent, ..Selector::ALL };
        assert_eq!(a[0].on, Trigger::Static);
        assert_eq!(
            a[0].effect,
            Effect::Modify { target: want, amount: 1, per: None, duration: Duration::Round }
        );
        let (_, a) = design(&set, "night-watch");
        assert_eq!(
            (a[0].on, a[0].watch.side, a[0].watch.printed),
            (Trigger::Revealed, Side::Opp, Some(Cmp::Ge(7)))
        );
        assert!(matches!(
            a[0].effect,
            Effect::Counter { target: Selector { base: Base::Event, .. }, amount: -1, .. }
        ));
        assert_eq!((a[1].on, a[1].conds[0]), (Trigger::ScoreEnd, Some(Cond::Oc(OcState::Down))));
        let (_, a) = design(&set, "the-cartographer");
        assert!(a[0].optional);
        assert!(matches!(a[0].effect, Effect::Swap { a: Selector { pick: Pick::Choose, .. }, .. }));
        let (_, a) = design(&set, "hourglass");
        assert_eq!((a[0].on, a[0].turns), (Trigger::TurnStart, (6, 9)));
        let (_, a) = design(&set, "gravedigger");
        assert_eq!((a[0].on, a[0].watch), (Trigger::Destroyed, Selector::ALL));
        let (_, a) = design(&set, "pact-of-threes");
        assert!(matches!(a[1].conds[0], Some(Cond::Count(Selector { side: Side::You, .. }, Cmp::Ge(3)))));
        // Every commons and uncommons place of a dealt pool has a design.
        for v in 1..=9 {
            assert!(!set.by_place[0][v].is_empty() && !set.by_place[1][v].is_empty(), "value {v}");
        }
        assert_eq!(set.by_place[2][0].len(), 25);
    }

    #[test]
    fn the_imbalance_set_parses_and_deals_textless_fillers() {
        let set = parse("imbalance.toml", IMBALANCE).unwrap();
        assert_eq!(set.designs.len(), 4);
        let mut pools = Pools::default();
        pools.deal_from(&set, &mut GameSeed::new(1, 2).rng());
        // Per seat: 3 rares (Mirage), 1 uncommon of 9 (Twin Strike), 4 commons of 18 (Warlord,
        // Dead Weight): 22 textless places per seat.
        assert_eq!(pools.vanilla_fill, 44);
        let mirage = set.designs.iter().position(|d| d.id == "mirage").unwrap() as u16;
        assert_eq!((pools.design[0], pools.printed[0]), (mirage, 1));
        assert_eq!(pools.design[3], TEXTLESS);
        assert_eq!(pools.printed_of(1)[3..12], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn a_fixed_pool_replaces_the_deal_for_its_seat() {
        let cards: Vec<String> = (0..21)
            .map(|i| if i == 0 { "\"probe\"".into() } else { format!("\"vanilla-{}\"", 1 + i % 9) })
            .collect();
        let text = format!("{HEAD}\n[[pool]]\nseat = 1\ncards = [{}]\n", cards.join(", "));
        let set = parse("t.toml", &text).unwrap();
        let mut pools = Pools::default();
        pools.deal_from(&set, &mut GameSeed::new(1, 2).rng());
        assert_eq!(pools.size, [30, 21]);
        assert_eq!((pools.design[POOL], pools.printed[POOL], pools.printed[POOL + 1]), (0, 3, 2));
        let text = format!("{HEAD}\n[[pool]]\nseat = 0\ncards = [\"probe\", \"nobody\"]\n");
        let e = parse("t.toml", &text).unwrap_err();
        assert!(e.contains("pool of seat 0, key 'cards': 2 cards; a fixed pool holds 21-30"), "{e}");
    }

    #[test]
    fn every_kind_of_mistake_is_refused_with_its_place() {
        let cases: &[(&str, &str)] = &[
            (
                "[[card.ability]]\neffect = \"swap\"\na = \"self\"\nb = \"theirs\"\n",
                "t.toml:13:5: card 'probe', key 'ability[1].b': a swap needs one card",
            ),
            (
                "[[card.ability]]\neffect = \"destroy\"\ntarget = { n = 2 }\n",
                "key 'ability[1].target.n': n needs a pick",
            ),
            (
                "[[card.ability]]\neffect = \"points\"\namount = 1\nper = { pick = \"random\" }\n",
                "key 'ability[1].per.pick': no pick here",
            ),
            (
                "[[card.ability]]\nif = [ { slot = 3, is = 2 } ]\neffect = \"draw\"\n",
                "key 'ability[1].if.slot.is': 'is' goes with 'count' only",
            ),
            (
                "[[card.ability]]\nif = [ { result = \"won\" } ]\neffect = \"draw\"\n",
                "key 'ability[1].if.result': 'result' exists only in 'slot_scored'",
            ),
            (
                "[[card.ability]]\non = \"static\"\nif = [ { oc_value = 3 } ]\neffect = \"modify\"\ntarget = \"self\"\namount = 1\n",
                "cannot read current values",
            ),
            (
                "[[card.ability]]\neffect = \"draw\"\nto = 3\n",
                "t.toml:12:1: card 'probe', key 'ability[1].to': not a parameter of effect 'draw'",
            ),
            (
                "[[card.ability]]\non = \"dawn\"\neffect = \"draw\"\n",
                "key 'ability[1].on': unknown value 'dawn'",
            ),
            (
                "[[card.ability]]\neffect = \"hide\"\ntarget = { slots = \"10\" }\n",
                "key 'ability[1].target.slots': '10' is not a slot",
            ),
            (
                "[[card.ability]]\neffect = \"hide\"\ntarget = { printed = \">>3\" }\n",
                "key 'ability[1].target.printed': '>>3' is not a comparison",
            ),
            (
                "[[card.ability]]\neffect = \"hide\"\n",
                "t.toml:10:1: card 'probe', key 'ability[1].target': missing",
            ),
            (
                "[[card.ability]]\nwatch = \"all\"\neffect = \"draw\"\n",
                "key 'ability[1].watch': only 'destroyed', 'revealed' and 'placed'",
            ),
            (
                "[[card.ability]]\neffect = \"draw\"\noptional = \"yes\"\n",
                "key 'ability[1].optional': expected true or false",
            ),
            (
                "\n[[card]]\nid = \"probe\"\nname = \"Again\"\nrarity = \"common\"\nvalue = 1\n",
                "t.toml:12:6: card 'probe', key 'id': another card already has this id",
            ),
            (
                "\n[[card]]\nid = \"Big Name\"\nname = \"x\"\nrarity = \"common\"\nvalue = 1\n",
                "card 'Big Name', key 'id': 1-40 characters",
            ),
            ("name2 = 1\n", "t.toml:10:1: card 'probe', key 'name2': unknown key"),
            ("text = \"unclosed\n", "t.toml:10:"),
        ];
        for (body, needle) in cases {
            let e = error(body);
            assert!(e.contains(needle), "for {body:?}: '{needle}' not in: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        let e = parse("t.toml", &HEAD.replace("warsim-slots-cards", "cards")).unwrap_err();
        assert!(e.contains("t.toml:1:10: key 'format': expected \"warsim-slots-cards\""), "{e}");
    }
}

/// A design's trigger summary (`CardSet::fire_of`, `last_words`) says what a pass over its
/// ability heads says, for every design of the shipped sets and of a set whose turn abilities
/// differ in their turns, at every turn: where it claims to be exact, the abilities it names are
/// exactly those of the trigger firing at that turn.
#[test]
fn a_designs_trigger_summary_answers_as_its_abilities_do() {
    use super::cardset::{Selector, TRIGGERS, Trigger};
    let turns = "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n\n[[card]]\nid = \"t\"\nname = \"T\"\nrarity = \"rare\"\nvalue = 3\n  [[card.ability]]\n  on = \"turn_start\"\n  turns = \"1-3\"\n  effect = \"points\"\n  amount = 1\n  [[card.ability]]\n  effect = \"points\"\n  amount = 1\n  [[card.ability]]\n  on = \"turn_start\"\n  turns = \"2-9\"\n  effect = \"points\"\n  amount = 1\n";
    let sets = [
        ("sample", include_str!("../../../scenarios/cards/sample.toml")),
        ("tournament", include_str!("../../../scenarios/cards/tournament.toml")),
        ("echoes", include_str!("../../../tests/fixtures/echoes.toml")),
        ("turns", turns),
    ];
    let mut exact_turns = 0;
    for (name, text) in sets {
        let set = super::cardfile::parse(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for d in 0..set.designs.len() as u16 {
            let (heads, abilities) = (set.heads_of(d), set.abilities_of(d));
            for &(_, t) in &Trigger::WORDS {
                let f = set.fire_of(d, t);
                let of: Vec<usize> = (0..heads.len()).filter(|&k| heads[k].on == t).collect();
                assert_eq!((f.count as usize, of.first().map_or(0, |&k| k)), (of.len(), f.first as usize));
                assert_eq!(
                    f.exact,
                    !t.watches() && of.windows(2).all(|w| heads[w[0]].turns == heads[w[1]].turns)
                );
                for turn in 0..=10u8 {
                    let firing = of
                        .iter()
                        .filter(|&&k| !t.per_turn() || (heads[k].turns.0..=heads[k].turns.1).contains(&turn));
                    let claimed = (f.turns.0..=f.turns.1).contains(&turn);
                    if f.exact {
                        assert_eq!(
                            firing.count(),
                            if claimed { of.len() } else { 0 },
                            "{name} design {d} {t:?} turn {turn}"
                        );
                        exact_turns += usize::from(t.per_turn() && f.count > 0);
                    }
                }
            }
            let last: Vec<usize> = (0..abilities.len())
                .filter(|&k| abilities[k].on == Trigger::Destroyed && abilities[k].watch == Selector::SOURCE)
                .collect();
            let f = set.last_words[d as usize];
            assert!(
                f.exact
                    && f.count as usize == last.len()
                    && f.first as usize == last.first().map_or(0, |&k| k)
            );
        }
        assert_eq!(set.fire.len(), set.designs.len() * TRIGGERS);
    }
    assert!(exact_turns > 0, "some summary of a turn trigger is exact");
}

/// The sample set, compiled.
fn sample_set() -> std::sync::Arc<super::cardset::CardSet> {
    let text = include_str!("../../../scenarios/cards/sample.toml");
    std::sync::Arc::new(super::cardfile::parse("sample.toml", text).expect("the sample set parses"))
}

#[test]
fn with_the_sample_set_every_card_is_accounted_for_and_the_narrative_is_the_game_played() {
    for lineup in ["random", "highest,random"] {
        let engine = SlotsEngine::new(Rules { cards: Some(sample_set()), ..Rules::with(lineup) });
        for i in 0..60 {
            let seed = GameSeed::new(11, i);
            let rec = engine.play_one(seed);
            let mut story = String::new();
            assert_eq!(Engine::narrate(&engine, seed, &mut story), rec, "game {i}");
            assert!(Engine::census(&engine, seed).is_ok(), "game {i}: {:?}", Engine::census(&engine, seed));
        }
    }
}

#[test]
fn a_set_whose_watchers_multiply_events_ends_every_game() {
    // Six designs that each answer a reveal by hiding and turning up every other card: without
    // the budget of events per moment one such game never ends. With it, every game ends, the
    // cascades cut are counted, and the narrative is still the game played.
    let text = include_str!("../../../tests/fixtures/echoes.toml");
    let set = std::sync::Arc::new(super::cardfile::parse("echoes.toml", text).expect("the fixture parses"));
    let engine = SlotsEngine::new(Rules { cards: Some(set), ..Rules::with("highest,random") });
    let cut = Engine::layout(&engine).counter("cascade_cut").expect("a cascade_cut counter");
    let mut cuts = 0;
    for i in 0..20 {
        let seed = GameSeed::new(5, i);
        let rec = engine.play_one(seed);
        cuts += rec.counters[cut];
        if i < 3 {
            let mut story = String::new();
            assert_eq!(Engine::narrate(&engine, seed, &mut story), rec, "game {i}");
        }
    }
    assert!(cuts > 0, "the budget cut some cascade");
}

#[test]
fn a_round_counts_every_kept_card_in_deck_and_each_placed_card_by_the_result() {
    let mut st = fresh_state(10);
    let (a9, a5, b4) = (card(0, 9, 0), card(0, 5, 0), card(1, 4, 0));
    st.kept = [Stack::of(&[a9, a5]), Stack::of(&[b4])];
    let mut t = CardTally::default();
    // Round 1: a9 and b4 placed, seat 0 wins; round 2: only b4 placed, tied.
    t.round(&st.kept, 1 << a9 | 1 << b4, Some(0));
    t.round(&st.kept, 1 << b4, None);
    let row = |id: u8| {
        let i = id as usize;
        (t.in_deck[i], t.played[i], t.decisive[i], t.won[i], t.tied[i], t.in_game >> i & 1)
    };
    assert_eq!(row(a9), (2, 1, 1, 1, 0, 1));
    assert_eq!(row(a5), (2, 0, 0, 0, 0, 0));
    assert_eq!(row(b4), (2, 2, 1, 0, 1, 1));
}

#[test]
fn the_per_card_table_adds_up_over_each_game() {
    use super::engine::CARD_COLUMNS;
    let engine = SlotsEngine::new(Rules { cards: Some(sample_set()), ..Rules::with("highest,random") });
    let layout = Engine::layout(&engine);
    let table = layout.cards.clone().expect("a per-card table");
    assert_eq!(table.keys.len(), sample_set().designs.len() + 9);
    assert_eq!(layout.events().len(), table.first as usize);
    for i in 0..100 {
        let rec = engine.play_one(GameSeed::new(5, i));
        let rounds = rec.length / SLOTS as u64;
        let total = |col: &str| {
            let c = CARD_COLUMNS.iter().position(|n| *n == col).expect("a column");
            (0..table.keys.len())
                .map(|k| rec.counters[table.first as usize + k * CARD_COLUMNS.len() + c])
                .sum::<u64>()
        };
        let empty = rec.get(super::engine::counter::EMPTY_SLOTS);
        assert_eq!(total("in_deck"), (SEATS * DECK) as u64 * rounds, "game {i}");
        // Each place of each turn gets a card placed or stays empty, and a `place` effect may put
        // more from hand; a card returned to hand and placed again counts once in its round, and
        // only a card of the round's deck can be played.
        assert!(total("played") <= total("in_deck"), "game {i}");
        assert!(empty <= (SEATS * SLOTS) as u64 * rounds, "game {i}");
        assert!(total("played") > 0);
        assert_eq!(total("played_decisive") + total("played_tied"), total("played"), "game {i}");
        assert!(
            total("played_won") <= total("played_decisive") && total("games_won") <= total("games_played")
        );
        assert!(total("games_won") > 0 || rec.outcome == layout.outcomes.len() as u16 - 1);
    }
}

mod abilities;
mod audit;
mod rulings;
mod sideboard;
mod turn_order;
mod vocabulary;

/// A game with the sample set, both seats `highest`, stopped after `answers` placements (or at
/// its end).
fn mid_game(seed: u64, answers: usize) -> Game {
    let mut g = Game::new(DeckPolicy::Top21, 10);
    let set = sample_set();
    let mut rng = GameSeed::new(seed, 0).rng();
    g.st.pools.deal_from(&set, &mut rng);
    g.st.text = true;
    g.st.set = Some(set);
    g.chance = GameSeed::new(seed, 9).rng();
    let mut ch = kit::UniformChoices { rng: GameSeed::new(seed, 8).rng() };
    g.begin(&mut rng, &mut Silent, &mut ch);
    for _ in 0..answers {
        let Next::Place(seat) = g.next() else { break };
        let index = highest(g.place_legal(seat).printed());
        g.answer(index, &mut rng, &mut Silent, &mut ch);
    }
    g
}

#[test]
fn observations_and_decisions_never_show_hidden_cards() {
    let mut compared = 0;
    for seed in 0..40u64 {
        let a = mid_game(seed, 2 + seed as usize % 30);
        let Next::Place(seat) = a.next() else { continue };
        let opp = 1 - seat;
        // The opponent's hand card swapped with one of its deck cards, its deck reversed, a
        // hidden card of its pool (deck or sideboard) printed and designed otherwise, and the
        // seat's own deck reordered.
        let mut b = a.clone();
        let (hand, deck) = (b.st.hands[opp].len(), b.st.decks[opp].len());
        if hand > 0 && deck > 0 {
            let (h, d) = (seed as usize % hand, seed as usize % deck);
            let card = b.st.hands[opp].as_slice()[h];
            b.st.hands[opp].as_mut_slice()[h] = b.st.decks[opp].as_slice()[d];
            b.st.decks[opp].as_mut_slice()[d] = card;
        }
        b.st.decks[opp].as_mut_slice().reverse();
        b.st.decks[seat].as_mut_slice().rotate_left(1);
        if let Some(&hidden) = b.st.decks[opp].as_slice().first() {
            b.st.pools.printed[hidden as usize] = 1 + (b.st.pools.printed[hidden as usize] % 9);
            b.st.pools.design[hidden as usize] = 0;
        }
        let (mut oa, mut ob) = (Observation::default(), Observation::default());
        a.observe(seat, &mut oa);
        b.observe(seat, &mut ob);
        assert_eq!(oa, ob, "seed {seed}");
        for (p, name) in POLICIES.iter().enumerate() {
            let place = |g: &Game, o: &Observation| {
                let rules = Rules { cards: Some(sample_set()), search_budget: 20, ..Rules::with("random") };
                Agent::new(p, &rules).place(
                    o,
                    &g.place_legal(seat),
                    &mut GameSeed::new(seed, 1).seat_rng(seat),
                )
            };
            assert_eq!(place(&a, &oa), place(&b, &ob), "{name} at seed {seed}");
        }
        compared += usize::from(a.st != b.st);
    }
    assert!(compared > 30, "only {compared} states had hidden cards to change");
}

/// Wins of each policy of `lineup` over `games` games (seats rotated, fixed seed), with the
/// sample set or without text, and the search agent's budget.
fn duel(lineup: &str, cards: bool, games: u64, search_budget: u32) -> (u64, u64) {
    let set = cards.then(sample_set);
    let e = SlotsEngine::new(Rules { cards: set, search_budget, ..Rules::with(lineup) });
    let acc = Point::play_range(&e, 20_261_122, 0, games, &|_| {});
    let names: Vec<&str> = lineup.split(',').collect();
    let wins = |p: &str| {
        acc.counters[Engine::layout(&e).counter(&format!("wins_{p}")).unwrap().0 as usize].total as u64
    };
    (wins(names[0]), wins(names[1]))
}

/// The first policy of `lineup` wins more than half of the decisive games, the Wilson 95%
/// interval clear of one half.
fn assert_beats(lineup: &str, cards: bool, games: u64, search_budget: u32) {
    let (a, b) = duel(lineup, cards, games, search_budget);
    let ci = crate::stats::interval::wilson(a, a + b);
    eprintln!("{lineup}: {a} wins to {b}; share {:.3} [{:.3}, {:.3}]", ci.estimate, ci.low, ci.high);
    assert!(ci.low > 0.5, "{lineup}: {a} to {b}, interval [{:.3}, {:.3}]", ci.low, ci.high);
}

#[test]
fn reader_beats_highest_and_random_with_the_sample_set() {
    // About 0.80 and 0.91 of the games (docs/policies.md): 400 games put the interval's low end
    // near 0.75 at worst.
    assert_beats("reader,highest", true, 400, 1);
    assert_beats("reader,random", true, 400, 1);
}

#[test]
fn without_text_reader_places_as_highest_does() {
    // Equal decisions on every deal: each deal's two rotations mirror each other.
    let (a, b) = duel("reader,highest", false, 400, 1);
    assert_eq!(a, b);
    assert!(a > 150, "{a} wins each");
}

#[test]
fn the_search_plays_from_samples_the_seat_cannot_tell_from_what_it_saw() {
    use crate::decide::search::Determinize;
    let mut sampled = 0;
    for seed in 0..30u64 {
        let g = mid_game(seed, 3 + seed as usize % 28);
        let Next::Place(seat) = g.next() else { continue };
        let mut obs = Observation::default();
        g.observe(seat, &mut obs);
        let mut unseen = super::search::Unseen::new(Some(sample_set()));
        let mut sim = super::search::Sim::new();
        for k in 0..3 {
            // What earlier samples counted is gone (a search takes thousands of samples).
            sim.game.cards.in_deck[0] = u16::MAX;
            sim.game.tally.fizzles = 1;
            unseen.determinize(&obs, &mut GameSeed::new(seed, k).rng(), &mut sim);
            assert_eq!((sim.game.cards, sim.game.tally), Default::default());
            // Every masked card is dealt a card, and the seat sees the sample as it saw the game.
            assert!(sim.game.st.pools.printed.iter().all(|&p| p != super::view::UNKNOWN));
            let mut seen = Observation::default();
            sim.game.observe(seat, &mut seen);
            assert_eq!(seen, obs, "seed {seed}, sample {k}");
            // The sample waits at the start of the turn that holds the decision.
            assert_eq!(
                sim.game.next(),
                Next::Place((0..SEATS).find(|&s| !g.st.hands[s].is_empty()).unwrap())
            );
            sampled += 1;
        }
    }
    assert!(sampled > 60, "{sampled}");
}

#[test]
fn search_beats_highest_with_the_sample_set() {
    // About 0.9 of the games at budget 100 (docs/policies.md); at budget 30, 100 games put the
    // interval's low end well above one half and keep the test within seconds.
    assert_beats("search,highest", true, 100, 30);
}

/// A set that fixes seat 0's pool: a 2 that destroys the opposing card (2 + 5 = 7 by strength),
/// a textless 3 and twenty textless 5s (card ids 0, 1, 2-21).
fn striker_pool() -> super::cardset::CardSet {
    let mut text = String::from(
        "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n\n[[card]]\nid = \"striker\"\nname = \"Striker\"\nrarity = \"common\"\nvalue = 2\n  [[card.ability]]\n  effect = \"destroy\"\n  target = \"oc\"\n\n[[pool]]\nseat = 0\ncards = [\"striker\", \"vanilla-3\"",
    );
    text.push_str(&", \"vanilla-5\"".repeat(20));
    text.push_str("]\n");
    super::cardfile::parse("t.toml", &text).expect("the test set parses")
}

#[test]
fn strength_keeps_a_low_card_with_a_strong_ability_over_a_higher_vanilla_card_and_top21_does_not() {
    let set = striker_pool();
    assert_eq!(set.worth, [50], "destroying the opposing card is worth 5 points of value");
    let mut pools = Pools::default();
    pools.deal_from(&set, &mut GameSeed::new(1, 0).rng());
    let (striker, three) = (0u8, 1u8);
    let mut deck = Stack::default();
    DeckPolicy::Strength.keep(&pools, Some(&set), 0, &mut deck);
    assert_eq!(deck.len(), DECK);
    assert!(deck.as_slice().contains(&striker) && !deck.as_slice().contains(&three));
    DeckPolicy::Top21.keep(&pools, Some(&set), 0, &mut deck);
    assert!(!deck.as_slice().contains(&striker) && deck.as_slice().contains(&three));
    // Without text the two policies keep the same deck.
    pools.deal_default(&mut GameSeed::new(2, 0).rng());
    let mut by_top = Stack::default();
    DeckPolicy::Top21.keep(&pools, None, 1, &mut by_top);
    DeckPolicy::Strength.keep(&pools, None, 1, &mut deck);
    assert_eq!(deck, by_top);
}

#[test]
fn a_deck_policy_per_line_up_entry_follows_its_entry_round_the_seats() {
    // `strength` keeps the striker, `top21` the textless 3.
    let set = striker_pool();
    let mut rules = Rules::with("random");
    rules.cards = Some(std::sync::Arc::new(set));
    rules.deck_policy = DeckPolicy::lineup("strength,top21").expect("known deck policies");
    assert_eq!(rules.deck_policy, [DeckPolicy::Strength, DeckPolicy::Top21]);
    let engine = SlotsEngine::new(rules);
    let mut sc = engine.new_scratch();
    let striker = 0u8;
    let mut by_entry = [0; SEATS];
    for i in 0..4 {
        let seed = GameSeed::new(7, i);
        engine.replay(seed, &mut sc, 0, &[]);
        let entry = crate::decide::Seating::new(seed, SEATS, true).entry(0);
        by_entry[entry] += 1;
        let kept = sc.game.st.kept[0].as_slice().contains(&striker);
        assert_eq!(kept, entry == 0, "game {i}: seat 0 plays line-up entry {entry}");
    }
    assert_eq!(by_entry, [2, 2], "both entries sat at seat 0");
    assert_eq!(DeckPolicy::lineup("top21"), Some([DeckPolicy::Top21; SEATS]));
    assert_eq!(DeckPolicy::lineup("top21,bogus"), None);
}

mod impact;
mod mutants;
mod mutants_agents;
mod mutants_final;
mod mutants_more;

mod layers {
    //! The files of the game point one way: each imports only files below it in `LAYERS`.

    use super::super::LAYERS;

    /// The game's file `name` (a layer), its unit tests (`mod tests { ... }` at the end) left out.
    fn source(name: &str) -> String {
        let path = format!("{}/src/games/slots/{name}.rs", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        match text.find("#[cfg(test)]\nmod tests {") {
            Some(at) => text[..at].to_string(),
            None => text,
        }
    }

    /// The game's files that `text` names: every `super::X` and `crate::games::slots::X`, with
    /// the names of a `super::{X, Y}` group each.
    pub(super) fn imports(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for prefix in ["super::", "crate::games::slots::"] {
            let mut rest = text;
            while let Some(at) = rest.find(prefix) {
                let after = &rest[at + prefix.len()..];
                let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
                let preceded = text.len() - rest.len() + at;
                let whole = preceded == 0 || !text[..preceded].ends_with(|c: char| is_word(c) || c == ':');
                if whole {
                    if let Some(group) = after.strip_prefix('{') {
                        let end = group.find('}').unwrap_or(group.len());
                        for item in group[..end].split(',') {
                            let name: String = item.trim().chars().take_while(|&c| is_word(c)).collect();
                            out.push(name);
                        }
                    } else {
                        out.push(after.chars().take_while(|&c| is_word(c)).collect());
                    }
                }
                rest = after;
            }
        }
        out
    }

    /// The imports of `file` that point up or to something that is not a layer.
    fn upward(file: &str, text: &str) -> Vec<String> {
        let me = LAYERS.iter().position(|&l| l == file).expect("a layer");
        imports(text)
            .into_iter()
            .filter(|name| match LAYERS.iter().position(|l| l == name) {
                Some(layer) => layer >= me,
                None => true,
            })
            .collect()
    }

    #[test]
    fn every_file_is_a_layer() {
        let dir = format!("{}/src/games/slots", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("the game's folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".rs").map(String::from))
            .filter(|f| f != "mod" && f != "tests")
            .collect();
        files.sort();
        let mut layers: Vec<String> = LAYERS.iter().map(|l| l.to_string()).collect();
        layers.sort();
        assert_eq!(files, layers);
    }

    #[test]
    fn no_file_imports_one_above_it() {
        for file in LAYERS {
            assert_eq!(upward(file, &source(file)), Vec::<String>::new(), "{file}.rs imports from above");
        }
    }

    #[test]
    fn an_upward_import_is_caught() {
        let text = "use super::card::NONE;\nuse super::{rules, table::State};\nlet x = super::engine::X;\n";
        assert_eq!(upward("values", text), ["rules", "engine"]);
        assert_eq!(upward("census", "use super::SlotsEngine;"), ["SlotsEngine"]);
        assert_eq!(upward("card", "use crate::games::slots::card::NONE;"), ["card"]);
        assert_eq!(upward("rules", "use super::table::State;\nuse super::card::NONE;"), Vec::<String>::new());
    }
}
