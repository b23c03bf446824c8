//! The commands: each turns its validated plan into work and output.

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, ComparePlan, PlayPlan, RunPlan};
use crate::error::UsageError;
use crate::games;
use crate::report::{self, Manifest, PointResult, RunResult};
use crate::seed::GameSeed;
use crate::sim::progress::Progress;

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

fn run(plan: RunPlan, command_line: Vec<String>) -> anyhow::Result<()> {
    let start_time = Manifest::now();
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .context("cannot start worker threads")?;
    let progress = Progress::new(plan.games * plan.points.len() as u64, plan.quiet);
    let mut points = Vec::with_capacity(plan.points.len());
    for p in &plan.points {
        progress.message(p.label.clone());
        let tick = |n: u64| progress.add(n);
        let acc = pool.install(|| p.engine.play_range(plan.seed, 0, plan.games, &tick));
        points.push(PointResult {
            label: p.label.clone(),
            game: p.game.name,
            settings: p.settings.clone(),
            layout: p.engine.layout().clone(),
            acc,
        });
    }
    progress.finish();
    let elapsed = started.elapsed().as_secs_f64();
    let manifest = Manifest {
        warsim_version: env!("CARGO_PKG_VERSION").into(),
        git_commit: Manifest::git_commit(),
        command_line,
        scenario: plan.name.clone(),
        seed: plan.seed,
        games: plan.games,
        shards: "1/1".into(),
        threads: plan.threads,
        start_time,
        end_time: Manifest::now(),
        points: plan.points.iter().map(|p| p.label.clone()).collect(),
        scenario_text: plan.scenario_text.clone(),
    };
    let result = RunResult { points, manifest };
    report::write_all(&plan.out, &result)?;
    // Paired comparisons (issue 7): one more pass when a baseline is named; then plots and report.
    let comparisons = match &plan.baseline {
        Some(spec) => paired_pass(&plan.points, spec, plan.seed, plan.games, &pool, plan.quiet)?.0,
        None => Vec::new(),
    };
    report::write_visuals(&plan.out, &result, &comparisons)?;
    let total = plan.games * plan.points.len() as u64;
    let mut text = report::terminal::render(&result);
    text.push_str(&report::terminal::render_comparisons(&comparisons));
    text.push_str(&format!(
        "{total} games in {elapsed:.2} s ({:.0} games/s on {} threads); files in {}\n",
        total as f64 / elapsed.max(1e-9),
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
