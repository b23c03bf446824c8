//! Card Wars' census: after the first deal and after every placement answer, every card of both
//! pools is in this round's deck, a hand, a pile, on the table or in the sideboard (the pool cards
//! not kept this round), exactly once; and no game plays past its own cap (three decisive rounds
//! and `max_replays + 1` tied ones).

use super::card::{NONE, SEATS, SLOTS};
use super::rules::Game;
use super::table::State;
use crate::games::census::{Cards, Tally, Watch, account, past_cap};
use crate::record::GameRecord;

/// The census of one game, taken after every answer (the engine runs the game with it).
pub(super) struct AnswerCensus {
    cap: u64,
    tally: Tally,
}

impl AnswerCensus {
    /// A census of a game with `max_replays` tied rounds replayed.
    pub(super) fn new(max_replays: u32) -> AnswerCensus {
        AnswerCensus { cap: (3 + max_replays as u64 + 1) * SLOTS as u64, tally: Tally::default() }
    }

    /// The steps checked, or the first card found out of place.
    pub(super) fn verdict(self) -> Result<u64, String> {
        self.tally.verdict()
    }
}

impl Watch<Game> for AnswerCensus {
    const ON: bool = true;

    fn step(&mut self, game: &Game, _: &GameRecord) -> bool {
        let st = &game.st;
        let expected = Cards::of((0..SEATS).flat_map(|s| st.pools.ids(s)));
        let outcome = past_cap(st.rounds as u64 * SLOTS as u64, self.cap, "slots")
            .and_then(|()| account("cards", &expected, &where_cards_are(st), 0, &|id| format!("#{id}")));
        let step = self.tally.steps;
        let name = || format!("round {}, turn {}, step {step}", st.rounds, st.turn);
        self.tally.checked(name, outcome)
    }
}

/// Every card of the game where the state keeps it.
fn where_cards_are(st: &State) -> Cards {
    let mut cards = Cards::default();
    for seat in 0..SEATS {
        cards.add(st.decks[seat].as_slice().iter().copied());
        cards.add(st.hands[seat].as_slice().iter().copied());
        cards.add(st.piles[seat].as_slice().iter().copied());
        let kept = st.kept[seat].as_slice();
        cards.add(st.pools.ids(seat).filter(|id| !kept.contains(id)));
    }
    cards.add(st.slots.iter().flatten().copied().filter(|&id| id != NONE));
    cards.add(st.under.iter().flatten().flat_map(|u| u.as_slice().iter().copied()));
    cards
}
