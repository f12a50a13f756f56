//! Cases from seeds: case `index` of job `job` under a seed, the one way every
//! driver (the campaign, stress, bench, hunts and tests) turns a seed into a
//! case. It sits on the ground floor, beside [`lockstep_search::seeds`], so that those
//! drivers do not borrow it from each other.

use crate::puzzle::{CaseLimits, CaseWithReference, Puzzle};
use arbitrary::Unstructured;
use lockstep_search::seeds::{case_bytes, FIRST_BYTES};

/// Generates case `index` of job `job` (wide limits); `None` when the generator
/// cannot use the bytes (it should always manage; such cases are simply not
/// counted).
pub fn generate_case<P: Puzzle>(
    seed: u64,
    job: u64,
    index: u64,
    buf: &mut [u8],
) -> Option<P::Case> {
    generate_case_within::<P>(seed, job, index, buf, CaseLimits::Wide)
}

/// [`generate_case`] within `limits`.
pub fn generate_case_within<P: Puzzle>(
    seed: u64,
    job: u64,
    index: u64,
    buf: &mut [u8],
    limits: CaseLimits,
) -> Option<P::Case> {
    generate_case_with_reference::<P>(seed, job, index, buf, limits).map(|(case, _)| case)
}

/// [`generate_case_within`], with the reference's result when the generator
/// computed it ([`Puzzle::generate`]).
pub fn generate_case_with_reference<P: Puzzle>(
    seed: u64,
    job: u64,
    index: u64,
    buf: &mut [u8],
    limits: CaseLimits,
) -> Option<CaseWithReference<P>> {
    let short = FIRST_BYTES.min(buf.len());
    case_bytes(seed, job, index, &mut buf[..short]);
    let mut u = Unstructured::new(&buf[..short]);
    if let Ok(generated) = P::generate(&mut u, limits) {
        // Bytes left over: the generator never ran dry, so the full buffer,
        // whose prefix these bytes are, would have made the same case.
        if !u.is_empty() {
            return Some(generated);
        }
    }
    case_bytes(seed, job, index, buf);
    P::generate(&mut Unstructured::new(buf), limits).ok()
}
