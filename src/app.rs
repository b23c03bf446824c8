//! The commands: each turns its validated plan into work and output.

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, ComparePlan, MergeArgs, PlayPlan, RunPlan};
use crate::error::UsageError;
use crate::games;
use crate::report::{self, Manifest, PointResult, RunResult};
use crate::seed::GameSeed;
use crate::sim::checkpoint::RunState;
use crate::sim::progress::Progress;
use crate::sim::runner::{self, CHUNK};
use crate::sim::signal::{self, Interrupted};
use crate::sim::until::Until;
use crate::usage;

/// Runs warsim with these arguments (the first is the program name).
pub fn main(args: Vec<std::ffi::OsString>) -> anyhow::Result<()> {
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            print_out(&e.to_string())?;
            return Ok(());
        }
        Err(e) => {
            let first = e
                .to_string()
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ")
                .to_string();
            return Err(UsageError(format!("{first} (see 'warsim --help')")).into());
        }
    };
    let command_line: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    match cli.command {
        Command::Run(args) => run(RunPlan::from_args(&args)?, command_line),
        Command::Play(args) => play(PlayPlan::from_args(&args)?),
        Command::List { game } => list(game.as_deref()),
        Command::Compare(args) => compare(ComparePlan::from_args(&args)?),
        Command::Merge(args) => merge(args),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "warsim", &mut std::io::stdout());
            Ok(())
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

/// A block of games should take about this long (the time a SIGKILL may lose).
const BLOCK_SECONDS: f64 = 2.0;

fn run(plan: RunPlan, command_line: Vec<String>) -> anyhow::Result<()> {
    let start_time = Manifest::now();
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("cannot start worker threads")?;
    // The manifest records how to reproduce the files: the same command without `--resume`.
    let recorded: Vec<String> = command_line.into_iter().filter(|a| a != "--resume").collect();
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
    let mut state = if plan.resume {
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
        remove_stale_temporaries(&plan.out);
        RunState { threads: fresh.threads, command_line: fresh.command_line, ..saved }
    } else {
        std::fs::create_dir_all(&plan.out)
            .with_context(|| format!("cannot create {}", plan.out.display()))?;
        fresh
    };
    state.save(&plan.out)?;
    signal::install();

    let to_play: u64 = state.points.iter().filter(|p| !p.complete).map(|p| p.end - p.first - p.done).sum();
    let progress = Progress::new(to_play, plan.quiet);
    let tick = |n: u64| progress.add(n);
    // Blocks start at a few chunks per thread and double while they take under BLOCK_SECONDS:
    // short enough to checkpoint often (a SIGKILL loses at most one block), long enough that the
    // wait for the block's last chunk and the checkpoint cost nothing measurable. Block sizes never
    // change results: statistics merge exactly, and `--until` tests at fixed game counts.
    let mut block = (2 * plan.threads as u64).max(4) * CHUNK;
    let max_block = 256 * plan.threads as u64 * CHUNK;
    let mut played = 0u64;
    for i in 0..state.points.len() {
        if state.points[i].complete {
            continue;
        }
        progress.message(state.points[i].label.clone());
        let engine = &*plan.points[i].engine;
        loop {
            let p = &state.points[i];
            let total = p.end - p.first;
            if p.done >= total {
                break;
            }
            if let Some(u) = &plan.until
                && Until::is_test_point(p.done)
                && u.met(&p.layout, &p.acc)
            {
                break;
            }
            let target = if plan.until.is_some() { Until::next_test_point(p.done).min(total) } else { total };
            while state.points[i].done < target {
                let p = &mut state.points[i];
                let count = block.min(target - p.done);
                let (acc, n) = if signal::stop_requested() {
                    (None, 0)
                } else {
                    let first = p.first + p.done;
                    let block_started = Instant::now();
                    let (acc, n) = pool.install(|| {
                        runner::play_block(engine, plan.seed, first, count, signal::stop_flag(), &tick)
                    });
                    if n == count && count == block && block_started.elapsed().as_secs_f64() < BLOCK_SECONDS {
                        block = (block * 2).min(max_block);
                    }
                    (Some(acc), n)
                };
                if let Some(acc) = acc {
                    p.acc.merge(&acc);
                }
                p.done += n;
                played += n;
                state.save(&plan.out)?;
                if n < count {
                    progress.finish();
                    report::write_all(&plan.out, &state.result(start_time, true)?)?;
                    let done: Vec<String> = state.points.iter().map(|p| p.done.to_string()).collect();
                    return Err(Interrupted(format!(
                        "stopped after {played} more games; games per point so far: {}; files in {} are \
                         partial; continue with the same command and --resume",
                        done.join(", "),
                        plan.out.display()
                    ))
                    .into());
                }
            }
        }
        state.points[i].complete = true;
        state.save(&plan.out)?;
        if !state.complete() {
            // A finished point is never lost: write it now, marked partial until the run ends.
            report::write_all(&plan.out, &state.result(start_time.clone(), true)?)?;
        }
    }
    progress.finish();
    let elapsed = started.elapsed().as_secs_f64();
    let result = state.result(start_time, false)?;
    report::write_all(&plan.out, &result)?;
    // Paired comparisons (issue 7): one more pass when a baseline is named; then plots and report.
    let comparisons = match &plan.baseline {
        Some(spec) => paired_pass(&plan.points, spec, plan.seed, plan.games, &pool, plan.quiet)?.0,
        None => Vec::new(),
    };
    report::write_visuals(&plan.out, &result, &comparisons)?;
    let mut text = report::terminal::render(&result);
    text.push_str(&report::terminal::render_comparisons(&comparisons));
    text.push_str(&format!(
        "{played} games in {elapsed:.2} s ({:.0} games/s on {} threads); files in {}\n",
        played as f64 / elapsed.max(1e-9),
        plan.threads,
        plan.out.display()
    ));
    print_out(&text)
}

