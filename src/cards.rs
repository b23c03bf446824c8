//! Cards as every game of the family sees them: a rank index, a suit, and deck builders.
//!
//! Ranks are indices from 0 (the lowest, "2" in a standard deck) upwards; what a rank is worth is
//! each game's business (War compares, Greater Spoils counts, Territorial Warfare scores). The deck
//! shape (ranks x suits, number of decks, jokers) is shared by every game that uses French-suited
//! cards, so it lives here once. A `Pack` names a family of decks with its own labels and colours
//! (the standard French pack, and the 14-rank Draconian pack of Scourge War with its Guardian).

use std::fmt;

/// Rank index used for a joker in any deck built here.
pub const JOKER: u8 = u8::MAX;

/// One physical card. Suits are indices into the game's suit list (standard: S, H, D, C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub rank: u8,
    pub suit: u8,
}

impl Card {
    pub const fn new(rank: u8, suit: u8) -> Self {
        Card { rank, suit }
    }

    pub const fn joker(n: u8) -> Self {
        Card { rank: JOKER, suit: n }
    }

    pub fn is_joker(&self) -> bool {
        self.rank == JOKER
    }

    /// The face of a card of the standard 13-rank deck counted the way adding games count it:
    /// ace 1, 2-10 their value, then J 11, Q 12, K 13 (Territorial Warfare scores 1-10 and treats
    /// 11-13 as royals).
    pub fn face_value(&self) -> u8 {
        debug_assert!(!self.is_joker() && self.rank < 13);
        if self.rank == 12 { 1 } else { self.rank + 2 }
    }
}

/// Shape of one deck: `ranks` ranks (the top one is the ace) times `suits` suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeckShape {
    pub ranks: u8,
    pub suits: u8,
}

impl DeckShape {
    pub const STANDARD: DeckShape = DeckShape { ranks: 13, suits: 4 };
    /// The Draconian deck: 14 ranks (a Guardian between Jack and Queen) in 4 suits.
    pub const DRACONIAN: DeckShape = DeckShape { ranks: 14, suits: 4 };

    pub fn cards_per_deck(&self) -> usize {
        self.ranks as usize * self.suits as usize
    }

    /// Index of the ace (the top rank).
    pub fn ace(&self) -> u8 {
        self.ranks - 1
    }

    /// `decks` copies of the deck, each with `jokers_per_deck` jokers, in a fixed order
    /// (deck by deck, suit by suit, rank by rank, jokers last) so that a seeded shuffle of it is
    /// reproducible.
    pub fn build(&self, decks: usize, jokers_per_deck: usize) -> Vec<Card> {
        let mut cards = Vec::with_capacity(decks * (self.cards_per_deck() + jokers_per_deck));
        for _ in 0..decks {
            for suit in 0..self.suits {
                for rank in 0..self.ranks {
                    cards.push(Card::new(rank, suit));
                }
            }
        }
        for j in 0..decks * jokers_per_deck {
            cards.push(Card::joker(j as u8));
        }
        cards
    }

    /// Label of a rank in this shape: "2".."10", "J", "Q", "K" from the bottom, the top rank "A";
    /// ranks beyond the standard thirteen are "R14", "R15", ... below the ace.
    pub fn rank_label(&self, rank: u8) -> String {
        const LOW: [&str; 12] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
        if rank == JOKER {
            "Joker".to_string()
        } else if rank == self.ace() {
            "A".to_string()
        } else if (rank as usize) < LOW.len() {
            LOW[rank as usize].to_string()
        } else {
            format!("R{}", rank as u32 + 2)
        }
    }

    /// Parses a rank label of this shape (case-insensitive; "JOKER" or "X" for a joker).
    pub fn parse_rank(&self, label: &str) -> Option<u8> {
        let up = label.trim().to_ascii_uppercase();
        if up == "JOKER" || up == "X" {
            return Some(JOKER);
        }
        (0..self.ranks).find(|&r| self.rank_label(r).eq_ignore_ascii_case(&up))
    }
}

/// Standard suit letters; suits beyond four are numbered.
pub fn suit_label(suit: u8) -> String {
    const SUITS: [&str; 4] = ["S", "H", "D", "C"];
    SUITS.get(suit as usize).map_or_else(|| format!("#{}", suit + 1), |s| s.to_string())
}

/// The two colours of a pack's suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Red,
    Black,
}

/// A family of decks: its shape, how its ranks and suits are written, which suits are red and
/// which ranks are courts. Rank indices follow `DeckShape` (0 is the "2", the top rank the ace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pack {
    /// 52 cards: 2-10, J, Q, K, A in spades, hearts, diamonds, clubs.
    Standard,
    /// 56 cards: 2-10, J, G (Guardian), Q, K, A in Hoards, Hearts (red), Scales, Claws (black).
    Draconian,
}

impl Pack {
    pub fn shape(self) -> DeckShape {
        match self {
            Pack::Standard => DeckShape::STANDARD,
            Pack::Draconian => DeckShape::DRACONIAN,
        }
    }

