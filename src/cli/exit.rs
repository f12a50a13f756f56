//! The exit codes of every lockstep command, named in one place.
//!
//! 0: the job ran and found nothing; 1: it found something (a disagreement, a
//! failing corpus row, a failing program, a bug); 2: it could not do its job
//! (bad arguments, unreadable input, a file it could not write). A script
//! tells "found" from "broken" by the code alone. A command stopped by a
//! signal exits with 128 + the signal (130 for Ctrl-C), as a shell reports
//! it, after saying what it had done.

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the job ran and found nothing.
    Clean,
    /// 1: the job found something.
    Found,
    /// 2: the job could not be done.
    Error,
    /// 128 + the signal: stopped by it, after reporting what it had done.
    Stopped(i32),
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> i32 {
        match self {
            Exit::Clean => 0,
            Exit::Found => 1,
            Exit::Error => 2,
            Exit::Stopped(signal) => 128 + signal,
        }
    }

    /// [`Exit::Found`] when something was found, else [`Exit::Clean`].
    pub fn found_if(found: bool) -> Exit {
        if found {
            Exit::Found
        } else {
            Exit::Clean
        }
    }
}
