//! New Game 2: core against reference on cases built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::puzzles::NewGame2;

fuzz_target!(init: lockstep_harness::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep_harness::fuzz_target::fuzz_one::<NewGame2>(data);
});
