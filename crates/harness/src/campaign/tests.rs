use super::*;
use crate::puzzles::Duel;
use lockstep_search::seeds::CASE_BYTES;

/// The campaign's audit stops a run whose generator handed over a result
/// that is not the reference's own, and lets a true one through.
#[test]
fn the_audit_catches_a_wrong_handed_over_result() {
    let mut buf = vec![0u8; CASE_BYTES];
    let (case, generated) = (0..200)
        .find_map(|i| {
            let (case, generated) =
                generate_case_with_reference::<Duel>(1, 0, i, &mut buf, CaseLimits::Wide)?;
            Some((case, generated?))
        })
        .expect("a fifth of duel cases are games");
    audit_generated::<Duel>(&case, &Some(generated.clone()));
    let mut wrong = generated.expect("within fuel");
    wrong.digest ^= 1;
    let caught = std::panic::catch_unwind(|| audit_generated::<Duel>(&case, &Some(Ok(wrong))));
    let message = caught.expect_err("a wrong result passed the audit");
    let text = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(
        text.starts_with("lockstep bug: the duel generator"),
        "{text}"
    );
}
