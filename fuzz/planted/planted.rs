//! A planted bug under libFuzzer: the selftest's cargo-fuzz driver. The bug is
//! named by `LOCKSTEP_PLANTED`, `<puzzle module>/<number>` as in
//! `lockstep_planted::all()` (e.g. `robots/3`); the body is the puzzle
//! targets' own `fuzz_one`, against that wrong solver instead of the core.
//! Not a target to fuzz overnight: it crashes by design, so it lives apart
//! from `fuzz_targets/`, which the overnight script and ClusterFuzzLite run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static PLANTED: OnceLock<lockstep_planted::Planted> = OnceLock::new();

fn planted_init() {
    lockstep_harness::fuzz_target::fuzz_init();
    let name = std::env::var("LOCKSTEP_PLANTED").unwrap_or_default();
    let Some(planted) = lockstep_planted::find(&name) else {
        let names: Vec<String> = lockstep_planted::all().into_iter().map(|b| b.0).collect();
        eprintln!(
            "lockstep: LOCKSTEP_PLANTED={name:?} names no planted bug; one of: {}",
            names.join(" ")
        );
        std::process::exit(2);
    };
    let _ = PLANTED.set(planted);
}

fuzz_target!(init: planted_init(), |data: &[u8]| {
    (PLANTED.get().expect("set by init").fuzz_one)(data);
});
