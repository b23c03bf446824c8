//! The table as one seat knows it (`Observation::view`): the whole game state with everything the
//! seat may not see masked, so that a player can play the rules forward on it (`reader` tries its
//! hand cards, `search` fills the masked cards in at random) without ever reading a hidden card.
//!
//! Hidden from a seat: its own deck's order, and the opponent's cards at places it cannot see (the
//! hand, except cards it saw turned up and then returned; the deck; face-down cards it never saw
//! face up this round; the sideboard). Those cards keep no identity: their ids are relabelled in a
//! canonical order (the ids never seen, ascending, dealt to the face-down places in slot order,
//! then the hand, the deck and the sideboard), and their printed values and designs are blanked
//! (`UNKNOWN`). What lies on them publicly (counters, modifiers) stays with their places. Two
//! states that differ only in what the seat may not see give equal views.

use super::card::{CARDS, NONE, POOL, SEATS, Stack, TEXTLESS, owner};
use super::table::State;

/// The printed value of a masked card.
pub const UNKNOWN: u8 = 0;

impl State {
    /// Writes into `out` the state as `seat` knows it (see the module's doc).
    pub fn view_for(&self, seat: usize, out: &mut State) {
        out.clone_from(self);
        out.decks[seat].as_mut_slice().sort_unstable();
        let opp = 1 - seat;
        let known = self.known_to(seat);
        let hidden = |id: u8| known >> id & 1 == 0;
        // The hidden cards by where they lie, in the canonical order of places.
        let mut places = Stack::default();
        let under = self.under.iter().flatten().flat_map(|u| u.as_slice().iter().copied());
        for id in self.slots.iter().flatten().copied().chain(under) {
            if id != NONE && hidden(id) {
                places.push(id);
            }
        }
        for &id in self.hands[opp].as_slice().iter().chain(self.decks[opp].as_slice()) {
            if hidden(id) {
                places.push(id);
            }
        }
        let kept = self.kept[opp].as_slice();
        for id in self.pools.ids(opp).filter(|&id| hidden(id) && !kept.contains(&id)) {
            places.push(id);
        }
        // The hidden ids, ascending, take those places in turn.
        let mut map = [NONE; CARDS];
        for (m, id) in map.iter_mut().zip(0..CARDS as u8) {
            *m = id;
        }
        let mut fresh = self.pools.ids(opp).filter(|&id| hidden(id));
        for &old in places.as_slice() {
            map[old as usize] = fresh.next().expect("as many hidden ids as hidden places");
        }
        out.relabel(self, &map);
        for id in self.pools.ids(opp).filter(|&id| hidden(id)) {
            out.pools.printed[id as usize] = UNKNOWN;
            out.pools.design[id as usize] = TEXTLESS;
            for armed in &mut out.armed {
                *armed &= !(1 << id);
            }
        }
        out.kept[opp].as_mut_slice().sort_unstable();
    }

    /// The cards whose identity `seat` knows, one bit each: its own pool, and of the opponent's
    /// every card face up on the table, in a pile, or face up earlier this round and still on the
    /// table or back in hand.
    pub fn known_to(&self, seat: usize) -> u64 {
        let opp = 1 - seat;
        let mut known = 0u64;
        for id in self.pools.ids(seat) {
            known |= 1 << id;
        }
        for pile in &self.piles {
            pile.as_slice().iter().for_each(|&id| known |= 1 << id);
        }
        let under = self.under.iter().flatten().flat_map(|u| u.as_slice().iter().copied());
        for id in self.slots.iter().flatten().copied().chain(under) {
            if id != NONE && owner(id) == opp && (self.is_face_up(id) || self.was_up >> id & 1 == 1) {
                known |= 1 << id;
            }
        }
        for &id in self.hands[opp].as_slice() {
            known |= (self.was_up >> id & 1) << id;
        }
        known
    }

    /// Copies `from` into `self` with every card id `old` renamed `map[old]` (a permutation).
    fn relabel(&mut self, from: &State, map: &[u8; CARDS]) {
        let m = |id: u8| if id == NONE { NONE } else { map[id as usize] };
        let bits = |mask: u64| {
            let mut out = 0u64;
            let mut rest = mask;
            while rest != 0 {
                let id = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out |= 1 << map[id];
            }
            out
        };
        for (old, &new) in map.iter().enumerate() {
            let new = new as usize;
            self.pools.printed[new] = from.pools.printed[old];
            self.pools.design[new] = from.pools.design[old];
            self.pos[new] = from.pos[old];
            self.counters[new] = from.counters[old];
        }
        for (row, from_row) in self.slots.iter_mut().zip(&from.slots) {
            for (id, &f) in row.iter_mut().zip(from_row) {
                *id = m(f);
            }
        }
        for (row, from_row) in self.under.iter_mut().zip(&from.under) {
            for (u, f) in row.iter_mut().zip(from_row) {
                for (id, &old) in u.as_mut_slice().iter_mut().zip(f.as_slice()) {
                    *id = m(old);
                }
            }
        }
        for t in &mut self.timed {
            t.target = m(t.target);
            t.source = m(t.source);
        }
        for (armed, &f) in self.armed.iter_mut().zip(&from.armed) {
            *armed = bits(f);
        }
        self.face_up = bits(from.face_up);
        self.was_up = bits(from.was_up);
        self.placed = bits(from.placed);
        for s in 0..SEATS {
            for stacks in [&mut self.kept, &mut self.decks, &mut self.hands, &mut self.piles] {
                stacks[s].as_mut_slice().iter_mut().for_each(|id| *id = m(*id));
            }
        }
        debug_assert!(self.pools.size.iter().all(|&n| n as usize <= POOL));
    }
}
