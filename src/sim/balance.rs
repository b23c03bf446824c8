//! Balancing a card set (`warsim balance`, `docs/balance.md`): measure every design's causal
//! impact on its holders, judge each against its peers' median (`stats::peers`), race the
//! settings of a flagged design's numbers on the same deals towards that median (`sim::tune`'s
//! race), make the edits, and measure again until nothing is flagged or no edit helps; then a
//! proof on fresh seeds, the set as given beside the set as edited.
//!
//! One observation is one event (a tournament): its holders' games share the event's deal, so
//! every interval counts events. The driver knows no game: the command hands it a way to build a
//! point from a card-set text, measuring every design or only one (`Build`).

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::games::Point;
use crate::sim::tune::{self, Measures, RatioQuantity, TuneState};
use crate::stats::Quantity;
use crate::stats::bisect::Side;
use crate::stats::peers::{self, bonferroni_z};
use crate::stats::race::{self, Rules, Target};
use crate::stats::tracked::Key;

/// Builds the point of a card-set text: measuring every design (`None`) or only design `d`.
pub type Build<'a> = dyn Fn(&str, Option<usize>) -> anyhow::Result<Box<dyn Point>> + Sync + 'a;

/// Most passes over the set: designs interact, so an edit may move its peers; past this the
/// balancer stops and says so.
pub const MAX_PASSES: usize = 3;

/// What the balancer is asked.
pub struct Config {
    /// Events per measure of the whole set.
    pub events: u64,
    /// Events per candidate at most in a race.
    pub cap: u64,
    /// The band around the peers' median within which a design is left alone (holders' games won
    /// per event).
    pub within: f64,
    pub seed: u64,
    /// Groups of peers: designs of one group are judged against each other.
    pub group: Vec<u32>,
}

/// Every design's impact over one measure: estimate (holders' games won per event that its text
/// adds), its 95% interval, and its interval at 95% over the whole family (Bonferroni), with the
/// judgements against the peers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measure {
    pub events: u64,
    #[serde(deserialize_with = "nan_from_null")]
    pub estimate: Vec<f64>,
    pub interval: Vec<Option<(f64, f64)>>,
    pub family: Vec<Option<(f64, f64)>>,
    /// The peers' median (NaN without peers).
    #[serde(deserialize_with = "nan_from_null")]
    pub reference: Vec<f64>,
    /// Where the peers' true median lies when every interval holds (None: no peers).
    pub range: Vec<Option<(f64, f64)>>,
    /// +1 too strong, -1 too weak, 0 in line or not judged.
    pub verdict: Vec<i8>,
}

/// JSON writes NaN (not measured, no peers) as null: read it back as NaN.
fn nan_from_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let v: Vec<Option<f64>> = Deserialize::deserialize(d)?;
    Ok(v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
}

impl Measure {
    pub fn flagged(&self) -> usize {
        self.verdict.iter().filter(|&&v| v != 0).count()
    }
}

