//! Deterministic bytes for the generators: the in-process fuzzer's source of cases.
//!
//! Case `index` of job `job` in a campaign with seed `seed` is always built from the
//! same bytes, so the same seed and job count give the same cases, and a finding can
//! be named by (seed, job, index) and regenerated. SplitMix64 is enough here: the
//! bytes only need to be well spread, not unpredictable, and it costs about a
//! nanosecond per eight bytes.

/// The number of bytes each generated case may draw on. Generators use far fewer;
/// when they run out, `arbitrary` falls back to the smallest values, which are
/// still valid cases.
pub const CASE_BYTES: usize = 1024;

/// The bytes a campaign fills for its first try at a case. Most cases need far
/// fewer than [`CASE_BYTES`] (measured over 20,000 cases of seed 1, the 90th
/// percentile is 221 bytes for duel and at most 131 for the other puzzles), so
/// filling all 1024 for every case cost more than some puzzles' core. A case
/// that leaves some of these bytes unread is exactly the case the full buffer
/// gives, because every generator reads its bytes from the front and only
/// `arbitrary`'s front-reading calls are used; otherwise the case is made
/// again from the full buffer (see `generate::generate_case_within`).
pub const FIRST_BYTES: usize = 256;

/// SplitMix64 (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fills `buf` with the stream's next bytes; filling a prefix of `buf` gives
    /// the same bytes as filling all of it (the campaign relies on that).
    pub fn fill(&mut self, buf: &mut [u8]) {
        // Whole words first: the exact chunks compile to plain 8-byte stores,
        // where a copy of a variable-length chunk cost 3.3 ns a word (417 ns for
        // a 1024-byte case against 177 ns).
        let mut words = buf.chunks_exact_mut(8);
        for word in &mut words {
            word.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let tail = words.into_remainder();
        if !tail.is_empty() {
            let bytes = self.next_u64().to_le_bytes();
            let n = tail.len();
            tail.copy_from_slice(&bytes[..n]);
        }
    }
}

/// Fills `buf` with the bytes of case `index` of job `job` under `seed`.
pub fn case_bytes(seed: u64, job: u64, index: u64, buf: &mut [u8]) {
    let mut mix = SplitMix64::new(seed ^ job.wrapping_mul(0xd6e8_feb8_6659_fd93));
    let stream = mix.next_u64() ^ index.wrapping_mul(0xa076_1d64_78bd_642f);
    SplitMix64::new(stream).fill(buf);
}

/// The generator of item `index` (a game, a pair of games) under `seed`, one
/// stream per item: what the duel tournament and stress runs draw INITs from.
pub fn item_rng(seed: u64, index: u64) -> SplitMix64 {
    SplitMix64::new(seed ^ index.wrapping_mul(0xa076_1d64_78bd_642f))
}

/// A seed for a campaign that was given none: from the clock, printed so the run
/// can be repeated.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    SplitMix64::new(nanos ^ u64::from(std::process::id())).next_u64() % 1_000_000_000
}

/// The moment `seconds` after `start`; `None` (no deadline) when that is beyond
/// what an `Instant` can hold, for example for an infinite budget.
pub fn deadline_after(start: std::time::Instant, seconds: f64) -> Option<std::time::Instant> {
    std::time::Duration::try_from_secs_f64(seconds.max(0.0))
        .ok()
        .and_then(|d| start.checked_add(d))
}

#[cfg(test)]
mod tests;
