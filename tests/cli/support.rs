//! Helpers shared by the test modules: running the `lockstep` binary, reading its
//! output, scratch directories, and campaign options for tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `lockstep` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_lockstep");

/// The Python interpreter that `python3` on the PATH names, as its own
/// file (`sys.executable`): found once, by asking it.
pub fn python() -> &'static Path {
    static PYTHON: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs (the fixtures are Python programs)");
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// The PATH the binary runs with: the PATH, with the directory of the
/// interpreter `python3` names first. A version manager's `python3` is a
/// shim that finds the interpreter on every start (pyenv's takes 75 ms,
/// more than most fixtures run), and the fixtures start thousands of times.
fn fixture_path() -> &'static std::ffi::OsString {
    static PATH: std::sync::OnceLock<std::ffi::OsString> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let mut dirs: Vec<PathBuf> = python()
            .parent()
            .map(Path::to_path_buf)
            .into_iter()
            .collect();
        if let Some(path) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&path));
        }
        std::env::join_paths(dirs).expect("the PATH joins")
    })
}

/// `lockstep` as a command, its children finding the fixtures' `python3`
/// at once ([`fixture_path`]).
pub fn bin() -> Command {
    let mut command = Command::new(BIN);
    command.env("PATH", fixture_path());
    command
}

/// Runs `lockstep ARGS` from the source tree with `stdin` as its input.
pub fn lockstep(args: &[&str], stdin: &str) -> Output {
    let mut child = bin()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lockstep binary starts");
    // A run that exits before it reads its input (a usage error) closes
    // the pipe: that is its answer, not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// A `lockstep` command line built a flag at a time, so that tests do not
/// each repeat an argument array: `cli("stress new-game2").flag("--seed",
/// 3).arg("--keep-going").run()`. Runs from the source tree, with an empty
/// stdin unless [`Cmd::stdin`] says otherwise.
#[derive(Debug, Clone, Default)]
pub struct Cmd {
    args: Vec<String>,
    stdin: String,
}

/// The stdout of a run that must have exited 0 (its stderr shown if not).
#[track_caller]
pub fn passed(out: &Output) -> String {
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    stdout
}

/// Asserts that `text` holds every one of `needles`, showing the whole
/// text when one is missing.
#[track_caller]
pub fn has(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} is missing from:\n{text}");
    }
}

/// [`Cmd`] starting with the words of `command` (`"stress any"`).
pub fn cli(command: &str) -> Cmd {
    Cmd {
        args: command.split_whitespace().map(str::to_string).collect(),
        ..Cmd::default()
    }
}

impl Cmd {
    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Cmd {
        self.args.push(arg.as_ref().to_string_lossy().into_owned());
        self
    }

    /// Several more arguments.
    pub fn args(mut self, args: impl IntoIterator<Item = String>) -> Cmd {
        self.args.extend(args);
        self
    }

    /// A flag and its value.
    pub fn flag(self, flag: &str, value: impl std::fmt::Display) -> Cmd {
        self.arg(flag).arg(value.to_string())
    }

    /// What the program reads on stdin.
    pub fn stdin(mut self, text: &str) -> Cmd {
        self.stdin = text.to_string();
        self
    }

    /// The arguments, for a test that runs them some other way.
    pub fn words(&self) -> &[String] {
        &self.args
    }

    /// What it reads on stdin, for a test that runs it some other way.
    pub fn input(&self) -> &str {
        &self.stdin
    }

    /// Runs it to the end, from the source tree.
    pub fn run(&self) -> Output {
        self.run_in(Path::new(env!("CARGO_MANIFEST_DIR")))
    }

