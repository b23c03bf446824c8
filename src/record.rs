//! What one game leaves behind (`GameRecord`) and what a game promises to record (`Layout`).
//!
//! A game declares its layout once, through a `LayoutBuilder`: each outcome row, counter and
//! distribution is declared by one call that returns the typed index the engine writes (`Row`,
//! `Counter`, `Dist`) and records the name the files show, so an index and its name cannot
//! disagree. Keyed families (per seat, team, policy or card id) are declared the same way, sized
//! when the scenario point is built. There is no fixed cap: a record is sized from its layout once
//! per thread and reused, so the runner and the statistics never allocate per game and never know
//! which game they serve.
//!
//! How a game ended is said in the family's shared terms (`Ending`) and turned into its outcome row
//! by the `Outcomes` table the builder made, the one scheme every game uses.

use serde::{Deserialize, Serialize};

/// Declares a closed list of named things once: the enum, `ALL` in declaration order, and each
/// one's name as the files show it (`name`, `from_name`). Outcome kinds and each game's fixed
/// counters are declared with it, so an index and its name can never disagree.
#[macro_export]
macro_rules! named {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name the files show.
            #[inline]
            pub const fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }

            pub fn from_name(text: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == text)
            }
        }
    };
}

/// Declares a game's fixed counters (or distributions) once, as a module of typed constants and
/// their names in index order:
///
/// ```
/// warsim::declare! { pub mod counter: Counter { WARS = "wars", DOUBLE_WARS = "double_wars" } }
/// assert_eq!(counter::NAMES, ["wars", "double_wars"]);
/// assert_eq!(counter::DOUBLE_WARS, warsim::record::Counter(1));
/// ```
///
/// gives `counter::WARS: Counter`, `counter::DOUBLE_WARS` and `counter::NAMES`. The game passes
/// `NAMES` first to its `LayoutBuilder` (`declared_counters`), so each constant is the index the
/// layout gives that name.
#[macro_export]
macro_rules! declare {
    ($(#[$meta:meta])* $vis:vis mod $module:ident : $ty:ident {
        $($(#[$vmeta:meta])* $name:ident = $text:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        $vis mod $module {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
            #[repr(u16)]
            enum Index { $($name),+ }
            $($(#[$vmeta])* pub const $name: $crate::record::$ty = $crate::record::$ty(Index::$name as _);)+
            /// Every name, in index order.
            pub const NAMES: &[&str] = &[$($text),+];
        }
    };
}

named! {
    /// The kinds of ending shared by the family, in the order the files list them. A game declares
    /// which it uses.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OutcomeKind {
        Win = "win",
        Draw = "draw",
        Cycle = "cycle",
        Capped = "capped",
        Scorched = "scorched",
        /// An event whose first place is shared: no entrant won it alone.
        Shared = "shared",
    }
}

/// One row of `outcomes.csv`: an ending, with the seat, team and policy it belongs to if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeKey {
    pub kind: OutcomeKind,
    pub seat: Option<u8>,
    pub team: Option<String>,
    pub policy: Option<String>,
}

impl OutcomeKey {
    pub fn plain(kind: OutcomeKind) -> Self {
        OutcomeKey { kind, seat: None, team: None, policy: None }
    }

    pub fn seat(kind: OutcomeKind, seat: usize) -> Self {
        OutcomeKey { kind, seat: Some(seat as u8), team: None, policy: None }
    }
}

/// The names of a game's record slots, fixed for a scenario point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Unit of `length`: `battles`, `rounds`, `turns` or `slots`.
    pub length_unit: String,
    /// Every outcome the game can end in; a record's `outcome` indexes this list.
    pub outcomes: Vec<OutcomeKey>,
    /// Event counters; a record's `counters[i]` is counter `i`'s value in that game.
    pub counters: Vec<String>,
    /// Extra integer distributions (`cycle_period`, `max_war_depth`, `margin`, ...).
    pub distributions: Vec<String>,
    /// Per-card statistics (`cards.csv`), in games that declare them: the last counters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<CardTable>,
    /// The entrants of an event (`standings.csv`), in layouts of events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrants: Option<EntrantTable>,
    /// Games per deal group: games `k n .. (k + 1) n` share a deal (the rotations of one deal over
    /// the seats) and are one independent observation (`stats::group`); 1 when every game deals
    /// afresh. The last group of a run may be shorter.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub group_size: u64,
    /// Shares of a random subset of games (`summary.csv`), in games that declare them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shares: Vec<Share>,
}

impl Layout {
    /// A layout with these outcomes and counters and nothing else (no distributions, per-card
    /// table, entrants or shares), every game dealt afresh: what `LayoutBuilder` starts from, and
    /// what a test's made-up point needs.
    pub fn plain(length_unit: &str, outcomes: Vec<OutcomeKey>, counters: Vec<String>) -> Layout {
        Layout {
            length_unit: length_unit.into(),
            outcomes,
            counters,
            distributions: Vec::new(),
            cards: None,
            entrants: None,
            group_size: 1,
            shares: Vec::new(),
        }
    }
}

fn one() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}

