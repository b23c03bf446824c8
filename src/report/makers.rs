//! Feedback to the makers of a per-card table's cards (`CardTable::makers`): `designers.csv` and
//! the report's section (`docs/tournament.md`). For the whole field, each maker and each card:
//! how many cards were never held, never kept in a deck, never played, or played but never in a
//! game their holder won; the table's counted columns and rates with 95% intervals; and a verdict
//! on the verdict rate: `too_strong` / `too_weak` when the card's interval at 1 - 0.05/m lies
//! wholly above / below the range of its peers' median (the other cards of its stratum, the ones it
//! is fairly compared with, `Makers::stratum`; `stats::peers`), or a maker's interval excludes the
//! whole field's pooled rate (Bonferroni over the `m` cards, or makers, that have a denominator),
//! so that the chance of flagging any card of a balanced field stays at most 5%, and one outlier
//! cannot make its peers look out of line.
//! What the rates mean (observational or causal) is the game's to say in its columns' names.
//!
//! When the table also keeps paired means (a causal impact measured against counterfactual
//! replays, `CardTable::paired`), each row shows them with their intervals too, and the verdicts
//! read the first of them instead of the verdict rate: the same test, on the card's mean
//! difference against its stratum's pooled mean difference (`Feedback::measure` names it).
//!
//! Every interval counts the point's independent units (one event is one unit when the cards'
//! holders keep them for an event, `Accumulator::sums`). A maker's reference, the field's pooled
//! rate, is taken as known: pooled over every card it is more precise than any one maker's.

use super::PointResult;
use super::paired_means::{self, Estimate};
use crate::record::{CardTable, Makers};
use crate::stats::Interval;
use crate::stats::interval::Method;
use crate::stats::tracked::Key;

/// The family-wise error rate of the verdicts.
pub const ALPHA: f64 = 0.05;

/// What a card or a maker did: `design` rows are one card, `designer` rows a maker's cards
/// together, the `field` row every card.
pub struct Line {
    pub kind: &'static str,
    pub maker: String,
    pub card: String,
    pub cards: usize,
    /// Cards never held / held but never kept / kept but never played / played but never in a
    /// game their holder won.
    pub never: [usize; 4],
    /// With a causal measure: cards measured whose removal never changed a result (every paired
    /// difference 0); they get no verdict, since no spread was seen to judge them by.
    pub never_changed: usize,
    pub totals: Vec<u128>,
    /// Each rate with its 95% interval.
    pub rates: Vec<Interval>,
    /// Each paired mean of the table (`CardTable::paired`) with its 95% interval (the field's
    /// pooled, without one).
    pub means: Vec<Estimate>,
    /// The verdict measure's interval at `1 - ALPHA / m` (`None`: no denominator).
    pub verdict_interval: Option<(f64, f64)>,
    /// What the verdict compares with: the card's peers' median estimate, or the field's pooled
    /// measure.
    pub reference: f64,
    pub verdict: &'static str,
}

/// The feedback of one point.
pub struct Feedback<'a> {
    pub table: &'a CardTable,
    pub makers: &'a Makers,
    pub lines: Vec<Line>,
    /// The measure the verdicts read: the table's first paired mean when it has one (causal), else
    /// its verdict rate.
    pub measure: String,
    /// Whether `measure` is a paired mean.
    pub causal: bool,
    /// The field's pooled verdict measure.
    pub field: f64,
    /// The normal quantile of the card and of the maker verdicts.
    pub z: [f64; 2],
    pub own_expected: f64,
    /// The observed mean of own cards per player (`None`: none observed).
    pub own_observed: Option<f64>,
}

/// The column whose zero makes a card "never ..." (`holders`, `games_in_deck`, `games_played`,
/// `games_played_won`): the first four counted columns but the holders' games.
const NEVER: [usize; 4] = [0, 2, 3, 4];

/// Which cards a line covers, and so which keys its intervals read.
#[derive(Clone, Copy)]
enum Scope {
    Field,
    Maker(usize),
    Card(usize),
}

impl Scope {
    fn rate(self, r: usize) -> Option<Key> {
        match self {
            Scope::Field => None,
            Scope::Maker(g) => Some(Key::MakerRate(g, r)),
            Scope::Card(k) => Some(Key::CardRate(k, r)),
        }
    }

