//! Why the harness could not do what it was asked: a setting it cannot
//! read, bytes or text that make no case, a certificate that does not read.
//! A disagreement between core and reference is never an error here (that
//! is a finding).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarnessError {
    /// `LOCKSTEP_LIMITS` holds a value lockstep cannot read.
    Setting(String),
    /// Bytes or text that do not make a case: why.
    Unreadable(String),
    /// A recorded certificate that does not read: where, and what.
    Certificate(String),
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::Setting(m)
            | HarnessError::Unreadable(m)
            | HarnessError::Certificate(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for HarnessError {}
