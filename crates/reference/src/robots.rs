//! Robots, played literally.
//!
//! The board is a 31x31 grid of `Thing`s with your position beside it. Every
//! candidate move is tried on a full copy of the state: walk (pushing debris as the
//! rules say), let the robots move, look at what is left. The strategy is then
//! applied exactly as written: drop the moves that lose at once, sort the rest by
//! (robots left, -nearest distance, row, column), else scan the teleport list. One
//! unit of fuel per candidate tried.

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::digest::Digest;
use lockstep_core::robots::{
    Answer, Board, Case, Cell, Ending, Game, GameResult, MoveKind, Step, MOVE_LIMIT, SIZE, START,
};
use lockstep_core::Run;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Thing {
    Empty,
    Robot,
    Debris,
}

#[derive(Clone)]
struct State {
    /// `grid[r - 1][c - 1]`.
    grid: [[Thing; SIZE as usize]; SIZE as usize],
    /// Kept beside the grid so the robots' move need not search it.
    robots: Vec<Cell>,
    you: Cell,
}

/// What the robots' move did.
struct RobotsMoved {
    caught: bool,
}

impl State {
    fn new(game: &Game) -> State {
        let mut grid = [[Thing::Empty; SIZE as usize]; SIZE as usize];
        for &(r, c) in &game.robots {
            grid[usize::from(r) - 1][usize::from(c) - 1] = Thing::Robot;
        }
        State {
            grid,
            robots: game.robots.clone(),
            you: START,
        }
    }

    fn at(&self, (r, c): Cell) -> Thing {
        self.grid[usize::from(r) - 1][usize::from(c) - 1]
    }

    fn set(&mut self, (r, c): Cell, thing: Thing) {
        self.grid[usize::from(r) - 1][usize::from(c) - 1] = thing;
    }

    fn debris_cells(&self) -> usize {
        self.grid
            .iter()
            .flatten()
            .filter(|&&t| t == Thing::Debris)
            .count()
    }

    /// The cell one step from `from`, if it is on the board.
    fn step(from: Cell, dr: i8, dc: i8) -> Option<Cell> {
        let r = from.0 as i32 + dr as i32;
        let c = from.1 as i32 + dc as i32;
        let inside = |v: i32| (1..=SIZE as i32).contains(&v);
        (inside(r) && inside(c)).then_some((r as u8, c as u8))
    }

    /// Walks (or stays, for (0, 0)). `None` when the rules forbid the walk.
    fn walk(&mut self, dr: i8, dc: i8) -> Option<()> {
        if (dr, dc) == (0, 0) {
            return Some(());
        }
        let to = State::step(self.you, dr, dc)?;
        match self.at(to) {
            Thing::Robot => return None,
            Thing::Empty => {}
            Thing::Debris => {
                // The debris goes one cell further, which must be on the board and
                // hold no debris; a robot there is destroyed and the cell holds debris.
                let beyond = State::step(to, dr, dc)?;
                match self.at(beyond) {
                    Thing::Debris => return None,
                    Thing::Robot => {
                        self.robots.retain(|&r| r != beyond);
                        self.set(beyond, Thing::Debris);
                    }
                    Thing::Empty => self.set(beyond, Thing::Debris),
                }
                self.set(to, Thing::Empty);
            }
        }
        self.you = to;
        Some(())
    }

    /// Every robot steps toward you at once; collisions and debris destroy them.
    fn robots_move(&mut self) -> RobotsMoved {
        let you = self.you;
        let targets: Vec<Cell> = self
            .robots
            .iter()
            .map(|&(r, c)| {
                let dr = (you.0 as i32 - r as i32).signum();
                let dc = (you.1 as i32 - c as i32).signum();
                ((r as i32 + dr) as u8, (c as i32 + dc) as u8)
            })
            .collect();
        for robot in self.robots.clone() {
            self.set(robot, Thing::Empty);
        }
        let caught = targets.contains(&you);
        let mut survivors = Vec::new();
        for &target in &targets {
            let arriving = targets.iter().filter(|&&t| t == target).count();
            if arriving > 1 || self.at(target) == Thing::Debris {
                self.set(target, Thing::Debris);
            } else {
                survivors.push(target);
            }
        }
        for &robot in &survivors {
            self.set(robot, Thing::Robot);
        }
        self.robots = survivors;
        RobotsMoved { caught }
    }

    /// The smallest distance from you to a robot; a constant when none is left.
    fn nearest(&self) -> u32 {
        self.robots
            .iter()
            .map(|&(r, c)| u32::from(r.abs_diff(self.you.0)) + u32::from(c.abs_diff(self.you.1)))
            .min()
            .unwrap_or(0)
    }

    /// Makes a move on a copy: `None` if the walk is not allowed, else the new state
    /// and whether you were caught. No robots left after the walk: no robots' move.
    fn try_move(&self, dr: i8, dc: i8) -> Option<(State, bool)> {
        let mut next = self.clone();
        next.walk(dr, dc)?;
        if next.robots.is_empty() {
            return Some((next, false));
        }
        let moved = next.robots_move();
        Some((next, moved.caught))
    }

    fn try_teleport(&self, to: Cell) -> (State, bool) {
        let mut next = self.clone();
        next.you = to;
        let moved = next.robots_move();
        (next, moved.caught)
    }

    fn board(&self) -> Board {
        let mut robots = self.robots.clone();
        robots.sort_unstable();
        let mut debris = Vec::new();
        for r in 1..=SIZE {
            for c in 1..=SIZE {
                if self.at((r, c)) == Thing::Debris {
                    debris.push((r, c));
                }
            }
        }
        Board {
            you: self.you,
            robots,
            debris,
        }
    }
}

