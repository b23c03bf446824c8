//! Records which sources warsim was built from, for the build fingerprint (`src/provenance.rs`):
//! the git commit, and a hash of the uncommitted changes to the program's sources (empty when
//! there are none). Both are empty outside a git checkout of warsim itself (e.g. a crates.io
//! package inside someone else's repository); the program then fingerprints its executable.

use std::path::Path;
use std::process::Command;

/// What makes the program: a change here makes another build.
const SOURCES: [&str; 4] = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];

fn git(args: &[&str], input: Option<&[u8]>) -> Option<String> {
    use std::io::Write;
    let mut child = Command::new("git")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    stdin.write_all(input.unwrap_or_default()).ok()?;
    drop(stdin);
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let here = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let top = git(&["rev-parse", "--show-toplevel"], None);
    let ours = top.is_some_and(|t| Path::new(&t).canonicalize().ok() == Path::new(&here).canonicalize().ok());
    let commit = if ours {
        git(&["rev-parse", "--short=12", "HEAD"], None).unwrap_or_default()
    } else {
        String::new()
    };
    let dirty = if commit.is_empty() { String::new() } else { changes().unwrap_or_else(|| "unknown".into()) };
    println!("cargo:rustc-env=WARSIM_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=WARSIM_GIT_DIRTY={dirty}");
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    // A commit or checkout moves HEAD (in a worktree, `.git` is a file: ask git where HEAD is).
    if ours {
        for (what, file) in
            [("--git-dir", "HEAD"), ("--git-common-dir", "refs"), ("--git-common-dir", "packed-refs")]
        {
            if let Some(dir) = git(&["rev-parse", what], None) {
                let path = Path::new(&here).join(dir).join(file);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
}

/// A hash (git's object id) of the content of every source file that differs from the commit
/// (changed, added, untracked or deleted); empty when none does. Staging changes nothing.
fn changes() -> Option<String> {
    let changed = git(&[&["diff", "HEAD", "--name-only", "--"][..], &SOURCES[..]].concat(), None)?;
    let untracked =
        git(&[&["ls-files", "--others", "--exclude-standard", "--"][..], &SOURCES[..]].concat(), None)?;
    let mut files: Vec<&str> = changed.lines().chain(untracked.lines()).filter(|f| !f.is_empty()).collect();
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Some(String::new());
    }
    let mut listing = String::new();
    for file in files {
        let id = if Path::new(file).exists() {
            git(&["hash-object", "--", file], None)?
        } else {
            "deleted".into()
        };
        listing.push_str(&format!("{file} {id}\n"));
    }
    let id = git(&["hash-object", "--stdin"], Some(listing.as_bytes()))?;
    Some(id.chars().take(12).collect())
}
