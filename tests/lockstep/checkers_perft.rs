//! Checkers perft: the published counts, the divide report, and planted bugs.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep::puzzle::Puzzle;
use lockstep::puzzles::CheckersPerft;
use lockstep_core::checkers_perft::{start, Case};
use lockstep_core::Model;
use lockstep_planted::checkers_perft::BUGS;
use lockstep_reference::checkers::{perft_from, Grid};
use lockstep_reference::Fuel;

/// The published counts from the standard start, on both sides.
#[test]
fn the_start_counts_as_published_on_both_solvers() {
    use lockstep_reference::Naive;
    for (depth, nodes) in (1..).zip([7u64, 49, 302, 1469, 7361]) {
        let case = start(depth);
        assert_eq!(case.solve().answer, nodes, "core, depth {depth}");
        let naive = case.solve_naively(&mut Fuel::unlimited()).unwrap();
        assert_eq!(naive.answer, nodes, "reference, depth {depth}");
    }
}

#[test]
fn planted_bugs_are_found_and_shrunk_small() {
    let bugs = BUGS.map(|(name, solver)| PlantedBug::<CheckersPerft> {
        name,
        solver: Box::new(solver),
        small: Box::new(|c: &Case| c.position.red.len() + c.position.white.len() <= 6),
    });
    let hunt = Hunt {
        fuel: CheckersPerft::FUEL,
        max_cases: 20_000,
        max_findings: 1,
        within: &|_| true,
        describe: &|c: &Case| CheckersPerft::describe(c),
    };
    planted_bugs(&hunt, &bugs);
}

/// The reference's perft is the reference's own enumeration, depth by depth.
#[test]
fn the_reference_perft_is_one_ply_of_moves_at_depth_1() {
    let case = start(1);
    let grid = Grid::from_pieces(&case.position.red, &case.position.white);
    let moves = grid
        .legal_moves(case.position.to_move, &mut Fuel::unlimited())
        .unwrap();
    assert_eq!(moves.len(), 7);
    assert_eq!(
        perft_from(&grid, case.position.to_move, 1, &mut Fuel::unlimited()).unwrap(),
        7
    );
}
