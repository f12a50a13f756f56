//! Scratch directories for the tests of every package: one file, included
//! by each test binary's support module (`#[path]`), since test binaries of
//! two packages share no crate of test helpers.

use std::path::{Path, PathBuf};

/// A fresh, empty directory under the system temp dir, unique to this call (the
/// process, a counter and `name`: two tests running at once that ask for the same
/// name must not remove each other's directory), removed with everything in it when the guard is dropped: when the
/// test ends, and when it fails (a panic unwinds through the drop).
pub fn scratch(name: &str) -> Scratch {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "lockstep-test-{}-{call}-{name}",
        std::process::id()
    ));
    remove_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A scratch directory ([`scratch`]); it reads as the `Path` it is.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        remove_all(&self.0);
    }
}

/// Removes a directory tree that tests may have made read-only (a corpus
/// under abuse): write permission is given back first, so that the removal
/// also works for a user who is not root.
fn remove_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fn writable(path: &Path) {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return;
        };
        if meta.file_type().is_symlink() {
            return;
        }
        let mode = meta.permissions().mode();
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode | 0o700));
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(path) {
                for entry in entries.flatten() {
                    writable(&entry.path());
                }
            }
        }
    }
    if dir.exists() {
        writable(dir);
        let _ = std::fs::remove_dir_all(dir);
    }
}
