//! Every card accounted for: the census each game keeps of its own cards, step by step.
//!
//! A census plays a game exactly as `play` does, with a `Watch` plugged into the engine's own
//! game loop, and after every step (a battle, a round) counts where the cards are: those whose
//! identity the game keeps (in a stack, a hand, the pile, on a territory, burned) and those it keeps
//! only as a number (captured, killed, set aside). Runs plug in `Unwatched`, which compiles to
//! nothing, so the hot loop pays nothing for the check. The conformance test (`tests/games.rs`)
//! asks every registered game for its census.

use std::fmt::Write as _;

use crate::record::GameRecord;

/// Something that looks at a game of state `S` after every step of its game loop.
pub trait Watch<S: ?Sized> {
    /// False for `Unwatched`: the engine skips every call, and the code for it.
    const ON: bool;
    /// Looks at the game after one step. `false` stops the game at once (the watch found a fault
    /// and keeps its own account of it).
    fn step(&mut self, state: &S, rec: &GameRecord) -> bool;
}

/// The watch of a real run: sees nothing, costs nothing.
pub struct Unwatched;

impl<S: ?Sized> Watch<S> for Unwatched {
    const ON: bool = false;
    #[inline(always)]
    fn step(&mut self, _: &S, _: &GameRecord) -> bool {
        true
    }
}

/// A multiset of cards by one-byte code (each game has its own coding).
#[derive(Clone, PartialEq, Eq)]
pub struct Cards {
    count: [u32; 256],
    len: u64,
}

impl Default for Cards {
    fn default() -> Self {
        Cards { count: [0; 256], len: 0 }
    }
}

impl Cards {
    pub fn of(codes: impl IntoIterator<Item = u8>) -> Cards {
        let mut c = Cards::default();
        c.add(codes);
        c
    }

    pub fn add(&mut self, codes: impl IntoIterator<Item = u8>) {
        for code in codes {
            self.count[code as usize] += 1;
            self.len += 1;
        }
    }

    /// Adds every card of another multiset.
    pub fn add_all(&mut self, other: &Cards) {
        for (c, o) in self.count.iter_mut().zip(other.count) {
            *c += o;
        }
        self.len += other.len;
    }

    /// Adds `n` cards of one code.
    pub fn add_n(&mut self, code: u8, n: u32) {
        self.count[code as usize] += n;
        self.len += n as u64;
    }

    pub fn clear(&mut self) {
        *self = Cards::default();
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards of `self` that `other` lacks, named by `label`, e.g. `"K x2, 7"`.
    fn beyond(&self, other: &Cards, label: &dyn Fn(u8) -> String) -> String {
        let mut out = String::new();
        for code in 0..=255u8 {
            let over = self.count[code as usize].saturating_sub(other.count[code as usize]);
            if over > 0 {
                let sep = if out.is_empty() { "" } else { ", " };
                let times = if over > 1 { format!(" x{over}") } else { String::new() };
                let _ = write!(out, "{sep}{}{times}", label(code));
            }
        }
        out
    }
}

/// Checks one kind of card after a step: every card `seen` (kept by identity) must be one of
/// `expected` (no card made up or doubled), and `seen` plus the `counted` ones (kept only as a
/// number: captured, killed, set aside, not dealt) must be exactly as many as `expected` (no card
/// lost or gained). Returns the fault in words, naming the cards.
pub fn account(
    kind: &str,
    expected: &Cards,
    seen: &Cards,
    counted: u64,
    label: &dyn Fn(u8) -> String,
) -> Result<(), String> {
    let extra = seen.beyond(expected, label);
    if !extra.is_empty() {
        return Err(format!("{kind}: cards that are not in the game turned up: {extra}"));
    }
    let total = seen.len() + counted;
    if total == expected.len() {
        return Ok(());
    }
    let unseen = expected.beyond(seen, label);
    let (what, n) = if total < expected.len() {
        ("missing", expected.len() - total)
    } else {
        ("too many", total - expected.len())
    };
    Err(format!(
        "{kind}: {n} card(s) {what}: {} expected, {} seen + {counted} counted (captured, killed, set aside...); not seen: {}",
        expected.len(),
        seen.len(),
        if unseen.is_empty() { "none" } else { unseen.as_str() }
    ))
}

/// The bookkeeping every census shares: how many steps passed, the first fault, and the step cap.
#[derive(Debug, Default)]
pub struct Tally {
    pub steps: u64,
    pub fault: Option<String>,
}

impl Tally {
    /// Records the outcome of checking step `name`; returns whether the game may go on.
    pub fn checked(&mut self, name: impl FnOnce() -> String, outcome: Result<(), String>) -> bool {
        match outcome {
            Ok(()) => {
                self.steps += 1;
                true
            }
            Err(e) => {
                self.fault = Some(format!("{} (after {} correct steps): {e}", name(), self.steps));
                false
            }
        }
    }

    /// The census's answer: the steps checked, or the first fault.
    pub fn verdict(self) -> Result<u64, String> {
        match self.fault {
            Some(f) => Err(f),
            None => Ok(self.steps),
        }
    }
}

/// The fault of a game still going past its own cap.
pub fn past_cap(at: u64, cap: u64, unit: &str) -> Result<(), String> {
    if at > cap {
        Err(format!("still going after {at} {unit}, past the cap of {cap}: the game does not end"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(c: u8) -> String {
        format!("c{c}")
    }

    #[test]
    fn account_names_missing_extra_and_counted_cards() {
        let deck = Cards::of([1, 2, 2, 3]);
        assert_eq!(account("x", &deck, &Cards::of([2, 1, 3, 2]), 0, &label), Ok(()));
        assert_eq!(account("x", &deck, &Cards::of([2, 1]), 2, &label), Ok(()), "two counted");
        let e = account("x", &deck, &Cards::of([1, 2, 3]), 0, &label).unwrap_err();
        assert!(e.contains("1 card(s) missing") && e.ends_with("not seen: c2"), "{e}");
        let e = account("x", &deck, &Cards::of([1, 2, 2, 3, 3]), 0, &label).unwrap_err();
        assert!(e.contains("not in the game turned up: c3"), "{e}");
        let e = account("x", &deck, &Cards::of([1, 2, 2, 3]), 1, &label).unwrap_err();
        assert!(e.contains("1 card(s) too many"), "{e}");
        let e = account("x", &deck, &Cards::of([3]), 0, &label).unwrap_err();
        assert!(e.ends_with("not seen: c1, c2 x2"), "{e}");
    }

    #[test]
    fn tally_stops_at_the_first_fault_and_names_its_step() {
        let mut t = Tally::default();
        assert!(t.checked(|| "battle 1".into(), Ok(())));
        assert!(!t.checked(|| "battle 2".into(), past_cap(2, 1, "battles")));
        let e = t.verdict().unwrap_err();
        assert!(e.starts_with("battle 2 (after 1 correct steps): still going after 2 battles"), "{e}");
    }
}
