//! The command line as clap parses it: the commands and their flags, nothing more. `plan` turns
//! them into validated, typed plans before any work starts.

use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

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
    /// Search for the setting that brings a metric to a goal: candidates raced on the same deals,
    /// dropped at 95% when worse than the best, until one is left or all are within --within.
    Tune(TuneArgs),
    /// Propose the fewest edits of a Card Wars card set's numbers that bring every design in line
    /// with its peers (same rarity and printed value), race them on the same deals, and prove the
    /// edited set on fresh seeds: balanced.toml, changes.csv, report.html.
    Balance(BalanceArgs),
    /// Tell one game as a narrative: the same game as game --game-index of `run`.
    Play(PlayArgs),
    /// List the games and scenario files, one game's settings, defaults, allowed values and
    /// variants, or the points of a scenario file with their --point-index.
    List {
        /// A game name or a scenario file.
        #[arg(value_parser = Words::games(), hide_possible_values = true)]
        game: Option<String>,
    },
    /// Combine the output folders of the shards of one run (`run --shard K/N`) into the folder the
    /// unsharded run would have written.
    Merge(MergeArgs),
    /// Check a Card Wars card set as a run would and print each design's abilities back as plain
    /// sentences, the abilities that can never act, text numbers no ability uses, and a table of
    /// designs per rarity and value.
    Cards {
        /// A card-set file (docs/cards.md).
        file: PathBuf,
        /// `text` (default) or `csv` (one row per design, for a spreadsheet).
        #[arg(long, default_value = "text", value_parser = ["text", "csv"])]
        format: String,
    },
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
    #[arg(long, value_parser = parse_count)]
    pub games: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compare a run made by another build of warsim (this build replays its games).
    #[arg(long)]
    pub allow_other_build: bool,
}

