//! The commands: each turns its validated plan (`plan`) into work (`sim`) and output (`report`).
//! The one place that knows all three: it builds the report's inputs from the driver's state.

mod balance;

use std::io::Write;
use std::time::Instant;

use anyhow::Context;
use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, MergeArgs};
use crate::error::UsageError;
use crate::games;
use crate::outdir::{Lock, Staging, Welcome};
use crate::plan::{ComparePlan, Comparisons, PlayPlan, RunPlan, TunePlan};
use crate::report::{self, Manifest, PointResult, RunResult};
use crate::scenario::ScenarioPoint;
use crate::seed::GameSeed;
use crate::settings::{SettingFile, Settings};
use crate::sim::checkpoint::RunState;
use crate::sim::driver::Drive;
use crate::sim::paired::{EffectPlan, chunk_for, play_paired_with};
use crate::sim::progress::Progress;
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
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Bare `warsim`: the usage, then the one line that says what is missing.
            let _ = write!(std::io::stderr(), "{}", Cli::command().render_help());
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
        Command::Tune(args) => tune(TunePlan::from_args(&args, command_line)?),
        Command::Balance(args) => balance::balance(crate::plan::BalancePlan::from_args(&args, command_line)?),
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

/// `warsim tune`: races the candidates (`sim::tune`) and writes what they showed (`report::tune`).
/// A refused tune removes the folders it made (`outdir::remove_made`), as a refused run does.
fn tune(plan: TunePlan) -> anyhow::Result<()> {
    let made = crate::outdir::missing_ancestors(&plan.out);
    let done = tune_in(&plan);
    if done.as_ref().is_err_and(|e| e.downcast_ref::<Interrupted>().is_none()) {
        crate::outdir::remove_made(&made);
    }
    done
}

fn tune_in(plan: &TunePlan) -> anyhow::Result<()> {
    use crate::sim::tune::{self as race_play, Place, TuneState};
    let start_time = Manifest::now();
    crate::sim::hooks::Hooks::get()?;
    let pool = worker_pool(plan.threads)?;
    std::fs::create_dir_all(&plan.out).with_context(|| format!("cannot create {}", plan.out.display()))?;
    // A shard writes only its own file, so shards of one look may share the folder.
    let lock = if plan.shard.is_none() { Some(Lock::take(&plan.out)?) } else { None };
    if let Some(lock) = &lock {
        crate::outdir::remove_stale_temporaries(&plan.out, lock);
    }
    let place = Place { dir: &plan.out, plan: &plan.identity };
    // Shards and their merge go on from the saved state, if any; so does a resume.
    let go_on = plan.resume || plan.shard.is_some() || plan.merge_shards.is_some();
    let saved = std::fs::symlink_metadata(plan.out.join(race_play::FILE)).is_ok();
    let mut state = if go_on && saved {
        let (saved_plan, saved) = TuneState::load(&plan.out)?;
        if let Some(why) = saved_plan.difference(&plan.identity) {
            return Err(usage!(
                "cannot go on from the tune saved in {}: it is another tune: {why} (start it again without --resume, or choose another --out)",
                plan.out.display()
            ));
        }
        if let Some(why) = saved.shape_error(plan.candidates.len(), plan.rules.requires.len()) {
            return Err(usage!(
                "{} is damaged: {why}; it cannot be used",
                plan.out.join(race_play::FILE).display()
            ));
        }
        saved
    } else {
        if let Some(lock) = &lock {
            match crate::outdir::earlier_manifest(&plan.out) {
                // An earlier tune's files: replaced, as a run replaces a run's.
                Some(m) if report::tune::is_tune_manifest(&m) => {
                    crate::outdir::clear_earlier_run(&plan.out, lock)
                }
                // A run's (allowed by --force): left alone, as files warsim did not write.
                Some(_) => {
                    let _ = std::fs::remove_file(plan.out.join(report::manifest::FILE));
                }
                None => {}
            }
        }
        let digest = plan.identity.digest();
        if plan.bisect {
            TuneState::bisecting(digest, &plan.measures)
        } else {
            TuneState::new(digest, &plan.measures)
        }
    };
    let write = |state: &TuneState| -> anyhow::Result<report::tune::TuneResult> {
        let result = tune_result(plan, state);
        let lock = lock.as_ref().expect("a tune that writes its files holds the folder's lock");
        write_staged(&plan.out, lock, |dir| {
            let written = report::tune::write_all(dir, &result)?;
            let manifest = tune_manifest(plan, state, start_time.clone(), written);
            crate::io::write_atomic(&dir.join(report::manifest::FILE), |w| {
                report::manifest::write(&manifest, w)
            })?;
            Ok(())
        })?;
        Ok(result)
    };
    if let Some(n) = plan.merge_shards {
        return merge_tune_shards(plan, state, n, &write);
    }
    signal::install();
    let engines: Vec<&dyn games::Point> = plan.candidates.iter().map(|c| &*c.engine).collect();
    let progress = Progress::new(plan.cap.saturating_mul(engines.len() as u64), "games", plan.quiet);
    progress.message("tune".into());
    let tick = |n: u64| progress.add(n);
    let started = Instant::now();
    if let Some(shard) = plan.shard {
        if state.stop.is_some() {
            return print_out("the tune is finished: nothing left to play\n");
        }
        let part = pool.install(|| {
            race_play::play_shard(
                &state,
                &engines,
                &plan.measures,
                plan.seed,
                (plan.observation, plan.cap),
                (shard.k, shard.n),
                signal::stop_flag(),
                &tick,
            )
        });
        progress.finish();
        let Some(part) = part else {
            return Err(Interrupted(format!("shard {}/{} stopped; run it again", shard.k, shard.n)).into());
        };
        let file = part.save(&place)?;
        return print_out(&format!(
            "shard {}/{} of the look from {} games per candidate: {} in {}\n",
            shard.k,
            shard.n,
            report::format::grouped(state.games as i128),
            file,
            plan.out.display()
        ));
    }
    let finished = pool.install(|| {
        race_play::drive(
            &mut state,
            &plan.rules,
            &engines,
            &plan.measures,
            plan.seed,
            plan.observation,
            plan.cap,
            &place,
            signal::stop_flag(),
            &tick,
        )
    })?;
    progress.finish();
    let result = write(&state)?;
    if !finished {
        return Err(Interrupted(format!(
            "tune stopped after {} games per candidate; continue with the same command and --resume",
            report::format::grouped(state.games as i128)
        ))
        .into());
    }
    // A sweep of every candidate to the games the answer took reaches the same precision.
    let sweep = state.games.saturating_mul(plan.candidates.len() as u64);
    print_out(&format!(
        "{}\n{} in {:.2} s ({}; a sweep of every setting to the answer's {} games would play {}); files in {}\n",
        result.answer,
        report::format::count(result.games_played, "game"),
        started.elapsed().as_secs_f64(),
        if plan.bisect {
            format!("bisection over {}", plan.keys.join(" "))
        } else {
            format!("a race of {} settings", plan.candidates.len())
        },
        report::format::grouped(state.games as i128),
        report::format::grouped(sweep as i128),
        plan.out.display()
    ))
}

