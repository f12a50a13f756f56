//! The fast Robots solver: one flat board, a robot list updated in place, and the
//! nine candidate moves scored without copying anything.
//!
//! - The 31x31 board is padded with a wall ring (33x33, one byte a cell), so "off
//!   the board" is a cell kind like debris or robot.
//! - A candidate (walk, stay or teleport) is scored by stepping every robot toward
//!   the candidate cell on paper: arrivals are counted in a scratch array stamped
//!   with a generation number, so nothing is cleared between candidates, and a
//!   push is two overrides (the debris leaves the cell you enter and lands one
//!   further) rather than a board copy.
//! - Only the chosen move is applied to the board.

use super::{
    Board, Cell, Ending, Feature, Game, GameResult, MoveKind, Step, MAX_ROBOTS, SIZE, START,
};

mod observe;

pub use observe::{events, events_limited, solve, solve_counting, solve_limited, trace};

const W: usize = SIZE as usize + 2;
const CELLS: usize = W * W;

const EMPTY: u8 = 0;
const DEBRIS: u8 = 1;
const ROBOT: u8 = 2;
const WALL: u8 = 3;

/// The board with no robots and no debris: walls round an empty 31x31.
const EMPTY_BOARD: [u8; CELLS] = {
    let mut cell = [WALL; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = (i / W, i % W);
        if r >= 1 && r <= SIZE as usize && c >= 1 && c <= SIZE as usize {
            cell[i] = EMPTY;
        }
        i += 1;
    }
    cell
};

/// The eight walks and the stay (0, 0).
const CANDIDATES: [(i8, i8); 9] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 0),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Receives each move and each rule branch taken; `step` returns false to stop.
/// The observers (`observe`) keep a digest, record the moves or collect the
/// branches; the engine is generic over them, so the digest path pays for no
/// recording.
trait Observer {
    fn step(&mut self, step: &Step) -> bool;
    #[inline]
    fn feature(&mut self, _feature: Feature) {}
}

#[inline]
fn index((r, c): Cell) -> usize {
    usize::from(r) * W + usize::from(c)
}

#[inline]
fn cell_of(index: usize) -> Cell {
    ((index / W) as u8, (index % W) as u8)
}

#[inline]
fn offset(index: usize, (dr, dc): (i8, i8)) -> usize {
    index
        .wrapping_add_signed(isize::from(dr) * W as isize)
        .wrapping_add_signed(isize::from(dc))
}

/// The robot's step toward `target`: one cell by the sign of each difference.
#[inline]
fn toward((rr, rc): Cell, (tr, tc): Cell) -> Cell {
    (
        rr.wrapping_add(tr.cmp(&rr) as i8 as u8),
        rc.wrapping_add(tc.cmp(&rc) as i8 as u8),
    )
}

#[inline]
fn distance(a: Cell, b: Cell) -> u32 {
    u32::from(a.0.abs_diff(b.0)) + u32::from(a.1.abs_diff(b.1))
}

/// A candidate's score: robots left after the robots' move, and the smallest
/// distance from you to them (a constant when none is left).
#[derive(Clone, Copy)]
struct Score {
    lost: bool,
    left: u32,
    nearest: u32,
}

/// The strategy's order as one integer, smaller is better: fewer robots left, then
/// a larger distance to the nearest one, then a smaller row, then a smaller column.
/// (A constant distance when no robot is left: `u32::MAX - u32::MAX`.)
#[inline]
fn sort_key(score: Score, (row, col): Cell) -> u64 {
    u64::from(score.left) << 48
        | u64::from(u32::MAX - score.nearest) << 16
        | u64::from(row) << 8
        | u64::from(col)
}

/// Which tie-break level (1 robots, 2 distance, 3 row, 4 column) tells two
/// different sort keys apart.
#[inline]
fn deciding_level(a: u64, b: u64) -> u8 {
    let differ = a ^ b;
    if differ >> 48 != 0 {
        1
    } else if differ >> 16 != 0 {
        2
    } else if differ >> 8 != 0 {
        3
    } else {
        4
    }
}

struct Engine {
    cell: [u8; CELLS],
    robots: [Cell; MAX_ROBOTS],
    count: usize,
    debris: u32,
    you: usize,
    stamp: [u32; CELLS],
    arrivals: [u8; CELLS],
    generation: u32,
    /// Scratch for `score`: where each robot steps.
    targets: [Cell; MAX_ROBOTS],
}

/// One robot lands on `to`: its arrival count, restarted at 0 if the cell's
/// stamp is from an earlier generation.
#[inline(always)]
fn arrive(stamp: &mut [u32; CELLS], arrivals: &mut [u8; CELLS], generation: u32, to: usize) {
    if stamp[to] != generation {
        stamp[to] = generation;
        arrivals[to] = 0;
    }
    arrivals[to] += 1;
}

