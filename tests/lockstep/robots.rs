//! Robots: the official sample, rule scenarios on both solvers, the generator's
//! reach, and proof that the harness catches (and shrinks) deliberately wrong
//! solvers.

use crate::support::{planted_bugs, Hunt, PlantedBug};
use lockstep::campaign::{generate_case, Solver};
use lockstep::puzzle::{check, check_with, Run, Verdict};
use lockstep::puzzles::Robots;
use lockstep::seeds::CASE_BYTES;
use lockstep::shrink::{shrink, Stop};
use lockstep_core::digest::Digest;
use lockstep_core::robots::{
    self as model, Answer, Case, Cell, Ending, Feature, Game, GameResult, MoveKind, Step,
    MOVE_LIMIT, SIZE, START,
};
use lockstep_core::Model;
use lockstep_reference::robots as reference;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;

fn solve_both(text: &str) -> String {
    let case = Case::parse(text).unwrap();
    let core = Case::write_answer(&case.solve().answer);
    let naive = Case::write_answer(&case.solve_naively(&mut Fuel::unlimited()).unwrap().answer);
    assert_eq!(core, naive, "core and reference differ on {text:?}");
    core
}

#[test]
fn the_official_sample_holds_on_both_solvers() {
    let input = "4 0\n17 18\n13 18\n8 12\n10 12\n4 0\n17 17\n13 17\n13 13\n17 13\n3 3\n17 18\n13 18\n5 31\n15 16\n16 15\n3 7\n0 0\n";
    let expected = "Case 1:\nWon game after making 5 moves.\nFinal position: (14,16)\nNumber of cells with debris: 1\n\n\
                    Case 2:\nLost game after making 2 moves.\nFinal position: (15,15)\nNumber of cells with debris: 1\nNumber of robots remaining: 0\n\n\
                    Case 3:\nMove 30: teleport to (16,15)\nMove 58: teleport to (15,16)\nMove 86: teleport to (3,7)\n\
                    Lost game after making 114 moves.\nFinal position: (1,29)\nNumber of cells with debris: 1\nNumber of robots remaining: 1\n";
    assert_eq!(solve_both(input), expected);
}

#[test]
fn robots_stepping_onto_one_cell_are_destroyed() {
    // From (14,18) and (16,18) both robots step onto (15,17) when you stay on row
    // 15: no robot left, so every row-15 move wins, and the smallest column,
    // (15,14), is taken. One debris cell, won on move 1.
    let case = Case {
        games: vec![Game {
            robots: vec![(14, 18), (16, 18)],
            teleports: vec![],
        }],
    };
    let trace = model::trace(&case, usize::MAX);
    assert_eq!(trace, reference::trace(&case, usize::MAX));
    assert_eq!(trace.steps[0].kind, MoveKind::Walk(0, -1));
    let result = &case.solve().answer[0];
    assert_eq!(
        (result.ending, result.moves, result.position, result.debris),
        (Ending::Won, 1, (15, 14), 1)
    );
}

#[test]
fn a_push_that_destroys_the_last_robot_wins_before_the_robots_move() {
    // Debris is made on move 1 by two robots colliding; a third robot stands where
    // that debris will be pushed. The generator finds such cases; here one is
    // checked on both solvers and must report the push win.
    let mut buf = vec![0u8; CASE_BYTES];
    let found = (0..200_000).find_map(|i| {
        let case = generate_case::<Robots>(77, 0, i, &mut buf)?;
        // One game, so the win below is the push win's game.
        (case.games.len() == 1 && model::events(&case) & Feature::WonByPush.bit() != 0)
            .then_some(case)
    });
    let case = found.expect("a one-game push win among 200,000 generated cases");
    assert_eq!(check::<Robots>(&case), Verdict::Agree);
    assert_eq!(case.solve().answer[0].ending, Ending::Won);
}

