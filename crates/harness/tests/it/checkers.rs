//! Checker's Check: the spec's examples and rule scenarios on both solvers, perft
//! against the published counts, the generator's reach, and proof that the harness
//! catches (and shrinks) deliberately wrong validators.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep_core::checkers::{self as model, Board, Case, Instance, Ruling, Side};
use lockstep_core::Model;
use lockstep_harness::corpus::{self, Origin};
use lockstep_harness::puzzle::{CaseLimits, Puzzle};
use lockstep_harness::puzzles::checkers::{all_valid, generate_logged, Mutation};
use lockstep_harness::puzzles::Checkers;
use lockstep_planted::checkers::{capture_only_for_mover, validate, BUGS};
use lockstep_reference::checkers as reference;
use lockstep_reference::Fuel;
use lockstep_search::seeds::{case_bytes, CASE_BYTES};
use std::collections::BTreeMap;

/// Both solvers' judge output for a judge input; they must agree.
fn judge(text: &str) -> String {
    crate::support::both_answer::<Checkers>(text)
}

#[test]
fn the_spec_examples() {
    let examples = [
        ("1 1\n14\n18\n1 R\n14-23\n0 0\n", "All moves valid\n"),
        (
            "3 1\n26 27 19\n-22\n1 W\n22-31-24-15\n0 0\n",
            "All moves valid\n",
        ),
        (
            "3 1\n26 27 19\n-22\n1 W\n22-31-24\n0 0\n",
            "Move 1 is invalid\n",
        ),
        ("1 1\n1\n22\n2 W\n22-18\n1-6\n0 0\n", "All moves valid\n"),
        ("1 1\n14\n18\n1 R\n14-18\n0 0\n", "Move 1 is invalid\n"),
    ];
    for (input, output) in examples {
        assert_eq!(judge(input), output, "{input}");
    }
    // All five as one input: one line per instance, in order.
    let joined: String = examples
        .iter()
        .map(|(input, _)| input.trim_end_matches("0 0\n"))
        .collect::<String>()
        + "0 0\n";
    assert_eq!(
        judge(&joined),
        "All moves valid\nAll moves valid\nMove 1 is invalid\nAll moves valid\nMove 1 is invalid\n"
    );
}

#[test]
fn the_statement_examples_are_in_the_corpus() {
    let dir = crate::support::corpus_dir();
    let rows = corpus::load::<Checkers>(&corpus::path_for::<Checkers>(&dir)).unwrap();
    let samples = rows
        .iter()
        .filter(|l| l.row.origin == Origin::Sample)
        .count();
    assert_eq!(samples, 5);
}

#[test]
fn rule_scenarios() {
    let scenarios = [
        // A jump is mandatory for every piece, not only the one that moves: 9-13
        // is a step while 14 can jump 18.
        ("2 1\n9 14\n18\n1 R\n9-13\n0 0\n", "Move 1 is invalid"),
        // Any jump may be chosen, a single one over a double one elsewhere; but a
        // sequence once started runs to its end.
        ("2 3\n6 13\n10 17 26\n1 R\n6-15\n0 0\n", "All moves valid"),
        (
            "2 3\n6 13\n10 17 26\n1 R\n13-22-31\n0 0\n",
            "All moves valid",
        ),
        (
            "2 3\n6 13\n10 17 26\n1 R\n13-22\n0 0\n",
            "Move 1 is invalid",
        ),
        // Crowning ends the move: 22-31 crowns, and the new king may not jump 27.
        ("1 2\n22\n26 27\n1 R\n22-31\n0 0\n", "All moves valid"),
        ("1 2\n22\n26 27\n1 R\n22-31-24\n0 0\n", "Move 1 is invalid"),
        // A king jumps on as far as it can.
        ("1 2\n-22\n26 27\n1 R\n22-31-24\n0 0\n", "All moves valid"),
        // A king jumps back over the piece it has just taken: not allowed.
        ("1 1\n-14\n18\n1 R\n14-23-14\n0 0\n", "Move 1 is invalid"),
        ("1 1\n-14\n18\n1 R\n14-23\n0 0\n", "All moves valid"),
        // The jumping piece's start square counts as empty: the king goes round
        // the four pieces and lands where it started; stopping one short is
        // incomplete.
        (
            "4 1\n26 27 19 18\n-22\n1 W\n22-31-24-15-22\n0 0\n",
            "All moves valid",
        ),
        (
            "4 1\n26 27 19 18\n-22\n1 W\n22-31-24-15\n0 0\n",
            "Move 1 is invalid",
        ),
        // A man moves forward only; a king either way.
        ("1 1\n14\n30\n1 R\n14-9\n0 0\n", "Move 1 is invalid"),
        ("1 1\n-14\n30\n1 R\n14-9\n0 0\n", "All moves valid"),
        // Squares off the board, off the diagonal, or a piece of the other side.
        ("1 1\n14\n30\n1 R\n14-33\n0 0\n", "Move 1 is invalid"),
        ("1 1\n14\n30\n1 R\n0-14\n0 0\n", "Move 1 is invalid"),
        ("1 1\n14\n30\n1 R\n14-15\n0 0\n", "Move 1 is invalid"),
        ("1 1\n14\n30\n1 W\n14-18\n0 0\n", "Move 1 is invalid"),
        // Sides alternate: Red may not move twice.
        ("1 1\n14\n30\n2 R\n14-18\n18-22\n0 0\n", "Move 2 is invalid"),
        // Only the first invalid move counts, and later ones are not applied.
        (
            "1 1\n9\n30\n4 R\n9-13\n30-26\n13-18\n26-23\n0 0\n",
            "Move 3 is invalid",
        ),
        // The captured piece is gone after the move: the White king steps onto 18.
        (
            "1 2\n14\n18 -22\n2 R\n14-23\n22-18\n0 0\n",
            "All moves valid",
        ),
    ];
    for (input, expected) in scenarios {
        assert_eq!(judge(input).trim_end(), expected, "{input}");
    }
}