impl Engine {
    fn new() -> Box<Engine> {
        Box::new(Engine {
            cell: EMPTY_BOARD,
            robots: [(0, 0); MAX_ROBOTS],
            count: 0,
            debris: 0,
            you: index(START),
            stamp: [0; CELLS],
            arrivals: [0; CELLS],
            generation: 0,
            targets: [(0, 0); MAX_ROBOTS],
        })
    }

    /// Clears the previous game's robots and debris and sets up `game`.
    fn reset(&mut self, game: &Game) {
        self.cell = EMPTY_BOARD;
        self.debris = 0;
        self.you = index(START);
        self.count = game.robots.len();
        for (slot, &robot) in self.robots.iter_mut().zip(&game.robots) {
            *slot = robot;
            self.cell[index(robot)] = ROBOT;
        }
    }

    /// Starts a new generation of the arrival stamps: every stamp of an earlier
    /// one is stale, so nothing needs clearing (but on wrap-around, once).
    #[inline]
    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.generation
    }

    /// Counts where the robots land when they step toward `you`.
    #[inline]
    fn count_arrivals(&mut self, you: usize) {
        let generation = self.next_generation();
        let you = cell_of(you);
        for &robot in &self.robots[..self.count] {
            arrive(
                &mut self.stamp,
                &mut self.arrivals,
                generation,
                index(toward(robot, you)),
            );
        }
    }

    /// Scores moving to `you` with debris pushed onto `pushed` (`usize::MAX`: no
    /// push), without changing the board. One pass steps the robots and counts
    /// arrivals (stopping at the first robot that would catch you), a second pass
    /// over the stepped cells counts the survivors.
    #[inline]
    fn score(&mut self, you: usize, pushed: usize) -> Score {
        let generation = self.next_generation();
        let you_cell = cell_of(you);
        let targets = &mut self.targets;
        let mut moving = 0;
        for &robot in &self.robots[..self.count] {
            if index(robot) == pushed {
                continue;
            }
            let to_cell = toward(robot, you_cell);
            let to = index(to_cell);
            if to == you {
                return Score {
                    lost: true,
                    left: 0,
                    nearest: 0,
                };
            }
            arrive(&mut self.stamp, &mut self.arrivals, generation, to);
            targets[moving] = to_cell;
            moving += 1;
        }
        let mut score = Score {
            lost: false,
            left: 0,
            nearest: u32::MAX,
        };
        for &to_cell in &self.targets[..moving] {
            let to = index(to_cell);
            if self.arrivals[to] == 1 && self.cell[to] != DEBRIS && to != pushed {
                score.left += 1;
                score.nearest = score.nearest.min(distance(to_cell, you_cell));
            }
        }
        score
    }

    /// A walk in `dir`: `Ok((to, pushed))` with the cell you walk to and the cell
    /// the debris you push lands on (`usize::MAX` when you push none), `Err(())`
    /// when the walk is not allowed.
    #[inline]
    fn walk<O: Observer>(&self, dir: (i8, i8), observer: &mut O) -> Result<(usize, usize), ()> {
        let to = offset(self.you, dir);
        match self.cell[to] {
            EMPTY => Ok((to, usize::MAX)),
            DEBRIS => {
                let landing = offset(to, dir);
                match self.cell[landing] {
                    WALL => {
                        observer.feature(Feature::PushAgainstBorder);
                        Err(())
                    }
                    DEBRIS => {
                        observer.feature(Feature::PushIntoDebris);
                        Err(())
                    }
                    _ => Ok((to, landing)),
                }
            }
            _ => Err(()),
        }
    }

    /// Applies a move to `to` (pushing debris onto `pushed`), then the robots' move.
    /// Returns whether you were caught.
    fn apply<O: Observer>(&mut self, to: usize, pushed: usize, observer: &mut O) -> bool {
        if pushed != usize::MAX {
            self.cell[to] = EMPTY;
            if self.cell[pushed] == ROBOT {
                observer.feature(Feature::PushIntoRobot);
                let at = self.robots[..self.count]
                    .iter()
                    .position(|&r| index(r) == pushed)
                    .expect("a robot cell holds a listed robot");
                self.count -= 1;
                self.robots[at] = self.robots[self.count];
                if self.count == 0 {
                    observer.feature(Feature::WonByPush);
                }
            }
            self.cell[pushed] = DEBRIS;
        }
        self.you = to;
        if self.count == 0 {
            return false;
        }
        self.count_arrivals(to);
        for &robot in &self.robots[..self.count] {
            self.cell[index(robot)] = EMPTY;
        }
        let mut caught = false;
        let mut kept = 0;
        let you = cell_of(to);
        for i in 0..self.count {
            let target_cell = toward(self.robots[i], you);
            let target = index(target_cell);
            caught |= target == to;
            if self.arrivals[target] > 1 || self.cell[target] == DEBRIS {
                if target == to {
                    observer.feature(Feature::CollisionOnYou);
                }
                if self.cell[target] != DEBRIS {
                    self.cell[target] = DEBRIS;
                    self.debris += 1;
                }
            } else {
                self.cell[target] = ROBOT;
                self.robots[kept] = target_cell;
                kept += 1;
            }
        }
        self.count = kept;
        caught
    }

    /// The eight walks and the stay: the best safe one (where you land,
    /// the robot pushed, the kind of move) and what decided it (forced, or
    /// the tie-break level the runner-up's key fell at); `None` when none is
    /// safe and you must teleport.
    fn choose_walk<O: Observer>(
        &mut self,
        observer: &mut O,
    ) -> Option<(usize, usize, MoveKind, Feature)> {
        let (mut best_key, mut runner_up) = (u64::MAX, u64::MAX);
        let mut best = None;
        let mut safe = 0;
        let here = cell_of(self.you);
        for dir in CANDIDATES {
            let walk = if dir == (0, 0) {
                Ok((self.you, usize::MAX))
            } else {
                self.walk(dir, observer)
            };
            let Ok((to, pushed)) = walk else { continue };
            let score = self.score(to, pushed);
            if score.lost {
                continue;
            }
            safe += 1;
            let cell = (
                here.0.wrapping_add(dir.0 as u8),
                here.1.wrapping_add(dir.1 as u8),
            );
            let key = sort_key(score, cell);
            if key < best_key {
                runner_up = best_key;
                best_key = key;
                let kind = if dir == (0, 0) {
                    MoveKind::Stay
                } else {
                    MoveKind::Walk(dir.0, dir.1)
                };
                best = Some((to, pushed, kind));
            } else if key < runner_up {
                runner_up = key;
            }
        }
        let (to, pushed, kind) = best?;
        let decided = match (safe, deciding_level(best_key, runner_up)) {
            (1, _) => Feature::ChoiceForced,
            (_, 1) => Feature::DecidedByRobots,
            (_, 2) => Feature::DecidedByDistance,
            (_, 3) => Feature::DecidedByRow,
            _ => Feature::DecidedByColumn,
        };
        Some((to, pushed, kind, decided))
    }

    fn play<O: Observer>(
        &mut self,
        game_index: u16,
        game: &Game,
        move_limit: u32,
        observer: &mut O,
    ) -> Option<GameResult> {
        self.reset(game);
        let mut used = [false; super::MAX_TELEPORTS];
        let mut teleports = Vec::new();
        for number in 1..=move_limit {
            let (to, pushed, kind) = match self.choose_walk(observer) {
                Some((to, pushed, kind, decided)) => {
                    observer.feature(decided);
                    (to, pushed, kind)
                }
                None => self.choose_teleport(game, &mut used, observer),
            };
            if kind == MoveKind::Teleport {
                teleports.push((number, cell_of(to)));
            }
            let caught = self.apply(to, pushed, observer);
            let step = Step {
                game: game_index,
                number,
                kind,
                to: cell_of(to),
                robots_left: self.count as u8,
                debris: self.debris as u16,
            };
            if !observer.step(&step) {
                return None;
            }
            let ending = if caught {
                Some(Ending::Lost)
            } else if self.count == 0 {
                Some(Ending::Won)
            } else {
                None
            };
            if let Some(ending) = ending {
                if ending == Ending::Won && kind == MoveKind::Teleport {
                    observer.feature(Feature::WonAfterTeleport);
                }
                if kind == MoveKind::StayAndLose {
                    observer.feature(Feature::LostByStaying);
                }
                return Some(GameResult {
                    teleports,
                    ending,
                    moves: number,
                    position: cell_of(self.you),
                    debris: self.debris,
                    robots: self.count as u32,
                });
            }
        }
        observer.feature(Feature::Stopped);
        Some(GameResult {
            teleports,
            ending: Ending::Stopped,
            moves: move_limit,
            position: cell_of(self.you),
            debris: self.debris,
            robots: self.count as u32,
        })
    }

    /// No walk or stay is safe: the first unused, empty, safe teleport, or a stay
    /// that loses.
    fn choose_teleport<O: Observer>(
        &mut self,
        game: &Game,
        used: &mut [bool],
        observer: &mut O,
    ) -> (usize, usize, MoveKind) {
        for (i, &destination) in game.teleports.iter().enumerate() {
            if used[i] {
                observer.feature(Feature::TeleportRepeated);
                continue;
            }
            let to = index(destination);
            if self.cell[to] != EMPTY {
                observer.feature(Feature::TeleportOccupied);
                continue;
            }
            if self.score(to, usize::MAX).lost {
                observer.feature(Feature::TeleportLosing);
                continue;
            }
            used[i] = true;
            observer.feature(Feature::TeleportTaken);
            return (to, usize::MAX, MoveKind::Teleport);
        }
        (self.you, usize::MAX, MoveKind::StayAndLose)
    }

    fn board(&self) -> Board {
        let mut robots: Vec<Cell> = self.robots[..self.count].to_vec();
        robots.sort_unstable();
        let debris = (0..CELLS)
            .filter(|&i| self.cell[i] == DEBRIS)
            .map(cell_of)
            .collect();
        Board {
            you: cell_of(self.you),
            robots,
            debris,
        }
    }
}
