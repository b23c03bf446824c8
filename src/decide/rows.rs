//! The rows a decision game reports per seat and per policy, and where a game's result lands in
//! them under rotation.
//!
//! `outcomes.csv` has one `win` row per (seat, policy) that can occur: every policy of the line-up
//! at every seat when seats rotate, each seat's own policy when they do not; two entries of one
//! policy share a row. A game counts in exactly one outcome row, so per-policy totals, whatever the
//! seat, come from per-policy counters (`wins_<policy>`) and distributions
//! (`points_policy_<policy>`); per-seat distributions are named `<prefix><seat>`. `PolicyRows`
//! declares the win rows on the game's `LayoutBuilder`, names the families in a fixed order, and
//! maps (seat, seating) to the `Ending` and the policy index of a result.

use super::seats::{Lineup, Seating};
use crate::record::{Counters, Ending, LayoutBuilder, OutcomeKind};

/// The per-seat and per-policy rows of one scenario point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRows {
    seats: usize,
    rotate: bool,
    /// Each line-up entry's policy name.
    entry_names: Vec<String>,
    /// The line-up's distinct policies, by name, in first-seat order.
    names: Vec<String>,
    /// Line-up entry -> index of its policy in `names`.
    entry_policy: Vec<usize>,
}

impl PolicyRows {
    /// The rows of `lineup` (policy indices into `known`, the game's policy names).
    pub fn new(lineup: &Lineup, rotate: bool, known: &[&str]) -> PolicyRows {
        let seats = lineup.policies.len();
        let distinct = lineup.distinct();
        let names = distinct.iter().map(|&p| known[p].to_string()).collect();
        let entry_names = lineup.policies.iter().map(|&p| known[p].to_string()).collect();
        let entry_policy =
            lineup.policies.iter().map(|p| distinct.iter().position(|d| d == p).expect("listed")).collect();
        PolicyRows { seats, rotate, entry_names, names, entry_policy }
    }

    /// The rows of a line-up whose entries all differ, named `names` (an event's entrants, or
    /// seats that differ in more than their policy).
    pub fn named(names: &[String], rotate: bool) -> PolicyRows {
        let known: Vec<&str> = names.iter().map(String::as_str).collect();
        PolicyRows::new(&Lineup { policies: (0..names.len()).collect() }, rotate, &known)
    }

    /// Opens the layout of a seated game, whose length is counted in `unit`, as every one opens
    /// it: the `win` rows and deal groups (`declare_wins`), the game's other endings `plain`, then
    /// its own counters `counters` (`declare!`'s `NAMES`, so that its constants are their indices).
    pub fn open_layout(
        &self,
        unit: &str,
        plain: &[OutcomeKind],
        counters: &[&str],
    ) -> (LayoutBuilder, Counters) {
        let mut b = LayoutBuilder::new(unit);
        self.declare_wins(&mut b);
        b.plain(plain);
        let own = b.declared_counters(counters);
        (b, own)
    }

    /// Declares the `win` rows: seat by seat, policies in line-up order, each (seat, policy) once;
    /// and the games that share a deal (`Seating::games_per_deal`) as the layout's deal groups.
    pub fn declare_wins(&self, b: &mut LayoutBuilder) {
        let rotate = self.rotate;
        b.deal_groups(Seating::games_per_deal(self.seats, rotate));
        b.seat_policy_wins(
            self.seats,
            self.seats,
            |entry| Some(self.entry_names[entry].clone()),
            |seat, entry| rotate || entry == seat,
        );
    }

    /// How a game won by `seat`, seated as `seating` says, ended.
    #[inline]
    pub fn win(&self, seating: &Seating, seat: usize) -> Ending {
        Ending::Seat { seat, entry: seating.entry(seat) }
    }

    /// The line-up's distinct policies, by name: the order of every per-policy family.
    pub fn policies(&self) -> &[String] {
        &self.names
    }

