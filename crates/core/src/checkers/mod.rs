//! Checker's Check (ICPC ECNA 2000 E, POJ 1643): the model, the judge format, the
//! trace vocabulary, and the fast validator and perft.
//!
//! An input holds several instances; each is a position (Red and White pieces on the
//! 32 dark squares, negative numbers for kings), the side to move, and a list of
//! moves written as squares joined by `-`. The answer per instance is the first move
//! that breaks the rules, or that all are valid. The rules are in
//! `docs/guide/src/rules/checkers.md`; the fast validator is `fast.rs`, behind
//! [`Model::solve`](crate::Model::solve), and the perft is [`perft`].
//!
//! Both solvers report, per instance, the [`Board`] after every move they applied,
//! so that a disagreement shows at the first move where the two positions part.

mod fast;

pub use fast::{
    children, legal_moves, perft, perft_instance, perft_parallel, solve_seeing, start_board,
    trace_instance, Captures, Divided, Perft, PerftOptions, Progress, TableStats,
};

use crate::input::{parse_int, InputError, Line, Lines};
use std::fmt;

/// Dark squares, numbered 1..=32.
pub const SQUARES: u32 = 32;
/// Pieces per side in an input (1..=12).
pub const MAX_PIECES: usize = 12;
/// A move names 2..=13 squares (the statement's bound).
pub const MAX_MOVE_SQUARES: usize = 13;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Starts on 1..=12 and moves toward higher rows; crowns on 29..=32.
    Red,
    /// Starts on 21..=32 and moves toward lower rows; crowns on 1..=4.
    White,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::White,
            Side::White => Side::Red,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Side::Red => 'R',
            Side::White => 'W',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::White => "White",
        }
    }

    /// Whether `square` (1..=32) is on this side's promotion row.
    pub const fn promotes_on(self, square: u32) -> bool {
        match self {
            Side::Red => 29 <= square && square <= 32,
            Side::White => 1 <= square && square <= 4,
        }
    }
}

/// A piece on the board: its square (1..=32) and whether it is a king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub square: u8,
    pub king: bool,
}

/// A move as written: the squares it visits, first the piece's own. Squares are
/// kept as read (any whole number), because a square off the board is an invalid
/// move, not an input error.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Move(pub Vec<u32>);

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, square) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str("-")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

/// One problem instance: a position, the side to move first, and the moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instance {
    /// In input order (the order is kept so that input round-trips).
    pub red: Vec<Piece>,
    pub white: Vec<Piece>,
    pub to_move: Side,
    pub moves: Vec<Move>,
}

impl Instance {
    /// The pieces of one side.
    pub fn pieces(&self, side: Side) -> &[Piece] {
        match side {
            Side::Red => &self.red,
            Side::White => &self.white,
        }
    }

    /// The statement's promises about a position and the format's limits; the
    /// parser enforces the same with line numbers. For instances built in code
    /// (generators, shrinkers).
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = [false; SQUARES as usize + 1];
        for side in [Side::Red, Side::White] {
            let pieces = self.pieces(side);
            if !(1..=MAX_PIECES).contains(&pieces.len()) {
                return Err(format!(
                    "{} has {} pieces, not 1..={MAX_PIECES}",
                    side.name(),
                    pieces.len()
                ));
            }
            for piece in pieces {
                position_square_problem(side, piece, &seen).map_or(Ok(()), Err)?;
                seen[usize::from(piece.square)] = true;
            }
        }
        if self.moves.is_empty() {
            return Err("an instance needs at least one move".to_string());
        }
        for (index, m) in self.moves.iter().enumerate() {
            if !(2..=MAX_MOVE_SQUARES).contains(&m.0.len()) {
                return Err(format!(
                    "move {} names {} squares, not 2..={MAX_MOVE_SQUARES}",
                    index + 1,
                    m.0.len()
                ));
            }
        }
        Ok(())
    }
}

/// Why a piece cannot stand where the input puts it, if it cannot: a square off the
/// board, one already taken, or a man on its own promotion row.
fn position_square_problem(
    side: Side,
    piece: &Piece,
    seen: &[bool; SQUARES as usize + 1],
) -> Option<String> {
    let square = u32::from(piece.square);
    if !(1..=SQUARES).contains(&square) {
        Some(format!("square {square} is not in 1..={SQUARES}"))
    } else if seen[square as usize] {
        Some(format!(
            "square {square} holds two pieces (the statement promises legal positions)"
        ))
    } else if !piece.king && side.promotes_on(square) {
        Some(format!(
            "a {} man on {square}, {}'s promotion row (the statement promises it is a king there)",
            side.name(),
            side.name()
        ))
    } else {
        None
    }
}

/// A whole input: the instances before `0 0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub instances: Vec<Instance>,
}

/// The answer to one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ruling {
    AllValid,
    /// The 1-based number of the first invalid move.
    Invalid(usize),
}

