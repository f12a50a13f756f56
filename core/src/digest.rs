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
