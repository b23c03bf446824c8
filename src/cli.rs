//! The command line as clap parses it: the commands and their flags, nothing more. `plan` turns
//! them into validated, typed plans before any work starts.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

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