/// The manifest of a tune's folder: what made its files, and the files (`tune.csv`, the plot and
/// the page) with their sizes and hashes, so a later command replaces only what it vouches for.
fn tune_manifest(
    plan: &TunePlan,
    state: &crate::sim::tune::TuneState,
    start_time: String,
    written: Vec<report::WrittenFile>,
) -> Manifest {
    let mut files: Vec<SettingFile> = Vec::new();
    for f in plan.candidates.iter().flat_map(|c| &c.settings.files) {
        if !files.contains(f) {
            files.push(f.clone());
        }
    }
    Manifest {
        warsim_version: env!("CARGO_PKG_VERSION").into(),
        git_commit: Manifest::git_commit(),
        build: plan.identity.build.clone(),
        command_line: plan.command_line.clone(),
        scenario: plan.name.clone(),
        seed: plan.seed,
        games: plan.cap,
        shards: "1/1".into(),
        threads: plan.threads,
        start_time,
        end_time: Manifest::now(),
        points: plan.candidates.iter().map(|c| c.label.clone()).collect(),
        scenario_text: plan.scenario_text.clone(),
        until: None,
        question: Some(plan.goal.clone()),
        until_intervals: Vec::new(),
        partial: state.stop.is_none(),
        point_games: Vec::new(),
        files,
        written,
        outputs: vec![report::tune::PLOT.into()],
        checksum: String::new(),
    }
}

/// `tune --merge-shards N`: the next look from its N shard files, decided and saved, and the files
/// written; the shard files are removed once the state holds them. Each shard file must be of this
/// tune (its plan) and of this look.
fn merge_tune_shards(
    plan: &TunePlan,
    mut state: crate::sim::tune::TuneState,
    n: u64,
    write: &dyn Fn(&crate::sim::tune::TuneState) -> anyhow::Result<report::tune::TuneResult>,
) -> anyhow::Result<()> {
    use crate::sim::tune::{self as race_play, Place, ShardPart};
    if state.stop.is_some() {
        return print_out("the tune is finished: nothing left to merge\n");
    }
    let mut parts = Vec::new();
    for k in 1..=n {
        let (part_plan, part) = ShardPart::load(&plan.out, k, n)?;
        if let Some(why) = part_plan.difference(&plan.identity) {
            return Err(usage!(
                "{} is a shard of another tune: {why}",
                plan.out.join(race_play::shard_file(k, n)).display()
            ));
        }
        parts.push(part);
    }
    race_play::merge_shards(&mut state, &parts, &plan.rules, (plan.observation, plan.cap))
        .map_err(|e| usage!("{e}"))?;
    state.save(&Place { dir: &plan.out, plan: &plan.identity })?;
    for k in 1..=n {
        std::fs::remove_file(plan.out.join(race_play::shard_file(k, n)))?;
    }
    let result = write(&state)?;
    if state.stop.is_none() {
        return print_out(&format!(
            "look merged at {} games per candidate; not settled yet: run the {n} shards of the next look and merge again\n",
            report::format::grouped(state.games as i128)
        ));
    }
    print_out(&format!(
        "{}\n{}; files in {}\n",
        result.answer,
        report::format::count(result.games_played, "game"),
        plan.out.display()
    ))
}

