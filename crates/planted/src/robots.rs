//! Robots' planted bugs: a third simulation (a grid of bytes, robots in a
//! list) with one bug planted at a time, and [`BUGS`], each with how small its
//! failure must shrink.

use lockstep_core::digest::Digest;
use lockstep_core::robots::{
    Answer, Case, Cell, Ending, Game, GameResult, MoveKind, Step, MOVE_LIMIT, SIZE, START,
};
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::Robots;

/// The deliberately wrong solvers, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bug {
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
    /// The contestant-style rule bugs (`CONTESTANT` below): no robot left is a
    /// win even when robots wrecked one another on your cell.
    WinBeforeCaught,
    /// A teleport tried and rejected is used up.
    RejectedTeleportUsed,
    /// Ties broken by the column before the row.
    ColumnBeforeRow,
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

pub fn simulate(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let mut digest = Digest::new();
    let answer = case
        .games
        .iter()
        .enumerate()
        .map(|(g, game)| play_game(g, game, bug, &mut digest))
        .collect();
    Run {
        answer,
        digest: digest.value(),
    }
}

fn cell((r, c): (i32, i32)) -> Cell {
    (r as u8, c as u8)
}

/// The best walk or stay that no robot reaches, by the sort key, with the
/// board after it; `None` when every one is caught.
fn best_walk(s: &Third) -> Option<(MoveKind, Third)> {
    let mut best: Option<(SortKey, MoveKind, Third)> = None;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let mut next = Third {
                robots: s.robots.clone(),
                ..*s
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
            let key = match s.bug {
                Some(Bug::ColumnBeforeRow) => (next.robots.len(), -nearest, next.you.1, next.you.0),
                _ => (next.robots.len(), -nearest, next.you.0, next.you.1),
            };
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
    best.map(|(_, kind, next)| (kind, next))
}

/// Game `g` played to its end, each move's step folded into `digest`.
fn play_game(g: usize, game: &Game, bug: Option<Bug>, digest: &mut Digest) -> GameResult {
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
    for number in 1..=MOVE_LIMIT {
        let (kind, caught) = match best_walk(&s) {
            Some((kind, next)) => {
                s = next;
                (kind, false)
            }
            None => {
                let choice = game.teleports.iter().enumerate().find(|&(i, &(r, c))| {
                    let to = (i32::from(r), i32::from(c));
                    let taken = !used[i]
                        && s.at(to) == Some(EMPTY)
                        && (bug == Some(Bug::TeleportIgnoresRobots)
                            || !s.threatened(to, bug == Some(Bug::TeleportCheckSkipsANeighbour)));
                    used[i] |= bug == Some(Bug::RejectedTeleportUsed);
                    taken
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
        let won = s.robots.is_empty() && (!caught || bug == Some(Bug::WinBeforeCaught));
        if won && kind == MoveKind::Teleport && bug == Some(Bug::WinsLateAfterTeleport) && !late_win
        {
            late_win = true;
            continue;
        }
        if caught || won {
            return GameResult {
                teleports,
                ending: if won { Ending::Won } else { Ending::Lost },
                moves: number,
                position: cell(s.you),
                debris: s.debris() as u32,
                robots: if caught && bug == Some(Bug::CountsRobotsBeforeTheLastStep) {
                    before_last_step as u32
                } else {
                    s.robots.len() as u32
                },
            };
        }
    }
    panic!("generated games end well before the move limit")
}

/// Contestant-style rule bugs of the game's end, the teleports and the
/// tie-break, written before the levels change (the crate's "Contestant bugs").
pub const CONTESTANT: [(&str, Solver<Robots>); 3] = [
    ("robots wrecked on your cell make a win", |case| {
        simulate(case, Some(Bug::WinBeforeCaught))
    }),
    ("a rejected teleport is used up", |case| {
        simulate(case, Some(Bug::RejectedTeleportUsed))
    }),
    ("ties broken by column before row", |case| {
        simulate(case, Some(Bug::ColumnBeforeRow))
    }),
];

pub fn pushes_whole_chain(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::PushesWholeChain))
}
pub fn teleport_check_skips_a_neighbour(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::TeleportCheckSkipsANeighbour))
}
pub fn wins_late_after_teleport(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::WinsLateAfterTeleport))
}
pub fn teleport_ignores_robots(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::TeleportIgnoresRobots))
}
pub fn counts_robots_before_the_last_step(case: &Case) -> Run<Answer> {
    simulate(case, Some(Bug::CountsRobotsBeforeTheLastStep))
}

/// How small each planted bug's failure must shrink (robots in all). Pushing a
/// chain needs two debris cells in a row, that is two collisions of two robots at
/// different cells, and a robot left afterwards for the game to go on: five robots
/// at least, so four cannot be reached for that bug. The generator's stacked
/// pairs (`crates/harness/src/puzzles/robots/boundary.rs`) find it first, with six robots,
/// each of which the setup needs: six.
pub const BUGS: [(&str, Solver<Robots>, usize); 5] = [
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
/// `crates/registry/tests/boundaries.rs`'s first-hundred-cases check: next to a
/// robot, chain pushes, a loss on the first move, a win by teleport.
pub const BOUNDARY_BUGS: [(&str, Solver<Robots>); 4] = [
    (BUGS[3].0, BUGS[3].1),
    (BUGS[0].0, BUGS[0].1),
    (BUGS[4].0, BUGS[4].1),
    (BUGS[2].0, BUGS[2].1),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<Robots>)> {
    BUGS.iter()
        .map(|&(name, solver, _)| (name, solver))
        .collect()
}
