//! `warsim balance`: the plan (`plan::BalancePlan`) played by the balancer (`sim::balance`) and
//! written by its report (`report::balance`). The state is saved after every step into
//! `balance-state.json`, so `--resume` goes on after Ctrl-C.

use std::time::Instant;

use anyhow::Context;

use super::{print_out, worker_pool, write_staged};
use crate::outdir::Lock;
use crate::plan::BalancePlan;
use crate::report::balance::{BalanceResult, ChangeRow, DesignRow};
use crate::report::manifest::{Manifest, WrittenFile};
use crate::settings::SettingFile;
use crate::sim::balance::{self, Config, Knobs, Progress};
use crate::sim::progress::Progress as Bar;
use crate::sim::signal::{self, Interrupted};
use crate::usage;

/// The state file of a balance.
pub const FILE: &str = "balance-state.json";

#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    plan: String,
    progress: Progress,
}

pub fn balance(plan: BalancePlan) -> anyhow::Result<()> {
    let made = crate::outdir::missing_ancestors(&plan.out);
    let done = balance_in(&plan);
    if done.as_ref().is_err_and(|e| e.downcast_ref::<Interrupted>().is_none()) {
        crate::outdir::remove_made(&made);
    }
    done
}

fn balance_in(plan: &BalancePlan) -> anyhow::Result<()> {
    crate::sim::hooks::Hooks::get()?;
    let pool = worker_pool(plan.threads)?;
    std::fs::create_dir_all(&plan.out).with_context(|| format!("cannot create {}", plan.out.display()))?;
    let lock = Lock::take(&plan.out)?;
    crate::outdir::remove_stale_temporaries(&plan.out, &lock);
    let identity = plan.identity();
    let path = plan.out.join(FILE);
    let mut progress = if plan.resume && path.exists() {
        let text = crate::io::read_text_no_follow(&path, 1 << 30)
            .map_err(|e| usage!("cannot read {}: {e}", path.display()))?;
        let saved: Saved = serde_json::from_str(&text)
            .map_err(|e| usage!("{} is damaged ({e}); start again without --resume", path.display()))?;
        if saved.plan != identity {
            return Err(usage!(
                "cannot go on from the balance saved in {}: it is another balance (card set, settings, --within, --games, --seed or --knobs differ); start it again without --resume, or choose another --out",
                plan.out.display()
            ));
        }
        saved.progress
    } else {
        Progress::default()
    };
    let cfg = Config { events: plan.events, cap: plan.events, within: plan.within, seed: plan.seed };
    let build = |text: &str, only: Option<usize>| -> anyhow::Result<Box<dyn crate::games::Point>> {
        Ok(plan.point(text, only)?)
    };
    let list = |text: &str| -> anyhow::Result<Vec<crate::games::SheetKnob>> {
        Ok((plan.balancing.sheet)(&plan.file, text, plan.values).map_err(anyhow::Error::msg)?.knobs)
    };
    let edit = |text: &str, edits: &[(usize, i64)]| -> anyhow::Result<(String, Vec<bool>)> {
        (plan.balancing.edit)(&plan.file, text, plan.values, edits).map_err(anyhow::Error::msg)
    };
    let groups = |text: &str| -> anyhow::Result<Vec<u32>> {
        let sheet = (plan.balancing.sheet)(&plan.file, text, plan.values).map_err(anyhow::Error::msg)?;
        Ok(crate::plan::BalancePlan::groups_of(&sheet))
    };
    let knobs = Knobs { list: &list, edit: &edit, groups: &groups };
    let save = |p: &Progress| -> anyhow::Result<()> {
        let saved = Saved { plan: identity.clone(), progress: p.clone() };
        crate::io::write_atomic(&path, |w| Ok(serde_json::to_writer(w, &saved)?))?;
        // For warsim's tests: a Ctrl-C exactly after the first step is saved (`sim::hooks`).
        crate::sim::hooks::signal_at("balance-step");
        Ok(())
    };
    let start_time = Manifest::now();
    signal::install();
    let bar = Bar::new(plan.events, "tournaments", plan.quiet);
    let tick = |n: u64| bar.add(n);
    // Each step restarts the bar with what it is and the most it plays: a race ends as soon as
    // it can, so its bar may stop short of the end.
    let step = |s: balance::Step, most: u64| {
        let name = |d: usize| plan.sheet.designs.get(d).map_or(String::new(), |x| x.name.clone());
        let what = match s {
            balance::Step::Measure { pass } => {
                format!("pass {} of at most {}: measuring every design", pass + 1, balance::MAX_PASSES)
            }
            balance::Step::Race { pass, design, nth, flagged, second } => format!(
                "pass {}: {} race for {} ({} of {flagged} flagged)",
                pass + 1,
                if second { "second" } else { "first" },
                name(design),
                nth + 1
            ),
            balance::Step::Swap { pass, design, value } => {
                format!("pass {}: {} printed as a {value}, exchanged", pass + 1, name(design))
            }
            balance::Step::Proof { edited: false } => "proof on fresh seeds: the set as given".into(),
            balance::Step::Proof { edited: true } => "proof on fresh seeds: the set as edited".into(),
        };
        bar.restart(most, what);
    };
    let show = balance::Show { tick: &tick, step: &step };
    // A resumed balance's clock starts now: the time said is this run's, for this run's share.
    let played_before = progress.tournaments();
    let started = Instant::now();
    let finished = pool.install(|| {
        balance::run(&plan.text, &mut progress, &cfg, &build, &knobs, &save, &show, signal::stop_flag())
    })?;
    bar.finish();
    if !finished {
        let n = progress.passes.len();
        let at = match progress.passes.last() {
            Some(p) if !p.done => format!("in pass {n}"),
            Some(_) if progress.ended.is_some() => "in its proof".into(),
            _ => format!("after {}", passes(n)),
        };
        return Err(Interrupted(format!(
            "balance stopped {at}; continue with the same command and --resume"
        ))
        .into());
    }
    let result = result(plan, &progress, started.elapsed().as_secs_f64());
    write_staged(&plan.out, &lock, |dir| {
        let written = crate::report::balance::write_all(dir, &result, &progress.text)?;
        let manifest = manifest(plan, start_time, written);
        crate::io::write_atomic(&dir.join(crate::report::manifest::FILE), |w| {
            crate::report::manifest::write(&manifest, w)
        })?;
        Ok(())
    })?;
    let (before, after) = result.flagged();
    let grouped = |n: u64| crate::report::format::grouped(n as i128);
    let played = match played_before {
        0 => format!("{} tournaments in {:.0} s", grouped(result.tournaments_played), result.seconds),
        _ => format!(
            "{} tournaments, {} of them in this run's {:.0} s (resumed)",
            grouped(result.tournaments_played),
            grouped(result.tournaments_played - played_before),
            result.seconds
        ),
    };
    print_out(&crate::report::terminal::wrapped(&format!(
        "{}\nflagged {before} -> {after}; {} ({}); {played}; files in {}\n",
        result.answer(),
        passes(result.passes),
        result.ended,
        plan.out.display()
    )))
}

