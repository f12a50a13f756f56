//! Matrix game: core's double oracle against the reference's exact kernel
//! enumeration, on games built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep::puzzles::MatrixGame;

fuzz_target!(init: lockstep::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep::fuzz_target::fuzz_one::<MatrixGame>(data);
});