/// Measures every design of `point` over events `0..events` of seed `master`, and judges them
/// (`group`: peers). None when `stop` was raised.
pub fn measure(
    point: &dyn Point,
    master: u64,
    events: u64,
    group: &[u32],
    tick: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Measure> {
    let acc = point.play_range(master, 0, events, tick);
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let layout = point.layout();
    let t = layout.cards.as_ref().expect("a balancing point keeps a per-design table");
    let unit = t.paired[0].per_unit as f64;
    let plan = acc.plan(layout);
    let designs = t.keys.len();
    // A design whose differences were all 0 changed nothing seen: no spread to judge it by.
    let sums: Vec<_> = (0..designs)
        .map(|k| acc.sums(&plan, &Key::CardPaired(k, 0)).filter(|s| s.ratio_variance() > 0.0))
        .collect();
    let z = bonferroni_z(sums.iter().filter(|s| s.is_some()).count());
    let at = |k: usize, z: f64| {
        sums[k].as_ref().map(|s| {
            let (r, half) = (s.ratio_estimate() / unit, z * s.ratio_variance().sqrt() / unit);
            (r - half, r + half)
        })
    };
    let estimate: Vec<f64> =
        (0..designs).map(|k| sums[k].as_ref().map_or(f64::NAN, |s| s.ratio_estimate() / unit)).collect();
    let interval = (0..designs).map(|k| at(k, 1.96)).collect();
    let family: Vec<_> = (0..designs).map(|k| at(k, z)).collect();
    let judged = peers::judge(&estimate, &family, group);
    Some(Measure {
        events,
        estimate,
        interval,
        family,
        reference: judged.iter().map(|j| j.reference).collect(),
        range: judged.iter().map(|j| Some(j.range).filter(|r| r.0.is_finite())).collect(),
        verdict: judged
            .iter()
            .map(|j| match j.side {
                Some(Side::Above) => 1,
                Some(Side::Below) => -1,
                None => 0,
            })
            .collect(),
    })
}

/// A flagged design's race over its knobs' settings: the winner and its interval.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Search {
    pub design: usize,
    pub pass: usize,
    /// The edits (knob, setting) every candidate of the race carries: none in a design's first
    /// race; in its second, the closest single setting of the first, which did not reach the band.
    #[serde(default)]
    pub base: Vec<(usize, i64)>,
    /// The peers' median the race aimed at.
    pub reference: f64,
    /// The knob and setting chosen, on top of `base` (None: none came within the band, or the
    /// closest was `base` alone).
    pub chosen: Option<(usize, i64)>,
    /// Whether the closest's estimate lies in the band: with nothing chosen, the design as it
    /// stands is in line by the race's account (its measure's flag was not borne out), and needs
    /// no redesign.
    #[serde(default)]
    pub in_band: bool,
    /// The closest setting raced (knob, setting; `None` knob: `base` alone, the design as printed
    /// in a first race) with its estimate and 95% interval.
    pub closest: (Option<usize>, i64, f64, (f64, f64)),
    pub candidates: usize,
    /// Tournaments per candidate at the end of the race, and played by all candidates together.
    pub events: u64,
    pub played: u64,
}

/// One candidate of a race: a knob at a setting, or none (the race's base alone).
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub knob: Option<usize>,
    pub setting: i64,
}