    /// Runs it to the end, from `dir`.
    pub fn run_in(&self, dir: &Path) -> Output {
        let mut child = bin()
            .args(&self.args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the lockstep binary starts");
        let mut stdin = child.stdin.take().unwrap();
        let text = self.stdin.clone();
        // Written from a thread: a program that prints before it reads all of
        // a long stdin would otherwise wait on us while we wait on it.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
        let out = child.wait_with_output().unwrap();
        let _ = writer.join();
        out
    }
}

/// A `lockstep stress` run that saves its minimal input to `dir/NAME`: the
/// command (`words`: the command's first words, `programs`: flags and
/// their commands, `extra`: more arguments), and what it saved.
/// Tests that are not about time give the solution 20 s: a loaded machine
/// (CI's two cores running the other tests) can keep a Python program past
/// the 2 s default, turning a WA into a TLE and a shrink's candidates into
/// another failure.
pub fn stress_saving(
    words: &str,
    programs: &[(&str, String)],
    extra: &[&str],
    (dir, name): (&Path, &str),
) -> (Output, Option<String>, Option<String>) {
    let save = dir.join(name);
    let transcript = dir.join(format!("{name}.transcript"));
    // A file from an earlier run in the same directory must not pass for
    // this run's.
    let _ = std::fs::remove_file(&save);
    let _ = std::fs::remove_file(&transcript);
    let mut command = cli(words).flag("--save", save.display());
    for (flag, program) in programs {
        command = command.flag(flag, program);
    }
    command = command.args(extra.iter().map(|a| a.to_string()));
    if !extra.contains(&"--timeout-ms") {
        command = command.flag("--timeout-ms", 20000);
    }
    let out = command.run();
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    (out, read(&save), read(&transcript))
}

/// Asserts that a run found something (exit code 1); its stdout and stderr.
#[track_caller]
pub fn found(out: &Output) -> (String, String) {
    exited(out, 1, "")
}

/// Asserts that a run exited with `code`; its stdout and stderr (shown
/// after `context` if not).
#[track_caller]
pub fn exited(out: &Output, code: i32, context: impl std::fmt::Display) -> (String, String) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "{context}{stdout}{stderr}");
    (stdout, stderr)
}

/// The directory `dir`, made with its parents.
pub fn made(dir: PathBuf) -> PathBuf {
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first line of `text` that starts with `start`.
#[track_caller]
pub fn line_starting<'a>(text: &'a str, start: &str) -> &'a str {
    let line = text.lines().find(|l| l.starts_with(start));
    line.unwrap_or_else(|| panic!("no line starts with {start:?} in:\n{text}"))
}

/// `path`, written with `text` (a test's script or data file).
pub fn written(path: PathBuf, text: impl AsRef<[u8]>) -> PathBuf {
    std::fs::write(&path, text).unwrap();
    path
}

/// A path of the repository, as a string.
pub fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that a run failed as a usage or input error (exit code 2) with a
/// message containing `needle`; returns its stderr for further checks.
#[track_caller]
pub fn fails_with(out: &Output, needle: &str) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "expected {needle:?} in: {stderr}");
    stderr
}

#[path = "../common/scratch.rs"]
mod scratch;
pub use scratch::scratch;

#[path = "../common/campaign.rs"]
mod campaign;
pub use campaign::campaign_options;

/// The shipped corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Processes that have `tag` as one of their arguments, from /proc. (lockstep's
/// own command line holds the tag inside a longer `--cmd` argument: not counted.)
/// [`processes_with`] once they have had time to go: polled until none is
/// left or ten seconds have passed. A busy machine is slow to deliver a
/// kill and reap its process, which a fixed pause before one count turned
/// into a failure; a process really left behind still fails the test.
pub fn processes_left_with(tag: &str) -> usize {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left = processes_with(tag);
        if left == 0 || std::time::Instant::now() >= until {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

pub fn processes_with(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| cmdline.split(|&b| b == 0).any(|arg| arg == tag.as_bytes()))
        .count()
}

/// A `lockstep` the test started and talks to while it runs: stopped with
/// SIGTERM (so that it kills every program it started) and then SIGKILL,
/// and reaped, if the test ends before it does, a failed assertion
/// included. A test that panicked must not leave a run going for hours.
pub struct Spawned(Option<std::process::Child>);

impl Spawned {
    pub fn new(child: std::process::Child) -> Spawned {
        Spawned(Some(child))
    }

    pub fn id(&self) -> u32 {
        self.0.as_ref().expect("running").id()
    }

    /// Waits for it to end by itself: its status and output.
    pub fn wait_with_output(mut self) -> Output {
        let child = self.0.take().expect("running");
        child.wait_with_output().expect("the child is reaped")
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let Some(mut child) = self.0.take() else {
            return;
        };
        if child.try_wait().is_ok_and(|s| s.is_some()) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < deadline {
            if child.try_wait().is_ok_and(|s| s.is_some()) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}
