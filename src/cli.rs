//! The command line: clap definitions, and their translation into validated, typed plans before
//! any work starts. No game logic lives here.

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use crate::error::UsageError;
use crate::scenario::{self, ScenarioPoint, ScenarioRequest};
use crate::sim::shard::Shard;
use crate::sim::until::Until;

/// Games cap of an `--until` run when neither `--games` nor the scenario gives one.
pub const UNTIL_CAP: u64 = 1_000_000_000;

#[derive(Debug, Parser)]
#[command(
    name = "warsim",
    version,
    about = "Plays millions of games of War-family card games and reports exact statistics"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play many games of a scenario file or a game and write the statistics.
    Run(RunArgs),
    /// Tell one game as a narrative: the same game as game --game-index of `run`.
    Play(PlayArgs),
    /// List the games, or one game's settings, defaults, allowed values and variants.
    List {
        /// A game name.
        game: Option<String>,
    },
    /// Combine the output folders of the shards of one run (`run --shard K/N`) into the folder the
    /// unsharded run would have written.
    Merge(MergeArgs),
    /// Print a shell completion script.
    Completions { shell: clap_complete::Shell },
    /// Compare the points of a finished run with a baseline point, game by game (replays the run's
    /// games from its manifest) and write comparisons.csv, plots and report.html into its folder.
    Compare(CompareArgs),
}

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Output folder of a finished `warsim run` (it holds manifest.json).
    pub dir: PathBuf,
    /// The baseline: a point label, or some of its KEY=VALUE words (variant=standard compares every
    /// point with the standard point that agrees with it on the other settings).
    #[arg(long)]
    pub baseline: String,
    /// Compare on the first N games only [default: all the run's games].
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct PointArgs {
    /// A scenario file (.toml) or a game name (see `warsim list`).
    pub target: String,
    /// Set a setting for every run: KEY=VALUE (repeatable); variant=NAME[+NAME] applies presets.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Sweep a setting over values: KEY=V1,V2,... or KEY=A,B;C,D when values are lists
    /// (repeatable; adds an axis to every run).
    #[arg(long = "sweep", value_name = "KEY=V1,V2")]
    pub sweep: Vec<String>,
    /// Master seed [default: the scenario's, else 1].
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub point: PointArgs,
    /// Games per scenario point [default: the scenario's, else 100000].
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: results/<scenario name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compare every point with this baseline, game by game, into comparisons.csv (a point label
    /// or some of its KEY=VALUE words, e.g. variant=standard) [default: the scenario's `baseline`].
    #[arg(long)]
    pub baseline: Option<String>,
    /// Play only shard K of N (1 <= K <= N): a contiguous share of every point's game indices.
    /// Combine the N output folders with `warsim merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Play in blocks (10000 games, then doubling) until the 95% interval half-width of METRIC is at
    /// most HALFWIDTH for every point, or --games (then a cap, default 1000000000) is reached.
    /// METRIC: length_mean, <outcome>_rate (win, draw, cycle, capped, scorched), <event>_share,
    /// <event>_mean.
    #[arg(long, value_name = "METRIC:HALFWIDTH")]
    pub until: Option<String>,
    /// Continue the interrupted run saved in the output folder (same command otherwise).
    #[arg(long)]
    pub resume: bool,
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Output folders of shards of one run (`run --shard K/N`), every K from 1 to N.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged files.
    #[arg(long)]
    pub out: PathBuf,
    /// Print nothing on success.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub point: PointArgs,
    /// Index of the game to tell (as in `example_games`).
    #[arg(long, default_value_t = 0)]
    pub game_index: u64,
    /// Which scenario point to play when the scenario has several (1 = the first).
    #[arg(long, default_value_t = 1)]
    pub point_index: usize,
}

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
    /// The baseline of paired comparisons, if any (validated against the points).
    pub baseline: Option<String>,
    pub shard: Shard,
    pub until: Option<Until>,
    pub resume: bool,
}

/// A validated `play`.
pub struct PlayPlan {
    pub point: ScenarioPoint,
    pub seed: u64,
    pub game_index: u64,
}

fn split_pair(raw: &str, flag: &str) -> Result<(String, String), UsageError> {
    raw.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| UsageError(format!("{flag} '{raw}' should be KEY=VALUE")))
}

/// Reads the target (file or game) and applies `--set` and `--sweep` to every run.
pub fn request(args: &PointArgs) -> Result<ScenarioRequest, UsageError> {
    let looks_like_file = args.target.ends_with(".toml") || Path::new(&args.target).is_file();
    let mut req = if looks_like_file {
        scenario::load(Path::new(&args.target))?
    } else {
        scenario::find_game(&args.target)?;
        scenario::for_game(&args.target)
    };
    for raw in &args.set {
        let (k, v) = split_pair(raw, "--set")?;
        for run in &mut req.runs {
            run.sweep.retain(|(key, _)| *key != k);
            run.set.retain(|(key, _)| *key != k);
            run.set.push((k.clone(), v.clone()));
        }
    }
    for raw in &args.sweep {
        let (k, v) = split_pair(raw, "--sweep")?;
        // Values are separated by commas, or by semicolons when a value is itself a list
        // (`--sweep "policies=greedy,random;search,greedy"`).
        let sep = if v.contains(';') { ';' } else { ',' };
        let values: Vec<String> =
            v.split(sep).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
        if values.is_empty() {
            return Err(UsageError(format!("--sweep '{raw}' has no values (KEY=V1,V2,...)")));
        }
        for run in &mut req.runs {
            run.set.retain(|(key, _)| *key != k);
            run.sweep.retain(|(key, _)| *key != k);
            run.sweep.push((k.clone(), values.clone()));
        }
    }
    Ok(req)
}

