//! Checkers perft: the published counts (tests/data/checkers_perft.csv), the
//! divide against the reference at every node, the table that must not change
//! a count, and planted bugs.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep_core::checkers::{
    legal_moves, start_board, Board, Captures, Perft, PerftOptions, Side,
};
use lockstep_core::checkers_perft::{start, Case};
use lockstep_core::Model;
use lockstep_harness::puzzle::Puzzle;
use lockstep_harness::puzzles::checkers_perft::published::{
    check_divides, core_rows, reference_divide,
};
use lockstep_harness::puzzles::CheckersPerft;
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

/// The published table: (depth, paths, sets if published).
fn published() -> Vec<(u32, u128, Option<u128>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/checkers_perft.csv");
    let text = std::fs::read_to_string(path).expect("the published table");
    let mut rows = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(rows.next(), Some("depth,paths,sets"));
    rows.map(|line| {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 3, "{line}");
        let sets = (!cells[2].is_empty()).then(|| cells[2].parse().expect("a count"));
        (
            cells[0].parse().expect("a depth"),
            cells[1].parse().expect("a count"),
            sets,
        )
    })
    .collect()
}

fn core(table_bytes: usize, threads: usize, captures: Captures) -> Perft {
    Perft::new(PerftOptions {
        threads,
        table_bytes,
        table_depth: 2,
        captures,
    })
}

#[test]
fn the_published_table_is_whole_and_agrees_with_itself() {
    let rows = published();
    assert_eq!(rows.len(), 29, "depths 1 to 29");
    for (index, (depth, paths, sets)) in rows.iter().enumerate() {
        assert_eq!(*depth as usize, index + 1);
        if *depth <= 11 {
            assert_eq!(*sets, Some(*paths), "the conventions agree through 11");
        } else if let Some(sets) = sets {
            assert!(sets < paths, "depth {depth}: fewer moves counted once");
        }
    }
    assert!(
        rows[28].1 > u128::from(u64::MAX),
        "depth 29 needs more than 64 bits"
    );
}

/// Through depth 13 in both conventions, with the table and two threads (a
/// few seconds); deeper depths are `lockstep perft --depth N`'s.
#[test]
fn the_core_counts_the_published_table_in_both_conventions() {
    for captures in [Captures::Paths, Captures::Sets] {
        let mut perft = core(64 << 20, 2, captures);
        for (depth, paths, sets) in published().into_iter().take(13) {
            let expected = match captures {
                Captures::Paths => Some(paths),
                Captures::Sets => sets,
            };
            perft.clear();
            let counted = perft.count(&start_board(), Side::Red, depth, &mut |_| {});
            assert_eq!(Some(counted), expected, "{captures:?}, depth {depth}");
        }
    }
}

/// A White king on 6 that can take the Red men on 9, 10, 17 and 18 round
/// either way (6-15-22-13-6 or 6-13-22-15-6), and a Red man on 1.
fn king_circuit() -> Board {
    let bits = |squares: &[u32]| squares.iter().map(|s| 1u32 << (s - 1)).sum::<u32>();
    Board {
        red: bits(&[1, 9, 10, 17, 18]),
        white: bits(&[6]),
        kings: bits(&[6]),
    }
}

#[test]
fn a_kings_two_paths_over_the_same_pieces_are_one_move_only_under_sets() {
    let board = king_circuit();
    let written = |captures| -> Vec<String> {
        legal_moves(&board, Side::White, captures)
            .iter()
            .map(|(m, _)| m.to_string())
            .collect()
    };
    assert_eq!(written(Captures::Paths), ["6-13-22-15-6", "6-15-22-13-6"]);
    assert_eq!(written(Captures::Sets), ["6-13-22-15-6"]);
    let rows = reference_divide(&board, Side::White, 1, Captures::Sets);
    assert_eq!(rows.len(), 1, "the reference keeps one of the two as well");
}

