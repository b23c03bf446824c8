//! War's narrative for `warsim play`: the deal, every battle as the board plays it with the story
//! on, and the closing lines. The narrated game ends by itself; the one thing it takes from the
//! engine's run is where a deterministic game's cycle closes (Brent's detection plays past that
//! point), and it checks the repetition on its own board before it says so.

use super::engine::{WarEngine, WarScratch};
use super::rules::{Board, End};
use super::setup::{Jokers, Pickup};
use crate::games::Engine;
use crate::games::census::Unwatched;
use crate::games::narrate::{Narrator, Story, counters_line};
use crate::record::GameRecord;
use crate::seed::{GameRng, GameSeed};

impl WarEngine {
    /// Tells game `seed` into `out` and returns the record of the game told.
    pub(super) fn tell(&self, seed: GameSeed, out: &mut String) -> GameRecord {
        let cycle = self.cycle_of(seed);
        let mut sc = self.new_scratch();
        let mut rng = self.deal(seed, &mut sc);
        let mut rec = GameRecord::new(self.layout());
        let mut story = Story(out);
        self.describe_deal(&sc.board, &mut story);
        let end = self.tell_battles(&mut sc, &mut rng, &mut rec, cycle, &mut story);
        let battles = sc.board.battles;
        self.finish(end, battles, &mut rec);
        story.line(format_args!("{}", closing(end, battles)));
        story.line(format_args!("{}", counters_line(&self.layout().counters, &rec.counters)));
        rec
    }

    /// Where game `seed` closes a cycle, if it does: (battles, period), as the engine's run finds.
    fn cycle_of(&self, seed: GameSeed) -> Option<(u64, u64)> {
        if self.rules.pickup == Pickup::Shuffled {
            return None;
        }
        let mut sc = self.new_scratch();
        let mut rng = self.deal(seed, &mut sc);
        match self.run(&mut rng, &mut sc, &mut GameRecord::new(self.layout()), &mut Unwatched) {
            End::Cycle { period } => Some((sc.board.battles, period)),
            _ => None,
        }
    }

    /// Plays the battles with the story on until the game ends, the cap, or the cycle closes.
    fn tell_battles<N: Narrator>(
        &self,
        sc: &mut WarScratch,
        rng: &mut GameRng,
        rec: &mut GameRecord,
        cycle: Option<(u64, u64)>,
        narr: &mut N,
    ) -> End {
        loop {
            let done = sc.board.battles;
            if let Some((at, period)) = cycle {
                if done == at - period {
                    sc.saved.copy_from(&sc.board.table);
                }
                if done == at && sc.board.table.same_state(&sc.saved) {
                    return End::Cycle { period };
                }
            }
            if done >= self.rules.max_battles {
                return End::Capped;
            }
            if let Some(end) = sc.board.battle(&self.rules, rng, rec, narr) {
                return end;
            }
        }
    }

    fn describe_deal<N: Narrator>(&self, board: &Board, narr: &mut N) {
        let r = &self.rules;
        let removed =
            r.deck_size() + if r.jokers == Jokers::Equal { r.players } else { 0 } - board.table.total();
        narr.line(format_args!(
            "Deal: {} players, {} cards in play{}",
            r.players,
            board.table.total(),
            if removed > 0 {
                format!(" ({removed} could not be dealt evenly and are removed)")
            } else {
                String::new()
            }
        ));
        for s in 0..r.players {
            let cards: Vec<&str> = board.table.stack(s).map(|c| r.labels[c as usize].as_str()).collect();
            narr.line(format_args!("  P{s} (top first): {}", cards.join(" ")));
        }
    }
}

/// The line that says how the game ended.
fn closing(end: End, battles: u64) -> String {
    match end {
        End::Win(s) => format!("P{s} wins after {battles} battles."),
        End::Draw => format!("Draw after {battles} battles: nobody holds a card."),
        End::Cycle { period } => format!(
            "Cycle: the position after battle {battles} was already seen after battle {}; the game repeats every {period} battles and never ends.",
            battles - period
        ),
        End::Capped => format!("Capped: still going after {battles} battles."),
    }
}
