//! Robots (POJ 1098, ZOJ 1065, Baekjoon 7357): the model, the judge format, and the
//! per-move trace.
//!
//! You start at (15,15) on a 31x31 board among robots that step toward you after
//! each of your moves; you walk (pushing debris), stay, or teleport by a fixed
//! strategy, and the answer is how the game ends. The rules and the points settled
//! against accepted solutions are in `docs/guide/src/rules/robots.md`; the fast solver is
//! `fast.rs`, behind [`Model::solve`](crate::Model::solve).
//!
//! Both solvers report every move as a [`Step`], so a disagreement can be shown at
//! the first move where they part.

mod fast;

pub use fast::{events, events_limited, solve_counting, solve_limited, trace};

use crate::input::{InputError, Lines};
use std::fmt;

pub const SIZE: u8 = 31;
pub const START: (u8, u8) = (15, 15);
pub const MAX_ROBOTS: usize = 50;
pub const MAX_TELEPORTS: usize = 20;
/// A game still going after this many moves is stopped (a lockstep rule: the
/// statement has no such case, and no generated game has come near it; see the
/// rule page, docs/guide/src/rules/robots.md). Both solvers apply it, so a game that never ends cannot hang either.
pub const MOVE_LIMIT: u32 = 100_000;

/// A cell as (row, column), both 1-based.
pub type Cell = (u8, u8);

/// One game of the input.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    pub robots: Vec<Cell>,
    /// Teleport destinations, in the order they are tried.
    pub teleports: Vec<Cell>,
}

/// A whole input: several games, each answered in turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub games: Vec<Game>,
}

impl Game {
    /// Checks the limits of the statement (the parser enforces them with line
    /// numbers); for games built in code.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_ROBOTS).contains(&self.robots.len()) {
            return Err(format!(
                "R must be in 1..={MAX_ROBOTS}, found {}",
                self.robots.len()
            ));
        }
        if self.teleports.len() > MAX_TELEPORTS {
            return Err(format!(
                "T must be in 0..={MAX_TELEPORTS}, found {}",
                self.teleports.len()
            ));
        }
        let on_board = |&(r, c): &Cell| (1..=SIZE).contains(&r) && (1..=SIZE).contains(&c);
        for (i, robot) in self.robots.iter().enumerate() {
            if !on_board(robot) {
                return Err(format!("robot {} at {robot:?} is off the board", i + 1));
            }
            if *robot == START {
                return Err(format!("robot {} starts on your cell (15,15)", i + 1));
            }
            if self.robots[..i].contains(robot) {
                return Err(format!("two robots start on {robot:?}"));
            }
        }
        if let Some(t) = self.teleports.iter().find(|t| !on_board(t)) {
            return Err(format!("teleport destination {t:?} is off the board"));
        }
        Ok(())
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    Won,
    Lost,
    /// Still going after [`MOVE_LIMIT`] moves.
    Stopped,
}

/// The answer for one game: the teleports taken, and the final report.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// (move number, destination) of every teleport taken.
    pub teleports: Vec<(u32, Cell)>,
    pub ending: Ending,
    pub moves: u32,
    pub position: Cell,
    pub debris: u32,
    /// Robots left at the end (printed only for a lost or stopped game).
    pub robots: u32,
}

/// The answer for a whole input, one result per game.
pub type Answer = Vec<GameResult>;

/// What you did on one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A walk by (row change, column change), each in -1..=1, not both 0.
    Walk(i8, i8),
    Stay,
    Teleport,
    /// No walk, stay or teleport avoided an immediate loss: stayed and lost.
    StayAndLose,
}

/// One move and its consequences, after the robots' move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    /// 0-based game index in the input.
    pub game: u16,
    /// 1-based move number in the game.
    pub number: u32,
    pub kind: MoveKind,
    /// Where you stand after the move.
    pub to: Cell,
    pub robots_left: u8,
    pub debris: u16,
}

impl Step {
    /// The word both solvers fold into their trace digest.
    #[inline]
    pub fn packed(&self) -> u64 {
        let kind = match self.kind {
            MoveKind::Walk(dr, dc) => ((dr + 1) * 3 + (dc + 1)) as u64,
            MoveKind::Stay => 9,
            MoveKind::Teleport => 10,
            MoveKind::StayAndLose => 11,
        };
        u64::from(self.number)
            | kind << 20
            | u64::from(self.to.0) << 24
            | u64::from(self.to.1) << 29
            | u64::from(self.robots_left) << 34
            | u64::from(self.debris) << 40
            | u64::from(self.game & 0xfff) << 52
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            MoveKind::Walk(dr, dc) => format!("walk by ({dr},{dc})"),
            MoveKind::Stay => "stay".to_string(),
            MoveKind::Teleport => "teleport".to_string(),
            MoveKind::StayAndLose => "stay (nothing avoids a loss)".to_string(),
        };
        write!(
            f,
            "game {}, move {}: {what} to ({},{}); then {} robots left, {} debris cells",
            self.game + 1,
            self.number,
            self.to.0,
            self.to.1,
            self.robots_left,
            self.debris
        )
    }
}

