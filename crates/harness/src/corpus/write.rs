//! Writing rows: the locked, atomic append that loses and duplicates nothing,
//! the writability checks, and the fallback file that keeps a finding when the
//! corpus cannot take it.

use super::*;
use lockstep_core::Model;

/// What [`append`] did with a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appended {
    /// Written under this name (the row's own, or it with a numeric suffix).
    Written(String),
    /// The file already holds a row with the same case, under this name.
    AlreadyPresent(String),
}

/// Appends a row to a puzzle's corpus file, safely against other appenders and
/// against being killed.
///
/// - The corpus directory must exist: lockstep never creates one, so a typo in
///   `--corpus` is an error rather than a new directory.
/// - A file or directory without write permission is refused, even for root:
///   marking a corpus read-only is a user's decision.
/// - Under an exclusive lock on the directory, the file is read again, a row with
///   the same case (as parsed, not as spelled) makes this one a no-op, and a name
///   already taken gets a numeric suffix (`-2`, `-3`, ...).
/// - The new contents go to a temporary file, which is synced and renamed over
///   the old one, and the directory is synced: a reader, or a process killed at
///   any moment, sees the old file or the new one, never half a row.
///
/// An empty (0-byte) or missing file gets the header first.
pub fn append<P: Puzzle>(path: &Path, mut row: Row) -> Result<Appended> {
    // Rename the target of a symlinked corpus file, not the link.
    let path = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(path).with_context(|| format!("resolving {}", path.display()))?
        }
        _ => path.to_path_buf(),
    };
    let dir = writable_dir(&path)?;
    if !valid_name(&row.name) {
        bail!("row name {:?} is not kebab-case (a-z, 0-9, -)", row.name);
    }
    let case = P::Case::parse(&decode_for::<P>(&row.input))
        .map_err(|e| anyhow::anyhow!("the input of row {:?} does not parse: {e}", row.name))?;

    // flock on the directory itself: no lock file is left in the user's corpus.
    let lock = fs::File::open(&dir).with_context(|| format!("opening {}", dir.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", dir.display()))?;

    let (contents, permissions) = match fs::read(&path) {
        Ok(bytes) => {
            let permissions = fs::metadata(&path)?.permissions();
            if permissions.readonly() {
                bail!("{} is read-only", path.display());
            }
            (bytes, Some(permissions))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let existing = parse::<P>(&path, &contents)?;
    if let Some(same) = existing.iter().find(|l| l.case == case) {
        return Ok(Appended::AlreadyPresent(same.row.name.clone()));
    }
    let taken: HashSet<&str> = existing.iter().map(|l| l.row.name.as_str()).collect();
    row.name = unused_name(&row.name, |n| taken.contains(n));
    // The file's own column order (any order is allowed), or ours for a new file.
    let header: Vec<String> = if contents.is_empty() {
        COLUMNS.iter().map(|c| c.to_string()).collect()
    } else {
        csv::Reader::from_reader(contents.as_slice())
            .headers()
            .with_context(|| format!("{}: line 1: reading the header", path.display()))?
            .iter()
            .map(str::to_string)
            .collect()
    };
    // A file from before bug signatures takes the column with its first
    // signed row: every row so far gets an empty one.
    let (header, contents) =
        if !header.iter().any(|c| c == "signature") && !row.signature.is_empty() {
            with_signature_column(&path, header, &contents)?
        } else {
            (header, contents)
        };
    let field = |column: &str| match column {
        "name" => row.name.clone(),
        "input" => row.input.clone(),
        "expected" => row.expected.clone(),
        "origin" => row.origin.to_string(),
        "signature" => row.signature.clone(),
        _ => row.note.clone(),
    };
    let mut bytes = contents;
    // A hand-edited file may lack its final newline: do not glue the row onto
    // its last line.
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    if bytes.is_empty() {
        writer.write_record(&header)?;
    }
    writer.write_record(header.iter().map(|c| field(c)))?;
    bytes.extend(writer.into_inner().context("flushing the CSV row")?);
    replace_file(&path, &dir, &bytes, permissions)?;
    // The row is in the file now; a directory that cannot be synced (some file
    // systems refuse) must not make it look unsaved.
    let _ = lock.sync_all();
    Ok(Appended::Written(row.name))
}

/// A corpus file's header and contents with an empty `signature` column
/// added to every row.
fn with_signature_column(
    path: &Path,
    mut header: Vec<String>,
    contents: &[u8],
) -> Result<(Vec<String>, Vec<u8>)> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(contents);
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    header.push("signature".to_string());
    writer.write_record(&header)?;
    for record in reader.records() {
        let mut record = record.with_context(|| format!("reading {}", path.display()))?;
        record.push_field("");
        writer.write_record(&record)?;
    }
    let bytes = writer.into_inner().context("flushing the CSV rows")?;
    Ok((header, bytes))
}

/// The directory of a corpus file, when it exists and is not read-only.
pub(super) fn writable_dir(path: &Path) -> Result<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "the corpus directory {} does not exist (create it, or name another with --corpus)",
            dir.display()
        );
    }
    if fs::metadata(&dir)?.permissions().readonly() {
        bail!("the corpus directory {} is read-only", dir.display());
    }
    Ok(dir)
}

