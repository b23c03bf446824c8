//! How an event deals its players' pools (setting `deal`, `docs/rules/slots.md`, "The event").
//!
//! A pool is 30 cards: 3 rares, 9 uncommons and 18 commons, kept by its player for the whole
//! event. Three dealings:
//!
//! - `piles` (the rules text, "Making a Deck"): every design is printed once if rare or uncommon and
//!   twice if common; each rarity's printed cards form a pile, shuffled and dealt without
//!   replacement, 3 rares, 9 uncommons and 18 commons to each player, player 0 first. Cards left in a
//!   pile are not dealt. A set whose pile of a rarity holds fewer cards than the players need is
//!   refused when the point is built (the message says how many it needs).
//! - `designer` (the rules' Future Suggestions): per printed value 1-9, two commons and one uncommon
//!   of that value to each player, each drawn without replacement from the printed cards of that
//!   rarity and value; then three rares each from the shuffled rare pile. A short pile is refused
//!   as above.
//! - `independent` (the single game's draw): every place of a pool is filled uniformly and
//!   independently from the designs of its rarity and value (a rare place: any rare); a place with
//!   no design gets a textless card of its value (a rare place: a value uniform on 1-9), counted in
//!   `vanilla_fill`.
//!
//! Without a card set the printing is textless: each player designs three rares of values uniform
//! on 1-9 (drawn at the deal), one uncommon and one common (printed twice) of each value 1-9, and the
//! dealing shuffles those cards as it would a set's.
//!
//! Pool order: rares, then uncommons, then commons, each by printed value and then design order.
//! `top21` breaks its ties by that order.

use super::cardset::{CardSet, Rarity};
use crate::seed::{GameRng, below, shuffle};

/// Rares, uncommons and commons in a pool.
pub const SHAPE: [usize; 3] = [3, 9, 18];
/// Cards in a pool.
pub const POOL: usize = 30;
/// The highest printed value.
const MAX_VALUE: u8 = 9;
/// The design of a textless card.
pub const NO_DESIGN: u16 = u16::MAX;
/// The designer of a card whose designer is not known.
pub const NO_DESIGNER: u16 = u16::MAX;
/// Pool places by rarity: `[rare, uncommon, common]` (the order of `SHAPE`).
const ORDER: [Rarity; 3] = [Rarity::Rare, Rarity::Uncommon, Rarity::Common];

/// One dealing of the setting `deal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dealing {
    Piles,
    Designer,
    Independent,
}

impl Dealing {
    pub const NAMES: [&'static str; 3] = ["piles", "designer", "independent"];

    pub fn named(name: &str) -> Option<Dealing> {
        match name {
            "piles" => Some(Dealing::Piles),
            "designer" => Some(Dealing::Designer),
            "independent" => Some(Dealing::Independent),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Dealing::NAMES[self as usize]
    }
}

/// A printed card: its printed value, its design (`NO_DESIGN`: textless) and its designer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    pub value: u8,
    pub design: u16,
    pub designer: u16,
}

/// The printing of a card set: every design once (rares, uncommons) or twice (commons), by rarity
/// (in `ORDER`) and by rarity and value. Without a set, `players` textless sheets whose rares' values
/// are drawn at each deal.
#[derive(Clone, Debug)]
pub struct Printing {
    /// The set's cards, or `None`: textless sheets.
    cards: Option<[Vec<Printed>; 3]>,
    players: usize,
    /// `independent`'s candidates: per rarity (in `ORDER`) and printed value, every design once;
    /// rares all under value 0.
    places: [[Vec<Printed>; 10]; 3],
}

impl Printing {
    /// The printing of `set` (`None`: textless sheets) for `players` players dealt by `dealing`;
    /// `designer[d]` is design `d`'s designer (`NO_DESIGNER` when unknown). `Err`: a pile too short
    /// for the players, in one line.
    pub fn new(
        set: Option<&CardSet>,
        designer: &[u16],
        players: usize,
        dealing: Dealing,
    ) -> Result<Printing, String> {
        let Some(set) = set else { return Ok(Printing { cards: None, players, places: Default::default() }) };
        let mut cards: [Vec<Printed>; 3] = Default::default();
        let mut places: [[Vec<Printed>; 10]; 3] = Default::default();
        for (d, design) in set.designs.iter().enumerate() {
            let p = Printed { value: design.value, design: d as u16, designer: designer[d] };
            let r = ORDER.iter().position(|&x| x == design.rarity).expect("three rarities");
            let copies = if design.rarity == Rarity::Common { 2 } else { 1 };
            (0..copies).for_each(|_| cards[r].push(p));
            places[r][if design.rarity == Rarity::Rare { 0 } else { design.value as usize }].push(p);
        }
        let printing = Printing { cards: Some(cards), players, places };
        printing.check(dealing)?;
        Ok(printing)
    }

