//! Checker's Check: the spec's examples and rule scenarios on both solvers, perft
//! against the published counts, the generator's reach, and proof that the harness
//! catches (and shrinks) deliberately wrong validators.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep::campaign::{self, generate_case, Solver};
use lockstep::corpus::{self, Origin};
use lockstep::puzzle::{check_with, Run, Verdict as Check};
use lockstep::puzzle::{CaseLimits, Puzzle};
use lockstep::puzzles::checkers::{all_valid, generate_logged, Mutation};
use lockstep::puzzles::Checkers;
use lockstep::seeds::{case_bytes, CASE_BYTES};
use lockstep_core::checkers::{self as model, Answer, Board, Case, Instance, Ruling, Side};
use lockstep_core::digest::Digest;
use lockstep_reference::checkers as reference;
use lockstep_reference::Fuel;
use std::collections::BTreeMap;

/// Both solvers' judge output for a judge input; they must agree.
fn judge(text: &str) -> String {
    let case = model::parse(text).unwrap();
    let core = model::write_answer(&model::solve(&case).answer);
    let naive = model::write_answer(
        &reference::solve(&case, &mut Fuel::unlimited())
            .unwrap()
            .answer,
    );
    assert_eq!(core, naive, "core and reference disagree on\n{text}");
    core
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
        let answer = model::solve(&case).answer;
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

/// The deliberately wrong validators, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bug {
    /// A multiple jump may stop while the piece can still jump.
    StopsEarly,
    /// Crowning does not end the move: the new king jumps on.
    JumpsOnAfterCrowning,
    /// The mandatory capture is checked only for the piece that moves.
    CaptureOnlyForMover,
    /// A king may jump a piece it has already jumped in this move.
    KingJumpsTwice,
}

/// Square contents, indexed 1..=32.
type Squares = [Option<(Side, bool)>; 33];

fn cell(square: u32) -> (i32, i32) {
    let row = (square - 1) / 4;
    let col = 2 * ((square - 1) % 4) + u32::from(row.is_multiple_of(2));
    (row as i32, col as i32)
}

fn square_at(row: i32, col: i32) -> Option<u32> {
    ((0..8).contains(&row) && (0..8).contains(&col) && (row + col) % 2 == 1)
        .then(|| (row * 4 + col / 2 + 1) as u32)
}

fn directions(side: Side, king: bool) -> Vec<(i32, i32)> {
    let forward = if side == Side::Red { 1 } else { -1 };
    [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        .into_iter()
        .filter(|d| king || d.0 == forward)
        .collect()
}

/// The jump from `at` in `d`, if the square beyond is empty and the one between
/// holds an opponent that may be jumped: (over, landing).
fn jump(
    squares: &Squares,
    at: u32,
    d: (i32, i32),
    side: Side,
    captured: &[u32],
) -> Option<(u32, u32)> {
    let (row, col) = cell(at);
    let over = square_at(row + d.0, col + d.1)?;
    let land = square_at(row + 2 * d.0, col + 2 * d.1)?;
    let opponent = matches!(squares[over as usize], Some((s, _)) if s != side);
    (opponent && !captured.contains(&over) && squares[land as usize].is_none())
        .then_some((over, land))
}

fn can_jump(squares: &Squares, at: u32, side: Side, king: bool, captured: &[u32]) -> bool {
    directions(side, king)
        .into_iter()
        .any(|d| jump(squares, at, d, side, captured).is_some())
}

/// Plays one written move if it is legal (with `bug` planted).
fn play(squares: &mut Squares, side: Side, path: &[u32], bug: Option<Bug>) -> bool {
    if path.iter().any(|s| !(1..=32).contains(s)) {
        return false;
    }
    let Some((owner, mut king)) = squares[path[0] as usize] else {
        return false;
    };
    if owner != side {
        return false;
    }
    let must_jump = if bug == Some(Bug::CaptureOnlyForMover) {
        can_jump(squares, path[0], side, king, &[])
    } else {
        (1..=32).any(|s| {
            matches!(squares[s as usize], Some((o, k)) if o == side && can_jump(squares, s, side, k, &[]))
        })
    };
    let mut after = *squares;
    after[path[0] as usize] = None;
    let promotes = |s: u32| match side {
        Side::Red => s >= 29,
        Side::White => s <= 4,
    };
    if !must_jump {
        let (row, col) = cell(path[0]);
        let ok = path.len() == 2
            && directions(side, king)
                .into_iter()
                .any(|d| square_at(row + d.0, col + d.1) == Some(path[1]))
            && after[path[1] as usize].is_none();
        if ok {
            after[path[1] as usize] = Some((side, king || promotes(path[1])));
            *squares = after;
        }
        return ok;
    }
    let mut at = path[0];
    let mut captured = Vec::new();
    let mut crowned = false;
    for &to in &path[1..] {
        if crowned && bug != Some(Bug::JumpsOnAfterCrowning) {
            return false;
        }
        let ignore = if bug == Some(Bug::KingJumpsTwice) && king {
            &[][..]
        } else {
            &captured[..]
        };
        let Some((over, _)) = directions(side, king)
            .into_iter()
            .filter_map(|d| jump(&after, at, d, side, ignore))
            .find(|&(_, land)| land == to)
        else {
            return false;
        };
        captured.push(over);
        at = to;
        if !king && promotes(at) {
            crowned = true;
            if bug == Some(Bug::JumpsOnAfterCrowning) {
                king = true;
            }
        }
    }
    let may_stop = crowned && bug != Some(Bug::JumpsOnAfterCrowning)
        || bug == Some(Bug::StopsEarly)
        || !can_jump(&after, at, side, king, &captured);
    if !may_stop {
        return false;
    }
    for over in captured {
        after[over as usize] = None;
    }
    after[at as usize] = Some((side, king || crowned));
    *squares = after;
    true
}

fn board_of(squares: &Squares) -> Board {
    let mut board = Board::default();
    for s in 1..=32u32 {
        if let Some((side, king)) = squares[s as usize] {
            let bit = 1 << (s - 1);
            match side {
                Side::Red => board.red |= bit,
                Side::White => board.white |= bit,
            }
            if king {
                board.kings |= bit;
            }
        }
    }
    board
}

/// A third validator with at most one bug planted. It reports the same trace as
/// the real solvers, so only the planted bug can make it disagree.
fn validate(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let mut digest = Digest::new();
    let mut answer = Vec::new();
    for instance in &case.instances {
        let mut squares: Squares = [None; 33];
        for side in [Side::Red, Side::White] {
            for p in instance.pieces(side) {
                squares[usize::from(p.square)] = Some((side, p.king));
            }
        }
        let mut side = instance.to_move;
        let mut verdict = Ruling::AllValid;
        for (index, m) in instance.moves.iter().enumerate() {
            if !play(&mut squares, side, &m.0, bug) {
                verdict = Ruling::Invalid(index + 1);
                break;
            }
            board_of(&squares)
                .packed()
                .into_iter()
                .for_each(|w| digest.push(w));
            side = side.opponent();
        }
        digest.push(verdict.packed());
        answer.push(verdict);
    }
    Run {
        answer,
        digest: digest.value(),
    }
}

fn stops_early(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::StopsEarly))
}
fn jumps_on_after_crowning(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::JumpsOnAfterCrowning))
}
pub(crate) fn capture_only_for_mover(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::CaptureOnlyForMover))
}
fn king_jumps_twice(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::KingJumpsTwice))
}