/// "1 pass", "3 passes".
fn passes(n: usize) -> String {
    if n == 1 { "1 pass".into() } else { format!("{n} passes") }
}

/// The manifest of a balance's folder: what made its files (the card set's text included, so the
/// balance can be made again) and the files with their sizes and hashes, so a later command
/// replaces only what it vouches for.
fn manifest(plan: &BalancePlan, start_time: String, written: Vec<WrittenFile>) -> Manifest {
    Manifest {
        warsim_version: env!("CARGO_PKG_VERSION").into(),
        git_commit: Manifest::git_commit(),
        build: crate::provenance::fingerprint().into(),
        command_line: plan.command_line.clone(),
        scenario: plan.file.clone(),
        seed: plan.seed,
        games: plan.events,
        shards: "1/1".into(),
        threads: plan.threads,
        start_time,
        end_time: Manifest::now(),
        points: Vec::new(),
        scenario_text: None,
        until: None,
        question: None,
        until_intervals: Vec::new(),
        partial: false,
        point_games: Vec::new(),
        files: vec![SettingFile::new("cards", &plan.file, plan.text.clone())],
        written,
        outputs: Vec::new(),
        checksum: String::new(),
    }
}

/// One row per number printed differently: a knob turned in several passes (-3 to -1, then -1
/// to -2) is one change from its printed number to its last (-3 to -2), of the last pass that
/// turned it, its text said as that pass left it; a knob turned back to its printed number is no
/// change.
fn printed_changes(made: &[balance::Made]) -> Vec<ChangeRow> {
    let mut rows: Vec<ChangeRow> = Vec::new();
    for m in made {
        let status = if m.text_said { "edited" } else { "edited_text_not_rewritten" };
        match rows.iter_mut().find(|r| r.design == m.design && r.field == m.knob) {
            Some(r) => (r.new, r.status, r.pass) = (Some(m.new), status, m.pass),
            None => rows.push(ChangeRow {
                design: m.design,
                field: m.knob.clone(),
                old: Some(m.old),
                new: Some(m.new),
                status,
                pass: m.pass,
                closest: None,
            }),
        }
    }
    rows.retain(|r| r.old != r.new);
    rows
}

