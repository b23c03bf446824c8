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

use super::format::{self, RateScale, grouped};
use super::labels::Sweep;
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
    /// What a share counts, and its noun (`2,000` `game`s, `1,788` `decided game`s): a share
    /// without an event is `none in 2,000 games`.
    pub trials: u64,
    pub noun: String,
    /// The games played at the point, for the games a rare share would need.
    pub games: u64,
}

impl Answer {
    /// `estimate [low, high]`: a share as `format::rate` writes it (`56.5% [54.7, 58.3]`,
    /// `2.2 in 100,000 [1.9, 2.5]`, `none in 2,000 games (at most 1.8 in 1,000)`).
    pub fn value(&self) -> String {
        let i = &self.interval;
        if self.rate {
            format::rate(i, self.trials, &self.noun)
        } else {
            format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high)
        }
    }

    /// Whether the value already says what it is a share of (`none in 2,000 games`).
    fn says_its_trials(&self) -> bool {
        self.rate && (self.interval.estimate == 0.0 || self.interval.estimate == 1.0)
    }

    /// What the share is of, unless the value says it already.
    fn of_words(&self) -> &str {
        if self.says_its_trials() && self.of.starts_with("of all") { "" } else { &self.of }
    }

    /// For a share too rare for the games played, how many would measure it.
    fn precision(&self) -> Option<String> {
        if self.rate { format::precision_note(&self.interval, self.games) } else { None }
    }

    pub fn sentence(&self) -> String {
        let mut s = format!("{}: {} {}", self.label, self.what, self.value());
        if !self.of_words().is_empty() {
            s.push(' ');
            s.push_str(self.of_words());
        }
        if let Some(note) = self.precision() {
            s.push_str(&format!("; {note}"));
        }
        s
    }
}

/// A metric's name in words: `games with final battle out of units` for
/// `final_battle_out_of_units_share_of_games`, `scorched endings` for `scorched_rate`, `mean length`
/// for `length_mean`.
pub fn words(metric: &str) -> String {
    let m = metric.trim();
    let spaced = |s: &str| s.replace('_', " ");
    if let Some(x) = m.strip_suffix("_share_of_games") {
        format!("games with {}", spaced(x))
    } else if m == "length_mean" {
        "mean length".into()
    } else if let Some(x) = m.strip_suffix("_rate") {
        format!("{} endings", spaced(x))
    } else if let Some(x) = m.strip_suffix("_mean") {
        format!("mean {}", spaced(x))
    } else {
        spaced(m)
    }
}

/// The question's value at one point as a metric or declared share: its interval and the words
/// saying what it is a share of.
fn metric_answer(p: &PointResult, question: &str) -> Option<Answer> {
    let q = question.trim();
    let games = p.acc.games;
    let answer = |interval, rate, of, trials, noun: String| Answer {
        label: p.label.clone(),
        what: words(q),
        interval,
        rate,
        of,
        trials,
        noun,
        games,
    };
    if let Some(i) =
        p.layout.shares.iter().position(|s| s.name == q || s.name.starts_with(&format!("{q}_of")))
    {
        let share = &p.layout.shares[i];
        let decided = super::csv_files::kind_count(p, share.of).unwrap_or(0);
        let other = p.acc.games - decided;
        let (of, noun) = if share.of == OutcomeKind::Win {
            let of = format!(
                "of decided games ({} decided, {} capped or stalled)",
                grouped(decided as i128),
                grouped(other as i128)
            );
            (of, "decided game".to_string())
        } else {
            let of = format!("of {} games ({})", share.of.name(), grouped(decided as i128));
            (of, format!("{} game", share.of.name()))
        };
        return Some(answer(p.interval(&Key::Share(i)), true, of, decided, noun));
    }
    let m = metric::resolve(q, &p.layout)?;
    let rate = m.quantity.is_rate();
    // A length is counted in the game's own unit (battles, rounds, turns, slots).
    let unit = if q.starts_with("length") { format!("{} ", p.layout.length_unit) } else { String::new() };
    let (trials, games) = (p.acc.games, grouped(p.acc.games as i128));
    let of = if rate { format!("of all {games} games") } else { format!("{unit}over {games} games") };
    Some(answer(p.interval(&m.quantity.key()), rate, of, trials, "game".into()))
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
        trials: p.acc.games,
        noun: unit.trim_end_matches('s').to_string(),
        games: p.acc.games,
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
            // A card whose text never changed a result has nothing to say here.
            let never = e.interval.low == 0.0 && e.interval.high == 0.0;
            if e.n >= 2 && e.interval.estimate.is_finite() && !never {
                found.push(Answer {
                    label: p.label.clone(),
                    what: format!("{} impact", t.keys[k]),
                    interval: e.interval,
                    rate: false,
                    of: format!(
                        "on its owner's chance to win, in points per game ({} paired games)",
                        grouped(e.n as i128)
                    ),
                    trials: e.n,
                    noun: "paired game".into(),
                    games: p.acc.games,
                });
            }
        }
        // Largest first by what the interval surely shows: its nearest end's distance from 0.
        let sure = |a: &Answer| {
            let i = &a.interval;
            if i.low > 0.0 {
                i.low
            } else if i.high < 0.0 {
                -i.high
            } else {
                0.0
            }
        };
        found.sort_by(|a, b| {
            sure(b).total_cmp(&sure(a)).then(b.interval.estimate.abs().total_cmp(&a.interval.estimate.abs()))
        });
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
                    trials: u64::try_from(played).unwrap_or(u64::MAX),
                    noun: "game".into(),
                    games: p.acc.games,
                });
            }
        }
        // Highest first by the interval's low end: a card played in a handful of games does not
        // top the list on luck.
        found.sort_by(|a, b| {
            b.interval
                .low
                .total_cmp(&a.interval.low)
                .then(b.interval.estimate.total_cmp(&a.interval.estimate))
        });
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