/// The files' view of a race: every candidate's interval, difference to the best and fate, and the
/// answer sentence.
fn tune_result(plan: &TunePlan, state: &crate::sim::tune::TuneState) -> report::tune::TuneResult {
    use crate::stats::race::{self, Drop, Stop};
    use report::tune::{CandidateRow, measured};
    let look = state.look();
    let rules = &plan.rules;
    let best = race::best(rules, &look, &state.live);
    let name = |k: usize| {
        plan.keys
            .iter()
            .zip(&plan.values[k])
            .map(|(key, v)| format!("{key}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // What to do to get candidate k, in the game's words where its settings say (`give the second
    // player 4 extra starting life`).
    let action = |k: usize| {
        let steps: Vec<String> = (plan.keys.iter().zip(&plan.values[k]).zip(&plan.helps))
            .map(|((key, v), help)| report::tune::action(key, v, *help))
            .collect();
        steps.join(" and ")
    };
    let share = plan.share;
    let goal_value = match rules.target {
        race::Target::Equal(x) | race::Target::AtLeast(x) | race::Target::AtMost(x) => x,
    };
    // The goal and the tolerance in the goal's units: a share in percent, its tolerance in points.
    let goal_words = match rules.target {
        race::Target::Equal(_) => report::tune::value(goal_value, share),
        race::Target::AtLeast(_) => format!("at least {}", report::tune::value(goal_value, share)),
        race::Target::AtMost(_) => format!("at most {}", report::tune::value(goal_value, share)),
    };
    let within_words = rules.within.map(|t| report::tune::tolerance(t, share));
    let within = within_words.clone().unwrap_or_default();
    let assumed: &[usize] = state.bisect.as_ref().map_or(&[], |b| &b.assumed);
    let mut rows = Vec::new();
    for k in 0..plan.candidates.len() {
        let dropped = state.dropped.iter().find(|d| d.candidate == k);
        let games = state.played[k];
        let probed = state.bisect.as_ref().and_then(|b| b.probes.iter().find(|p| p.candidate == k));
        let why = match dropped.map(|d| &d.why) {
            None if assumed.contains(&k) => {
                "bisection: meets the goal beyond a setting shown to meet it".into()
            }
            None => String::new(),
            Some(Drop::FartherPaired { best }) => {
                format!("farther from the goal than {} (paired)", name(*best))
            }
            Some(Drop::Farther { best }) => format!("farther from the goal than {}", name(*best)),
            Some(Drop::OutsideWithin) => format!("wholly outside the goal {goal_words} {within}"),
            Some(Drop::MissesGoal) => format!("misses the goal ({goal_words})"),
            Some(Drop::BreaksRequirement(r)) => {
                format!(
                    "breaks the requirement {}",
                    plan.identity.requires.get(*r).map_or("", String::as_str)
                )
            }
            Some(Drop::Beyond) => match probed.and_then(|p| p.finding) {
                Some(side) => format!("bisection: {} the goal, beyond the crossing", side.word()),
                None if games > 0 => "bisection: beyond the crossing".into(),
                None => "bisection: beyond the crossing, excluded by the one-way assumption".into(),
            },
        };
        let played = games > 0;
        let kept = dropped.and_then(|d| d.to_best).map(|[estimate, low, high]| crate::stats::Interval {
            estimate,
            low,
            high,
            method: crate::stats::Method::Sequence,
            units: state.race[k].n,
        });
        let to_best = kept.or_else(|| {
            best.filter(|&b| played && b != k && state.race[k].n > 1 && state.race[k].n == state.race[b].n)
                .map(|b| look.paired(rules, b, k))
        });
        rows.push(CandidateRow {
            values: plan.values[k].clone(),
            games: if played { games } else { 0 },
            interval: played.then(|| look.interval(rules, k)),
            to_best,
            status: if assumed.contains(&k) {
                "assumed"
            } else if !played {
                "not played"
            } else if dropped.is_some() {
                "dropped"
            } else if Some(k) == best {
                "best"
            } else {
                "live"
            },
            dropped_at: dropped.filter(|_| played).map(|d| d.games),
            why,
        });
    }
    let of = if plan.of_decided {
        " of decided games"
    } else if share {
        " of all games"
    } else {
        ""
    };
    let metric_words = report::tune::metric_subject(&plan.metric, plan.of_decided, share);
    let live_list =
        |f: &dyn Fn(usize) -> String| state.live.iter().map(|&k| f(k)).collect::<Vec<_>>().join("; ");
    let said = |k: usize| {
        format!(
            "{}: {} {}{of}",
            action(k),
            report::tune::metric_then(&plan.metric),
            measured(rows[k].interval.as_ref(), share)
        )
    };
    let excluded = || {
        let mut gone: Vec<usize> =
            state.dropped.iter().filter(|d| d.why != Drop::Beyond).map(|d| d.candidate).collect();
        gone.sort_unstable();
        let out: Vec<String> = gone.iter().map(|&k| plan.values[k].join("/")).collect();
        let played = if out.is_empty() { String::new() } else { format!("; {} excluded at 95%", runs(&out)) };
        let beyond = if state.dropped.iter().any(|d| d.why == Drop::Beyond) {
            format!(
                " (the others by bisection, {metric_words} assumed to move one way with {})",
                plan.keys.join(" ")
            )
        } else {
            String::new()
        };
        format!("{played}{beyond}")
    };
    let answer = match state.stop {
        Some(Stop::OneLeft) => format!("{}{}", said(state.live[0]), excluded()),
        Some(Stop::AllWithin) => {
            format!("{}: within {within} of the goal {goal_words} at 95%{}", live_list(&said), excluded())
        }
        Some(Stop::AllMeet) => {
            let beyond = if assumed.is_empty() {
                String::new()
            } else {
                let mut a = assumed.to_vec();
                a.sort_unstable();
                let values: Vec<String> = a.iter().map(|&k| plan.values[k].join("/")).collect();
                format!("; and {} by bisection (beyond a setting shown to meet it)", runs(&values))
            };
            format!(
                "settings that keep {metric_words} {goal_words} at 95%: {}{beyond}{}",
                live_list(&said),
                excluded()
            )
        }
        Some(Stop::NoneLeft) => match within_words {
            Some(_) => format!(
                "no setting in the range brings {metric_words} within {within} of the goal {goal_words}, at 95%{}",
                excluded()
            ),
            None => format!("no setting in the range keeps {metric_words} {goal_words} at 95%"),
        },
        Some(Stop::Cap) | None => format!(
            "not settled after {} games per setting: still in the race {}{}",
            report::format::grouped(state.games as i128),
            live_list(&said),
            excluded()
        ),
    };
    report::tune::TuneResult {
        keys: plan.keys.clone(),
        metric: plan.metric.clone(),
        metric_words,
        share,
        goal: plan.goal.clone(),
        goal_value: Some(goal_value),
        within: rules.within,
        stop: match state.stop {
            Some(Stop::OneLeft) => "one setting was left, the others excluded".into(),
            Some(Stop::AllWithin) => format!("every setting left was within {within} of the goal"),
            Some(Stop::AllMeet) => "every setting left met the goal".into(),
            Some(Stop::NoneLeft) => "no setting was left".into(),
            Some(Stop::Cap) => format!(
                "it reached the cap of {} games per setting (--games) before it settled",
                report::format::grouped(plan.cap as i128)
            ),
            None => "it was interrupted or is not finished (--resume goes on)".into(),
        },
        goal_words,
        within_words: rules.within.map(|t| report::tune::tolerance(t, share)),
        answer,
        method: format!(
            "{}_{}",
            if state.bets.first().is_some_and(|t| t.bounded()) {
                "betting_confidence_sequence"
            } else {
                "confidence_sequence_normal_mixture"
            },
            rules.describe()
        ),
        candidates: rows,
        games_played: state.games_played(),
    }
}

/// Values joined by commas, runs of three or more consecutive whole numbers written `LO-HI`.
fn runs(values: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let start = values[i].parse::<i64>();
        let mut j = i;
        while let (Ok(a), Some(Ok(b))) = (&start, values.get(j + 1).map(|v| v.parse::<i64>())) {
            if b != a + (j + 1 - i) as i64 {
                break;
            }
            j += 1;
        }
        out.push(if j >= i + 2 { format!("{}-{}", values[i], values[j]) } else { values[i].clone() });
        if j < i + 2 {
            j = i;
        }
        i = j + 1;
    }
    out.join(", ")
}

/// Writes to stdout, control characters of outside text escaped (`untrusted`); a closed pipe
/// (`warsim list | head`) is not an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(crate::untrusted::escape(text).as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to stdout"),
    }
}