#[derive(Debug, clap::Args)]
pub struct PointArgs {
    /// A scenario file (.toml) or a game name (see `warsim list`).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub target: String,
    /// Set a setting for every run: KEY=VALUE (repeatable); variant=NAME[+NAME] applies presets.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = Words::settings(), hide_possible_values = true)]
    pub set: Vec<String>,
    /// Sweep a setting over values: KEY=V1,V2,... or KEY=A,B;C,D when values are lists
    /// (repeatable; adds an axis to every run).
    #[arg(long = "sweep", value_name = "KEY=V1,V2", value_parser = Words::settings(), hide_possible_values = true)]
    pub sweep: Vec<String>,
    /// Master seed [default: the scenario's, else 1].
    #[arg(long, value_parser = parse_count)]
    pub seed: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub point: PointArgs,
    /// A setting to vary: KEY=LO..HI (whole numbers) or KEY=V1,V2,... (repeatable: every
    /// combination is a candidate) [default: the scenario's [tune] vary].
    #[arg(long, value_name = "KEY=LO..HI|KEY=V1,V2")]
    pub vary: Vec<String>,
    /// The goal: METRIC=TARGET (closest wins), METRIC>=X or METRIC<=X (every candidate that meets
    /// it). METRIC: any --until metric, or <event>_share_of_decided (first_player_win_share)
    /// [default: the scenario's [tune] goal].
    #[arg(long, value_name = "METRIC=TARGET")]
    pub goal: Option<String>,
    /// A constraint every answer must meet: METRIC<=X or METRIC>=X (repeatable).
    #[arg(long, value_name = "METRIC<=X")]
    pub require: Vec<String>,
    /// Stop when every candidate left is within TOL of the goal at 95% (METRIC=TARGET only).
    #[arg(long, value_name = "TOL")]
    pub within: Option<f64>,
    /// How to search: race (every candidate on the same deals, the farther ones dropped), bisect
    /// (one whole-number range whose metric moves one way: probe the ends, then halve the bracket
    /// around the crossing, then race the two settings beside it), auto (bisect a single range of
    /// 6 or more values towards METRIC=TARGET without --require, else race) [default: the
    /// scenario's [tune] search, else auto].
    #[arg(long, value_name = "race|bisect|auto", value_parser = ["race", "bisect", "auto"])]
    pub search: Option<String>,
    /// Games per candidate at most (a cap: then the answer is not settled; larger than 2^50 means
    /// 2^50) [default: 1000000].
    #[arg(long, value_parser = parse_count)]
    pub games: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: results/tune-<scenario name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue the interrupted tune saved in the output folder (the same tune: scenario, card
    /// files, seed and settings; the spelling of the command line may differ).
    #[arg(long)]
    pub resume: bool,
    /// Write into an output folder that holds files warsim did not write (they are left alone).
    #[arg(long)]
    pub force: bool,
    /// Play only shard K of N of the race's next look (1 <= K <= N), from the state saved in the
    /// output folder (or the start): writes tune-shard-K-of-N.json there; --merge-shards N ends
    /// the look. A tune is a sequence of looks: repeat both until the answer.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["resume", "merge_shards"])]
    pub shard: Option<String>,
    /// Merge the N shard files of the next look in the output folder, decide the look, save the
    /// state and write the files; the same answer as the unsharded tune, byte for byte.
    #[arg(long, value_name = "N", conflicts_with = "resume")]
    pub merge_shards: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct BalanceArgs {
    /// The card set (docs/cards.md) whose designs name their designers.
    #[arg(value_hint = clap::ValueHint::FilePath)]
    pub cards: PathBuf,
    /// Set a setting of the tournaments: KEY=VALUE (repeatable): deal, variant, policies,
    /// deck_policy (`warsim list slots`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The band around the peers' median, in games won per tournament, within which a design is
    /// left alone and into which an edit must bring it [default: 0.05].
    #[arg(long, value_name = "W")]
    pub within: Option<f64>,
    /// Tournaments per measure of the whole set, and per candidate of a race at most
    /// [default: 2000].
    #[arg(long, value_parser = parse_count)]
    pub games: Option<u64>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder [default: results/balance-<card set name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue the interrupted balance saved in the output folder.
    #[arg(long)]
    pub resume: bool,
    /// Which numbers may change: the abilities' numbers (`amounts`), or also the printed values
    /// (`amounts,values`), exchanged within a designer's designs of one rarity.
    #[arg(long, default_value = "amounts", value_parser = ["amounts", "amounts,values"])]
    pub knobs: String,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub point: PointArgs,
    /// Games per scenario point (100000, 100_000, 1e5) [default: the scenario's, else 100000].
    #[arg(long, value_parser = parse_count)]
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
    /// Take K/N from the array job running this process: Slurm (SLURM_ARRAY_TASK_ID with
    /// SLURM_ARRAY_TASK_MIN/MAX or COUNT), a Kubernetes indexed Job (JOB_COMPLETION_INDEX from 0,
    /// the count in WARSIM_SHARD_COUNT) or AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX from 0, with
    /// AWS_BATCH_JOB_ARRAY_SIZE or WARSIM_SHARD_COUNT). See docs/cluster.md.
    #[arg(long, conflicts_with = "shard")]
    pub shard_from_env: bool,
    /// Play in blocks (10000 games, then doubling) until the half-width of METRIC's 95% confidence
    /// sequence (valid at every look, so stopping early keeps its coverage) is at most HALFWIDTH for
    /// every point, or --games (then a cap, default 1000000000) is reached.
    /// METRIC: length_mean, <outcome>_rate (win, draw, cycle, capped, scorched), <event>_share,
    /// <event>_mean.
    #[arg(long, value_name = "METRIC:HALFWIDTH")]
    pub until: Option<String>,
    /// Also write games.csv: one row per game (index, seed, outcome, length, counters) for the
    /// first N games of every point [default: none].
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub game_rows: Option<u64>,
    /// Continue the interrupted run saved in the output folder (same command otherwise).
    #[arg(long)]
    pub resume: bool,
    /// Write into an output folder that holds files warsim did not write (they are left alone).
    #[arg(long)]
    pub force: bool,
    /// With --resume: continue a run saved by another build of warsim (its files then name both).
    #[arg(long, requires = "resume")]
    pub allow_other_build: bool,
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
    /// Write into an output folder that holds files warsim did not write (they are left alone).
    #[arg(long)]
    pub force: bool,
    /// Merge shards played by different builds of warsim (the merged files name every build).
    #[arg(long)]
    pub allow_other_build: bool,
}

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub point: PointArgs,
    /// Index of the game to tell (as in `example_games`).
    #[arg(long, default_value_t = 0, value_parser = parse_count)]
    pub game_index: u64,
    /// Which scenario point to play when the scenario has several (counted from 0, as
    /// `warsim list SCENARIO` numbers them).
    #[arg(long, default_value_t = 0)]
    pub point_index: usize,
    /// In a tournament (event=tournament), tell only game A-B in full (entrants counted from 0, as
    /// `play` names them).
    #[arg(long = "match", value_name = "A-B")]
    pub game_of_event: Option<String>,
}

/// Accepts any text (the plan checks it, with better messages than clap's) but tells shell
/// completions the words worth offering: game names, or `key=` and `key=value` of every setting.
#[derive(Clone, Copy)]
pub struct Words(&'static [String]);

impl Words {
    fn games() -> Words {
        static GAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        Words(GAMES.get_or_init(|| crate::games::registry().iter().map(|g| g.name.to_string()).collect()))
    }

    fn settings() -> Words {
        static SETTINGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        Words(SETTINGS.get_or_init(Self::setting_words))
    }

    fn setting_words() -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        for game in crate::games::registry() {
            for spec in game.settings {
                let values: Vec<String> = match spec.allowed {
                    crate::settings::Allowed::Choice(choices) => {
                        choices.iter().map(|c| c.to_string()).collect()
                    }
                    crate::settings::Allowed::Bool => vec!["true".into(), "false".into()],
                    _ => vec![String::new()],
                };
                words.extend(values.into_iter().map(|v| format!("{}={v}", spec.key)));
            }
            words.extend(game.presets.iter().map(|p| format!("variant={}", p.name)));
        }
        let mut seen = std::collections::HashSet::new();
        words.retain(|w| seen.insert(w.clone()));
        words
    }
}

impl clap::builder::TypedValueParser for Words {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|w| clap::builder::PossibleValue::new(w.as_str()))))
    }
}

