//! Source files as programs. A value of `--cmd` (or of any flag that names
//! a program: `--gen`, `--brute`, `--validator`, `--checker`, the duel's bot
//! commands) that names a source file in a known language is compiled once
//! into lockstep's cache ([`build`]) and run as a judge runs it, with the
//! language's time multiplier (not for a duel's bots: the game's time is
//! one of its rules, see `cli::duel`). This module holds the one table of languages:
//! their extensions, compile and run lines and time multipliers, the
//! defaults, and the user's overrides read from a file of the same format
//! as `lockstep languages` prints.
//!
//! Why a file and not flags: the table is the user's machine's (which
//! compiler, which flags), the same for every command and every run, and
//! every command that runs programs would otherwise need the same flags.

use std::path::{Path, PathBuf};

pub mod build;

use crate::JudgeError;

pub use build::{resolve_program, Runnable};

/// One language of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Language {
    /// The table's name for it, as in the file's `[name]`.
    pub name: String,
    /// File name endings, without the dot.
    pub extensions: Vec<String>,
    /// The compile line (`None`: nothing to compile).
    pub compile: Option<String>,
    /// The run line.
    pub run: String,
    /// The time multiplier: the program's time limit is `--timeout-ms`
    /// times this.
    pub time: f64,
}

/// The defaults: what Codeforces-like judges run (C and C++ with
/// `ONLINE_JUDGE` defined, Java with a 64 MB stack and the serial collector,
/// Python 3 with a syntax check for a compile step). Time multipliers after
/// the judges that give slower languages more time: Java x2, Python x3.
const DEFAULTS: &str = "\
[c]
extensions = c
compile = gcc -std=gnu17 -O2 -pipe -DONLINE_JUDGE -o {exe} {src} -lm
run = {exe}
time = 1

[cpp]
extensions = cpp cc cxx c++
compile = g++ -std=gnu++20 -O2 -pipe -DONLINE_JUDGE -o {exe} {src}
run = {exe}
time = 1

[java]
extensions = java
compile = javac -encoding UTF-8 -d {dir} {src}
run = java -Xss64m -XX:+UseSerialGC -cp {dir} {name}
time = 2

[python]
extensions = py
compile = python3 -c \"import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\" {src}
run = python3 {src}
time = 3

[rust]
extensions = rs
compile = rustc --edition 2021 -O -o {exe} {src}
run = {exe}
time = 1
";

/// The time multipliers a language may have. Judges give from 1 to about 5;
/// past 100 a limit is no limit, and below 0.01 every run is a timeout,
/// so either is a typo (and `1e300` would overflow a time limit).
pub const TIME_FACTORS: std::ops::RangeInclusive<f64> = 0.01..=100.0;

/// The placeholders of compile and run lines.
pub const PLACEHOLDERS: &str = "{src} the source file, {dir} its build directory in the cache, \
{name} the file name without its extension, {exe} {dir}/{name}";

/// The table of languages in force.
#[derive(Debug, Clone)]
pub struct Languages {
    pub list: Vec<Language>,
    /// The overrides file, and whether it was there to read.
    pub file: PathBuf,
    pub file_read: bool,
}

/// The overrides file: `$LOCKSTEP_LANGUAGES`, else
/// `$XDG_CONFIG_HOME/lockstep/languages.conf`, else
/// `~/.config/lockstep/languages.conf`.
pub fn languages_file() -> PathBuf {
    if let Some(file) = std::env::var_os("LOCKSTEP_LANGUAGES") {
        return PathBuf::from(file);
    }
    user_dir("XDG_CONFIG_HOME", ".config").join("lockstep/languages.conf")
}

/// lockstep's cache: `$LOCKSTEP_CACHE_DIR`, else `$XDG_CACHE_HOME/lockstep`,
/// else `~/.cache/lockstep`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOCKSTEP_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    user_dir("XDG_CACHE_HOME", ".cache").join("lockstep")
}

/// `$VAR` when set to an absolute path (the XDG rule), else `~/FALLBACK`.
fn user_dir(var: &str, fallback: &str) -> PathBuf {
    match std::env::var_os(var).map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => std::env::var_os("HOME")
            .map_or_else(std::env::temp_dir, PathBuf::from)
            .join(fallback),
    }
}