/// A share of a random subset of the games: of the games that ended in an outcome of kind `of`
/// (e.g. `win`: the decided games), the share whose counter `counter` is 1 (e.g. the first player
/// won). Its denominator is random, so its interval is the ratio estimator's
/// (`stats::group`), never Wilson's on a count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// The column name, saying what it is a share of (`first_player_win_share_of_decided`).
    pub name: String,
    pub counter: u32,
    pub of: OutcomeKind,
    /// The name of the denominator's column (`decided_games`).
    pub of_name: String,
}

/// The entrants of an event and where their results are counted (`standings.csv`): from `first`,
/// for every ordered pair (i, j), i != j, the games i won against j; then for every pair i < j the
/// games they drew; then per entrant its events finished first alone and first shared; then per
/// entrant its games won in the event (so that the spread over events gives the interval of a win
/// rate whose games share an event's deal); and, when the games of an event share its deal
/// (`by_event`), per entrant its points in the event (a win 2, a draw 1) and for every pair i < k
/// the product of their points, so that one event can be one observation of the ratings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantTable {
    pub names: Vec<String>,
    pub first: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_event: bool,
}

impl EntrantTable {
    /// The counters of the table, in the order `LayoutBuilder::entrants` declares them: games won
    /// per ordered pair, drawn per pair, first alone, first shared and games won per entrant, and
    /// for tables kept by event the points per entrant and per pair.
    pub fn counters(&self) -> std::ops::Range<usize> {
        let n = self.names.len();
        let pairs = n * n.saturating_sub(1) / 2;
        let by_event = if self.by_event { n + pairs } else { 0 };
        let first = self.first as usize;
        first..first + 2 * pairs + pairs + 3 * n + by_event
    }
}

/// The typed counters of an `EntrantTable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrantCounters {
    pub first: u32,
    pub n: u32,
}

impl EntrantCounters {
    /// Games `i` won against `j`.
    #[inline]
    pub fn beat(self, i: usize, j: usize) -> Counter {
        let n = self.n as usize;
        let k = i * (n - 1) + if j > i { j - 1 } else { j };
        Counter(self.first + k as u32)
    }

    /// Games `i` and `j` drew (either order).
    #[inline]
    pub fn drew(self, i: usize, j: usize) -> Counter {
        let n = self.n as usize;
        let (a, b) = (i.min(j), i.max(j));
        // Pairs (a, b), a < b, in order: those of every a' < a come first.
        let before = a * (2 * n - a - 1) / 2;
        Counter(self.first + (n * (n - 1) + before + (b - a - 1)) as u32)
    }

    /// Events `i` finished first alone.
    #[inline]
    pub fn alone(self, i: usize) -> Counter {
        let n = self.n as usize;
        Counter(self.first + (n * (n - 1) + n * (n - 1) / 2 + i) as u32)
    }

    /// Events `i` shared first place.
    #[inline]
    pub fn shared(self, i: usize) -> Counter {
        let n = self.n as usize;
        Counter(self.first + (n * (n - 1) + n * (n - 1) / 2 + n + i) as u32)
    }

    /// Games `i` won in the event.
    #[inline]
    pub fn won(self, i: usize) -> Counter {
        let n = self.n as usize;
        Counter(self.first + (n * (n - 1) + n * (n - 1) / 2 + 2 * n + i) as u32)
    }

    /// Points `i` took in the event (a table `by_event` only).
    #[inline]
    pub fn points(self, i: usize) -> Counter {
        let n = self.n as usize;
        Counter(self.first + (n * (n - 1) + n * (n - 1) / 2 + 3 * n + i) as u32)
    }

    /// The product of the points `i` and `k` took in the event, `i != k` (a table `by_event` only).
    #[inline]
    pub fn points_product(self, i: usize, k: usize) -> Counter {
        let n = self.n as usize;
        let (a, b) = (i.min(k), i.max(k));
        let before = a * (2 * n - a - 1) / 2;
        Counter(self.first + (n * (n - 1) + n * (n - 1) / 2 + 4 * n + before + (b - a - 1)) as u32)
    }
}