/// Races `candidates` of design `d` (each a card-set text, every one carrying the edits `base`)
/// towards `reference` on the same events (until one is left, all are within the band, or the
/// cap); the closest wins when its estimate lies in the band. None when `stop` was raised.
#[allow(clippy::too_many_arguments)]
pub fn search(
    d: usize,
    pass: usize,
    base: &[(usize, i64)],
    candidates: &[Candidate],
    texts: &[String],
    reference: f64,
    range: (f64, f64),
    cfg: &Config,
    build: &Build,
    tick: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> anyhow::Result<Option<Search>> {
    let points: Vec<Box<dyn Point>> = texts.iter().map(|t| build(t, Some(d))).collect::<Result<_, _>>()?;
    let engines: Vec<&dyn Point> = points.iter().map(|p| &**p).collect();
    let t = engines[0].layout().cards.as_ref().expect("a balancing point keeps a per-design table");
    let pm = &t.paired[0];
    let col = |c: usize| Quantity::Counter(t.first as usize + d * t.columns.len() + c);
    let unit = pm.per_unit as f64;
    let goal = RatioQuantity { num: col(pm.up), less: Some(col(pm.down)), den: Some(col(pm.n)) };
    let group = engines[0].layout().group_size.clamp(1, u32::MAX as u64) as u32;
    let measures: Vec<Measures> =
        engines.iter().map(|_| Measures { goal: goal.clone(), requires: Vec::new(), unit: group }).collect();
    let rules = Rules {
        target: Target::Equal(reference * unit),
        within: Some(cfg.within * unit),
        requires: Vec::new(),
        candidates: engines.len(),
        tuned_at: tune::TUNED_AT,
        bisect: false,
    };
    let obs = tune::observation_games([group as u64]);
    let mut state = TuneState::new(String::new(), &measures);
    // Each race has its own seed (a design's second race another than its first), so races are
    // independent of each other and of the measures.
    let race = 1 + pass as u64 * 100_003 + d as u64 + base.len() as u64 * 1_000_003;
    let master = crate::seed::mix64(cfg.seed ^ crate::seed::mix64(race));
    while state.stop.is_none() {
        if !tune::look(&mut state, &rules, &engines, &measures, (master, obs, cfg.cap), stop, tick) {
            return Ok(None);
        }
    }
    let look = state.look();
    // The race drops a setting whose whole interval lies outside the band; when every one is
    // dropped, the closest is read from the games each played before it left.
    let all: Vec<usize> = (0..engines.len()).collect();
    let best =
        race::best(&rules, &look, &state.live).or_else(|| race::best(&rules, &look, &all)).unwrap_or(0);
    let i = look.interval(&rules, best);
    let scale = |x: f64| x / unit;
    let c = candidates[best];
    let estimate = scale(look.goal[best].ratio());
    // The closest setting is taken when its estimate lies in the band around the peers' median
    // (the range their true median may take, widened by --within): it is then not expected to
    // be shown out of line (the proof measures it). A design whose every setting stays outside
    // needs a redesign. (Accepting any setting whose race interval merely reached the band took
    // edits that stayed flagged: 36 flagged became 32 on the shipped set.)
    let reaches = estimate >= range.0 - cfg.within && estimate <= range.1 + cfg.within;
    let chosen = c.knob.filter(|_| reaches).map(|k| (k, c.setting));
    Ok(Some(Search {
        design: d,
        pass,
        base: base.to_vec(),
        reference,
        chosen,
        in_band: reaches,
        closest: (c.knob, c.setting, estimate, (scale(i.low), scale(i.high))),
        candidates: candidates.len(),
        events: state.games,
        played: state.played.iter().sum(),
    }))
}

/// A text with knobs `(k, setting)` set: the new text and, per edit, whether its printed text says it.
pub type Edit<'a> = dyn Fn(&str, &[(usize, i64)]) -> anyhow::Result<(String, Vec<bool>)> + Sync + 'a;

/// The set's knobs as the driver needs them: for a text, each knob's design, name, printed
/// number and other settings; and a text with knobs set.
pub struct Knobs<'a> {
    pub list: &'a (dyn Fn(&str) -> anyhow::Result<Vec<crate::games::SheetKnob>> + Sync),
    pub edit: &'a Edit<'a>,
}

/// One pass: the measure of the set as it stood, and the race of each flagged design.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pass {
    pub text: String,
    pub measure: Measure,
    pub searches: Vec<Search>,
    /// Flagged designs with no number to turn.
    pub no_knobs: Vec<usize>,
    /// Whether every flagged design of the pass was searched.
    pub done: bool,
}

/// An edit made: design, knob name, printed number, new number, pass, whether the printed text
/// says it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Made {
    pub design: usize,
    pub knob: String,
    pub old: i64,
    pub new: i64,
    pub pass: usize,
    pub text_said: bool,
}

/// Everything a balance has done so far: saved after each race, so a stopped balance goes on.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Progress {
    pub passes: Vec<Pass>,
    pub made: Vec<Made>,
    /// The set as edited after the last finished pass.
    pub text: String,
    /// Why the passes ended (None: not yet).
    pub ended: Option<String>,
    /// The proof: the set as given and as edited, measured on fresh seeds.
    pub before: Option<Measure>,
    pub after: Option<Measure>,
}

impl Progress {
    /// Tournaments played so far: every measure, every race's candidates, the proof.
    pub fn tournaments(&self) -> u64 {
        let passes: u64 = self
            .passes
            .iter()
            .map(|p| p.measure.events + p.searches.iter().map(|s| s.played).sum::<u64>())
            .sum();
        passes + [&self.before, &self.after].iter().filter_map(|m| m.as_ref()).map(|m| m.events).sum::<u64>()
    }
}

/// What the balancer starts, for the progress bar: each step with the most tournaments it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Pass `pass` (from 0) measures every design.
    Measure { pass: usize },
    /// Pass `pass` races design `design`, the `nth` (from 0) of its `flagged`; `second` when a
    /// first race's closest setting is carried.
    Race { pass: usize, design: usize, nth: usize, flagged: usize, second: bool },
    /// The proof measures the set as given (`edited` false), then as edited.
    Proof { edited: bool },
}

