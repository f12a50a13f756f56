//! A line's result packed into three words for a `lockstep verify`
//! certificate's digest ([`crate::puzzle::Verifiable::hash_answer`]).
//!
//! A result's `Hash` pushes each of its nineteen fields as a word of its
//! own, and each push is two dependent multiplications: about a fifth of
//! what core and reference take on the line together. Every field fits a
//! byte, so the result is written as 24 bytes, a field to a byte in a
//! fixed order, and pushed as three words (into three digests, one for
//! each word of a line). Different results give different bytes
//! ([`tests`] reads the bytes back into the result), so different answers
//! push different words, and make different digests short of a 64-bit
//! collision.

use lockstep_core::digest::Digest;
use lockstep_core::duel::{Answer, Outcome, TurnResult};

/// The bytes of a result: the turn, the spring's row and column, the
/// outcome (0 ongoing, else 1 + 5 x winner + reason), then each player's
/// row, column, hp, blessing and six waits.
fn bytes(result: &TurnResult) -> [u8; 24] {
    let next = &result.next;
    let mut b = [0u8; 24];
    b[0] = next.turn;
    b[1] = next.spring.0 as u8;
    b[2] = next.spring.1 as u8;
    b[3] = match result.outcome {
        Outcome::Ongoing => 0,
        Outcome::Ended(winner, reason) => 1 + 5 * winner as u8 + reason as u8,
    };
    for (p, player) in next.players.iter().enumerate() {
        let at = 4 + 10 * p;
        b[at] = player.pos.0 as u8;
        b[at + 1] = player.pos.1 as u8;
        b[at + 2] = player.hp as u8;
        b[at + 3] = player.blessing;
        b[at + 4..at + 10].copy_from_slice(&player.waits);
    }
    b
}

/// The answer's length, then the digests of each line's first, second
/// and third words. A push waits on the one before it; three chains, one
/// for each word of a line, run side by side in the processor rather than
/// one after another.
pub(super) fn hash_answer(answer: &Answer, digest: &mut Digest) {
    digest.push(answer.len() as u64);
    let mut lanes = [Digest::new(); 3];
    for result in answer {
        let bytes = bytes(result);
        for (lane, word) in lanes.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            lane.push(u64::from_le_bytes(w));
        }
    }
    for lane in lanes {
        digest.push(lane.value());
    }
}

#[cfg(test)]
mod tests;