/// Aart Bik's English-draughts perft from the start position (checkers perft page,
/// http://www.aartbik.com/MISC/checkers.html, also posted to TalkChess,
/// http://www.talkchess.com/forum3/viewtopic.php?t=27814).
const PUBLISHED_PERFT: [u64; 11] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
];

#[test]
fn the_reference_perft_matches_the_published_counts_to_depth_7() {
    for depth in 1..=7 {
        let nodes = reference::perft(depth, &mut Fuel::unlimited()).unwrap();
        assert_eq!(nodes, PUBLISHED_PERFT[depth as usize - 1], "depth {depth}");
    }
}

#[test]
fn the_core_perft_matches_the_published_counts_to_depth_10() {
    for depth in 1..=10 {
        assert_eq!(
            model::perft(depth),
            PUBLISHED_PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
    assert_eq!(model::perft_parallel(9, 2), PUBLISHED_PERFT[8]);
}

#[test]
fn the_reference_runs_out_of_fuel_instead_of_running_long() {
    assert!(reference::perft(6, &mut Fuel::new(1000)).is_err());
}

/// What the generator reaches in 20,000 cases, within either limits: every
/// mutation (the original limits leave out only squares off 1..=32), valid and
/// invalid cases in about equal numbers, multi-jumps and crownings among the
/// applied moves. Original cases all lie within the statement's limits.
#[test]
fn the_generator_reaches_every_mutation_and_both_verdicts() {
    for limits in [CaseLimits::Wide, CaseLimits::Original] {
        reaches_every_mutation(limits);
    }
}

fn reaches_every_mutation(limits: CaseLimits) {
    let mut outside = 0;
    let mut buf = vec![0u8; CASE_BYTES];
    let mut mutations: BTreeMap<Mutation, usize> = BTreeMap::new();
    let (mut cases, mut valid_cases, mut instances, mut valid_instances) = (0, 0, 0, 0);
    let (mut multi_jumps, mut crownings, mut max_pieces, mut min_pieces) = (0, 0, 0, 99);
    let mut instance_counts = [0; 4];
    for index in 0..20_000 {
        case_bytes(31, 0, index, &mut buf);
        let Ok((case, log)) = generate_logged(&mut arbitrary::Unstructured::new(&buf), limits)
        else {
            continue;
        };
        outside += usize::from(!Checkers::within_original(&case));
        for kind in log {
            *mutations.entry(kind).or_default() += 1;
        }
        cases += 1;
        instance_counts[case.instances.len()] += 1;
        let answer = case.solve().answer;
        valid_cases += usize::from(all_valid(&answer));
        for (instance, verdict) in case.instances.iter().zip(&answer) {
            instance.validate().unwrap();
            instances += 1;
            valid_instances += usize::from(*verdict == Ruling::AllValid);
            for side in [Side::Red, Side::White] {
                max_pieces = max_pieces.max(instance.pieces(side).len());
                min_pieces = min_pieces.min(instance.pieces(side).len());
            }
            let trace = model::trace_instance(instance);
            let mut before = Board::of(instance);
            for (m, after) in instance.moves.iter().zip(&trace.boards) {
                multi_jumps += usize::from(m.0.len() >= 3);
                let (from, to) = (m.0[0], *m.0.last().unwrap());
                let was_man = before.at(from).is_some_and(|(_, king)| !king);
                let is_king = after.at(to).is_some_and(|(_, king)| king);
                crownings += usize::from(was_man && is_king);
                before = *after;
            }
        }
    }
    println!(
        "{limits}: {outside} cases outside the original limits; {cases} cases, {valid_cases} all valid ({:.1}%); {instances} instances, \
         {valid_instances} valid; {multi_jumps} multi-jumps, {crownings} crownings applied; \
         mutations {mutations:?}",
        100.0 * valid_cases as f64 / cases as f64
    );
    assert!(cases > 19_000, "usable cases: {cases}");
    let share = valid_cases as f64 / cases as f64;
    assert!((0.35..=0.65).contains(&share), "valid share {share}");
    for kind in Mutation::ALL {
        let seen = mutations.get(&kind).copied().unwrap_or(0);
        if limits == CaseLimits::Original && kind == Mutation::OffBoard {
            assert_eq!(seen, 0, "squares off the board within the original limits");
        } else {
            assert!(seen >= 20, "{limits}: {kind:?} only {seen} times");
        }
    }
    match limits {
        CaseLimits::Original => assert_eq!(outside, 0),
        CaseLimits::Wide => assert!(outside >= 20, "only {outside} cases outside"),
    }
    assert!(
        instance_counts[1..].iter().all(|&n| n > 1000),
        "{instance_counts:?}"
    );
    assert_eq!((min_pieces, max_pieces), (1, 12));
    assert!(multi_jumps > 500, "multi-jumps applied: {multi_jumps}");
    assert!(crownings > 500, "crownings applied: {crownings}");
}

use lockstep_reference::Naive;

const FUEL: u64 = 200_000;
const MAX_CASES: u64 = 20_000;

fn pieces(instance: &Instance) -> usize {
    instance.red.len() + instance.white.len()
}

#[test]
fn the_third_validator_without_a_bug_agrees() {
    // Guards the test below: a broken `validate` would make every planted bug
    // "found" for the wrong reason.
    crate::support::third_agrees::<Checkers>(|case| validate(case, None), 5000, FUEL);
}

#[test]
fn planted_bugs_are_found_and_shrunk_small() {
    let total = |c: &Case| c.instances.iter().map(pieces).sum::<usize>();
    let bugs = BUGS.map(|(name, solver)| PlantedBug::<Checkers> {
        name,
        solver: Box::new(solver),
        small: Box::new(move |c: &Case| c.instances.len() == 1 && total(c) <= 4),
    });
    let hunt = Hunt {
        fuel: FUEL,
        max_cases: MAX_CASES,
        max_findings: 1,
        within: &|_| true,
        describe: &|c: &Case| {
            format!(
                "{} instance(s), {} pieces:\n{}",
                c.instances.len(),
                total(c),
                c.write_input()
            )
        },
    };
    planted_bugs(&hunt, &bugs);
}

#[test]
fn a_campaign_against_a_broken_core_reports_a_shrunk_row() {
    let (shrunk, _) = crate::support::broken_core_row::<Checkers>(capture_only_for_mover);
    assert!(
        shrunk.instances.iter().map(pieces).sum::<usize>() <= 4,
        "{shrunk:?}"
    );
}

/// The bench's whole games are what its line says: every move valid for both
/// solvers, and long (most games run to the ply limit or to a finished game).
#[test]
fn the_bench_whole_games_are_long_and_all_valid() {
    let games = lockstep_harness::puzzles::checkers::whole_games(3, 20, 80);
    let moves: usize = games.iter().map(|c| c.instances[0].moves.len()).sum();
    assert!(moves >= 20 * 40, "only {moves} moves in 20 games");
    for case in &games {
        let core = case.solve();
        let reference = case.solve_naively(&mut Fuel::unlimited()).unwrap();
        assert_eq!(core.answer, vec![Ruling::AllValid]);
        assert_eq!(reference.answer, core.answer);
        assert_eq!(reference.digest, core.digest);
    }
}
