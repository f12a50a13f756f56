//! Duel search: core's pruned maximin against the reference's exhaustive one, on
//! states built from libFuzzer's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::puzzles::DuelSearch;

fuzz_target!(init: lockstep_harness::fuzz_target::fuzz_init(), |data: &[u8]| {
    lockstep_harness::fuzz_target::fuzz_one::<DuelSearch>(data);
});
