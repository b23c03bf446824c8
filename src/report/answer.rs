//! The answer first: a scenario's question answered with its 95% interval and what a share is a
//! share of, before any table (terminal and `report.html`): one sentence per answer when there
//! are a few, a compact table (one row per answer) when there are more.
//!
//! A question is a metric or share name (`question = "first_player_win_share"`; several separated
//! by commas), or one of the question kinds a decision or card game's scenario needs:
//! - `policy_wins` (which policy wins): each policy's share of all games won, with its interval
//!   over deal groups; in a mirror match (one policy) each seat's, which is the seat effect;
//! - `card_impact` (which cards decide games): per point the cards with the largest causal impact
//!   on their owner's chance to win (the per-card table's paired mean `impact`, in points per
//!   game), or without replays the cards whose games their owner won most often (`game_win_rate`,
//!   a share of the games the card was played in).

use super::format::grouped;
use super::{PointResult, RunResult};
use crate::record::OutcomeKind;
use crate::stats::Interval;
use crate::stats::metric;
use crate::stats::tracked::Key;

/// Which policy wins.
pub const POLICY_WINS: &str = "policy_wins";
/// Which cards decide games.
pub const CARD_IMPACT: &str = "card_impact";
/// Cards named per point by `card_impact`.
const TOP_CARDS: usize = 3;
/// Most answers said as sentences; more make a table.
pub const FEW: usize = 6;

/// One answer: at one point, a quantity's interval and what it is a share (or mean) of.
pub struct Answer {
    pub label: String,
    /// What is measured (`first_player_win_share`, `greedy wins`, `warlord impact`).
    pub what: String,
    pub interval: Interval,
    /// A share (written in percent), else a mean.
    pub rate: bool,
    /// `of decided games (...)`, `of all 2,000 games`, `over 2,000 games`.
    pub of: String,
}

impl Answer {
    /// `estimate [low, high]`, in percent for a share.
    pub fn value(&self) -> String {
        let i = &self.interval;
        if self.rate {
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
        } else {
            format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high)
        }
    }

    pub fn sentence(&self) -> String {
        format!("{}: {} {} {}", self.label, self.what, self.value(), self.of)
    }
}

/// The question's value at one point as a metric or declared share: its interval and the words
/// saying what it is a share of.
fn metric_answer(p: &PointResult, question: &str) -> Option<Answer> {
    let q = question.trim();
    let answer =
        |interval, rate, of| Answer { label: p.label.clone(), what: q.to_string(), interval, rate, of };
    if let Some(i) =
        p.layout.shares.iter().position(|s| s.name == q || s.name.starts_with(&format!("{q}_of")))
    {
        let share = &p.layout.shares[i];
        let decided = super::csv_files::kind_count(p, share.of).unwrap_or(0);
        let other = p.acc.games - decided;
        let of = if share.of == OutcomeKind::Win {
            format!(
                "of decided games ({} decided, {} capped or stalled)",
                grouped(decided as i128),
                grouped(other as i128)
            )
        } else {
            format!("of {} games ({})", share.of.name(), grouped(decided as i128))
        };
        return Some(answer(p.interval(&Key::Share(i)), true, of));
    }
    let m = metric::resolve(q, &p.layout)?;
    let rate = m.quantity.is_rate();
    let games = grouped(p.acc.games as i128);
    // A length is counted in the game's own unit (battles, rounds, turns, slots).
    let unit = if q.starts_with("length") { format!("{} ", p.layout.length_unit) } else { String::new() };
    let of = if rate { format!("of all {games} games") } else { format!("{unit}over {games} games") };
    Some(answer(p.interval(&m.quantity.key()), rate, of))
}

/// Each policy's share of all games won at one point (each seat's in a mirror match).
fn policy_answers(p: &PointResult) -> Vec<Answer> {
    let wins: Vec<(usize, &crate::record::OutcomeKey)> =
        p.layout.outcomes.iter().enumerate().filter(|(_, o)| o.kind == OutcomeKind::Win).collect();
    let mut policies: Vec<&str> = wins.iter().filter_map(|(_, o)| o.policy.as_deref()).collect();
    policies.sort_unstable();
    policies.dedup();
    let games = grouped(p.acc.games as i128);
    // An event's unit is a whole tournament.
    let unit = if p.layout.entrants.is_some() { "tournaments" } else { "games" };
    let answer = |what: String, rows: Vec<u16>| Answer {
        label: p.label.clone(),
        what,
        interval: p.interval(&Key::Rows(rows)),
        rate: true,
        of: format!("of all {games} {unit}"),
    };
    if policies.len() >= 2 {
        return policies
            .iter()
            .map(|&name| {
                let rows =
                    wins.iter().filter(|(_, o)| o.policy.as_deref() == Some(name)).map(|(i, _)| *i as u16);
                answer(format!("{name} wins"), rows.collect())
            })
            .collect();
    }
    // A mirror: the policy cannot beat itself, so the answer is the seat effect.
    let mut seats: Vec<u8> = wins.iter().filter_map(|(_, o)| o.seat).collect();
    seats.sort_unstable();
    seats.dedup();
    seats
        .iter()
        .map(|&s| {
            let rows = wins.iter().filter(|(_, o)| o.seat == Some(s)).map(|(i, _)| *i as u16);
            let who = policies.first().map_or(String::new(), |p| format!(" ({p} mirror)"));
            answer(format!("seat {}{who} wins", s + 1), rows.collect())
        })
        .collect()
}

