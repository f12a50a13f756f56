use super::*;
use lockstep_reference::Naive;

/// With too little fuel for some cases, the generator hands over the
/// reference's run when the reference finishes within that fuel and
/// withholds it when the reference runs out (it lists moves where the
/// reference does, bar a position with no move and no mutation that fits,
/// so both run out together), and the case is the one it makes with
/// plenty.
#[test]
fn a_run_is_handed_over_only_within_the_fuel() {
    let mut bytes = vec![0u8; 1024];
    let (mut handed, mut withheld) = (0, 0);
    for seed in 0..1_000u64 {
        lockstep_search::seeds::case_bytes(seed, 3, 0, &mut bytes);
        let (case, _, generated) =
            generate_played_with_fuel(&mut Unstructured::new(&bytes), CaseLimits::Wide, 12)
                .expect("1024 bytes make a case");
        let plenty = generate_played(&mut Unstructured::new(&bytes), CaseLimits::Wide)
            .expect("1024 bytes make a case");
        assert_eq!(case, plenty.0, "seed {seed}");
        let fresh = case.solve_naively(&mut Fuel::new(12));
        match generated {
            Some(run) => {
                assert_eq!(run, fresh, "seed {seed}");
                handed += 1;
            }
            None => {
                assert_eq!(fresh, Err(OutOfFuel), "seed {seed}");
                withheld += 1;
            }
        }
    }
    assert!(
        handed > 100 && withheld > 100,
        "{handed} handed, {withheld} withheld"
    );
}
