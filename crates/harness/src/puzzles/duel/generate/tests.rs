use super::*;

/// Every list `aimed_action` builds is legal by the reference's own rules:
/// the generator's few rules are exactly the legality rules, and only the
/// one-in-twenty anything-goes lists are meant to be illegal.
#[test]
fn aimed_lists_are_legal_by_the_reference() {
    let mut bytes = vec![0u8; 4096];
    let mut checked = 0;
    for seed in 0..2_000u64 {
        lockstep_search::seeds::case_bytes(seed, 0, 0, &mut bytes);
        let mut u = Unstructured::new(&bytes);
        let Ok(state) = generate_state(&mut u) else {
            continue;
        };
        for p in 0..2 {
            let (me, other) = (&state.players[p], state.players[1 - p].pos);
            let Ok(first) = aimed_action(&mut u, me, other, 0, None) else {
                continue;
            };
            let Ok(second) = aimed_action(&mut u, me, other, 1, Some(first.code)) else {
                continue;
            };
            let list = [first, second];
            assert!(
                lockstep_reference::duel::is_legal(&state, p, &list),
                "player {} {} in {}",
                p + 1,
                model::write_actions(&list),
                model::write_state(&state)
            );
            checked += 1;
        }
    }
    assert!(checked > 3_000, "only {checked} lists");
}