fn run(plan: RunPlan, command_line: Vec<String>) -> anyhow::Result<()> {
    let start_time = Manifest::now();
    let started = Instant::now();
    crate::sim::hooks::Hooks::get()?;
    let pool = worker_pool(plan.threads)?;
    let (mut state, lock) = prepare_state(&plan, command_line)?;
    for note in &plan.notes {
        let _ = writeln!(std::io::stderr(), "{note}");
    }
    signal::install();
    let to_play: u64 = state.points.iter().filter(|p| !p.complete).map(|p| p.end - p.first - p.done).sum();
    let engines: Vec<&dyn games::Point> = plan.points.iter().map(|p| &*p.engine).collect();
    let (unit, units) = run_unit(&engines);
    let progress = Progress::new(to_play, units, plan.quiet);
    let drive = Drive {
        points: plan.points.iter().map(|p| &*p.engine).collect(),
        seed: plan.seed,
        until: plan.until.as_ref(),
        threads: plan.threads,
        out: &plan.out,
    };
    // A finished point is never lost: its files are written at once, marked partial until the end.
    let partial = |st: &RunState, dir: &std::path::Path| -> anyhow::Result<()> {
        report::write_all(dir, &run_result(st, start_time.clone(), true)?).map(drop)
    };
    let mut write_partial = |st: &RunState| write_staged(&plan.out, &lock, |dir| partial(st, dir));
    let driven = drive.run(&mut state, &pool, &progress, &mut write_partial)?;
    progress.finish();
    if driven.interrupted {
        write_staged(&plan.out, &lock, |dir| partial(&state, dir))?;
        return Err(Interrupted(stopped_message(&state, &driven, &plan.out)).into());
    }
    let mut result = RunResult { timings: driven.timings, ..run_result(&state, start_time, false)? };
    result.manifest.question = plan.question.clone();
    let engines: Vec<&dyn games::Point> = plan.points.iter().map(|p| &*p.engine).collect();
    write_staged(&plan.out, &lock, |dir| {
        // games.csv first, so the manifest written after it vouches for it too.
        result.manifest.written = write_game_rows(dir, &result, &state, &engines)?.into_iter().collect();
        result.manifest.written = report::write_all(dir, &result)?;
        crate::sim::hooks::signal_at("run-final");
        Ok(())
    })?;
    // One paired pass serves both the comparisons with a baseline and the sweep's effects.
    let comparisons = if plan.baseline.is_some() || !plan.effects.is_empty() {
        let none = Comparisons::none();
        let baseline = plan.baseline.as_ref().unwrap_or(&none);
        let (rows, _, effects) =
            paired_pass(&plan.points, baseline, &plan.effects, plan.seed, plan.games, &pool, plan.quiet)?;
        result.effects = effects;
        rows
    } else {
        Vec::new()
    };
    // The paired pass plays every point's games again: the closing line counts both passes.
    let replayed = if plan.baseline.is_some() { plan.games * plan.points.len() as u64 } else { 0 };
    write_staged(&plan.out, &lock, |dir| report::write_visuals(dir, &result, &comparisons).map(drop))?;
    let elapsed = started.elapsed().as_secs_f64();
    let mut text = report::terminal::render_event_answer(&result, &comparisons)
        .unwrap_or_else(|| report::terminal::render_answers(&result));
    text.push_str(&report::terminal::render(&result));
    text.push_str(&report::terminal::render_comparisons(&report::event_answer::shown(&result, &comparisons)));
    text.push_str(&until_lines(&plan, &state));
    let played = driven.played + replayed;
    let rate = played as f64 / elapsed.max(1e-9);
    let passes = if replayed > 0 {
        format!(
            "{} played, then {} again for the paired comparison; ",
            report::format::grouped(driven.played as i128),
            report::format::grouped(replayed as i128)
        )
    } else {
        String::new()
    };
    text.push_str(&report::terminal::fit_lines(&format!(
        "{}{} in {elapsed:.2} s ({passes}{} {units}/s on {}); files in {}\n",
        match played {
            1 => format!("1 {unit}"),
            n => format!("{} {units}", report::format::grouped(n as i128)),
        },
        games_each(&result),
        report::format::grouped(rate.round() as i128),
        report::format::count(plan.threads as u64, "thread"),
        plan.out.display()
    )));
    print_out(&text)
}

