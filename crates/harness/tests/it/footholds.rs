//! Disappearing Footholds: the samples, core-only properties on boards the
//! reference cannot finish, the generator's reach, and deliberately wrong solvers.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use arbitrary::Unstructured;
use lockstep_core::footholds::{self as model, Answer, Case, Game};
use lockstep_core::Model;
use lockstep_harness::campaign::generate_case;
use lockstep_harness::puzzle::{check, check_with, Agreement, Run};
use lockstep_harness::puzzles::footholds::{first_moves, full_board, generate_game};
use lockstep_harness::puzzles::Footholds;
use lockstep_planted::footholds::{simulate, BUGS};
use lockstep_reference::footholds as reference;
use lockstep_reference::Fuel;
use lockstep_search::seeds::{case_bytes, CASE_BYTES};

fn game(text: &str) -> Game {
    Case::parse(text).unwrap().games.remove(0)
}

fn core_moves(game: &Game) -> u32 {
    model::solve_within(game, None).0.unwrap()
}

#[test]
fn the_samples_hold_on_both_solvers() {
    let samples = [
        ("3 3\n1 1 1\n1 1 1\n1 1 1\n1 0 1 2\n", 5),
        ("3 3\n1 1 1\n1 0 1\n1 1 1\n1 0 1 2\n", 4),
        ("1 5\n1 1 1 1 1\n0 0 0 4\n", 4),
        ("1 1\n1\n0 0 0 0\n", 0),
    ];
    for (text, moves) in samples {
        let g = game(text);
        assert_eq!(core_moves(&g), moves, "{text}");
        assert_eq!(
            reference::prospect(&g, &mut Fuel::unlimited())
                .unwrap()
                .moves,
            moves,
            "{text}"
        );
    }
}

#[test]
fn leaving_a_shared_foothold_wins_at_once() {
    // Both on the middle of a 1x3 strip: A steps off, the cell vanishes under B.
    let g = game("1 3\n1 1 1\n0 1 0 1\n");
    assert_eq!(core_moves(&g), 1);
    let outcome = reference::prospect(&g, &mut Fuel::unlimited()).unwrap();
    assert!(outcome.wins && outcome.moves == 1);
}

/// Random boards up to `side` x `side`, for properties the reference cannot check.
fn large_games(count: u64, side: usize) -> Vec<Game> {
    let mut buf = vec![0u8; CASE_BYTES];
    (0..count)
        .filter_map(|i| {
            case_bytes(31, 0, i, &mut buf);
            generate_game(&mut Unstructured::new(&buf), side).ok()
        })
        .collect()
}

#[test]
fn the_answer_survives_mirroring_and_rotation() {
    let mut checked = 0;
    for g in large_games(400, 6) {
        let moves = core_moves(&g);
        let mut turned = g.clone();
        for _ in 0..4 {
            assert_eq!(core_moves(&turned), moves, "rotated {turned:?}");
            assert_eq!(core_moves(&turned.mirrored()), moves, "mirrored {turned:?}");
            turned = turned.rotated();
        }
        assert_eq!(turned, g);
        checked += 1;
    }
    assert!(checked > 350);
}

/// The core's first-move claims hold one move later: a winning first move leads to
/// a position lost for the opponent with one move fewer, and no first move does
/// better; a losing position has every first move winning for the opponent.
#[test]
fn the_core_agrees_with_itself_one_move_later() {
    let mut wins = 0;
    for g in large_games(600, 6)
        .into_iter()
        .chain([full_board(6, (0, 0), (5, 5))])
    {
        let total = core_moves(&g);
        let children: Vec<(bool, u32)> = first_moves(&g)
            .iter()
            .map(|(_, after)| {
                // B's foothold vanished when A left their shared cell: B has lost.
                if !after.foothold(after.a) {
                    return (false, 0);
                }
                let rest = core_moves(after);
                // Who wins from `after` (B to move)? Re-derive it from parity: the
                // player to move at the end is the loser, so B wins iff the number of
                // moves left is odd.
                (rest % 2 == 1, rest)
            })
            .collect();
        if children.is_empty() {
            assert_eq!(total, 0);
            continue;
        }
        let a_wins = total % 2 == 1;
        if a_wins {
            wins += 1;
            let fastest = children
                .iter()
                .filter(|(b_wins, _)| !b_wins)
                .map(|(_, m)| m + 1)
                .min();
            assert_eq!(fastest, Some(total), "{g:?}");
        } else {
            assert!(children.iter().all(|(b_wins, _)| *b_wins), "{g:?}");
            let slowest = children.iter().map(|(_, m)| m + 1).max();
            assert_eq!(slowest, Some(total), "{g:?}");
        }
    }
    assert!(wins > 50, "winning positions checked: {wins}");
}