    /// The number of its own cards player `p` is expected to receive under `dealing`, from the
    /// counts alone: each place of a pile (or of a pile's value) holds any of its cards with the
    /// same chance, so a place adds the share of the pile that is `p`'s. Textless sheets: every
    /// player designs the same share of each pile (`30 / players`), and `independent` draws
    /// textless cards without a designer (0).
    pub fn expected_own(&self, p: usize, dealing: Dealing) -> f64 {
        let share = |pile: &[Printed]| {
            let own = pile.iter().filter(|c| c.designer == p as u16).count();
            if pile.is_empty() { 0.0 } else { own as f64 / pile.len() as f64 }
        };
        let Some(cards) = &self.cards else {
            return match dealing {
                Dealing::Independent => 0.0,
                _ => POOL as f64 / self.players as f64,
            };
        };
        let mut expected = 0.0;
        for (r, rarity) in ORDER.iter().enumerate() {
            let by_value = *rarity != Rarity::Rare && dealing != Dealing::Piles;
            if !by_value {
                let pile: &[Printed] = match dealing {
                    Dealing::Independent => &self.places[r][0],
                    _ => &cards[r],
                };
                expected += SHAPE[r] as f64 * share(pile);
                continue;
            }
            let each = SHAPE[r] as f64 / MAX_VALUE as f64;
            for v in 1..=MAX_VALUE {
                let pile: Vec<Printed> = match dealing {
                    Dealing::Independent => self.places[r][v as usize].clone(),
                    _ => cards[r].iter().filter(|c| c.value == v).copied().collect(),
                };
                expected += each * share(&pile);
            }
        }
        expected
    }

    /// Refuses a dealing whose piles are too short for the players.
    fn check(&self, dealing: Dealing) -> Result<(), String> {
        let Some(cards) = &self.cards else { return Ok(()) };
        let p = self.players;
        for (r, rarity) in ORDER.iter().enumerate() {
            let short = |have: usize, need: usize, what: String| {
                (have < need).then(|| {
                    format!(
                        "deal={} for {p} players needs {need} printed {what} (the set prints {have}); use fewer players, a larger set or deal=independent",
                        dealing.name()
                    )
                })
            };
            let err = match dealing {
                Dealing::Piles => short(cards[r].len(), SHAPE[r] * p, format!("{}s", rarity.name())),
                Dealing::Designer if *rarity == Rarity::Rare => {
                    short(cards[r].len(), SHAPE[r] * p, "rares".into())
                }
                Dealing::Designer => (1..=MAX_VALUE).find_map(|v| {
                    let have = cards[r].iter().filter(|c| c.value == v).count();
                    short(have, SHAPE[r] / 9 * p, format!("{}s of value {v}", rarity.name()))
                }),
                Dealing::Independent => None,
            };
            if let Some(e) = err {
                return Err(e);
            }
        }
        Ok(())
    }
}

/// The pools of every player of an event, kept for the whole event; reused from event to event.
#[derive(Clone, Debug, Default)]
pub struct EventPools {
    /// `cards[player * POOL + place]`.
    pub cards: Vec<Printed>,
    /// Places filled with a textless card because the set had no design for them (`independent`).
    pub vanilla_fill: u32,
    /// Each rarity's pile being dealt (reused).
    pile: Vec<Printed>,
}

impl EventPools {
    /// Player `p`'s pool, in pool order.
    pub fn pool(&self, p: usize) -> &[Printed] {
        &self.cards[p * POOL..(p + 1) * POOL]
    }

