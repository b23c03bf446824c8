//! The commands: each turns its validated plan (`plan`) into work (`sim`) and output (`report`).
//! The one place that knows all three: it builds the report's inputs from the driver's state.

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, MergeArgs};
use crate::error::UsageError;
use crate::games;
use crate::outdir::Lock;
use crate::plan::{ComparePlan, Comparisons, PlayPlan, RunPlan};
use crate::report::{self, Manifest, PointResult, RunResult};
use crate::scenario::ScenarioPoint;
use crate::seed::GameSeed;
use crate::settings::{SettingFile, Settings};
use crate::sim::checkpoint::RunState;
use crate::sim::driver::Drive;
use crate::sim::paired::{chunk_for, play_paired};
use crate::sim::progress::Progress;
use crate::sim::signal::{self, Interrupted};
use crate::usage;

/// Runs warsim with these arguments (the first is the program name).
pub fn main(args: Vec<std::ffi::OsString>) -> anyhow::Result<()> {
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            print_out(&e.to_string())?;
            return Ok(());
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Bare `warsim`: the usage, then the one line that says what is missing.
            eprint!("{}", Cli::command().render_help());
            return Err(UsageError(
                "no command given: run, play, compare, merge, list, cards or completions".into(),
            )
            .into());
        }
        Err(e) => return Err(UsageError(crate::cli::one_line(&e, &args)).into()),
    };
    let command_line: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    match cli.command {
        Command::Run(args) => run(RunPlan::from_args(&args)?, command_line),
        Command::Play(args) => play(PlayPlan::from_args(&args)?),
        Command::List { game } => list(game.as_deref()),
        Command::Compare(args) => compare(ComparePlan::from_args(&args)?),
        Command::Merge(args) => merge(args),
        Command::Cards { file, format } => cards(&file, format == "csv"),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "warsim", &mut script);
            print_out(&String::from_utf8_lossy(&script))
        }
    }
}

/// Writes to stdout; a closed pipe (`warsim list | head`) is not an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

fn run(plan: RunPlan, command_line: Vec<String>) -> anyhow::Result<()> {
    let start_time = Manifest::now();
    let started = Instant::now();
    crate::sim::hooks::Hooks::get()?;
    let pool = worker_pool(plan.threads)?;
    let (mut state, _lock) = prepare_state(&plan, command_line)?;
    signal::install();
    let to_play: u64 = state.points.iter().filter(|p| !p.complete).map(|p| p.end - p.first - p.done).sum();
    let progress = Progress::new(to_play, plan.quiet);
    let drive = Drive {
        points: plan.points.iter().map(|p| &*p.engine).collect(),
        seed: plan.seed,
        until: plan.until.as_ref(),
        threads: plan.threads,
        out: &plan.out,
    };
    // A finished point is never lost: its files are written at once, marked partial until the end.
    let mut write_partial =
        |st: &RunState| report::write_all(&plan.out, &run_result(st, start_time.clone(), true)?);
    let driven = drive.run(&mut state, &pool, &progress, &mut write_partial)?;
    progress.finish();
    if driven.interrupted {
        report::write_all(&plan.out, &run_result(&state, start_time, true)?)?;
        return Err(Interrupted(stopped_message(&state, &driven, &plan.out)).into());
    }
    let elapsed = started.elapsed().as_secs_f64();
    let result = RunResult { timings: driven.timings, ..run_result(&state, start_time, false)? };
    report::write_all(&plan.out, &result)?;
    let comparisons = match &plan.baseline {
        Some(c) => paired_pass(&plan.points, c, plan.seed, plan.games, &pool, plan.quiet)?.0,
        None => Vec::new(),
    };
    report::write_visuals(&plan.out, &result, &comparisons)?;
    let mut text = report::terminal::render(&result);
    text.push_str(&report::terminal::render_comparisons(&comparisons));
    text.push_str(&until_shortfall(&plan, &state));
    let rate = driven.played as f64 / elapsed.max(1e-9);
    text.push_str(&format!(
        "{} in {elapsed:.2} s ({} games/s on {}); files in {}\n",
        report::format::count(driven.played, "game"),
        report::format::grouped(rate.round() as i128),
        report::format::count(plan.threads as u64, "thread"),
        plan.out.display()
    ));
    print_out(&text)
}

/// What an interrupted run kept, in one line.
fn stopped_message(state: &RunState, driven: &crate::sim::driver::Driven, out: &std::path::Path) -> String {
    use report::format::{count, grouped};
    let kept: u64 = state.points.iter().map(|p| p.done).sum();
    let complete = state.points.iter().filter(|p| p.complete).count() as u64;
    let resumed = if driven.played < kept {
        format!(", {} of them in this session", grouped(driven.played as i128))
    } else {
        String::new()
    };
    let current = state.points.iter().find(|p| !p.complete).map_or_else(String::new, |p| {
        format!("; '{}' at {} of {}", p.label, grouped(p.done as i128), grouped((p.end - p.first) as i128))
    });
    format!(
        "stopped with {} kept{resumed} ({} of {} complete{current}); the files in {} are partial: \
         continue with the same command and --resume",
        count(kept, "game"),
        complete,
        count(state.points.len() as u64, "point"),
        out.display()
    )
}

