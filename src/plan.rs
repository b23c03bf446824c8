//! Validated, typed plans: each command's flags and scenario, checked and built into scenario
//! points before any game is played or any file written, so bad input never leaves half a run.
//!
//! Also the plan of a paired comparison: which point is compared with which baseline, on which
//! metrics, and whether their deals are the same (from the games' own settings); `sim` plays it and
//! `report` formats it.

use std::path::{Path, PathBuf};

use clap::Parser;

use crate::cli::{Cli, Command, CompareArgs, PlayArgs, PointArgs, RunArgs, TuneArgs};
use crate::error::UsageError;
use crate::report::compare::ComparedPair;
use crate::scenario::{self, ScenarioPoint, ScenarioRequest};
use crate::sim::paired::{EffectPlan, PairPlan};
use crate::sim::shard::Shard;
use crate::sim::until::Until;
use crate::stats::metric;

/// Most worker threads a run may ask for (results never depend on the number).
pub const MAX_THREADS: usize = 1024;

/// Games cap of an `--until` run when neither `--games` nor the scenario gives one.
pub const UNTIL_CAP: u64 = 1_000_000_000;

/// A validated `run`.
pub struct RunPlan {
    pub name: String,
    pub points: Vec<ScenarioPoint>,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub out: PathBuf,
    pub quiet: bool,
    pub scenario_text: Option<String>,
    /// The paired comparisons with a baseline, if asked for.
    pub baseline: Option<Comparisons>,
    pub shard: Shard,
    pub until: Option<Until>,
    pub resume: bool,
    /// The scenario's question, answered first in the summaries.
    pub question: Option<String>,
    /// `--game-rows`: games.csv lists the first this many games of every point (0: no file).
    pub game_rows: u64,
    /// `--resume` may continue a run saved by another build.
    pub allow_other_build: bool,
    /// What the run does differently from what its scenario file says, told on stderr first.
    pub notes: Vec<String>,
    /// The question's metrics whose effects a sweep measures in the paired pass (`effect_plans`).
    pub effects: Vec<(String, EffectPlan)>,
}

/// A validated `play`.
pub struct PlayPlan {
    pub point: ScenarioPoint,
    pub seed: u64,
    pub game_index: u64,
    /// `--match A-B`: the entrants of the one game of an event to tell in full.
    pub game_of_event: Option<(usize, usize)>,
}

/// Reads `--match A-B` (two entrant numbers, counted from 0).
fn parse_match(raw: &str) -> Result<(usize, usize), UsageError> {
    let bad =
        || UsageError(format!("--match '{raw}': give two entrant numbers counted from 0, e.g. --match 0-1"));
    let (a, b) = raw.split_once('-').ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

fn split_pair(raw: &str, flag: &str) -> Result<(String, String), UsageError> {
    raw.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| UsageError(format!("{flag} '{raw}' should be KEY=VALUE")))
}

/// Reads the target (file or game) and applies `--set` and `--sweep` to every run.
pub fn request(args: &PointArgs) -> Result<ScenarioRequest, UsageError> {
    apply_flags(scenario::load_target(&args.target)?, args)
}

/// Applies `--set` and `--sweep` to every run of `req`: they replace what the scenario says.
fn apply_flags(mut req: ScenarioRequest, args: &PointArgs) -> Result<ScenarioRequest, UsageError> {
    let mut given: Vec<(String, String)> = Vec::new();
    for raw in args.set.iter().chain(&args.sweep) {
        let (k, v) = split_pair(raw, "--set/--sweep")?;
        if let Some((_, earlier)) = given.iter().find(|(key, _)| *key == k) {
            let hint = if k == "variant" { " (variant=A+B combines presets)" } else { "" };
            return Err(UsageError(format!(
                "'{k}' is given twice ({earlier} and {v}): give each setting once{hint}"
            )));
        }
        given.push((k, v));
    }
    for raw in &args.set {
        let (k, v) = split_pair(raw, "--set")?;
        // A comma lists the values of a sweep; presets are combined with `+`.
        if k == "variant" && v.contains(',') {
            return Err(UsageError(format!(
                "--set variant={v}: combine variants with +: variant={} (a comma lists the points of --sweep variant=...)",
                v.split(',').map(str::trim).collect::<Vec<_>>().join("+")
            )));
        }
        // A scenario that sweeps the key asks for several values: one value would silently
        // collapse its points, so the user says which they mean.
        if let Some((_, values)) = req.runs.iter().flat_map(|r| &r.sweep).find(|(key, _)| *key == k) {
            let over = match values.join(", ") {
                listed if listed.chars().count() <= 60 => listed,
                _ => format!("{} values", values.len()),
            };
            return Err(UsageError(format!(
                "--set {k}={v}: the scenario sweeps '{k}' over {over}; to play only {v}, use --sweep {k}={v} (it replaces the sweep)"
            )));
        }
        for run in &mut req.runs {
            run.sweep.retain(|(key, _)| *key != k);
            run.set.retain(|(key, _)| *key != k);
            run.set.push((k.clone(), v.clone()));
            run.cli_keys.push(k.clone());
        }
    }
    for raw in &args.sweep {
        let (k, v) = split_pair(raw, "--sweep")?;
        // Values are separated by commas, or by semicolons when a value is itself a list
        // (`--sweep "policies=greedy,random;search,greedy"`).
        let sep = if v.contains(';') { ';' } else { ',' };
        if let Some(hint) = dash_range(&v) {
            return Err(UsageError(format!("--sweep '{raw}': {hint}")));
        }
        // A range of whole numbers, as `--vary` takes it: `players=2..4` is `players=2,3,4`.
        let v = if v.contains("..") { range_values(raw, &v, "--sweep")?.join(",") } else { v };
        let values: Vec<String> = v.split(sep).map(|s| s.trim().to_string()).collect();
        if values.iter().all(String::is_empty) {
            return Err(UsageError(format!("--sweep '{raw}' has no values (KEY=V1,V2,...)")));
        }
        if let Some(i) = values.iter().position(String::is_empty) {
            return Err(UsageError(format!(
                "--sweep '{raw}': value {} of {} is empty (write KEY=V1,V2,... with no empty item)",
                i + 1,
                values.len()
            )));
        }
        for run in &mut req.runs {
            run.set.retain(|(key, _)| *key != k);
            run.sweep.retain(|(key, _)| *key != k);
            run.sweep.push((k.clone(), values.clone()));
            run.cli_keys.push(k.clone());
        }
    }
    Ok(req)
}