/// How a balance shows its progress: tournaments played as they are (`tick`), and each step as it
/// starts with the most it may play (`step`).
pub struct Show<'a> {
    pub tick: &'a (dyn Fn(u64) + Sync),
    pub step: &'a (dyn Fn(Step, u64) + Sync),
}

/// The seed of pass `pass`'s measure, and of the proof (`pass` = `MAX_PASSES`).
fn measure_seed(seed: u64, pass: usize) -> u64 {
    crate::seed::mix64(seed ^ crate::seed::mix64(0xba1a_0000 + pass as u64))
}

/// Runs the balance from `progress` (empty to start) to its proof, saving after each step.
/// Returns false when `stop` was raised (progress saved as of the last finished step).
#[allow(clippy::too_many_arguments)]
pub fn run(
    original: &str,
    progress: &mut Progress,
    cfg: &Config,
    build: &Build,
    knobs: &Knobs,
    save: &dyn Fn(&Progress) -> anyhow::Result<()>,
    show: &Show,
    stop: &AtomicBool,
) -> anyhow::Result<bool> {
    let tick = show.tick;
    if progress.text.is_empty() {
        progress.text = original.to_string();
    }
    while progress.ended.is_none() {
        let pass = progress.passes.len().saturating_sub(1);
        if progress.passes.last().is_none_or(|p| p.done) {
            if progress.passes.len() == MAX_PASSES {
                progress.ended = Some(format!("stopped after {MAX_PASSES} passes"));
                break;
            }
            let point = build(&progress.text, None)?;
            let p = progress.passes.len();
            (show.step)(Step::Measure { pass: p }, cfg.events);
            let Some(m) = measure(&*point, measure_seed(cfg.seed, p), cfg.events, &cfg.group, tick, stop)
            else {
                return Ok(false);
            };
            if m.flagged() == 0 {
                progress.ended = Some(if p == 0 {
                    "nothing flagged".into()
                } else {
                    "nothing flagged after the edits".into()
                });
            }
            progress.passes.push(Pass {
                text: progress.text.clone(),
                measure: m,
                searches: Vec::new(),
                no_knobs: Vec::new(),
                done: progress.ended.is_some(),
            });
            save(progress)?;
            continue;
        }
        let cur = &progress.passes[pass];
        let m = &cur.measure;
        // Farthest from its peers first: the order only matters to a stopped balance.
        let mut flagged: Vec<usize> = (0..m.verdict.len()).filter(|&d| m.verdict[d] != 0).collect();
        flagged.sort_by(|&a, &b| {
            let far = |d: usize| (m.estimate[d] - m.reference[d]).abs();
            far(b).total_cmp(&far(a)).then(a.cmp(&b))
        });
        let text = cur.text.clone();
        let all = (knobs.list)(&text)?;
        let Some((d, base)) = next_race(cur, &flagged, &all) else {
            finish_pass(progress, pass, knobs)?;
            save(progress)?;
            continue;
        };
        let (reference, range) = (m.reference[d], m.range[d].unwrap_or((m.reference[d], m.reference[d])));
        let mut candidates = vec![Candidate { knob: None, setting: 0 }];
        let mut texts = vec![(knobs.edit)(&text, &base)?.0];
        let turned = |k: usize| base.iter().any(|&(b, _)| b == k);
        for (k, knob) in all.iter().enumerate().filter(|&(k, x)| x.design == d && !turned(k)) {
            for &v in &knob.settings {
                let edits: Vec<(usize, i64)> = base.iter().copied().chain([(k, v)]).collect();
                // A setting the format refuses (a text past its length, say) is no candidate.
                if let Ok((t, _)) = (knobs.edit)(&text, &edits) {
                    candidates.push(Candidate { knob: Some(k), setting: v });
                    texts.push(t);
                }
            }
        }
        if candidates.len() == 1 {
            let cur = &mut progress.passes[pass];
            match cur.searches.iter().rev().find(|s| s.design == d).cloned() {
                None => cur.no_knobs.push(d),
                // No other number of the design takes a setting on top of the first race's
                // closest: that race's answer stands, as a second race with nothing to add.
                Some(first) => cur.searches.push(Search {
                    base,
                    closest: (None, 0, first.closest.2, first.closest.3),
                    candidates: 1,
                    events: 0,
                    played: 0,
                    ..first
                }),
            }
            save(progress)?;
            continue;
        }
        let nth = flagged.iter().position(|&f| f == d).unwrap_or(0);
        let race = Step::Race { pass, design: d, nth, flagged: flagged.len(), second: !base.is_empty() };
        (show.step)(race, candidates.len() as u64 * cfg.cap);
        let Some(s) = search(d, pass, &base, &candidates, &texts, reference, range, cfg, build, tick, stop)?
        else {
            return Ok(false);
        };
        progress.passes[pass].searches.push(s);
        save(progress)?;
    }
    if progress.after.is_none() {
        let seed = measure_seed(cfg.seed, MAX_PASSES);
        let before = build(original, None)?;
        (show.step)(Step::Proof { edited: false }, cfg.events);
        let Some(b) = measure(&*before, seed, cfg.events, &cfg.group, tick, stop) else { return Ok(false) };
        let after = build(&progress.text, None)?;
        (show.step)(Step::Proof { edited: true }, cfg.events);
        let Some(a) = measure(&*after, seed, cfg.events, &cfg.group, tick, stop) else { return Ok(false) };
        (progress.before, progress.after) = (Some(b), Some(a));
        save(progress)?;
    }
    Ok(true)
}

