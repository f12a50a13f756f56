//! Helpers shared by the test modules: running the `lockstep` binary, reading its
//! output, scratch directories, and campaign options for tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `lockstep` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_lockstep");

/// Runs `lockstep ARGS` from the source tree with `stdin` as its input.
pub fn lockstep(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lockstep binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
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
        let mut child = Command::new(BIN)
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

/// The judge answer to `text` of `P`'s core, asserted to be the
/// reference's too.
#[track_caller]
pub fn both_answer<P: lockstep::puzzle::Puzzle>(text: &str) -> String {
    use lockstep_core::Model;
    use lockstep_reference::Naive;
    let case = P::Case::parse(text).unwrap();
    let core = P::Case::write_answer(&case.solve().answer);
    let fuel = &mut lockstep_reference::Fuel::unlimited();
    let naive = P::Case::write_answer(&case.solve_naively(fuel).unwrap().answer);
    assert_eq!(core, naive, "core and reference disagree on\n{text}");
    core
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

/// A fresh, empty directory under the system temp dir, unique to this test run and
/// `name`, removed with everything in it when the guard is dropped: when the
/// test ends, and when it fails (a panic unwinds through the drop).
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("lockstep-test-{}-{name}", std::process::id()));
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

/// A quiet campaign on two jobs that stops after `max_cases` (the time limit is
/// only a safety net): the options the broken-core campaign tests share.
pub fn campaign_options(seed: u64, max_cases: u64) -> lockstep::campaign::CampaignOptions {
    lockstep::campaign::CampaignOptions {
        plan: lockstep::search::Plan::cases(
            seed,
            max_cases,
            2,
            lockstep::shrink::DIFFERENTIAL_BUDGET,
        ),
        stats: false,
        limits: lockstep::puzzle::CaseLimits::Wide,
    }
}

/// A campaign (seed 8, 20,000 cases) against `core`, a broken core of `P`:
/// its first finding's corpus row checked whole (the input reads back as the
/// shrunk case, the expected answer is the reference's, the note names the
/// first difference), returned with the shrunk case for the puzzle's own
/// bounds on its size.
pub fn broken_core_row<P: lockstep::puzzle::Puzzle>(
    core: lockstep::puzzle::Solver<P>,
) -> (P::Case, lockstep::corpus::Row) {
    use lockstep::corpus::{decode_for, encode_for};
    use lockstep_core::Model;
    use lockstep_reference::Naive;
    let report = lockstep::campaign::run_campaign_with::<P>(&campaign_options(8, 20_000), core);
    assert!(report.tally.failed >= 1);
    let (_, finding) = report.finding.expect("the broken core is found");
    let row = finding.row;
    let shrunk = P::Case::parse(&decode_for::<P>(&row.input)).unwrap();
    assert_eq!(shrunk, finding.shrunk.case);
    let naive = shrunk
        .solve_naively(&mut lockstep_reference::Fuel::unlimited())
        .unwrap();
    assert_eq!(
        row.expected,
        encode_for::<P>(&P::Case::write_answer(&naive.answer))
    );
    has(&row.note, &["first difference at line "]);
    (shrunk, row)
}

/// The shipped corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Processes that have `tag` as one of their arguments, from /proc. (lockstep's
/// own command line holds the tag inside a longer `--cmd` argument: not counted.)
pub fn processes_with(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| cmdline.split(|&b| b == 0).any(|arg| arg == tag.as_bytes()))
        .count()
}