/// What a run's points count, singular and plural: games, tournaments (an event is one unit of
/// the run, `crate::tournament`), or both in a run that mixes them.
fn run_unit(engines: &[&dyn games::Point]) -> (&'static str, &'static str) {
    let tournaments = engines.iter().filter(|e| e.unit() == "tournament").count();
    match tournaments {
        0 => ("game", "games"),
        t if t == engines.len() => ("tournament", "tournaments"),
        _ => ("game or tournament", "games and tournaments"),
    }
}

/// ` of N games each` when every point of `result` is a tournament of the same number of games
/// (its event counter `games` over its events), else nothing.
fn games_each(result: &RunResult) -> String {
    let each = |p: &report::PointResult| {
        let games =
            p.layout.counter("games").filter(|_| p.layout.unit() == "tournament" && p.acc.games > 0)?;
        Some(p.acc.counters[games.0 as usize].total / p.acc.games as u128)
    };
    let first = result.points.first().and_then(each);
    match first {
        Some(g) if result.points.iter().all(|p| each(p) == Some(g)) => format!(" of {g} games each"),
        _ => String::new(),
    }
}

/// `games.csv` when the run asks for `--game-rows N`: the games among each point's first N that
/// this process's share played, replayed (a merged or unsharded run holds all N).
fn write_game_rows(
    out: &std::path::Path,
    result: &RunResult,
    state: &RunState,
    engines: &[&dyn games::Point],
) -> anyhow::Result<Option<report::WrittenFile>> {
    if state.game_rows == 0 {
        return Ok(None);
    }
    let mut played: Vec<report::games_csv::PlayedGames> = Vec::new();
    for (p, engine) in state.points.iter().zip(engines) {
        let end = (p.first + p.done).min(state.game_rows);
        let mut games = Vec::new();
        if p.first < end {
            engine.play_each(state.seed, p.first, end - p.first, &mut |i, rec| games.push((i, rec.clone())));
        }
        played.push(games);
    }
    let w = crate::io::write_atomic(&out.join(report::games_csv::FILE), |w| {
        let mut escaping = crate::untrusted::Escaping::new(w);
        report::games_csv::write(result, &played, &mut escaping)?;
        Ok(escaping.flush()?)
    })?;
    Ok(Some(report::WrittenFile::new(report::games_csv::FILE, w)))
}