/// A line for each `--until` target a point did not reach within its games, if any.
fn until_shortfall(plan: &RunPlan, state: &RunState) -> String {
    use report::format::{count, grouped};
    let Some(until) = &plan.until else { return String::new() };
    let short: Vec<(f64, &str)> = state
        .points
        .iter()
        .filter(|p| !until.met(&p.layout, &p.acc))
        .map(|p| (until.interval(&p.layout, &p.acc).half_width(), p.label.as_str()))
        .collect();
    let Some(&(widest, label)) = short.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else {
        return String::new();
    };
    format!(
        "warning: --until {until} not reached for {} of {} within the cap of {} games (widest ±{widest:.3} for '{label}'): raise --games or loosen the target\n",
        short.len(),
        count(state.points.len() as u64, "point"),
        grouped(plan.games as i128)
    )
}

fn worker_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start worker threads")
}

/// The state the run starts from (a fresh one, or the saved one when resuming the same run), with
/// the output folder locked for this process.
fn prepare_state(plan: &RunPlan, command_line: Vec<String>) -> anyhow::Result<(RunState, Lock)> {
    // The manifest records how to reproduce the files: the same command without `--resume`.
    let recorded: Vec<String> =
        command_line.into_iter().filter(|a| a != "--resume" && a != "--allow-other-build").collect();
    let fresh = RunState::new(
        &plan.name,
        plan.scenario_text.clone(),
        plan.seed,
        plan.games,
        plan.until.as_ref().map(|u| u.raw.clone()),
        plan.shard,
        plan.threads,
        recorded,
        &plan.points,
    );
    std::fs::create_dir_all(&plan.out).with_context(|| format!("cannot create {}", plan.out.display()))?;
    let lock = Lock::take(&plan.out)?;
    let state = if plan.resume {
        let saved = RunState::load(&plan.out)?;
        let why = fresh.incompatibility(&saved).or_else(|| {
            (saved.shard != fresh.shard)
                .then(|| format!("different shard ({} vs {})", fresh.shard, saved.shard))
        });
        if let Some(why) = why {
            return Err(usage!(
                "cannot resume the run saved in {}: it is not this command's run: {why}",
                plan.out.display()
            ));
        }
        if let Some(why) = saved.build_difference(&fresh).filter(|_| !plan.allow_other_build) {
            return Err(usage!(
                "cannot resume the run saved in {}: its games and this program's were {why}; \
                 --allow-other-build resumes it anyway",
                plan.out.display()
            ));
        }
        crate::io::remove_stale_temporaries(&plan.out);
        let build = crate::provenance::combined(&saved.build, &fresh.build);
        RunState { threads: fresh.threads, command_line: fresh.command_line, build, ..saved }
    } else {
        crate::outdir::clear_earlier_run(&plan.out);
        fresh
    };
    state.save(&plan.out)?;
    Ok((state, lock))
}

/// The files' contents for the points of `state` played so far. `partial` marks a run that stopped
/// early; it then lists only points with games, and the manifest says how many each has.
fn run_result(state: &RunState, start_time: String, partial: bool) -> anyhow::Result<RunResult> {
    let mut points = Vec::new();
    for p in &state.points {
        if !p.complete && p.done == 0 {
            continue;
        }
        let def = games::find(&p.game)
            .with_context(|| format!("the saved state names an unknown game '{}'", p.game))?;
        let settings = Settings::restore(
            def.name,
            def.settings,
            !def.presets.is_empty(),
            &p.variant,
            &p.settings,
            &p.files,
        )
        .map_err(anyhow::Error::msg)?;
        points.push(PointResult {
            label: p.label.clone(),
            game: def.name,
            settings,
            layout: p.layout.clone(),
            acc: p.acc.clone(),
        });
    }
    let mut files: Vec<SettingFile> = Vec::new();
    for f in state.points.iter().flat_map(|p| &p.files) {
        if !files.contains(f) {
            files.push(f.clone());
        }
    }
    let manifest = Manifest {
        warsim_version: state.warsim_version.clone(),
        git_commit: Manifest::git_commit(),
        build: state.build.clone(),
        command_line: state.command_line.clone(),
        scenario: state.scenario.clone(),
        seed: state.seed,
        games: state.games,
        shards: state.shard.to_string(),
        threads: state.threads,
        start_time,
        end_time: Manifest::now(),
        points: state.points.iter().map(|p| p.label.clone()).collect(),
        scenario_text: state.scenario_text.clone(),
        until: state.until.clone(),
        partial,
        point_games: if partial || state.until.is_some() {
            state.points.iter().map(|p| p.done).collect()
        } else {
            Vec::new()
        },
        files,
        outputs: Vec::new(),
        checksum: String::new(),
    };
    Ok(RunResult { points, manifest, timings: Vec::new() })
}