/// The metrics answered, in order of first appearance (`what`).
fn metrics(answers: &[Answer]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for a in answers {
        if !out.contains(&a.what.as_str()) {
            out.push(&a.what);
        }
    }
    out
}

/// What the answers of one metric are shares (or means) of, said once: their common words, or
/// the words before their counts (`of decided games`).
fn common_of(answers: &[&Answer]) -> String {
    let first = answers.first().map_or("", |a| a.of.as_str());
    if answers.iter().all(|a| a.of == first) {
        return first.to_string();
    }
    first.split(" (").next().unwrap_or(first).to_string()
}

/// One sentence per metric over a compact table: its lowest and highest point (or how many points
/// share them), what it is a share of, and for a share too rare for the games played how many
/// games would measure it. A metric's lowest is never set beside another's highest.
pub fn headline(_question: &str, answers: &[Answer]) -> String {
    let labels: Vec<String> = answers.iter().map(|a| a.label.clone()).collect();
    let sweep = Sweep::of(&labels);
    // A point told by its settings in the game's words (`card set cards/imbalance.toml, placement
    // random`), its whole label's when nothing varies.
    let short = |a: &Answer| {
        let i = labels.iter().position(|l| *l == a.label).unwrap_or(0);
        let game = super::labels::words(&a.label).first().map(|w| w.1.clone()).unwrap_or_default();
        let said: Vec<String> = sweep
            .keys
            .iter()
            .zip(&sweep.values[i])
            .filter(|(k, _)| *k != super::labels::GAME && *k != super::labels::REPEAT)
            .filter_map(|(k, v)| v.as_ref().map(|v| super::pivot::setting_words(&game, k, v)))
            .collect();
        if said.is_empty() { sweep.short(i) } else { said.join(", ") }
    };
    let mut out: Vec<String> = Vec::new();
    if !is_pivot(answers) {
        // Different things measured at each point (the cards that decide each point's games): the
        // largest of them, with its point.
        let by = |a: &&Answer, b: &&Answer| {
            let key = |x: &Answer| if x.rate { x.interval.estimate } else { x.interval.estimate.abs() };
            key(a).total_cmp(&key(b))
        };
        let Some(top) = answers.iter().max_by(by) else { return String::new() };
        let mut s = format!("{}: {}", top.what, top.value());
        if !top.of_words().is_empty() {
            s.push_str(&format!(" {}", top.of_words()));
        }
        let largest = if top.rate { "the highest" } else { "the largest" };
        s.push_str(&format!(" at {}, {largest} of {} answers (one row each).", short(top), answers.len()));
        return s;
    }
    for what in metrics(answers) {
        let of: Vec<&Answer> = answers.iter().filter(|a| a.what == what).collect();
        let by = |a: &&&Answer, b: &&&Answer| a.interval.estimate.total_cmp(&b.interval.estimate);
        let (Some(lo), Some(hi)) = (of.iter().min_by(by), of.iter().max_by(by)) else { continue };
        let at = |x: &Answer| {
            let tied = of.iter().filter(|a| a.interval.estimate == x.interval.estimate).count();
            if tied > 1 { format!("at {tied} points") } else { format!("at {}", short(x)) }
        };
        let of_words = common_of(&of);
        let mut sentence = if of.len() == 1 {
            let mut s = format!("{what}: {}", lo.value());
            if !lo.of_words().is_empty() {
                s.push_str(&format!(" {}", lo.of_words()));
            }
            s
        } else if lo.rate && hi.interval.estimate == 0.0 {
            let fewest = of.iter().min_by_key(|a| a.interval.units).unwrap_or(lo);
            let each = if of.iter().all(|a| a.trials == fewest.trials) {
                format!(" in {} each", format::count(fewest.trials, &fewest.noun))
            } else {
                String::new()
            };
            let units = if fewest.interval.units > 0 { fewest.interval.units } else { fewest.trials };
            format!(
                "{what}: none at any of the {} points{each} (at most {} at each)",
                of.len(),
                format::at_most(units)
            )
        } else {
            let what = if of_words.is_empty() { what.to_string() } else { format!("{what} ({of_words})") };
            if lo.interval.estimate == hi.interval.estimate {
                format!("{what}: {} at every point", lo.value())
            } else {
                format!("{what}: from {} {} to {} {}", lo.value(), at(lo), hi.value(), at(hi))
            }
        };
        let sentence_trimmed = sentence.trim_end().to_string();
        sentence = sentence_trimmed;
        if let Some(note) = of.iter().find_map(|a| a.precision()) {
            sentence.push_str(&format!("; {note}"));
        }
        sentence.push('.');
        out.push(sentence);
    }
    out.join("\n")
}