/// Plays every point once, game by game against its baseline (`report::compare`).
fn paired_pass(
    points: &[crate::scenario::ScenarioPoint],
    spec: &str,
    seed: u64,
    games: u64,
    pool: &rayon::ThreadPool,
    quiet: bool,
) -> anyhow::Result<(Vec<report::compare::Comparison>, Vec<crate::stats::Accumulator>)> {
    let compared: Vec<report::compare::ComparedPoint> = points
        .iter()
        .map(|p| report::compare::ComparedPoint {
            label: &p.label,
            settings: &p.settings,
            engine: &*p.engine,
        })
        .collect();
    let progress = Progress::new(games * points.len() as u64, quiet);
    progress.message("paired comparison".into());
    let tick = |n: u64| progress.add(n);
    let (rows, result) =
        pool.install(|| report::compare::compare(&compared, spec, seed, games, &tick)).map_err(UsageError)?;
    progress.finish();
    Ok((rows, result.accumulators))
}

/// `warsim compare DIR --baseline B`: replays the run's games in pairs and writes comparisons.csv;
/// over all of the run's games it also redraws the plots and report.html with the comparisons.
fn compare(plan: ComparePlan) -> anyhow::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("cannot start worker threads")?;
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
        let result = RunResult { points, manifest: plan.manifest.clone() };
        report::write_visuals(&plan.dir, &result, &rows)?;
        text.push_str(&format!("comparisons.csv, plots and report.html written in {}\n", plan.dir.display()));
    } else {
        report::write_atomic(&plan.dir.join("comparisons.csv"), |w| report::compare::write_csv(&rows, w))?;
        text.push_str(&format!(
            "comparisons.csv written in {} (first {} of the run's {} games)\n",
            plan.dir.display(),
            plan.games,
            plan.manifest.games
        ));
    }
    print_out(&(report::terminal::render_comparisons(&rows) + &text))
}

/// A killed run may leave the temporary file of an atomic write behind (never a half-written
/// file under a final name); resuming removes such leftovers.
fn remove_stale_temporaries(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(".warsim-") && name.ends_with(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let state = crate::sim::merge::merge_states(&args.dirs, &args.out)?;
    crate::cli::check_writable(&args.out)?;
    let result = state.result(Manifest::now(), false)?;
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
    text.push_str(&plan.point.engine.narrate(seed));
    print_out(&text)
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
