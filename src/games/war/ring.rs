//! Every player's stack as a ring buffer of one-byte card strengths: the whole state of a game of
//! War, and the only `unsafe` code of warsim.
//!
//! Why `unsafe`: these accessors are the innermost loop of every War game (two pops and two pushes
//! per plain battle), and dropping their bounds checks is worth several percent of War's
//! throughput. Why it is sound: seat `s` owns the `cap` bytes of `buf` from `s * cap` (`cap` a power
//! of two, `mask = cap - 1`), and `buf` has room for `MAX_PLAYERS` seats, so every index is
//! `s * cap + (offset & mask)` with `s < MAX_PLAYERS` (the checked indexing of `head` and `len`
//! by `s` panics otherwise), hence below `MAX_PLAYERS * cap = buf.len()` whatever the caller
//! passes. Only the first `n` seats are ever used. Each `unsafe` block below names the bound it
//! relies on; debug builds, and so the unit tests here, assert it as well.

use super::setup::MAX_PLAYERS;

/// Every player's stack (top first) and the battles each has won (only Short War uses them).
#[derive(Clone, Debug)]
pub struct Table {
    n: usize,
    mask: usize,
    buf: Vec<u8>,
    head: [usize; MAX_PLAYERS],
    len: [usize; MAX_PLAYERS],
    pub won: [u32; MAX_PLAYERS],
}

impl Table {
    /// A table for `players` seats, each with room for every one of `total_cards` cards.
    pub fn new(players: usize, total_cards: usize) -> Self {
        assert!((1..=MAX_PLAYERS).contains(&players), "{players} players");
        let cap = total_cards.next_power_of_two().max(2);
        Table {
            n: players,
            mask: cap - 1,
            buf: vec![0; cap * MAX_PLAYERS],
            head: [0; MAX_PLAYERS],
            len: [0; MAX_PLAYERS],
            won: [0; MAX_PLAYERS],
        }
    }

    pub fn players(&self) -> usize {
        self.n
    }

    #[inline(always)]
    fn base(&self, seat: usize) -> usize {
        seat * (self.mask + 1)
    }

    #[inline(always)]
    pub fn len(&self, seat: usize) -> usize {
        self.len[seat]
    }

    #[inline(always)]
    pub fn top(&self, seat: usize) -> u8 {
        let at = self.base(seat) + self.head[seat];
        debug_assert!(seat < self.n && at < self.buf.len());
        // SAFETY: `head[seat]` checked seat < MAX_PLAYERS and head <= mask, so at < buf.len().
        unsafe { *self.buf.get_unchecked(at) }
    }

    #[inline(always)]
    pub fn pop(&mut self, seat: usize) -> u8 {
        debug_assert!(self.len[seat] > 0);
        let c = self.top(seat);
        self.head[seat] = (self.head[seat] + 1) & self.mask;
        self.len[seat] -= 1;
        c
    }

    #[inline(always)]
    pub fn push(&mut self, seat: usize, card: u8) {
        debug_assert!(seat < self.n && self.len[seat] <= self.mask);
        let at = self.base(seat) + ((self.head[seat] + self.len[seat]) & self.mask);
        // SAFETY: `head[seat]` checked seat < MAX_PLAYERS and the offset is masked: at < buf.len().
        unsafe { *self.buf.get_unchecked_mut(at) = card };
        self.len[seat] += 1;
    }

    /// Pushes two cards with one update of the length: byte stores may alias the length in
    /// memory, so one update instead of two shortens the dependency chain of every battle.
    #[inline(always)]
    pub fn push2(&mut self, seat: usize, x: u8, y: u8) {
        debug_assert!(seat < self.n && self.len[seat] + 2 <= self.mask + 1);
        let (base, pos) = (self.base(seat), self.head[seat] + self.len[seat]);
        // SAFETY: `head[seat]` checked seat < MAX_PLAYERS and both offsets are masked, so both
        // indices are < buf.len().
        unsafe {
            *self.buf.get_unchecked_mut(base + (pos & self.mask)) = x;
            *self.buf.get_unchecked_mut(base + ((pos + 1) & self.mask)) = y;
        }
        self.len[seat] += 2;
    }