    /// The index in `policies` of line-up entry `entry`'s policy.
    #[inline]
    pub fn entry_policy(&self, entry: usize) -> usize {
        self.entry_policy[entry]
    }

    /// The index in `policies` of the policy playing `seat` in a game seated as `seating` says.
    #[inline]
    pub fn policy(&self, seating: &Seating, seat: usize) -> usize {
        self.entry_policy[seating.entry(seat)]
    }

    /// One name per distinct policy: `wins_` gives `wins_greedy`, `wins_random`, ...
    pub fn per_policy(&self, prefix: &str) -> Vec<String> {
        self.names.iter().map(|name| format!("{prefix}{name}")).collect()
    }

    /// One name per seat: `points_seat_` gives `points_seat_0`, `points_seat_1`, ...
    pub fn per_seat(&self, prefix: &str) -> Vec<String> {
        (0..self.seats).map(|seat| format!("{prefix}{seat}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Layout, OutcomeKind, Outcomes};
    use crate::seed::GameSeed;

    const KNOWN: &[&str] = &["random", "greedy", "drawer", "search"];

    fn rows(lineup: &str, rotate: bool) -> (PolicyRows, Layout, Outcomes) {
        let players = lineup.split(',').count();
        let r = PolicyRows::new(&Lineup::parse(lineup, players, KNOWN).unwrap(), rotate, KNOWN);
        let mut b = LayoutBuilder::new("rounds");
        r.declare_wins(&mut b);
        let (layout, outcomes) = b.finish();
        (r, layout, outcomes)
    }

    fn keys(l: &Layout) -> Vec<(u8, &str)> {
        l.outcomes.iter().map(|k| (k.seat.unwrap(), k.policy.as_deref().unwrap())).collect()
    }

    #[test]
    fn rotated_rows_list_every_policy_at_every_seat_seat_by_seat() {
        let (r, l, _) = rows("greedy,random,greedy", true);
        assert_eq!(
            keys(&l),
            vec![(0, "greedy"), (0, "random"), (1, "greedy"), (1, "random"), (2, "greedy"), (2, "random")]
        );
        assert_eq!(r.policies(), ["greedy", "random"]);
        assert_eq!(r.per_policy("wins_"), vec!["wins_greedy", "wins_random"]);
        assert_eq!(r.per_seat("points_seat_"), vec!["points_seat_0", "points_seat_1", "points_seat_2"]);
        assert!(l.outcomes.iter().all(|k| k.kind == OutcomeKind::Win && k.team.is_none()));
    }

    #[test]
    fn a_win_lands_in_the_row_of_the_policy_that_sat_there() {
        let (r, l, o) = rows("greedy,random,greedy", true);
        // Game 4 of a rotated run: rotation 1, so seat s plays line-up entry (s + 1) % 3.
        let seating = Seating::new(GameSeed::new(3, 4), 3, true);
        let at = |seat| {
            let k = &l.outcomes[o.row(r.win(&seating, seat)).0 as usize];
            (k.seat.unwrap(), k.policy.clone().unwrap(), r.policies()[r.policy(&seating, seat)].clone())
        };
        assert_eq!(at(0), (0, "random".into(), "random".into()));
        assert_eq!(at(1), (1, "greedy".into(), "greedy".into()));
        assert_eq!(at(2), (2, "greedy".into(), "greedy".into()));
    }

    #[test]
    fn unrotated_rows_are_one_per_seat() {
        let (r, l, o) = rows("drawer,random,drawer", false);
        assert_eq!(keys(&l), vec![(0, "drawer"), (1, "random"), (2, "drawer")]);
        let seating = Seating::new(GameSeed::new(3, 4), 3, false);
        assert_eq!((0..3).map(|s| o.row(r.win(&seating, s)).0).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!((0..3).map(|s| r.policy(&seating, s)).collect::<Vec<_>>(), vec![0, 1, 0]);
    }
}