#[test]
fn a_teleport_is_taken_only_when_no_walk_or_stay_is_safe() {
    // Robots on all eight neighbours: no walk is allowed and staying is caught, so
    // the list is scanned: (14,14) holds a robot, (13,13) is next to one, (1,1)
    // is taken.
    let ring: Vec<Cell> = (14..=16)
        .flat_map(|r| (14..=16).map(move |c| (r, c)))
        .filter(|&cell| cell != START)
        .collect();
    let case = Case {
        games: vec![Game {
            robots: ring,
            teleports: vec![(14, 14), (13, 13), (1, 1), (31, 31)],
        }],
    };
    let text = solve_both(&case.write_input());
    assert!(
        text.starts_with("Case 1:\nMove 1: teleport to (1,1)\n"),
        "{text}"
    );
    let events = model::events(&case);
    for feature in [
        Feature::TeleportOccupied,
        Feature::TeleportLosing,
        Feature::TeleportTaken,
    ] {
        assert!(events & feature.bit() != 0, "{feature:?}");
    }
}

/// What the generator reaches in 20,000 cases: every rule branch the core reports.
#[test]
fn the_generator_reaches_every_rare_branch() {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut counts = [0u32; Feature::ALL.len()];
    let mut max_moves = 0;
    for index in 0..20_000 {
        let case = generate_case::<Robots>(13, 0, index, &mut buf).expect("a valid case");
        for game in &case.games {
            game.validate().unwrap();
        }
        let bits = model::events(&case);
        for (i, count) in counts.iter_mut().enumerate() {
            *count += (bits >> i & 1) as u32;
        }
        max_moves = max_moves.max(
            case.solve()
                .answer
                .iter()
                .map(|r| r.moves)
                .max()
                .unwrap_or(0),
        );
    }
    let missing: Vec<&str> = Feature::ALL
        .iter()
        .zip(counts)
        .filter(|(f, n)| **f != Feature::Stopped && *n < 20)
        .map(|(f, _)| f.name())
        .collect();
    assert!(
        missing.is_empty(),
        "branches reached fewer than 20 times: {missing:?}"
    );
    // The move limit is a safety net, far from anything generated.
    assert!(
        max_moves < MOVE_LIMIT / 10,
        "longest game {max_moves} moves"
    );
}

/// The deliberately wrong solvers, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bug {
    /// A walk into debris pushes the whole chain of debris behind it.
    PushesWholeChain,
    /// The teleport safety check forgets the neighbour down and to the right.
    TeleportCheckSkipsANeighbour,
    /// After a teleport whose robots' move destroys the last robot, the win is
    /// declared one move late.
    WinsLateAfterTeleport,
    /// A teleport is checked for being unused and empty, not for losing at
    /// once: a destination next to a robot is taken.
    TeleportIgnoresRobots,
    /// A lost game reports the robots as they stood before their last step,
    /// not after it (robots that wrecked one another on your cell counted).
    CountsRobotsBeforeTheLastStep,
}

const EMPTY: u8 = 0;
const DEBRIS: u8 = 1;
const ROBOT: u8 = 2;

/// A third Robots simulation with at most one bug planted: a grid of bytes, robots
/// in a list, the robots' threat checked by adjacency. It reports the same steps as
/// the real solvers, so only the planted bug can make it disagree.
struct Third {
    grid: [[u8; SIZE as usize + 2]; SIZE as usize + 2],
    robots: Vec<(i32, i32)>,
    you: (i32, i32),
    bug: Option<Bug>,
}

