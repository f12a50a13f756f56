//! quickcheck support: a generated case as a `quickcheck::Arbitrary`, built by the
//! puzzle's own generator (so properties see the same distribution as the fuzzers)
//! and shrunk by the puzzle's own shrinker.
//!
//! The `Debug` form of a case is a ready CSV corpus row, so a failing property
//! prints a line to paste into `corpus/<puzzle>.csv`.

use crate::corpus::{self, Origin, Row};
use crate::puzzle::{check, Agreement, CaseLimits, Puzzle};
use arbitrary::Unstructured;
use lockstep_core::Model;
use lockstep_search::seeds::CASE_BYTES;
use quickcheck::{Arbitrary, Gen, TestResult};
use std::fmt;

/// A case drawn from puzzle `P`'s generator.
pub struct ArbitraryCase<P: Puzzle>(pub P::Case);

impl<P: Puzzle> Clone for ArbitraryCase<P> {
    fn clone(&self) -> Self {
        ArbitraryCase(self.0.clone())
    }
}

impl<P: Puzzle> Arbitrary for ArbitraryCase<P> {
    fn arbitrary(g: &mut Gen) -> Self {
        loop {
            let bytes: Vec<u8> = (0..CASE_BYTES).map(|_| u8::arbitrary(g)).collect();
            if let Ok((case, _)) = P::generate(&mut Unstructured::new(&bytes), CaseLimits::Wide) {
                return ArbitraryCase(case);
            }
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(P::shrink_candidates(&self.0).into_iter().map(ArbitraryCase))
    }
}

/// The row quickcheck would have us add: the reference's answer as expected,
/// built from the typed answers as every producer builds it.
fn row<P: Puzzle>(case: &P::Case) -> Row {
    match check::<P>(case) {
        Agreement::Diverge { core, reference } => corpus::divergence_row::<P>(
            case,
            &crate::puzzle::explain_safely::<P>(case).symptom,
            &crate::signature::signature_of::<P>(case, &core, &reference, P::Case::solve),
            &core,
            reference.answer(),
            Origin::Quickcheck,
            "found by a quickcheck property",
        ),
        // Core and reference agree (another property failed): the row holds the
        // reference's answer when it has one.
        _ => Row {
            name: "quickcheck-case".to_string(),
            input: corpus::encode_for::<P>(&case.write_input()),
            expected: crate::puzzle::run_reference::<P>(
                case,
                P::FUEL.saturating_mul(crate::replay::REPLAY_FUEL_FACTOR),
            )
            .and_then(|side| {
                side.answer()
                    .map(|a| corpus::encode_for::<P>(&P::Case::write_answer(a)))
            })
            .unwrap_or_default(),
            origin: Origin::Quickcheck,
            note: P::describe(case),
            signature: String::new(),
        },
    }
}

impl<P: Puzzle> fmt::Debug for ArbitraryCase<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (as a corpus row for corpus/{}.csv):\n{}",
            P::describe(&self.0),
            P::MODULE,
            corpus::row_to_csv(&row::<P>(&self.0)).trim_end()
        )
    }
}

/// The differential property: core and reference agree (a reference timeout
/// discards the case).
pub fn core_agrees_with_reference<P: Puzzle>(case: ArbitraryCase<P>) -> TestResult {
    match check::<P>(&case.0) {
        Agreement::Agree => TestResult::passed(),
        Agreement::Timeout => TestResult::discard(),
        Agreement::Diverge { core, reference } => TestResult::error(format!(
            "core answered {:?}, reference {:?}\n{}",
            core.show(P::Case::write_answer),
            reference.show(P::Case::write_answer),
            crate::puzzle::explain_safely::<P>(&case.0).report
        )),
    }
}
