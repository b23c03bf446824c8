//! The setup of a game of War: its settings as a typed, validated rule set, and the deal.
//!
//! Cards in the engine are one byte, their *strength*: higher always wins, whatever `aces` and
//! `winner` say, because the relabelling is done once here (Peace inverts the order, Aces Low moves
//! the ace to the bottom). Suits never matter in War, so the engine does not carry them.

use crate::cards::{DeckShape, JOKER};
use crate::seed::{GameRng, shuffle};
use crate::settings::Settings;

/// Most players a game of War may have.
pub const MAX_PLAYERS: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jokers {
    None,
    Shared,
    Equal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pickup {
    Shuffled,
    WinnerFirst,
    LoserFirst,
    SeatOrder,
}

/// One seat's pinned cards in a stacked deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    pub seat: usize,
    pub ranks: Vec<u8>,
    /// `stack_only`: the seat gets its pinned cards and nothing else.
    pub only: bool,
}

#[derive(Clone, Debug)]
pub struct WarRules {
    pub players: usize,
    pub decks: usize,
    pub shape: DeckShape,
    pub jokers: Jokers,
    pub aces_low: bool,
    pub winner_low: bool,
    /// `None` = by value.
    pub war_down: Option<u32>,
    pub scope_tied: bool,
    pub last_ditch: bool,
    pub instant: bool,
    pub pickup: Pickup,
    pub battles_to_win: u32,
    pub max_battles: u64,
    pub pins: Vec<Pin>,
    /// Per strength: how many face-down cards a war step laid on a tie of it needs.
    pub lay: [u32; 32],
    /// Per strength: the card's rank label.
    pub labels: Vec<String>,
    /// The deck as strengths in a fixed order, pinned cards taken out (computed once).
    base_deck: Vec<u8>,
    /// Per seat: its pinned cards as strengths.
    pinned: Vec<Vec<u8>>,
    /// Per seat: how many cards it is dealt (before an equal joker).
    share: Vec<usize>,
}

impl WarRules {
    pub fn from_settings(s: &Settings) -> Result<Self, String> {
        let shape = DeckShape { ranks: s.int("ranks") as u8, suits: s.int("suits") as u8 };
        let jokers = match s.get("jokers") {
            "shared" => Jokers::Shared,
            "equal" => Jokers::Equal,
            _ => Jokers::None,
        };
        let pickup = match s.get("pickup") {
            "winner-first" => Pickup::WinnerFirst,
            "loser-first" => Pickup::LoserFirst,
            "seat-order" => Pickup::SeatOrder,
            _ => Pickup::Shuffled,
        };
        let war_down = match s.get("war_down") {
            "by-value" => None,
            n => Some(n.parse::<u32>().map_err(|_| format!("war_down '{n}' is not a number"))?),
        };
        let mut rules = WarRules {
            players: s.int("players") as usize,
            decks: s.int("decks") as usize,
            shape,
            jokers,
            aces_low: s.get("aces") == "low",
            winner_low: s.get("winner") == "low",
            war_down,
            scope_tied: s.get("war_scope") == "tied",
            last_ditch: s.get("short") == "last-ditch",
            instant: s.get("capture") == "instant",
            pickup,
            battles_to_win: s.int("battles_to_win") as u32,
            max_battles: s.int("max_battles") as u64,
            pins: Vec::new(),
            lay: [0; 32],
            labels: Vec::new(),
            base_deck: Vec::new(),
            pinned: Vec::new(),
            share: Vec::new(),
        };
        rules.finish_tables();
        rules.pins = rules.parse_pins(s.get("stack"), false)?;
        let only = rules.parse_pins(s.get("stack_only"), true)?;
        for p in only {
            if rules.pins.iter().any(|q| q.seat == p.seat) {
                return Err(format!("seat {} is pinned by both 'stack' and 'stack_only'", p.seat));
            }
            rules.pins.push(p);
        }
        rules.validate()?;
        (rules.base_deck, rules.pinned) = rules.deck_and_pins();
        rules.share = rules.shares();
        Ok(rules)
    }

    /// Strength of a rank index (or `JOKER`): higher always wins.
    pub fn strength(&self, rank: u8) -> u8 {
        let ranks = self.shape.ranks;
        let base = if rank == JOKER {
            ranks
        } else if self.aces_low {
            if rank == self.shape.ace() { 0 } else { rank + 1 }
        } else {
            rank
        };
        if self.winner_low { ranks - base } else { base }
    }

