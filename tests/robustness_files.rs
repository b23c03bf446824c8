//! The output folder under careless or hostile use, as a shared disk sees it: warsim writes and
//! deletes only what it owns (never through a link, never a file it cannot vouch for), one command
//! at a time per folder (an OS lock, also across PID namespaces), interrupted commands leave the
//! folder as it was, and every file is on the disk before its name is. Each test reproduces a
//! failure an audit found (issue 21); `WARSIM_BIN=<older build>` shows it failing there.

mod binary;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use binary::{bin, refused, run_ok, s, warsim};

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Every file under `dir` with its bytes, links as their targets.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in files(dir) {
        let p = dir.join(&name);
        let m = std::fs::symlink_metadata(&p).unwrap();
        if m.file_type().is_symlink() {
            out.push((name, std::fs::read_link(&p).unwrap().to_string_lossy().as_bytes().to_vec()));
        } else if m.is_dir() {
            out.extend(snapshot(&p).into_iter().map(|(n, b)| (format!("{name}/{n}"), b)));
        } else {
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
    out
}

/// Whether this process may make PID namespaces (root, with `unshare` installed).
fn can_unshare() -> bool {
    Command::new("unshare")
        .args(["-p", "-f", "--mount-proc", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Point 1: the write probe is created exclusively, never through a link planted under its name.
/// Run as PID 1 of a new PID namespace, so the names it would use are known in advance.
#[test]
fn a_link_planted_where_the_probe_goes_is_never_followed() {
    if !can_unshare() {
        eprintln!("skipped: cannot create a PID namespace here");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    symlink(&victim, out.join(".warsim-probe-1")).unwrap();
    for n in 0..50 {
        symlink(&victim, out.join(format!(".warsim-1-{n}.tmp"))).unwrap();
    }
    for force in [&[][..], &["--force"]] {
        Command::new("unshare")
            .args(["-p", "-f", "--mount-proc"])
            .arg(bin())
            .args(["run", "war", "--games", "50", "-q", "--out", s(&out)])
            .args(force)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious", "the linked file is untouched");
    }
}

/// Point 2: a `plots/` that is a link to another folder is refused, naming it, and nothing is
/// written through it; so is a link among the plots.
#[test]
fn a_link_inside_the_output_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("lengths.svg"), "mine").unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    symlink(&elsewhere, out.join("plots")).unwrap();
    refused(&["run", "war", "--games", "50", "--out", s(&out)], "plots is a symbolic link");
    refused(&["run", "war", "--games", "50", "--force", "--out", s(&out)], "plots is a symbolic link");
    assert_eq!(files(&elsewhere), ["lengths.svg"]);
    assert_eq!(std::fs::read_to_string(elsewhere.join("lengths.svg")).unwrap(), "mine");
    assert_eq!(files(&out), ["plots"], "nothing written beside the link");
    // A link among the plots of a real warsim folder.
    let run = tmp.path().join("run");
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&run)]);
    std::fs::remove_file(run.join("plots/lengths.svg")).unwrap();
    symlink(elsewhere.join("lengths.svg"), run.join("plots/lengths.svg")).unwrap();
    refused(&["run", "war", "--games", "50", "--out", s(&run)], "lengths.svg is a symbolic link");
    assert_eq!(std::fs::read_to_string(elsewhere.join("lengths.svg")).unwrap(), "mine");
}

/// Point 3: files warsim did not write are never deleted: a folder holding them is refused
/// unless `--force`, which leaves them alone; a manifest naming a file is not enough to delete it.
#[test]
fn files_warsim_did_not_write_are_refused_or_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    for f in ["cards.csv", "comparisons.csv", "agents.csv"] {
        std::fs::write(out.join(f), format!("my own {f}")).unwrap();
    }
    refused(
        &["run", "war", "--games", "50", "--out", s(&out)],
        "holds files warsim did not write (agents.csv, cards.csv",
    );
    run_ok(&["run", "war", "--games", "50", "-q", "--force", "--out", s(&out)]);
    run_ok(&["run", "war", "--games", "60", "-q", "--force", "--out", s(&out)]);
    for f in ["cards.csv", "comparisons.csv", "agents.csv"] {
        assert_eq!(std::fs::read_to_string(out.join(f)).unwrap(), format!("my own {f}"), "{f}");
    }
    // A manifest that names a file (as a plot, or as written with a made-up hash) vouches for nothing.
    let thesis = tmp.path().join("t");
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&thesis)]);
    std::fs::write(thesis.join("thesis.docx"), "years of work").unwrap();
    let manifest = std::fs::read_to_string(thesis.join("manifest.json")).unwrap();
    let forged = manifest.replacen(
        "\"written\": [",
        "\"written\": [\n    {\"file\": \"thesis.docx\", \"size\": 13, \"hash\": \"0123456789abcdef\"},",
        1,
    );
    let forged = forged.replacen("\"outputs\": [", "\"outputs\": [\"thesis.docx\", ", 1);
    assert_ne!(forged, manifest);
    std::fs::write(thesis.join("manifest.json"), forged).unwrap();
    // (Edited by hand, the manifest's checksum fails: it vouches for nothing, its own files included.)
    refused(&["run", "war", "--games", "50", "--out", s(&thesis)], "holds files warsim did not write");
    run_ok(&["run", "war", "--games", "50", "-q", "--force", "--out", s(&thesis)]);
    assert_eq!(std::fs::read_to_string(thesis.join("thesis.docx")).unwrap(), "years of work");
    // A file warsim wrote but someone edited since is no longer warsim's.
    let edited = tmp.path().join("e");
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&edited)]);
    std::fs::write(edited.join("summary.csv"), "my notes").unwrap();
    refused(&["run", "war", "--games", "50", "--out", s(&edited)], "(summary.csv)");
}

