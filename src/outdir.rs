//! An output folder: whether warsim may write into it (checked before any game is played), who is
//! writing into it now (an operating-system lock, so two commands never mix their files), and which
//! files in it warsim owns (so a new run clears an earlier run's files and never touches another).
//!
//! Ownership is vouched for by `manifest.json`: it lists every file the command wrote with its size
//! and hash (`Manifest::written`). A file is deleted only if the manifest lists it and it is still
//! exactly what was written; anything else in the folder is the user's, and a folder holding such
//! files is refused unless `--force` (which leaves them alone). Results are first written into a
//! staging folder inside the output folder and then moved in (`Staging`), so an interrupted command
//! leaves every file as it was or as it is meant to be, never half of a set. Nothing inside the
//! folder is ever followed through a symbolic link.

use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::error::UsageError;
use crate::io::{self, Written};
use crate::report::manifest::{self, Manifest, WrittenFile};

/// The lock file: while a command writes into the folder it holds an OS lock (`flock`) on it; its
/// text (host and process id) only names the holder in messages.
pub const LOCK_FILE: &str = ".warsim.lock";

/// The plots' folder inside an output folder.
pub const PLOTS: &str = "plots";

/// The fixed names warsim writes at the top of its folder: each must be a regular file or absent.
pub const OUTPUT_FILES: &[&str] = &[
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
    "designers.csv",
    "standings.csv",
    "games.csv",
    "report.html",
    "manifest.json",
    "state.json",
    "tune.csv",
    "tune-state.json",
];

/// What a command may find in its output folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Welcome {
    /// Only warsim's own files (or none): a new run or merge.
    OwnOnly,
    /// Anything, others' files left alone (`--force`).
    Anything,
    /// The folder of a run being resumed or compared: its own files, whatever else it holds.
    Continuing,
}

/// Checks, before any game is played, that warsim can write all its files into `dir`: the folder
/// can be created and written, no name it writes is a folder, a link or a device, `plots/` is a
/// real folder, and (unless `welcome` says otherwise) it holds no file warsim did not write.
/// Whatever this check creates is removed again, so a refused command leaves nothing.
pub fn check_output(dir: &Path, welcome: Welcome) -> Result<(), UsageError> {
    check_plain(dir)?;
    check_writable(dir)?;
    check_paths(dir)?;
    if welcome == Welcome::OwnOnly {
        let strangers = strangers(dir);
        if !strangers.is_empty() {
            let shown: Vec<String> = strangers.iter().take(5).cloned().collect();
            let more = if strangers.len() > 5 {
                format!(" and {} more", strangers.len() - 5)
            } else {
                String::new()
            };
            return Err(UsageError(format!(
                "output folder {} holds files warsim did not write ({}{more}): choose a new or empty --out, \
                 or give --force to write beside them (they are left alone; a file with the name of one \
                 warsim writes is replaced)",
                dir.display(),
                shown.join(", ")
            )));
        }
    }
    Ok(())
}

/// Refuses a `..` after a folder name (`results/../..`): which folder it means depends on whether
/// the name exists yet (the check would look at one folder and the run write into another), so
/// the user writes the folder meant. Leading `..` (`../out`) is plain.
pub fn check_plain(dir: &Path) -> Result<(), UsageError> {
    use std::path::Component;
    let mut named = false;
    for c in dir.components() {
        match c {
            Component::ParentDir if named => {
                return Err(UsageError(format!(
                    "output folder '{}': a '..' after a folder name is refused (the folder it means depends on what exists yet): write the folder itself{}",
                    dir.display(),
                    lexical(dir).map_or(String::new(), |p| format!(" (e.g. '{}')", p.display()))
                )));
            }
            Component::Normal(_) => named = true,
            _ => {}
        }
    }
    Ok(())
}

/// `dir` with each `name/..` pair taken out, as written (none if nothing is left).
fn lexical(dir: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut parts: Vec<Component> = Vec::new();
    for c in dir.components() {
        match (c, parts.last()) {
            (Component::ParentDir, Some(Component::Normal(_))) => {
                parts.pop();
            }
            (Component::CurDir, _) => {}
            _ => parts.push(c),
        }
    }
    (!parts.is_empty()).then(|| parts.iter().collect())
}

