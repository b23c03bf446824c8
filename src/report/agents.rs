//! The agents' win-rate matrix of decision games: for every scenario point in which exactly two
//! distinct policies meet (two seats, or more seats shared between two policies, usually with
//! seats rotated so deal luck cancels out), the share of all games each policy won against the
//! other (draws count as games not won), with its 95% interval: Wilson's over independent games,
//! the ratio estimator's over deal groups when seats rotate (the rotations of one deal are one
//! observation, `stats::group`). Written as `agents.csv`. `plots/agents.svg` draws each point's
//! shares of its decided games instead (`decided_shares`), so points are never pooled.

use std::io::Write;

use super::format::real;
use super::{Export, PointResult, RunResult};
use crate::record::OutcomeKind;
use crate::stats::tracked::Key;
use crate::stats::{GroupSums, Interval, Merge};

/// One cell: how often `agent` won against `opponent`, over every point where they met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub agent: String,
    pub opponent: String,
    pub wins: u64,
    pub games: u64,
    /// The agent's wins over the deal groups of every point where they met (independent points
    /// pool their groups).
    pub sums: GroupSums,
}

impl Cell {
    /// The win share of all games and its 95% interval.
    pub fn interval(&self) -> Interval {
        self.sums.rate()
    }
}

/// Each policy of a point's win rows, in order of appearance: (policy, games won, group sums of
/// the wins).
pub fn policy_wins(p: &PointResult) -> Vec<(String, u64, GroupSums)> {
    let mut rows: Vec<(String, Vec<u16>)> = Vec::new();
    for (i, o) in p.layout.outcomes.iter().enumerate() {
        let (OutcomeKind::Win, Some(policy)) = (o.kind, &o.policy) else { continue };
        match rows.iter_mut().find(|(name, _)| name == policy) {
            Some(r) => r.1.push(i as u16),
            None => rows.push((policy.clone(), vec![i as u16])),
        }
    }
    let plan = p.acc.plan(&p.layout);
    rows.into_iter()
        .map(|(policy, rows)| {
            let wins = rows.iter().map(|&r| p.acc.outcomes[r as usize]).sum();
            let sums = p.acc.sums(&plan, &Key::Rows(rows)).unwrap_or_default();
            (policy, wins, sums)
        })
        .collect()
}

/// A point's results as shares of its decided games (games some seat won), with their 95%
/// intervals: each agent's, in order of appearance (the line-up's order), and each seat's.
#[derive(Clone, Debug, PartialEq)]
pub struct DecidedShares {
    pub agents: Vec<(String, Interval)>,
    pub seats: Vec<Interval>,
    /// A share of decided games the game declares itself (`Layout::shares`: the first player's,
    /// where the first player is drawn per deal and seat 0 says nothing), with its name.
    pub declared: Option<(String, Interval)>,
}

/// The shares of decided games of point `p` (`stats::tracked::decided_sets`): over deal groups
/// when seats rotate, Wilson's on the decided games when every game is its own deal.
pub fn decided_shares(p: &PointResult) -> DecidedShares {
    let plan = p.acc.plan(&p.layout);
    let share = |rows: Vec<u16>| p.acc.interval(&plan, &Key::OfDecided(rows));
    let wins: Vec<&crate::record::OutcomeKey> =
        p.layout.outcomes.iter().filter(|o| o.kind == OutcomeKind::Win).collect();
    let rows_where = |keep: &dyn Fn(&crate::record::OutcomeKey) -> bool| -> Vec<u16> {
        let rows = p.layout.outcomes.iter().enumerate();
        rows.filter(|(_, o)| o.kind == OutcomeKind::Win && keep(o)).map(|(i, _)| i as u16).collect()
    };
    let mut agents: Vec<(String, Interval)> = Vec::new();
    let mut seats: Vec<u8> = Vec::new();
    for o in &wins {
        if let Some(policy) = &o.policy
            && !agents.iter().any(|(name, _)| name == policy)
        {
            agents.push((policy.clone(), share(rows_where(&|x| x.policy.as_ref() == Some(policy)))));
        }
        if let Some(seat) = o.seat
            && !seats.contains(&seat)
        {
            seats.push(seat);
        }
    }
    seats.sort_unstable();
    let seats = seats.into_iter().map(|s| share(rows_where(&|x| x.seat == Some(s)))).collect();
    let declared = p.layout.shares.iter().position(|s| s.of == OutcomeKind::Win).map(|i| {
        let name = &p.layout.shares[i].name;
        let words = name.split("_win_share").next().unwrap_or(name).replace('_', " ");
        (words, p.interval(&Key::Share(i)))
    });
    DecidedShares { agents, seats, declared }
}

/// The matrix of a run: one cell per ordered pair of policies that met, in order of appearance.
/// Points with one policy (mirror matches) or three or more are not head-to-head and are left out.
pub fn matrix(run: &RunResult) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    for p in &run.points {
        let wins = policy_wins(p);
        if wins.len() != 2 {
            continue;
        }
        for (me, them) in [(0, 1), (1, 0)] {
            let (agent, opponent) = (&wins[me].0, &wins[them].0);
            match cells.iter_mut().find(|c| &c.agent == agent && &c.opponent == opponent) {
                Some(c) => {
                    c.wins += wins[me].1;
                    c.games += p.acc.games;
                    c.sums.merge(&wins[me].2);
                }
                None => cells.push(Cell {
                    agent: agent.clone(),
                    opponent: opponent.clone(),
                    wins: wins[me].1,
                    games: p.acc.games,
                    sums: wins[me].2,
                }),
            }
        }
    }
    cells
}

