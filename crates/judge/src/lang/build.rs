//! A source file made runnable: compiled once into the cache, keyed by the
//! language, its compile line, the source's file name and its bytes, so
//! that a second run of the same source (in any directory, by any command)
//! compiles nothing.
//!
//! A build goes to a fresh directory of its own and is renamed into place
//! when it is whole: two lockstep processes building the same source at once
//! both succeed (the second rename loses and its copy is removed), and a
//! build killed half-way leaves no entry that looks finished (its `.new-*`
//! directory is removed by a later compile, once older than a compile may
//! take). A compile
//! error is not cached: the next run shows it again.

use super::{cache_dir, Language, Languages};
use crate::JudgeError;
use lockstep_process::{execute_keeping, Kept, ProgramEnd, Resources, STDERR_KEPT};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What runs for one program flag: its command line, and what lockstep
/// knows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Runnable {
    /// The command line to run (a compiled program's, or the value as given).
    pub command: String,
    /// The source's language, when the value named a source.
    pub language: Option<String>,
    /// The language's time multiplier (1 for a command).
    pub time_factor: f64,
    /// What was done to make it, for the banner (`None` for a command).
    pub made: Option<String>,
}

impl Runnable {
    /// A command run as given.
    pub fn command(value: &str) -> Runnable {
        Runnable {
            command: value.to_string(),
            language: None,
            time_factor: 1.0,
            made: None,
        }
    }

    /// `time` times the language's multiplier, at most `Duration::MAX` (a
    /// limit past that is none: `--timeout-ms 18446744073709551615` on a
    /// Python source must not overflow).
    pub fn scaled(&self, time: Duration) -> Duration {
        Duration::try_from_secs_f64(time.as_secs_f64() * self.time_factor).unwrap_or(Duration::MAX)
    }
}

/// How long a compile may take.
const COMPILE_TIME: Duration = Duration::from_secs(120);

/// Lines of the compiler's output a compile error shows.
const COMPILE_ERROR_LINES: usize = 12;

/// The file a whole build leaves in its directory.
const BUILT: &str = ".built";

/// The source a program flag's value names, with the words after it (given
/// to the program): the whole value when it is a file, else its first word
/// when the value has no shell syntax; `None` for a command (a file of no
/// known language is run as a command too).
fn source_in<'a>(value: &str, languages: &'a Languages) -> Option<(PathBuf, &'a Language, String)> {
    let whole = Path::new(value.trim());
    if whole.is_file() {
        return Some((
            whole.to_path_buf(),
            languages.of_path(whole)?,
            String::new(),
        ));
    }
    let words = lockstep_process::program_words(value);
    if words.first().is_some_and(|w| w == "sh") && words.len() == 3 && words[2] == value {
        return None;
    }
    let first = Path::new(words.first()?);
    (first.is_file())
        .then(|| languages.of_path(first))
        .flatten()
        .map(|language| {
            // Each word as it was read: `sol.py 'a b'` gives one argument.
            let args: Vec<String> = words[1..].iter().map(word).collect();
            (first.to_path_buf(), language, args.join(" "))
        })
}