    fn paired(self, i: usize) -> Option<Key> {
        match self {
            Scope::Field => None,
            Scope::Maker(g) => Some(Key::MakerPaired(g, i)),
            Scope::Card(k) => Some(Key::CardPaired(k, i)),
        }
    }
}

/// The measure the verdicts of a table read: a ratio of column sums, `(up - down) / of`, shown
/// divided by `unit`; rate or paired mean `index` of the table.
struct Measure<'t> {
    up: usize,
    down: Option<usize>,
    of: usize,
    unit: f64,
    name: &'t str,
    paired: bool,
    index: usize,
}

impl Measure<'_> {
    fn of<'t>(t: &'t CardTable, m: &Makers) -> Measure<'t> {
        match t.paired.first() {
            Some(pm) => Measure {
                up: pm.up,
                down: Some(pm.down),
                of: pm.n,
                unit: pm.per_unit as f64,
                name: &pm.name,
                paired: true,
                index: 0,
            },
            None => {
                let (name, won, of) = &t.rates[m.verdict_rate];
                Measure {
                    up: *won,
                    down: None,
                    of: *of,
                    unit: 1.0,
                    name,
                    paired: false,
                    index: m.verdict_rate,
                }
            }
        }
    }

    fn key(&self, scope: Scope) -> Option<Key> {
        if self.paired { scope.paired(self.index) } else { scope.rate(self.index) }
    }
}

/// The feedback of point `p`, when its per-card table names its makers.
pub fn feedback(p: &PointResult) -> Option<Feedback<'_>> {
    let t = p.layout.cards.as_ref()?;
    let m = t.makers.as_ref()?;
    let plan = p.acc.plan(&p.layout);
    let cols = t.columns.len();
    let total = |k: usize, c: usize| p.acc.counters[t.first as usize + k * cols + c].total;
    let measure = Measure::of(t, m);
    // The measure pooled over cards `ks`: its numerator's sum over its denominator's, shown.
    let pooled = |ks: &mut dyn Iterator<Item = usize>| {
        let (num, den) = ks.fold((0i128, 0u128), |(num, den), k| {
            let down = measure.down.map_or(0, |c| total(k, c) as i128);
            (num + total(k, measure.up) as i128 - down, den + total(k, measure.of))
        });
        num as f64 / den as f64 / measure.unit
    };
    let field = pooled(&mut (0..t.keys.len()));
    let with_den = |ks: &mut dyn Iterator<Item = usize>| ks.filter(|&k| total(k, measure.of) > 0).count();
    let z_cards = bonferroni_z(with_den(&mut (0..t.keys.len())));
    let z_makers = bonferroni_z(
        (0..m.names.len())
            .filter(|&g| (0..t.keys.len()).any(|k| m.maker[k] as usize == g && total(k, measure.of) > 0))
            .count(),
    );
    let line = |kind, maker: String, card: String, cards: &[usize], scope: Scope, z: f64, reference: f64| {
        let mut never = [0; 4];
        for &k in cards {
            // A card counts once, at the first stage it never reached.
            if let Some(i) = NEVER.iter().position(|&c| total(k, c) == 0) {
                never[i] += 1;
            }
        }
        let totals: Vec<u128> = (0..cols).map(|c| cards.iter().map(|&k| total(k, c)).sum()).collect();
        let unchanged = |k: usize| {
            measure.down.is_some_and(|d| total(k, measure.of) > 0 && total(k, measure.up) + total(k, d) == 0)
        };
        let never_changed = cards.iter().filter(|&&k| unchanged(k)).count();
        let rates = (0..t.rates.len())
            .map(|r| match scope.rate(r) {
                Some(key) => p.acc.interval(&plan, &key),
                // The field reads the pooled rates, with no interval.
                None => {
                    let (_, a, b) = t.rates[r];
                    Interval {
                        estimate: totals[a] as f64 / totals[b] as f64,
                        ..Interval::undefined(Method::Ratio)
                    }
                }
            })
            .collect();
        let means = t
            .paired
            .iter()
            .enumerate()
            .map(|(i, pm)| match scope.paired(i) {
                Some(key) => paired_means::estimate(p.acc.sums(&plan, &key), pm),
                None => {
                    let diff = totals[pm.up] as f64 - totals[pm.down] as f64;
                    let estimate = diff / totals[pm.n] as f64 / pm.per_unit as f64;
                    let interval = Interval { estimate, ..Interval::undefined(Method::Ratio) };
                    Estimate { n: totals[pm.n] as u64, interval, games_for_1pt: None }
                }
            })
            .collect();
        // Cards that never changed a result have an interval of width 0 at 0, which says only
        // that no difference was seen: no verdict for them.
        let judged = totals[measure.of] > 0 && never_changed < cards.len();
        let sums = measure.key(scope).and_then(|key| p.acc.sums(&plan, &key)).filter(|_| judged);
        let verdict_interval = sums.map(|s| {
            let (r, half) = (s.ratio_estimate(), z * s.ratio_variance().sqrt());
            ((r - half) / measure.unit, (r + half) / measure.unit)
        });
        let verdict = match verdict_interval {
            Some((low, _)) if low > reference => "too_strong",
            Some((_, high)) if high < reference => "too_weak",
            _ => "",
        };
        Line {
            kind,
            maker,
            card,
            cards: cards.len(),
            never,
            never_changed,
            totals,
            rates,
            means,
            verdict_interval,
            reference,
            verdict,
        }
    };
    let all: Vec<usize> = (0..t.keys.len()).collect();
    let mut lines = vec![line("field", String::new(), String::new(), &all, Scope::Field, f64::NAN, field)];
    for (g, name) in m.names.iter().enumerate() {
        let cards: Vec<usize> = all.iter().copied().filter(|&k| m.maker[k] as usize == g).collect();
        lines.push(line("designer", name.clone(), String::new(), &cards, Scope::Maker(g), z_makers, field));
    }
    let first_design = lines.len();
    for (k, key) in t.keys.iter().enumerate() {
        let maker = m.names.get(m.maker[k] as usize).cloned().unwrap_or_default();
        lines.push(line("design", maker, key.clone(), &[k], Scope::Card(k), z_cards, f64::NAN));
    }
    judge_designs(&mut lines[first_design..], &m.stratum);
    let own_observed = p.layout.distribution(&m.own_observed).and_then(|d| {
        let h = &p.acc.distributions[d.0 as usize];
        let (n, sum) = h.iter().fold((0u64, 0i128), |(n, s), (v, c)| (n + c, s + v as i128 * c as i128));
        (n > 0).then(|| sum as f64 / n as f64)
    });
    Some(Feedback {
        table: t,
        makers: m,
        lines,
        measure: measure.name.to_string(),
        causal: measure.paired,
        field,
        z: [z_cards, z_makers],
        own_expected: m.own_expected_millionths as f64 / 1e6,
        own_observed,
    })
}

