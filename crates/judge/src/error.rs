//! Why the judge could not do its job. A program under test that fails is
//! never an error here (that is its [`Verdict`](crate::Verdict)); these are
//! the user's tools, files and settings, a variant each kind, so that a
//! caller can tell a compile error from a tool that failed, each carrying
//! the words the user reads.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum JudgeError {
    /// A source did not compile (CE): the compile line and the compiler's
    /// first lines.
    Compile(String),
    /// A file lockstep could not read or write.
    File {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The build cache could not hold a build.
    Cache(String),
    /// The languages file (or a setting on the command line) says
    /// something lockstep cannot use: where, and what.
    Setting(String),
    /// A program failed its start-up check: it does not start, or does not
    /// end on an empty input within its limits.
    Startup(String),
    /// One of the user's tools failed: a checker, an interactor, a
    /// generator, a brute force, a validator, or the mutator.
    Tool(String),
}

impl JudgeError {
    /// The error of reading or writing `path`.
    pub fn file(path: impl Into<PathBuf>, error: std::io::Error) -> JudgeError {
        JudgeError::File {
            path: path.into(),
            error,
        }
    }
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::File { path, error } => write!(f, "{}: {error}", path.display()),
            JudgeError::Compile(m)
            | JudgeError::Cache(m)
            | JudgeError::Setting(m)
            | JudgeError::Startup(m)
            | JudgeError::Tool(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for JudgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JudgeError::File { error, .. } => Some(error),
            _ => None,
        }
    }
}
