//! A running 64-bit digest of a step trace.
//!
//! The differential check compares the core's and the reference's traces on every
//! case. Keeping whole traces would cost an allocation per step on the hot path, so
//! each side folds its steps into this digest instead, and the full traces are rebuilt
//! only when the digests (or answers) disagree. Both sides must fold the same packed
//! words in the same order; each puzzle's model defines how a step packs.

/// An order-sensitive digest of 64-bit words (the FxHash mixing step, applied twice
/// per word so that single-bit differences spread to every output bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digest(u64);

const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

impl Default for Digest {
    fn default() -> Self {
        Self::new()
    }
}

impl Digest {
    pub const fn new() -> Self {
        Digest(0x243f_6a88_85a3_08d3)
    }

    #[inline]
    pub fn push(&mut self, word: u64) {
        let mixed = (self.0.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
        self.0 = (mixed ^ (mixed >> 29)).wrapping_mul(MULTIPLIER);
    }

    pub fn value(self) -> u64 {
        self.0
    }
}

/// `Hasher` methods that push their integer as one word.
macro_rules! fn_words {
    ($($name:ident: $int:ty),* $(,)?) => {
        $(fn $name(&mut self, i: $int) {
            self.push(i as u64);
        })*
    };
}

/// A digest as a [`std::hash::Hasher`], so that a value that derives
/// `Hash` can be folded in (lockstep verify's certificates digest the
/// core's answers this way). Every integer is pushed as one word and bytes
/// eight to a word, little-endian: the same value gives the same digest on
/// any machine, whatever its word size or byte order.
impl std::hash::Hasher for Digest {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.push(u64::from_le_bytes(word));
        }
    }

    // Each integer one word, sign-extended: the same on any machine.
    fn_words! {
        write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64, write_usize: usize,
        write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64, write_isize: isize,
    }

    fn write_u128(&mut self, i: u128) {
        self.push(i as u64);
        self.push((i >> 64) as u64);
    }

    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }
}

#[cfg(test)]
mod tests;
