//! An output folder: whether warsim may write into it (checked before any game is played), who is
//! writing into it now (a lock, so two runs never mix their files), and which files in it warsim
//! owns (so a new run clears an earlier run's leftovers and never touches anything else).

use std::path::{Path, PathBuf};

use crate::error::UsageError;

/// The lock file: it holds the process id of the warsim writing into the folder.
pub const LOCK_FILE: &str = ".warsim.lock";

/// Files every run may leave at the top of its folder, whatever its manifest lists.
pub const OWNED_FILES: &[&str] = &[
    "summary.csv",
    "outcomes.csv",
    "events.csv",
    "lengths.csv",
    "distributions.csv",
    "agents.csv",
    "comparisons.csv",
    "timings.csv",
    "cards.csv",
    "card_pairs.csv",
    "games.csv",
    "report.html",
    "manifest.json",
    "state.json",
];

/// A scenario name becomes a folder under `results/`: it must be one plain folder name.
pub fn check_name(name: &str) -> Result<(), String> {
    let plain = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(())
    } else {
        Err(format!(
            "scenario name '{name}' is not a plain folder name (use 1 to 100 letters, digits, '-', '_' or '.', \
             not starting with '.'; --out chooses any folder)"
        ))
    }
}

/// Checks that `dir` can be created and written before any game is played. Whatever this check
/// creates is removed again (the folder and any parents it made), so a refused run leaves nothing.
pub fn check_writable(dir: &Path) -> Result<(), UsageError> {
    let bad = |why: String| UsageError(format!("cannot write to output folder {}: {why}", dir.display()));
    if dir.exists() && !dir.is_dir() {
        return Err(bad("it is a file, not a folder".into()));
    }
    let made = missing_ancestors(dir);
    std::fs::create_dir_all(dir).map_err(|e| {
        remove_made(&made);
        bad(e.to_string())
    })?;
    let probe = dir.join(format!(".warsim-probe-{}", std::process::id()));
    let written = std::fs::write(&probe, b"");
    let _ = std::fs::remove_file(&probe);
    remove_made(&made);
    written.map_err(|e| bad(e.to_string()))
}

/// `dir` and those of its ancestors that do not exist yet, deepest first.
fn missing_ancestors(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors().take_while(|d| !d.as_os_str().is_empty() && !d.exists()).map(Path::to_path_buf).collect()
}

fn remove_made(made: &[PathBuf]) {
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
}

/// Exclusive use of an output folder while a command writes into it; released when dropped. A lock
/// left by a process that no longer runs (killed) is taken over.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Takes the lock of `dir` (which must exist), or says which process holds it.
    pub fn take(dir: &Path) -> Result<Lock, UsageError> {
        let path = dir.join(LOCK_FILE);
        for _ in 0..3 {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    use std::io::Write;
                    let _ = writeln!(f, "{}", std::process::id());
                    return Ok(Lock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder =
                        std::fs::read_to_string(&path).ok().and_then(|t| t.trim().parse::<u32>().ok());
                    match holder {
                        Some(pid) if pid != std::process::id() && process_runs(pid) => {
                            return Err(UsageError(format!(
                                "output folder {} is in use by another warsim (process {pid}); wait for it to \
                                 finish or choose another --out",
                                dir.display()
                            )));
                        }
                        // Stale (its process is gone) or half-written: take it over.
                        _ => {
                            let _ = std::fs::remove_file(&path);
                        }
                    }
                }
                Err(e) => {
                    return Err(UsageError(format!("cannot write to output folder {}: {e}", dir.display())));
                }
            }
        }
        Err(UsageError(format!("cannot take the lock of output folder {}", dir.display())))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` still runs (Linux: it has a /proc entry that is not a zombie).
fn process_runs(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name: "Z" is a zombie, already gone.
        Ok(stat) => stat.rsplit_once(')').is_none_or(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => !Path::new("/proc/self").exists(),
    }
}

/// Removes from `dir` what an earlier run wrote there: the files every run owns, and the files its
/// manifest lists as written (plots). Never a file warsim did not write.
pub fn clear_earlier_run(dir: &Path) {
    let listed: Vec<String> = std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<crate::report::Manifest>(&t).ok())
        .map(|m| m.outputs)
        .unwrap_or_default();
    for name in
        OWNED_FILES.iter().map(|s| s.to_string()).chain(listed.into_iter().filter(|n| is_output_name(n)))
    {
        let _ = std::fs::remove_file(dir.join(name));
    }
    let _ = std::fs::remove_dir(dir.join("plots"));
}

/// A name a manifest may list: a file at the top of the folder or in `plots/`, nothing else.
fn is_output_name(name: &str) -> bool {
    let file = name.strip_prefix("plots/").unwrap_or(name);
    !file.is_empty() && !file.starts_with('.') && !file.contains('/') && !file.contains('\\') && file != ".."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_names_are_plain_folder_names() {
        for good in ["war-pickup", "a_b.c", "X1"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "..", ".", "/tmp/x", "../..", "a/b", ".hidden", "a b", &"x".repeat(101)] {
            let e = check_name(bad).unwrap_err();
            assert!(e.contains("not a plain folder name"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_refused_folder_leaves_no_parents_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = tmp.path().join("a/b/c");
        check_writable(&deep).unwrap();
        assert!(!tmp.path().join("a").exists(), "the check removes every folder it made");
        std::fs::write(tmp.path().join("file"), "").unwrap();
        let e = check_writable(&tmp.path().join("file")).unwrap_err();
        assert!(e.0.contains("it is a file"), "{e}");
    }

    #[test]
    fn a_lock_is_exclusive_and_a_stale_one_is_taken_over() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = Lock::take(tmp.path()).unwrap();
        // Another live process holding it (pid 1 always runs) refuses.
        std::fs::write(tmp.path().join(LOCK_FILE), "1\n").unwrap();
        let e = Lock::take(tmp.path()).unwrap_err();
        assert!(e.0.contains("in use by another warsim (process 1)"), "{e}");
        // A process that no longer runs leaves a stale lock.
        std::fs::write(tmp.path().join(LOCK_FILE), format!("{}\n", u32::MAX - 1)).unwrap();
        let again = Lock::take(tmp.path()).unwrap();
        drop(lock);
        drop(again);
        assert!(!tmp.path().join(LOCK_FILE).exists());
    }

    #[test]
    fn clearing_removes_only_what_warsim_wrote() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::create_dir(d.join("plots")).unwrap();
        for f in ["agents.csv", "comparisons.csv", "plots/agents.svg", "plots/mine.svg", "notes.txt"] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        let manifest = r#"{"warsim_version":"0","git_commit":null,"command_line":[],"scenario":"s","seed":1,
            "games":1,"shards":"1/1","threads":1,"start_time":"","end_time":"","points":[],
            "scenario_text":null,"outputs":["plots/agents.svg","../notes.txt"]}"#;
        std::fs::write(d.join("manifest.json"), manifest).unwrap();
        clear_earlier_run(d);
        for gone in ["agents.csv", "comparisons.csv", "plots/agents.svg", "manifest.json"] {
            assert!(!d.join(gone).exists(), "{gone}");
        }
        for kept in ["plots/mine.svg", "notes.txt"] {
            assert!(d.join(kept).exists(), "{kept}");
        }
    }
}