/// The default output folder of a run named `name`: `results/NAME` when it is free or holds the
/// run of the same command (`same` reads its manifest), else the first `results/NAME-K` (K = 2, 3,
/// ...) that is; and whether it had to move. A folder is never silently given to another command.
fn default_out(name: &str, same: impl Fn(&crate::report::Manifest) -> bool) -> (PathBuf, bool) {
    let taken = |dir: &Path| crate::outdir::earlier_manifest(dir).is_some_and(|m| !same(&m));
    let first = Path::new("results").join(name);
    if !taken(&first) {
        return (first, false);
    }
    let free = (2..).map(|k| Path::new("results").join(format!("{name}-{k}"))).find(|d| !taken(d));
    (free.expect("some folder is free"), true)
}

impl RunPlan {
    pub fn from_args(args: &RunArgs) -> Result<Self, UsageError> {
        let req = request(&args.point)?;
        let shard = match (&args.shard, args.shard_from_env) {
            (Some(raw), _) => Shard::parse(raw)?,
            (None, true) => Shard::from_env(|name| std::env::var(name).ok())?,
            (None, false) => Shard::WHOLE,
        };
        let until = args.until.as_deref().map(Until::parse).transpose()?;
        if until.is_some() && shard != Shard::WHOLE {
            return Err(UsageError(
                "--until cannot be combined with --shard: a precision target needs all of a point's games in one run".into(),
            ));
        }
        let default_games = if until.is_some() { UNTIL_CAP } else { 100_000 };
        let games = args.games.or(req.games).unwrap_or(default_games);
        if games == 0 {
            return Err(UsageError("--games must be at least 1".into()));
        }
        let threads = worker_threads(args.threads)?;
        let points = scenario::expand(&req, &[])?;
        let mut notes = Vec::new();
        let split = shard.n > 1 || until.is_some();
        let baseline = match (&args.baseline, &req.baseline) {
            (Some(_), _) if split => {
                return Err(UsageError(
                    "--baseline cannot be combined with --shard or --until: run `warsim compare DIR --baseline ...` on the merged or finished folder".into(),
                ));
            }
            // A shard or an --until run cannot pair its games with the baseline's, but the
            // scenario file asked for it, not the user: play without it and say how to get it.
            (None, Some(spec)) if split => {
                let folder = if shard.n > 1 { "the merged folder" } else { "the finished folder" };
                notes.push(format!(
                    "note: the scenario's baseline is left out (a {} cannot pair games): on {folder}, run `warsim compare DIR --baseline {spec}`",
                    if shard.n > 1 { "shard" } else { "--until run" }
                ));
                None
            }
            (Some(spec), _) => Some(Comparisons::plan(&points, spec)?),
            (None, Some(spec)) => Some(Comparisons::plan(&points, spec).map_err(|e| {
                UsageError(format!(
                    "the scenario's {}: keep a point it names in your --sweep, or give --baseline",
                    e.0
                ))
            })?),
            (None, None) => None,
        };
        if let Some(u) = &until {
            let game = points.first().map_or("GAME", |p| p.game.name);
            u.check(&points.iter().map(|p| p.engine.layout()).collect::<Vec<_>>(), game)?;
        }
        if let Some(q) = &req.question
            && let Some(p) = points.iter().find(|p| !crate::report::answer::answerable(q, p.engine.layout()))
        {
            let layout = p.engine.layout();
            let mut names = metric::common_names(&[layout]);
            names.extend(layout.shares.iter().map(|s| s.name.to_string()));
            return Err(UsageError(format!(
                "question '{q}' is not a metric or share of '{}'{}",
                p.label,
                metric::unknown(q, &names, p.game.name)
            )));
        }
        let effects = match &req.question {
            Some(q) if !split => effect_plans(q, &points),
            _ => Vec::new(),
        };
        let seed = args.point.seed.or(req.seed).unwrap_or(1);
        let out = match &args.out {
            Some(out) => out.clone(),
            None if args.resume => Path::new("results").join(&req.name),
            None => {
                let same = |m: &crate::report::Manifest| {
                    m.seed == seed
                        && m.games == games
                        && m.shards == shard.to_string()
                        && m.until == args.until
                        && m.scenario_text == req.text
                        && m.points.iter().eq(points.iter().map(|p| &p.label))
                };
                let (out, moved) = default_out(&req.name, same);
                if moved {
                    notes.push(format!(
                        "note: results/{} holds another command's run, which is kept; this run writes to {}",
                        req.name,
                        out.display()
                    ));
                }
                out
            }
        };
        if args.resume && !out.join(crate::sim::checkpoint::FILE).is_file() {
            return Err(UsageError(format!(
                "cannot resume: {} holds no saved run ({} is missing); run without --resume to start it",
                out.display(),
                crate::sim::checkpoint::FILE
            )));
        }
        let welcome = match (args.resume, args.force) {
            (true, _) => crate::outdir::Welcome::Continuing,
            (false, true) => crate::outdir::Welcome::Anything,
            (false, false) => crate::outdir::Welcome::OwnOnly,
        };
        crate::outdir::check_output(&out, welcome)?;
        Ok(RunPlan {
            name: req.name,
            points,
            games,
            seed,
            threads,
            out,
            quiet: args.quiet,
            scenario_text: req.text,
            baseline,
            shard,
            until,
            resume: args.resume,
            question: req.question,
            game_rows: args.game_rows.unwrap_or(0),
            allow_other_build: args.allow_other_build,
            notes,
            effects,
        })
    }
}

