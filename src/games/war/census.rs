//! War's census: at the deal, every card of the decks is in a stack or among those the rules could
//! not deal evenly; after every battle, every card dealt is in a stack, or was killed (Instant War)
//! or removed with spoils nobody could win (both counted by the record).

use super::engine::WarEngine;
use super::rules::{Board, counter};
use super::setup::WarRules;
use crate::games::Engine;
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::record::GameRecord;
use crate::seed::GameSeed;

/// Plays game `seed` through the engine's own loop with a census after every battle.
pub(super) fn census(engine: &WarEngine, seed: GameSeed) -> Result<u64, String> {
    let rules = &engine.rules;
    let mut sc = engine.new_scratch();
    let mut rng = engine.deal(seed, &mut sc);
    let deck = Cards::of(rules.cards());
    let dealt = on_table(&sc.board);
    let undealt = deck.len() - rules.dealt_size() as u64;
    account("the deal", &deck, &dealt, undealt, &|c| rules.labels[c as usize].clone())?;
    let mut watch = BattleCensus { rules, dealt, cap: engine.battle_bound(), tally: Tally::default() };
    engine.run(&mut rng, &mut sc, &mut GameRecord::new(engine.layout()), &mut watch);
    watch.tally.verdict()
}

fn on_table(board: &Board) -> Cards {
    let mut cards = Cards::default();
    for s in 0..board.table.players() {
        cards.add(board.table.stack(s));
    }
    cards
}

/// The watch: the cards dealt, and the most battles a board may play.
struct BattleCensus<'a> {
    rules: &'a WarRules,
    dealt: Cards,
    cap: u64,
    tally: Tally,
}

impl Watch<Board> for BattleCensus<'_> {
    const ON: bool = true;

    fn step(&mut self, board: &Board, rec: &GameRecord) -> bool {
        let gone = rec.get(counter::CARDS_KILLED) + rec.get(counter::CARDS_REMOVED);
        let label = |c: u8| self.rules.labels[c as usize].clone();
        let outcome = past_cap(board.battles, self.cap, "battles")
            .and_then(|()| account("cards", &self.dealt, &on_table(board), gone, &label));
        self.tally.checked(|| format!("battle {}", board.battles), outcome)
    }
}