impl Ruling {
    /// The word folded into trace digests at the end of an instance.
    pub fn packed(self) -> u64 {
        match self {
            Ruling::AllValid => 1 << 63,
            Ruling::Invalid(n) => 1 << 62 | n as u64,
        }
    }
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruling::AllValid => write!(f, "All moves valid"),
            Ruling::Invalid(n) => write!(f, "Move {n} is invalid"),
        }
    }
}

/// The answer to a case: one verdict per instance, in input order.
pub type Answer = Vec<Ruling>;

/// A position as three sets of squares: bit `s - 1` stands for square `s`. This is
/// the vocabulary both solvers report positions in (the reference builds it from its
/// own grid); it is not how the reference plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    pub red: u32,
    pub white: u32,
    pub kings: u32,
}

impl Board {
    /// The position an instance starts from.
    pub fn of(instance: &Instance) -> Board {
        let mut board = Board::default();
        for (side, pieces) in [(Side::Red, &instance.red), (Side::White, &instance.white)] {
            for piece in pieces {
                let bit = 1u32 << (piece.square - 1);
                match side {
                    Side::Red => board.red |= bit,
                    Side::White => board.white |= bit,
                }
                if piece.king {
                    board.kings |= bit;
                }
            }
        }
        board
    }

    /// The words folded into trace digests for the position after a move.
    #[inline]
    pub fn packed(&self) -> [u64; 2] {
        [
            u64::from(self.red) | u64::from(self.white) << 32,
            u64::from(self.kings),
        ]
    }

    /// The piece on square `s` (1..=32): its side and whether it is a king.
    pub fn at(&self, s: u32) -> Option<(Side, bool)> {
        let bit = 1u32 << (s - 1);
        let king = self.kings & bit != 0;
        if self.red & bit != 0 {
            Some((Side::Red, king))
        } else if self.white & bit != 0 {
            Some((Side::White, king))
        } else {
            None
        }
    }
}

impl fmt::Display for Board {
    /// An 8x8 diagram, row 0 (squares 1-4) on top: `r`/`w` men, `R`/`W` kings,
    /// `.` an empty dark square, a space a light one; square numbers at the right.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8u32 {
            let mut line = String::new();
            for col in 0..8u32 {
                if (row + col) % 2 == 0 {
                    line.push_str("  ");
                    continue;
                }
                let square = row * 4 + col / 2 + 1;
                line.push(match self.at(square) {
                    None => '.',
                    Some((Side::Red, false)) => 'r',
                    Some((Side::Red, true)) => 'R',
                    Some((Side::White, false)) => 'w',
                    Some((Side::White, true)) => 'W',
                });
                line.push(' ');
            }
            writeln!(f, "    {line}  {:>2}-{:<2}", row * 4 + 1, row * 4 + 4)?;
        }
        Ok(())
    }
}

/// One instance in full: the position after each applied move, and the verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceTrace {
    pub boards: Vec<Board>,
    pub verdict: Ruling,
}

/// The two lines of a position: `r` Red squares, then `w` White ones, no
/// square twice.
pub(crate) fn parse_position(
    lines: &mut Lines<'_>,
    r: usize,
    w: usize,
) -> Result<(Vec<Piece>, Vec<Piece>), InputError> {
    let mut seen = [false; SQUARES as usize + 1];
    let red = parse_pieces(
        &lines.next_line("the Red squares")?,
        Side::Red,
        r,
        &mut seen,
    )?;
    let white = parse_pieces(
        &lines.next_line("the White squares")?,
        Side::White,
        w,
        &mut seen,
    )?;
    Ok((red, white))
}

fn parse_pieces(
    line: &Line<'_>,
    side: Side,
    count: usize,
    seen: &mut [bool; SQUARES as usize + 1],
) -> Result<Vec<Piece>, InputError> {
    let what = format!("{count} {} squares", side.name());
    line.expect_len(count, &what)?;
    let mut pieces = Vec::with_capacity(count);
    for index in 0..count {
        let value: i32 = line.int(
            index,
            &format!("a {} square (negative for a king)", side.name()),
            -(SQUARES as i32)..=SQUARES as i32,
        )?;
        if value == 0 {
            return Err(line.error(format!("a {} square cannot be 0", side.name())));
        }
        let piece = Piece {
            square: value.unsigned_abs() as u8,
            king: value < 0,
        };
        if let Some(problem) = position_square_problem(side, &piece, seen) {
            return Err(line.error(problem));
        }
        seen[usize::from(piece.square)] = true;
        pieces.push(piece);
    }
    Ok(pieces)
}