/// The report's rows from the balance's progress.
fn result(plan: &BalancePlan, p: &Progress, seconds: f64) -> BalanceResult {
    let (before, after) = (p.before.as_ref().expect("a proof"), p.after.as_ref().expect("a proof"));
    let edited = (plan.balancing.sheet)(&plan.file, &p.text, plan.values).ok();
    let at = |m: &balance::Measure, d: usize| {
        m.interval[d].map(|(l, u)| (m.estimate[d], l, u)).filter(|x| x.0.is_finite())
    };
    let designs = plan
        .sheet
        .designs
        .iter()
        .enumerate()
        .map(|(d, x)| DesignRow {
            id: x.id.clone(),
            name: x.name.clone(),
            designer: x.designer.clone(),
            rarity: x.rarity.to_string(),
            value: x.value,
            text_before: x.text.clone(),
            text_after: edited.as_ref().map_or(x.text.clone(), |s| s.designs[d].text.clone()),
            before: at(before, d),
            after: at(after, d),
            reference_before: before.reference[d],
            reference_after: after.reference[d],
            verdict_before: before.verdict[d],
            verdict_after: after.verdict[d],
        })
        .collect();
    let mut changes = printed_changes(&p.made);
    // A design is a redesign when the last pass that raced left it unsettled: no race chose (and
    // none found it in its band as it stands), or it had nothing to turn.
    let last =
        p.passes.iter().enumerate().rev().find(|(_, x)| !x.searches.is_empty() || !x.no_knobs.is_empty());
    if let Some((index, pass)) = last {
        let knobs =
            (plan.balancing.sheet)(&plan.file, &pass.text, plan.values).map(|s| s.knobs).unwrap_or_default();
        for (d, race) in balance::unsettled(pass, &knobs) {
            let closest = race.map_or_else(
                || "no number to turn".to_string(),
                |s| {
                    let (k, v, e, (l, u)) = s.closest;
                    let setting = |k: usize, v: i64| format!("{} {} -> {v}", knobs[k].name, knobs[k].value);
                    let settings: Vec<String> =
                        s.base.iter().map(|&(k, v)| setting(k, v)).chain(k.map(|k| setting(k, v))).collect();
                    if settings.is_empty() {
                        format!("as printed: {e:+.3} [{l:+.3}, {u:+.3}]")
                    } else {
                        format!("{}: {e:+.3} [{l:+.3}, {u:+.3}]", settings.join(" and "))
                    }
                },
            );
            changes.push(ChangeRow {
                design: d,
                field: String::new(),
                old: None,
                new: None,
                status: "needs_redesign",
                pass: race.map_or(index, |s| s.pass),
                closest: Some(closest),
            });
        }
    }
    BalanceResult {
        set_name: std::path::Path::new(&plan.file)
            .file_name()
            .map_or(plan.file.clone(), |n| n.to_string_lossy().into_owned()),
        designs,
        changes,
        passes: p.passes.len(),
        ended: p.ended.clone().unwrap_or_default(),
        events: plan.events,
        within: plan.within,
        settings: if plan.sets.is_empty() { "the rules text's".into() } else { plan.sets.join(" ") },
        tournaments_played: p.tournaments(),
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(design: usize, knob: &str, old: i64, new: i64, pass: usize, text_said: bool) -> balance::Made {
        balance::Made { design, knob: knob.into(), old, new, pass, text_said }
    }

    #[test]
    fn a_number_turned_in_several_passes_is_one_change_from_its_printed_number_to_its_last() {
        let rows = printed_changes(&[
            made(16, "ability 1 amount", -3, -1, 0, true),
            made(4, "ability 1 amount", 2, 1, 0, true),
            made(7, "ability 2 to", 3, 5, 0, true),
            made(16, "ability 1 amount", -1, -2, 1, false),
            made(7, "ability 2 to", 5, 3, 2, true),
        ]);
        let seen: Vec<_> = rows.iter().map(|r| (r.design, r.old, r.new, r.pass, r.status)).collect();
        // Design 7's number came back to its printed 3: no change.
        assert_eq!(
            seen,
            [(16, Some(-3), Some(-2), 1, "edited_text_not_rewritten"), (4, Some(2), Some(1), 0, "edited")]
        );
    }
}
