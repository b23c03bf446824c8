//! Files in and out. Out: everything warsim writes into an output folder (CSV files, plots, the
//! report page, `manifest.json`, `state.json`) goes through `write_atomic`, so a reader never sees
//! half a file and a power cut never loses one that was complete. In: everything warsim reads from
//! outside (scenario files, card files, `state.json`, `manifest.json`) goes through `read_text`,
//! which reads only regular files and only up to a stated size, so a FIFO or `/dev/zero` fails at
//! once instead of hanging or filling memory.
//!
//! The bytes of a written file go to a temporary file in the destination folder, which is flushed
//! to the disk (`fsync`), renamed over the final name only once complete, and then the folder is
//! flushed too, so the rename itself survives a power cut. A killed process leaves at most a
//! `.warsim-*.tmp` file, which the next command into the folder removes once the folder's lock
//! shows its writer is gone (`outdir::Lock`).

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

use crate::error::UsageError;

/// Prefix and suffix of the temporary files of `write_atomic` (and the staging folders of
/// `outdir::Staging`).
pub const TMP_PREFIX: &str = ".warsim-";
pub const TMP_SUFFIX: &str = ".tmp";

/// Size and content fingerprint of a file as warsim wrote it: what a manifest vouches for, so a
/// later run deletes the file only if it is still exactly what warsim wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub size: u64,
    pub hash: u64,
}

/// Writes what `write` produces to `path` atomically and durably, returning its size and hash. The
/// file gets the permissions any new file of this process gets (0666 less the umask), so
/// colleagues sharing a results folder can read it. A symbolic link at `path` is replaced, never
/// followed.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<Written> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = Temporary::create(dir)?;
    let failed = || format!("cannot write {}", path.display());
    let written = {
        let mut hashing = Hashing { inner: std::io::BufWriter::new(&tmp.file), written: Written::EMPTY };
        write(&mut hashing).with_context(failed)?;
        hashing.inner.flush().with_context(failed)?;
        hashing.written
    };
    tmp.file.sync_all().with_context(failed)?;
    std::fs::rename(&tmp.path, path).with_context(failed)?;
    tmp.kept();
    sync_dir(dir).with_context(failed)?;
    Ok(written)
}

/// Flushes a folder's entries (names created, renamed or removed) to the disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

impl Written {
    const EMPTY: Written = Written { size: 0, hash: FNV_OFFSET };

    /// The size and hash of the bytes `data`.
    pub fn of(data: &[u8]) -> Written {
        let mut w = Written::EMPTY;
        w.add(data);
        w
    }