/// A branch of the rules, counted by `lockstep fuzz --stats` to show that campaigns
/// reach the rare ones. [`events`] reports which ones a case went through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A walk pushed debris onto a robot, destroying it.
    PushIntoRobot,
    /// A walk was ruled out because the debris would land on debris.
    PushIntoDebris,
    /// A walk was ruled out because the debris would leave the board.
    PushAgainstBorder,
    /// A push destroyed the last robot: won before the robots moved.
    WonByPush,
    /// A teleport destination was passed over: already used.
    TeleportRepeated,
    /// A teleport destination was passed over: not empty.
    TeleportOccupied,
    /// A teleport destination was passed over: it would lose at once.
    TeleportLosing,
    TeleportTaken,
    /// The robots' move after a teleport destroyed the last robot.
    WonAfterTeleport,
    /// Robots collided on your cell (a loss, with them destroyed).
    CollisionOnYou,
    /// No walk, stay or teleport avoided a loss.
    LostByStaying,
    /// Only one walk or stay was safe.
    ChoiceForced,
    /// The best walk or stay was decided by the robots left ...
    DecidedByRobots,
    /// ... by the distance to the nearest robot ...
    DecidedByDistance,
    /// ... by the row ...
    DecidedByRow,
    /// ... or by the column.
    DecidedByColumn,
    /// The game hit the move limit.
    Stopped,
}

impl Feature {
    pub const ALL: [Feature; 17] = [
        Feature::PushIntoRobot,
        Feature::PushIntoDebris,
        Feature::PushAgainstBorder,
        Feature::WonByPush,
        Feature::TeleportRepeated,
        Feature::TeleportOccupied,
        Feature::TeleportLosing,
        Feature::TeleportTaken,
        Feature::WonAfterTeleport,
        Feature::CollisionOnYou,
        Feature::LostByStaying,
        Feature::ChoiceForced,
        Feature::DecidedByRobots,
        Feature::DecidedByDistance,
        Feature::DecidedByRow,
        Feature::DecidedByColumn,
        Feature::Stopped,
    ];

    /// Its bit in a feature set: its place in [`Feature::ALL`], which lists the
    /// variants in declaration order (a test holds the two together).
    pub fn bit(self) -> u64 {
        1 << self as u32
    }

    pub const fn name(self) -> &'static str {
        match self {
            Feature::PushIntoRobot => "push into robot",
            Feature::PushIntoDebris => "push into debris (ruled out)",
            Feature::PushAgainstBorder => "push against border (ruled out)",
            Feature::WonByPush => "won by a push",
            Feature::TeleportRepeated => "teleport passed over: used",
            Feature::TeleportOccupied => "teleport passed over: occupied",
            Feature::TeleportLosing => "teleport passed over: losing",
            Feature::TeleportTaken => "teleport taken",
            Feature::WonAfterTeleport => "won by the robots' move after a teleport",
            Feature::CollisionOnYou => "robots collided on your cell",
            Feature::LostByStaying => "lost by staying (nothing safe)",
            Feature::ChoiceForced => "only one safe walk or stay",
            Feature::DecidedByRobots => "tie-break 1 decided: robots left",
            Feature::DecidedByDistance => "tie-break 2 decided: distance",
            Feature::DecidedByRow => "tie-break 3 decided: row",
            Feature::DecidedByColumn => "tie-break 4 decided: column",
            Feature::Stopped => "stopped at the move limit",
        }
    }
}

/// The whole board between two moves, for divergence reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub you: Cell,
    /// Sorted.
    pub robots: Vec<Cell>,
    /// Sorted.
    pub debris: Vec<Cell>,
}

impl fmt::Display for Board {
    /// The part of the board around you and every robot and debris cell: `@` you,
    /// `R` robot, `#` debris, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all = std::iter::once(&self.you)
            .chain(&self.robots)
            .chain(&self.debris);
        let (mut r0, mut r1, mut c0, mut c1) = (self.you.0, self.you.0, self.you.1, self.you.1);
        for &(r, c) in all {
            r0 = r0.min(r);
            r1 = r1.max(r);
            c0 = c0.min(c);
            c1 = c1.max(c);
        }
        let (r0, c0) = (r0.saturating_sub(1).max(1), c0.saturating_sub(1).max(1));
        let (r1, c1) = ((r1 + 1).min(SIZE), (c1 + 1).min(SIZE));
        writeln!(f, "    rows {r0}..{r1}, columns {c0}..{c1}")?;
        for r in r0..=r1 {
            writeln!(f, "    {r:>2} {}", self.row_text(r, c0..=c1))?;
        }
        Ok(())
    }
}

