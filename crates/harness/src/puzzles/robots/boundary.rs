//! The robots generator's rule boundaries: games built around the moves that
//! published solutions were seen to get wrong ([`GameBoundary`]), one game in
//! three, so that each comes up in the first hundred cases of a stress run.
//!
//! The two teleport boundaries need the position at the first teleport, and
//! that position does not depend on the teleport list (the list is read only
//! when no walk or stay is safe). So the robots are drawn first, the game is
//! played by the reference with no teleports, and the board before the move
//! it loses by staying is where the list is written for: destinations next
//! to a robot (losing at once), a destination whose robots' reply wrecks
//! every robot (a win by teleport), then a safe one. Harness code may use
//! the reference; the core never sees how a case was made.

use super::generate::{anywhere, near, place_robots, teleport_list};
use arbitrary::Unstructured;
use lockstep_core::robots::{Board, Case, Cell, Game, MoveKind, SIZE, START};

/// The rule boundaries the robots generator aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameBoundary {
    /// Teleport destinations next to a robot when the first teleport comes,
    /// before a safe one: each loses at once and must be passed over.
    TeleportNextToRobot,
    /// Robots in pairs and lines close to you (modes 2 and 3), or two pairs
    /// stacked beside you that wreck each other into two debris cells in a
    /// line pointing at you (`stacked_pairs`): where a push would shove a
    /// chain.
    ChainPush,
    /// A crowd within two cells of you: the game is lost on the first move,
    /// often with robots wrecking one another on your cell.
    LossOnFirstMove,
    /// A destination whose robots' reply destroys every robot, first in the
    /// list when the first teleport comes: a win by teleport.
    WinByTeleport,
}

impl GameBoundary {
    pub const ALL: [GameBoundary; 4] = [
        GameBoundary::TeleportNextToRobot,
        GameBoundary::ChainPush,
        GameBoundary::LossOnFirstMove,
        GameBoundary::WinByTeleport,
    ];
    /// The draw: the chain push four times and the win by teleport twice,
    /// as their games set the boundary up less often (a chain push matters
    /// only when the strategy would pick it).
    pub(super) const DRAWN: [GameBoundary; 8] = [
        GameBoundary::TeleportNextToRobot,
        GameBoundary::ChainPush,
        GameBoundary::ChainPush,
        GameBoundary::ChainPush,
        GameBoundary::ChainPush,
        GameBoundary::LossOnFirstMove,
        GameBoundary::WinByTeleport,
        GameBoundary::WinByTeleport,
    ];
}

/// One game at `boundary`.
pub(super) fn boundary_game(
    u: &mut Unstructured<'_>,
    boundary: GameBoundary,
) -> arbitrary::Result<Game> {
    match boundary {
        GameBoundary::ChainPush if u.arbitrary()? => stacked_pairs(u),
        GameBoundary::ChainPush => {
            let count = u.int_in_range(6..=16)?;
            let mode = u.int_in_range(2..=3u8)?;
            let radius = u.int_in_range(2..=4u8)?;
            let robots = place_robots(u, count, mode, radius)?;
            let teleports = teleport_list(u, &robots)?;
            Ok(Game { robots, teleports })
        }
        GameBoundary::LossOnFirstMove => {
            let count = u.int_in_range(8..=24)?;
            let mut robots: Vec<Cell> = Vec::with_capacity(count);
            while robots.len() < count {
                let cell = near(u, START, 2)?;
                if cell != START && !robots.contains(&cell) {
                    robots.push(cell);
                } else if u.is_empty() {
                    break;
                }
            }
            if robots.is_empty() {
                robots.push((START.0 - 1, START.1));
            }
            let mut teleports = Vec::new();
            for _ in 0..u.int_in_range(0..=2u8)? {
                teleports.push(near(u, START, 3)?);
            }
            Ok(Game { robots, teleports })
        }
        GameBoundary::TeleportNextToRobot | GameBoundary::WinByTeleport => {
            teleport_game(u, boundary)
        }
    }
}

/// Two pairs of robots two cells apart, one behind the other, two and
/// three cells from you on one side (turned to any of the four), a robot
/// four cells out on their line and one three cells behind you, and up to
/// two more far away. You stay (in line, the pairs wreck each other, four
/// robots at once), which leaves two debris cells pointing at you with the
/// line robot behind them; then the robot behind you makes stepping onto
/// the debris, were it allowed, the best move: the chain push a wrong
/// solution takes.
fn stacked_pairs(u: &mut Unstructured<'_>) -> arbitrary::Result<Game> {
    let side = u.int_in_range(0..=3u8)?;
    let turn = |along: i16, across: i16| -> Cell {
        let (dr, dc) = match side {
            0 => (-along, across),
            1 => (along, across),
            2 => (across, -along),
            _ => (across, along),
        };
        ((START.0 as i16 + dr) as u8, (START.1 as i16 + dc) as u8)
    };
    let mut robots = Vec::new();
    for along in [2, 3] {
        for across in [-1, 1] {
            robots.push(turn(along, across));
        }
    }
    robots.push(turn(4, 0));
    robots.push(turn(-3, 0));
    for _ in 0..u.int_in_range(0..=2u8)? {
        let radius = u.int_in_range(10..=14u8)?;
        let cell = near(u, START, radius)?;
        let far = cell.0.abs_diff(START.0).max(cell.1.abs_diff(START.1)) >= 9;
        if far && !robots.contains(&cell) {
            robots.push(cell);
        }
    }
    let teleports = teleport_list(u, &robots)?;
    Ok(Game { robots, teleports })
}

