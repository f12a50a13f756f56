//! Checkers perft as a puzzle of its own: a position and a depth in, the
//! number of move paths of that many plies out (every jump sequence its own
//! move, as `lockstep perft` counts from the start). The rules are in
//! `docs/guide/src/rules/checkers_perft.md`; the moves are checkers' own
//! (`docs/guide/src/rules/checkers.md`).
//!
//! As a puzzle it runs through everything a puzzle gets: the differential
//! campaign against the reference's perft, the corpus (the published counts
//! from the start, and positions with kings and crownings), its replay, and
//! cargo-fuzz, so that a fast perft that goes wrong is caught where a fast
//! validator would be.

use crate::checkers::{parse_position, Instance, Piece, Side, MAX_PIECES};
use crate::input::{InputError, Lines};
use crate::Run;

/// The deepest ply a case may ask for: past it the counts run into the
/// billions from busy positions.
pub const MAX_DEPTH: u32 = 12;

/// A position (the pieces and the side to move; an instance with no moves)
/// and the depth to count to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub position: Instance,
    pub depth: u32,
}

/// The number of move paths.
pub type Answer = u64;

/// The standard start: Red on 1-12, White on 21-32, Red to move.
pub fn start(depth: u32) -> Case {
    let men = |squares: std::ops::RangeInclusive<u8>| -> Vec<Piece> {
        squares
            .map(|square| Piece {
                square,
                king: false,
            })
            .collect()
    };
    Case {
        position: Instance {
            red: men(1..=12),
            white: men(21..=32),
            to_move: Side::Red,
            moves: Vec::new(),
        },
        depth,
    }
}

/// The judge's view of the puzzle: the format is a checkers position (`r w`,
/// the Red squares, the White squares, negative for kings) and a last line
/// `D C`, the depth and the side to move; the answer is one number.
impl crate::Model for Case {
    type Answer = Answer;

    fn parse(text: &str) -> Result<Case, InputError> {
        let mut lines = Lines::checked(text)?;
        let header = lines.next_exact(2, "r and w")?;
        let r: usize = header.int(0, "r", 1..=MAX_PIECES)?;
        let w: usize = header.int(1, "w", 1..=MAX_PIECES)?;
        let (red, white) = parse_position(&mut lines, r, w)?;
        let last = lines.next_exact(2, "D and the side to move (R or W)")?;
        let depth = last.int(0, "D (the depth)", 0..=MAX_DEPTH)?;
        let to_move = match last.tokens[1] {
            "R" => Side::Red,
            "W" => Side::White,
            other => {
                return Err(last.error(format!(
                    "expected the side to move, R or W, found {}",
                    crate::input::quoted(other)
                )))
            }
        };
        lines.finish()?;
        Ok(Case {
            position: Instance {
                red,
                white,
                to_move,
                moves: Vec::new(),
            },
            depth,
        })
    }

    fn write_input(&self) -> String {
        let p = &self.position;
        format!(
            "{} {}\n{}\n{}\n{} {}\n",
            p.red.len(),
            p.white.len(),
            crate::checkers::squares_text(&p.red),
            crate::checkers::squares_text(&p.white),
            self.depth,
            p.to_move.letter()
        )
    }

    fn write_answer(answer: &Answer) -> String {
        format!("{answer}\n")
    }

    /// The bitboard perft; no trace: the digest is 0.
    fn solve(&self) -> Run<Answer> {
        Run {
            answer: crate::checkers::perft_instance(&self.position, self.depth),
            digest: 0,
        }
    }
}

#[cfg(test)]
mod tests;
