//! What the end-to-end tests of the binary share: running it, and comparing two output
//! folders byte for byte as the output contract requires. Each test file uses part of it.
#![allow(dead_code)]

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;

/// The files of the output contract that must be byte-identical.
pub const CSV_FILES: [&str; 5] =
    ["summary.csv", "outcomes.csv", "events.csv", "lengths.csv", "distributions.csv"];

pub fn warsim() -> assert_cmd::Command {
    cargo_bin_cmd!("warsim")
}

pub fn run_ok(args: &[&str]) {
    let out = warsim().args(args).output().unwrap();
    assert!(out.status.success(), "warsim {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The manifest without what legitimately differs: times, the command line (its `--out` folder
/// and `--shard`/`--resume` flags), the checksum (of all these), and `timings.csv` among the
/// outputs (decision costs are wall clock, outside the byte-identical contract; `merge` writes
/// none).
pub fn manifest_core(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let m = v.as_object_mut().unwrap();
    for k in ["start_time", "end_time", "command_line", "checksum"] {
        m.remove(k);
    }
    if let Some(outputs) = m.get_mut("outputs").and_then(|o| o.as_array_mut()) {
        outputs.retain(|f| f != "timings.csv");
    }
    v
}

/// The contract's CSV files of two folders are byte-identical.
pub fn assert_same_csv(expected: &Path, actual: &Path) {
    for f in CSV_FILES {
        let a = std::fs::read(expected.join(f)).unwrap();
        let b = std::fs::read(actual.join(f)).unwrap();
        assert!(a == b, "{f} differs between {} and {}", expected.display(), actual.display());
    }
    // And every other CSV file the run wrote (`cards.csv`, `card_pairs.csv`, ...), but the one that
    // measures the machine.
    for entry in std::fs::read_dir(expected).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".csv") && name != "timings.csv" && !CSV_FILES.contains(&name.as_str()) {
            let a = std::fs::read(expected.join(&name)).unwrap();
            let b = std::fs::read(actual.join(&name)).unwrap_or_default();
            assert!(a == b, "{name} differs between {} and {}", expected.display(), actual.display());
        }
    }
}

/// The CSV files are byte-identical and the manifests agree but for times and command lines.
pub fn assert_same_files(expected: &Path, actual: &Path) {
    assert_same_csv(expected, actual);
    assert_eq!(manifest_core(expected), manifest_core(actual), "manifest differs");
}

/// Runs warsim expecting exit code 2 with a one-line message containing `needle`, and no panic.
pub fn refused(args: &[&str], needle: &str) {
    let out = warsim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "warsim {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
}

/// A `warsim` run in the background, paused by the test hooks (`src/sim/hooks.rs`) at a moment the
/// test chose: it has reached the moment when its pause line is on stderr, and stays there until a
/// signal comes, so the test never waits for time to pass. Dropped, it is killed.
pub struct Paused {
    child: std::process::Child,
    stderr: std::io::BufReader<std::process::ChildStderr>,
}

impl Paused {
    /// Starts `warsim args` with `WARSIM_TEST_PAUSE=moment` (and `WARSIM_TEST_CHECKPOINT_EVERY=every`
    /// if given) and returns once it has paused.
    pub fn start(args: &[&str], moment: &str, every: Option<u64>) -> Paused {
        use std::io::BufRead;
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("warsim"));
        cmd.args(args)
            .env("WARSIM_TEST_PAUSE", moment)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        if let Some(n) = every {
            cmd.env("WARSIM_TEST_CHECKPOINT_EVERY", n.to_string());
        }
        let mut child = cmd.spawn().unwrap();
        let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        // From here on, a panic drops `run`, which kills and reaps the child.
        let mut run = Paused { child, stderr };
        let mut said = String::new();
        loop {
            let mut line = String::new();
            // A run that ends without pausing closes stderr: the read returns 0.
            if run.stderr.read_line(&mut line).unwrap() == 0 {
                panic!("warsim {args:?} ended without pausing at {moment}: {said}");
            }
            if line.starts_with(&format!("warsim: test pause at {moment}")) {
                return run;
            }
            said.push_str(&line);
        }
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends `sig` (`-INT`, `-KILL`, ...) and returns the exit code (`None` if killed) and the rest
    /// of stderr.
    pub fn signal(mut self, sig: &str) -> (Option<i32>, String) {
        use std::io::Read;
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill").args([sig, &pid]).status().unwrap();
        assert!(sent.success(), "kill {sig} {pid} failed");
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        (self.child.wait().unwrap().code(), rest)
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A state's text with its checksum recomputed, as warsim seals it: the fingerprint of the JSON
/// written with an empty checksum.
pub fn reseal(text: &str) -> String {
    let (body, _) = text.trim_end().rsplit_once(",\"checksum\":").expect("the checksum is the last field");
    let open = format!("{body},\"checksum\":\"\"}}");
    format!("{body},\"checksum\":\"{}\"}}\n", warsim::io::fingerprint(&[&open]))
}
