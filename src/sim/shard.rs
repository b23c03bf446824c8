//! `--shard K/N`: which game indices of each scenario point one process of a cluster run plays.
//!
//! Games are a pure function of (master seed, game index), so any partition of the indices gives
//! the same statistics once merged. We use the simplest one: shard K (counted from 1) plays the
//! contiguous block `floor(G*(K-1)/N) .. floor(G*K/N)` of every point's `G` games, each end moved
//! down to a multiple of the point's deal-group size `n` (`Layout::group_size`) so that a group of
//! games sharing a deal is never split between two shards (the last shard ends at `G`). The blocks
//! of shards 1..N tile `0..G` exactly, differ in size by at most `n` games, and need no
//! coordination.

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::UsageError;

/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 1..=n.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(raw: &str) -> Result<Shard, UsageError> {
        let bad = |why: &str| {
            UsageError(format!("--shard '{raw}': {why} (expected K/N with 1 <= K <= N, e.g. 2/8)"))
        };
        let (k, n) = raw.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let k: u64 = k.trim().parse().map_err(|_| bad("K is not a whole number"))?;
        let n: u64 = n.trim().parse().map_err(|_| bad("N is not a whole number"))?;
        if n == 0 || n > MAX_SHARDS {
            return Err(bad(&format!("N must be from 1 to {MAX_SHARDS}")));
        }
        if k == 0 || k > n {
            return Err(bad("K must be between 1 and N"));
        }
        Ok(Shard { k, n })
    }

    /// The shard of a task of a batch system's array job, from the variables the system sets
    /// (`var` reads one): Slurm (`SLURM_ARRAY_TASK_ID` among `SLURM_ARRAY_TASK_MIN..=MAX`, or with
    /// `SLURM_ARRAY_TASK_COUNT`), a Kubernetes indexed Job (`JOB_COMPLETION_INDEX`, from 0, with
    /// the count in `WARSIM_SHARD_COUNT`, which the Job passes as its `completions`) or an AWS
    /// Batch array job (`AWS_BATCH_JOB_ARRAY_INDEX`, from 0, with `AWS_BATCH_JOB_ARRAY_SIZE` or
    /// `WARSIM_SHARD_COUNT`). Shards count from 1, so index `i` from 0 is shard `i + 1`.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, UsageError> {
        let bad = |why: String| UsageError(format!("--shard-from-env: {why}"));
        let number = |name: &str| -> Result<Option<u64>, UsageError> {
            match var(name) {
                None => Ok(None),
                Some(v) => {
                    v.trim().parse().map(Some).map_err(|_| bad(format!("{name}='{v}' is not a whole number")))
                }
            }
        };
        let systems: Vec<&str> = [
            ("SLURM_ARRAY_TASK_ID", "Slurm"),
            ("JOB_COMPLETION_INDEX", "Kubernetes"),
            ("AWS_BATCH_JOB_ARRAY_INDEX", "AWS Batch"),
        ]
        .iter()
        .filter(|(v, _)| var(v).is_some())
        .map(|(_, system)| *system)
        .collect();
        let (k, n, from) = match systems.as_slice() {
            ["Slurm"] => {
                let id = number("SLURM_ARRAY_TASK_ID")?.unwrap_or(0);
                if number("SLURM_ARRAY_TASK_STEP")?.is_some_and(|s| s != 1) {
                    return Err(bad(
                        "the Slurm array has a step other than 1: give it contiguous indices (--array=1-N)"
                            .into(),
                    ));
                }
                let min = number("SLURM_ARRAY_TASK_MIN")?;
                let count = match (number("SLURM_ARRAY_TASK_COUNT")?, min, number("SLURM_ARRAY_TASK_MAX")?) {
                    (Some(c), Some(lo), Some(hi)) if hi.checked_sub(lo).map(|d| d + 1) != Some(c) => {
                        return Err(bad(format!(
                            "SLURM_ARRAY_TASK_COUNT={c} but MIN..MAX is {lo}..{hi}: the array must be contiguous (--array={lo}-{})",
                            lo + c.saturating_sub(1)
                        )));
                    }
                    (Some(c), _, _) => c,
                    (None, Some(lo), Some(hi)) if hi >= lo => hi - lo + 1,
                    _ => {
                        return Err(bad(
                            "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN/MAX".into(),
                        ));
                    }
                };
                // Without MIN (Slurm always sets it) the array is taken to count from 0.
                let lo = min.unwrap_or(0);
                let k = id.checked_sub(lo).ok_or_else(|| {
                    bad(format!("SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={lo}"))
                })?;
                (k + 1, count, format!("SLURM_ARRAY_TASK_ID={id}"))
            }
            ["Kubernetes"] => {
                let index = number("JOB_COMPLETION_INDEX")?.unwrap_or(0);
                let count = number("WARSIM_SHARD_COUNT")?.ok_or_else(|| {
                    bad("JOB_COMPLETION_INDEX is set but WARSIM_SHARD_COUNT is not: pass the Job's completions as WARSIM_SHARD_COUNT".into())
                })?;
                (index + 1, count, format!("JOB_COMPLETION_INDEX={index}"))
            }
            ["AWS Batch"] => {
                let index = number("AWS_BATCH_JOB_ARRAY_INDEX")?.unwrap_or(0);
                let count = match number("AWS_BATCH_JOB_ARRAY_SIZE")? {
                    Some(c) => c,
                    None => number("WARSIM_SHARD_COUNT")?.ok_or_else(|| {
                        bad("AWS_BATCH_JOB_ARRAY_INDEX is set but neither AWS_BATCH_JOB_ARRAY_SIZE nor WARSIM_SHARD_COUNT: pass the array size in one of them".into())
                    })?,
                };
                (index + 1, count, format!("AWS_BATCH_JOB_ARRAY_INDEX={index}"))
            }
            [] => {
                return Err(bad(
                    "no array job found: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX is set (give --shard K/N instead)".into(),
                ));
            }
            several => {
                return Err(bad(format!(
                    "the variables of several batch systems are set ({}): give --shard K/N",
                    several.join(", ")
                )));
            }
        };
        if n == 0 || n > MAX_SHARDS {
            return Err(bad(format!("{n} tasks: the count must be from 1 to {MAX_SHARDS}")));
        }
        if k > n {
            return Err(bad(format!("{from} makes shard {k}, but there are only {n} tasks")));
        }
        Ok(Shard { k, n })
    }

    /// Whether `k` and `n` are a shard `parse` would accept (for states read from disk).
    pub fn is_valid(self) -> bool {
        (1..=MAX_SHARDS).contains(&self.n) && (1..=self.n).contains(&self.k)
    }

    /// The game indices this shard plays out of `games`, in groups of `group` games.
    pub fn range(self, games: u64, group: u64) -> Range<u64> {
        let group = group.max(1);
        let at = |i: u64| {
            if i == self.n {
                return games;
            }
            let raw = ((games as u128 * i as u128) / self.n as u128) as u64;
            raw - raw % group
        };
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { k: 2, n: 3 });
        for bad in ["3/2", "0/0", "0/3", "x/y", "3", "1/0", "-1/2", "1/100001", "1/18446744073709551615"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    fn env(vars: &[(&str, &str)]) -> Result<Shard, UsageError> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Shard::from_env(|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn array_jobs_give_their_shard() {
        let slurm =
            [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "16")];
        assert_eq!(env(&slurm).unwrap(), Shard { k: 3, n: 16 });
        // An array counted from 0 (--array=0-3): index 0 is shard 1.
        let from_zero =
            [("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(env(&from_zero).unwrap(), Shard { k: 1, n: 4 });
        let counted =
            [("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "4")];
        assert_eq!(env(&counted).unwrap(), Shard { k: 4, n: 4 });
        let k8s = [("JOB_COMPLETION_INDEX", "0"), ("WARSIM_SHARD_COUNT", "8")];
        assert_eq!(env(&k8s).unwrap(), Shard { k: 1, n: 8 });
        let aws = [("AWS_BATCH_JOB_ARRAY_INDEX", "9"), ("AWS_BATCH_JOB_ARRAY_SIZE", "10")];
        assert_eq!(env(&aws).unwrap(), Shard { k: 10, n: 10 });
        let aws_ours = [("AWS_BATCH_JOB_ARRAY_INDEX", "1"), ("WARSIM_SHARD_COUNT", "2")];
        assert_eq!(env(&aws_ours).unwrap(), Shard { k: 2, n: 2 });
    }

    #[test]
    fn missing_or_inconsistent_array_variables_are_named() {
        let said = |vars: &[(&str, &str)], needle: &str| {
            let e = env(vars).unwrap_err().0;
            assert!(e.starts_with("--shard-from-env: ") && e.contains(needle), "{needle} not in: {e}");
        };
        said(&[], "none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX is set");
        said(&[("SLURM_ARRAY_TASK_ID", "2")], "neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN/MAX");
        said(&[("JOB_COMPLETION_INDEX", "2")], "WARSIM_SHARD_COUNT is not");
        said(
            &[("AWS_BATCH_JOB_ARRAY_INDEX", "2")],
            "neither AWS_BATCH_JOB_ARRAY_SIZE nor WARSIM_SHARD_COUNT",
        );
        said(
            &[("JOB_COMPLETION_INDEX", "4"), ("WARSIM_SHARD_COUNT", "4")],
            "JOB_COMPLETION_INDEX=4 makes shard 5, but there are only 4 tasks",
        );
        said(
            &[("JOB_COMPLETION_INDEX", "x"), ("WARSIM_SHARD_COUNT", "4")],
            "JOB_COMPLETION_INDEX='x' is not a whole number",
        );
        said(&[("JOB_COMPLETION_INDEX", "0"), ("WARSIM_SHARD_COUNT", "0")], "from 1 to");
        said(
            &[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "9"),
                ("SLURM_ARRAY_TASK_COUNT", "5"),
            ],
            "must be contiguous",
        );
        said(
            &[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "5"), ("SLURM_ARRAY_TASK_STEP", "2")],
            "step",
        );
        said(
            &[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "4")],
            "below",
        );
        said(
            &[("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "1")],
            "several batch systems are set (Slurm, Kubernetes)",
        );
    }

    #[test]
    fn shards_tile_the_games() {
        for games in [0, 1, 5, 7, 100, 1_000_003] {
            for group in 1..=4 {
                for n in 1..=9 {
                    let mut next = 0;
                    for k in 1..=n {
                        let r = Shard { k, n }.range(games, group);
                        assert_eq!(r.start, next);
                        assert!(r.start.is_multiple_of(group), "a shard starts a deal group");
                        assert!(r.end == games || r.end.is_multiple_of(group), "{r:?} ends inside a group");
                        next = r.end;
                    }
                    assert_eq!(next, games);
                }
            }
        }
        // 10,000 games of 3-player rotations over 3 shards: 3,333 | 3,333 | 3,334 games.
        let ends: Vec<u64> = (1..=3).map(|k| Shard { k, n: 3 }.range(10_000, 3).end).collect();
        assert_eq!(ends, [3_333, 6_666, 10_000]);
    }
}
