//! New Game 2: rule scenarios on both solvers, the generator's reach, and proof that
//! the harness catches (and shrinks) deliberately wrong solvers.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep_core::new_game2::{
    self as model, Answer, Case, Colour, Dir, Rule, Snapshot, ENDING_HEIGHT,
};
use lockstep_core::Model;
use lockstep_harness::campaign::generate_case;
use lockstep_harness::puzzles::NewGame2;
use lockstep_harness::shrink::Sideways;
use lockstep_planted::new_game2::{leaves_its_stack_behind, plays_turn_1001, simulate, BUGS};
use lockstep_reference::new_game2 as reference;
use lockstep_reference::Naive;
use lockstep_search::seeds::CASE_BYTES;
use std::collections::BTreeSet;

/// Both solvers' state after `steps` piece moves.
fn both_after(case: &Case, steps: usize) -> Snapshot {
    let core = model::trace(case, steps);
    let naive = reference::trace(case, steps);
    assert_eq!(core.steps, naive.steps, "traces differ");
    assert_eq!(core.state, naive.state, "states differ");
    core.state
}

fn case(text: &str) -> Case {
    Case::parse(text).unwrap()
}

fn stack(state: &Snapshot, row: usize, col: usize) -> &[u8] {
    &state.stacks[(row - 1) * state.n + col - 1]
}

#[test]
fn a_group_moving_onto_red_is_reversed() {
    // Piece 1 climbs onto piece 2; piece 2 then carries it onto the red (1,3).
    let game = case("4 4\n0 0 1 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n3 1 3\n4 4 3\n");
    let state = both_after(&game, 1);
    assert_eq!(stack(&state, 1, 2), [2, 1]);
    let state = both_after(&game, 2);
    assert_eq!(stack(&state, 1, 3), [1, 2]);
    assert_eq!(model::trace(&game, 2).steps[1].rule, Rule::Red);
}

#[test]
fn a_group_moving_onto_white_keeps_its_order_on_top_of_the_target() {
    // 1 onto 2 at (1,2); 2 carries 1 onto 3 at (1,3): bottom to top 3, 2, 1.
    let game = case("4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n1 3 4\n4 4 3\n");
    let state = both_after(&game, 2);
    assert_eq!(stack(&state, 1, 3), [3, 2, 1]);
}

#[test]
fn the_edge_and_blue_turn_a_piece_round() {
    // Piece 1 at the left edge facing left: turns round and moves right.
    let game = case("4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 2\n3 1 3\n3 3 3\n4 4 3\n");
    let step = model::trace(&game, 1).steps[0];
    assert_eq!((step.to, step.rule), ((1, 2), Rule::TurnedWhite));
    assert_eq!(both_after(&game, 1).dirs[0], Dir::Right);
    // Blue on both sides: stays, but its direction stays reversed.
    let game = case("4 4\n2 0 2 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 2 2\n3 1 3\n3 3 3\n4 4 3\n");
    let step = model::trace(&game, 1).steps[0];
    assert_eq!((step.to, step.rule), ((1, 2), Rule::TurnedStayed));
    assert_eq!(both_after(&game, 1).dirs[0], Dir::Right);
}

#[test]
fn the_game_ends_in_the_middle_of_a_turn() {
    // Statement sample 2: the fourth piece is stacked by piece 3's move on turn 1,
    // and piece 4 never moves.
    let game = case("4 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 1\n1 2 1\n1 3 1\n1 4 1\n");
    let trace = model::trace(&game, usize::MAX);
    assert_eq!(trace.steps.len(), 3);
    assert_eq!(trace.steps[2].height() as usize, ENDING_HEIGHT);
    assert_eq!(reference::trace(&game, usize::MAX).steps, trace.steps);
}

/// What the generator reaches in 20,000 cases: board sizes and piece counts at both
/// ends, every rule, and answers from turn 1 to late and never.
#[test]
fn the_generator_reaches_every_rule_and_every_kind_of_ending() {
    let mut buf = vec![0u8; CASE_BYTES];
    let (mut sizes, mut counts, mut rules) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let (mut first_turn, mut late, mut never, mut on_red) = (0, 0, 0, 0);
    let mut at_the_limit = 0;
    for index in 0..20_000 {
        let game = generate_case::<NewGame2>(11, 0, index, &mut buf).expect("a valid case");
        game.validate().unwrap();
        sizes.insert(game.n);
        counts.insert(game.pieces.len());
        for step in model::trace(&game, 60).steps {
            rules.insert(format!("{:?}", step.rule));
        }
        match game.solve().answer {
            Answer::EndsOnTurn(1) => first_turn += 1,
            // The turn-limit games (late.rs in the generator), counted apart.
            Answer::EndsOnTurn(999 | 1000) => at_the_limit += 1,
            Answer::EndsOnTurn(t) if t > 100 => late += 1,
            Answer::EndsOnTurn(_) => {}
            Answer::NotWithinLimit => never += 1,
        }
        on_red += game
            .board
            .iter()
            .filter(|&&c| c == Colour::Red)
            .count()
            .min(1);
    }
    // The generator's shares (`-- --nocapture` shows them).
    eprintln!(
        "of 20,000 games: {never} never end, {late} end after turn 100 (before 999), \
         {at_the_limit} on turn 999 or 1000, {first_turn} on turn 1"
    );
    // One case in ten is a turn-limit game, half of them ending on 999 or 1000.
    assert!(
        (700..=1300).contains(&at_the_limit),
        "games ending on turn 999 or 1000: {at_the_limit}"
    );
    assert_eq!(sizes, (4..=12).collect(), "board sizes");
    assert_eq!(counts, (4..=10).collect(), "piece counts");
    assert_eq!(rules.len(), 5, "rules seen: {rules:?}");
    assert!(first_turn > 500, "games ending on turn 1: {first_turn}");
    // About half never end (docs/guide/src/rules/new_game2.md), 4% end after turn 100.
    assert!(
        (600..=1200).contains(&late),
        "games ending after turn 100: {late}"
    );
    assert!(
        (8000..=12_000).contains(&never),
        "games that never end: {never}"
    );
    assert!(on_red > 10_000, "boards with red: {on_red}");
}