/// A keyed family of counters, one per (card, column), written as `cards.csv`: one row per card
/// with each column's total and each rate with its Wilson interval. Its counters come after every
/// other counter, so that `events` is the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTable {
    /// The card ids, as the files show them.
    pub keys: Vec<String>,
    /// The counted columns (`in_deck`, `played`, ...): card `k`'s column `c` is counter
    /// `first + k * columns.len() + c`.
    pub columns: Vec<String>,
    /// Rates: (name, numerator column, denominator column).
    pub rates: Vec<(String, usize, usize)>,
    /// Means of paired differences, each kept in four of the counted columns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paired: Vec<PairedMean>,
    pub first: u32,
    /// A table keyed by pairs of this table's cards, whose counters follow this table's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Box<PairTable>>,
    /// Who made each card, when the table is read as feedback to its makers (`designers.csv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makers: Option<Makers>,
    /// Each card's rarity and printed value as its set names them (`rare`, 7; `textless`, 9), for
    /// the answers to say what a design is; empty where the game names none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class: Vec<(String, u8)>,
}

/// The makers of a per-card table's cards, and the expected and observed count of a maker's own
/// cards in its player's hand (`designers.csv`, `docs/tournament.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Makers {
    pub names: Vec<String>,
    /// `maker[k]`: card `k`'s maker, an index into `names`.
    pub maker: Vec<u16>,
    /// The rate of `rates` the verdicts (`too_strong`, `too_weak`) compare with the field's.
    pub verdict_rate: usize,
    /// `stratum[k]`: the cards card `k` is judged against (its printed value and rarity, say): a
    /// card's verdict compares it with the pooled rate of its stratum, a maker's with the field's.
    pub stratum: Vec<u16>,
    /// The mean number of own cards a player is expected to receive, in millionths, exact from the
    /// dealing's counts.
    pub own_expected_millionths: u64,
    /// The distribution of the own cards each player received.
    pub own_observed: String,
    /// Each card's rarity and printed value as the set names them (`rare`, 3), which its verdict
    /// is judged against (`designers.csv`); empty where the game names none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class: Vec<(String, u8)>,
}

/// A mean of paired differences (a card's effect measured game by game against its own
/// counterfactual), kept as four counted columns of a keyed table so that it merges exactly:
/// how many differences were measured, the sum of the positive ones, the sum of the negative
/// ones' sizes, and the sum of the squares (`stats::paired` turns them into a mean and its
/// interval). The differences are counted in units of `1 / per_unit` of what the files show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedMean {
    pub name: String,
    pub n: usize,
    pub up: usize,
    pub down: usize,
    pub sq: usize,
    pub per_unit: u32,
}

/// A keyed table whose keys are pairs of a `CardTable`'s cards (indices into its `keys`), with
/// counted columns and paired means as a card table has; written as `card_pairs.csv`. Pair `k`'s
/// column `c` is counter `first + k * columns.len() + c`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTable {
    pub pairs: Vec<(u32, u32)>,
    pub columns: Vec<String>,
    pub paired: Vec<PairedMean>,
    pub first: u32,
}

/// The counters of a `CardTable`: `at(card, column)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardCounters {
    first: u32,
    columns: u32,
}

impl CardCounters {
    #[inline]
    pub fn at(self, card: usize, column: usize) -> Counter {
        debug_assert!(column < self.columns as usize, "column {column} of {}", self.columns);
        Counter(self.first + (card * self.columns as usize + column) as u32)
    }
}

impl Layout {
    /// What one record is, as the terminal and progress name it: `tournament` for an event's
    /// layout (it has entrants, `crate::tournament`), else `game`.
    pub fn unit(&self) -> &'static str {
        if self.entrants.is_some() { "tournament" } else { "game" }
    }

    /// Whether counter `i` belongs to the table of entrants (`EntrantTable`: per pair and per
    /// entrant): `standings.csv` reads those, and the files and plots of event
    /// counters, the comparisons and `play` leave them out.
    pub fn is_entrant_counter(&self, i: usize) -> bool {
        self.entrants.as_ref().is_some_and(|t| t.counters().contains(&i))
    }

    /// The event counters: every counter but the per-card table's.
    pub fn events(&self) -> &[String] {
        let end = self.cards.as_ref().map_or(self.counters.len(), |t| t.first as usize);
        &self.counters[..end]
    }

    pub fn counter(&self, name: &str) -> Option<Counter> {
        self.counters.iter().position(|c| c == name).map(|i| Counter(i as u32))
    }

    pub fn distribution(&self, name: &str) -> Option<Dist> {
        self.distributions.iter().position(|c| c == name).map(|i| Dist(i as u16))
    }
}