/// Judges each design against its peers (its stratum) by their median (`stats::peers`): the
/// verdict holds for the whole family at 95% when every design's interval at `1 - ALPHA / m`
/// does, and one outlier cannot make its peers look weak or strong. The reference shown is the
/// peers' median estimate.
fn judge_designs(designs: &mut [Line], stratum: &[u16]) {
    let intervals: Vec<Option<(f64, f64)>> = designs.iter().map(|l| l.verdict_interval).collect();
    let estimates: Vec<f64> = intervals.iter().map(|i| i.map_or(f64::NAN, |(a, b)| (a + b) / 2.0)).collect();
    let groups: Vec<u32> = stratum.iter().map(|&s| s as u32).collect();
    for (l, j) in designs.iter_mut().zip(crate::stats::peers::judge(&estimates, &intervals, &groups)) {
        l.reference = j.reference;
        l.verdict = match j.side {
            Some(crate::stats::bisect::Side::Above) => "too_strong",
            Some(crate::stats::bisect::Side::Below) => "too_weak",
            None => "",
        };
    }
}

pub use crate::stats::peers::{bonferroni_z, normal_quantile};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, LayoutBuilder, OutcomeKind};
    use crate::settings::Settings;
    use crate::stats::Accumulator;

    /// Columns as a game declares them: holders, games, in deck, played, played and won, wins.
    const COLUMNS: &[&str] =
        &["holders", "holder_games", "games_in_deck", "games_played", "games_played_won", "wins"];

    /// A point of `events` events of a table of `cards` cards (two makers, every card of the same
    /// stratum), whose event `e` adds `event(e, card)` to each card's columns.
    fn point(cards: usize, events: u64, event: impl Fn(u64, usize) -> [u64; 6]) -> PointResult {
        point_of(cards, events, false, |e, k| event(e, k).to_vec())
    }

    /// `point`, with (`impact`) a paired mean `impact` in four more columns: measured, positive
    /// sum, negative sum, squares (half-points).
    fn point_of(
        cards: usize,
        events: u64,
        impact: bool,
        event: impl Fn(u64, usize) -> Vec<u64>,
    ) -> PointResult {
        let mut b = LayoutBuilder::new("slots");
        b.plain(&[OutcomeKind::Draw]);
        let keys = (0..cards).map(|k| format!("c{k}")).collect();
        let mut columns = COLUMNS.to_vec();
        if impact {
            columns.extend(["impact_n", "impact_up", "impact_down", "impact_sq"]);
        }
        let t = b.cards(keys, &columns, &[("win_share", 5, 1)]);
        if impact {
            b.card_paired(vec![crate::record::PairedMean {
                name: "impact".into(),
                n: 6,
                up: 7,
                down: 8,
                sq: 9,
                per_unit: 2,
            }]);
        }
        b.card_makers(Makers {
            names: vec!["A".into(), "B".into()],
            maker: (0..cards).map(|k| (k % 2) as u16).collect(),
            verdict_rate: 0,
            stratum: vec![0; cards],
            own_expected_millionths: 3_333_333,
            own_observed: "none".into(),
            class: Vec::new(),
        });
        let (layout, _) = b.finish();
        let mut acc = Accumulator::new(&layout);
        let mut rec = GameRecord::new(&layout);
        for e in 0..events {
            rec.reset();
            for k in 0..cards {
                for (c, v) in event(e, k).into_iter().enumerate() {
                    rec.count(t.at(k, c), v);
                }
            }
            acc.record(e, &rec);
        }
        acc.finish_group();
        let settings = Settings::restore("slots", &[], false, "standard", &[], &[]).unwrap();
        PointResult { label: "p".into(), game: "slots", settings, layout, acc }
    }

    #[test]
    fn a_causal_impact_when_measured_is_what_the_verdicts_read() {
        // Every card's holders win half their games (the rate flags nothing). Impact, one
        // difference per event in half-points: card 0 never changes a result; card 1 gains 4 or 6
        // (mean 2.5 games); the others 0 or 2 (mean 0.5).
        let p = point_of(8, 200, true, |e, k| {
            let d = match k {
                0 => 0,
                1 => 4 + 2 * (e % 2),
                _ => 2 * (e % 2),
            };
            vec![1, 8, 8, 8, 4, 4, 1, d, 0, d * d]
        });
        let f = feedback(&p).unwrap();
        assert_eq!((f.measure.as_str(), f.causal), ("impact", true));
        // The pooled reference: (0 + 5 + 6 x 1) / 8 half-points.
        assert!((f.field - 11.0 / 16.0).abs() < 1e-12, "{}", f.field);
        let card = |k: usize| f.lines.iter().find(|l| l.card == format!("c{k}")).unwrap();
        assert_eq!((card(0).never_changed, card(0).verdict, card(0).verdict_interval), (1, "", None));
        assert_eq!((card(1).verdict, card(1).means[0].interval.estimate), ("too_strong", 2.5));
        assert!((2..8).all(|k| card(k).means[0].interval.estimate == 0.5));
        // A maker's mean is over its cards' measured events together: A holds 0, 2, 4, 6.
        let maker = |m: &str| f.lines.iter().find(|l| l.kind == "designer" && l.maker == m).unwrap();
        assert!((maker("A").means[0].interval.estimate - 0.375).abs() < 1e-12);
        assert!((maker("B").means[0].interval.estimate - 1.0).abs() < 1e-12);
        assert_eq!((maker("A").never_changed, f.lines[0].never_changed), (1, 1));
        // Without the paired mean, the same point is judged on the rate: no verdict at all.
        let rate_only = point(8, 200, |_, _| [1, 8, 8, 8, 4, 4]);
        let f = feedback(&rate_only).unwrap();
        assert_eq!((f.measure.as_str(), f.causal), ("win_share", false));
        assert!(f.lines.iter().all(|l| l.verdict.is_empty() && l.never_changed == 0));
    }

    #[test]
    fn a_card_whose_holder_always_wins_is_too_strong_and_the_never_counts_add_up() {
        // Card 0 never held; card 1 held, never kept; card 2 kept, never played; card 3 played,
        // never in a won game; cards 4.. held, kept, played, won every other game (card 4 every
        // game: too strong; card 5 never: too weak, and never in a won game either).
        let p = point(12, 400, |e, k| {
            let win = match k {
                4 => 8,
                5 | 3 => 0,
                _ => 4 + (e % 2) * 2 - 1,
            };
            match k {
                0 => [0; 6],
                1 => [1, 8, 0, 0, 0, 4],
                2 => [1, 8, 8, 0, 0, 4],
                3 => [1, 8, 8, 8, 0, 4],
                _ => [1, 8, 8, 8, win.min(8), win],
            }
        });
        let f = feedback(&p).expect("the table names its makers");
        let field = &f.lines[0];
        assert_eq!((field.kind, field.cards, field.never), ("field", 12, [1, 1, 1, 2]));
        let design = |k: usize| f.lines.iter().find(|l| l.card == format!("c{k}")).unwrap();
        assert_eq!(design(4).verdict, "too_strong");
        assert_eq!(design(5).verdict, "too_weak");
        assert_eq!(design(0).verdict, "", "a card never held has no verdict");
        let flagged = f.lines.iter().filter(|l| l.kind == "design" && !l.verdict.is_empty()).count();
        assert_eq!(flagged, 2, "cards of the field's rate stay unflagged");
        // Makers: A holds the even cards (0, 2, 4, ...), B the odd ones.
        let a = f.lines.iter().find(|l| l.kind == "designer" && l.maker == "A").unwrap();
        assert_eq!((a.cards, a.never), (6, [1, 0, 1, 0]));
        let b = f.lines.iter().find(|l| l.kind == "designer" && l.maker == "B").unwrap();
        assert_eq!((b.cards, b.never), (6, [0, 1, 0, 2]));
        assert_eq!(f.z[0], bonferroni_z(11), "Bonferroni over the 11 cards with a denominator");
        assert!((f.own_expected - 3.333333).abs() < 1e-9 && f.own_observed.is_none());
    }

    #[test]
    fn one_strong_design_among_identical_peers_leaves_its_peers_alone() {
        // Nine designs of one stratum: eight whose impact is 0 or 2 half-points an event (mean 0.5
        // games), one whose impact is 6 or 8 (mean 3.5). The peers' pooled mean (0.83) would sit
        // above every peer's interval at 20,000 events and call all eight too weak; their median
        // (0.5) flags the outlier alone.
        let p = point_of(9, 20_000, true, |e, k| {
            let d = if k == 4 { 6 + 2 * (e % 2) } else { 2 * (e % 2) };
            vec![1, 8, 8, 8, 4, 4, 1, d, 0, d * d]
        });
        let f = feedback(&p).expect("the table names its makers");
        let designs: Vec<&Line> = f.lines.iter().filter(|l| l.kind == "design").collect();
        let flagged: Vec<(&str, &str)> =
            designs.iter().filter(|l| !l.verdict.is_empty()).map(|l| (l.card.as_str(), l.verdict)).collect();
        assert_eq!(flagged, [("c4", "too_strong")]);
        assert!((designs[0].reference - 0.5).abs() < 1e-9, "{}", designs[0].reference);
        // What the pooled reference would have said of a peer.
        let pooled = (8.0 * 0.5 + 3.5) / 9.0;
        assert!(designs[0].verdict_interval.unwrap().1 < pooled);
    }

    #[test]
    fn quantiles_of_the_normal() {
        assert!((normal_quantile(0.975) - 1.959963985).abs() < 1e-8);
        assert!((normal_quantile(0.5)).abs() < 1e-12);
        assert!((normal_quantile(0.001) + 3.090232306).abs() < 1e-8);
        // 189 designs: 0.05 / 189 two-sided.
        assert!((bonferroni_z(189) - 3.647746690).abs() < 1e-7, "{}", bonferroni_z(189));
        assert!((bonferroni_z(1) - 1.959963985).abs() < 1e-8);
    }
}
