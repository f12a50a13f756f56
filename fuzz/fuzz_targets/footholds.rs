//! Disappearing Footholds: core against reference on boards built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::puzzles::Footholds;

fuzz_target!(init: lockstep_harness::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep_harness::fuzz_target::fuzz_one::<Footholds>(data);
});