/// Starts `n` runs into `out` at the same moment (each through `wrap`, e.g. in its own PID
/// namespace); each would play for hours.
fn start_together(out: &Path, n: usize, wrap: &[&str]) -> Vec<Child> {
    let args = ["run", "war", "--games", "1000000000000", "--threads", "1", "-q", "--out", s(out)];
    (0..n)
        .map(|_| {
            let mut c = if wrap.is_empty() {
                Command::new(bin())
            } else {
                let mut c = Command::new(wrap[0]);
                c.args(&wrap[1..]).arg(bin());
                c
            };
            c.args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
        })
        .collect()
}

/// Exactly one of runs started together proceeds: the others are refused (exit 2, "in use").
fn exactly_one_proceeds(out: &Path, wrap: &[&str]) {
    let mut children = start_together(out, 2, wrap);
    // The refused one exits at once, closing its stderr; the other plays on (for hours) until
    // killed. Each stderr is read to its end on a thread of its own: the first to end is the
    // refused run's.
    let (ended, first) = std::sync::mpsc::channel();
    for (i, c) in children.iter_mut().enumerate() {
        let mut err = c.stderr.take().unwrap();
        let ended = ended.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            let _ = ended.send((i, text));
        });
    }
    let Ok((loser, err)) = first.recv_timeout(Duration::from_secs(60)) else {
        for c in &mut children {
            let _ = c.kill();
        }
        panic!("neither run was refused");
    };
    let mut lost = children.remove(loser);
    let status = lost.wait().unwrap();
    let winner = &mut children[0];
    let still = winner.try_wait().unwrap().is_none();
    let _ = Command::new("kill").args(["-KILL", &winner.id().to_string()]).status();
    let _ = winner.kill();
    let _ = winner.wait();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("is in use by another warsim"), "{err}");
    assert!(still, "the other run proceeds");
}

/// Points 4 and 5: two runs started at the same moment into one folder: exactly one proceeds,
/// also when each is PID 1 of its own PID namespace (two containers on one volume).
#[test]
fn of_two_runs_started_together_exactly_one_proceeds() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..8 {
        let out = tmp.path().join(format!("same-{i}"));
        exactly_one_proceeds(&out, &[]);
    }
    if can_unshare() {
        for i in 0..4 {
            let out = tmp.path().join(format!("ns-{i}"));
            exactly_one_proceeds(&out, &["unshare", "-p", "-f", "--mount-proc"]);
        }
    } else {
        eprintln!("PID namespaces skipped: cannot create one here");
    }
}

/// Points 4 and 5: the lock is the kernel's: an empty lock file (a writer killed before it wrote
/// its name) is not "half-written" to be taken over while its holder lives, and a lock file whose
/// holder died is taken at once.
#[test]
fn the_lock_is_held_by_the_kernel_not_by_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let held = std::fs::File::create(out.join(".warsim.lock")).unwrap();
    held.lock().unwrap();
    refused(&["run", "war", "--games", "50", "--out", s(&out)], "is in use by another warsim");
    refused(&["merge", s(&out), "--out", s(&out)], "");
    drop(held);
    std::fs::write(out.join(".warsim.lock"), "host elsewhere process 1\n").unwrap();
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&out)]);
    assert!(!out.join(".warsim.lock").exists(), "the lock file goes with its holder");
}

fn shards(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let shard = |k: u32| {
        let d = root.join(format!("s{k}"));
        run_ok(&["run", "war", "--games", "400", "--shard", &format!("{k}/2"), "-q", "--out", s(&d)]);
        d
    };
    (shard(1), shard(2))
}

/// Point 6: Ctrl-C during a merge leaves its target as it was: absent if it was, else the earlier
/// files byte for byte, with no temporary file or lock left behind.
#[test]
fn an_interrupted_merge_leaves_its_target_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let (s1, s2) = shards(tmp.path());
    let merged = tmp.path().join("merged");
    let interrupted = |target: &Path| {
        warsim()
            .env("WARSIM_TEST_SIGNAL_AT", "merge-staged")
            .args(["merge", s(&s1), s(&s2), "-q", "--out", s(target)])
            .output()
            .unwrap()
    };
    let o = interrupted(&merged);
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!merged.exists(), "a new target is not made");
    // Over an earlier run's folder: every file as it was.
    run_ok(&["run", "war", "--games", "100", "-q", "--out", s(&merged)]);
    let before = snapshot(&merged);
    let o = interrupted(&merged);
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is as it was"));
    assert_eq!(snapshot(&merged), before, "the target is as it was");
    // Uninterrupted, the merge replaces it.
    run_ok(&["merge", s(&s1), s(&s2), "-q", "--out", s(&merged)]);
    assert_ne!(snapshot(&merged), before);
    assert!(!files(&merged).iter().any(|f| f.starts_with(".warsim")), "{:?}", files(&merged));
}