impl PlayPlan {
    pub fn from_args(args: &PlayArgs) -> Result<Self, UsageError> {
        let req = request(&args.point)?;
        let mut points = scenario::expand(&req, &[])?;
        let n = points.len();
        if args.point_index >= n {
            // Counted from 1, the last point was `n`: say that points now count from 0.
            let from_one = if args.point_index == n {
                format!(
                    "; --point-index counts from 0, as game indices and seats do (the last point is {})",
                    n - 1
                )
            } else {
                String::new()
            };
            return Err(UsageError(format!(
                "--point-index {} is not a point of this scenario (0 to {}; `warsim list {}` lists them){from_one}",
                args.point_index,
                n - 1,
                args.point.target
            )));
        }
        let point = points.swap_remove(args.point_index);
        let game_of_event = args.game_of_event.as_deref().map(parse_match).transpose()?;
        Ok(PlayPlan {
            point,
            seed: args.point.seed.or(req.seed).unwrap_or(1),
            game_index: args.game_index,
            game_of_event,
        })
    }
}

/// The effects a sweep measures: for each metric or share the question names, every point's
/// quantity (`metric::ratio`), when the points vary some setting (two points at least) and at
/// least two points have the metric. Question kinds (`policy_wins`, `card_impact`) have none.
pub fn effect_plans(question: &str, points: &[ScenarioPoint]) -> Vec<(String, EffectPlan)> {
    if points.len() < 2 {
        return Vec::new();
    }
    question
        .split(',')
        .map(str::trim)
        .filter(|q| *q != crate::report::answer::POLICY_WINS && *q != crate::report::answer::CARD_IMPACT)
        .filter_map(|q| {
            let per_point: Vec<_> = points.iter().map(|p| metric::ratio(q, p.engine.layout())).collect();
            (per_point.iter().flatten().count() >= 2).then(|| (q.to_string(), EffectPlan { per_point }))
        })
        .collect()
}