/// The cards that decide games at one point: largest impact first, or without replays the
/// highest win rate of the games they were played in.
fn card_answers(p: &PointResult) -> Vec<Answer> {
    let Some(t) = &p.layout.cards else { return Vec::new() };
    let plan = p.acc.plan(&p.layout);
    let mut found: Vec<Answer> = Vec::new();
    if let Some(m) = t.paired.iter().find(|m| m.name == "impact") {
        for k in 0..t.keys.len() {
            let e = super::paired_means::of_card(&p.acc, &plan, t, k, m);
            if e.n >= 2 && e.interval.estimate.is_finite() {
                found.push(Answer {
                    label: p.label.clone(),
                    what: format!("{} impact", t.keys[k]),
                    interval: e.interval,
                    rate: false,
                    of: format!(
                        "on its owner's chance to win, in points per game ({} paired games)",
                        grouped(e.n as i128)
                    ),
                });
            }
        }
        found.sort_by(|a, b| b.interval.estimate.abs().total_cmp(&a.interval.estimate.abs()));
    } else if let Some(r) = t.rates.iter().position(|(n, _, _)| n == "game_win_rate") {
        let den = t.rates[r].2;
        for k in 0..t.keys.len() {
            let played = p.acc.counters[t.first as usize + k * t.columns.len() + den].total;
            if played > 0 {
                found.push(Answer {
                    label: p.label.clone(),
                    what: format!("{} wins", t.keys[k]),
                    interval: p.interval(&Key::CardRate(k, r)),
                    rate: true,
                    of: format!("of the {} games it was played in", grouped(played as i128)),
                });
            }
        }
        found.sort_by(|a, b| b.interval.estimate.total_cmp(&a.interval.estimate));
    }
    found.truncate(TOP_CARDS);
    for a in &mut found {
        // Impacts are in points of the win share: say them so.
        if !a.rate {
            a.interval = Interval {
                estimate: 100.0 * a.interval.estimate,
                low: 100.0 * a.interval.low,
                high: 100.0 * a.interval.high,
                ..a.interval
            };
        }
    }
    found
}

/// Whether a point of `layout` can answer `question` (the question kinds always can: a point
/// without policies or cards has no row).
pub fn answerable(question: &str, layout: &crate::record::Layout) -> bool {
    question.split(',').all(|q| answerable_one(q, layout))
}

fn answerable_one(question: &str, layout: &crate::record::Layout) -> bool {
    let q = question.trim();
    q == POLICY_WINS
        || q == CARD_IMPACT
        || layout.shares.iter().any(|s| s.name == q || s.name.starts_with(&format!("{q}_of")))
        || metric::resolve(q, layout).is_some()
}

/// Every answer of the run's question (or questions, separated by commas), point by point (none
/// without a question).
pub fn answers(run: &RunResult) -> Vec<Answer> {
    let Some(qs) = run.manifest.question.as_deref() else { return Vec::new() };
    run.points
        .iter()
        .flat_map(|p| {
            qs.split(',').flat_map(move |q| match q.trim() {
                POLICY_WINS => policy_answers(p),
                CARD_IMPACT => card_answers(p),
                _ => metric_answer(p, q).into_iter().collect(),
            })
        })
        .collect()
}

/// One sentence per answer.
pub fn sentences(run: &RunResult) -> Vec<String> {
    answers(run).iter().map(Answer::sentence).collect()
}

/// The sentence over a compact table: the lowest and the highest answer, each with its interval
/// and what it is a share of.
pub fn headline(question: &str, answers: &[Answer]) -> String {
    let by = |a: &&Answer, b: &&Answer| a.interval.estimate.total_cmp(&b.interval.estimate);
    let (Some(lo), Some(hi)) = (answers.iter().min_by(by), answers.iter().max_by(by)) else {
        return String::new();
    };
    format!(
        "{question}: lowest {} {} {} at {}; highest {} {} {} at {} ({} answers, one row each):",
        lo.what,
        lo.value(),
        lo.of,
        lo.label,
        hi.what,
        hi.value(),
        hi.of,
        hi.label,
        answers.len()
    )
}

/// The compact form: when there are more than `FEW` answers, one row per answer (point, what,
/// estimate, interval, of what); None when sentences read better.
pub fn table(answers: &[Answer]) -> Option<Vec<[String; 5]>> {
    (answers.len() > FEW).then(|| {
        answers
            .iter()
            .map(|a| {
                let (est, range) =
                    a.value().split_once(' ').map(|(e, r)| (e.to_string(), r.to_string())).unwrap();
                [a.label.clone(), a.what.clone(), est, range, a.of.clone()]
            })
            .collect()
    })
}
