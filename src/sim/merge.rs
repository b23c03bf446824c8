//! `warsim merge`: combines the saved states of the shards of one run into the state, and so the
//! files, of the unsharded run. Accumulators merge exactly and order-independently, so the merged
//! files are byte for byte those of the single run (the manifest's times aside).
//!
//! Shards of different runs (another warsim version, seed, game count, scenario or settings, or
//! shard count), shards of different builds (unless `--allow-other-build`), unfinished shards,
//! duplicate shards and missing shards are refused: a merge either reproduces the whole run or
//! writes nothing.

use std::path::PathBuf;

use crate::error::UsageError;
use crate::sim::checkpoint::RunState;
use crate::sim::shard::Shard;

/// Merges the states in `dirs`; shards played by different builds of warsim only if
/// `allow_other_build` (the merged state then names every build). `command_line` is the merge's own; the merged manifest reports the
/// command line of the equivalent unsharded run (the first shard's, without `--shard`, with `--out`
/// set to `out`).
pub fn merge_states(
    dirs: &[PathBuf],
    out: &std::path::Path,
    allow_other_build: bool,
) -> Result<RunState, UsageError> {
    let same = |a: &std::path::Path, b: &std::path::Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(input) = dirs.iter().find(|d| same(d, out)) {
        return Err(UsageError(format!(
            "merge --out {} is one of the shard folders it reads ({}): choose a new folder for the merged run",
            out.display(),
            input.display()
        )));
    }
    let mut states: Vec<(PathBuf, RunState)> = Vec::new();
    for dir in dirs {
        states.push((dir.clone(), RunState::load(dir)?));
    }
    let (first_dir, first) =
        states.first().ok_or_else(|| UsageError("merge needs at least one folder".into()))?;
    for (dir, s) in &states {
        if let Some(why) = first.incompatibility(s) {
            return Err(UsageError(format!(
                "cannot merge {} with {}: they are shards of different runs: {why}",
                first_dir.display(),
                dir.display()
            )));
        }
        if let Some(why) = first.build_difference(s).filter(|_| !allow_other_build) {
            return Err(UsageError(format!(
                "cannot merge {} with {}: they were {why}; --allow-other-build merges them anyway",
                first_dir.display(),
                dir.display()
            )));
        }
        if !s.complete() {
            return Err(UsageError(format!(
                "shard {} in {} is unfinished (finish it with the same command and --resume)",
                s.shard,
                dir.display()
            )));
        }
    }
    let n = first.shard.n;
    let mut seen: Vec<Option<&PathBuf>> = vec![None; n as usize];
    for (dir, s) in &states {
        let slot = &mut seen[(s.shard.k - 1) as usize];
        if let Some(other) = slot {
            return Err(UsageError(format!(
                "shard {} is given twice: {} and {}",
                s.shard,
                other.display(),
                dir.display()
            )));
        }
        *slot = Some(dir);
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, d)| d.is_none()).map(|(k, _)| format!("{}/{n}", k + 1)).collect();
    if !missing.is_empty() {
        return Err(UsageError(format!(
            "missing shard{} {} of {n}: a merge needs every shard of the run",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", ")
        )));
    }
    states.sort_by_key(|(_, s)| s.shard.k);
    let mut merged = states[0].1.clone();
    merged.shard = Shard::WHOLE;
    merged.command_line = unsharded_command_line(&merged.command_line, out);
    for p in &mut merged.points {
        p.first = 0;
        p.end = merged.games;
        p.done = merged.games;
    }
    for (_, s) in &states[1..] {
        merged.build = crate::provenance::combined(&merged.build, &s.build);
        for (m, p) in merged.points.iter_mut().zip(&s.points) {
            m.acc.merge(&p.acc);
        }
    }
    Ok(merged)
}

/// `args` without `--shard K/N`, with `--out` set to `out`.
fn unsharded_command_line(args: &[String], out: &std::path::Path) -> Vec<String> {
    let mut result = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--shard" {
            it.next();
        } else if a.starts_with("--shard=") {
        } else if a == "--out" {
            it.next();
            result.push(a.clone());
            result.push(out.display().to_string());
        } else if a.starts_with("--out=") {
            result.push(format!("--out={}", out.display()));
        } else {
            result.push(a.clone());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_loses_the_shard() {
        let args: Vec<String> = ["warsim", "run", "war", "--shard", "2/3", "--out", "s/2", "-q"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            unsharded_command_line(&args, std::path::Path::new("merged")),
            ["warsim", "run", "war", "--out", "merged", "-q"]
        );
    }
}