const FUEL: u64 = 20_000;
const MAX_CASES: u64 = 5_000;

#[test]
fn the_third_simulation_without_a_bug_agrees() {
    // Guards the test below: a broken `simulate` would make every planted bug
    // "found" for the wrong reason.
    crate::support::third_agrees::<NewGame2>(|case| simulate(case, None), 3000, FUEL);
}

/// The generator's turn-limit games end on the turn they were found to end
/// on, by the third simulation played for 1001 turns, by the core and the
/// reference (which answer -1 for turn 1001).
#[test]
fn the_late_games_end_on_their_turn() {
    use lockstep_harness::puzzles::new_game2::LATE_GAMES;
    for game in &LATE_GAMES {
        let text = format!(
            "{0} {1}\n{2}{3}",
            game.n,
            game.pieces.len(),
            game.colours
                .as_bytes()
                .chunks(game.n)
                .map(|row| row
                    .iter()
                    .map(|&c| (c as char).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n")
                .collect::<String>(),
            game.pieces
                .iter()
                .map(|(r, c, d)| format!("{r} {c} {d}\n"))
                .collect::<String>()
        );
        let case = Case::parse(&text).unwrap();
        assert_eq!(
            plays_turn_1001(&case).answer,
            Answer::EndsOnTurn(game.ends_on)
        );
        let truth = if game.ends_on <= 1000 {
            Answer::EndsOnTurn(game.ends_on)
        } else {
            Answer::NotWithinLimit
        };
        assert_eq!(case.solve().answer, truth, "{text}");
        assert_eq!(
            case.solve_naively(&mut lockstep_reference::Fuel::unlimited())
                .unwrap()
                .answer,
            truth
        );
    }
}

#[test]
fn planted_bugs_are_found_and_shrunk_small() {
    let bugs = BUGS.map(|(name, solver)| PlantedBug::<NewGame2> {
        name,
        solver: Box::new(solver),
        small: Box::new(|c: &Case| c.pieces.len() <= 5 && c.n <= 6),
    });
    let hunt = Hunt {
        fuel: FUEL,
        max_cases: MAX_CASES,
        max_findings: 1,
        within: &|_| true,
        describe: &|c: &Case| format!("{0}x{0} with {1} pieces", c.n, c.pieces.len()),
    };
    planted_bugs(&hunt, &bugs);
}

#[test]
fn a_campaign_against_a_broken_core_reports_a_shrunk_row() {
    // The expected answer is the reference's, and the note keeps the core's.
    let (shrunk, row) = crate::support::broken_core_row::<NewGame2>(leaves_its_stack_behind);
    assert!(shrunk.pieces.len() <= 5 && shrunk.n <= 6, "{shrunk:?}");
    assert!(row.note.contains("seed 8"), "{}", row.note);
}

/// Among failing cases of one size the shrinker keeps one whose game ends
/// soonest: from every shrunk case, no variant one step sideways (a piece
/// turned, the same size) whose game ends sooner still fails. Each planted
/// bug, cases from several seeds.
#[test]
fn a_shrunk_game_is_the_shortest_of_its_size_that_fails() {
    let mut checked = 0;
    for (name, solver) in BUGS {
        if name.contains("1001") {
            continue; // only games of 1000 turns fail: none is shorter
        }
        let fails = |c: &Case| {
            let truth = c.solve_naively(&mut lockstep_reference::Fuel::new(FUEL));
            truth.is_ok_and(|t| solver(c).answer != t.answer)
        };
        let mut buf = vec![0u8; CASE_BYTES];
        for index in 0..2_000 {
            let Some(case) = generate_case::<NewGame2>(3, 0, index, &mut buf) else {
                continue;
            };
            if !fails(&case) {
                continue;
            }
            let shrunk = lockstep_harness::shrink::shrink::<NewGame2>(case, fails, 3_000).case;
            let length = NewGame2::game_length(&shrunk).unwrap();
            for turned in NewGame2::sideways(&shrunk) {
                let shorter = NewGame2::game_length(&turned).is_some_and(|l| l < length);
                assert!(
                    !(shorter && fails(&turned)),
                    "{name}: shrunk to a game of {length} turns, and a piece turned gives a \
                     shorter one that fails too:\n{}",
                    turned.write_input()
                );
            }
            checked += 1;
            break;
        }
    }
    assert_eq!(checked, 3, "a failing case for each of the three bugs");
}
