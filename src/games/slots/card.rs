//! The bottom of Card Wars: the sizes of the game and the pure facts about a card id that every
//! other file reads. Nothing here imports another file of the game (`mod.rs` lists the layers).
//!
//! A card of a game is a one-byte id, `seat * POOL + place`: the seat that owns it and its place
//! in the pool.

use crate::pile::Pile;

/// Players: Card Wars is a two-player game.
pub const SEATS: usize = 2;
/// Slots on the table, one per turn.
pub const SLOTS: usize = 9;
/// Cards in a pool.
pub const POOL: usize = 30;
/// Cards in a deck.
pub const DECK: usize = 21;
/// Cards drawn at the start of a round.
pub const FIRST_HAND: usize = 5;
/// Card ids of a game: one pool per seat.
pub const CARDS: usize = SEATS * POOL;
/// No card (an empty place).
pub const NONE: u8 = u8::MAX;
/// The design of a card without text.
pub const TEXTLESS: u16 = u16::MAX;
/// Rounds a player must win.
pub const ROUNDS_TO_WIN: u8 = 2;
/// The highest printed value.
pub const MAX_VALUE: u8 = 9;

/// Most cards one place of a slot may hold (its top card and the cards stacked under it): an
/// effect that would add one more does nothing (`place_refused`). Small and fixed, so a place is
/// a fixed array and reading a stack never allocates.
pub const MAX_STACK: usize = 4;

/// The cards under the top card of a place, bottom first.
pub type Under = Pile<u8, { MAX_STACK - 1 }>;

/// A few card ids in order (a deck, whose top is the end; a hand; a pile): fixed size, no
/// allocation, `Copy`.
pub type Stack = Pile<u8, POOL>;

/// The seat that owns card `id`.
#[inline]
pub fn owner(id: u8) -> usize {
    id as usize / POOL
}
