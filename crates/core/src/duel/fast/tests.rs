use super::*;
use crate::duel::{check_legal, parse_actions};

/// Every slot the game can present (two distinct cells, two action ids),
/// looked up in the table as the turn does, against the slot code itself.
#[test]
fn the_slot_table_is_the_slot_code() {
    let table = slot_table();
    let mut pushed_out = 0;
    for c0 in 0..CELLS as u8 {
        for c1 in (0..CELLS as u8).filter(|&c| c != c0) {
            for id0 in 0..ACTS {
                for id1 in 0..ACTS {
                    let hp = [10, 9];
                    let mut s = Slot {
                        cells: [c0, c1],
                        hp,
                    };
                    let pushed = s.resolve_slot(0, [id0, id1], &mut ());
                    let out = pushed.is_some_and(|(_, out)| out[0] | out[1]);
                    match look_up(table, [c0, c1], [id0, id1], hp) {
                        None => {
                            assert!(out, "{c0} {c1} {id0} {id1}: not pushed out");
                            pushed_out += 1;
                        }
                        Some(found) => {
                            assert!(!out, "{c0} {c1} {id0} {id1}: pushed out");
                            assert_eq!(found, (s.cells, s.hp), "{c0} {c1} {id0} {id1}");
                        }
                    }
                }
            }
        }
    }
    // Pushing out happens, and the table sends those slots to the slot code.
    assert!(pushed_out > 1000, "{pushed_out}");
    assert_eq!(ORBITS, 171);
}

#[test]
fn symmetries_are_permutations_undone_by_their_inverse() {
    for sym in 0..SYMMETRIES {
        for cell in 0..CELLS {
            let image = CELL_IMAGE[sym][cell];
            assert!(usize::from(image) < CELLS);
            assert_eq!(
                usize::from(CELL_IMAGE[INVERSE[sym]][usize::from(image)]),
                cell
            );
        }
        let mut ids: Vec<u8> = ID_IMAGE[sym].to_vec();
        ids.sort();
        assert_eq!(ids, (0..ACTS as u8).collect::<Vec<_>>(), "symmetry {sym}");
    }
}

#[test]
fn areas_match_the_rule_text() {
    let mut sweep = area_cells(SWEEP, Dir::R, (4, 3));
    sweep.sort();
    assert_eq!(sweep, [(3, 3), (3, 4), (4, 4), (5, 3), (5, 4)]);
    let mut guard = area_cells(GUARD, Dir::U, (2, 2));
    guard.sort();
    assert_eq!(guard, [(1, 1), (1, 2), (1, 3)]);
    assert_eq!(area_cells(THRUST, Dir::L, (1, 2)), [(1, 1)]);
    assert_eq!(area_cells(BREAK, Dir::D, (7, 7)), []);
}

#[test]
fn enumeration_is_exactly_the_legal_lists() {
    let mut all = Vec::new();
    for code in 0..=DASH {
        all.push(Action { code, dir: None });
        for d in Dir::ALL {
            all.push(Action::new(code, d));
        }
    }
    let mut lists = Vec::new();
    for (pos, waits) in [
        ((1, 1), [0; 6]),
        ((4, 4), [1, 0, 2, 0, 1, 0]),
        ((2, 7), [0, 2, 0, 1, 0, 2]),
        ((7, 5), [1, 1, 1, 1, 1, 1]),
    ] {
        // Legality does not depend on the opponent, who stands aside.
        let mut state = State::initial((4, 4), pos, (5, 5));
        state.players[0].waits = waits;
        legal_lists(&state, 0, &mut lists);
        let mut expected = Vec::new();
        for &a in &all {
            for &b in &all {
                let ok = check_legal(&state, 0, &[a, b]).is_ok();
                assert_eq!(ok, legal(&state.players[0], &[a, b]), "{a} {b} at {pos:?}");
                if ok {
                    expected.push([a, b]);
                }
            }
        }
        let mut got = lists.clone();
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "at {pos:?} waits {waits:?}");
    }
    assert!(parse_actions("7 UL 0").is_ok());
}