/// `--threads`: at least 1; all cores when not given.
fn worker_threads(requested: Option<usize>) -> Result<usize, UsageError> {
    match requested {
        Some(n) if n == 0 || n > MAX_THREADS => {
            Err(UsageError(format!("--threads {n}: give a number of worker threads from 1 to {MAX_THREADS}")))
        }
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Words of a label: its game name and `key=value` pairs.
fn words(label: &str) -> Vec<&str> {
    label.split_whitespace().collect()
}

/// The words of the points' labels, each key once with its values (`players=2|3|4`): a short
/// way to say what a baseline may name, however many points there are.
fn point_words(labels: &[String]) -> String {
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for label in labels {
        for w in words(label) {
            let (k, v) = w.split_once('=').unwrap_or((w, ""));
            let at = match keys.iter().position(|(key, _)| key == k) {
                Some(at) => at,
                None => {
                    keys.push((k.to_string(), Vec::new()));
                    keys.len() - 1
                }
            };
            if !v.is_empty() && !keys[at].1.iter().any(|x| x == v) {
                keys[at].1.push(v.to_string());
            }
        }
    }
    keys.iter()
        .map(|(k, vs)| if vs.is_empty() { k.clone() } else { format!("{k}={}", vs.join("|")) })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether metric `m` of an event's `layout` is one entrant's or one pair's result (`player 3
/// first alone`, `win_rate seat=2 policy=player 3`): the comparisons leave those to standings.csv
/// and compare what the event as a whole does.
fn per_entrant(m: &metric::Metric, layout: &crate::record::Layout) -> bool {
    use crate::stats::Quantity;
    if layout.entrants.is_none() {
        return false;
    }
    match &m.quantity {
        Quantity::Counter(i) | Quantity::Fired(i) => layout.is_entrant_counter(*i),
        Quantity::Ended(rows) => {
            rows.len() == 1 && layout.outcomes.get(rows[0] as usize).is_some_and(|o| o.seat.is_some())
        }
        Quantity::Length => false,
    }
}

/// Assigns each point its baseline. `spec` is a point label (`war variant=standard players=2`) or
/// some of its `key=value` words (`variant=standard`). Points matching every word of `spec` are
/// baselines. Each other point is compared with the baseline that agrees with it on every other
/// word (so `variant=standard` compares each variant with standard at the same player count); if
/// there is just one baseline, every point is compared with it. Returns (baseline, other) pairs.
pub fn assign_baselines(labels: &[String], spec: &str) -> Result<Vec<(usize, usize)>, String> {
    let want = words(spec);
    let key = |w: &str| w.split_once('=').map_or(w.to_string(), |(k, _)| k.to_string());
    let matches = |l: &str| {
        let lw = words(l);
        want.iter().all(|w| lw.contains(w))
    };
    let bases: Vec<usize> = (0..labels.len()).filter(|&i| matches(&labels[i])).collect();
    if bases.is_empty() {
        return Err(format!(
            "baseline '{spec}' matches no scenario point (its words: {})",
            point_words(labels)
        ));
    }
    let spec_keys: Vec<String> = want.iter().map(|w| key(w)).collect();
    let rest = |l: &str| -> Vec<String> {
        let mut v: Vec<String> =
            words(l).into_iter().filter(|w| !spec_keys.contains(&key(w))).map(str::to_string).collect();
        v.sort();
        v
    };
    let mut pairs = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if bases.contains(&i) {
            continue;
        }
        let base = if bases.len() == 1 {
            Some(bases[0])
        } else {
            bases.iter().copied().find(|&b| rest(&labels[b]) == rest(label))
        };
        if let Some(b) = base {
            pairs.push((b, i));
        }
    }
    Ok(pairs)
}

/// A planned paired comparison: each pair of points (baseline, other), the metrics both have (in
/// the baseline's order, with whether each is a rate), and whether the two deal alike.
pub struct Comparisons {
    pub spec: String,
    pub pairs: Vec<PairPlan>,
    pub metrics: Vec<Vec<(String, bool)>>,
    pub paired: Vec<bool>,
}

impl Comparisons {
    /// No pair at all (a paired pass for the effects alone).
    pub fn none() -> Comparisons {
        Comparisons { spec: String::new(), pairs: Vec::new(), metrics: Vec::new(), paired: Vec::new() }
    }

    pub fn plan(points: &[ScenarioPoint], spec: &str) -> Result<Comparisons, UsageError> {
        if spec.trim().is_empty() {
            return Err(UsageError(
                "--baseline is empty: give a point label or some of its KEY=VALUE words (e.g. variant=standard)".into(),
            ));
        }
        let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
        let assigned = assign_baselines(&labels, spec).map_err(UsageError)?;
        let mut plan = Comparisons {
            spec: spec.to_string(),
            pairs: Vec::new(),
            metrics: Vec::new(),
            paired: Vec::new(),
        };
        for (b, o) in assigned {
            let other = metric::metrics(points[o].engine.layout());
            let mut quantities = Vec::new();
            let mut names = Vec::new();
            let layout = points[b].engine.layout();
            for m in metric::metrics(layout).into_iter().filter(|m| !per_entrant(m, layout)) {
                if let Some(theirs) = other.iter().find(|x| x.name == m.name) {
                    names.push((m.name.clone(), m.quantity.is_rate()));
                    quantities.push((m.quantity, theirs.quantity.clone()));
                }
            }
            plan.pairs.push(PairPlan { baseline: b, other: o, quantities });
            plan.metrics.push(names);
            plan.paired.push(points[b].settings.same_deal(&points[o].settings));
        }
        Ok(plan)
    }

    /// The pairs as the report names them.
    pub fn compared<'a>(&'a self, points: &'a [ScenarioPoint]) -> Vec<ComparedPair<'a>> {
        self.pairs
            .iter()
            .zip(&self.metrics)
            .zip(&self.paired)
            .map(|((p, metrics), &paired)| ComparedPair {
                baseline: &points[p.baseline].label,
                other: &points[p.other].label,
                paired,
                metrics,
            })
            .collect()
    }
}

/// A validated `compare`: the run's points rebuilt from its manifest.
pub struct ComparePlan {
    pub dir: PathBuf,
    pub manifest: crate::report::Manifest,
    pub points: Vec<ScenarioPoint>,
    pub baseline: Comparisons,
    pub games: u64,
    pub threads: usize,
    pub quiet: bool,
}

impl ComparePlan {
    /// Reads `DIR/manifest.json` and rebuilds the run's scenario points from its command line and
    /// scenario text, so that game `i` of each point is game `i` of the run.
    pub fn from_args(args: &CompareArgs) -> Result<Self, UsageError> {
        let path = args.dir.join("manifest.json");
        let bad = |why: String| UsageError(format!("cannot compare {}: {why}", args.dir.display()));
        let text = crate::io::read_text_no_follow(&path, crate::io::MANIFEST_LIMIT)
            .map_err(|e| bad(format!("{}: {e}", path.display())))?;
        if let Some(why) = crate::report::manifest::check(&text) {
            return Err(bad(format!("its {}: {why}", crate::report::manifest::FILE)));
        }
        let manifest =
            crate::report::Manifest::parse(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        let cli = Cli::try_parse_from(&manifest.command_line)
            .map_err(|_| bad("the manifest's command line is not a warsim command".into()))?;
        let Command::Run(run) = cli.command else {
            return Err(bad("the manifest's command line is not a `warsim run`".into()));
        };
        // Rebuild from the scenario text and the files the run read, not from what they say today.
        let req = match &manifest.scenario_text {
            Some(text) => {
                let target = Path::new(&run.point.target);
                let stem = target.file_stem().map_or("scenario".into(), |s| s.to_string_lossy().into_owned());
                let parsed = scenario::parse(text, &run.point.target, &stem, target.parent())?;
                apply_flags(parsed, &run.point)?
            }
            None => request(&run.point)?,
        };
        let points = scenario::expand(&req, &manifest.files)?;
        let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
        if labels != manifest.points {
            return Err(bad(
                "its points cannot be rebuilt from the manifest (was it made by another warsim?)".into(),
            ));
        }
        if manifest.shards != "1/1" || manifest.partial || !manifest.point_games.is_empty() {
            return Err(bad(format!(
                "it holds {} (compare needs a finished, unsharded run: merge the shards or finish the run first)",
                if manifest.shards != "1/1" {
                    format!("shard {} of a run", manifest.shards)
                } else if manifest.partial {
                    "an interrupted run".to_string()
                } else {
                    "an --until run whose points played different numbers of games".to_string()
                }
            )));
        }
        let this = crate::provenance::fingerprint();
        if manifest.build != this && !args.allow_other_build {
            return Err(bad(format!(
                "the run was made by another build of warsim ({}; this is {this}) and compare replays its \
                 games; --allow-other-build compares it anyway",
                crate::provenance::shown(&manifest.build)
            )));
        }
        let baseline = Comparisons::plan(&points, &args.baseline)?;
        let games = args.games.unwrap_or(manifest.games);
        if games == 0 || games > manifest.games {
            return Err(UsageError(format!(
                "--games {games}: compare the first 1 to {} games (the run played {} per point)",
                manifest.games, manifest.games
            )));
        }
        let threads = worker_threads(args.threads)?;
        Ok(ComparePlan {
            dir: args.dir.clone(),
            manifest,
            points,
            baseline,
            games,
            threads,
            quiet: args.quiet,
        })
    }
}

/// Games per candidate of a tune when neither `--games` nor the scenario gives a cap.
pub const TUNE_CAP: u64 = 1_000_000;
/// The largest cap a tune takes: a larger `--games` (18446744073709551615) means "no cap" and is
/// lowered to it, so no count of games or looks can overflow (2^50 games, centuries of play).
pub const TUNE_CAP_MAX: u64 = 1 << 50;
/// Most candidates a tune may race.
pub const MAX_CANDIDATES: usize = 200;

/// A validated `tune`: the candidates (one scenario point each), what each measures, the race's
/// rules, and where it writes.
pub struct TunePlan {
    pub name: String,
    pub candidates: Vec<ScenarioPoint>,
    /// The varied keys, and each candidate's values of them.
    pub keys: Vec<String>,
    pub values: Vec<Vec<String>>,
    pub measures: Vec<crate::sim::tune::Measures>,
    pub rules: crate::stats::race::Rules,
    pub metric: String,
    /// The metric is a share of decided games.
    pub of_decided: bool,
    pub share: bool,
    pub goal: String,
    pub cap: u64,
    pub seed: u64,
    pub threads: usize,
    pub out: PathBuf,
    pub quiet: bool,
    pub resume: bool,
    /// `--force`: write beside files warsim did not write.
    pub force: bool,
    /// The command line without `--resume`, for the manifest.
    pub command_line: Vec<String>,
    /// What fixes the result: a resume, a shard and a merge go on only from files of this plan.
    pub identity: crate::sim::tune_file::TuneIdentity,
    /// The help text of each varied key (for the answer's instruction), in `keys` order.
    pub helps: Vec<Option<&'static str>>,
    /// The scenario file's text (None for a game name), for the manifest.
    pub scenario_text: Option<String>,
    /// Bisect on the crossing (`stats::bisect`) rather than race every candidate.
    pub bisect: bool,
    /// `--shard K/N`: play only this shard of the next look.
    pub shard: Option<crate::sim::shard::Shard>,
    /// `--merge-shards N`: merge the next look's N shard files.
    pub merge_shards: Option<u64>,
    /// Games per observation of the race: whole deal groups of every candidate.
    pub observation: u64,
}

/// The whole numbers of `LO..HI` (`value` of the flag's `raw` argument), at most `MAX_CANDIDATES`.
fn range_values(raw: &str, value: &str, flag: &str) -> Result<Vec<String>, UsageError> {
    let (a, b) = value.split_once("..").unwrap_or((value, ""));
    match (a.trim().parse::<i64>(), b.trim().trim_start_matches('=').parse::<i64>()) {
        // In i128: a range from i64::MIN to i64::MAX is refused, never overflows.
        (Ok(a), Ok(b)) if a <= b && (b as i128 - a as i128) < MAX_CANDIDATES as i128 => {
            Ok((a..=b).map(|x| x.to_string()).collect())
        }
        _ => Err(UsageError(format!(
            "{flag} '{raw}': LO..HI must be whole numbers with LO <= HI and at most {MAX_CANDIDATES} values"
        ))),
    }
}

/// For a value written as a range with a dash (`0-12`), how to write it (`0..12`); a negative
/// number alone (`-3`) is a value.
fn dash_range(value: &str) -> Option<String> {
    let (a, b) = value.trim().split_once('-').filter(|(a, _)| !a.is_empty())?;
    let whole = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    (whole(a) && whole(b)).then(|| format!("write ranges as {a}..{b}"))
}

/// `KEY=LO..HI` as the list of whole numbers, or `KEY=V1,V2,...` as given; and whether it was a
/// range.
fn vary_values(raw: &str) -> Result<(String, Vec<String>, bool), UsageError> {
    let (k, v) = split_pair(raw, "--vary")?;
    if let Some(hint) = dash_range(&v) {
        return Err(UsageError(format!("--vary '{raw}': {hint}")));
    }
    let values: Vec<String> = if v.contains("..") {
        range_values(raw, &v, "--vary")?
    } else {
        v.split(',').map(|s| s.trim().to_string()).collect()
    };
    if values.iter().all(String::is_empty) {
        return Err(UsageError(format!("--vary '{raw}' has no values (KEY=LO..HI or KEY=V1,V2,...)")));
    }
    // As --sweep: an empty item is a slip, never silently dropped. (A value given twice makes two
    // candidates that cannot be told apart, which tests of the cap use.)
    if let Some(i) = values.iter().position(String::is_empty) {
        return Err(UsageError(format!(
            "--vary '{raw}': value {} of {} is empty (write KEY=V1,V2,... with no empty item)",
            i + 1,
            values.len()
        )));
    }
    Ok((k, values, v.contains("..")))
}

/// A goal or requirement's metric, resolved for a candidate: a `--until` metric, or a share of
/// decided games.
fn tune_metric(
    name: &str,
    layout: &crate::record::Layout,
) -> Option<(crate::sim::tune::RatioQuantity, bool, bool)> {
    use crate::sim::tune::RatioQuantity;
    if let Some(m) = metric::resolve(name, layout) {
        let rate = m.quantity.is_rate();
        return Some((RatioQuantity { num: m.quantity, less: None, den: None }, rate, false));
    }
    let (num, den) = metric::share_of_decided(name, layout)?;
    Some((RatioQuantity { num, less: None, den: Some(den) }, true, true))
}

impl TunePlan {
    pub fn from_args(args: &TuneArgs, command_line: Vec<String>) -> Result<Self, UsageError> {
        use crate::stats::race::{Rules, Target};
        let req = request(&args.point)?;
        let spec = req.tune.clone().unwrap_or_default();
        let vary_raw = if args.vary.is_empty() { spec.vary.clone() } else { args.vary.clone() };
        if vary_raw.is_empty() {
            return Err(UsageError(
                "tune needs --vary KEY=LO..HI or KEY=V1,V2,... (or a scenario with [tune] vary)".into(),
            ));
        }
        let goal_raw = args.goal.clone().or(spec.goal.clone()).ok_or_else(|| {
            UsageError(
                "tune needs --goal METRIC=TARGET, METRIC>=X or METRIC<=X (or a scenario with [tune] goal)"
                    .into(),
            )
        })?;
        let require_raw = if args.require.is_empty() { spec.require.clone() } else { args.require.clone() };
        let within = args.within.or(spec.within);
        if within.is_some_and(|w| !(w.is_finite() && w > 0.0)) {
            return Err(UsageError("--within must be a positive number".into()));
        }
        let mut keys = Vec::new();
        let mut sweep = args.point.sweep.clone();
        let mut range_values = None;
        for raw in &vary_raw {
            let (k, values, range) = vary_values(raw)?;
            range_values = range.then_some(values.len());
            keys.push(k.clone());
            sweep.push(format!(
                "{k}={}",
                values.join(if values.iter().any(|v| v.contains(',')) { ";" } else { "," })
            ));
        }
        let point_args = PointArgs {
            target: args.point.target.clone(),
            set: args.point.set.clone(),
            sweep,
            seed: args.point.seed,
        };
        let req = ScenarioRequest { tune: req.tune, ..request(&point_args)? };
        let candidates = scenario::expand(&req, &[])?;
        if candidates.len() > MAX_CANDIDATES {
            return Err(UsageError(format!(
                "tune: {} candidates; at most {MAX_CANDIDATES} (vary fewer values)",
                candidates.len()
            )));
        }
        let (metric_name, target) = Target::split(&goal_raw).ok_or_else(|| {
            UsageError(format!("--goal '{goal_raw}' should be METRIC=TARGET, METRIC>=X or METRIC<=X"))
        })?;
        if within.is_some() && !matches!(target, Target::Equal(_)) {
            return Err(UsageError("--within goes with a goal METRIC=TARGET".into()));
        }
        let mut requires = Vec::new();
        for raw in &require_raw {
            match Target::split(raw) {
                Some((name, t)) if !matches!(t, Target::Equal(_)) => requires.push((name, t)),
                _ => return Err(UsageError(format!("--require '{raw}' should be METRIC<=X or METRIC>=X"))),
            }
        }
        let unknown = |name: &str| {
            let layout = candidates[0].engine.layout();
            let mut names = metric::common_names(&[layout]);
            names.extend(metric::share_names(layout));
            UsageError(format!(
                "tune: '{name}' is not a metric of every candidate{}",
                metric::unknown(name, &names, candidates[0].game.name)
            ))
        };
        let mut measures = Vec::new();
        let (mut share, mut of_decided) = (false, false);
        for c in &candidates {
            let layout = c.engine.layout();
            let (goal, rate, decided) =
                tune_metric(&metric_name, layout).ok_or_else(|| unknown(&metric_name))?;
            (share, of_decided) = (rate, decided);
            let mut req_q = Vec::new();
            for (name, _) in &requires {
                req_q.push(tune_metric(name, layout).ok_or_else(|| unknown(name))?.0);
            }
            measures.push(crate::sim::tune::Measures {
                goal,
                requires: req_q,
                unit: layout.group_size.clamp(1, u32::MAX as u64) as u32,
            });
        }
        // A share's goal written as a percentage without its sign (`=50`) is out of a share's range.
        if share && !(0.0..=1.0).contains(&target.value()) {
            let v = target.value();
            return Err(UsageError(format!(
                "--goal '{goal_raw}': {metric_name} is a share, between 0 and 1: write {} or {v}%",
                v / 100.0
            )));
        }
        if goal_raw.trim_end().ends_with('%') && !share {
            return Err(UsageError(format!(
                "--goal '{goal_raw}': a percentage is a share's goal, and {metric_name} is not a share (write the target as a number)"
            )));
        }
        let values = candidates
            .iter()
            .map(|c| {
                keys.iter()
                    .map(|k| {
                        // The variant is kept apart from the other settings' values.
                        if k == "variant" {
                            return c.settings.variant.clone();
                        }
                        c.settings
                            .values
                            .iter()
                            .find(|(key, _)| key == k)
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect();
        let observation =
            crate::sim::tune::observation_games(candidates.iter().map(|c| c.engine.layout().group_size));
        let cap = args.games.unwrap_or(TUNE_CAP).min(TUNE_CAP_MAX);
        if cap < 2 * observation {
            return Err(UsageError(format!(
                "--games {cap}: a tune needs at least {} games per setting (two observations of {observation} games make the first interval)",
                2 * observation
            )));
        }
        if share && within.is_some_and(|w| w >= 1.0) {
            return Err(UsageError(format!(
                "--within {:e}: {metric_name} is a share, between 0 and 1; give a tolerance below 1 (0.01 is one point)",
                within.unwrap_or_default()
            )));
        }
        let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(format!("tune-{}", req.name)));
        let state_file = out.join(crate::sim::tune::FILE);
        let saved = std::fs::symlink_metadata(&state_file).is_ok();
        if args.resume && !saved {
            return Err(UsageError(format!(
                "cannot resume: {} holds no saved tune ({} is missing); run without --resume to start it",
                out.display(),
                crate::sim::tune::FILE
            )));
        }
        // As `run`: a folder holding files warsim did not write is refused unless --force; one
        // that a tune goes on in (a resume, a shard, a merge) may hold anything; every name it
        // writes must be free or a file, found before the first game.
        let go_on = args.resume || args.shard.is_some() || args.merge_shards.is_some();
        // A merge's inputs (the shard files) are in the folder: it reads them itself.
        let continuing = (go_on && saved) || args.merge_shards.is_some();
        let welcome = match (continuing, args.force) {
            (true, _) => crate::outdir::Welcome::Continuing,
            (false, true) => crate::outdir::Welcome::Anything,
            (false, false) => crate::outdir::Welcome::OwnOnly,
        };
        crate::outdir::check_output(&out, welcome)?;
        // A run's results are not a tune's to replace: a new tune into their folder is refused
        // unless --force (which then leaves them alone).
        if !go_on
            && !args.force
            && crate::outdir::earlier_manifest(&out)
                .is_some_and(|m| !crate::report::tune::is_tune_manifest(&m))
        {
            return Err(UsageError(format!(
                "output folder {} holds the results of a run (its manifest.json): choose another --out for the tune, or give --force to write beside them (they are left alone)",
                out.display()
            )));
        }
        let shard = args.shard.as_deref().map(crate::sim::shard::Shard::parse).transpose()?;
        if let Some(sh) = shard {
            crate::outdir::check_file(&out, &crate::sim::tune::shard_file(sh.k, sh.n))?;
        }
        // The candidates are exactly the range's values, in order (no other axis or run).
        let single_range = vary_raw.len() == 1 && range_values == Some(candidates.len());
        let bisect = search_by_bisection(
            args.search.as_deref().or(spec.search.as_deref()).unwrap_or("auto"),
            single_range,
            candidates.len(),
            requires.is_empty(),
        )?;
        let rules = Rules {
            target,
            within,
            requires: requires.iter().map(|(_, t)| *t).collect(),
            candidates: candidates.len(),
            tuned_at: crate::sim::tune::TUNED_AT,
            bisect,
        };
        let seed = args.point.seed.or(req.seed).unwrap_or(1);
        let identity = crate::sim::tune_file::TuneIdentity {
            build: crate::provenance::fingerprint().into(),
            scenario: req.name.clone(),
            scenario_text: req.text.clone(),
            seed,
            games: cap,
            goal: format!("{metric_name} {}", target.describe()),
            within: within.map(|w| w.to_string()),
            requires: requires.iter().map(|(n, t)| format!("{n} {}", t.describe())).collect(),
            search: if bisect { "bisect" } else { "race" }.into(),
            observation,
            candidates: candidates
                .iter()
                .map(|c| crate::sim::tune_file::CandidateIdentity {
                    label: c.label.clone(),
                    game: c.game.name.into(),
                    variant: c.settings.variant.clone(),
                    settings: c.settings.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
                    files: c
                        .settings
                        .files
                        .iter()
                        .map(|f| (f.key.clone(), f.path.clone(), f.hash.clone()))
                        .collect(),
                })
                .collect(),
        };
        let helps = keys
            .iter()
            .map(|k| candidates[0].game.settings.iter().find(|s| s.key == k).map(|s| s.help))
            .collect();
        Ok(TunePlan {
            name: req.name,
            keys,
            values,
            measures,
            rules,
            metric: metric_name,
            of_decided,
            share,
            goal: goal_raw,
            cap,
            seed,
            threads: worker_threads(args.threads)?,
            out,
            quiet: args.quiet,
            resume: args.resume,
            force: args.force,
            command_line: command_line.into_iter().filter(|a| a != "--resume").collect(),
            identity,
            helps,
            scenario_text: req.text,
            candidates,
            bisect,
            observation,
            shard,
            merge_shards: match args.merge_shards {
                Some(n) if n == 0 || n > crate::sim::shard::MAX_SHARDS => {
                    return Err(UsageError(format!(
                        "--merge-shards {n}: N must be from 1 to {}",
                        crate::sim::shard::MAX_SHARDS
                    )));
                }
                n => n,
            },
        })
    }
}

/// Least values in a range for `--search auto` to bisect it: below that a race is as quick.
pub const BISECT_FROM: usize = 6;

/// Whether a tune bisects (`stats::bisect`) or races: `search` as asked, checked against what a
/// bisection needs (one whole-number range towards METRIC=TARGET, no --require).
fn search_by_bisection(
    search: &str,
    single_range: bool,
    candidates: usize,
    no_requires: bool,
) -> Result<bool, UsageError> {
    let fits = single_range && no_requires;
    match search {
        "race" => Ok(false),
        "auto" => Ok(fits && candidates >= BISECT_FROM),
        "bisect" if fits => Ok(true),
        "bisect" => Err(UsageError(
            "--search bisect needs one --vary KEY=LO..HI (no other --vary or --sweep) and no --require; use --search race"
                .into(),
        )),
        other => Err(UsageError(format!("[tune] search '{other}': allowed are race, bisect, auto"))),
    }
}

/// A validated `warsim balance`: the card set, the tournaments that measure it, the band, and
/// where the files go (`sim::balance`, `docs/balance.md`).
pub struct BalancePlan {
    /// The card file as the user named it, and its text.
    pub file: String,
    pub text: String,
    pub game: &'static crate::games::GameDef,
    pub balancing: &'static crate::games::Balancing,
    /// The user's `--set`s.
    pub sets: Vec<String>,
    pub values: bool,
    pub sheet: crate::games::Sheet,
    pub within: f64,
    pub events: u64,
    pub seed: u64,
    pub threads: usize,
    pub out: PathBuf,
    pub quiet: bool,
    pub resume: bool,
    pub command_line: Vec<String>,
}

/// Tournaments per measure, and per race candidate at most, by default.
pub const BALANCE_EVENTS: u64 = 2_000;
/// The default band around the peers' median (games won per tournament).
pub const BALANCE_WITHIN: f64 = 0.05;

impl BalancePlan {
    pub fn from_args(args: &crate::cli::BalanceArgs, command_line: Vec<String>) -> Result<Self, UsageError> {
        let (game, balancing) = crate::games::registry()
            .iter()
            .find_map(|g| g.card_files.as_ref().and_then(|c| c.balancing.as_ref()).map(|b| (g, b)))
            .expect("a registered game balances card sets");
        let file = args.cards.display().to_string();
        if !args.cards.is_file() {
            return Err(UsageError(format!(
                "card set '{file}' does not exist (give a card-set file, docs/cards.md)"
            )));
        }
        let text = crate::io::read_text(&args.cards, crate::io::CARD_FILE_LIMIT)
            .map_err(|e| UsageError(format!("cannot read card set '{file}': {e}")))?;
        let values = args.knobs == "amounts,values";
        let sheet = (balancing.sheet)(&file, &text, values).map_err(UsageError)?;
        for raw in &args.set {
            let (k, _) = split_pair(raw, "--set")?;
            let fixed = balancing.fixed.iter().any(|(f, _)| *f == k);
            if fixed || k == balancing.card_key || k == balancing.only_key {
                return Err(UsageError(format!(
                    "--set {k}: balance sets {k} itself (set the dealing, variant, policies or deck_policy)"
                )));
            }
        }
        let within = args.within.unwrap_or(BALANCE_WITHIN);
        if !(within.is_finite() && within > 0.0) {
            return Err(UsageError("--within must be a positive number of games won per tournament".into()));
        }
        let events = args.games.unwrap_or(BALANCE_EVENTS);
        if !(50..=TUNE_CAP_MAX).contains(&events) {
            return Err(UsageError(format!("--games {events}: give 50 to 2^50 tournaments per measure")));
        }
        if !sheet.designs.iter().any(|d| d.has_text) {
            return Err(UsageError(format!(
                "card set '{file}' has no design with abilities: nothing to balance"
            )));
        }
        let name = args.cards.file_stem().map_or("cards".into(), |s| s.to_string_lossy().into_owned());
        let plan = BalancePlan {
            file,
            text,
            game,
            balancing,
            sets: args.set.clone(),
            values,
            sheet,
            within,
            events,
            seed: args.seed.unwrap_or(1),
            threads: worker_threads(args.threads)?,
            out: args.out.clone().unwrap_or_else(|| PathBuf::from(format!("results/balance-{name}"))),
            quiet: args.quiet,
            resume: args.resume,
            command_line,
        };
        // The set must play as a tournament: built once here so a refusal comes before any game.
        plan.point(&plan.text, None)?;
        Ok(plan)
    }

    /// The tournament point of card-set `text`, measuring every design's impact or only `only`'s.
    pub fn point(&self, text: &str, only: Option<usize>) -> Result<Box<dyn crate::games::Point>, UsageError> {
        let mut set = self.sets.clone();
        set.extend(self.balancing.fixed.iter().map(|(k, v)| format!("{k}={v}")));
        set.push(format!("{}={}", self.balancing.card_key, self.file));
        if let Some(d) = only {
            set.push(format!("{}={}", self.balancing.only_key, self.sheet.designs[d].id));
        }
        let args = PointArgs { target: self.game.name.into(), set, sweep: Vec::new(), seed: None };
        let req = request(&args)?;
        let stored =
            [crate::settings::SettingFile::new(self.balancing.card_key, &self.file, text.to_string())];
        let mut points = scenario::expand(&req, &stored)?;
        Ok(points.remove(0).engine)
    }

    /// Peer groups of a sheet: designs of one rarity and printed value (numbered in order of
    /// appearance).
    pub fn groups_of(sheet: &crate::games::Sheet) -> Vec<u32> {
        let mut keys: Vec<(&str, u8)> = Vec::new();
        sheet
            .designs
            .iter()
            .map(|d| {
                let k = (d.rarity, d.value);
                let at = keys.iter().position(|x| *x == k).unwrap_or_else(|| {
                    keys.push(k);
                    keys.len() - 1
                });
                at as u32
            })
            .collect()
    }

    /// What fixes the result: a resume goes on only from the same plan.
    pub fn identity(&self) -> String {
        let parts = [
            crate::io::fingerprint(&[&self.text]),
            self.sets.join(" "),
            self.values.to_string(),
            self.within.to_string(),
            self.events.to_string(),
            self.seed.to_string(),
            env!("CARGO_PKG_VERSION").to_string(),
        ];
        crate::io::fingerprint(&parts.iter().map(String::as_str).collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_match_on_the_other_settings() {
        let labels: Vec<String> = [
            "war variant=standard players=2",
            "war variant=standard players=3",
            "war variant=peace players=2",
            "war variant=peace players=3",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(assign_baselines(&labels, "variant=standard").unwrap(), vec![(0, 2), (1, 3)]);
        assert_eq!(
            assign_baselines(&labels, "war variant=standard players=2").unwrap(),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        assert!(assign_baselines(&labels, "variant=lesser").unwrap_err().contains("matches no"));
    }
}
