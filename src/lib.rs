//! lockstep's command line: the commands, their arguments and their reports,
//! over the crates that do the work (ARCHITECTURE.md's code map):
//!
//! - `lockstep-harness`: the differential harness (fuzz, verify, replay,
//!   shrink, triage, bench, the corpus);
//! - `lockstep-judge` and `lockstep-process`: a user's programs run and
//!   judged (stress any, test sets, interactors);
//! - `lockstep-registry`: every puzzle behind one face, and stress of a
//!   puzzle;
//! - `lockstep-arena`: the duel's referee, bots, tournaments and ladder;
//! - [`report`]: the morning report's page.

pub mod cli;
pub mod report;