/// A whole number as people write counts: `1000000`, `1_000_000`, `1,000,000` or `1e6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let plain: String = text.trim().chars().filter(|c| !matches!(c, '_' | ',')).collect();
    let bad = || format!("'{text}' is not a whole number (write 1000000, 1_000_000 or 1e6)");
    if let Ok(n) = plain.parse::<u64>() {
        return Ok(n);
    }
    let too_large = || format!("'{text}' is too large (at most 18446744073709551615, 2^64 - 1)");
    if !plain.is_empty() && plain.chars().all(|c| c.is_ascii_digit()) {
        return Err(too_large());
    }
    let (mantissa, exponent) = plain.split_once(['e', 'E']).ok_or_else(bad)?;
    let exponent: u32 = exponent.parse().map_err(|_| bad())?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() || !whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    // 1.5e6: the digits, scaled by what is left of the exponent after the fraction's digits.
    let shift = exponent.checked_sub(fraction.len() as u32).ok_or_else(bad)?;
    let digits: u64 = format!("{whole}{fraction}").parse().map_err(|_| too_large())?;
    10u64.checked_pow(shift).and_then(|p| digits.checked_mul(p)).ok_or_else(too_large)
}

/// A clap error as one line: the message, the arguments it names, and its tip, then where help is.
pub fn one_line(error: &clap::Error, args: &[std::ffi::OsString]) -> String {
    let command = args.get(1).map(|a| a.to_string_lossy().into_owned()).filter(|a| !a.starts_with('-'));
    let help = match &command {
        Some(c) if Cli::command().find_subcommand(c).is_some() => format!("warsim {c} --help"),
        _ => "warsim --help".to_string(),
    };
    let said = own_words(error, args, command.as_deref()).unwrap_or_else(|| clap_words(error));
    format!("{said} (see '{help}')")
}