    /// Cards a war step lays face down after a tie of `rank` under `war_down = by-value`.
    fn by_value(&self, rank: u8) -> u32 {
        if rank == JOKER {
            12
        } else if rank == self.shape.ace() {
            if self.aces_low { 1 } else { 11 }
        } else {
            (rank as u32 + 2).min(10)
        }
    }

    fn finish_tables(&mut self) {
        let mut labels = vec![String::new(); self.shape.ranks as usize + 1];
        let ranks = (0..self.shape.ranks).chain(std::iter::once(JOKER));
        for rank in ranks {
            let st = self.strength(rank) as usize;
            labels[st] = self.shape.rank_label(rank);
            self.lay[st] = self.war_down.unwrap_or_else(|| self.by_value(rank));
        }
        self.labels = labels;
    }

    /// Parses `"0:A,A,A,A;1:K"` into pins.
    fn parse_pins(&self, text: &str, only: bool) -> Result<Vec<Pin>, String> {
        let key = if only { "stack_only" } else { "stack" };
        let mut pins = Vec::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty() && *p != "none") {
            let (seat, cards) = part
                .split_once(':')
                .ok_or_else(|| format!("{key}: '{part}' should look like SEAT:CARD,CARD (e.g. 0:A,A,A,A)"))?;
            let seat: usize = seat.trim().parse().ok().filter(|&s| s < self.players).ok_or_else(|| {
                format!("{key}: seat '{seat}' is not a seat from 0 to {}", self.players - 1)
            })?;
            let mut ranks = Vec::new();
            for label in cards.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                let rank = self.shape.parse_rank(label).ok_or_else(|| {
                    let all: Vec<String> = (0..self.shape.ranks).map(|r| self.shape.rank_label(r)).collect();
                    format!("{key}: '{label}' is not a card of this deck (ranks: {}, Joker)", all.join(" "))
                })?;
                ranks.push(rank);
            }
            if pins.iter().any(|p: &Pin| p.seat == seat) {
                return Err(format!("{key}: seat {seat} is named twice"));
            }
            pins.push(Pin { seat, ranks, only });
        }
        Ok(pins)
    }

    /// Cards in play before the deal (jokers included).
    pub fn deck_size(&self) -> usize {
        let shared = if self.jokers == Jokers::Shared { 2 } else { 0 };
        self.decks * (self.shape.cards_per_deck() + shared)
    }

    /// Every card of the game before the deal, as strengths: the decks (shared jokers included)
    /// and, under equal jokers, one joker per player. Built from the deck shape, independently of
    /// the deal's own tables, so that a census can check the deal against it.
    pub fn cards(&self) -> Vec<u8> {
        let shared = if self.jokers == Jokers::Shared { 2 } else { 0 };
        let mut all: Vec<u8> =
            self.shape.build(self.decks, shared).iter().map(|c| self.strength(c.rank)).collect();
        if self.jokers == Jokers::Equal {
            all.extend(std::iter::repeat_n(self.strength(JOKER), self.players));
        }
        all
    }

    /// Cards the players hold after the deal (undealt cards removed, equal jokers added).
    pub fn dealt_size(&self) -> usize {
        let mut per_seat = self.shares();
        if self.jokers == Jokers::Equal {
            per_seat.iter_mut().for_each(|n| *n += 1);
        }
        per_seat.iter().sum()
    }

    /// How many cards each seat is dealt (before equal jokers).
    pub fn shares(&self) -> Vec<usize> {
        let total = self.deck_size();
        let only: Vec<&Pin> = self.pins.iter().filter(|p| p.only).collect();
        let mut shares = vec![0; self.players];
        let pinned_only: usize = only.iter().map(|p| p.ranks.len()).sum();
        let sharing = self.players - only.len();
        let each = (total - pinned_only.min(total)).checked_div(sharing).unwrap_or(0);
        for (seat, share) in shares.iter_mut().enumerate() {
            *share = match only.iter().find(|p| p.seat == seat) {
                Some(p) => p.ranks.len(),
                None => each,
            };
        }
        shares
    }

    fn validate(&self) -> Result<(), String> {
        if self.jokers == Jokers::Equal && self.players > 2 * self.decks {
            return Err(format!(
                "jokers = equal gives every player one of the {} jokers of {} deck(s): at most {} players",
                2 * self.decks,
                self.decks,
                2 * self.decks
            ));
        }
        if self.deck_size() < self.players {
            return Err(format!(
                "{} cards cannot be dealt to {} players: raise ranks, suits or decks",
                self.deck_size(),
                self.players
            ));
        }
        // Every pinned card must exist, and a seat's pins must fit its share.
        let mut available = vec![0usize; self.shape.ranks as usize + 1];
        for r in 0..self.shape.ranks {
            available[r as usize] = self.decks * self.shape.suits as usize;
        }
        available[self.shape.ranks as usize] = if self.jokers == Jokers::Shared { 2 * self.decks } else { 0 };
        let shares = self.shares();
        for pin in &self.pins {
            if !pin.only && pin.ranks.len() > shares[pin.seat] {
                return Err(format!(
                    "stack: seat {} is pinned {} cards but is dealt only {}",
                    pin.seat,
                    pin.ranks.len(),
                    shares[pin.seat]
                ));
            }
            for &r in &pin.ranks {
                let slot = if r == JOKER { self.shape.ranks as usize } else { r as usize };
                if available[slot] == 0 {
                    return Err(format!(
                        "stack: more {} pinned than the deck holds",
                        self.shape.rank_label(r)
                    ));
                }
                available[slot] -= 1;
            }
        }
        if let Some(seat) = shares.iter().position(|&n| n == 0) {
            let why = if self.pins.iter().any(|p| p.only && p.seat == seat) {
                "stack_only pins no card to it"
            } else {
                "no card is left for it"
            };
            return Err(format!(
                "seat {seat} would start with no cards ({why}): every player needs at least one"
            ));
        }
        Ok(())
    }

    /// The deck as strengths, in a fixed order, with pinned cards taken out.
    /// Returns (the rest of the deck, per-seat pinned strengths).
    fn deck_and_pins(&self) -> (Vec<u8>, Vec<Vec<u8>>) {
        let jokers = if self.jokers == Jokers::Shared { 2 } else { 0 };
        let mut ranks: Vec<u8> = self.shape.build(self.decks, jokers).iter().map(|c| c.rank).collect();
        let mut pinned = vec![Vec::new(); self.players];
        for pin in &self.pins {
            for &r in &pin.ranks {
                let at = ranks.iter().position(|&x| x == r).expect("validated: pinned card exists");
                ranks.remove(at);
                pinned[pin.seat].push(self.strength(r));
            }
        }
        (ranks.iter().map(|&r| self.strength(r)).collect(), pinned)
    }

    /// The deck (pinned cards taken out) in `deck`, shuffled: the first use of `rng` in a game.
    pub fn shuffled_deck(&self, rng: &mut GameRng, deck: &mut Vec<u8>) {
        deck.clear();
        deck.extend_from_slice(&self.base_deck);
        shuffle(rng, deck);
    }

    /// With nothing pinned and no equal jokers every seat's share is the same, and `deal` gives
    /// card `i` of the shuffled deck to seat `i % players` until every seat holds its share (the
    /// rest is not dealt): then the number of cards dealt, which a caller may deal so itself,
    /// straight from `shuffled_deck`, without the hands. `None` for every other deal.
    pub fn round_robin(&self) -> Option<usize> {
        (self.pins.is_empty() && self.jokers != Jokers::Equal).then(|| self.share[0] * self.players)
    }

    /// Deals a fresh game into `hands` (cleared first). The deck shuffle is the first use of `rng`,
    /// so every scenario point with the same deck sees the same deal for the same game index.
    pub fn deal(&self, rng: &mut GameRng, deck: &mut Vec<u8>, hands: &mut [Vec<u8>]) {
        let (pinned, shares) = (&self.pinned, &self.share);
        self.shuffled_deck(rng, deck);
        for (seat, hand) in hands.iter_mut().enumerate().take(self.players) {
            hand.clear();
            hand.extend_from_slice(&pinned[seat]);
        }
        // Deal round-robin, skipping seats that already hold their share.
        let mut seat = 0;
        for &card in deck.iter() {
            let mut tries = 0;
            while hands[seat].len() >= shares[seat] && tries < self.players {
                seat = (seat + 1) % self.players;
                tries += 1;
            }
            if tries == self.players {
                break; // everyone is full: the rest is not dealt
            }
            hands[seat].push(card);
            seat = (seat + 1) % self.players;
        }
        for (seat, hand) in hands.iter_mut().enumerate().take(self.players) {
            let shuffle_needed = !pinned[seat].is_empty() || self.jokers == Jokers::Equal;
            if self.jokers == Jokers::Equal {
                hand.push(self.strength(JOKER));
            }
            if shuffle_needed {
                shuffle(rng, hand);
            }
        }
    }
}