/// `agents.csv`: `agent,opponent,wins,games,win_rate,ci95_low,ci95_high` (draws count as games
/// not won). Written only for runs in which agents met head to head.
pub struct AgentsCsv;

impl Export for AgentsCsv {
    fn file_name(&self) -> &'static str {
        "agents.csv"
    }

    fn applies(&self, run: &RunResult) -> bool {
        !matrix(run).is_empty()
    }

    fn write(&self, run: &RunResult, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
        w.write_record(["agent", "opponent", "wins", "games", "win_rate", "ci95_low", "ci95_high"])?;
        for c in matrix(run) {
            let ci = c.interval();
            w.write_record([
                c.agent,
                c.opponent,
                c.wins.to_string(),
                c.games.to_string(),
                real(ci.estimate),
                real(ci.low),
                real(ci.high),
            ])?;
        }
        w.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Layout, OutcomeKey};
    use crate::report::{Manifest, PointResult};
    use crate::settings::Settings;
    use crate::stats::Accumulator;

    fn point(label: &str, rows: &[(u8, &str, u64)], draws: u64) -> PointResult {
        let mut outcomes: Vec<OutcomeKey> = rows
            .iter()
            .map(|&(s, p, _)| OutcomeKey {
                policy: Some(p.into()),
                ..OutcomeKey::seat(OutcomeKind::Win, s as usize)
            })
            .collect();
        outcomes.push(OutcomeKey::plain(OutcomeKind::Draw));
        let layout = Layout::plain("rounds", outcomes, Vec::new());
        let mut acc = Accumulator::new(&layout);
        for (i, &(_, _, n)) in rows.iter().enumerate() {
            acc.outcomes[i] = n;
        }
        *acc.outcomes.last_mut().unwrap() = draws;
        acc.games = acc.outcomes.iter().sum();
        PointResult {
            label: label.into(),
            game: "territories",
            settings: Settings::restore("territories", &[], false, "standard", &[], &[]).unwrap(),
            layout,
            acc,
        }
    }

    #[test]
    fn a_mirror_reads_its_seat_effect_from_the_share_the_game_declares() {
        // A mirror of two seats whose game draws who plays first: seat 0 won 5 of 8 decided games,
        // the first player 6 of them; 2 draws are in no denominator.
        let mut p = point("m", &[(0, "greedy", 0), (1, "greedy", 0)], 0);
        p.layout.counters = vec!["first_player_wins".into()];
        p.layout.shares.push(crate::record::Share {
            name: "first_player_win_share_of_decided".into(),
            counter: 0,
            of: OutcomeKind::Win,
            of_name: "decided_games".into(),
        });
        p.acc = Accumulator::new(&p.layout);
        let games = [(0, 1), (0, 1), (0, 1), (0, 1), (0, 0), (1, 1), (1, 1), (1, 0), (2, 0), (2, 0)];
        for (i, &(outcome, first)) in games.iter().enumerate() {
            let mut rec = crate::record::GameRecord::new(&p.layout);
            rec.outcome = outcome;
            rec.counters[0] = first;
            p.acc.record(i as u64, &rec);
        }
        let d = decided_shares(&p);
        assert_eq!(d.agents.len(), 1, "a mirror has one agent");
        assert_eq!(d.seats[0], crate::stats::wilson(5, 8));
        let (who, first) = d.declared.expect("the declared share");
        assert_eq!((who.as_str(), first.estimate), ("first player", 6.0 / 8.0));
    }

    #[test]
    fn rotated_seats_add_up_per_policy_and_mirrors_are_left_out() {
        // Seats rotated: each policy sat in each seat.
        let a = point("a", &[(0, "greedy", 40), (0, "random", 8), (1, "greedy", 42), (1, "random", 6)], 4);
        let mirror = point("m", &[(0, "greedy", 50), (1, "greedy", 50)], 0);
        let b = point("b", &[(0, "greedy", 10), (1, "random", 8)], 2);
        let manifest: Manifest = serde_json::from_str(
            r#"{"warsim_version":"0","git_commit":null,"command_line":[],"scenario":"s","seed":1,"games":1,
            "shards":"1/1","threads":1,"start_time":"","end_time":"","points":[],"scenario_text":null,"until":null,"partial":false,"point_games":[]}"#,
        )
        .unwrap();
        let run =
            RunResult { points: vec![a, mirror, b], manifest, timings: Vec::new(), effects: Vec::new() };
        let m = matrix(&run);
        let cells: Vec<(&str, &str, u64, u64)> =
            m.iter().map(|c| (c.agent.as_str(), c.opponent.as_str(), c.wins, c.games)).collect();
        assert_eq!(cells, [("greedy", "random", 92, 120), ("random", "greedy", 22, 120)]);
        // Independent games: Wilson's interval on the pooled counts.
        assert_eq!(m[0].interval(), crate::stats::wilson(92, 120));
    }
}
