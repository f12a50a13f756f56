//! Perft's transposition table: the leaf count of a position at a remaining
//! depth, shared by every thread, that can never return a wrong count.
//!
//! **No collision can happen.** A key is the whole position and the remaining
//! depth: Red, White and kings (32 bits each), the side to move (1 bit) and
//! the remaining depth (5 bits), 102 bits in all. [`mix`] maps the 102-bit keys
//! one to one onto themselves (a product by an odd constant modulo 2^102 and an
//! xor-shift by 51 bits are each invertible there; [`unmix`] is the inverse,
//! and a test holds the two to each other). The low `n` bits of the mixed key
//! choose the bucket; the other `102 - n` bits are stored in the entry, whole.
//! An entry matches only when its stored bits equal the probe's, and it sits in
//! the probe's bucket, so the two mixed keys are equal in every bit, and so are
//! the keys: the same position at the same depth. This is the full key,
//! compared fully, only not storing the bits the bucket's address already says.
//!
//! **No torn entry can be read.** An entry is two 64-bit words, and another
//! thread may be rewriting it while it is read. Each bucket has a version word
//! (a seqlock, the pattern of H. Boehm, "Can seqlocks get along with
//! programming language memory models?", 2012): a writer makes it odd, writes,
//! makes it even again one step on; a reader reads it before and after the
//! entries and throws away what it read unless both readings are the same even
//! number. A 64-bit version never wraps in a run. A writer that finds the
//! bucket being written skips its store, and a reader that finds it so counts
//! a miss: either way the count is computed instead, never guessed.
//!
//! **No count is cut.** An entry keeps `26 + n` bits of count; a count that
//! does not fit (only near the root of a deep count) is not stored.
//!
//! Replacement: a bucket holds three entries; a new one takes the entry of the
//! same key, else an empty one, else the one with the smallest count (the
//! least work to redo). A count of 0 is never stored, so a zero entry is empty.

use std::sync::atomic::{fence, AtomicU64, Ordering};

/// Bits of a key: three 32-bit boards, the side to move, 5 bits of depth.
pub(super) const KEY_BITS: u32 = 102;
const KEY_MASK: u128 = (1 << KEY_BITS) - 1;
/// The deepest remaining depth a key can hold.
pub(super) const MAX_KEY_DEPTH: u32 = 31;
const C1: u128 = 0x2545_F491_4F6C_DD1D_9E37_79B9_7F4A_7C15 & KEY_MASK;
const C2: u128 = 0x1B87_3593_CC9E_2D51_BF58_476D_1CE4_E5B9 & KEY_MASK;
const SHIFT: u32 = KEY_BITS / 2;
const ENTRIES: usize = 3;

/// The key of a position (boards and side as bits) at a remaining depth.
#[inline(always)]
pub(super) fn key(red: u32, white: u32, kings: u32, white_to_move: bool, depth: u32) -> u128 {
    debug_assert!(depth <= MAX_KEY_DEPTH);
    u128::from(red)
        | u128::from(white) << 32
        | u128::from(kings) << 64
        | u128::from(white_to_move) << 96
        | u128::from(depth) << 97
}

/// A one-to-one map of the 102-bit keys onto themselves that spreads every
/// key bit over the low bits (which pick the bucket).
#[inline(always)]
pub(super) fn mix(key: u128) -> u128 {
    let x = key.wrapping_mul(C1) & KEY_MASK;
    let x = x ^ x >> SHIFT;
    let x = x.wrapping_mul(C2) & KEY_MASK;
    x ^ x >> SHIFT
}

/// The inverse of `c` modulo 2^102 (`c` odd), by Newton's iteration.
#[cfg(test)]
fn inverse(c: u128) -> u128 {
    let mut x = c; // right in the low 3 bits; each step doubles the right bits
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(c.wrapping_mul(x)));
    }
    x & KEY_MASK
}

/// The inverse of [`mix`] (tests only: it is what makes `mix` one to one).
#[cfg(test)]
pub(super) fn unmix(mixed: u128) -> u128 {
    // x ^ x >> 51 is its own inverse on 102 bits: (x >> 51) >> 51 == 0.
    let x = mixed ^ mixed >> SHIFT;
    let x = x.wrapping_mul(inverse(C2)) & KEY_MASK;
    let x = x ^ x >> SHIFT;
    x.wrapping_mul(inverse(C1)) & KEY_MASK
}