/// The engines of a saved state's points, built again from their settings (a merge replays the
/// games `games.csv` lists).
fn rebuilt_engines(state: &RunState) -> anyhow::Result<Vec<Box<dyn games::Point>>> {
    if state.game_rows == 0 {
        return Ok(Vec::new());
    }
    let mut engines = Vec::new();
    for p in &state.points {
        let (def, settings) = restore_point(p)?;
        engines.push((def.build)(&settings).map_err(|e| anyhow::anyhow!("{}: {e}", p.label))?);
    }
    Ok(engines)
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

/// What `--until` stopped on: the confidence sequence of each point (up to a few), and a warning
/// for the points the cap stopped first.
fn until_lines(plan: &RunPlan, state: &RunState) -> String {
    use report::format::{count, grouped};
    let Some(until) = &plan.until else { return String::new() };
    let mut text = String::new();
    const SHOWN: usize = 5;
    for p in state.points.iter().take(SHOWN) {
        let i = until.interval(&p.layout, &p.acc);
        let digits = if i.half_width() < 0.01 { 5 } else { 2 };
        let label = if state.points.len() > 1 { format!("'{}' ", p.label) } else { String::new() };
        text.push_str(&format!(
            "--until {until}: {label}stopped after {} on {} {} [{}, {}] (95% confidence sequence: valid at every look)\n",
            count(p.done, "game"),
            until.metric,
            report::format::fixed(i.estimate, digits),
            report::format::fixed(i.low, digits),
            report::format::fixed(i.high, digits),
        ));
    }
    if state.points.len() > SHOWN {
        text.push_str(&format!(
            "--until: the other {} stopping intervals are in summary.csv (until_low, until_high)\n",
            count((state.points.len() - SHOWN) as u64, "point")
        ));
    }
    let short: Vec<(f64, &str)> = state
        .points
        .iter()
        .filter(|p| !until.met(&p.layout, &p.acc))
        .map(|p| (until.interval(&p.layout, &p.acc).half_width(), p.label.as_str()))
        .collect();
    let Some(&(widest, label)) = short.iter().max_by(|a, b| a.0.total_cmp(&b.0)) else {
        return text;
    };
    text.push_str(&format!(
        "warning: --until {until} not reached for {} of {} within the cap of {} games (widest ±{widest:.3} for '{label}'): raise --games or loosen the target\n",
        short.len(),
        count(state.points.len() as u64, "point"),
        grouped(plan.games as i128)
    ));
    text
}

/// Writes files into a staging folder inside `out`, then moves them in (`outdir::Staging`).
fn write_staged(
    out: &std::path::Path,
    lock: &Lock,
    write: impl FnOnce(&std::path::Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let staging = Staging::new(out, lock)?;
    write(staging.path())?;
    staging.commit()
}

/// A saved point's game and its settings, as the run that saved it validated them.
fn restore_point(
    p: &crate::sim::checkpoint::PointState,
) -> anyhow::Result<(&'static games::GameDef, Settings)> {
    let def = games::find(&p.game)
        .with_context(|| format!("the saved state names an unknown game '{}'", p.game))?;
    let settings =
        Settings::restore(def.name, def.settings, !def.presets.is_empty(), &p.variant, &p.settings, &p.files)
            .map_err(anyhow::Error::msg)?;
    Ok((def, settings))
}

fn worker_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    // The error is the cause itself (an `io::Error`, also given as its source): say it once.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start {threads} worker threads: {e}"))
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
    let fresh = RunState { game_rows: plan.game_rows, ..fresh };
    std::fs::create_dir_all(&plan.out).with_context(|| format!("cannot create {}", plan.out.display()))?;
    let lock = Lock::take(&plan.out)?;
    crate::outdir::remove_stale_temporaries(&plan.out, &lock);
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
        let build = crate::provenance::combined(&saved.build, &fresh.build);
        RunState { threads: fresh.threads, command_line: fresh.command_line, build, ..saved }
    } else {
        crate::outdir::clear_earlier_run(&plan.out, &lock);
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
        let (def, settings) = restore_point(p)?;
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
        until_intervals: until_intervals(state),
        question: None,
        partial,
        point_games: if partial || state.until.is_some() {
            state.points.iter().map(|p| p.done).collect()
        } else {
            Vec::new()
        },
        files,
        written: Vec::new(),
        outputs: Vec::new(),
        checksum: String::new(),
    };
    Ok(RunResult { points, manifest, timings: Vec::new(), effects: Vec::new() })
}

/// The interval each point's `--until` rule stopped on (empty without `--until`).
fn until_intervals(state: &RunState) -> Vec<report::manifest::UntilInterval> {
    let Some(until) = state.until.as_deref().and_then(|raw| Until::parse(raw).ok()) else {
        return Vec::new();
    };
    state
        .points
        .iter()
        .filter(|p| p.complete || p.done > 0)
        .map(|p| {
            let i = until.interval(&p.layout, &p.acc);
            report::manifest::UntilInterval {
                metric: until.metric.clone(),
                method: crate::sim::until::METHOD.to_string(),
                games: p.done,
                estimate: i.estimate,
                low: i.low,
                high: i.high,
                met: until.met(&p.layout, &p.acc),
            }
        })
        .collect()
}

