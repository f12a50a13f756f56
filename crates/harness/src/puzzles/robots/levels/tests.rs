use super::*;
use std::collections::HashSet;

/// Size 6, both parts: as many games as counted, each different and
/// reading back from its judge input; the second part's robots next to
/// you, listed in ascending order, with two destinations on your column.
#[test]
fn size_six_holds_its_count_and_the_ring_games() {
    use lockstep_core::Model;
    let cases: Vec<Case> = (0..span(6)).filter_map(|i| case(6, i)).collect();
    assert_eq!(cases.len() as u64, count(6));
    assert_eq!(cases.iter().collect::<HashSet<_>>().len(), cases.len());
    let mut ring = 0;
    for case in &cases {
        assert_eq!(&Case::parse(&case.write_input()).unwrap(), case);
        let game = &case.games[0];
        assert!(game.robots.windows(2).all(|w| w[0] < w[1]), "{game:?}");
        let next_to_you = |c: &Cell| c.0.abs_diff(START.0).max(c.1.abs_diff(START.1)) == 1;
        if game.teleports.len() == 2 {
            ring += 1;
            assert!(game.robots.iter().all(next_to_you), "{game:?}");
            assert!(game.teleports.iter().all(|t| t.1 == START.1), "{game:?}");
        }
    }
    assert_eq!(ring, 53_816);
}