/// Our own words for the clap errors whose text misleads a newcomer: a missing target, a negative
/// number after a flag (clap offers `-- -5`, which is not what is meant), a flag of another command.
fn own_words(error: &clap::Error, args: &[std::ffi::OsString], command: Option<&str>) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let invalid = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    };
    match error.kind() {
        // "invalid value '-5' for '--games <GAMES>': '-5' is not a whole number": the flag and the
        // value once, then the reason.
        ErrorKind::ValueValidation => {
            let flag = invalid.first()?.split_whitespace().next()?.to_string();
            let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else { return None };
            let reason = std::error::Error::source(error)?.to_string();
            // Rust's own number parsers name no value and speak of digits and literals.
            let reason = match reason.as_str() {
                r if r.contains("too large") && !r.contains('\'') => "it is too large".to_string(),
                r if r.starts_with("invalid digit") || r.starts_with("cannot parse") => {
                    "it is not a whole number".to_string()
                }
                r if r.starts_with("invalid float") => "it is not a number".to_string(),
                r => r.replace(&format!("'{value}' "), "it "),
            };
            Some(format!("{flag} {value}: {reason}"))
        }
        ErrorKind::MissingRequiredArgument if invalid.iter().any(|a| a == "<TARGET>") => {
            Some(crate::scenario::target_help())
        }
        ErrorKind::UnknownArgument => {
            let arg = invalid.first()?;
            let at = args.iter().position(|a| a.to_string_lossy() == arg.as_str())?;
            let before = args.get(at.checked_sub(1)?)?.to_string_lossy().into_owned();
            if arg.parse::<f64>().is_ok() && before.starts_with("--") {
                // No flag of warsim takes a negative number: say what it takes instead of how
                // to pass the value on to a refusal.
                let takes = match before.as_str() {
                    "--within" => "a tolerance above 0, e.g. 0.01",
                    "--threads" => "a number of worker threads from 1 to 1024",
                    _ => "a whole number from 0 (1000000, 1_000_000 or 1e6)",
                };
                return Some(format!("'{before} {arg}': {before} takes {takes}, not a negative number"));
            }
            let name = arg.split('=').next().unwrap_or(arg).trim_start_matches('-');
            let owner = Cli::command()
                .get_subcommands()
                .find(|c| {
                    Some(c.get_name()) != command && c.get_arguments().any(|a| a.get_long() == Some(name))
                })
                .map(|c| c.get_name().to_string())?;
            Some(format!("'{arg}' is a flag of `warsim {owner}`, not of `warsim {}`", command.unwrap_or("")))
        }
        _ => None,
    }
}

/// Clap's own message on one line.
fn clap_words(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut parts: Vec<String> = Vec::new();
    for line in rendered.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("Usage:") || line.starts_with("For more information") {
            continue;
        }
        let line = line.trim_start_matches("error: ");
        match parts.last_mut() {
            // "required arguments were not provided:" is followed by the arguments, one a line.
            Some(last) if last.ends_with(':') => {
                last.push(' ');
                last.push_str(line);
            }
            Some(last) if line.starts_with('<') || line.starts_with("--") => {
                last.push_str(", ");
                last.push_str(line);
            }
            _ => parts.push(line.to_string()),
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_as_people_write_them() {
        for (text, n) in [
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1,000,000", 1_000_000),
            ("1e6", 1_000_000),
            ("2.5e3", 2_500),
            ("0", 0),
        ] {
            assert_eq!(parse_count(text), Ok(n), "{text}");
        }
        for bad in ["", "x", "1.5", "1e", "1.25e1", "-3", "1e30", "e6"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
        for huge in ["18446744073709551616", "1e20", "99999999999999999999e0"] {
            assert!(
                parse_count(huge).unwrap_err().contains("is too large (at most 18446744073709551615"),
                "{huge}"
            );
        }
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn clap_errors_become_one_line_naming_what_is_missing_and_the_tip() {
        let line = |args: &[&str]| {
            let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            one_line(&Cli::try_parse_from(&args).unwrap_err(), &args)
        };
        let missing = line(&["warsim", "run"]);
        assert!(
            missing.contains("a scenario file or a game name (games: war,")
                && missing.ends_with("(see 'warsim run --help')"),
            "{missing}"
        );
        let tip = line(&["warsim", "run", "war", "--game", "5"]);
        assert!(tip.contains("'--game'") && tip.contains("'--games'"), "{tip}");
        let negative = line(&["warsim", "run", "war", "--games", "-5"]);
        assert!(
            negative.starts_with("'--games -5': --games takes a whole number from 0")
                && !negative.contains("--games=-5"),
            "{negative}"
        );
        let value = line(&["warsim", "run", "war", "--games=-5"]);
        assert!(value.starts_with("--games -5: it is not a whole number (write 1000000"), "{value}");
        let threads = line(&["warsim", "run", "war", "--threads", "abc"]);
        assert!(threads.starts_with("--threads abc: it is not a whole number"), "{threads}");
        let merge = line(&["warsim", "merge", "a"]);
        assert!(merge.contains("--out <OUT>"), "{merge}");
        assert!(!missing.contains('\n') && !tip.contains('\n'));
    }
}
