//! Disappearing Footholds (a 2022 recruitment-test problem): the model and the
//! project's text format.
//!
//! Two players take turns moving onto an adjacent foothold; the one they leave
//! disappears. A player who cannot move loses, and so does one whose shared
//! foothold the opponent left. With both playing optimally (win fast, lose slow),
//! the answer is the total number of moves. The rules are in
//! `docs/guide/src/rules/footholds.md`; the fast solver is `fast.rs`, behind
//! [`Model::solve`](crate::Model::solve).
//!
//! Boards are up to 8x8 here (the original stops at 5x5), so that a board fits a
//! 64-bit mask: bit `8 * row + col`, whatever the board's width.

mod fast;

pub use fast::{clear_table, solve_within};

use crate::input::{InputError, Lines};

/// The original's limit, used by the differential generator.
pub const ORIGINAL_MAX_SIDE: usize = 5;
/// The largest board the text format and the core take.
pub const MAX_SIDE: usize = 8;

/// A cell as (row, col), 0-based as in the original.
pub type Pos = (u8, u8);

/// One game: the board and both starting cells.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    pub height: usize,
    pub width: usize,
    /// Row-major, `height * width` cells; true where there is a foothold.
    pub cells: Vec<bool>,
    pub a: Pos,
    pub b: Pos,
}

/// A whole input: games one after another until the end.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub games: Vec<Game>,
}

/// The answer: the total number of moves of each game.
pub type Answer = Vec<u32>;

impl Game {
    pub fn foothold(&self, (r, c): Pos) -> bool {
        self.cells[usize::from(r) * self.width + usize::from(c)]
    }

    /// The footholds as a 64-bit mask, bit `8 * row + col`.
    pub fn mask(&self) -> u64 {
        let mut mask = 0;
        for r in 0..self.height {
            for c in 0..self.width {
                if self.cells[r * self.width + c] {
                    mask |= 1 << (8 * r + c);
                }
            }
        }
        mask
    }

    /// Checks the limits (the parser enforces them with line numbers): sides in
    /// 1..=8, both players on footholds inside the board.
    pub fn validate(&self) -> Result<(), String> {
        for (name, side) in [("H", self.height), ("W", self.width)] {
            if !(1..=MAX_SIDE).contains(&side) {
                return Err(format!("{name} must be in 1..={MAX_SIDE}, found {side}"));
            }
        }
        if self.cells.len() != self.height * self.width {
            return Err("the board does not have H*W cells".to_string());
        }
        for (name, (r, c)) in [("A", self.a), ("B", self.b)] {
            if usize::from(r) >= self.height || usize::from(c) >= self.width {
                return Err(format!("{name} at ({r},{c}) is off the board"));
            }
            if !self.foothold((r, c)) {
                return Err(format!("{name} at ({r},{c}) is not on a foothold"));
            }
        }
        Ok(())
    }

    /// The board seen in a mirror (columns reversed).
    pub fn mirrored(&self) -> Game {
        let flip = |(r, c): Pos| (r, (self.width - 1 - usize::from(c)) as u8);
        let cells = (0..self.height)
            .flat_map(|r| (0..self.width).rev().map(move |c| (r, c)))
            .map(|(r, c)| self.cells[r * self.width + c])
            .collect();
        Game {
            cells,
            a: flip(self.a),
            b: flip(self.b),
            ..self.clone()
        }
    }

    /// The board turned a quarter clockwise.
    pub fn rotated(&self) -> Game {
        let (h, w) = (self.height, self.width);
        // New cell (r, c) with r < w, c < h comes from old (h - 1 - c, r).
        let turn = |(r, c): Pos| (c, (h - 1 - usize::from(r)) as u8);
        let cells = (0..w)
            .flat_map(|r| (0..h).map(move |c| (r, c)))
            .map(|(r, c)| self.cells[(h - 1 - c) * w + r])
            .collect();
        Game {
            height: w,
            width: h,
            cells,
            a: turn(self.a),
            b: turn(self.b),
        }
    }
}

/// The judge's view of the puzzle: the judge-format I/O and the fast solver.
impl crate::Model for Case {
    type Answer = Answer;

    /// Parses the project's text format: per game a line `H W`, H lines of W values
    /// 0/1, a line `ar ac br bc` (0-based); games until the end of input. Blank lines
    /// between games are skipped.
    fn parse(text: &str) -> Result<Case, InputError> {
        let mut lines = Lines::checked(text)?;
        let mut games = Vec::new();
        while let Some(header) = lines.next_nonblank() {
            header.expect_len(2, "H and W")?;
            let height: usize = header.int(0, "H", 1..=MAX_SIDE)?;
            let width: usize = header.int(1, "W", 1..=MAX_SIDE)?;
            let mut cells = Vec::with_capacity(height * width);
            for row in 0..height {
                let what = format!("board row {} of {height} ({width} values 0 or 1)", row + 1);
                let line = lines.next_exact(width, &what)?;
                for col in 0..width {
                    cells.push(line.int(col, "a cell (0 or 1)", 0..=1u8)? == 1);
                }
            }
            let line = lines.next_exact(4, "the positions `ar ac br bc`")?;
            let (h, w) = ((height - 1) as u8, (width - 1) as u8);
            let a = (line.int(0, "ar", 0..=h)?, line.int(1, "ac", 0..=w)?);
            let b = (line.int(2, "br", 0..=h)?, line.int(3, "bc", 0..=w)?);
            let game = Game {
                height,
                width,
                cells,
                a,
                b,
            };
            for (name, pos) in [("A", a), ("B", b)] {
                if !game.foothold(pos) {
                    return Err(line.error(format!(
                        "{name} at ({},{}) is not on a foothold",
                        pos.0, pos.1
                    )));
                }
            }
            games.push(game);
        }
        Ok(Case { games })
    }

    /// Writes a case in the text format (the inverse of [`Model::parse`](crate::Model::parse)).
    fn write_input(&self) -> String {
        let mut out = String::new();
        for game in &self.games {
            out.push_str(&format!("{} {}\n", game.height, game.width));
            for row in game.cells.chunks(game.width) {
                let values: Vec<&str> = row.iter().map(|&f| if f { "1" } else { "0" }).collect();
                out.push_str(&values.join(" "));
                out.push('\n');
            }
            out.push_str(&format!(
                "{} {} {} {}\n",
                game.a.0, game.a.1, game.b.0, game.b.1
            ));
        }
        out
    }

    /// One answer per line.
    fn write_answer(answer: &Answer) -> String {
        answer.iter().map(|moves| format!("{moves}\n")).collect()
    }

    fn solve(&self) -> crate::Run<Answer> {
        fast::solve(self)
    }
}

#[cfg(test)]
mod tests;