/// The guard of a puzzle's planted-bug hunt: its third implementation with
/// no bug planted agrees with the reference on the first `cases` cases of
/// seed 5 (a broken third would make every planted bug "found" for the
/// wrong reason).
pub fn third_agrees<P: lockstep::puzzle::Puzzle>(
    third: impl Fn(&P::Case) -> lockstep::puzzle::Run<P::Answer>,
    cases: u64,
    fuel: u64,
) {
    use lockstep_core::Model;
    let mut buf = vec![0u8; lockstep::seeds::CASE_BYTES];
    for index in 0..cases {
        let case = lockstep::generate::generate_case::<P>(5, 0, index, &mut buf).unwrap();
        assert_eq!(
            lockstep::puzzle::check_with::<P>(&case, &third, fuel),
            lockstep::puzzle::Agreement::Agree,
            "{}",
            case.write_input()
        );
    }
}

/// A solver under test as any closure (a planted bug may capture what it needs).
pub type AnySolver<'a, P> = Box<
    dyn Fn(
            &<P as lockstep::puzzle::Puzzle>::Case,
        ) -> lockstep::puzzle::Run<<P as lockstep::puzzle::Puzzle>::Answer>
        + 'a,
>;

/// A test on a case.
pub type CaseTest<'a, P> = Box<dyn Fn(&<P as lockstep::puzzle::Puzzle>::Case) -> bool + 'a>;

/// One planted bug for [`planted_bugs`]: its name, its solver (any closure
/// over a case), and when a shrunk case counts as small.
pub struct PlantedBug<'a, P: lockstep::puzzle::Puzzle> {
    pub name: &'a str,
    pub solver: AnySolver<'a, P>,
    pub small: CaseTest<'a, P>,
}

/// How [`planted_bugs`] hunts one puzzle's bugs.
pub struct Hunt<'a, P: lockstep::puzzle::Puzzle> {
    /// The reference's fuel in the check.
    pub fuel: u64,
    /// Cases searched, from seed 2024.
    pub max_cases: u64,
    /// Findings shrunk before giving up on a small one (some robots failures
    /// shrink to local minima; the next finding may not).
    pub max_findings: usize,
    /// The cases the hunt may use (footholds: boards the reference finishes).
    pub within: &'a dyn Fn(&P::Case) -> bool,
    /// A shrunk case in a few words, for the report.
    pub describe: &'a dyn Fn(&P::Case) -> String,
}

/// The one planted-bug harness: each bug is hunted through the campaign's
/// `find_and_shrink` (the first case from seed 2024 on which it disagrees
/// with the reference, shrunk under that disagreement); the real core must
/// agree on the shrunk case, which must be small. Every bug is tried, then
/// the problems are asserted at once.
pub fn planted_bugs<P: lockstep::puzzle::Puzzle>(hunt: &Hunt<'_, P>, bugs: &[PlantedBug<'_, P>]) {
    use lockstep::puzzle::{check, check_with, Agreement};
    assert!(!bugs.is_empty(), "no planted bugs to hunt");
    let mut problems = Vec::new();
    for bug in bugs {
        let diverges = |case: &P::Case| {
            (hunt.within)(case) && check_with::<P>(case, &bug.solver, hunt.fuel).is_divergence()
        };
        let (mut next, mut findings, mut last) = (0, 0, None);
        while let Some((index, shrunk)) =
            lockstep::campaign::find_and_shrink::<P>(2024, next..hunt.max_cases, diverges)
        {
            let shrunk = shrunk.case;
            assert_eq!(
                check::<P>(&shrunk),
                Agreement::Agree,
                "{}: the real core must agree on {shrunk:?}",
                bug.name
            );
            let small = (bug.small)(&shrunk);
            findings += 1;
            next = index + 1;
            last = Some((index, shrunk));
            if small || findings == hunt.max_findings {
                break;
            }
        }
        let Some((index, shrunk)) = last else {
            problems.push(format!(
                "{}: not found in {} cases",
                bug.name, hunt.max_cases
            ));
            continue;
        };
        let shown = (hunt.describe)(&shrunk);
        println!(
            "{}: {findings} finding(s), the last from case {index}: {shown}",
            bug.name
        );
        if !(bug.small)(&shrunk) {
            problems.push(format!("{}: shrunk only to {shown}", bug.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
