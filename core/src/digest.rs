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

    fn write_u8(&mut self, i: u8) {
        self.push(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.push(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.push(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.push(i);
    }

    fn write_u128(&mut self, i: u128) {
        self.push(i as u64);
        self.push((i >> 64) as u64);
    }

    fn write_usize(&mut self, i: usize) {
        self.push(i as u64);
    }

    fn write_i8(&mut self, i: i8) {
        self.push(i as u64);
    }

    fn write_i16(&mut self, i: i16) {
        self.push(i as u64);
    }

    fn write_i32(&mut self, i: i32) {
        self.push(i as u64);
    }

    fn write_i64(&mut self, i: i64) {
        self.push(i as u64);
    }

    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }

    fn write_isize(&mut self, i: isize) {
        self.push(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::Digest;

    #[test]
    fn order_and_content_change_the_digest() {
        let fold = |words: &[u64]| {
            let mut d = Digest::new();
            words.iter().for_each(|&w| d.push(w));
            d.value()
        };
        assert_ne!(fold(&[1, 2]), fold(&[2, 1]));
        assert_ne!(fold(&[1]), fold(&[1, 0]));
        assert_ne!(fold(&[0]), fold(&[]));
    }
}
