//! What the end-to-end tests of the binary share: running it, and comparing two output
//! folders byte for byte as the output contract requires. Each test file uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The files of the output contract that must be byte-identical.
pub const CSV_FILES: [&str; 5] =
    ["summary.csv", "outcomes.csv", "events.csv", "lengths.csv", "distributions.csv"];

/// The binary under test: this crate's, or the one `WARSIM_BIN` names (to see a test fail on an
/// older build, as each test of a fix must).
pub fn bin() -> PathBuf {
    std::env::var_os("WARSIM_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_warsim")), PathBuf::from)
}

pub fn warsim() -> assert_cmd::Command {
    assert_cmd::Command::new(bin())
}

pub fn run_ok(args: &[&str]) {
    let out = warsim().args(args).output().unwrap();
    assert!(out.status.success(), "warsim {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The manifest without what legitimately differs: times, the files' hashes, the command line (its `--out` folder
/// and `--shard`/`--resume` flags), and `timings.csv` among the outputs (decision costs are wall
/// clock, outside the byte-identical contract; `merge` writes none).
pub fn manifest_core(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let m = v.as_object_mut().unwrap();
    // `written` holds the hashes of report.html and timings.csv, which show times.
    for k in ["start_time", "end_time", "command_line", "written"] {
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
