//! Checker's Check: core against reference on cases built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::puzzles::Checkers;

fuzz_target!(init: lockstep_harness::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep_harness::fuzz_target::fuzz_one::<Checkers>(data);
});
