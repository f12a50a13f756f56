//! Matrix game: core's double oracle against the reference's exact kernel
//! enumeration, on games built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::puzzles::MatrixGame;

fuzz_target!(init: lockstep_harness::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep_harness::fuzz_target::fuzz_one::<MatrixGame>(data);
});