/// Checks that `dir` can be created and written. The probe is a new file created exclusively and
/// never through a link, so a link planted under its name cannot redirect it.
pub fn check_writable(dir: &Path) -> Result<(), UsageError> {
    let bad = |why: String| UsageError(format!("cannot write to output folder {}: {why}", dir.display()));
    // One look, not two: a command started at the same moment may remove the empty folder its own
    // check made between an `exists` and an `is_dir`, which would read as a file.
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(bad("it is a file, not a folder".into()));
    }
    let made = missing_ancestors(dir);
    std::fs::create_dir_all(dir).map_err(|e| {
        remove_made(&made);
        bad(e.to_string())
    })?;
    // A command started at the same moment may remove the folder its own check made (empty, as
    // every check leaves it) while we probe: make it again and probe again.
    let mut remade = 0;
    let written = loop {
        let probe = dir.join(io::temporary_name());
        match io::create_exclusive(&probe) {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
                break Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && remade < 100 => {
                remade += 1;
                if let Err(e) = std::fs::create_dir_all(dir) {
                    break Err(e);
                }
            }
            Err(e) => break Err(e),
        }
    };
    remove_made(&made);
    written.map_err(|e| bad(e.to_string()))
}

/// `dir` and those of its ancestors that do not exist yet, deepest first.
pub fn missing_ancestors(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors().take_while(|d| !d.as_os_str().is_empty() && !d.exists()).map(Path::to_path_buf).collect()
}

/// Removes the folders of `made` (from `missing_ancestors`) that are empty: what a refused command
/// created, and nothing it did not.
pub fn remove_made(made: &[PathBuf]) {
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
}

/// What is at `path`, without following a link, in words; `None` if nothing is.
fn kind(path: &Path) -> Option<&'static str> {
    let m = std::fs::symlink_metadata(path).ok()?;
    let t = m.file_type();
    Some(if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_file() {
        "a file"
    } else {
        "a device, FIFO or socket"
    })
}

/// Checks that the file `name` warsim is about to write in `dir` (a tune's shard file) is free or a
/// regular file, not a folder, a link or a device.
pub fn check_file(dir: &Path, name: &str) -> Result<(), UsageError> {
    let path = dir.join(name);
    match kind(&path) {
        None | Some("a file") => Ok(()),
        Some(what) => Err(UsageError(format!(
            "cannot write to output folder {}: {} is {what}, where warsim writes a file (warsim never follows a \
             link inside its folder; move it away or choose another --out)",
            dir.display(),
            path.display()
        ))),
    }
}

/// Every path warsim writes in `dir` must be free or of the kind it writes.
fn check_paths(dir: &Path) -> Result<(), UsageError> {
    let refuse = |path: &Path, what: &str, wants: &str| {
        Err(UsageError(format!(
            "cannot write to output folder {}: {} is {what}, where warsim writes {wants} (warsim never follows a \
             link inside its folder; move it away or choose another --out)",
            dir.display(),
            path.display()
        )))
    };
    for name in OUTPUT_FILES.iter().chain(&[LOCK_FILE]) {
        let path = dir.join(name);
        match kind(&path) {
            None | Some("a file") => {}
            Some(what) => return refuse(&path, what, "a file"),
        }
    }
    let plots = dir.join(PLOTS);
    match kind(&plots) {
        None => {}
        Some("a folder") => {
            for entry in std::fs::read_dir(&plots).into_iter().flatten().flatten() {
                let path = entry.path();
                match kind(&path) {
                    Some("a file") => {}
                    Some(what) if !io::is_temporary_name(&entry.file_name().to_string_lossy()) => {
                        return refuse(&path, what, "only plot files");
                    }
                    _ => {}
                }
            }
        }
        Some(what) => return refuse(&plots, what, "a folder of plots"),
    }
    Ok(())
}

/// The earlier manifest of `dir`, if it holds a readable warsim manifest.
pub fn earlier_manifest(dir: &Path) -> Option<Manifest> {
    let text = io::read_text_no_follow(&dir.join(manifest::FILE), io::MANIFEST_LIMIT).ok()?;
    // A manifest edited by hand (its checksum no longer matches) vouches for nothing.
    if manifest::check(&text).is_some() {
        return None;
    }
    Manifest::parse(&text).ok()
}

