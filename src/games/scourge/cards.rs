//! Scourge War's two decks as one-byte codes: the Units deck (every numeral and all but one set of
//! courts) and the Legends deck (one set of courts plus the White and the Black Ancient).
//!
//! Codes keep the hot loop free of lookups: a Unit's value is `code >> 2` and its suit `code & 3`;
//! a Legend is a court coded like a Unit, or one of two Ancient codes above every court.

use crate::cards::{Card, Colour, Pack};

/// A Unit card: `rank << 2 | suit`, rank 0 being the "2" and the top rank the ace.
pub type Unit = u8;
/// A Legend card: a court coded like a Unit, or `WHITE_ANCIENT` / `BLACK_ANCIENT`.
pub type Legend = u8;

pub const WHITE_ANCIENT: Legend = 0xFE;
/// The Wyrm of Chaos: turned up at a Scorched Earth, it ends the game with no winner.
pub const BLACK_ANCIENT: Legend = 0xFF;

pub const fn unit(rank: u8, suit: u8) -> Unit {
    (rank << 2) | suit
}

#[inline(always)]
pub fn value(u: Unit) -> u8 {
    u >> 2
}

#[inline(always)]
pub fn suit(u: Unit) -> u8 {
    u & 3
}

/// A Legend's strength: courts by rank (J < G < Q < K), both Ancients above them and equal.
#[inline(always)]
pub fn strength(l: Legend) -> u8 {
    if l >= WHITE_ANCIENT { u8::MAX } else { value(l) }
}

/// The decks of one scenario point: which pack and how many decks.
#[derive(Clone, Debug)]
pub struct Decks {
    pub pack: Pack,
    pub decks: usize,
    /// Colour per suit index (0 red, 1 black), so classification needs no match.
    colour: [u8; 4],
}

impl Decks {
    pub fn new(pack: Pack, decks: usize) -> Self {
        let colour = [0, 1, 2, 3].map(|s| (pack.colour(s) == Colour::Black) as u8);
        Decks { pack, decks, colour }
    }

    #[inline(always)]
    pub fn colour(&self, u: Unit) -> u8 {
        self.colour[suit(u) as usize]
    }

    /// The Units deck in a fixed order: every card of every deck except the courts of deck 0,
    /// which form the Legends deck (96 / 152 / 208 Draconian, 92 / 144 / 196 standard).
    pub fn units(&self) -> Vec<Unit> {
        let shape = self.pack.shape();
        let mut out = Vec::with_capacity(self.decks * shape.cards_per_deck());
        for d in 0..self.decks {
            for s in 0..shape.suits {
                for r in 0..shape.ranks {
                    if d > 0 || !self.pack.is_court(r) {
                        out.push(unit(r, s));
                    }
                }
            }
        }
        out
    }

    /// The Legends deck in a fixed order: one deck's courts, then the White and the Black Ancient
    /// (18 Draconian, 14 standard where the two jokers play the Ancients).
    pub fn legends(&self) -> Vec<Legend> {
        let mut out: Vec<Legend> = (0..4).flat_map(|s| self.pack.courts().map(move |r| unit(r, s))).collect();
        out.extend([WHITE_ANCIENT, BLACK_ANCIENT]);
        out
    }

    pub fn unit_label(&self, u: Unit) -> String {
        self.pack.label(Card::new(value(u), suit(u)))
    }

    pub fn legend_label(&self, l: Legend) -> String {
        match l {
            WHITE_ANCIENT => "White Ancient".into(),
            BLACK_ANCIENT => "Black Ancient (Wyrm of Chaos)".into(),
            _ => self.unit_label(l),
        }
    }

    /// Parses a Unit label such as "7He" or "GSc" (tests and hand-set positions).
    pub fn parse_unit(&self, text: &str) -> Option<Unit> {
        self.pack.parse(text).map(|c| unit(c.rank, c.suit))
    }

    /// Parses a Legend label: a court ("KCl"), "white" or "black".
    pub fn parse_legend(&self, text: &str) -> Option<Legend> {
        match text.trim().to_ascii_lowercase().as_str() {
            "white" => Some(WHITE_ANCIENT),
            "black" | "wyrm" => Some(BLACK_ANCIENT),
            _ => self.parse_unit(text).filter(|&u| self.pack.is_court(value(u))),
        }
    }
}
