//! Every puzzle's target: core against reference on cases built from
//! libFuzzer's bytes. fuzz/Cargo.toml builds this file once per puzzle, the
//! `[[bin]]` named as the puzzle's module, which picks the puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_harness::fuzz_target::{fuzz_body, fuzz_init, fuzz_module};

// init checks the limits and the target's name before libFuzzer runs an input.
fuzz_target!(init: { fuzz_init(); fuzz_body(env!("CARGO_BIN_NAME")); }, |data: &[u8]| {
    fuzz_module(env!("CARGO_BIN_NAME"), data);
});
