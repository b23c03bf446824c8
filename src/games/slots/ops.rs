//! What the rules of Card Wars tell as they play, as typed values: each operation an ability
//! applies (`Op`), and each step of a game a story may tell (`Told`). The resolver and the round
//! emit these to a `Teller`; `narrate`, on top, turns them into text, so the rules never format a
//! line (and a run, whose teller is silent, never builds one).

use super::cardset::{Cmp, DiscardPick, Sign};
use super::table::{State, Taken};

/// What an applied ability does, card by card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Modify {
        target: u8,
        amount: i16,
        while_source: bool,
    },
    Set {
        target: u8,
        to: i16,
        while_source: bool,
    },
    Counter {
        target: u8,
        amount: i16,
    },
    Clear {
        target: u8,
        sign: Sign,
    },
    Destroy {
        target: u8,
    },
    Return {
        target: u8,
    },
    Swap {
        a: u8,
        b: u8,
    },
    Reveal {
        target: u8,
    },
    Hide {
        target: u8,
    },
    /// `seats`: one bit per seat.
    Draw {
        seats: u8,
        n: u8,
    },
    Discard {
        seats: u8,
        n: u8,
        pick: DiscardPick,
    },
    Points {
        seats: u8,
        amount: i16,
    },
    /// This round, the lower card takes slot `slot` (0-based).
    LowerWins {
        slot: u8,
    },
    /// This round, a tie in slot `slot` (0-based) goes to `seat`.
    WinTies {
        slot: u8,
        seat: u8,
    },
    Multiply {
        target: u8,
        by: i16,
        while_source: bool,
    },
    /// The seats put a hand card onto their side of slot `slot` (0-based), face up if `up`.
    Place {
        seats: u8,
        slot: u8,
        pick: DiscardPick,
        up: bool,
    },
    /// The card goes onto its side of slot `slot` (0-based).
    Move {
        target: u8,
        slot: u8,
    },
    /// The seats look at the top of their deck; a printed value matching `bottom` goes under.
    Look {
        seats: u8,
        bottom: Cmp,
    },
    /// The seats take `n` cards from their pile into their hand.
    Recover {
        seats: u8,
        n: u8,
        pick: DiscardPick,
    },
    Shuffle {
        seats: u8,
    },
}

/// A step of a game as the rules tell it; the table it is read against comes with it.
#[derive(Clone, Copy, Debug)]
pub enum Told<'a> {
    /// A turn's two cards went down into slot `0` (0-based).
    Placed(usize),
    /// The turn's cards in slot `0` turned face up.
    Revealed(usize),
    /// An instance resolved (or fizzled): its source and each operation applied.
    Resolved { source: u8, fizzled: bool, ops: &'a [Op] },
    /// An instance whose source was hidden or removed before its batch.
    Lost(u8),
    /// A batch is over: the values on the table now.
    Values,
    /// Events dropped at the cascade limit.
    CascadeCut(usize),
    /// A round began: its decks and first hands.
    Round,
    /// Slot `0` scored, taken by `1`.
    Scored(usize, Taken),
    /// The round ended: its winner, or a tie.
    RoundResult(Option<usize>),
}

/// Who listens to a game as it is played. `ON` is false for a run: every `tell` is then skipped
/// at compile time.
pub trait Teller {
    const ON: bool;
    fn tell(&mut self, st: &State, what: Told);
}
