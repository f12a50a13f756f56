//! A disagreement, found: shrunk, explained, signed and turned into its
//! corpus row, the same way whichever driver found it (a campaign, `lockstep
//! shrink`, triage of a cargo-fuzz artifact).

use super::generate_case;
use crate::corpus::{self, Origin, Row};
use crate::puzzle::{
    check_with, explain_safely, run_both, run_reference, Agreement, Attempt, CaseLimits,
    Explanation, Solver, Verifiable,
};
use crate::replay::REPLAY_FUEL_FACTOR;
use crate::shrink::Sideways;
use crate::shrink::{shrink_divergence, Shrunk};
use lockstep_core::Model;
use lockstep_search::seeds::CASE_BYTES;
use lockstep_search::Address;

/// A disagreement, shrunk and explained.
#[derive(Debug, Clone)]
pub struct Finding<C> {
    pub original: C,
    pub shrunk: Shrunk<C>,
    pub core_answer: String,
    pub reference_answer: String,
    pub explanation: Explanation,
    /// What the disagreement is ([`crate::signature`]), on the shrunk case.
    pub signature: String,
    /// The corpus row for the shrunk case.
    pub row: Row,
}

/// Shrinks (within `limits`, when `shrink` says so: an enumeration's first
/// disagreement is already its smallest) and explains a disagreement;
/// `provenance` (where it was found) goes into the corpus row's note. The row is built from the typed answers: its
/// `expected` is the reference's `write_answer` on the shrunk case (run again
/// with replay's budget if the campaign's ran out while the core panicked).
pub fn investigate<P: Sideways + Verifiable>(
    core: Solver<P>,
    case: P::Case,
    (origin, provenance): (Origin, &str),
    limits: CaseLimits,
    shrink: bool,
) -> Finding<P::Case> {
    let shrunk = if shrink {
        shrink_divergence::<P>(case.clone(), core, limits)
    } else {
        first_failing_part::<P>(&case, core)
    };
    let outcome = run_both::<P>(&shrunk.case, core, P::FUEL);
    // The original diverged and shrinking keeps only diverging cases, so this
    // fails only if a solver is not deterministic. Say so in the report.
    let reproduced = outcome.clone().into_agreement().is_divergence();
    let reference = match outcome.reference {
        Some(side) => side,
        None => run_reference::<P>(&shrunk.case, P::FUEL.saturating_mul(REPLAY_FUEL_FACTOR))
            .unwrap_or(Attempt::OutOfFuel),
    };
    let mut core_answer = outcome.core.show(P::Case::write_answer);
    if !reproduced {
        core_answer = format!("(not reproducible: core and reference agree now) {core_answer}");
    }
    let reference_answer = reference.show(P::Case::write_answer);
    let explanation = explain_safely::<P>(&shrunk.case);
    let signature =
        crate::signature::signature_of::<P>(&shrunk.case, &outcome.core, &reference, core);
    let row = corpus::divergence_row::<P>(
        &shrunk.case,
        &explanation.symptom,
        &signature,
        &outcome.core,
        reference.answer(),
        origin,
        provenance,
    );
    Finding {
        original: case,
        shrunk,
        core_answer,
        reference_answer,
        explanation,
        signature,
        row,
    }
}

/// An enumeration's first failing case as found, or the first of its
/// parts ([`Verifiable::parts`]) that fails alone: nothing before the case in
/// the enumeration fails, but a case of 33 duel lines fails for one line.
fn first_failing_part<P: Verifiable>(case: &P::Case, core: Solver<P>) -> Shrunk<P::Case> {
    use lockstep_search::shrinking::Stop;
    let parts = P::parts(case);
    // A case of one part is that part.
    let parts = if parts.len() > 1 { parts } else { Vec::new() };
    for (tried, part) in parts.into_iter().enumerate() {
        if check_with::<P>(&part, core, P::FUEL).is_divergence() {
            return Shrunk {
                case: part,
                attempts: tried + 1,
                steps: 1,
                stop: Stop::Part,
            };
        }
    }
    Shrunk {
        case: case.clone(),
        attempts: 0,
        steps: 0,
        stop: Stop::Smallest,
    }
}