/// Point 6: Ctrl-C during a run's final write-out: the run's files are complete (those of an
/// uninterrupted run), none half-written, no temporary file left.
#[test]
fn ctrl_c_during_the_final_write_out_leaves_complete_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (cut, whole) = (tmp.path().join("cut"), tmp.path().join("whole"));
    let args = ["run", "war", "--sweep", "variant=standard,peace", "--games", "300", "-q", "--out"];
    let o = warsim().env("WARSIM_TEST_SIGNAL_AT", "run-final").args(args).arg(s(&cut)).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    run_ok(&[&args[..], &[s(&whole)]].concat());
    binary::assert_same_files(&whole, &cut);
    assert_eq!(files(&cut), files(&whole));
}

/// Point 7: temporary files and staging folders of a killed command are removed by the next
/// command into the folder (the lock shows their writer is gone), and never while a writer lives.
#[test]
fn a_killed_commands_temporaries_are_removed_once_it_is_known_dead() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&out)]);
    let plant = || {
        std::fs::write(out.join(".warsim-4242-0.tmp"), "half").unwrap();
        std::fs::create_dir_all(out.join(".warsim-4242-1.tmp")).unwrap();
        std::fs::write(out.join(".warsim-4242-1.tmp/summary.csv"), "half").unwrap();
        std::fs::write(out.join("plots/.warsim-4242-2.tmp"), "half").unwrap();
    };
    let temporaries = || -> Vec<String> {
        files(&out).into_iter().chain(files(&out.join("plots"))).filter(|f| f.ends_with(".tmp")).collect()
    };
    plant();
    run_ok(&["run", "war", "--games", "50", "-q", "--out", s(&out)]);
    assert!(temporaries().is_empty(), "{:?}", temporaries());
    // While a writer holds the folder, its temporaries are its own.
    plant();
    let lock = std::fs::File::create(out.join(".warsim.lock")).unwrap();
    lock.lock().unwrap();
    refused(&["run", "war", "--games", "50", "--out", s(&out)], "in use");
    assert_eq!(temporaries().len(), 3);
}

/// Point 8: every file is flushed to the disk before it is renamed into place, and the folder
/// after (seen with strace, when it is installed).
#[test]
fn files_are_flushed_before_they_are_renamed_into_place() {
    if Command::new("strace").arg("-V").stdout(Stdio::null()).status().is_err() {
        eprintln!("skipped: strace is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let log = tmp.path().join("trace");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", s(&log)])
        .arg(bin())
        .args(["run", "war", "--games", "50", "-q", "--out", s(&out)])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let trace = std::fs::read_to_string(&log).unwrap();
    let syncs = trace.lines().filter(|l| l.contains("fsync(") || l.contains("fdatasync(")).count();
    let renames = trace.lines().filter(|l| l.contains("rename")).count();
    let written = snapshot(&out).len();
    assert!(renames > 0);
    // Each file written (state.json at every checkpoint too) is flushed, and its folder.
    assert!(syncs >= 2 * written, "{syncs} flushes for {written} files and {renames} renames");
}

/// Point 9: every path warsim writes is checked before the first game: a `plots` that is a file,
/// a `report.html` that is a folder, a `summary.csv` that is a FIFO.
#[test]
fn every_output_path_is_checked_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    type Make = fn(&Path);
    let cases: [(&str, Make); 3] = [
        ("plots is a file", |p| std::fs::write(p.join("plots"), "").unwrap()),
        ("report.html is a folder", |p| std::fs::create_dir(p.join("report.html")).unwrap()),
        ("summary.csv is a device, FIFO or socket", |p| {
            assert!(Command::new("mkfifo").arg(p.join("summary.csv")).status().unwrap().success())
        }),
    ];
    for (i, (needle, make)) in cases.iter().enumerate() {
        let out = tmp.path().join(format!("o{i}"));
        std::fs::create_dir(&out).unwrap();
        make(&out);
        let before = files(&out);
        refused(&["run", "war", "--games", "1000", "--out", s(&out)], needle);
        assert_eq!(files(&out), before, "{needle}: nothing written");
    }
}

/// An output folder that names a file is refused in one line, and the file is left as it was.
#[test]
fn an_output_folder_that_is_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("results");
    std::fs::write(&file, "mine").unwrap();
    refused(&["run", "war", "--games", "10", "-q", "--out", s(&file)], "it is a file, not a folder");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}
