//! The code coverage counters of the running binary, when it was built for
//! them: `RUSTFLAGS="-C instrument-coverage --cfg lockstep_coverage"`, as
//! `scripts/coverage` builds it. `lockstep corpus distill` then keeps the
//! cases that reach code no other kept case reaches.
//!
//! With `-C instrument-coverage` every region of the program counts its
//! executions in one array of `u64`s (the profile runtime's
//! `__llvm_prf_cnts` section), which the runtime writes to a `.profraw` file
//! at exit for `llvm-cov`. Read in the process instead, between two cases,
//! the array says which regions a case reached: zero the counters, run the
//! case, see which are no longer zero. The counters are the whole
//! process's, so a case is measured on one thread with nothing else running.
//!
//! In any other build there are no counters: [`available`] is false, and
//! the distiller falls back on the puzzles' rule branches.

/// Whether this binary counts its code's regions.
pub fn available() -> bool {
    cfg!(lockstep_coverage)
}

/// Zeroes every counter.
pub fn reset() {
    #[cfg(lockstep_coverage)]
    // SAFETY: the profile runtime's own reset, on the counters it owns.
    unsafe {
        counters::__llvm_profile_reset_counters()
    }
}

/// The regions reached since the last [`reset`], each with a bucket of how
/// often (1, 2-3, 4-15, 16 or more) as one feature number: region `i`
/// reached `n` times is `4 * i + bucket(n)`. Empty without counters.
pub fn features() -> Vec<u32> {
    #[cfg(lockstep_coverage)]
    {
        counters::all()
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(i, &count)| {
                let bucket = match count {
                    1 => 0,
                    2..=3 => 1,
                    4..=15 => 2,
                    _ => 3,
                };
                4 * i as u32 + bucket
            })
            .collect()
    }
    #[cfg(not(lockstep_coverage))]
    Vec::new()
}

/// How many code regions have run since the process started (or the last
/// [`reset`]); 0 without counters.
pub fn regions_reached() -> u32 {
    #[cfg(lockstep_coverage)]
    {
        counters::all().iter().filter(|&&c| c > 0).count() as u32
    }
    #[cfg(not(lockstep_coverage))]
    0
}

#[cfg(lockstep_coverage)]
mod counters {
    extern "C" {
        pub fn __llvm_profile_begin_counters() -> *const u64;
        pub fn __llvm_profile_end_counters() -> *const u64;
        pub fn __llvm_profile_reset_counters();
    }

    /// The counters as they are now (they keep counting: read them on the
    /// only thread at work).
    pub fn all() -> &'static [u64] {
        // SAFETY: the runtime's section of counters, from its first to one
        // past its last, lives as long as the program; other threads'
        // increments while it is read only make a count stale.
        unsafe {
            let begin = __llvm_profile_begin_counters();
            let end = __llvm_profile_end_counters();
            std::slice::from_raw_parts(begin, end.offset_from(begin) as usize)
        }
    }
}