impl Third {
    fn at(&self, (r, c): (i32, i32)) -> Option<u8> {
        let inside = |v: i32| (1..=SIZE as i32).contains(&v);
        (inside(r) && inside(c)).then(|| self.grid[r as usize][c as usize])
    }
    fn put(&mut self, (r, c): (i32, i32), v: u8) {
        self.grid[r as usize][c as usize] = v;
    }
    fn debris(&self) -> usize {
        self.grid.iter().flatten().filter(|&&v| v == DEBRIS).count()
    }
    /// Walks by (dr, dc), pushing debris; false if not allowed.
    fn walk(&mut self, dr: i32, dc: i32) -> bool {
        let to = (self.you.0 + dr, self.you.1 + dc);
        match self.at(to) {
            None | Some(ROBOT) => return false,
            Some(DEBRIS) => {
                let mut end = (to.0 + dr, to.1 + dc);
                if self.bug == Some(Bug::PushesWholeChain) {
                    while self.at(end) == Some(DEBRIS) {
                        end = (end.0 + dr, end.1 + dc);
                    }
                }
                match self.at(end) {
                    None | Some(DEBRIS) => return false,
                    Some(ROBOT) => self.robots.retain(|&r| r != end),
                    _ => {}
                }
                self.put(end, DEBRIS);
                self.put(to, EMPTY);
            }
            _ => {}
        }
        self.you = to;
        true
    }
    /// The robots' move; true if one stepped onto you.
    fn robots_move(&mut self) -> bool {
        let you = self.you;
        let targets: Vec<(i32, i32)> = self
            .robots
            .iter()
            .map(|&(r, c)| (r + (you.0 - r).signum(), c + (you.1 - c).signum()))
            .collect();
        for robot in std::mem::take(&mut self.robots) {
            self.put(robot, EMPTY);
        }
        for &t in &targets {
            if targets.iter().filter(|&&o| o == t).count() > 1 || self.at(t) == Some(DEBRIS) {
                self.put(t, DEBRIS);
            } else {
                self.robots.push(t);
            }
        }
        for robot in self.robots.clone() {
            self.put(robot, ROBOT);
        }
        targets.contains(&you)
    }
    fn threatened(&self, cell: (i32, i32), skip_down_right: bool) -> bool {
        self.robots.iter().any(|&(r, c)| {
            let (dr, dc) = (r - cell.0, c - cell.1);
            dr.abs() <= 1 && dc.abs() <= 1 && !(skip_down_right && (dr, dc) == (1, 1))
        })
    }
}

/// Robots left, minus the nearest distance, row, column: smaller is better.
type SortKey = (usize, i64, i32, i32);

fn simulate(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let mut digest = Digest::new();
    let mut answer = Vec::new();
    for (g, game) in case.games.iter().enumerate() {
        let mut s = Third {
            grid: [[EMPTY; SIZE as usize + 2]; SIZE as usize + 2],
            robots: game
                .robots
                .iter()
                .map(|&(r, c)| (i32::from(r), i32::from(c)))
                .collect(),
            you: (i32::from(START.0), i32::from(START.1)),
            bug,
        };
        for robot in s.robots.clone() {
            s.put(robot, ROBOT);
        }
        let mut used = vec![false; game.teleports.len()];
        let mut teleports = Vec::new();
        let mut late_win = false;
        let mut before_last_step = 0;
        let cell = |(r, c): (i32, i32)| -> Cell { (r as u8, c as u8) };
        let mut result = None;
        for number in 1..=MOVE_LIMIT {
            let mut best: Option<(SortKey, MoveKind, Third)> = None;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let mut next = Third {
                        robots: s.robots.clone(),
                        ..s
                    };
                    if !next.walk(dr, dc) || (!next.robots.is_empty() && next.robots_move()) {
                        continue;
                    }
                    let nearest = next
                        .robots
                        .iter()
                        .map(|&(r, c)| ((r - next.you.0).abs() + (c - next.you.1).abs()) as i64)
                        .min()
                        .unwrap_or(0);
                    let key = (next.robots.len(), -nearest, next.you.0, next.you.1);
                    let kind = if (dr, dc) == (0, 0) {
                        MoveKind::Stay
                    } else {
                        MoveKind::Walk(dr as i8, dc as i8)
                    };
                    if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                        best = Some((key, kind, next));
                    }
                }
            }
            let (kind, caught) = match best {
                Some((_, kind, next)) => {
                    s = next;
                    (kind, false)
                }
                None => {
                    let choice = game.teleports.iter().enumerate().find(|&(i, &(r, c))| {
                        let to = (i32::from(r), i32::from(c));
                        !used[i]
                            && s.at(to) == Some(EMPTY)
                            && (bug == Some(Bug::TeleportIgnoresRobots)
                                || !s.threatened(
                                    to,
                                    bug == Some(Bug::TeleportCheckSkipsANeighbour),
                                ))
                    });
                    match choice {
                        Some((i, &(r, c))) => {
                            used[i] = true;
                            s.you = (i32::from(r), i32::from(c));
                            teleports.push((number, (r, c)));
                            (MoveKind::Teleport, s.robots_move())
                        }
                        None => {
                            before_last_step = s.robots.len();
                            (MoveKind::StayAndLose, s.robots_move())
                        }
                    }
                }
            };
            let step = Step {
                game: g as u16,
                number,
                kind,
                to: cell(s.you),
                robots_left: s.robots.len() as u8,
                debris: s.debris() as u16,
            };
            digest.push(step.packed());
            let won = s.robots.is_empty() && !caught;
            if won
                && kind == MoveKind::Teleport
                && bug == Some(Bug::WinsLateAfterTeleport)
                && !late_win
            {
                late_win = true;
                continue;
            }
            if caught || won {
                result = Some(GameResult {
                    teleports: teleports.clone(),
                    ending: if caught { Ending::Lost } else { Ending::Won },
                    moves: number,
                    position: cell(s.you),
                    debris: s.debris() as u32,
                    robots: if caught && bug == Some(Bug::CountsRobotsBeforeTheLastStep) {
                        before_last_step as u32
                    } else {
                        s.robots.len() as u32
                    },
                });
                break;
            }
        }
        answer.push(result.expect("generated games end well before the move limit"));
    }
    Run {
        answer,
        digest: digest.value(),
    }
}