/// An outcome row of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Row(pub u16);

/// A counter of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter(pub u32);

/// A distribution of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dist(pub u16);

/// A family of counters declared together (one per seat, policy, card, ...): member `k` is
/// `at(k)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counters {
    first: u32,
    len: u32,
}

impl Counters {
    #[inline]
    pub fn at(self, k: usize) -> Counter {
        debug_assert!(k < self.len as usize, "counter {k} of a family of {}", self.len);
        Counter(self.first + k as u32)
    }

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// A family of distributions declared together: member `k` is `at(k)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dists {
    first: u16,
    len: u16,
}

impl Dists {
    #[inline]
    pub fn at(self, k: usize) -> Dist {
        debug_assert!(k < self.len as usize, "distribution {k} of a family of {}", self.len);
        Dist(self.first + k as u16)
    }

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// How a game ended, in the terms every game shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Seat `seat` won alone, playing line-up entry `entry` (0 in games without policies).
    Seat { seat: usize, entry: usize },
    /// Team `team` won.
    Team(usize),
    /// No seat or team won: a draw, a cycle, the cap, scorched earth.
    Plain(OutcomeKind),
}

/// The outcome row of every `Ending` a point can reach, made by the `LayoutBuilder`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Row of a win by (seat, entry): `seat_rows[seat * entries + entry]`.
    seat_rows: Vec<Row>,
    entries: usize,
    team_rows: Vec<Row>,
    plain_rows: Vec<(OutcomeKind, Row)>,
}

impl Outcomes {
    /// The outcome row of `ending`. An ending the game did not declare is a bug in the game.
    #[inline]
    pub fn row(&self, ending: Ending) -> Row {
        match ending {
            Ending::Seat { seat, entry } => self.seat_rows[seat * self.entries + entry],
            Ending::Team(team) => self.team_rows[team],
            Ending::Plain(kind) => {
                self.plain_rows.iter().find(|(k, _)| *k == kind).map(|&(_, r)| r).unwrap_or_else(|| {
                    panic!("the game ended in '{}', which its layout does not declare", kind.name())
                })
            }
        }
    }
}

/// Declares a layout, handing out typed indices.
#[derive(Debug)]
pub struct LayoutBuilder {
    layout: Layout,
    outcomes: Outcomes,
}

impl LayoutBuilder {
    pub fn new(length_unit: &str) -> LayoutBuilder {
        LayoutBuilder {
            layout: Layout::plain(length_unit, Vec::new(), Vec::new()),
            outcomes: Outcomes::default(),
        }
    }

    /// The row of `key`, declared now unless an identical key was declared before.
    fn outcome_row(&mut self, key: OutcomeKey) -> Row {
        let rows = &mut self.layout.outcomes;
        let i = rows.iter().position(|k| *k == key).unwrap_or_else(|| {
            rows.push(key);
            rows.len() - 1
        });
        Row(u16::try_from(i).expect("fewer than 65,536 outcome rows"))
    }

    /// One `win` row per seat: `Ending::Seat { seat, entry: 0 }`.
    pub fn seat_wins(&mut self, seats: usize) -> &mut Self {
        self.seat_policy_wins(seats, 1, |_| None, |_, _| true)
    }

    /// `win` rows per seat and line-up entry: entry `e` is played by policy `policy(e)` (named in
    /// the row), and `occurs(seat, e)` says whether entry `e` can sit at `seat` (always with
    /// rotated seats, only `e == seat` without). Rows are declared seat by seat, and (seat, policy)
    /// pairs that repeat share a row.
    pub fn seat_policy_wins(
        &mut self,
        seats: usize,
        entries: usize,
        policy: impl Fn(usize) -> Option<String>,
        occurs: impl Fn(usize, usize) -> bool,
    ) -> &mut Self {
        assert!(self.outcomes.seat_rows.is_empty(), "seat wins are declared once");
        self.outcomes.entries = entries;
        for seat in 0..seats {
            for entry in 0..entries {
                let row = if occurs(seat, entry) {
                    let key =
                        OutcomeKey { policy: policy(entry), ..OutcomeKey::seat(OutcomeKind::Win, seat) };
                    self.outcome_row(key)
                } else {
                    Row(u16::MAX)
                };
                self.outcomes.seat_rows.push(row);
            }
        }
        self
    }