impl Board {
    /// Row `r` between `columns` as the board is drawn: `@` you, `R` robot,
    /// `#` debris, `.` empty.
    pub fn row_text(&self, r: u8, columns: std::ops::RangeInclusive<u8>) -> String {
        columns
            .map(|c| {
                if (r, c) == self.you {
                    '@'
                } else if self.robots.contains(&(r, c)) {
                    'R'
                } else if self.debris.contains(&(r, c)) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect()
    }
}

/// A traced run of one input: its steps and the board after the last one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<Step>,
    pub board: Option<Board>,
}

/// The judge's view of the puzzle: the judge-format I/O and the fast solver.
impl crate::Model for Case {
    type Answer = Answer;

    /// Parses the judge input: games `R T`, R lines `r c`, T lines `r c`, until `0 0`.
    /// Blank lines are skipped (the format is one pair per line, and real files vary).
    fn parse(text: &str) -> Result<Case, InputError> {
        let mut lines = Lines::checked(text)?;
        let mut games = Vec::new();
        loop {
            let header = lines
                .next_nonblank()
                .ok_or_else(|| lines.end_error("`R T` or the closing `0 0`"))?;
            header.expect_len(2, "R and T")?;
            let r: usize = header.int(0, "R", 0..=MAX_ROBOTS)?;
            let t: usize = header.int(1, "T", 0..=MAX_TELEPORTS)?;
            if r == 0 && t == 0 {
                break;
            }
            if r == 0 {
                return Err(header.error(format!("R must be in 1..={MAX_ROBOTS}, found 0")));
            }
            let mut game = Game {
                robots: Vec::with_capacity(r),
                teleports: Vec::with_capacity(t),
            };
            for index in 0..r + t {
                let robot = index < r;
                let what = if robot {
                    format!("robot {} (row col)", index + 1)
                } else {
                    format!("teleport {} (row col)", index - r + 1)
                };
                let Some(line) = lines.next_nonblank() else {
                    return Err(lines.end_error(&what));
                };
                line.expect_len(2, &what)?;
                let cell = (
                    line.int(0, "the row", 1..=SIZE)?,
                    line.int(1, "the column", 1..=SIZE)?,
                );
                if robot {
                    if cell == START {
                        return Err(line.error("a robot may not start on your cell (15,15)"));
                    }
                    if let Some(other) = game.robots.iter().position(|&c| c == cell) {
                        return Err(line.error(format!(
                            "robot {} starts on ({},{}), where robot {} already is",
                            index + 1,
                            cell.0,
                            cell.1,
                            other + 1
                        )));
                    }
                    game.robots.push(cell);
                } else {
                    game.teleports.push(cell);
                }
            }
            games.push(game);
        }
        lines.finish()?;
        Ok(Case { games })
    }

    /// Writes a case in the judge format, one pair per line, ending with `0 0`.
    fn write_input(&self) -> String {
        let mut out = String::new();
        for game in &self.games {
            out.push_str(&format!("{} {}\n", game.robots.len(), game.teleports.len()));
            for (r, c) in game.robots.iter().chain(&game.teleports) {
                out.push_str(&format!("{r} {c}\n"));
            }
        }
        out.push_str("0 0\n");
        out
    }

    /// Writes the answer exactly as the judge expects it.
    fn write_answer(answer: &Answer) -> String {
        let mut out = String::new();
        for (index, result) in answer.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&format!("Case {}:\n", index + 1));
            for (number, (r, c)) in &result.teleports {
                out.push_str(&format!("Move {number}: teleport to ({r},{c})\n"));
            }
            let verdict = match result.ending {
                Ending::Won => "Won game after making",
                Ending::Lost => "Lost game after making",
                Ending::Stopped => "Stopped game after making",
            };
            out.push_str(&format!("{verdict} {} moves.\n", result.moves));
            out.push_str(&format!(
                "Final position: ({},{})\n",
                result.position.0, result.position.1
            ));
            out.push_str(&format!("Number of cells with debris: {}\n", result.debris));
            if result.ending != Ending::Won {
                out.push_str(&format!("Number of robots remaining: {}\n", result.robots));
            }
        }
        out
    }

    fn solve(&self) -> crate::Run<Answer> {
        fast::solve(self)
    }
}

#[cfg(test)]
mod tests;
