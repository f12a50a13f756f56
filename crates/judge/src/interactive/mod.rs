//! Judging an interactive solution: the relay that connects it to the
//! interactor with lockstep in the middle ([`relay`]), the transcript of
//! who said what and when ([`transcript`]), and the verdict read from how
//! both ended ([`verdict`]), with the interactor's own failures kept apart
//! from the solution's.

mod pump;
pub mod relay;
pub mod transcript;
pub mod verdict;