    /// The size and hash of the regular file at `path` (never following a link), read in pieces.
    pub fn of_file(path: &Path) -> Option<Written> {
        let mut f = open_regular(path, true).ok()?;
        let mut w = Written::EMPTY;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match f.read(&mut buf) {
                Ok(0) => return Some(w),
                Ok(n) => w.add(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
    }

    fn add(&mut self, data: &[u8]) {
        self.size += data.len() as u64;
        self.hash = fnv(self.hash, data);
    }

    /// The hash as the manifest writes it.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.hash)
    }
}

/// A writer that counts and hashes what passes through it.
struct Hashing<W: Write> {
    inner: W,
    written: Written,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written.add(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A temporary file next to its destination, removed unless `kept`.
struct Temporary {
    path: PathBuf,
    file: std::fs::File,
    keep: bool,
}

impl Temporary {
    fn create(dir: &Path) -> anyhow::Result<Temporary> {
        loop {
            let path = dir.join(temporary_name());
            match create_exclusive(&path) {
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

/// A fresh name `.warsim-<pid>-<n>.tmp` for a temporary file or folder of this process.
pub fn temporary_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{TMP_PREFIX}{}-{n}{TMP_SUFFIX}", std::process::id())
}

/// Whether `name` is a temporary file or folder name of some warsim process.
pub fn is_temporary_name(name: &str) -> bool {
    name.strip_prefix(TMP_PREFIX)
        .and_then(|r| r.strip_suffix(TMP_SUFFIX))
        .and_then(|r| r.split_once('-'))
        .is_some_and(|(pid, n)| {
            !pid.is_empty()
                && !n.is_empty()
                && pid.bytes().all(|b| b.is_ascii_digit())
                && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Creates a new file at `path`: never an existing one, never through a symbolic link.
pub fn create_exclusive(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).custom_flags(libc::O_NOFOLLOW).open(path)
}

/// Opens `path` for reading if it is a regular file: without waiting for a writer (a FIFO), and,
/// with `no_follow`, not through a symbolic link.
fn open_regular(path: &Path, no_follow: bool) -> std::io::Result<std::fs::File> {
    let flags = libc::O_NONBLOCK | if no_follow { libc::O_NOFOLLOW } else { 0 };
    let f = std::fs::OpenOptions::new().read(true).custom_flags(flags).open(path)?;
    let kind = f.metadata()?.file_type();
    if !kind.is_file() {
        use std::os::unix::fs::FileTypeExt;
        let what = if kind.is_dir() {
            "a folder"
        } else if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a file"
        };
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file"),
        ));
    }
    Ok(f)
}

/// The largest inputs warsim reads, in bytes: far above any real file, far below what could
/// exhaust memory.
pub const SCENARIO_LIMIT: u64 = 1 << 20;
pub const CARD_FILE_LIMIT: u64 = 16 << 20;
pub const MANIFEST_LIMIT: u64 = 64 << 20;
pub const STATE_LIMIT: u64 = 512 << 20;

/// Reads the UTF-8 text of the regular file `path`, at most `limit` bytes. The error is a sentence
/// without the path (callers say which file and what it is for).
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    read_from(open_regular(path, false).map_err(|e| e.to_string())?, limit)
}

fn read_from(mut f: std::fs::File, limit: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    Read::by_ref(&mut f).take(limit + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("it is larger than the {} this file may have", size_text(limit)));
    }
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// `read_text` for a file inside an output folder: a symbolic link there is refused, not followed.
pub fn read_text_no_follow(path: &Path, limit: u64) -> Result<String, String> {
    read_from(open_regular(path, true).map_err(|e| e.to_string())?, limit)
}

/// `read_text` for files a command cannot go on without: a usage error naming `what` and the path.
pub fn read_input(path: &Path, limit: u64, what: &str) -> Result<String, UsageError> {
    read_text(path, limit).map_err(|e| UsageError(format!("cannot read {what} {}: {e}", path.display())))
}

/// A byte count as people write it (`1 MiB`).
pub fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(mut h: u64, data: &[u8]) -> u64 {
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A short fingerprint of some texts (FNV-1a, 64 bits, each text closed by a 0xff byte): enough to
/// tell whether a stored state or a file changed, not a defence against tampering.
pub fn fingerprint(parts: &[&str]) -> String {
    let mut h = FNV_OFFSET;
    for part in parts {
        h = fnv(h, part.as_bytes());
        h = fnv(h, &[0xff]);
    }
    format!("{h:016x}")
}

/// The same fingerprint of raw bytes (an executable), as one part.
pub fn fingerprint_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fnv(fnv(FNV_OFFSET, bytes), &[0xff]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("f");
        std::fs::write(&f, "12345").unwrap();
        assert_eq!(read_text(&f, 5).unwrap(), "12345");
        assert!(read_text(&f, 4).unwrap_err().contains("larger than the 4 bytes"));
        assert!(read_text(tmp.path(), 10).unwrap_err().contains("a folder"));
        assert!(read_text(Path::new("/dev/zero"), 10).unwrap_err().contains("a device"));
        let fifo = tmp.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_text(&fifo, 10).unwrap_err().contains("a FIFO"), "a FIFO is refused without waiting");
    }

    #[test]
    fn written_files_are_measured_as_they_are_written() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("f.csv");
        let w = write_atomic(&f, |o| Ok(o.write_all(b"a,b\n1,2\n")?)).unwrap();
        assert_eq!(w, Written::of(b"a,b\n1,2\n"));
        assert_eq!(Written::of_file(&f), Some(w));
        assert_eq!(w.size, 8);
        assert!(is_temporary_name(&temporary_name()));
        assert!(!is_temporary_name(".warsim-x-1.tmp") && !is_temporary_name(".warsim-.tmp"));
    }

    #[test]
    fn fingerprints_are_fnv1a_of_the_parts() {
        assert_eq!(fingerprint(&[]), format!("{FNV_OFFSET:016x}"));
        assert_ne!(fingerprint(&["ab"]), fingerprint(&["a", "b"]));
    }
}