    /// Pushes cards in order under a seat's stack, updating the length once.
    #[inline(always)]
    pub fn push_slice(&mut self, seat: usize, cards: &[u8]) {
        debug_assert!(seat < self.n && self.len[seat] + cards.len() <= self.mask + 1);
        let (base, mask) = (self.base(seat), self.mask);
        let first = self.head[seat] + self.len[seat];
        for (pos, &c) in (first..).zip(cards) {
            // SAFETY: `head[seat]` checked seat < MAX_PLAYERS and the offset is masked: in bounds.
            unsafe { *self.buf.get_unchecked_mut(base + (pos & mask)) = c };
        }
        self.len[seat] += cards.len();
    }

    /// Pops `n` cards from the top of a seat's stack onto the end of `out`.
    #[inline(always)]
    pub fn pop_into(&mut self, seat: usize, n: usize, out: &mut Vec<u8>) {
        debug_assert!(seat < self.n && n <= self.len[seat]);
        let (base, mask) = (self.base(seat), self.mask);
        let mut pos = self.head[seat];
        for _ in 0..n {
            // SAFETY: `head[seat]` checked seat < MAX_PLAYERS and pos <= mask: in bounds.
            out.push(unsafe { *self.buf.get_unchecked(base + pos) });
            pos = (pos + 1) & mask;
        }
        self.head[seat] = pos;
        self.len[seat] -= n;
    }

    /// A seat's stack, top first.
    pub fn stack(&self, seat: usize) -> impl Iterator<Item = u8> + '_ {
        (0..self.len[seat]).map(move |i| self.buf[self.base(seat) + ((self.head[seat] + i) & self.mask)])
    }

    pub fn total(&self) -> usize {
        self.len[..self.n].iter().sum()
    }

    pub fn fill(&mut self, hands: &[Vec<u8>]) {
        for (seat, hand) in hands.iter().enumerate().take(self.n) {
            self.head[seat] = 0;
            self.len[seat] = 0;
            self.won[seat] = 0;
            for &c in hand {
                self.push(seat, c);
            }
        }
    }

    /// Empties every stack and deals `cards` round-robin: card `i` under seat `i % players`, so
    /// the same stacks as `fill` with hands dealt that way, written straight into place.
    pub fn deal_round_robin(&mut self, cards: &[u8]) {
        let (n, cap) = (self.n, self.mask + 1);
        assert!(cards.len() <= n * cap, "{} cards for {n} stacks of {cap}", cards.len());
        self.head = [0; MAX_PLAYERS];
        self.won = [0; MAX_PLAYERS];
        for (round, cards) in cards.chunks(n).enumerate() {
            for (seat, &c) in cards.iter().enumerate() {
                self.buf[seat * cap + round] = c;
            }
        }
        for seat in 0..MAX_PLAYERS {
            self.len[seat] = if seat < n { cards.len() / n + usize::from(seat < cards.len() % n) } else { 0 };
        }
    }

    /// Copies another table of the same game (only the seats in play: the rest is never used).
    pub fn copy_from(&mut self, other: &Table) {
        let used = self.n * (self.mask + 1);
        self.buf[..used].copy_from_slice(&other.buf[..used]);
        self.head = other.head;
        self.len = other.len;
        self.won = other.won;
    }

    /// Same game state: the same ranks in the same order in every stack, and the same battles won.
    /// Called after every battle of a deterministic game, so it rejects on the first stack's length
    /// before anything else (comparing short slices through `memcmp` cost more than the battle).
    #[inline]
    pub fn same_state(&self, other: &Table) -> bool {
        if self.len[0] != other.len[0] {
            return false;
        }
        for s in 1..self.n {
            if self.len[s] != other.len[s] {
                return false;
            }
        }
        for s in 0..self.n {
            if self.won[s] != other.won[s] {
                return false;
            }
        }
        (0..self.n).all(|s| {
            let (a, b) = (self.base(s), other.base(s));
            (0..self.len[s]).all(|i| {
                self.buf[a + ((self.head[s] + i) & self.mask)]
                    == other.buf[b + ((other.head[s] + i) & other.mask)]
            })
        })
    }

    /// Two seats' stacks opened for a run of plain battles: their heads and lengths are copied
    /// into locals, which the compiler keeps in registers, until `Duo::close` writes them back.
    #[inline(always)]
    pub fn duo(&mut self, a: usize, b: usize) -> Duo<'_> {
        assert!(a < self.n && b < self.n && a != b);
        let (base_a, base_b) = (self.base(a), self.base(b));
        let (ha, la, hb, lb) = (self.head[a], self.len[a], self.head[b], self.len[b]);
        Duo {
            buf: &mut self.buf,
            heads: &mut self.head,
            lens: &mut self.len,
            mask: self.mask,
            a,
            b,
            base_a,
            base_b,
            ha,
            la,
            hb,
            lb,
        }
    }
}