/// One column of the compact table: a metric, its unit in the header (`%`, `per 1,000`), and per
/// point its estimate and interval (or bound).
pub struct PivotColumn {
    pub header: String,
    pub cells: Vec<(String, String)>,
}

/// The compact form: when there are more than `FEW` answers, one row per point (the settings that
/// vary, `Sweep`) and one column per metric when every point answers the same metrics, else one
/// row per answer; None when sentences read better. Returns the sweep of the rows' labels, the
/// settings of each row, and the columns.
pub fn table(answers: &[Answer]) -> Option<(Sweep, Vec<PivotColumn>)> {
    if answers.len() <= FEW {
        return None;
    }
    let points = points(answers);
    let names = metrics(answers);
    if is_pivot(answers) {
        let labels: Vec<String> = points.iter().map(|p| p.to_string()).collect();
        let columns = names
            .iter()
            .map(|w| {
                let cells: Vec<&Answer> = points
                    .iter()
                    .map(|p| answers.iter().find(|a| a.label == *p && a.what == *w).unwrap())
                    .collect();
                column(w, &cells)
            })
            .collect();
        return Some((Sweep::of(&labels), columns));
    }
    // Different metrics per point (the cards that decide each point's games): one row per answer.
    let labels: Vec<String> = answers.iter().map(|a| a.label.clone()).collect();
    let whats = PivotColumn {
        header: "what".into(),
        cells: answers.iter().map(|a| (a.what.clone(), String::new())).collect(),
    };
    let values = column("", &answers.iter().collect::<Vec<_>>());
    Some((Sweep::of(&labels), vec![whats, values]))
}

/// The points answered, in order.
fn points(answers: &[Answer]) -> Vec<&str> {
    let mut points: Vec<&str> = Vec::new();
    for a in answers {
        if !points.contains(&a.label.as_str()) {
            points.push(&a.label);
        }
    }
    points
}

/// Whether every point answers the same metrics, once each: a table of one row per point and one
/// column per metric then holds every answer.
fn is_pivot(answers: &[Answer]) -> bool {
    let (points, names) = (points(answers), metrics(answers));
    answers.len() == points.len() * names.len()
        && points.iter().all(|p| {
            names.iter().all(|w| answers.iter().filter(|a| a.label == *p && a.what == *w).count() == 1)
        })
}

/// A metric's column: its shares in one scale (`RateScale`: percent, or so many in a power of ten
/// when every share is below 1%), or its means with two decimals.
fn column(what: &str, cells: &[&Answer]) -> PivotColumn {
    if !cells.iter().all(|a| a.rate) {
        let cells = cells
            .iter()
            .map(|a| {
                let i = &a.interval;
                (format!("{:.2}", i.estimate), format!("[{:.2}, {:.2}]", i.low, i.high))
            })
            .collect();
        let header = if what.is_empty() { "estimate".into() } else { what.to_string() };
        return PivotColumn { header, cells };
    }
    let scale = column_scale(cells.iter().map(|a| &a.interval));
    let cells = cells
        .iter()
        .map(|a| {
            let i = &a.interval;
            format::rate_cells(i.estimate, i.low, i.high, if i.units > 0 { i.units } else { a.trials }, scale)
        })
        .collect();
    let header = if what.is_empty() { scale.header() } else { format!("{what} {}", scale.header()) };
    PivotColumn { header, cells }
}

/// One scale for a column of rates: percent when one is 1% or more, else the scale of the rarest
/// that happened (of the bound where none did).
pub fn column_scale<'a>(intervals: impl Iterator<Item = &'a Interval> + Clone) -> RateScale {
    let finite = intervals.clone().filter(|i| i.estimate.is_finite());
    if finite.clone().any(|i| i.estimate >= 0.01) {
        return RateScale::Percent;
    }
    match finite.clone().filter(|i| i.estimate > 0.0).map(|i| i.estimate).min_by(f64::total_cmp) {
        Some(p) => RateScale::of(p),
        None => RateScale::of(finite.map(|i| format::none_bound(i.units)).fold(0.0, f64::max)),
    }
}
