//! New Game 2 (Baekjoon 17837): the model, the judge format, and the step trace.
//!
//! Pieces move on an N x N board of white, red and blue cells, carrying whatever is
//! stacked on them; the answer is the turn on which some stack first reaches four
//! pieces, or -1 when that does not happen within 1000 turns. The rules are in
//! `docs/guide/src/rules/new_game2.md`; the fast solver is `fast.rs`, behind
//! [`Model::solve`](crate::Model::solve).
//!
//! Both solvers report every piece move as a [`Step`], so that a disagreement can be
//! shown at the first step where they part, with the board on each side.

mod fast;

pub use fast::trace;

use crate::input::{InputError, Lines};
use std::fmt;

pub const MIN_N: usize = 4;
pub const MAX_N: usize = 12;
pub const MIN_K: usize = 4;
pub const MAX_K: usize = 10;
/// A game that has not ended after this many turns is answered -1.
pub const TURN_LIMIT: u32 = 1000;
/// The stack height that ends the game.
pub const ENDING_HEIGHT: usize = 4;
/// The highest a stack can get: between moves no stack holds more than three
/// pieces (four ends the game), so a group of at most three lands on at most three.
pub const MAX_STACK: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Red,
    Blue,
}

impl Colour {
    pub fn code(self) -> u8 {
        match self {
            Colour::White => 0,
            Colour::Red => 1,
            Colour::Blue => 2,
        }
    }

    pub fn from_code(code: u8) -> Option<Colour> {
        match code {
            0 => Some(Colour::White),
            1 => Some(Colour::Red),
            2 => Some(Colour::Blue),
            _ => None,
        }
    }
}

/// A piece's direction; the judge codes are 1 right, 2 left, 3 up, 4 down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Right,
    Left,
    Up,
    Down,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Right, Dir::Left, Dir::Up, Dir::Down];

    pub fn code(self) -> u8 {
        match self {
            Dir::Right => 1,
            Dir::Left => 2,
            Dir::Up => 3,
            Dir::Down => 4,
        }
    }

    pub fn from_code(code: u8) -> Option<Dir> {
        Dir::ALL.get(usize::from(code).wrapping_sub(1)).copied()
    }

    pub fn reversed(self) -> Dir {
        match self {
            Dir::Right => Dir::Left,
            Dir::Left => Dir::Right,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// (row change, column change).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Right => (0, 1),
            Dir::Left => (0, -1),
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
        }
    }

    pub fn arrow(self) -> char {
        match self {
            Dir::Right => '>',
            Dir::Left => '<',
            Dir::Up => '^',
            Dir::Down => 'v',
        }
    }
}

/// A piece at the start of the game; rows and columns are 1-based as in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub row: u8,
    pub col: u8,
    pub dir: Dir,
}

/// One game: the board and the pieces, piece 1 first.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub n: usize,
    /// Row-major, `n * n` cells.
    pub board: Vec<Colour>,
    pub pieces: Vec<Piece>,
}

impl Case {
    /// The colour of the 1-based cell (row, col), which must be on the board.
    pub fn colour(&self, row: u8, col: u8) -> Colour {
        self.board[(usize::from(row) - 1) * self.n + usize::from(col) - 1]
    }

    /// Checks the limits of the statement; the parser enforces the same ones with
    /// line numbers. Used for cases built in code (generators, shrinkers, corpus).
    pub fn validate(&self) -> Result<(), String> {
        if !(MIN_N..=MAX_N).contains(&self.n) {
            return Err(format!("N must be in {MIN_N}..={MAX_N}, found {}", self.n));
        }
        if self.board.len() != self.n * self.n {
            return Err(format!("the board has {} cells, not N*N", self.board.len()));
        }
        if !(MIN_K..=MAX_K).contains(&self.pieces.len()) {
            return Err(format!(
                "K must be in {MIN_K}..={MAX_K}, found {}",
                self.pieces.len()
            ));
        }
        for (index, piece) in self.pieces.iter().enumerate() {
            let on_board = |v: u8| (1..=self.n).contains(&usize::from(v));
            if !on_board(piece.row) || !on_board(piece.col) {
                return Err(format!(
                    "piece {} at ({},{}) is off the board",
                    index + 1,
                    piece.row,
                    piece.col
                ));
            }
            if let Some(other) = self.pieces[..index]
                .iter()
                .position(|p| (p.row, p.col) == (piece.row, piece.col))
            {
                return Err(format!(
                    "pieces {} and {} start on the same cell ({},{})",
                    other + 1,
                    index + 1,
                    piece.row,
                    piece.col
                ));
            }
        }
        Ok(())
    }
}