    /// One `win` row per team, named as given: `Ending::Team(t)`.
    pub fn team_wins(&mut self, teams: &[&str]) -> &mut Self {
        for &team in teams {
            let key = OutcomeKey { team: Some(team.to_string()), ..OutcomeKey::plain(OutcomeKind::Win) };
            let row = self.outcome_row(key);
            self.outcomes.team_rows.push(row);
        }
        self
    }

    /// Rows without seat or team: `Ending::Plain(kind)`.
    pub fn plain(&mut self, kinds: &[OutcomeKind]) -> &mut Self {
        for &kind in kinds {
            let row = self.outcome_row(OutcomeKey::plain(kind));
            self.outcomes.plain_rows.push((kind, row));
        }
        self
    }

    /// Games per deal group (see `Layout::group_size`): the number of seats when each deal is
    /// played once per rotation of the seats, else 1.
    pub fn deal_groups(&mut self, games: usize) -> &mut Self {
        assert!(games >= 1, "a group holds at least one game");
        self.layout.group_size = games as u64;
        self
    }

    /// A share of a random subset (see `Share`): of the games ending in kind `of` (its count
    /// written as `of_name`), the share in which `counter` is 1.
    pub fn share(&mut self, name: &str, counter: Counter, of: OutcomeKind, of_name: &str) {
        self.layout.shares.push(Share { name: name.into(), counter: counter.0, of, of_name: of_name.into() });
    }

    /// One counter.
    pub fn counter(&mut self, name: impl Into<String>) -> Counter {
        let name = name.into();
        assert!(!self.layout.counters.contains(&name), "counter {name} declared twice");
        assert!(self.layout.cards.is_none(), "the per-card table's counters come last");
        self.layout.counters.push(name);
        Counter((self.layout.counters.len() - 1) as u32)
    }

    /// A game's fixed counters (`declare!`'s `NAMES`), declared before any other so that the
    /// declared constants are their indices.
    pub fn declared_counters(&mut self, names: &[&str]) -> Counters {
        assert!(self.layout.counters.is_empty(), "declared counters come first");
        self.counters(names.iter().map(|n| n.to_string()))
    }

    /// A game's fixed distributions (`declare!`'s `NAMES`), declared before any other.
    pub fn declared_distributions(&mut self, names: &[&str]) -> Dists {
        assert!(self.layout.distributions.is_empty(), "declared distributions come first");
        self.distributions(names.iter().map(|n| n.to_string()))
    }

    /// A family of counters, one per name.
    pub fn counters(&mut self, names: impl IntoIterator<Item = String>) -> Counters {
        let first = self.layout.counters.len() as u32;
        for name in names {
            self.counter(name);
        }
        Counters { first, len: self.layout.counters.len() as u32 - first }
    }

    /// The per-card table (`cards.csv`): `columns` counted for each card of `keys`, and `rates`
    /// (name, numerator column, denominator column). Declared after every other counter.
    pub fn cards(
        &mut self,
        keys: Vec<String>,
        columns: &[&str],
        rates: &[(&str, usize, usize)],
    ) -> CardCounters {
        assert!(self.layout.cards.is_none(), "one per-card table");
        let first = self.layout.counters.len() as u32;
        // Checked against a set, not name by name (`counter`): a set of 20,000 cards declares
        // 100,000 counters here, and a search per name would take minutes.
        let mut names: std::collections::HashSet<String> = self.layout.counters.iter().cloned().collect();
        for key in &keys {
            for col in columns {
                let name = format!("card {key} {col}");
                assert!(names.insert(name.clone()), "counter {name} declared twice");
                self.layout.counters.push(name);
            }
        }
        self.layout.cards = Some(CardTable {
            keys,
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rates: rates.iter().map(|&(n, a, b)| (n.to_string(), a, b)).collect(),
            paired: Vec::new(),
            first,
            pairs: None,
            makers: None,
            class: Vec::new(),
        });
        CardCounters { first, columns: columns.len() as u32 }
    }

    /// The makers of the per-card table's cards (declared before).
    pub fn card_makers(&mut self, makers: Makers) {
        let table = self.layout.cards.as_mut().expect("the per-card table comes first");
        let n = table.keys.len();
        assert!(
            makers.maker.len() == n && makers.stratum.len() == n && makers.verdict_rate < table.rates.len()
        );
        table.makers = Some(makers);
    }