/// Whether `dir/state.json` is a warsim state (its format says so).
fn is_state(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Format {
        format: String,
    }
    io::read_text_no_follow(path, io::STATE_LIMIT)
        .ok()
        .and_then(|t| serde_json::from_str::<Format>(&t).ok())
        .is_some_and(|f| f.format == crate::sim::checkpoint::FORMAT)
}

/// The files in `dir` (and `dir/plots`) warsim cannot vouch for: not listed with their present size
/// and hash by the folder's manifest, and not one of its own bookkeeping files.
pub fn strangers(dir: &Path) -> Vec<String> {
    let manifest = earlier_manifest(dir);
    let vouched = |name: &str| {
        manifest.as_ref().is_some_and(|m| {
            m.written.iter().any(|w| {
                w.file == name && w.size_hash().is_some_and(|x| Some(x) == Written::of_file(&dir.join(name)))
            })
        })
    };
    let mut found = Vec::new();
    let mut look = |sub: &str| {
        let folder = if sub.is_empty() { dir.to_path_buf() } else { dir.join(sub) };
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let shown = if sub.is_empty() { name.clone() } else { format!("{sub}/{name}") };
            let own = io::is_temporary_name(&name)
                || match (sub, name.as_str()) {
                    ("", LOCK_FILE) => true,
                    ("", PLOTS) => kind(&entry.path()) == Some("a folder"),
                    ("", manifest::FILE) => manifest.is_some(),
                    ("", crate::sim::checkpoint::FILE) => is_state(&entry.path()),
                    ("", crate::sim::tune::FILE) => {
                        crate::sim::tune_file::is_sealed(&entry.path(), crate::sim::tune_file::STATE_FORMAT)
                    }
                    ("", n) if crate::sim::tune::is_shard_file(n) => {
                        crate::sim::tune_file::is_sealed(&entry.path(), crate::sim::tune_file::SHARD_FORMAT)
                    }
                    _ => vouched(&shown),
                };
            if !own {
                found.push(shown);
            }
        }
    };
    look("");
    look(PLOTS);
    found.sort();
    found
}

/// Exclusive use of an output folder while a command writes into it: an advisory OS lock (`flock`)
/// on `.warsim.lock`, released by the kernel however the process ends, so a killed command never
/// blocks the next and two commands never both hold it, even in different PID namespaces.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    _file: std::fs::File,
}

impl Lock {
    /// Takes the lock of `dir` (which must exist), or says who holds it.
    pub fn take(dir: &Path) -> Result<Lock, UsageError> {
        let path = dir.join(LOCK_FILE);
        let bad = |e: std::io::Error| {
            UsageError(format!(
                "cannot take the lock of output folder {} ({}): {e}",
                dir.display(),
                path.display()
            ))
        };
        // A command started at the same moment may remove the folder its own output check made
        // (empty, as that check leaves nothing) between our check and this open: make it again.
        let mut remade = 0;
        loop {
            let opened = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path);
            let mut file = match opened {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && remade < 100 => {
                    remade += 1;
                    std::fs::create_dir_all(dir).map_err(bad)?;
                    continue;
                }
                other => other.map_err(bad)?,
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let holder = io::read_text_no_follow(&path, 1024).unwrap_or_default();
                    let holder = holder.trim();
                    let who = if holder.is_empty() { String::new() } else { format!(" ({holder})") };
                    return Err(UsageError(format!(
                        "output folder {} is in use by another warsim{}; wait for it to finish or choose another --out",
                        dir.display(),
                        crate::untrusted::escape(&who)
                    )));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(bad(e)),
            }
            // The holder before us removes the file as it lets go: if the name now leads elsewhere,
            // the lock we hold is on a file nobody else will ever open; take the new one.
            let same = match (file.metadata(), std::fs::symlink_metadata(&path)) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            };
            if !same {
                continue;
            }
            use std::io::Write;
            let _ = file.set_len(0);
            let _ = writeln!(file, "host {} process {}", host_name(), std::process::id());
            return Ok(Lock { path, _file: file });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held (the file is closed after): see `Lock::take`.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// This machine's name, for the lock's message.
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok && end > 0 { String::from_utf8_lossy(&buf[..end]).into_owned() } else { "unknown".into() }
}