#[test]
fn the_core_solves_full_7x7_boards() {
    // The bar is 10 s for corner starts; a test only checks it finishes and
    // agrees with itself under symmetry (the bench measures the time).
    let corner = full_board(7, (0, 0), (6, 6));
    let moves = core_moves(&corner);
    assert_eq!(core_moves(&full_board(7, (6, 6), (0, 0))), moves);
    assert!(moves > 0 && moves <= 48);
}

#[test]
fn the_generator_reaches_small_full_shared_and_split_boards() {
    let mut buf = vec![0u8; CASE_BYTES];
    let (mut shared, mut adjacent, mut full, mut timeouts, mut split) = (0, 0, 0, 0, 0);
    let mut sizes = std::collections::BTreeSet::new();
    let mut answers = std::collections::BTreeSet::new();
    for index in 0..5000 {
        let case = generate_case::<Footholds>(17, 0, index, &mut buf).unwrap();
        for g in &case.games {
            g.validate().unwrap();
            sizes.insert((g.height, g.width));
            shared += usize::from(g.a == g.b);
            adjacent += usize::from(g.a.0.abs_diff(g.b.0) + g.a.1.abs_diff(g.b.1) == 1);
            full += usize::from(g.cells.iter().all(|&c| c) && g.height * g.width >= 9);
            // A column of holes with footholds on both sides.
            split += usize::from(
                (1..g.width.saturating_sub(1))
                    .any(|c| (0..g.height).all(|r| !g.cells[r * g.width + c])),
            );
        }
        match check::<Footholds>(&case) {
            Agreement::Agree => answers.extend(case.solve().answer),
            Agreement::Timeout => timeouts += 1,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(sizes.len(), 25, "every size from 1x1 to 5x5: {sizes:?}");
    assert!(
        shared > 200 && adjacent > 800 && full > 100 && split > 100,
        "{shared} {adjacent} {full} {split}"
    );
    assert!(
        timeouts < 250,
        "the reference should finish most cases: {timeouts} timeouts"
    );
    assert!(answers.len() >= 15, "answers seen: {answers:?}");
}

const FUEL: u64 = 2_000_000;
const MAX_CASES: u64 = 5000;

/// Keeps the planted-bug search fast: the third solver is as slow as the reference.
fn small(case: &Case) -> bool {
    case.games.iter().all(|g| g.mask().count_ones() <= 12)
}

#[test]
fn the_third_solver_without_a_bug_agrees() {
    fn bug_free(case: &Case) -> Run<Answer> {
        simulate(case, None)
    }
    let mut buf = vec![0u8; CASE_BYTES];
    let mut checked = 0;
    for index in 0..3000 {
        let case = generate_case::<Footholds>(5, 0, index, &mut buf).unwrap();
        if small(&case) {
            assert_eq!(
                check_with::<Footholds>(&case, bug_free, FUEL),
                Agreement::Agree,
                "{case:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn planted_bugs_are_found_and_shrunk_to_3x3() {
    let bugs = BUGS.map(|(name, solver)| PlantedBug::<Footholds> {
        name,
        solver: Box::new(solver),
        small: Box::new(|c: &Case| {
            c.games.len() == 1 && c.games[0].height <= 3 && c.games[0].width <= 3
        }),
    });
    let hunt = Hunt {
        fuel: FUEL,
        max_cases: MAX_CASES,
        max_findings: 1,
        within: &small,
        describe: &|c: &Case| c.write_input(),
    };
    planted_bugs(&hunt, &bugs);
}
