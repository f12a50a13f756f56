use super::*;
use std::collections::HashSet;

/// The built part: as many cases as its walk counts, each different, each
/// reading back from its judge input, each instance the path's start and
/// landings stopped somewhere along it; the board turned of each among
/// them; and the circuits there, a king's four jumps back to its start.
#[test]
fn the_built_paths_are_what_they_say() {
    use lockstep_core::Model;
    let cases: Vec<Case> = (0..span()).filter_map(case).collect();
    assert_eq!(cases.len() as u64, count());
    assert_eq!(paths().len(), 592);
    let all: HashSet<&Case> = cases.iter().collect();
    assert_eq!(all.len(), cases.len());
    let mut circuits = 0;
    for case in &cases {
        assert_eq!(&Case::parse(&case.write_input()).unwrap(), case);
        let turned = Case {
            instances: case.instances.iter().map(turned).collect(),
        };
        assert!(all.contains(&turned));
        let moves: Vec<&Vec<u32>> = case.instances.iter().map(|i| &i.moves[0].0).collect();
        for (legs, squares) in moves.iter().enumerate() {
            assert_eq!(squares.len(), legs + 2);
            assert_eq!(&squares[..], &moves.last().unwrap()[..legs + 2]);
        }
        let whole = moves.last().unwrap();
        circuits += u32::from(whole.len() == 5 && whole[0] == whole[4]);
    }
    // 64 circuits for Red, each with and without an extra piece, both sides.
    assert!(circuits > 2 * 64, "{circuits}");
}