/// The board before the first move on which no walk or stay is safe, and
/// that move's number; `None` when the game is won before that.
fn before_first_teleport(robots: &[Cell]) -> Option<(Board, usize)> {
    let case = Case {
        games: vec![Game {
            robots: robots.to_vec(),
            teleports: Vec::new(),
        }],
    };
    let trace = lockstep_reference::robots::trace(&case, usize::MAX);
    let last = trace.steps.last()?;
    if last.kind != MoveKind::StayAndLose {
        return None;
    }
    let moves = last.number as usize;
    let board = lockstep_reference::robots::trace(&case, moves - 1).board?;
    Some((board, moves))
}

/// The robots' reply to you on `at`: (a robot steps onto you, robots left).
fn reply(board: &Board, at: Cell) -> (bool, usize) {
    let toward = |v: u8, target: u8| match v.cmp(&target) {
        std::cmp::Ordering::Less => v + 1,
        std::cmp::Ordering::Equal => v,
        std::cmp::Ordering::Greater => v - 1,
    };
    let targets: Vec<Cell> = board
        .robots
        .iter()
        .map(|&(r, c)| (toward(r, at.0), toward(c, at.1)))
        .collect();
    let caught = targets.contains(&at);
    let left = targets
        .iter()
        .filter(|t| targets.iter().filter(|o| o == t).count() == 1 && !board.debris.contains(t))
        .count();
    (caught, left)
}

fn empty(board: &Board, cell: Cell) -> bool {
    cell != board.you && !board.robots.contains(&cell) && !board.debris.contains(&cell)
}

/// Every empty cell a teleport onto which wins: no robot steps onto you and
/// none is left after the robots' reply.
fn winning_cells(board: &Board) -> Vec<Cell> {
    (1..=SIZE)
        .flat_map(|r| (1..=SIZE).map(move |c| (r, c)))
        .filter(|&cell| empty(board, cell) && reply(board, cell) == (false, 0))
        .collect()
}

/// At most this many draws of robots for a win by teleport: robots in
/// pairs two cells apart (mode 2) wreck each other when you land on the
/// line between them, but the first teleport must come while only such
/// pairs are left, which one draw in several manages.
const WIN_DRAWS: usize = 16;

/// Robots drawn close to you (a chase that forces a teleport), then the
/// teleport list written for the board at the first teleport.
fn teleport_game(u: &mut Unstructured<'_>, boundary: GameBoundary) -> arbitrary::Result<Game> {
    let mut drawn = None;
    for _ in 0..if boundary == GameBoundary::WinByTeleport {
        WIN_DRAWS
    } else {
        1
    } {
        let robots = if boundary == GameBoundary::WinByTeleport {
            let count = u.int_in_range(2..=8)?;
            let radius = u.int_in_range(2..=5u8)?;
            place_robots(u, count, 2, radius)?
        } else {
            let count = u.int_in_range(2..=12)?;
            let radius = u.int_in_range(2..=6u8)?;
            place_robots(u, count, 0, radius)?
        };
        let before = before_first_teleport(&robots);
        let wins = before
            .as_ref()
            .is_some_and(|(b, _)| !winning_cells(b).is_empty());
        drawn = Some((robots, before));
        if boundary != GameBoundary::WinByTeleport || wins || u.is_empty() {
            break;
        }
    }
    let (robots, before) = drawn.expect("at least one draw");
    let Some((board, _)) = before else {
        // Won without a teleport: any list will do.
        let teleports = teleport_list(u, &robots)?;
        return Ok(Game { robots, teleports });
    };
    let mut list = Vec::new();
    let next_to: Vec<Cell> = board
        .robots
        .iter()
        .flat_map(|&(r, c)| {
            (-1i16..=1)
                .flat_map(move |dr| (-1i16..=1).map(move |dc| (r as i16 + dr, c as i16 + dc)))
        })
        .filter(|&(r, c)| (1..=SIZE as i16).contains(&r) && (1..=SIZE as i16).contains(&c))
        .map(|(r, c)| (r as u8, c as u8))
        .filter(|&cell| empty(&board, cell))
        .collect();
    let losing = match boundary {
        GameBoundary::TeleportNextToRobot => u.int_in_range(1..=3u8)?,
        _ => u.int_in_range(0..=1u8)?,
    };
    for _ in 0..losing {
        if !next_to.is_empty() {
            list.push(*u.choose(&next_to)?);
        }
    }
    if boundary == GameBoundary::WinByTeleport {
        let wins = winning_cells(&board);
        if !wins.is_empty() {
            list.push(*u.choose(&wins)?);
        }
    }
    // A safe destination after them, when a few draws find one.
    for _ in 0..8 {
        let cell = anywhere(u)?;
        if empty(&board, cell) && !reply(&board, cell).0 {
            list.push(cell);
            break;
        }
    }
    for _ in 0..u.int_in_range(0..=2u8)? {
        list.push(anywhere(u)?);
    }
    Ok(Game {
        robots,
        teleports: list,
    })
}
