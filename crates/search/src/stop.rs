//! The stop flag, on the ground floor: whether a signal is stopping
//! lockstep. The loop reads it between batches; the long steps that run
//! outside the loop (a level's states built before its first case, a case
//! shrunk after the search) read it too, so that every phase stops within a
//! second. It knows no check and no puzzle, so a puzzle's own code may ask.

pub use lockstep_process::interrupted;