/// Plays every compared point once, game by game against its baseline, and returns the comparison
/// rows with every point's statistics (identical to a normal pass over the same games).
#[allow(clippy::type_complexity)]
fn paired_pass(
    points: &[ScenarioPoint],
    plan: &Comparisons,
    effects: &[(String, EffectPlan)],
    seed: u64,
    games: u64,
    pool: &rayon::ThreadPool,
    quiet: bool,
) -> anyhow::Result<(
    Vec<report::compare::Comparison>,
    Vec<crate::stats::Accumulator>,
    Vec<report::effects::Measured>,
)> {
    let engines: Vec<&dyn games::Point> = points.iter().map(|p| &*p.engine).collect();
    let progress = Progress::new(games * points.len() as u64, "games", quiet);
    progress
        .message(if plan.pairs.is_empty() { "effects of the settings" } else { "paired comparison" }.into());
    let tick = |n: u64| progress.add(n);
    let chunk = chunk_for(&engines, seed);
    let stop = signal::stop_flag();
    let plans: Vec<EffectPlan> = effects.iter().map(|(_, p)| p.clone()).collect();
    let result =
        pool.install(|| play_paired_with(&engines, &plan.pairs, &plans, seed, 0, games, chunk, stop, &tick));
    progress.finish();
    let Some(result) = result else {
        return Err(Interrupted(
            "stopped during the paired comparison: comparisons.csv was not written (the run's other files \
             are complete; `warsim compare DIR --baseline ...` makes it later)"
                .into(),
        )
        .into());
    };
    let measured = effects
        .iter()
        .zip(result.effects)
        .map(|((metric, _), sums)| report::effects::Measured { metric: metric.clone(), sums })
        .collect();
    Ok((report::compare::rows(&plan.compared(points), &result.sums), result.accumulators, measured))
}

/// `warsim compare DIR --baseline B`: replays the run's games in pairs and writes comparisons.csv;
/// over all of the run's games it also redraws the plots and report.html with the comparisons.
fn compare(plan: ComparePlan) -> anyhow::Result<()> {
    crate::outdir::check_output(&plan.dir, Welcome::Continuing)?;
    let lock = Lock::take(&plan.dir)?;
    crate::outdir::remove_stale_temporaries(&plan.dir, &lock);
    signal::install();
    let pool = worker_pool(plan.threads)?;
    let seed = plan.manifest.seed;
    let (rows, accs, _) =
        paired_pass(&plan.points, &plan.baseline, &[], seed, plan.games, &pool, plan.quiet)?;
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
        let result = RunResult { points, manifest, timings: Vec::new(), effects: Vec::new() };
        report::write_visuals(&plan.dir, &result, &rows)?;
        text.push_str(&format!("comparisons.csv, plots and report.html written in {}\n", plan.dir.display()));
    } else {
        let result = RunResult {
            points: Vec::new(),
            manifest: plan.manifest.clone(),
            timings: Vec::new(),
            effects: Vec::new(),
        };
        write_staged(&plan.dir, &lock, |dir| report::write_comparisons_only(dir, &result, &rows).map(drop))?;
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
    let welcome = if args.force { Welcome::Anything } else { Welcome::OwnOnly };
    crate::outdir::check_output(&args.out, welcome)?;
    let engines = rebuilt_engines(&state)?;
    let engines: Vec<&dyn games::Point> = engines.iter().map(|e| &**e).collect();
    signal::install();
    let existed = args.out.exists();
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let merged = write_merged(&state, &args.out, &engines);
    if merged.is_err() && !existed {
        // Nothing was moved in: the folder this merge made is empty again.
        let _ = std::fs::remove_dir(&args.out);
    }
    let result = merged?;
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
    // The shards left out the scenario's baseline (they cannot pair games): say how to add it.
    let baseline =
        state.scenario_text.as_deref().and_then(|t| crate::scenario::parse(t, "", "", None).ok()?.baseline);
    if let Some(spec) = baseline {
        text.push_str(&format!(
            "the scenario's comparisons: warsim compare {} --baseline {spec}\n",
            args.out.display()
        ));
    }
    print_out(&text)
}

/// Writes the merged run's files into a staging folder in `out` and moves them in, unless a signal
/// came first: then `out` is left as it was.
fn write_merged(
    state: &RunState,
    out: &std::path::Path,
    engines: &[&dyn games::Point],
) -> anyhow::Result<RunResult> {
    let lock = Lock::take(out)?;
    crate::outdir::remove_stale_temporaries(out, &lock);
    let staging = Staging::new(out, &lock)?;
    let mut result = run_result(state, Manifest::now(), false)?;
    // games.csv first, so the manifest written after it vouches for it too.
    result.manifest.written = write_game_rows(staging.path(), &result, state, engines)?.into_iter().collect();
    result.manifest.written = report::write_all(staging.path(), &result)?;
    result.manifest.written = report::write_visuals(staging.path(), &result, &[])?;
    state.save(staging.path())?;
    crate::sim::hooks::signal_at("merge-staged");
    if signal::stop_requested() {
        return Err(Interrupted(format!(
            "merge stopped before it wrote anything: {} is as it was",
            out.display()
        ))
        .into());
    }
    staging.commit()?;
    Ok(result)
}