fn parse_move(line: &Line<'_>, number: u32) -> Result<Move, InputError> {
    let token = line.tokens[0];
    let parts: Vec<&str> = token.split('-').take(MAX_MOVE_SQUARES + 1).collect();
    if !(2..=MAX_MOVE_SQUARES).contains(&parts.len()) {
        return Err(line.error(format!(
            "move {number} must name 2..={MAX_MOVE_SQUARES} squares joined by -, found {}",
            crate::input::quoted(token)
        )));
    }
    let squares = parts
        .iter()
        .map(|part| parse_int(part, line.number, "a square of the move", 0..=u32::MAX))
        .collect::<Result<Vec<u32>, InputError>>()?;
    Ok(Move(squares))
}

fn write_pieces(out: &mut String, pieces: &[Piece]) {
    push_squares(out, pieces);
    out.push('\n');
}

/// A side's squares as the input writes them, a king's negated: `5 -12`.
pub(crate) fn squares_text(pieces: &[Piece]) -> String {
    let mut out = String::new();
    push_squares(&mut out, pieces);
    out
}

/// [`squares_text`] into `out`: the input writer's form, without a string
/// a square (verify writes a sample of its cases' inputs).
fn push_squares(out: &mut String, pieces: &[Piece]) {
    use std::fmt::Write;
    for (i, p) in pieces.iter().enumerate() {
        let space = if i == 0 { "" } else { " " };
        let sign = if p.king { "-" } else { "" };
        let _ = write!(out, "{space}{sign}{}", p.square);
    }
}

#[cfg(test)]
mod tests;

/// The judge's view of the puzzle: the judge-format I/O and the fast solver.
impl crate::Model for Case {
    type Answer = Answer;

    /// Parses the judge input: instances until `0 0`, then only blank lines.
    ///
    /// Input errors are only for text that cannot be read as the format: a non-number,
    /// a count outside 1..=12 (other than the final `0 0`), a line with the wrong number
    /// of values, a side other than `R`/`W`, a move with fewer than 2 or more than 13
    /// squares, or a missing `0 0`. Because the statement promises legal positions, a
    /// position square outside 1..=32, two pieces on one square, or a man on its own
    /// promotion row is also an input error naming the line. A move square outside
    /// 1..=32 is *not*: it makes that move invalid.
    fn parse(text: &str) -> Result<Case, InputError> {
        let mut lines = Lines::checked(text)?;
        let mut instances = Vec::new();
        loop {
            let header = lines.next_line("r and w (or 0 0 to end the input)")?;
            header.expect_len(2, "r and w")?;
            let r: usize = header.int(0, "r", 0..=MAX_PIECES)?;
            let w: usize = header.int(1, "w", 0..=MAX_PIECES)?;
            if r == 0 && w == 0 {
                break;
            }
            if r == 0 || w == 0 {
                return Err(header.error(format!(
                    "r and w must both be in 1..={MAX_PIECES} (0 0 ends the input), found {r} {w}"
                )));
            }
            let (red, white) = parse_position(&mut lines, r, w)?;
            let side_line = lines.next_exact(2, "m and the side to move (R or W)")?;
            let m: u32 = side_line.int(0, "m (the number of moves)", 1..=u32::MAX)?;
            let to_move = match side_line.tokens[1] {
                "R" => Side::Red,
                "W" => Side::White,
                other => {
                    return Err(side_line.error(format!(
                        "expected the side to move, R or W, found {}",
                        crate::input::quoted(other)
                    )))
                }
            };
            let mut moves = Vec::new();
            for number in 1..=m {
                let what = format!("move {number} (squares joined by -)");
                let line = lines.next_exact(1, &what)?;
                moves.push(parse_move(&line, number)?);
            }
            instances.push(Instance {
                red,
                white,
                to_move,
                moves,
            });
        }
        lines.finish()?;
        Ok(Case { instances })
    }

    /// Writes a case in the judge format, `0 0` included (the inverse of [`Model::parse`](crate::Model::parse)).
    fn write_input(&self) -> String {
        use std::fmt::Write;
        // One buffer, written into: lockstep verify writes a sample of its
        // cases and answers as text, and a string a line cost more than
        // solving.
        let mut out = String::with_capacity(32 * self.instances.len() + 4);
        for instance in &self.instances {
            let _ = writeln!(out, "{} {}", instance.red.len(), instance.white.len());
            write_pieces(&mut out, &instance.red);
            write_pieces(&mut out, &instance.white);
            let _ = writeln!(
                out,
                "{} {}",
                instance.moves.len(),
                instance.to_move.letter()
            );
            for m in &instance.moves {
                let _ = writeln!(out, "{m}");
            }
        }
        out.push_str("0 0\n");
        out
    }

    /// Writes the answer exactly as the judge expects it: one line per instance.
    fn write_answer(answer: &Answer) -> String {
        use std::fmt::Write;
        let mut out = String::with_capacity(16 * answer.len());
        for v in answer {
            let _ = writeln!(out, "{v}");
        }
        out
    }

    fn solve(&self) -> crate::Run<Answer> {
        fast::solve(self)
    }
}