/// Why a case given to [`reproduce`] yields no finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotReproduced {
    /// The bytes or text do not make a case.
    Unreadable(String),
    /// Core and reference agree on it.
    Agree(String),
    /// The reference runs out of fuel on it, so it cannot be checked.
    Timeout(String),
}

impl std::fmt::Display for NotReproduced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReproduced::Unreadable(why) => f.write_str(why),
            NotReproduced::Agree(case) => write!(
                f,
                "core and reference agree on this case ({case}); nothing to shrink"
            ),
            NotReproduced::Timeout(case) => write!(
                f,
                "the reference runs out of fuel on this case ({case}); it cannot be checked"
            ),
        }
    }
}

/// Reads a case (judge text or fuzzer bytes, see [`crate::decode::decode_case`]),
/// checks it against `core`, and investigates it when they disagree: the path
/// of `lockstep shrink` and `lockstep triage`.
pub fn reproduce<P: Sideways + Verifiable>(
    bytes: &[u8],
    encoding: crate::decode::Encoding,
    core: Solver<P>,
    provenance: &str,
) -> Result<Finding<P::Case>, NotReproduced> {
    let case = crate::decode::decode_case::<P>(bytes, encoding)
        .map_err(|e| NotReproduced::Unreadable(e.to_string()))?;
    match check_with::<P>(&case, core, P::FUEL) {
        Agreement::Diverge { .. } => {
            // The limits the bytes were generated under (the CLI has checked
            // the setting before reading any).
            let limits = crate::puzzle::CaseLimits::from_env().unwrap_or(CaseLimits::Wide);
            Ok(investigate::<P>(
                core,
                case,
                (Origin::Fuzz, provenance),
                limits,
                true,
            ))
        }
        Agreement::Agree => Err(NotReproduced::Agree(P::describe(&case))),
        Agreement::Timeout => Err(NotReproduced::Timeout(P::describe(&case))),
    }
}

/// A sequential campaign with any predicate: searches cases `(seed, 0, i)` for `i`
/// in `indices` for the first on which `fails` holds, and shrinks it under the same
/// predicate. Returns the index found and the shrunk case. (The tests hunt their
/// deliberately broken solvers with it; a user can hunt any property.)
pub fn find_and_shrink<P: Sideways>(
    seed: u64,
    indices: std::ops::Range<u64>,
    mut fails: impl FnMut(&P::Case) -> bool,
) -> Option<(u64, Shrunk<P::Case>)> {
    let mut buf = vec![0u8; CASE_BYTES];
    let (index, case) = indices.into_iter().find_map(|i| {
        let case = generate_case::<P>(seed, 0, i, &mut buf)?;
        fails(&case).then_some((i, case))
    })?;
    Some((
        index,
        crate::shrink::shrink::<P>(case, fails, crate::shrink::DEFAULT_MAX_ATTEMPTS),
    ))
}

/// Where a failure comes from, for its row: the command that finds it
/// again, and whether it is shrunk (an enumeration's first failure is its
/// smallest: kept as found). `image`: the failing case is a symmetric
/// image of the one at `address`.
pub(super) fn provenance(
    enumerated: bool,
    seed: u64,
    address: &Address,
    image: bool,
) -> (Origin, String, bool) {
    match (enumerated, image) {
        (false, _) => (
            Origin::Fuzz,
            format!("lockstep fuzz seed {seed} {address}"),
            true,
        ),
        (true, true) => (
            Origin::Verify,
            format!("lockstep verify {address}, a symmetric image of it"),
            false,
        ),
        (true, false) => (Origin::Verify, format!("lockstep verify {address}"), false),
    }
}