/// Two stacks of a table in the middle of a run of plain battles (`Table::duo`). Both seats are
/// checked below `n` when the duo is opened and every head stays masked, so each index below is
/// inside `buf` for the same reason as `Table`'s.
pub struct Duo<'a> {
    buf: &'a mut [u8],
    heads: &'a mut [usize; MAX_PLAYERS],
    lens: &'a mut [usize; MAX_PLAYERS],
    mask: usize,
    a: usize,
    b: usize,
    base_a: usize,
    base_b: usize,
    ha: usize,
    la: usize,
    hb: usize,
    lb: usize,
}

impl Duo<'_> {
    /// The top cards of the two stacks (both must hold one).
    #[inline(always)]
    pub fn tops(&self) -> (u8, u8) {
        debug_assert!(self.la > 0 && self.lb > 0);
        debug_assert!(self.base_a + self.ha < self.buf.len() && self.base_b + self.hb < self.buf.len());
        // SAFETY: a, b < n (checked in `Table::duo`) and both heads are masked, so both indices
        // are < n * cap <= buf.len().
        unsafe {
            (*self.buf.get_unchecked(self.base_a + self.ha), *self.buf.get_unchecked(self.base_b + self.hb))
        }
    }

    /// Takes the top card off both stacks.
    #[inline(always)]
    pub fn pop_both(&mut self) {
        self.ha = (self.ha + 1) & self.mask;
        self.hb = (self.hb + 1) & self.mask;
        self.la -= 1;
        self.lb -= 1;
    }

    /// Puts `x` then `y` under the first stack (`to_a`) or the second.
    #[inline(always)]
    pub fn push2(&mut self, to_a: bool, x: u8, y: u8) {
        let mask = self.mask;
        let (base, head, len) =
            if to_a { (self.base_a, self.ha, &mut self.la) } else { (self.base_b, self.hb, &mut self.lb) };
        let pos = head + *len;
        debug_assert!(*len + 2 <= mask + 1);
        // SAFETY: the seat < n (checked in `Table::duo`) and both offsets are masked, so both
        // indices are < n * cap <= buf.len().
        unsafe {
            *self.buf.get_unchecked_mut(base + (pos & mask)) = x;
            *self.buf.get_unchecked_mut(base + ((pos + 1) & mask)) = y;
        }
        *len += 2;
    }

    /// Whether either stack is empty.
    #[inline(always)]
    pub fn either_empty(&self) -> bool {
        self.la == 0 || self.lb == 0
    }

    /// Writes the heads and lengths back into the table.
    #[inline(always)]
    pub fn close(self) {
        (self.heads[self.a], self.lens[self.a]) = (self.ha, self.la);
        (self.heads[self.b], self.lens[self.b]) = (self.hb, self.lb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(stacks: &[&[u8]]) -> Table {
        let mut t = Table::new(stacks.len(), 8);
        t.fill(&stacks.iter().map(|s| s.to_vec()).collect::<Vec<_>>());
        t
    }

    fn stack(t: &Table, seat: usize) -> Vec<u8> {
        t.stack(seat).collect()
    }

    #[test]
    fn pops_from_the_top_and_pushes_under_across_the_wrap() {
        let mut t = table(&[&[1, 2, 3], &[9]]);
        assert_eq!((t.top(0), t.len(0), t.total()), (1, 3, 4));
        // Capacity 8: twelve pops and pushes take the head around the ring more than once.
        for _ in 0..12 {
            let c = t.pop(0);
            t.push(0, c);
        }
        assert_eq!(stack(&t, 0), vec![1, 2, 3]);
        t.push2(0, 4, 5);
        t.push_slice(0, &[6, 7, 8]);
        assert_eq!(stack(&t, 0), vec![1, 2, 3, 4, 5, 6, 7, 8], "a full stack fills its whole ring");
        let mut out = vec![0];
        t.pop_into(0, 7, &mut out);
        assert_eq!(out, vec![0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!((stack(&t, 0), stack(&t, 1)), (vec![8], vec![9]), "the other seat is untouched");
    }

    #[test]
    fn a_round_robin_deal_fills_the_stacks_as_hands_dealt_in_turn() {
        let mut t = table(&[&[9, 9, 9], &[9], &[9, 9]]);
        t.pop(0);
        t.won[1] = 4;
        t.deal_round_robin(&[1, 2, 3, 4, 5, 6, 7]);
        let mut u = table(&[&[1, 4, 7], &[2, 5], &[3, 6]]);
        assert!(t.same_state(&u));
        assert_eq!((stack(&t, 0), stack(&t, 1), stack(&t, 2)), (vec![1, 4, 7], vec![2, 5], vec![3, 6]));
        // Capacity 8 a stack: 24 cards fill all three rings.
        let cards: Vec<u8> = (0..24).collect();
        t.deal_round_robin(&cards);
        u.fill(&[
            (0..8).map(|i| 3 * i).collect(),
            (0..8).map(|i| 3 * i + 1).collect(),
            (0..8).map(|i| 3 * i + 2).collect(),
        ]);
        assert!(t.same_state(&u));
        assert_eq!(t.total(), 24);
    }

    #[test]
    fn duo_plays_on_registers_and_writes_back() {
        let mut t = table(&[&[7, 1], &[], &[3, 4]]);
        let mut d = t.duo(0, 2);
        assert_eq!(d.tops(), (7, 3));
        d.pop_both();
        d.push2(true, 3, 7);
        assert!(!d.either_empty());
        assert_eq!(d.tops(), (1, 4));
        d.pop_both();
        d.push2(false, 1, 4);
        assert!(!d.either_empty());
        d.close();
        assert_eq!((stack(&t, 0), stack(&t, 1), stack(&t, 2)), (vec![3, 7], vec![], vec![1, 4]));
        // Around the ring: 2,1 against 1,2 repeats every two exchanges, so eight exchanges never
        // empty a stack and carry both heads past the end of capacity-8 stacks and back.
        let mut t = table(&[&[2, 1], &[1, 2]]);
        let mut d = t.duo(0, 1);
        for _ in 0..8 {
            assert!(!d.either_empty());
            let (x, y) = d.tops();
            d.pop_both();
            d.push2(x > y, x, y);
        }
        d.close();
        assert_eq!((stack(&t, 0), stack(&t, 1)), (vec![2, 1], vec![1, 2]));
    }

    #[test]
    fn same_state_compares_cards_in_order_and_battles_won() {
        let a = table(&[&[1, 2], &[3]]);
        let mut b = table(&[&[5, 1, 2], &[3]]);
        assert!(!a.same_state(&b));
        b.pop(0);
        assert!(a.same_state(&b), "the same stacks at different ring offsets");
        b.won[1] = 1;
        assert!(!a.same_state(&b));
        let mut c = a.clone();
        c.copy_from(&b);
        assert!(c.same_state(&b));
    }

    #[test]
    #[should_panic]
    fn a_duo_of_a_seat_beyond_the_table_is_refused() {
        let mut t = table(&[&[1], &[2]]);
        t.duo(0, 2);
    }
}