/// The next race of a pass: the first flagged design (in `flagged`'s order) not yet settled, with
/// the edits its candidates carry. Fewest edits first: a design's first race turns one number; only
/// when no single setting reaches the band, and the closest is a setting (not the design as
/// printed), does a second race turn each of its other numbers on top of that one. A design is
/// settled by a race that chose, by its second race, or by having no number to turn.
fn next_race(
    pass: &Pass,
    flagged: &[usize],
    knobs: &[crate::games::SheetKnob],
) -> Option<(usize, Vec<(usize, i64)>)> {
    flagged.iter().filter(|&&d| !pass.no_knobs.contains(&d)).find_map(|&d| {
        let Some(last) = pass.searches.iter().rev().find(|s| s.design == d) else {
            return Some((d, Vec::new()));
        };
        let (Some(k), v, ..) = last.closest else { return None };
        let others = knobs.iter().enumerate().any(|(o, x)| x.design == d && o != k);
        (last.chosen.is_none() && last.base.is_empty() && others).then(|| (d, vec![(k, v)]))
    })
}

/// The edits a race chose: its base and its winner (none when the winner did not reach the band).
pub fn chosen_edits(s: &Search) -> Vec<(usize, i64)> {
    s.chosen.map_or_else(Vec::new, |c| s.base.iter().copied().chain([c]).collect())
}

/// Makes the edits the races of pass `pass` chose, and ends the passes when none was made.
fn finish_pass(progress: &mut Progress, pass: usize, knobs: &Knobs) -> anyhow::Result<()> {
    let cur = &progress.passes[pass];
    let chosen: Vec<(usize, usize, i64)> = cur
        .searches
        .iter()
        .flat_map(|s| chosen_edits(s).into_iter().map(|(k, v)| (s.design, k, v)))
        .collect();
    let all = (knobs.list)(&cur.text)?;
    let edits: Vec<(usize, i64)> = chosen.iter().map(|&(_, k, v)| (k, v)).collect();
    if edits.is_empty() {
        progress.ended = Some("no edit brings a flagged design within its band".into());
    } else {
        let (text, said) = (knobs.edit)(&cur.text, &edits)?;
        for (&(d, k, v), said) in chosen.iter().zip(said) {
            progress.made.push(Made {
                design: d,
                knob: all[k].name.clone(),
                old: all[k].value,
                new: v,
                pass,
                text_said: said,
            });
        }
        progress.text = text;
    }
    progress.passes[pass].done = true;
    Ok(())
}