    /// The cards of player `p`'s pool that player `p` designed.
    pub fn own(&self, p: usize) -> usize {
        self.pool(p).iter().filter(|c| c.designer == p as u16).count()
    }

    /// Deals every pool of an event from `printing` as `dealing` says.
    pub fn deal(&mut self, printing: &Printing, dealing: Dealing, rng: &mut GameRng) {
        let players = printing.players;
        self.cards.clear();
        self.cards.resize(players * POOL, Printed::default());
        self.vanilla_fill = 0;
        match dealing {
            Dealing::Piles => self.deal_piles(printing, rng),
            Dealing::Designer => self.deal_by_value(printing, rng),
            Dealing::Independent => self.deal_independent(printing, rng),
        }
        for p in 0..players {
            for range in ranges() {
                self.cards[p * POOL + range.start..p * POOL + range.end].sort_by_key(|c| (c.value, c.design));
            }
        }
    }

    /// Fills `self.pile` with rarity `r`'s printed cards (textless sheets drawn now).
    fn fill_pile(&mut self, printing: &Printing, r: usize, rng: &mut GameRng) {
        self.pile.clear();
        match &printing.cards {
            Some(cards) => self.pile.extend_from_slice(&cards[r]),
            None => {
                for designer in 0..printing.players as u16 {
                    let sheet = |value| Printed { value, design: NO_DESIGN, designer };
                    match ORDER[r] {
                        Rarity::Rare => {
                            for _ in 0..3 {
                                self.pile.push(sheet(1 + below(rng, MAX_VALUE as u32) as u8));
                            }
                        }
                        Rarity::Uncommon => self.pile.extend((1..=MAX_VALUE).map(sheet)),
                        Rarity::Common => {
                            self.pile.extend((1..=MAX_VALUE).flat_map(|v| [sheet(v), sheet(v)]))
                        }
                    }
                }
            }
        }
    }

    fn deal_piles(&mut self, printing: &Printing, rng: &mut GameRng) {
        for (r, range) in ranges().enumerate() {
            self.fill_pile(printing, r, rng);
            shuffle(rng, &mut self.pile);
            for p in 0..printing.players {
                let from = p * SHAPE[r];
                let to = &mut self.cards[p * POOL + range.start..p * POOL + range.end];
                to.copy_from_slice(&self.pile[from..from + SHAPE[r]]);
            }
        }
    }

    fn deal_by_value(&mut self, printing: &Printing, rng: &mut GameRng) {
        for (r, range) in ranges().enumerate() {
            self.fill_pile(printing, r, rng);
            if ORDER[r] == Rarity::Rare {
                shuffle(rng, &mut self.pile);
                for p in 0..printing.players {
                    let to = &mut self.cards[p * POOL + range.start..p * POOL + range.end];
                    to.copy_from_slice(&self.pile[p * SHAPE[r]..(p + 1) * SHAPE[r]]);
                }
                continue;
            }
            let each = SHAPE[r] / MAX_VALUE as usize;
            // Group the pile by value (stable), then shuffle and deal each value's cards.
            self.pile.sort_by_key(|c| c.value);
            let mut start = 0;
            for v in 1..=MAX_VALUE {
                let len = self.pile[start..].iter().take_while(|c| c.value == v).count();
                let group = &mut self.pile[start..start + len];
                shuffle(rng, group);
                for p in 0..printing.players {
                    let at = p * POOL + range.start + (v as usize - 1) * each;
                    self.cards[at..at + each].copy_from_slice(&group[p * each..(p + 1) * each]);
                }
                start += len;
            }
        }
    }