    /// Each card's rarity and printed value (declared before): one per card, in the table's order.
    pub fn card_class(&mut self, class: Vec<(String, u8)>) {
        let table = self.layout.cards.as_mut().expect("the per-card table comes first");
        assert_eq!(class.len(), table.keys.len());
        table.class = class;
    }

    /// Paired means over columns of the per-card table (declared before).
    pub fn card_paired(&mut self, means: Vec<PairedMean>) {
        let table = self.layout.cards.as_mut().expect("the per-card table comes first");
        assert!(means.iter().all(|m| m.n.max(m.up).max(m.down).max(m.sq) < table.columns.len()));
        table.paired = means;
    }

    /// The table of card pairs (`card_pairs.csv`): `columns` counted for each pair of `pairs`
    /// (indices into the per-card table's keys) and `paired` means over them. Declared last.
    pub fn card_pairs(
        &mut self,
        pairs: Vec<(u32, u32)>,
        columns: &[&str],
        paired: Vec<PairedMean>,
    ) -> CardCounters {
        let counters = &mut self.layout.counters;
        let table = self.layout.cards.as_mut().expect("the per-card table comes first");
        assert!(table.pairs.is_none(), "one table of card pairs");
        assert!(pairs.iter().all(|&(a, b)| a < b && (b as usize) < table.keys.len()));
        let first = counters.len() as u32;
        for &(a, b) in &pairs {
            let (a, b) = (&table.keys[a as usize], &table.keys[b as usize]);
            counters.extend(columns.iter().map(|c| format!("pair {a} {b} {c}")));
        }
        let columns: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
        let width = columns.len() as u32;
        table.pairs = Some(Box::new(PairTable { pairs, columns, paired, first }));
        CardCounters { first, columns: width }
    }

    /// The entrants of an event (`EntrantTable`), by name: their results' counters.
    pub fn entrants(&mut self, names: &[String], by_event: bool) -> EntrantCounters {
        assert!(self.layout.entrants.is_none(), "one table of entrants");
        let n = names.len();
        let first = self.layout.counters.len() as u32;
        let t = EntrantCounters { first, n: n as u32 };
        for i in 0..n {
            for j in (0..n).filter(|&j| j != i) {
                let c = self.counter(format!("{} beat {}", names[i], names[j]));
                debug_assert_eq!(c, t.beat(i, j));
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let c = self.counter(format!("{} drew {}", names[i], names[j]));
                debug_assert_eq!(c, t.drew(i, j));
            }
        }
        for (i, name) in names.iter().enumerate() {
            let c = self.counter(format!("{name} first alone"));
            debug_assert_eq!(c, t.alone(i));
        }
        for (i, name) in names.iter().enumerate() {
            let c = self.counter(format!("{name} first shared"));
            debug_assert_eq!(c, t.shared(i));
        }
        for (i, name) in names.iter().enumerate() {
            let c = self.counter(format!("{name} games won"));
            debug_assert_eq!(c, t.won(i));
        }
        if by_event {
            for (i, name) in names.iter().enumerate() {
                let c = self.counter(format!("{name} points"));
                debug_assert_eq!(c, t.points(i));
            }
            for i in 0..n {
                for k in i + 1..n {
                    let c = self.counter(format!("{} x {} points", names[i], names[k]));
                    debug_assert_eq!(c, t.points_product(i, k));
                }
            }
        }
        self.layout.entrants = Some(EntrantTable { names: names.to_vec(), first, by_event });
        t
    }

    /// One distribution.
    pub fn distribution(&mut self, name: impl Into<String>) -> Dist {
        let name = name.into();
        assert!(!self.layout.distributions.contains(&name), "distribution {name} declared twice");
        self.layout.distributions.push(name);
        Dist(u16::try_from(self.layout.distributions.len() - 1).expect("fewer than 65,536 distributions"))
    }

    /// A family of distributions, one per name.
    pub fn distributions(&mut self, names: impl IntoIterator<Item = String>) -> Dists {
        let first = self.layout.distributions.len() as u16;
        for name in names {
            self.distribution(name);
        }
        Dists { first, len: self.layout.distributions.len() as u16 - first }
    }

    /// The layout, and the table that turns an `Ending` into its row.
    pub fn finish(self) -> (Layout, Outcomes) {
        (self.layout, self.outcomes)
    }
}

/// A game's counter values, one per counter of its layout, indexed by `Counter` (or position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterValues(Vec<u64>);

