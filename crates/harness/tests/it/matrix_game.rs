//! The equilibrium solver of the mixed duel bot as a puzzle: textbook games
//! on both sides, the core's strategies held to the reference's best replies,
//! what the answer's equality means, the generator's reach, input errors
//! through the binary, and deliberately wrong solvers.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep_core::matrix_game::{equilibrium, Game, Value, EPSILON, MAX_DENOMINATOR};
use lockstep_core::Model;
use lockstep_harness::campaign::generate_case;
use lockstep_harness::puzzle::{check, Agreement, Puzzle};
use lockstep_harness::puzzles::matrix_game::shrink_measure;
use lockstep_harness::puzzles::MatrixGame;
use lockstep_planted::matrix_game::bugs;
use lockstep_reference::matrix_game::best_replies;
use lockstep_reference::{Fuel, Naive};
use lockstep_search::seeds::CASE_BYTES;

fn game(text: &str) -> Game {
    Game::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn answers(g: &Game) -> (String, String) {
    let core = Game::write_answer(&g.solve().answer);
    let naive = Game::write_answer(&g.solve_naively(&mut Fuel::unlimited()).unwrap().answer);
    (core, naive)
}

/// Generated games (seed `seed`), `count` of them.
fn games(seed: u64, count: u64) -> Vec<Game> {
    let mut buf = vec![0u8; CASE_BYTES];
    (0..count)
        .filter_map(|i| generate_case::<MatrixGame>(seed, 0, i, &mut buf))
        .collect()
}

#[test]
fn textbook_games_hold_on_both_solvers() {
    for (text, expected) in [
        // Matching pennies, and the same game shifted by 2: the value moves by 2.
        ("2 2\n1 -1\n-1 1\n", "0 0 0"),
        ("2 2\n3 1\n1 3\n", "2 2 2"),
        // Rock, paper, scissors.
        ("3 3\n0 -1 1\n1 0 -1\n-1 1 0\n", "0 0 0"),
        // x = (6/10, 4/10), y = (1/2, 1/2).
        ("2 2\n3 -1\n-2 4\n", "1 1 1"),
        // A saddle point at (1, 0): pure.
        ("2 3\n1 5 7\n2 3 4\n", "2 2 2"),
        // Mixed with a thin chance of the bad row: 3/7.
        ("2 2\n0 2\n3 -9\n", "3/7 3/7 3/7"),
        // One row: the column player takes the least.
        ("1 4\n4 -2 7 0\n", "-2 -2 -2"),
        // A 2 x 4 game whose optimal column mixes two of four columns.
        ("2 4\n2 3 1 5\n4 1 6 0\n", "17/7 17/7 17/7"),
    ] {
        let (core, naive) = answers(&game(text));
        assert_eq!(naive.trim_end(), expected, "reference on {text:?}");
        assert_eq!(core, naive, "core on {text:?}");
    }
}

/// The reference's own best replies, in floating point, to the core's
/// strategies: within EPSILON of the exact value on every generated game. The
/// campaign compares the core's own best replies (the three numbers); this
/// holds them to code outside core.
#[test]
fn the_cores_strategies_are_epsilon_equilibria_against_the_references_best_replies() {
    let (mut mixed, mut checked) = (0, 0);
    for g in games(41, 1500) {
        let exact = match g.solve_naively(&mut Fuel::unlimited()).unwrap().answer[0] {
            Value::Exact(p, q) => p as f64 / q as f64,
            Value::Approx(x) => panic!("the reference is exact: {x}"),
        };
        let core = equilibrium(&g);
        let (lower, upper) = best_replies(&g, &core.rows, &core.columns);
        let shown = g.write_input();
        assert!((core.value - exact).abs() <= EPSILON, "value on {shown}");
        assert!(exact - lower <= EPSILON, "row strategy on {shown}");
        assert!(upper - exact <= EPSILON, "column strategy on {shown}");
        let total: f64 = core.rows.iter().sum::<f64>() + core.columns.iter().sum::<f64>();
        assert!((total - 2.0).abs() < 1e-9, "weights on {shown}");
        checked += 1;
        mixed += usize::from(core.rows.iter().filter(|&&w| w > 0.0).count() > 1);
    }
    assert!(
        checked > 1400 && mixed > 300,
        "{checked} games, {mixed} with a mixed row strategy"
    );
}

/// Equal lines mean what the rule page says: a value within EPSILON of the
/// game's snaps to its fraction, one twice as far does not, and the values
/// of generated games stay well under the denominator bound.
#[test]
fn the_printed_fractions_are_equal_exactly_within_epsilon() {
    let mut largest = 0;
    for g in games(43, 800) {
        let answer = g.solve_naively(&mut Fuel::unlimited()).unwrap().answer;
        let Value::Exact(p, q) = answer[0] else {
            panic!("the reference is exact")
        };
        largest = largest.max(q);
        let exact = p as f64 / q as f64;
        assert_eq!(Value::snapped(exact + 0.9 * EPSILON), Value::Exact(p, q));
        assert_eq!(Value::snapped(exact - 0.9 * EPSILON), Value::Exact(p, q));
        assert_ne!(Value::snapped(exact + 2.0 * EPSILON), Value::Exact(p, q));
    }
    assert!(largest < MAX_DENOMINATOR, "{largest}");
    // A game built to have a large denominator at the bound's own limits (4 x 4,
    // entries up to 9) still snaps on both sides.
    let (core, naive) = answers(&game("4 4\n9 -8 7 -9\n-9 9 -7 8\n8 -9 9 -7\n-7 8 -9 9\n"));
    assert_eq!(core, naive);
}

#[test]
fn generated_games_reach_every_shape() {
    let all = games(47, 2000);
    let pure = all
        .iter()
        .filter(|g| equilibrium(g).rows.contains(&1.0))
        .count();
    let wide = all
        .iter()
        .filter(|g| equilibrium(g).columns.iter().filter(|&&w| w > 0.0).count() >= 3)
        .count();
    let largest = all.iter().filter(|g| g.rows.min(g.columns) >= 5).count();
    let constant = all
        .iter()
        .filter(|g| g.entries.iter().all(|&e| e == g.entries[0]))
        .count();
    assert!(
        pure > 200 && wide > 100 && largest > 50 && constant > 5,
        "pure {pure}, three columns or more {wide}, 5 x 5 or more {largest}, constant {constant}"
    );
    for g in &all {
        assert_eq!(
            check::<MatrixGame>(g),
            Agreement::Agree,
            "{}",
            g.write_input()
        );
    }
}

#[test]
fn every_shrink_candidate_lowers_the_measure() {
    let mut checked = 0;
    for g in games(53, 200) {
        let before = shrink_measure(&g);
        for simpler in MatrixGame::shrink_candidates(&g) {
            simpler.validate().unwrap();
            let after = shrink_measure(&simpler);
            let lowered = (0..2).filter(|&i| after[i] < before[i]).count();
            let raised = (0..2).filter(|&i| after[i] > before[i]).count();
            assert!(lowered >= 1 && raised == 0, "{before:?} -> {after:?}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

// ---- planted bugs ----

#[test]
fn planted_bugs_are_found_and_shrunk_to_two_by_two() {
    let bugs: Vec<PlantedBug<MatrixGame>> = bugs()
        .into_iter()
        .map(|(name, solver)| PlantedBug {
            name,
            solver: Box::new(solver),
            small: Box::new(|g: &Game| g.rows <= 2 && g.columns <= 2),
        })
        .collect();
    let hunt = Hunt {
        fuel: MatrixGame::FUEL,
        max_cases: 2000,
        max_findings: 3,
        within: &|_| true,
        describe: &|g: &Game| MatrixGame::describe(g),
    };
    planted_bugs(&hunt, &bugs);
}