impl RunPlan {
    pub fn from_args(args: &RunArgs) -> Result<Self, UsageError> {
        let req = request(&args.point)?;
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?.unwrap_or(Shard::WHOLE);
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
        let points = scenario::expand(&req)?;
        let baseline = args.baseline.clone().or(req.baseline.clone());
        if let Some(spec) = &baseline {
            check_baseline(&points, spec)?;
            if shard.n > 1 || until.is_some() {
                return Err(UsageError(
                    "--baseline cannot be combined with --shard or --until: run `warsim compare DIR --baseline ...` on the merged or finished folder".into(),
                ));
            }
        }
        if let Some(u) = &until {
            u.check(&points.iter().map(|p| p.engine.layout()).collect::<Vec<_>>())?;
        }
        let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&req.name));
        check_writable(&out)?;
        Ok(RunPlan {
            name: req.name,
            points,
            games,
            seed: args.point.seed.or(req.seed).unwrap_or(1),
            threads,
            out,
            quiet: args.quiet,
            scenario_text: req.text,
            baseline,
            shard,
            until,
            resume: args.resume,
        })
    }
}

impl PlayPlan {
    pub fn from_args(args: &PlayArgs) -> Result<Self, UsageError> {
        let req = request(&args.point)?;
        let mut points = scenario::expand(&req)?;
        let n = points.len();
        if args.point_index == 0 || args.point_index > n {
            return Err(UsageError(format!(
                "--point-index {} is not a point of this scenario (1 to {n})",
                args.point_index
            )));
        }
        let point = points.swap_remove(args.point_index - 1);
        Ok(PlayPlan { point, seed: args.point.seed.or(req.seed).unwrap_or(1), game_index: args.game_index })
    }
}

/// `--threads`: at least 1; all cores when not given.
fn worker_threads(requested: Option<usize>) -> Result<usize, UsageError> {
    match requested {
        Some(0) => Err(UsageError("--threads must be at least 1".into())),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The output folder must be creatable and writable before any game is played. A folder this
/// check creates is removed again, so a failing run leaves nothing behind.
pub fn check_writable(dir: &Path) -> Result<(), UsageError> {
    let bad = |why: String| UsageError(format!("cannot write to output folder {}: {why}", dir.display()));
    if dir.exists() && !dir.is_dir() {
        return Err(bad("it is a file, not a folder".into()));
    }
    let existed = dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
    // The probe file is deleted (dropped) before the folder, which must be empty to be removed.
    let probe = tempfile::Builder::new().prefix(".warsim-probe").tempfile_in(dir).map(drop);
    if !existed {
        let _ = std::fs::remove_dir(dir);
    }
    probe.map_err(|e| bad(e.to_string()))
}

fn check_baseline(points: &[ScenarioPoint], spec: &str) -> Result<(), UsageError> {
    let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
    crate::report::compare::assign_baselines(&labels, spec).map(drop).map_err(UsageError)
}

/// A validated `compare`: the run's points rebuilt from its manifest.
pub struct ComparePlan {
    pub dir: PathBuf,
    pub manifest: crate::report::Manifest,
    pub points: Vec<ScenarioPoint>,
    pub baseline: String,
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
        let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        let manifest: crate::report::Manifest =
            serde_json::from_str(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        let cli = Cli::try_parse_from(&manifest.command_line)
            .map_err(|_| bad("the manifest's command line is not a warsim command".into()))?;
        let Command::Run(mut run) = cli.command else {
            return Err(bad("the manifest's command line is not a `warsim run`".into()));
        };
        // Rebuild from the scenario text the run read, not from whatever the file says today.
        let tmp = tempfile::tempdir().map_err(|e| bad(e.to_string()))?;
        if let Some(text) = &manifest.scenario_text {
            let name =
                Path::new(&run.point.target).file_name().map_or("scenario.toml".into(), |n| n.to_owned());
            let file = tmp.path().join(name);
            std::fs::write(&file, text).map_err(|e| bad(e.to_string()))?;
            run.point.target = file.to_string_lossy().into_owned();
        }
        let req = request(&run.point)?;
        let points = scenario::expand(&req)?;
        let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
        if labels != manifest.points {
            return Err(bad(
                "its points cannot be rebuilt from the manifest (was it made by another warsim?)".into(),
            ));
        }
        check_baseline(&points, &args.baseline)?;
        let games = args.games.unwrap_or(manifest.games);
        if games == 0 {
            return Err(UsageError("--games must be at least 1".into()));
        }
        let threads = worker_threads(args.threads)?;
        Ok(ComparePlan {
            dir: args.dir.clone(),
            manifest,
            points,
            baseline: args.baseline.clone(),
            games,
            threads,
            quiet: args.quiet,
        })
    }
}