/// The judge's answer: the turn on which the game ends, or -1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    EndsOnTurn(u32),
    /// The game does not end within [`TURN_LIMIT`] turns (printed as -1).
    NotWithinLimit,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::EndsOnTurn(turn) => write!(f, "{turn}"),
            Answer::NotWithinLimit => write!(f, "-1"),
        }
    }
}

/// Which rule moved (or failed to move) a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Onto a white cell, order kept.
    White,
    /// Onto a red cell, the moving group reversed.
    Red,
    /// Blue or off the board ahead: turned round and moved onto a white cell.
    TurnedWhite,
    /// Turned round and moved onto a red cell.
    TurnedRed,
    /// Turned round, and the cell behind was blue or off the board too: stayed.
    TurnedStayed,
}

impl Rule {
    fn code(self) -> u64 {
        match self {
            Rule::White => 0,
            Rule::Red => 1,
            Rule::TurnedWhite => 2,
            Rule::TurnedRed => 3,
            Rule::TurnedStayed => 4,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Rule::White => "white",
            Rule::Red => "red (group reversed)",
            Rule::TurnedWhite => "blocked, turned round onto white",
            Rule::TurnedRed => "blocked, turned round onto red (group reversed)",
            Rule::TurnedStayed => "blocked both ways, turned round and stayed",
        }
    }

    /// A short kebab-case name, for corpus row names.
    pub fn slug(self) -> &'static str {
        match self {
            Rule::White => "white",
            Rule::Red => "red",
            Rule::TurnedWhite => "turned-white",
            Rule::TurnedRed => "turned-red",
            Rule::TurnedStayed => "turned-stayed",
        }
    }
}

/// One piece move: piece (1-based), from and to (1-based row, col), the rule, and
/// the stack the moving group ends on (its pieces, bottom first), so
/// that a difference in stacking order shows at the step that caused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    pub turn: u32,
    pub piece: u8,
    pub from: (u8, u8),
    pub to: (u8, u8),
    pub rule: Rule,
    /// 1-based piece numbers bottom first, then 0s ([`Step::height`] pieces).
    pub stack: [u8; MAX_STACK],
}

/// A stack of 1-based piece numbers as a [`Step::stack`] array.
pub fn stack_array(pieces: impl IntoIterator<Item = u8>) -> [u8; MAX_STACK] {
    let mut out = [0; MAX_STACK];
    for (slot, piece) in out.iter_mut().zip(pieces) {
        *slot = piece;
    }
    out
}

impl Step {
    /// How many pieces the stack holds: they fill it from the bottom.
    pub fn height(&self) -> u8 {
        self.stack.iter().take_while(|&&p| p != 0).count() as u8
    }

    /// The words both solvers fold into their trace digest.
    #[inline]
    pub fn packed(&self) -> [u64; 2] {
        let stack = self
            .stack
            .iter()
            .rev()
            .fold(0u64, |acc, &p| acc << 8 | u64::from(p));
        let head = u64::from(self.turn)
            | u64::from(self.piece) << 16
            | u64::from(self.from.0) << 24
            | u64::from(self.from.1) << 32
            | u64::from(self.to.0) << 40
            | u64::from(self.to.1) << 48
            | self.rule.code() << 56;
        [head, stack]
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn {}, piece {}: ({},{}) -> ({},{}), {}, stack now {} (bottom first)",
            self.turn,
            self.piece,
            self.from.0,
            self.from.1,
            self.to.0,
            self.to.1,
            self.rule.describe(),
            self.stack[..usize::from(self.height())]
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )
    }
}