    fn deal_independent(&mut self, printing: &Printing, rng: &mut GameRng) {
        for p in 0..printing.players {
            for (r, range) in ranges().enumerate() {
                for k in 0..SHAPE[r] {
                    // Rares: any value; uncommons: 1..9; commons: 1, 1, 2, 2, ..., 9, 9.
                    let value = match ORDER[r] {
                        Rarity::Rare => 0,
                        Rarity::Uncommon => 1 + k as u8,
                        Rarity::Common => 1 + (k / 2) as u8,
                    };
                    self.cards[p * POOL + range.start + k] = self.draw_place(printing, ORDER[r], value, rng);
                }
            }
        }
    }

    /// One `independent` place: uniform among the designs of `rarity` and `value` (0: any value).
    /// Without a set, a textless card of that value, not counted as a fill.
    fn draw_place(&mut self, printing: &Printing, rarity: Rarity, value: u8, rng: &mut GameRng) -> Printed {
        let r = ORDER.iter().position(|&x| x == rarity).expect("three rarities");
        let candidates = &printing.places[r][value as usize];
        if candidates.is_empty() {
            self.vanilla_fill += u32::from(printing.cards.is_some());
            let value = if value == 0 { 1 + below(rng, MAX_VALUE as u32) as u8 } else { value };
            return Printed { value, design: NO_DESIGN, designer: NO_DESIGNER };
        }
        candidates[below(rng, candidates.len() as u32) as usize]
    }
}

/// The places of each rarity in a pool, in `ORDER`.
fn ranges() -> impl Iterator<Item = std::ops::Range<usize>> {
    let mut start = 0;
    SHAPE.iter().map(move |&n| {
        start += n;
        start - n..start
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::GameSeed;

    fn textless(players: usize, dealing: Dealing) -> (Printing, EventPools) {
        let printing = Printing::new(None, &[], players, dealing).expect("textless sheets always deal");
        (printing, EventPools::default())
    }

    fn sample() -> CardSet {
        let text = std::fs::read_to_string("scenarios/cards/sample.toml").expect("the sample set");
        crate::games::slots::cardfile::parse("sample.toml", &text).expect("the sample set loads")
    }

    /// Exact distribution of a sum of independent hypergeometric counts: each `(pile, own, drawn)`
    /// is how many of `drawn` cards from a pile of `pile` are among its `own` marked cards.
    fn hypergeometric_sum(parts: &[(u64, u64, u64)]) -> Vec<f64> {
        let choose = |n: u64, k: u64| -> f64 {
            if k > n {
                return 0.0;
            }
            (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
        };
        let mut dist = vec![1.0];
        for &(pile, own, drawn) in parts {
            let one: Vec<f64> = (0..=own.min(drawn))
                .map(|x| choose(own, x) * choose(pile - own, drawn - x) / choose(pile, drawn))
                .collect();
            let mut next = vec![0.0; dist.len() + one.len() - 1];
            for (a, pa) in dist.iter().enumerate() {
                for (b, pb) in one.iter().enumerate() {
                    next[a + b] += pa * pb;
                }
            }
            dist = next;
        }
        dist
    }

    /// Deals `events` events and checks player 0's own-card counts against `exact` cell by cell
    /// (each within 5 standard errors of a binomial proportion) and its mean against 10/3.
    fn own_cards_follow(dealing: Dealing, exact: &[f64]) {
        let (printing, mut pools) = textless(9, dealing);
        let events = 40_000u64;
        let mut seen = vec![0u64; POOL + 1];
        for i in 0..events {
            pools.deal(&printing, dealing, &mut GameSeed::new(5, i).rng());
            for p in 0..9 {
                seen[pools.own(p)] += 1;
            }
        }
        let n = (events * 9) as f64;
        let mean = seen.iter().enumerate().map(|(k, &c)| k as f64 * c as f64).sum::<f64>() / n;
        let exact_mean: f64 = exact.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        // From the counts alone: 3 of 27 rares, 9 of 81 uncommons, 18 of 162 commons are one's own.
        assert!((exact_mean - 10.0 / 3.0).abs() < 1e-12);
        let var: f64 = exact.iter().enumerate().map(|(k, p)| (k as f64 - exact_mean).powi(2) * p).sum();
        // Players of one event are dependent: allow for it with 9x the variance (a bound, since
        // each event adds at most 9 times one player's variance).
        assert!((mean - exact_mean).abs() < 5.0 * (9.0 * var / n).sqrt(), "{}: mean {mean}", dealing.name());
        for (k, &p) in exact.iter().enumerate() {
            let got = seen.get(k).copied().unwrap_or(0) as f64 / n;
            let se = (9.0 * p * (1.0 - p) / n).sqrt();
            assert!((got - p).abs() < 5.0 * se + 1e-9, "{}: P(own = {k}) {got} vs {p}", dealing.name());
        }
    }

    #[test]
    fn expected_own_cards_follow_the_counts_and_the_deals() {
        // The nine-designer set with Ryan's rare Ember Scout and common 1 Ember Pyre (printed
        // twice) given to Mara. Ryan's pool then expects 3 * 2/27 rares + 9 * 9/81 uncommons +
        // 18 * 16/162 commons = 2/9 + 1 + 16/9 = 3 own cards under piles; by value the commons of
        // value 1 give him none and each other value 2 * 2/18, the same 3; `independent` draws a
        // common 1 among 9 designs, none his: 3 again. Mara: 4/9 + 1 + 20/9 = 11/3.
        let text = std::fs::read_to_string("scenarios/cards/tournament.toml").unwrap();
        let set = crate::games::slots::cardfile::parse("tournament.toml", &text).unwrap();
        let names = ["Ryan", "Mara", "Dev", "Sam", "Lee", "Ana", "Kim", "Joe", "Pat"];
        let designer: Vec<u16> = set
            .designs
            .iter()
            .map(|d| match d.id.as_str() {
                "ember-scout" | "ember-pyre" => 1,
                _ => names.iter().position(|&n| n == d.designer).unwrap() as u16,
            })
            .collect();
        for dealing in [Dealing::Piles, Dealing::Designer, Dealing::Independent] {
            let printing = Printing::new(Some(&set), &designer, 9, dealing).unwrap();
            assert!((printing.expected_own(0, dealing) - 3.0).abs() < 1e-12, "{}", dealing.name());
            assert!((printing.expected_own(1, dealing) - 11.0 / 3.0).abs() < 1e-12, "{}", dealing.name());
            assert!((printing.expected_own(2, dealing) - 10.0 / 3.0).abs() < 1e-12, "{}", dealing.name());
            // The deals agree: Ryan's mean own count within 5 standard errors (at most 9 cards
            // vary, so the standard deviation is at most 4.5).
            let mut pools = EventPools::default();
            let n = 20_000;
            let own: usize = (0..n)
                .map(|i| {
                    pools.deal(&printing, dealing, &mut GameSeed::new(9, i).rng());
                    pools.own(0)
                })
                .sum();
            let mean = own as f64 / n as f64;
            assert!((mean - 3.0).abs() < 5.0 * 4.5 / (n as f64).sqrt(), "{}: {mean}", dealing.name());
        }
        let (textless_piles, _) = textless(9, Dealing::Piles);
        assert!((textless_piles.expected_own(4, Dealing::Piles) - 10.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn piles_give_the_hypergeometric_count_of_own_cards() {
        own_cards_follow(Dealing::Piles, &hypergeometric_sum(&[(27, 3, 3), (81, 9, 9), (162, 18, 18)]));
    }

    #[test]
    fn designer_dealing_gives_its_own_count_of_own_cards() {
        let mut parts = vec![(27, 3, 3)];
        parts.extend((1..=9).map(|_| (9, 1, 1)));
        parts.extend((1..=9).map(|_| (18, 2, 2)));
        own_cards_follow(Dealing::Designer, &hypergeometric_sum(&parts));
    }

    #[test]
    fn every_pile_is_dealt_exactly_once() {
        for dealing in [Dealing::Piles, Dealing::Designer] {
            let (printing, mut pools) = textless(9, dealing);
            for i in 0..50 {
                pools.deal(&printing, dealing, &mut GameSeed::new(3, i).rng());
                // Every (designer, rarity place, value) card of the nine sheets once: each designer's
                // 9 uncommons and 18 commons are its values 1-9 (commons twice), and its 3 rares.
                let mut count = vec![0u32; 9 * 3 * 10];
                for p in 0..9 {
                    for (r, range) in ranges().enumerate() {
                        for c in &pools.pool(p)[range] {
                            count[(c.designer as usize * 3 + r) * 10 + c.value as usize] += 1;
                        }
                    }
                }
                for d in 0..9 {
                    let at = |r: usize, v: usize| count[(d * 3 + r) * 10 + v];
                    assert_eq!((1..=9).map(|v| at(0, v)).sum::<u32>(), 3, "{}: rares of {d}", dealing.name());
                    for v in 1..=9 {
                        assert_eq!(
                            (at(1, v), at(2, v)),
                            (1, 2),
                            "{}: designer {d} value {v}",
                            dealing.name()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn designer_dealing_gives_each_value_its_places() {
        let (printing, mut pools) = textless(9, Dealing::Designer);
        pools.deal(&printing, Dealing::Designer, &mut GameSeed::new(1, 0).rng());
        for p in 0..9 {
            let values: Vec<u8> = pools.pool(p)[3..].iter().map(|c| c.value).collect();
            let want: Vec<u8> = (1..=9).chain((1..=9).flat_map(|v| [v, v])).collect();
            assert_eq!(values, want, "player {p}");
        }
    }

    #[test]
    fn piles_deal_a_set_without_replacement_and_refuse_short_piles() {
        let set = sample();
        let none = vec![NO_DESIGNER; set.designs.len()];
        let rares = set.designs.iter().filter(|d| d.rarity == Rarity::Rare).count();
        assert!(rares < 27, "the sample set is too small for nine players");
        let err = Printing::new(Some(&set), &none, 9, Dealing::Piles).unwrap_err();
        assert_eq!(
            err,
            format!(
                "deal=piles for 9 players needs 27 printed rares (the set prints {rares}); use fewer players, a larger set or deal=independent"
            )
        );
        let printing = Printing::new(Some(&set), &none, 2, Dealing::Piles).expect("two players fit");
        let mut pools = EventPools::default();
        pools.deal(&printing, Dealing::Piles, &mut GameSeed::new(2, 0).rng());
        let mut copies = vec![0u32; set.designs.len()];
        for c in &pools.cards {
            copies[c.design as usize] += 1;
        }
        for (d, design) in set.designs.iter().enumerate() {
            assert!(copies[d] <= if design.rarity == Rarity::Common { 2 } else { 1 }, "{}", design.id);
        }
        assert_eq!(pools.vanilla_fill, 0);
    }

    #[test]
    fn independent_draws_each_place_from_its_rarity_and_value() {
        let set = sample();
        let none = vec![NO_DESIGNER; set.designs.len()];
        let printing = Printing::new(Some(&set), &none, 3, Dealing::Independent).expect("never short");
        let mut pools = EventPools::default();
        pools.deal(&printing, Dealing::Independent, &mut GameSeed::new(2, 0).rng());
        for p in 0..3 {
            for (r, range) in ranges().enumerate() {
                for c in &pools.pool(p)[range] {
                    assert_eq!(set.designs[c.design as usize].rarity, ORDER[r]);
                }
            }
            let values: Vec<u8> = pools.pool(p)[3..].iter().map(|c| c.value).collect();
            let want: Vec<u8> = (1..=9).chain((1..=9).flat_map(|v| [v, v])).collect();
            assert_eq!(values, want);
        }
    }
}