impl std::ops::Deref for CounterValues {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl std::ops::DerefMut for CounterValues {
    fn deref_mut(&mut self) -> &mut [u64] {
        &mut self.0
    }
}

impl std::ops::Index<Counter> for CounterValues {
    type Output = u64;
    #[inline]
    fn index(&self, c: Counter) -> &u64 {
        &self.0[c.0 as usize]
    }
}

impl std::ops::Index<usize> for CounterValues {
    type Output = u64;
    #[inline]
    fn index(&self, i: usize) -> &u64 {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for CounterValues {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut u64 {
        &mut self.0[i]
    }
}

impl std::ops::IndexMut<Counter> for CounterValues {
    #[inline]
    fn index_mut(&mut self, c: Counter) -> &mut u64 {
        &mut self.0[c.0 as usize]
    }
}

/// One finished game, sized from its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub length: u64,
    pub outcome: u16,
    /// One value per counter of the layout.
    pub counters: CounterValues,
    observations: Vec<(u16, i64)>,
}

impl GameRecord {
    /// A record of no counters, for a game played to be measured, not recorded (a watch that
    /// never looks is still handed one).
    pub const EMPTY: GameRecord =
        GameRecord { length: 0, outcome: 0, counters: CounterValues(Vec::new()), observations: Vec::new() };

    /// A cleared record for `layout`'s games. Made once per thread and reused: `reset` keeps its
    /// memory.
    pub fn new(layout: &Layout) -> GameRecord {
        GameRecord {
            length: 0,
            outcome: 0,
            counters: CounterValues(vec![0; layout.counters.len()]),
            observations: Vec::with_capacity(4 * layout.distributions.len().max(4)),
        }
    }

    /// Clears the record for the next game.
    #[inline]
    pub fn reset(&mut self) {
        self.length = 0;
        self.outcome = 0;
        self.counters.fill(0);
        self.observations.clear();
    }

    /// `reset`, for a record whose counters were cleared as they were read
    /// (`Accumulator::take`): the rest only.
    #[inline]
    pub fn clear_counted(&mut self) {
        self.length = 0;
        self.outcome = 0;
        debug_assert!(self.counters.iter().all(|&c| c == 0), "a counter set but not cleared");
        self.observations.clear();
    }

    /// Sets the game's outcome row.
    #[inline]
    pub fn end(&mut self, row: Row) {
        self.outcome = row.0;
    }

    #[inline]
    pub fn count(&mut self, counter: Counter, n: u64) {
        self.counters[counter] += n;
    }

    /// The `n` counters from `first` on (a row of a per-card table).
    #[inline]
    pub fn counters_from(&mut self, first: Counter, n: usize) -> &mut [u64] {
        &mut self.counters.0[first.0 as usize..first.0 as usize + n]
    }

    /// Raises a counter that records a per-game maximum (e.g. `max_war_depth`).
    #[inline]
    pub fn raise(&mut self, counter: Counter, value: u64) {
        let c = &mut self.counters[counter];
        *c = (*c).max(value);
    }

    /// A counter's value in this game.
    #[inline]
    pub fn get(&self, counter: Counter) -> u64 {
        self.counters[counter]
    }

    /// The values this game added to distribution `dist`.
    pub fn observed(&self, dist: Dist) -> impl Iterator<Item = i64> + '_ {
        self.observations.iter().filter(move |(d, _)| *d == dist.0).map(|&(_, v)| v)
    }

    /// Adds one value to distribution `dist` for this game.
    #[inline]
    pub fn observe(&mut self, dist: Dist, value: i64) {
        self.observations.push((dist.0, value));
    }