/// The whole state between two steps: every stack (bottom first) and every direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub n: usize,
    /// Row-major, `n * n` stacks of 1-based piece numbers, bottom first.
    pub stacks: Vec<Vec<u8>>,
    /// The direction of piece i + 1.
    pub dirs: Vec<Dir>,
}

impl fmt::Display for Snapshot {
    /// A grid with one column per cell: the stack bottom to top, or `.` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self
            .stacks
            .iter()
            .map(|stack| {
                if stack.is_empty() {
                    ".".to_string()
                } else {
                    stack
                        .iter()
                        .map(|p| format!("{p}{}", self.dirs[usize::from(*p) - 1].arrow()))
                        .collect::<Vec<_>>()
                        .join(",")
                }
            })
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1);
        for row in cells.chunks(self.n) {
            let line: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
            writeln!(f, "    {}", line.join(" "))?;
        }
        Ok(())
    }
}

/// Why a traced run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// A stack reached four pieces on this turn.
    Ended { turn: u32 },
    /// The state after `turn` equals the state after `earlier`: the game never ends.
    /// Only the core reports this (the reference plays on to the limit).
    Repeated { turn: u32, earlier: u32 },
    /// All [`TURN_LIMIT`] turns were played without an end.
    TurnLimit,
    /// The requested number of steps was reached.
    StepLimit,
}

/// A traced run: its steps, why it stopped, and the state at that point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<Step>,
    pub end: End,
    pub state: Snapshot,
}

#[cfg(test)]
mod tests;

/// The judge's view of the puzzle: the judge-format I/O and the fast solver.
impl crate::Model for Case {
    type Answer = Answer;

    /// Parses the judge input: `N K`, N rows of N colours, K lines `row col dir`.
    fn parse(text: &str) -> Result<Case, InputError> {
        let mut lines = Lines::checked(text)?;
        let header = lines.next_exact(2, "N and K")?;
        let n: usize = header.int(0, "N", MIN_N..=MAX_N)?;
        let k: usize = header.int(1, "K", MIN_K..=MAX_K)?;

        let mut board = Vec::with_capacity(n * n);
        for row in 1..=n {
            let what = format!("board row {row} ({n} colours)");
            let line = lines.next_exact(n, &what)?;
            for index in 0..n {
                let code = line.int(index, "a colour (0 white, 1 red, 2 blue)", 0..=2u8)?;
                board.push(Colour::from_code(code).expect("range checked"));
            }
        }

        let mut pieces: Vec<Piece> = Vec::with_capacity(k);
        for number in 1..=k {
            let what = format!("piece {number} (row col dir)");
            let line = lines.next_exact(3, &what)?;
            let max = u8::try_from(n).expect("N <= 12");
            let row = line.int(0, "the row", 1..=max)?;
            let col = line.int(1, "the column", 1..=max)?;
            let code = line.int(2, "the direction (1 right, 2 left, 3 up, 4 down)", 1..=4u8)?;
            if let Some(other) = pieces.iter().position(|p| (p.row, p.col) == (row, col)) {
                return Err(line.error(format!(
                    "piece {number} starts on ({row},{col}), which piece {} already holds",
                    other + 1
                )));
            }
            pieces.push(Piece {
                row,
                col,
                dir: Dir::from_code(code).expect("range checked"),
            });
        }
        lines.finish()?;
        Ok(Case { n, board, pieces })
    }

    /// Writes a case in the judge format (the inverse of [`Model::parse`](crate::Model::parse)).
    fn write_input(&self) -> String {
        let mut out = format!("{} {}\n", self.n, self.pieces.len());
        for row in self.board.chunks(self.n) {
            let codes: Vec<String> = row.iter().map(|c| c.code().to_string()).collect();
            out.push_str(&codes.join(" "));
            out.push('\n');
        }
        for piece in &self.pieces {
            out.push_str(&format!(
                "{} {} {}\n",
                piece.row,
                piece.col,
                piece.dir.code()
            ));
        }
        out
    }

    /// Writes the answer exactly as the judge expects it.
    fn write_answer(answer: &Answer) -> String {
        format!("{answer}\n")
    }

    fn solve(&self) -> crate::Run<Answer> {
        fast::solve(self)
    }
}
