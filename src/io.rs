//! Writing files so that a reader never sees half of one: everything warsim writes into an output
//! folder (CSV files, plots, the report page, `state.json`) goes through `write_atomic`.
//!
//! The bytes go to a temporary file in the destination folder, which is renamed over the final name
//! only once complete; a killed process leaves at most a `.warsim-*.tmp` file, which `--resume`
//! removes (`remove_stale_temporaries`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

/// Prefix and suffix of the temporary files of `write_atomic`.
const TMP_PREFIX: &str = ".warsim-";
const TMP_SUFFIX: &str = ".tmp";

/// Writes what `write` produces to `path` atomically. The file gets the permissions any new file
/// of this process gets (0666 less the umask), so colleagues sharing a results folder can read it.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = Temporary::create(dir)?;
    {
        let mut buf = std::io::BufWriter::new(&tmp.file);
        write(&mut buf).with_context(|| format!("cannot write {}", path.display()))?;
        buf.flush().with_context(|| format!("cannot write {}", path.display()))?;
    }
    std::fs::rename(&tmp.path, path).with_context(|| format!("cannot write {}", path.display()))?;
    tmp.kept();
    Ok(())
}

/// A temporary file next to its destination, removed unless `kept`.
struct Temporary {
    path: PathBuf,
    file: std::fs::File,
    keep: bool,
}

impl Temporary {
    fn create(dir: &Path) -> anyhow::Result<Temporary> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!("{TMP_PREFIX}{}-{n}{TMP_SUFFIX}", std::process::id()));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok(Temporary { path, file, keep: false }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create a file in {}", dir.display()));
                }
            }
        }
    }

    fn kept(mut self) {
        self.keep = true;
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Removes the temporary files a killed run may have left in `dir` (never a file under a final name).
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A short fingerprint of some texts (FNV-1a, 64 bits, each text closed by a 0xff byte): enough to
/// tell whether a stored state or a file changed, not a defence against tampering.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut h = FNV_START;
    for part in parts {
        h = fnv1a(fnv1a(h, part.as_bytes()), &[0xff]);
    }
    format!("{h:016x}")
}

/// The same fingerprint of raw bytes (an executable), as one part.
pub fn fingerprint_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(fnv1a(FNV_START, bytes), &[0xff]))
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