/// Plays one game, handing every move, with the state after it, to
/// `on_step` (which returns false to stop; then the game's result is `None`).
fn play(
    index: u16,
    game: &Game,
    move_limit: u32,
    fuel: &mut Fuel,
    on_step: &mut dyn FnMut(&Step, &State) -> bool,
) -> Result<(Option<GameResult>, State), OutOfFuel> {
    let mut state = State::new(game);
    let mut used = vec![false; game.teleports.len()];
    let mut teleports = Vec::new();
    for number in 1..=move_limit {
        // Walks and the stay that do not lose at once, with their sort keys.
        let mut safe = Vec::new();
        for dr in -1..=1i8 {
            for dc in -1..=1i8 {
                fuel.burn(1)?;
                if let Some((next, caught)) = state.try_move(dr, dc) {
                    if !caught {
                        let key = (
                            next.robots.len(),
                            std::cmp::Reverse(next.nearest()),
                            next.you.0,
                            next.you.1,
                        );
                        let kind = if (dr, dc) == (0, 0) {
                            MoveKind::Stay
                        } else {
                            MoveKind::Walk(dr, dc)
                        };
                        safe.push((key, kind, next));
                    }
                }
            }
        }
        safe.sort_by_key(|(key, _, _)| *key);
        let (kind, next, caught) = if let Some((_, kind, next)) = safe.into_iter().next() {
            (kind, next, false)
        } else {
            let mut chosen = None;
            for (i, &to) in game.teleports.iter().enumerate() {
                fuel.burn(1)?;
                if used[i] || state.at(to) != Thing::Empty {
                    continue;
                }
                let (next, caught) = state.try_teleport(to);
                if !caught {
                    used[i] = true;
                    chosen = Some(next);
                    break;
                }
            }
            match chosen {
                Some(next) => {
                    teleports.push((number, next.you));
                    (MoveKind::Teleport, next, false)
                }
                None => {
                    let (next, caught) = state.try_move(0, 0).expect("staying is always allowed");
                    (MoveKind::StayAndLose, next, caught)
                }
            }
        };
        state = next;
        let step = Step {
            game: index,
            number,
            kind,
            to: state.you,
            robots_left: state.robots.len() as u8,
            debris: state.debris_cells() as u16,
        };
        if !on_step(&step, &state) {
            return Ok((None, state));
        }
        if caught || state.robots.is_empty() {
            let result = GameResult {
                teleports,
                ending: if caught { Ending::Lost } else { Ending::Won },
                moves: number,
                position: state.you,
                debris: state.debris_cells() as u32,
                robots: state.robots.len() as u32,
            };
            return Ok((Some(result), state));
        }
    }
    let result = GameResult {
        teleports,
        ending: Ending::Stopped,
        moves: move_limit,
        position: state.you,
        debris: state.debris_cells() as u32,
        robots: state.robots.len() as u32,
    };
    Ok((Some(result), state))
}

/// Solves every game of a case: the answer and the digest of the move trace.
fn solve(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
    solve_limited(case, MOVE_LIMIT, fuel)
}

/// The naive solve ([`Naive`]) with games stopped after `move_limit` moves instead of the
/// judge's [`MOVE_LIMIT`]: the same loop, so that small limits check the
/// stop (docs/guide/src/rules/robots.md, "Sizes").
pub fn solve_limited(
    case: &Case,
    move_limit: u32,
    fuel: &mut Fuel,
) -> Result<Run<Answer>, OutOfFuel> {
    let mut digest = Digest::new();
    let mut answer = Vec::new();
    for (index, game) in case.games.iter().enumerate() {
        let mut fold = |step: &Step, _: &State| {
            digest.push(step.packed());
            true
        };
        let (result, _) = play(index as u16, game, move_limit, fuel, &mut fold)?;
        answer.push(result.expect("the digest never stops a game"));
    }
    Ok(Run {
        answer,
        digest: digest.value(),
    })
}

/// Plays a case recording at most `max_steps` moves; returns them with the board
/// after the last one.
pub fn trace(case: &Case, max_steps: usize) -> lockstep_core::robots::Trace {
    let mut steps = Vec::new();
    let mut board = case.games.first().map(|g| State::new(g).board());
    if max_steps > 0 {
        for (index, game) in case.games.iter().enumerate() {
            let mut record = |step: &Step, _: &State| {
                steps.push(*step);
                steps.len() < max_steps
            };
            let (finished, last) = play(
                index as u16,
                game,
                MOVE_LIMIT,
                &mut Fuel::unlimited(),
                &mut record,
            )
            .expect("unlimited fuel");
            // The board after this game's last move (or the move it stopped at).
            board = Some(last.board());
            if finished.is_none() {
                break;
            }
        }
    }
    lockstep_core::robots::Trace { steps, board }
}

/// One game as `lockstep solve --trace` shows it: the board at the start,
/// each move with the board after it (you, the robots, the debris: what the
/// next move is chosen from), and the game's result.
pub type GameAccount = (Board, Vec<(Step, Board)>, GameResult);

/// Every game of a case played within `fuel` (one budget for the whole
/// case, as [`Naive`]'s), for `lockstep solve --trace`.
pub fn account(case: &Case, fuel: &mut Fuel) -> Result<Vec<GameAccount>, OutOfFuel> {
    let mut games = Vec::new();
    for (index, game) in case.games.iter().enumerate() {
        let mut moves = Vec::new();
        let mut record = |step: &Step, after: &State| {
            moves.push((*step, after.board()));
            true
        };
        let (result, _) = play(index as u16, game, MOVE_LIMIT, fuel, &mut record)?;
        let result = result.expect("the account never stops a game");
        games.push((State::new(game).board(), moves, result));
    }
    Ok(games)
}

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel> {
        solve(self, fuel)
    }
}