fn play(plan: PlayPlan) -> anyhow::Result<()> {
    let seed = GameSeed::new(plan.seed, plan.game_index);
    let unit = plan.point.engine.unit();
    let mut text = format!("{} — seed {}, {unit} {}\n", plan.point.label, plan.seed, plan.game_index);
    match plan.game_of_event {
        Some((a, b)) => text.push_str(&plan.point.engine.story_game(seed, a, b).map_err(UsageError)?),
        None => text.push_str(&plan.point.engine.narrate(seed)),
    }
    print_out(&text)
}

/// `warsim cards FILE`: a Card Wars card set checked as a run checks it, then spelled back.
fn cards(file: &std::path::Path, csv: bool) -> anyhow::Result<()> {
    let name = file.display().to_string();
    if !file.exists() {
        let shipped =
            crate::suggest::toml_files(&std::path::Path::new(crate::suggest::SCENARIOS).join("cards"));
        let guess = crate::suggest::nearest_file(file, &crate::suggest::files_near(file, &shipped))
            .map_or(String::new(), |(f, _)| format!("; did you mean '{}'?", f.display()));
        return Err(usage!("card set '{name}' does not exist{guess} (card sets: docs/cards.md)"));
    }
    let text = crate::io::read_input(file, crate::io::CARD_FILE_LIMIT, "card set")?;
    print_out(&(games::card_files().report)(&name, &text, csv).map_err(UsageError)?)
}

/// `warsim list`: the games and scenario files; `list GAME`: its settings; `list FILE`: its points.
fn list(target: Option<&str>) -> anyhow::Result<()> {
    let text = match target {
        Some(name) if games::find(name).is_some() => {
            games::describe(crate::scenario::find_game(name)?) + &list_metrics(name)?
        }
        Some(file) => list_points(file)?,
        None => {
            let mut s = String::from("games (warsim list GAME for settings and variants):\n");
            for g in games::registry() {
                s.push_str(&format!("  {:<12} {}\n", g.name, g.title));
            }
            // The settings a rules designer balances with (their help starts "balance"), for tune.
            s.push_str("balance knobs (warsim tune GAME --vary KEY=LO..HI):\n");
            for g in games::registry() {
                let knobs: Vec<&str> =
                    g.settings.iter().filter(|k| k.help.starts_with("balance")).map(|k| k.key).collect();
                if !knobs.is_empty() {
                    s.push_str(&format!("  {:<12} {}\n", g.name, knobs.join(", ")));
                }
            }
            let files = crate::suggest::shipped_scenarios();
            if !files.is_empty() {
                s.push_str("scenario files (warsim list FILE for their points):\n");
                for f in files {
                    s.push_str(&format!("  {}\n", f.display()));
                }
            }
            s
        }
    };
    print_out(&text)
}

/// The metrics of a game at its defaults, as `--until`, a question and `tune --goal` name them.
fn list_metrics(game: &str) -> anyhow::Result<String> {
    use crate::stats::metric;
    let points = crate::scenario::expand(&crate::scenario::for_game(game), &[])?;
    let Some(layout) = points.first().map(|p| p.engine.layout()) else { return Ok(String::new()) };
    let mut names = metric::common_names(&[layout]);
    names.extend(metric::share_names(layout));
    let text = format!("{}; events: {}", metric::allowed(&names, 0), layout.events().join(", "));
    let text = text.replace(" for the events `warsim list GAME` names", "");
    let wrapped = report::terminal::wrap(&text, report::terminal::width().min(100) - 2).replace('\n', "\n  ");
    Ok(format!(
        "\nmetrics at the defaults (--until METRIC:HALFWIDTH, a scenario's question, tune --goal):\n  {}\n",
        wrapped.trim_end()
    ))
}

/// Every point of a scenario file with the index `play --point-index` takes.
fn list_points(file: &str) -> anyhow::Result<String> {
    let req = crate::scenario::load_target(file)?;
    let points = crate::scenario::expand(&req, &[])?;
    let mut s = format!(
        "{}: {} (warsim play {file} --point-index K tells game 0 of point K)\n",
        req.name,
        report::format::count(points.len() as u64, "point")
    );
    let width = (points.len().max(1) - 1).to_string().len();
    for (i, p) in points.iter().enumerate() {
        s.push_str(&format!("  {i:>width$}  {}\n", p.label));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_of_whole_numbers_are_written_as_ranges() {
        let v = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(super::runs(&v("1 2 3 5 7 8 10 11 12 13")), "1-3, 5, 7, 8, 10-13");
        assert_eq!(super::runs(&v("a b c")), "a, b, c");
        assert_eq!(super::runs(&v("4")), "4");
    }
}