const FUEL: u64 = 200_000;
const MAX_CASES: u64 = 20_000;

fn pieces(instance: &Instance) -> usize {
    instance.red.len() + instance.white.len()
}

#[test]
fn the_third_validator_without_a_bug_agrees() {
    // Guards the test below: a broken `validate` would make every planted bug
    // "found" for the wrong reason.
    fn bug_free(case: &Case) -> Run<Answer> {
        validate(case, None)
    }
    let mut buf = vec![0u8; CASE_BYTES];
    for index in 0..5000 {
        let case = generate_case::<Checkers>(5, 0, index, &mut buf).unwrap();
        assert_eq!(
            check_with::<Checkers>(&case, bug_free, FUEL),
            Check::Agree,
            "{}",
            model::write_input(&case)
        );
    }
}

/// The planted bugs of this puzzle (see planted.rs for the catalogue).
pub(crate) const BUGS: [(&str, Solver<Checkers>); 4] = [
    ("a multi-jump may stop early", stops_early),
    (
        "a jump may continue after crowning",
        jumps_on_after_crowning,
    ),
    (
        "mandatory capture only for the moving piece",
        capture_only_for_mover,
    ),
    ("a king may jump a piece twice", king_jumps_twice),
];

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
                model::write_input(c)
            )
        },
    };
    planted_bugs(&hunt, &bugs);
}

#[test]
fn a_campaign_against_a_broken_core_reports_a_shrunk_row() {
    let options = crate::support::campaign_options(8, 20_000);
    let report = campaign::run_with::<Checkers>(&options, capture_only_for_mover);
    let (_, _, finding) = report.finding.expect("the broken core is found");
    let row = finding.row;
    let shrunk = model::parse(&corpus::decode_text(&row.input)).unwrap();
    assert_eq!(shrunk, finding.shrunk.case);
    assert!(
        shrunk.instances.iter().map(pieces).sum::<usize>() <= 4,
        "{shrunk:?}"
    );
    // The expected answer is the reference's.
    let naive = reference::solve(&shrunk, &mut Fuel::unlimited()).unwrap();
    let truth = model::write_answer(&naive.answer);
    assert_eq!(row.expected, truth.trim_end().replace('\n', "|"));
    assert!(
        row.note.contains("first difference at line "),
        "{}",
        row.note
    );
}

/// The bench's whole games are what its line says: every move valid for both
/// solvers, and long (most games run to the ply limit or to a finished game).
#[test]
fn the_bench_whole_games_are_long_and_all_valid() {
    let games = lockstep::puzzles::checkers::whole_games(3, 20, 80);
    let moves: usize = games.iter().map(|c| c.instances[0].moves.len()).sum();
    assert!(moves >= 20 * 40, "only {moves} moves in 20 games");
    for case in &games {
        let core = model::solve(case);
        let reference = reference::solve(case, &mut Fuel::unlimited()).unwrap();
        assert_eq!(core.answer, vec![Ruling::AllValid]);
        assert_eq!(reference.answer, core.answer);
        assert_eq!(reference.trace_digest, core.trace_digest);
    }
}