/// Plays every compared point once, game by game against its baseline, and returns the comparison
/// rows with every point's statistics (identical to a normal pass over the same games).
fn paired_pass(
    points: &[ScenarioPoint],
    plan: &Comparisons,
    seed: u64,
    games: u64,
    pool: &rayon::ThreadPool,
    quiet: bool,
) -> anyhow::Result<(Vec<report::compare::Comparison>, Vec<crate::stats::Accumulator>)> {
    let engines: Vec<&dyn games::Point> = points.iter().map(|p| &*p.engine).collect();
    let progress = Progress::new(games * points.len() as u64, quiet);
    progress.message("paired comparison".into());
    let tick = |n: u64| progress.add(n);
    let chunk = chunk_for(&engines, seed);
    let stop = signal::stop_flag();
    let result = pool.install(|| play_paired(&engines, &plan.pairs, seed, 0, games, chunk, stop, &tick));
    progress.finish();
    let Some(result) = result else {
        return Err(Interrupted(
            "stopped during the paired comparison: comparisons.csv was not written (the run's other files \
             are complete; `warsim compare DIR --baseline ...` makes it later)"
                .into(),
        )
        .into());
    };
    Ok((report::compare::rows(&plan.compared(points), &result.sums), result.accumulators))
}

/// `warsim compare DIR --baseline B`: replays the run's games in pairs and writes comparisons.csv;
/// over all of the run's games it also redraws the plots and report.html with the comparisons.
fn compare(plan: ComparePlan) -> anyhow::Result<()> {
    let _lock = Lock::take(&plan.dir)?;
    signal::install();
    let pool = worker_pool(plan.threads)?;
    let seed = plan.manifest.seed;
    let (rows, accs) = paired_pass(&plan.points, &plan.baseline, seed, plan.games, &pool, plan.quiet)?;
    let mut text = String::new();
    if plan.games == plan.manifest.games {
        let points = plan
            .points
            .iter()
            .zip(accs)
            .map(|(p, acc)| PointResult {
                label: p.label.clone(),
                game: p.game.name,
                settings: p.settings.clone(),
                layout: p.engine.layout().clone(),
                acc,
            })
            .collect();
        // The comparisons are this program's: the manifest names its build beside the run's.
        let build = crate::provenance::combined(&plan.manifest.build, crate::provenance::fingerprint());
        let manifest = Manifest { build, ..plan.manifest.clone() };
        let result = RunResult { points, manifest, timings: Vec::new() };
        report::write_visuals(&plan.dir, &result, &rows)?;
        text.push_str(&format!("comparisons.csv, plots and report.html written in {}\n", plan.dir.display()));
    } else {
        crate::io::write_atomic(&plan.dir.join("comparisons.csv"), |w| report::compare::write_csv(&rows, w))?;
        text.push_str(&format!(
            "comparisons.csv written in {} (first {} of the run's {} games)\n",
            plan.dir.display(),
            plan.games,
            plan.manifest.games
        ));
    }
    print_out(&(report::terminal::render_comparisons(&rows) + &text))
}

fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let state = crate::sim::merge::merge_states(&args.dirs, &args.out, args.allow_other_build)?;
    crate::outdir::check_writable(&args.out)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let _lock = Lock::take(&args.out)?;
    crate::outdir::clear_earlier_run(&args.out);
    let result = run_result(&state, Manifest::now(), false)?;
    report::write_all(&args.out, &result)?;
    report::write_visuals(&args.out, &result, &[])?;
    state.save(&args.out)?;
    if args.quiet {
        return Ok(());
    }
    let mut text = report::terminal::render(&result);
    text.push_str(&format!(
        "merged {} shard{} into {}\n",
        args.dirs.len(),
        if args.dirs.len() == 1 { "" } else { "s" },
        args.out.display()
    ));
    print_out(&text)
}

fn play(plan: PlayPlan) -> anyhow::Result<()> {
    let seed = GameSeed::new(plan.seed, plan.game_index);
    let mut text = format!("{} — seed {}, game {}\n", plan.point.label, plan.seed, plan.game_index);
    match plan.game_of_event {
        Some((a, b)) => text.push_str(&plan.point.engine.story_game(seed, a, b).map_err(UsageError)?),
        None => text.push_str(&plan.point.engine.narrate(seed)),
    }
    print_out(&text)
}

/// `warsim cards FILE`: a Card Wars card set checked as a run checks it, then spelled back.
fn cards(file: &std::path::Path, csv: bool) -> anyhow::Result<()> {
    let name = file.display().to_string();
    let text =
        std::fs::read_to_string(file).map_err(|e| UsageError(format!("cannot read card set {name}: {e}")))?;
    let set = games::slots::cardfile::parse(&name, &text).map_err(UsageError)?;
    print_out(&games::slots::spell::report(&set, csv))
}

fn list(game: Option<&str>) -> anyhow::Result<()> {
    let text = match game {
        Some(name) => games::describe(crate::scenario::find_game(name)?),
        None => {
            let mut s = String::from("games (warsim list GAME for settings and variants):\n");
            for g in games::registry() {
                s.push_str(&format!("  {:<12} {}\n", g.name, g.title));
            }
            s
        }
    };
    print_out(&text)
}