    pub fn observations(&self) -> &[(u16, i64)] {
        &self.observations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entrants_counters_are_one_range_between_the_others() {
        for by_event in [false, true] {
            let mut b = LayoutBuilder::new("games");
            b.counter("before");
            let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
            b.entrants(&names, by_event);
            b.counter("after");
            let (l, _) = b.finish();
            let table: Vec<&str> = (0..l.counters.len())
                .filter(|&i| l.is_entrant_counter(i))
                .map(|i| l.counters[i].as_str())
                .collect();
            assert_eq!(table.len(), l.counters.len() - 2, "{table:?}");
            assert!(!l.is_entrant_counter(0) && !l.is_entrant_counter(l.counters.len() - 1));
        }
    }

    #[test]
    fn the_entrants_counters_are_where_their_names_are() {
        let mut b = LayoutBuilder::new("games");
        b.counter("before");
        let names: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let t = b.entrants(&names, false);
        let (l, _) = b.finish();
        let name = |c: Counter| l.counters[c.0 as usize].as_str();
        for i in 0..4 {
            for j in (0..4).filter(|&j| j != i) {
                assert_eq!(name(t.beat(i, j)), format!("{} beat {}", names[i], names[j]));
                let (a, z) = (i.min(j), i.max(j));
                assert_eq!(name(t.drew(i, j)), format!("{} drew {}", names[a], names[z]));
            }
            assert_eq!(name(t.alone(i)), format!("{} first alone", names[i]));
            assert_eq!(name(t.shared(i)), format!("{} first shared", names[i]));
            assert_eq!(name(t.won(i)), format!("{} games won", names[i]));
        }
        assert_eq!(l.counters.len(), 1 + 12 + 6 + 4 * 3);
        // With one event as the ratings' unit: points per entrant and per pair.
        let mut b = LayoutBuilder::new("games");
        let t = b.entrants(&names, true);
        let (l, _) = b.finish();
        let name = |c: Counter| l.counters[c.0 as usize].as_str();
        for i in 0..4 {
            assert_eq!(name(t.points(i)), format!("{} points", names[i]));
            for k in (0..4).filter(|&k| k != i) {
                let (a, z) = (i.min(k), i.max(k));
                assert_eq!(name(t.points_product(i, k)), format!("{} x {} points", names[a], names[z]));
            }
        }
        assert_eq!(l.counters.len(), 12 + 6 + 4 * 3 + 4 + 6);
    }

    #[test]
    fn one_declaration_gives_index_and_name() {
        let mut b = LayoutBuilder::new("rounds");
        b.seat_policy_wins(2, 2, |e| Some(["greedy", "random"][e].to_string()), |_, _| true)
            .plain(&[OutcomeKind::Draw, OutcomeKind::Capped]);
        let wars = b.counter("wars");
        let per_card = b.counters((0..3).map(|c| format!("played_{c}")));
        let margin = b.distribution("margin");
        let (layout, outcomes) = b.finish();
        assert_eq!(layout.counters, ["wars", "played_0", "played_1", "played_2"]);
        assert_eq!((wars, per_card.at(2), per_card.len()), (Counter(0), Counter(3), 3));
        assert_eq!(layout.counter("played_1"), Some(per_card.at(1)));
        assert_eq!(layout.distribution("margin"), Some(margin));
        let row = |e| layout.outcomes[outcomes.row(e).0 as usize].clone();
        let win = row(Ending::Seat { seat: 1, entry: 0 });
        assert_eq!((win.kind, win.seat, win.policy.as_deref()), (OutcomeKind::Win, Some(1), Some("greedy")));
        assert_eq!(row(Ending::Plain(OutcomeKind::Capped)), OutcomeKey::plain(OutcomeKind::Capped));
        assert_eq!(layout.outcomes.len(), 6);
    }

    #[test]
    fn rows_that_cannot_occur_are_not_declared_and_repeats_share_a_row() {
        // Without rotation entry e sits only at seat e; a line-up "greedy,greedy" names one policy.
        let mut b = LayoutBuilder::new("rounds");
        b.seat_policy_wins(2, 2, |_| Some("greedy".to_string()), |s, e| s == e);
        let (layout, outcomes) = b.finish();
        assert_eq!(layout.outcomes.len(), 2);
        assert_eq!(outcomes.row(Ending::Seat { seat: 1, entry: 1 }), Row(1));
    }

    #[test]
    fn team_rows_and_records_sized_from_the_layout() {
        let mut b = LayoutBuilder::new("rounds");
        b.team_wins(&["a", "b"]).plain(&[OutcomeKind::Draw]);
        let c = b.counter("mvp_shared");
        let d = b.distribution("margin");
        let (layout, outcomes) = b.finish();
        assert_eq!(outcomes.row(Ending::Team(1)), Row(1));
        assert_eq!(layout.outcomes[1].team.as_deref(), Some("b"));
        let mut rec = GameRecord::new(&layout);
        rec.count(c, 2);
        rec.raise(c, 1);
        rec.observe(d, -3);
        rec.end(outcomes.row(Ending::Plain(OutcomeKind::Draw)));
        assert_eq!((rec.get(c), rec.outcome, rec.observations()), (2, 2, &[(0u16, -3i64)][..]));
        rec.reset();
        assert_eq!((rec.get(c), rec.observations().len(), rec.counters.len()), (0, 0, 1));
    }

    #[test]
    #[should_panic(expected = "does not declare")]
    fn an_undeclared_ending_is_a_bug() {
        let (_, outcomes) = LayoutBuilder::new("battles").finish();
        outcomes.row(Ending::Plain(OutcomeKind::Scorched));
    }
}