    /// Rank labels, lowest first.
    pub fn rank_labels(self) -> &'static [&'static str] {
        match self {
            Pack::Standard => &["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
            Pack::Draconian => &["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "G", "Q", "K", "A"],
        }
    }

    /// Short suit labels, in suit-index order.
    pub fn suit_labels(self) -> &'static [&'static str; 4] {
        match self {
            Pack::Standard => &["S", "H", "D", "C"],
            Pack::Draconian => &["Ho", "He", "Sc", "Cl"],
        }
    }

    /// Suit names, in suit-index order.
    pub fn suit_names(self) -> &'static [&'static str; 4] {
        match self {
            Pack::Standard => &["Spades", "Hearts", "Diamonds", "Clubs"],
            Pack::Draconian => &["Hoards", "Hearts", "Scales", "Claws"],
        }
    }

    pub fn colour(self, suit: u8) -> Colour {
        match (self, suit) {
            (Pack::Standard, 1 | 2) | (Pack::Draconian, 0 | 1) => Colour::Red,
            _ => Colour::Black,
        }
    }

    /// The court ranks (Jack up to King), lowest first.
    pub fn courts(self) -> std::ops::RangeInclusive<u8> {
        let ace = self.shape().ace();
        9..=ace - 1
    }

    pub fn is_court(self, rank: u8) -> bool {
        self.courts().contains(&rank)
    }

    /// A card's label, e.g. "GHo" (Guardian of Hoards) or "10S".
    pub fn label(self, card: Card) -> String {
        format!("{}{}", self.rank_labels()[card.rank as usize], self.suit_labels()[card.suit as usize])
    }

    /// Parses a label written as `label` writes it (case-insensitive).
    pub fn parse(self, text: &str) -> Option<Card> {
        let t = text.trim();
        self.suit_labels().iter().enumerate().find_map(|(suit, s)| {
            let cut = t.len().checked_sub(s.len())?;
            let (rank, tail) = (t.get(..cut)?, t.get(cut..)?);
            if !tail.eq_ignore_ascii_case(s) {
                return None;
            }
            let r = self.rank_labels().iter().position(|l| l.eq_ignore_ascii_case(rank))?;
            Some(Card::new(r as u8, suit as u8))
        })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            write!(f, "Joker")
        } else {
            let label = DeckShape { ranks: 13.max(self.rank + 1), suits: 4 }.rank_label(self.rank);
            write!(f, "{}{}", label, suit_label(self.suit))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_deck_has_52_distinct_cards_and_jokers_on_request() {
        let deck = DeckShape::STANDARD.build(1, 0);
        assert_eq!(deck.len(), 52);
        let mut sorted = deck.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 52);
        let two = DeckShape::STANDARD.build(2, 2);
        assert_eq!(two.len(), 108);
        assert_eq!(two.iter().filter(|c| c.is_joker()).count(), 4);
    }

    #[test]
    fn face_values_count_ace_one_and_royals_above_ten() {
        let faces: Vec<u8> = (0..13).map(|r| Card::new(r, 0).face_value()).collect();
        assert_eq!(faces, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1]);
    }

    #[test]
    fn rank_labels_round_trip() {
        let s = DeckShape::STANDARD;
        let labels: Vec<String> = (0..13).map(|r| s.rank_label(r)).collect();
        assert_eq!(labels.join(" "), "2 3 4 5 6 7 8 9 10 J Q K A");
        for r in 0..13 {
            assert_eq!(s.parse_rank(&s.rank_label(r)), Some(r));
        }
        assert_eq!(s.parse_rank("joker"), Some(JOKER));
        assert_eq!(s.parse_rank("Z"), None);
        let small = DeckShape { ranks: 5, suits: 1 };
        assert_eq!(small.rank_label(4), "A");
        assert_eq!(small.rank_label(3), "5");
    }

    #[test]
    fn draconian_pack_has_the_guardian_between_jack_and_queen() {
        let p = Pack::Draconian;
        assert_eq!(p.rank_labels().join(" "), "2 3 4 5 6 7 8 9 10 J G Q K A");
        assert_eq!(p.shape().build(1, 0).len(), 56);
        assert_eq!(p.courts().map(|r| p.rank_labels()[r as usize]).collect::<Vec<_>>(), ["J", "G", "Q", "K"]);
        assert_eq!(Pack::Standard.courts().count(), 3);
        let reds: Vec<u8> = (0..4).filter(|&s| p.colour(s) == Colour::Red).collect();
        assert_eq!(reds, [0, 1]);
        let reds: Vec<u8> = (0..4).filter(|&s| Pack::Standard.colour(s) == Colour::Red).collect();
        assert_eq!(reds, [1, 2]);
        for pack in [Pack::Standard, Pack::Draconian] {
            for c in pack.shape().build(1, 0) {
                assert_eq!(pack.parse(&pack.label(c)), Some(c));
            }
        }
        assert_eq!(p.parse("gsc"), Some(Card::new(10, 2)));
        assert_eq!(p.parse("GX"), None);
    }
}