/// FNV-1a, 64 bits: a stable key for a build (std's hasher may change
/// between Rust versions, and the cache outlives a toolchain).
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part.iter().chain(&[0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// A path (or any word) as one word of a command line: as it is when it
/// needs no quoting, in single quotes otherwise, which lockstep reads
/// itself (`process::program_words`), so that the line still runs without
/// a shell unless the path holds a quote.
fn word(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    let text = path.display().to_string();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@".contains(c));
    if plain {
        text
    } else {
        lockstep_process::quoted(path)
    }
}

/// A compile or run line with its placeholders filled in, each one word.
fn expand(line: &str, source: &Path, dir: &Path) -> String {
    let name = source
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    line.replace("{src}", &word(source))
        .replace("{dir}", &word(dir))
        .replace("{exe}", &word(dir.join(&name)))
        .replace("{name}", &word(&name))
}

/// The command for a program flag's value: compiled first when it names a
/// source (see `source_in`). An error is one to stop on: a compile error
/// (CE, with the compiler's first lines), or a build that could not be made.
pub fn resolve_program(value: &str, languages: &Languages) -> Result<Runnable, JudgeError> {
    let Some((source, language, args)) = source_in(value, languages) else {
        return Ok(Runnable::command(value));
    };
    let source = std::fs::canonicalize(&source).map_err(|e| JudgeError::file(&source, e))?;
    let (dir, made) = build(&source, language)?;
    let mut command = expand(&language.run, &source, &dir);
    if !args.is_empty() {
        command = format!("{command} {args}");
    }
    Ok(Runnable {
        command,
        language: Some(language.name.clone()),
        time_factor: language.time,
        made: Some(format!("{}, {made}", language.name)),
    })
}

/// `source` built in `dir` (which it owns), not in the cache: for the many
/// one-off sources of a mutant run, each built once and thrown away. The
/// error is a compile error (CE, with the compiler's first lines) or a build
/// that could not be made.
pub fn build_in(source: &Path, language: &Language, dir: &Path) -> Result<Runnable, JudgeError> {
    compile_into(source, language, dir)?;
    Ok(Runnable {
        command: expand(&language.run, source, dir),
        language: Some(language.name.clone()),
        time_factor: language.time,
        made: Some(format!("{}, built in {}", language.name, dir.display())),
    })
}

/// The key of a build: what its directory's contents depend on. The file
/// name without its extension is part of it because `{exe}` and `{name}`
/// are made from it: `sol.cpp` copied to `brute.cpp` builds `DIR/brute`,
/// which the build of `sol.cpp` does not hold. The directory the source
/// is in is not: the same file anywhere is the same build.
fn build_key(language: &Language, source: &Path, bytes: &[u8]) -> u64 {
    let compile = language.compile.as_deref().unwrap_or("");
    let stem = source.file_stem().map_or(&[][..], |s| s.as_encoded_bytes());
    fnv(&[language.name.as_bytes(), compile.as_bytes(), stem, bytes])
}

/// The build directory of `source`, compiled now or found in the cache, and
/// which it was.
fn build(source: &Path, language: &Language) -> Result<(PathBuf, String), JudgeError> {
    let bytes = std::fs::read(source).map_err(|e| JudgeError::file(source, e))?;
    let compile = language.compile.as_deref().unwrap_or("");
    let key = build_key(language, source, &bytes);
    let builds = cache_dir().join("build");
    let dir = builds.join(format!("{}-{key:016x}", language.name));
    if dir.join(BUILT).is_file() {
        return Ok((dir.clone(), format!("built before ({})", dir.display())));
    }
    let made =
        |e: std::io::Error| JudgeError::Cache(format!("the build cache {}: {e}", builds.display()));
    std::fs::create_dir_all(&builds).map_err(made)?;
    remove_stale(&builds, COMPILE_TIME);
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let fresh = builds.join(format!(".new-{}-{n}-{key:016x}", std::process::id()));
    std::fs::create_dir(&fresh).map_err(made)?;
    let start = Instant::now();
    let compiled = compile_into(source, language, &fresh);
    let took = start.elapsed();
    if let Err(e) = compiled {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    std::fs::write(fresh.join(BUILT), compile).map_err(made)?;
    if std::fs::rename(&fresh, &dir).is_err() {
        // Another lockstep built the same source at the same time: its
        // build is as good as this one.
        let _ = std::fs::remove_dir_all(&fresh);
        if !dir.join(BUILT).is_file() {
            return Err(JudgeError::Cache(format!(
                "could not put the build of {} in the cache at {}",
                source.display(),
                dir.display()
            )));
        }
    }
    let what = if language.compile.is_some() {
        format!(
            "compiled in {:.2} s into {}",
            took.as_secs_f64(),
            dir.display()
        )
    } else {
        "nothing to compile".to_string()
    };
    Ok((dir, what))
}

/// Removes the half-made builds (`.new-*`) under `builds` older than `age`:
/// those of a lockstep killed while it compiled (by a signal, or the
/// machine's end), which nothing else would ever remove. A build in the
/// making is younger: a compile is killed at [`COMPILE_TIME`], and what it
/// writes keeps its directory's time fresh. What cannot be removed stays
/// (another user's, say); a build needs none of them gone.
fn remove_stale(builds: &Path, age: Duration) {
    let Ok(entries) = std::fs::read_dir(builds) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(".new-")
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|old| old > age));
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Runs the language's compile line into `dir`; a compile error says CE,
/// the line, and the compiler's first lines.
fn compile_into(source: &Path, language: &Language, dir: &Path) -> Result<(), JudgeError> {
    let Some(line) = &language.compile else {
        return Ok(());
    };
    let line = expand(line, source, dir);
    // The start of stderr: a compiler's first errors are the ones to show,
    // and a long C++ error's last 64 KiB are template instantiation notes.
    let run = execute_keeping(
        &line,
        "",
        // A compiler's threads may spend more CPU than wall time: its limit
        // is the wall's alone.
        Resources {
            time: Duration::MAX,
            wall: COMPILE_TIME,
            ..Resources::new(COMPILE_TIME, 1 << 20)
        },
        Kept::Start,
    )
    .map_err(|e| JudgeError::Compile(format!("cannot run the compile line `{line}`: {e}")))?;
    let failed = match run.ending {
        ProgramEnd::Exited(status) if status.success() => return Ok(()),
        ProgramEnd::Exited(status) => crate::describe_status(status),
        ProgramEnd::TimeLimit | ProgramEnd::WallLimit => {
            format!("still compiling after {} s", COMPILE_TIME.as_secs())
        }
        ProgramEnd::OutputLimit | ProgramEnd::MemoryLimit => {
            "its output ran past 1 MiB".to_string()
        }
    };
    let said = format!("{}{}", run.stderr, run.stdout);
    let lines: Vec<&str> = said.lines().collect();
    let mut shown: String = lines
        .iter()
        .take(COMPILE_ERROR_LINES)
        .map(|l| format!("    {}\n", lockstep_text::clip(l, 200)))
        .collect();
    if lines.len() > COMPILE_ERROR_LINES {
        // Past 64 KiB of stderr the rest was not kept, nor counted.
        let more = if run.stderr.len() >= STDERR_KEPT {
            " or more"
        } else {
            ""
        };
        shown.push_str(&format!("    ... ({} lines{more} in all)\n", lines.len()));
    }
    Err(JudgeError::Compile(format!(
        "CE: {} does not compile ({failed}: `{line}`):\n{}",
        source.display(),
        shown.trim_end()
    )))
}

#[cfg(test)]
mod tests;