pub(crate) fn pushes_whole_chain(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::PushesWholeChain))
}
fn teleport_check_skips_a_neighbour(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::TeleportCheckSkipsANeighbour))
}
fn wins_late_after_teleport(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::WinsLateAfterTeleport))
}
fn teleport_ignores_robots(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::TeleportIgnoresRobots))
}
fn counts_robots_before_the_last_step(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::CountsRobotsBeforeTheLastStep))
}

const FUEL: u64 = 200_000;
const MAX_CASES: u64 = 20_000;

#[test]
fn the_third_simulation_without_a_bug_agrees() {
    // Guards the test below: a broken `simulate` would make every planted bug
    // "found" for the wrong reason.
    fn bug_free(case: &Case) -> Run<Answer> {
        simulate(case, None)
    }
    let mut buf = vec![0u8; CASE_BYTES];
    for index in 0..2000 {
        let case = generate_case::<Robots>(5, 0, index, &mut buf).unwrap();
        assert_eq!(
            check_with::<Robots>(&case, bug_free, FUEL),
            Verdict::Agree,
            "{case:?}"
        );
    }
}

/// How small each planted bug's failure must shrink (robots in all). Pushing a
/// chain needs two debris cells in a row, that is two collisions of two robots at
/// different cells, and a robot left afterwards for the game to go on: five robots
/// at least, so four cannot be reached for that bug. The generator's stacked
/// pairs (`src/puzzles/robots/boundary.rs`) find it first, with six robots,
/// each of which the setup needs: six.
pub(crate) const BUGS: [(&str, Solver<Robots>, usize); 5] = [
    ("pushes the whole chain of debris", pushes_whole_chain, 6),
    (
        "teleport check skips a neighbour",
        teleport_check_skips_a_neighbour,
        4,
    ),
    (
        "declares a win one move late after a teleport",
        wins_late_after_teleport,
        4,
    ),
    // The rule boundaries of issue 30 (with the chain push and the win by
    // teleport above).
    (
        "takes a teleport next to a robot",
        teleport_ignores_robots,
        4,
    ),
    (
        "a lost game counts the robots before their last step",
        counts_robots_before_the_last_step,
        4,
    ),
];