/// Removes the temporary files and staging folders a killed command left in `dir` and `dir/plots`.
/// Call only while holding the folder's `Lock`: then no live writer owns any of them.
pub fn remove_stale_temporaries(dir: &Path, _lock: &Lock) {
    for folder in [dir.to_path_buf(), dir.join(PLOTS)] {
        if kind(&folder) != Some("a folder") {
            continue;
        }
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            if !io::is_temporary_name(&entry.file_name().to_string_lossy()) {
                continue;
            }
            // `remove_dir_all` removes links inside, never what they point to.
            let _ = match kind(&entry.path()) {
                Some("a folder") => std::fs::remove_dir_all(entry.path()),
                _ => std::fs::remove_file(entry.path()),
            };
        }
    }
}

/// Removes from `dir` what an earlier command wrote there: the files its manifest lists that are
/// still exactly as written, and the manifest. Never a file warsim cannot vouch for.
pub fn clear_earlier_run(dir: &Path, _lock: &Lock) {
    let Some(m) = earlier_manifest(dir) else { return };
    remove_vouched(dir, &m.written, &[]);
    let _ = std::fs::remove_file(dir.join(manifest::FILE));
    let _ = std::fs::remove_dir(dir.join(PLOTS));
}

/// Removes the files of `listed` not named in `keep` that are still exactly as written.
fn remove_vouched(dir: &Path, listed: &[WrittenFile], keep: &[WrittenFile]) {
    for w in listed.iter().filter(|w| is_output_name(&w.file) && !keep.iter().any(|k| k.file == w.file)) {
        let path = dir.join(&w.file);
        if w.size_hash().is_some_and(|x| Written::of_file(&path) == Some(x)) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A name a manifest may list: a file at the top of the folder or in `plots/`, nothing else.
fn is_output_name(name: &str) -> bool {
    let file = name.strip_prefix("plots/").unwrap_or(name);
    !file.is_empty() && !file.starts_with('.') && !file.contains('/') && !file.contains('\\') && file != ".."
}

/// A folder inside an output folder where a command writes its files before moving them in
/// (`commit`). Dropped without committing, it is removed and the output folder is as it was.
pub struct Staging {
    target: PathBuf,
    path: PathBuf,
}

impl Staging {
    /// A new staging folder in `target` (which the caller has locked).
    pub fn new(target: &Path, _lock: &Lock) -> anyhow::Result<Staging> {
        loop {
            let path = target.join(io::temporary_name());
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Staging { target: target.to_path_buf(), path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create a folder in {}", target.display()));
                }
            }
        }
    }

    /// Where to write the files.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Moves the staged files into the target. First the target's manifest is rewritten to vouch
    /// for both its earlier and its new files, so that however the move is cut short every file is
    /// vouched for; then each file is renamed into place, the earlier files the new manifest no
    /// longer lists are removed, and the new manifest goes in last.
    pub fn commit(self) -> anyhow::Result<()> {
        let _held = crate::sim::signal::hold();
        let staged = io::read_text_no_follow(&self.path.join(manifest::FILE), io::MANIFEST_LIMIT)
            .ok()
            .and_then(|t| Manifest::parse(&t).ok());
        let earlier = earlier_manifest(&self.target);
        if let (Some(new), Some(old)) = (&staged, &earlier) {
            let mut both = new.clone();
            both.written.extend(old.written.iter().filter(|w| !new.written.contains(w)).cloned());
            io::write_atomic(&self.target.join(manifest::FILE), |w| manifest::write(&both, w))?;
        }
        let plots = self.path.join(PLOTS);
        if plots.is_dir() {
            let target_plots = self.target.join(PLOTS);
            match kind(&target_plots) {
                None => std::fs::create_dir(&target_plots)
                    .with_context(|| format!("cannot create {}", target_plots.display()))?,
                Some("a folder") => {}
                Some(what) => anyhow::bail!(
                    "{} is {what}, where warsim writes its plots (warsim never follows a link inside its folder)",
                    target_plots.display()
                ),
            }
            move_files(&plots, &target_plots)?;
        }
        move_files(&self.path, &self.target)?;
        if let (Some(new), Some(old)) = (&staged, &earlier) {
            remove_vouched(&self.target, &old.written, &new.written);
            if let Ok(mut rest) = std::fs::read_dir(self.target.join(PLOTS))
                && rest.next().is_none()
            {
                let _ = std::fs::remove_dir(self.target.join(PLOTS));
            }
        }
        let staged_manifest = self.path.join(manifest::FILE);
        if staged_manifest.exists() {
            std::fs::rename(&staged_manifest, self.target.join(manifest::FILE))
                .with_context(|| format!("cannot write {}", self.target.join(manifest::FILE).display()))?;
        }
        io::sync_dir(&self.target).with_context(|| format!("cannot write {}", self.target.display()))?;
        Ok(())
    }
}

/// Renames every regular file of `from` (but the manifest) into `to` and flushes `to`.
fn move_files(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        if name == manifest::FILE || !entry.file_type()?.is_file() {
            continue;
        }
        let dest = to.join(&name);
        std::fs::rename(entry.path(), &dest).with_context(|| format!("cannot write {}", dest.display()))?;
    }
    io::sync_dir(to).with_context(|| format!("cannot write {}", to.display()))
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_a_run_or_a_tune_writes_is_checked_before_the_first_game() {
        for e in crate::report::exports() {
            assert!(OUTPUT_FILES.contains(&e.file_name()), "{}", e.file_name());
        }
        for f in [crate::report::tune::CSV, crate::report::tune::PAGE, crate::sim::tune::FILE] {
            assert!(OUTPUT_FILES.contains(&f), "{f}");
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
    fn a_lock_is_exclusive_and_released_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let lock = Lock::take(tmp.path()).unwrap();
        let text = std::fs::read_to_string(tmp.path().join(LOCK_FILE)).unwrap();
        assert!(text.contains(&format!("process {}", std::process::id())), "{text}");
        // flock locks belong to open files: a second open file of this process is refused too.
        let e = Lock::take(tmp.path()).unwrap_err();
        assert!(e.0.contains("in use by another warsim (host"), "{e}");
        drop(lock);
        assert!(!tmp.path().join(LOCK_FILE).exists());
        // A lock file left by a killed process (no one holds its lock) is simply taken.
        std::fs::write(tmp.path().join(LOCK_FILE), "host x process 1\n").unwrap();
        drop(Lock::take(tmp.path()).unwrap());
    }

    fn entry(dir: &Path, file: &str) -> WrittenFile {
        WrittenFile::new(file, Written::of_file(&dir.join(file)).unwrap())
    }

    #[test]
    fn clearing_removes_only_what_warsim_wrote_and_vouched_for() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::create_dir(d.join("plots")).unwrap();
        for f in ["agents.csv", "comparisons.csv", "plots/agents.svg", "plots/mine.svg", "notes.txt"] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        let mut m: Manifest = Manifest::parse(crate::report::manifest::tests::MINIMAL).unwrap();
        m.written = vec![entry(d, "agents.csv"), entry(d, "plots/agents.svg"), entry(d, "comparisons.csv")];
        m.written.push(WrittenFile::new("../notes.txt", Written::of(b"x")));
        std::fs::write(d.join("comparisons.csv"), "changed since").unwrap();
        let mut text = Vec::new();
        manifest::write(&m, &mut text).unwrap();
        std::fs::write(d.join("manifest.json"), text).unwrap();
        assert_eq!(strangers(d), ["comparisons.csv", "notes.txt", "plots/mine.svg"]);
        let lock = Lock::take(d).unwrap();
        clear_earlier_run(d, &lock);
        for gone in ["agents.csv", "plots/agents.svg", "manifest.json"] {
            assert!(!d.join(gone).exists(), "{gone}");
        }
        for kept in ["plots/mine.svg", "notes.txt", "comparisons.csv"] {
            assert!(d.join(kept).exists(), "{kept}");
        }
    }
}