/// The core's divide against the reference's at every node: from the start
/// to depth 6, from the king circuit and from positions of random games
/// (kings, crownings) to depth 4, both conventions, with a table small enough
/// to be fought over.
#[test]
fn the_divide_agrees_with_the_reference_at_every_node() {
    let mut roots = vec![
        (start_board(), Side::Red, 6),
        (king_circuit(), Side::White, 5),
    ];
    roots.extend(random_positions(12).into_iter().map(|(b, s)| (b, s, 4)));
    for captures in [Captures::Paths, Captures::Sets] {
        let perft = core(1 << 16, 1, captures);
        for (board, side, depth) in &roots {
            let checked = check_divides(board, *side, *depth, captures, &mut |b, s, d| {
                core_rows(perft.divide(b, s, d, &mut |_, _| {}))
            });
            match checked {
                Ok(nodes) => assert!(nodes > 1, "{board:?}: {nodes} nodes"),
                Err(disagreement) => panic!("{captures:?}: {disagreement}"),
            }
        }
    }
}

/// The check finds a count that is wrong three plies down, where it is
/// wrong, and names the moves that lead there.
#[test]
fn the_divide_check_finds_a_wrong_count_deep_down() {
    let perft = core(0, 1, Captures::Paths);
    let mut board = start_board();
    let mut side = Side::Red;
    for pick in [2, 0, 1] {
        let moves = legal_moves(&board, side, Captures::Paths);
        board = moves[pick % moves.len()].1;
        side = side.opponent();
    }
    let wrong = board;
    let result = check_divides(
        &start_board(),
        Side::Red,
        4,
        Captures::Paths,
        &mut |b, s, d| {
            let mut rows = core_rows(perft.divide(b, s, d, &mut |_, _| {}));
            if *b == wrong {
                rows[0].2 += 1;
            }
            rows
        },
    );
    let disagreement = result.expect_err("a wrong count is found");
    assert_eq!(disagreement.depth, 1);
    assert_eq!(disagreement.line.len(), 3, "{disagreement}");
    assert_eq!(disagreement.core[0].2, disagreement.reference[0].2 + 1);
    assert!(
        disagreement.to_string().contains(": core "),
        "{disagreement}"
    );
}

/// Positions from random games (a fixed seed): kings and captures appear.
fn random_positions(n: usize) -> Vec<(Board, Side)> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < n {
        let (mut board, mut side) = (start_board(), Side::Red);
        for ply in 0..120 {
            let moves = legal_moves(&board, side, Captures::Paths);
            if moves.is_empty() {
                break;
            }
            board = moves[(next() % moves.len() as u64) as usize].1;
            side = side.opponent();
            let can_move = !legal_moves(&board, side, Captures::Paths).is_empty();
            if ply >= 20 && board.kings != 0 && can_move && next() % 8 == 0 {
                out.push((board, side));
                break;
            }
        }
    }
    out
}

/// The table never changes a count: a table of 64 buckets (every bucket
/// overwritten again and again) and two threads against no table, from random
/// positions past the depth where the work is shared out.
#[test]
fn the_table_changes_no_count() {
    for captures in [Captures::Paths, Captures::Sets] {
        let plain = core(0, 1, captures);
        let tiny = core(1, 2, captures);
        let roomy = core(16 << 20, 2, captures);
        for (board, side) in random_positions(4)
            .into_iter()
            .chain([(start_board(), Side::Red)])
        {
            for depth in [5, 8] {
                let expected = plain.count(&board, side, depth, &mut |_| {});
                assert_eq!(tiny.count(&board, side, depth, &mut |_| {}), expected);
                assert_eq!(roomy.count(&board, side, depth, &mut |_| {}), expected);
            }
        }
        assert!(roomy.stats().hits > 0, "the table was used");
        assert!(
            tiny.stats().stores > 64 * 3,
            "the tiny table was overwritten"
        );
    }
}