/// The planted bugs at the rule boundaries of issue 30, for
/// `boundaries.rs`'s first-hundred-cases check: next to a robot, chain
/// pushes, a loss on the first move, a win by teleport.
pub(crate) const BOUNDARY_BUGS: [(&str, Solver<Robots>); 4] = [
    (BUGS[3].0, BUGS[3].1),
    (BUGS[0].0, BUGS[0].1),
    (BUGS[4].0, BUGS[4].1),
    (BUGS[2].0, BUGS[2].1),
];

/// This puzzle's planted bugs for the catalogue (`planted.rs`).
pub(crate) fn bugs() -> Vec<(&'static str, Solver<Robots>)> {
    BUGS.iter().map(|&(name, solver, _)| (name, solver)).collect()
}

/// At most this many diverging cases are shrunk per bug; the smallest result counts.
/// (A campaign keeps finding the same bug; each finding is another start for the
/// shrinker, whose result is only a local minimum.)
const MAX_FINDINGS: usize = 20;

#[test]
fn planted_bugs_are_found_and_shrunk_small() {
    let robots = |c: &Case| c.games.iter().map(|g| g.robots.len()).sum::<usize>();
    let bugs = BUGS.map(|(name, solver, bound)| PlantedBug::<Robots> {
        name,
        solver: Box::new(solver),
        small: Box::new(move |c: &Case| c.games.len() == 1 && robots(c) <= bound),
    });
    let hunt = Hunt {
        fuel: FUEL,
        max_cases: MAX_CASES,
        max_findings: MAX_FINDINGS,
        within: &|_| true,
        describe: &|c: &Case| {
            format!(
                "{} game(s), {} robots, {} teleports",
                c.games.len(),
                robots(c),
                c.games.iter().map(|g| g.teleports.len()).sum::<usize>()
            )
        },
    };
    planted_bugs(&hunt, &bugs);
}

/// The shrunk sizes of the planted bugs from ten seeds, each shrunk within the
/// budget `lockstep stress` gives a user's program (3,000 candidates), held at
/// what the shrinker reaches today (measured: medians 7, 4 and 3 robots, worst
/// 10, 10 and 8; one of the thirty runs cut off by the budget).
#[test]
fn planted_bugs_shrink_to_a_handful_of_robots_from_every_seed() {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut problems = Vec::new();
    let mut cut_off = 0;
    for (name, solver, _) in BUGS {
        let diverges = |case: &Case| check_with::<Robots>(case, solver, FUEL).is_divergence();
        let mut sizes = Vec::new();
        for seed in 1..=10u64 {
            let Some(case) = (0..MAX_CASES).find_map(|index| {
                let case = generate_case::<Robots>(seed, 0, index, &mut buf)?;
                diverges(&case).then_some(case)
            }) else {
                problems.push(format!("{name}: not found from seed {seed}"));
                continue;
            };
            let before = case.games.iter().map(|g| g.robots.len()).sum::<usize>();
            let shrunk = shrink::<Robots>(case, diverges, 3000);
            let robots = shrunk
                .case
                .games
                .iter()
                .map(|g| g.robots.len())
                .sum::<usize>();
            if shrunk.stop != Stop::LocalMinimum {
                cut_off += 1;
                println!("{name}, seed {seed}: {}", shrunk.stop);
            }
            sizes.push((robots, before));
        }
        sizes.sort_unstable();
        let median = sizes.get(sizes.len() / 2).map_or(0, |s| s.0);
        let worst = sizes.last().map_or(0, |s| s.0);
        println!("{name}: robots after shrinking (before) over 10 seeds: {sizes:?}; median {median}, worst {worst}");
        if median > 8 || worst > 12 {
            problems.push(format!("{name}: median {median}, worst {worst} robots"));
        }
    }
    if cut_off > 2 {
        problems.push(format!("{cut_off} of 30 shrinks cut off by the budget"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