/// Checks that a row could be appended to `path` now: the file loads (a
/// missing one counts as empty), and the file can be *replaced* the way an
/// append replaces it. The check does what an append does, under the same
/// lock: it writes the file's own bytes to a temporary file beside it and
/// renames that over it (or, for a missing file, creates one and removes it
/// again). A file that can be read but not replaced (an immutable one, say)
/// fails here, before a night's findings go to fallback files. Returns the
/// number of rows.
pub fn check_writable<P: Puzzle>(path: &Path) -> Result<usize> {
    let dir = writable_dir(path)?;
    let lock = fs::File::open(&dir).with_context(|| format!("opening {}", dir.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", dir.display()))?;
    match fs::read(path) {
        Ok(bytes) => {
            let permissions = fs::metadata(path)?.permissions();
            if permissions.readonly() {
                bail!("{} is read-only", path.display());
            }
            let rows = parse::<P>(path, &bytes)?.len();
            replace_file(path, &dir, &bytes, Some(permissions)).with_context(|| {
                format!("{} cannot be replaced, as an append must", path.display())
            })?;
            Ok(rows)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            replace_file(path, &dir, b"", None)
                .with_context(|| format!("{} cannot be created", path.display()))?;
            fs::remove_file(path)
                .with_context(|| format!("removing the probe {}", path.display()))?;
            Ok(0)
        }
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over
/// `path` (the caller holds the directory's lock, so one temporary name serves).
pub(super) fn replace_file(
    path: &Path,
    dir: &Path,
    bytes: &[u8],
    permissions: Option<fs::Permissions>,
) -> Result<()> {
    let file_name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    let temporary = dir.join(format!(".{}.tmp", file_name.to_string_lossy()));
    let written = (|| -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        if let Some(permissions) = permissions {
            fs::set_permissions(&temporary, permissions)?;
        }
        fs::rename(&temporary, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// Writes `bytes` to `path` whole or not at all (a temporary file beside it,
/// renamed over it): a saved input is never half-written.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    // A device or a pipe (`--save /dev/null`) is written to, never
    // renamed over: a rename would put a plain file where the device was.
    if fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return fs::File::options()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(|| format!("writing {}", path.display()));
    }
    let file_name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    // A name of this process's own: two runs saving to one path at once
    // each rename a whole file, never a mix of both.
    let temporary = path.with_file_name(format!(
        ".{}.{}.tmp",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| -> std::io::Result<()> {
        let mut file = fs::File::options()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temporary);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// Where fallback files go: one directory per user under the system's
/// temporary directory, readable by that user alone (`lockstep-findings-UID`).
pub fn fallback_dir() -> PathBuf {
    std::env::temp_dir().join(format!(
        "lockstep-findings-{}",
        nix::unistd::getuid().as_raw()
    ))
}

/// Saves a row that could not be appended where it belongs as a corpus file of
/// its own (header and row) under the system's temporary directory, so that a
/// finding survives a read-only or broken corpus. Returns the file's path.
pub fn save_fallback<P: Puzzle>(row: &Row) -> Result<PathBuf> {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = fallback_dir();
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("creating {}", dir.display()))?;
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let path = dir.join(format!(
        "{}-{seconds}-{}-{}.csv",
        P::MODULE,
        std::process::id(),
        COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    writer.serialize(row)?;
    let bytes = writer.into_inner().context("flushing the CSV row")?;
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// Where a finding's row ended up ([`record`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Appended to the corpus file under this name.
    Appended { path: PathBuf, name: String },
    /// The corpus file already holds the same case under this name.
    AlreadyPresent { path: PathBuf, name: String },
    /// Not in the corpus: why, and the fallback file that holds the row (or why
    /// even that failed; the row was then only printed).
    Unsaved {
        puzzle: &'static str,
        path: PathBuf,
        error: String,
        fallback: Result<PathBuf, String>,
    },
}

impl Recorded {
    /// True when the row is in the corpus file (appended now or before).
    pub fn in_corpus(&self) -> bool {
        !matches!(self, Recorded::Unsaved { .. })
    }
}

impl fmt::Display for Recorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recorded::Appended { path, name } => {
                write!(f, "appended row {name:?} to {}", path.display())
            }
            Recorded::AlreadyPresent { path, name } => write!(
                f,
                "{} already holds this case (row {name:?}); not appended",
                path.display()
            ),
            Recorded::Unsaved {
                puzzle,
                path,
                error,
                fallback,
            } => {
                write!(
                    f,
                    "could not append the row to {}: {error}; ",
                    path.display()
                )?;
                match fallback {
                    Ok(saved) => write!(
                        f,
                        "the row is saved in {} (`lockstep import {puzzle} {} --corpus {}` appends it once the corpus can take it)",
                        saved.display(),
                        saved.display(),
                        path.parent().map_or_else(|| ".".into(), |d| d.display().to_string())
                    ),
                    Err(e) => write!(
                        f,
                        "saving it elsewhere failed too ({e}): copy the row printed above"
                    ),
                }
            }
        }
    }
}

/// Records a finding's row: appended to `dir`'s corpus file for the puzzle, or,
/// when that cannot be done, saved to a fallback file. A finding is never lost
/// for want of a writable corpus; the caller prints the result.
pub fn record<P: Puzzle>(dir: &Path, row: Row) -> Recorded {
    let path = path_for::<P>(dir);
    match append::<P>(&path, row.clone()) {
        Ok(Appended::Written(name)) => Recorded::Appended { path, name },
        Ok(Appended::AlreadyPresent(name)) => Recorded::AlreadyPresent { path, name },
        Err(e) => Recorded::Unsaved {
            puzzle: P::NAME,
            path,
            error: format!("{e:#}"),
            fallback: save_fallback::<P>(&row).map_err(|e| format!("{e:#}")),
        },
    }
}

/// `name`, or the first of `name-2`, `name-3`, ... that is not `taken`: a
/// file's row names stay unique (the corpus on append, triage's example
/// files).
pub fn unused_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(name) {
        return name.to_string();
    }
    (2..)
        .map(|i| format!("{name}-{i}"))
        .find(|n| !taken(n))
        .expect("an unused suffix exists")
}

#[cfg(test)]
mod device_tests {
    /// Saving to /dev/null leaves it the device it was (a rename over it,
    /// as root, once replaced it with a plain file).
    #[test]
    fn a_device_is_written_to_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let null = std::path::Path::new("/dev/null");
        super::write_whole(null, b"thrown away").unwrap();
        let kind = std::fs::metadata(null).unwrap().file_type();
        assert!(kind.is_char_device(), "/dev/null is now {kind:?}");
    }
}
