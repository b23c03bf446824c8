//! A pile of cards that never allocates: a deck, a hand, a discard pile, a battlefield. Games
//! play millions of rounds, and every pile of a game has a size no rule can exceed (a seat's
//! whole deck or pool), so each pile is a fixed array and a length, and copying a game state is a
//! plain copy. Card Wars' stacks and Cardwars' zones are this one type under their own names.

use std::fmt;

/// Up to `N` items in order (at most 255), the last being the top (of a deck: the next draw).
/// What lies in the array past the length is nobody's business: equality and `Debug` read the
/// items only.
#[derive(Clone, Copy)]
pub struct Pile<T: Copy + Default, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Pile<T, N> {
    fn default() -> Self {
        const { assert!(N <= u8::MAX as usize, "a pile's length is one byte") };
        Pile { len: 0, items: [T::default(); N] }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Pile<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Pile<T, N> {}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for Pile<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + Default, const N: usize> Pile<T, N> {
    /// A pile of `items` in order (the last on top). Panics on more than `N`.
    pub fn of(items: &[T]) -> Self {
        let mut pile = Pile::default();
        items.iter().for_each(|&t| pile.push(t));
        pile
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Puts `t` on top. Panics when the pile is full: no rule lets a pile outgrow its size.
    #[inline]
    pub fn push(&mut self, t: T) {
        self.items[self.len as usize] = t;
        self.len += 1;
    }

    /// Takes the top item (a deck's next draw), if any.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }

    /// Takes out item `i`, keeping the others in order. Panics past the length.
    #[inline]
    pub fn remove(&mut self, i: usize) -> T {
        let len = self.len as usize;
        assert!(i < len, "item {i} of a pile of {len}");
        let t = self.items[i];
        // Item by item rather than `copy_within`: a hand holds a few items, and the call to
        // memmove that `copy_within` makes cost more than moving them (Card Wars places a card
        // from its hand every turn).
        let above = &mut self.items[i..len];
        for j in 1..above.len() {
            above[j - 1] = above[j];
        }
        self.len -= 1;
        t
    }

    /// Item `i` (below the length: checked in debug builds only, as the hot loops read by index).
    #[inline]
    pub fn item(&self, i: usize) -> T {
        debug_assert!(i < self.len as usize, "item {i} of a pile of {}", self.len);
        self.items[i]
    }

    /// Keeps the items for which `keep(index, item)` holds, in order; `keep` sees every item
    /// once, in order (so it may collect the others).
    #[inline]
    pub fn keep(&mut self, mut keep: impl FnMut(usize, T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            let t = self.items[i];
            if keep(i, t) {
                self.items[kept] = t;
                kept += 1;
            }
        }
        self.len = kept as u8;
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Small = Pile<u8, 4>;

    #[test]
    fn push_pop_and_remove_keep_the_order() {
        let mut p = Small::of(&[1, 2, 3]);
        assert_eq!((p.len(), p.as_slice()), (3, &[1, 2, 3][..]));
        assert_eq!((p.item(0), p.item(2)), (1, 3));
        assert_eq!(p.remove(0), 1);
        assert_eq!(p.as_slice(), &[2, 3]);
        p.push(4);
        assert_eq!(p.pop(), Some(4));
        assert_eq!(p.pop(), Some(3));
        assert_eq!(p.remove(0), 2);
        assert!(p.is_empty());
        assert_eq!(p.pop(), None, "an empty pile gives nothing");
        assert!(p.is_empty(), "and stays empty");
    }

    #[test]
    fn remove_from_the_middle_closes_the_gap() {
        let mut p = Small::of(&[5, 6, 7, 8]);
        assert_eq!(p.remove(1), 6);
        assert_eq!(p.as_slice(), &[5, 7, 8]);
        assert_eq!(p.remove(2), 8);
        assert_eq!(p.as_slice(), &[5, 7]);
    }

    #[test]
    #[should_panic]
    fn remove_past_the_length_panics() {
        Small::of(&[1, 2]).remove(2);
    }

    #[test]
    #[should_panic]
    fn a_full_pile_refuses_one_more() {
        Small::of(&[1, 2, 3, 4]).push(5);
    }

    #[test]
    fn equality_and_debug_read_the_items_only() {
        let mut a = Small::of(&[1, 9]);
        a.pop();
        let b = Small::of(&[1]);
        assert_eq!(a, b, "the 9 left in the array past the length does not count");
        assert_ne!(a, Small::of(&[1, 9]));
        assert_ne!(Small::of(&[1, 2]), Small::of(&[2, 1]));
        assert_eq!(format!("{a:?}"), "[1]");
    }

    #[test]
    fn keep_filters_in_order_and_shows_every_item_once() {
        let mut p = Small::of(&[4, 5, 6, 7]);
        let mut seen = Vec::new();
        p.keep(|i, t| {
            seen.push((i, t));
            t % 2 == 0
        });
        assert_eq!(p.as_slice(), &[4, 6]);
        assert_eq!(seen, [(0, 4), (1, 5), (2, 6), (3, 7)]);
        p.keep(|_, _| false);
        assert!(p.is_empty());
    }

    #[test]
    fn clear_and_slices() {
        let mut p = Small::of(&[3, 1, 2]);
        p.as_mut_slice().sort_unstable();
        assert_eq!(p.as_slice(), &[1, 2, 3]);
        p.clear();
        assert_eq!((p.len(), p.as_slice()), (0, &[][..]));
        assert_eq!(Small::default(), p);
    }
}