/// One cache line: the version and three entries of two words each (the
/// stored key bits, then the rest of them under the count).
#[repr(C, align(64))]
struct Bucket {
    version: AtomicU64,
    words: [AtomicU64; 2 * ENTRIES],
    _spare: u64,
}

impl Bucket {
    fn empty() -> Bucket {
        Bucket {
            version: AtomicU64::new(0),
            words: std::array::from_fn(|_| AtomicU64::new(0)),
            _spare: 0,
        }
    }
}

/// Probes, hits and stores of one thread, added to the table's when it is done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableStats {
    pub probes: u64,
    pub hits: u64,
    pub stores: u64,
}

impl TableStats {
    pub fn add(&mut self, other: TableStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.stores += other.stores;
    }
}

/// The shared table.
pub(super) struct Table {
    buckets: Vec<Bucket>,
    /// log2 of the number of buckets.
    index_bits: u32,
    /// Bits of the stored key above the first word (`102 - n - 64`).
    high_bits: u32,
}

impl Table {
    /// A table of at most `bytes` (at least 64 buckets; the largest power of
    /// two of buckets that fits).
    pub(super) fn new(bytes: usize) -> Table {
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(64);
        let index_bits = (usize::BITS - 1 - wanted.leading_zeros()).min(37);
        let buckets = (0..1usize << index_bits).map(|_| Bucket::empty()).collect();
        Table {
            buckets,
            index_bits,
            high_bits: KEY_BITS - index_bits - 64,
        }
    }

    /// Its size in bytes.
    pub(super) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// How many entries it holds.
    pub(super) fn entries(&self) -> u64 {
        (self.buckets.len() * ENTRIES) as u64
    }

    /// Empties every entry (a table is never shared by two counts at once).
    pub(super) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::empty();
        }
    }

    #[inline(always)]
    fn split(&self, key: u128) -> (&Bucket, u64, u64) {
        let mixed = mix(key);
        let bucket = &self.buckets[(mixed & ((1 << self.index_bits) - 1)) as usize];
        let stored = mixed >> self.index_bits;
        (bucket, stored as u64, (stored >> 64) as u64)
    }

    /// Starts bringing `key`'s bucket into the cache (a plain load: the core
    /// is std only and safe, so no prefetch instruction), for a probe soon.
    #[inline(always)]
    pub(super) fn touch(&self, key: u128) -> u64 {
        self.split(key).0.version.load(Ordering::Relaxed)
    }

    /// The count stored for `key`, if any.
    #[inline(always)]
    pub(super) fn probe(&self, key: u128, stats: &mut TableStats) -> Option<u128> {
        stats.probes += 1;
        let (bucket, low, high) = self.split(key);
        let before = bucket.version.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let words: [u64; 2 * ENTRIES] =
            std::array::from_fn(|i| bucket.words[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        if bucket.version.load(Ordering::Relaxed) != before {
            return None;
        }
        let high_mask = (1u64 << self.high_bits) - 1;
        for entry in words.chunks_exact(2) {
            let count = entry[1] >> self.high_bits;
            if count != 0 && entry[0] == low && entry[1] & high_mask == high {
                stats.hits += 1;
                return Some(u128::from(count));
            }
        }
        None
    }

    /// Stores `count` for `key` (unless it is 0, does not fit, or another
    /// thread is writing the bucket).
    #[inline(always)]
    pub(super) fn store(&self, key: u128, count: u128, stats: &mut TableStats) {
        let count_bits = 64 - self.high_bits;
        if count == 0 || count >> count_bits != 0 {
            return;
        }
        let (bucket, low, high) = self.split(key);
        let version = bucket.version.load(Ordering::Relaxed);
        if version & 1 != 0
            || bucket
                .version
                .compare_exchange(version, version + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        let high_mask = (1u64 << self.high_bits) - 1;
        let mut slot = 0;
        let mut smallest = u64::MAX;
        for entry in 0..ENTRIES {
            let first = bucket.words[2 * entry].load(Ordering::Relaxed);
            let second = bucket.words[2 * entry + 1].load(Ordering::Relaxed);
            let stored = second >> self.high_bits;
            if stored != 0 && first == low && second & high_mask == high {
                slot = entry;
                break;
            }
            if stored < smallest {
                smallest = stored;
                slot = entry;
            }
        }
        bucket.words[2 * slot].store(low, Ordering::Relaxed);
        bucket.words[2 * slot + 1]
            .store(high | (count as u64) << self.high_bits, Ordering::Relaxed);
        bucket.version.store(version + 2, Ordering::Release);
        stats.stores += 1;
    }
}

#[cfg(test)]
mod tests;