impl Languages {
    /// The defaults, then the overrides file when there is one.
    pub fn load() -> Result<Languages, JudgeError> {
        let file = languages_file();
        let mut languages = Languages::defaults(file.clone());
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                languages.file_read = true;
                languages.apply(&text, &file)?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(JudgeError::file(&file, e)),
        }
        Ok(languages)
    }

    /// The defaults alone.
    pub fn defaults(file: PathBuf) -> Languages {
        let mut languages = Languages {
            list: Vec::new(),
            file,
            file_read: false,
        };
        languages
            .apply(DEFAULTS, Path::new("(defaults)"))
            .expect("the defaults read");
        languages
    }

    /// Applies a file of the table's format: each `[name]` section changes
    /// that language's keys, or adds it (with at least `extensions` and
    /// `run`). Errors name the file and line.
    pub fn apply(&mut self, text: &str, path: &Path) -> Result<(), JudgeError> {
        self.apply_lines(text, path).map_err(JudgeError::Setting)
    }

    /// [`Languages::apply`], its error in words.
    fn apply_lines(&mut self, text: &str, path: &Path) -> Result<(), String> {
        let at = |line: usize| format!("{}: line {line}", path.display());
        let mut current: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let name = name.trim();
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    return Err(format!("{}: {name:?} is not a language name", at(i + 1)));
                }
                current = Some(match self.list.iter().position(|l| l.name == name) {
                    Some(index) => index,
                    None => {
                        self.list.push(Language {
                            name: name.to_string(),
                            extensions: Vec::new(),
                            compile: None,
                            run: String::new(),
                            time: 1.0,
                        });
                        self.list.len() - 1
                    }
                });
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(format!("{}: expected KEY = VALUE or [language]", at(i + 1)));
            };
            let Some(index) = current else {
                return Err(format!(
                    "{}: {} comes before any [language]",
                    at(i + 1),
                    key.trim()
                ));
            };
            let (key, value) = (key.trim(), value.trim());
            let language = &mut self.list[index];
            match key {
                "extensions" => {
                    language.extensions = value
                        .split_whitespace()
                        .map(|e| e.trim_start_matches('.').to_string())
                        .collect();
                }
                "compile" => language.compile = (!value.is_empty()).then(|| value.to_string()),
                "run" => language.run = value.to_string(),
                "time" => {
                    language.time = value
                        .parse::<f64>()
                        .ok()
                        .filter(|t| TIME_FACTORS.contains(t))
                        .ok_or_else(|| {
                            format!(
                                "{}: time must be a number from {} to {}, found {value:?}",
                                at(i + 1),
                                TIME_FACTORS.start(),
                                TIME_FACTORS.end()
                            )
                        })?;
                }
                _ => {
                    return Err(format!(
                        "{}: unknown key {key:?} (the keys are extensions, compile, run, time)",
                        at(i + 1)
                    ))
                }
            }
        }
        match self
            .list
            .iter()
            .find(|l| l.extensions.is_empty() || l.run.is_empty())
        {
            Some(l) => Err(format!(
                "{}: [{}] needs extensions and a run line",
                path.display(),
                l.name
            )),
            None => Ok(()),
        }
    }

    /// The language of a file, by its extension (the later of two that
    /// claim one: an override's).
    pub fn of_path(&self, path: &Path) -> Option<&Language> {
        let ext = path.extension()?.to_str()?;
        self.list
            .iter()
            .rev()
            .find(|l| l.extensions.iter().any(|e| e == ext))
    }
}

/// The table in the overrides file's own format, with where it comes from:
/// `lockstep languages`, ready to be copied into the file and edited.
impl std::fmt::Display for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "# lockstep's languages: the defaults{}",
            if self.file_read {
                format!(", with the overrides of {}", self.file.display())
            } else {
                format!(
                    " ({} overrides them; it does not exist)",
                    self.file.display()
                )
            }
        )?;
        writeln!(
            f,
            "# the overrides file: $LOCKSTEP_LANGUAGES, else $XDG_CONFIG_HOME/lockstep/languages.conf, else ~/.config/lockstep/languages.conf"
        )?;
        writeln!(f, "# placeholders: {PLACEHOLDERS}")?;
        writeln!(
            f,
            "# builds are cached in {} (LOCKSTEP_CACHE_DIR moves it)",
            cache_dir().join("build").display()
        )?;
        writeln!(
            f,
            "# time: the multiplier of --timeout-ms for a program in the language ({} to {})",
            TIME_FACTORS.start(),
            TIME_FACTORS.end()
        )?;
        for l in &self.list {
            writeln!(f, "\n[{}]", l.name)?;
            writeln!(f, "extensions = {}", l.extensions.join(" "))?;
            writeln!(f, "compile = {}", l.compile.as_deref().unwrap_or(""))?;
            writeln!(f, "run = {}", l.run)?;
            writeln!(f, "time = {}", l.time)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
