//! New Game 2, played literally.
//!
//! The board is a grid of stacks (`Vec<Vec<Vec<usize>>>`), each piece remembers its
//! row, column and direction, and every turn moves pieces 1..K exactly as the
//! statement says: find the piece in its stack, lift it with everything above it,
//! look at the next cell, turn round on blue or the edge, reverse the group on red,
//! put it on top. No early exit: all 1000 turns are played when the game does not
//! end. One unit of fuel per piece move.

use crate::{Fuel, Naive, OutOfFuel};
use lockstep_core::digest::Digest;
use lockstep_core::new_game2::{
    stack_array, Answer, Case, Colour, Dir, End, Piece, Rule, Snapshot, Step, Trace, ENDING_HEIGHT,
    MAX_STACK, TURN_LIMIT,
};
use lockstep_core::Run;

struct Game {
    n: usize,
    colours: Vec<Vec<Colour>>,
    /// `stacks[row][col]`, bottom first, 0-based piece numbers.
    stacks: Vec<Vec<Vec<usize>>>,
    /// 0-based (row, col, dir) of each piece.
    pieces: Vec<(usize, usize, Dir)>,
}

impl Game {
    fn new(case: &Case) -> Game {
        let n = case.n;
        let colours = case.board.chunks(n).map(|row| row.to_vec()).collect();
        let mut stacks = vec![vec![Vec::new(); n]; n];
        let mut pieces = Vec::new();
        for (number, piece) in case.pieces.iter().enumerate() {
            let (row, col) = (usize::from(piece.row) - 1, usize::from(piece.col) - 1);
            stacks[row][col].push(number);
            pieces.push((row, col, piece.dir));
        }
        Game {
            n,
            colours,
            stacks,
            pieces,
        }
    }

    /// The cell one step from (row, col) in `dir`, if it is on the board.
    fn neighbour(&self, row: usize, col: usize, dir: Dir) -> Option<(usize, usize)> {
        let (dr, dc) = dir.delta();
        let r = row as i32 + dr;
        let c = col as i32 + dc;
        let inside = |v: i32| v >= 0 && v < self.n as i32;
        if inside(r) && inside(c) {
            Some((r as usize, c as usize))
        } else {
            None
        }
    }

    /// "Blue or off the board" is one case in the rules.
    fn blocked(&self, cell: Option<(usize, usize)>) -> bool {
        match cell {
            None => true,
            Some((r, c)) => self.colours[r][c] == Colour::Blue,
        }
    }

    /// Moves piece `a` with the pieces above it and describes what happened.
    fn move_piece(&mut self, turn: u32, a: usize) -> Step {
        let (row, col, dir) = self.pieces[a];
        let mut target = self.neighbour(row, col, dir);
        let mut turned = false;
        if self.blocked(target) {
            let reversed = dir.reversed();
            self.pieces[a].2 = reversed;
            target = self.neighbour(row, col, reversed);
            turned = true;
        }
        let coords = |r: usize, c: usize| ((r + 1) as u8, (c + 1) as u8);
        if self.blocked(target) {
            return Step {
                turn,
                piece: (a + 1) as u8,
                from: coords(row, col),
                to: coords(row, col),
                rule: Rule::TurnedStayed,
                stack: self.stack_as_step(row, col),
            };
        }
        let (tr, tc) = target.expect("not blocked, so on the board");

        let position = self.stacks[row][col]
            .iter()
            .position(|&p| p == a)
            .expect("a piece is in the stack of its own cell");
        let mut group = self.stacks[row][col].split_off(position);
        let red = self.colours[tr][tc] == Colour::Red;
        if red {
            group.reverse();
        }
        for &p in &group {
            self.pieces[p].0 = tr;
            self.pieces[p].1 = tc;
        }
        self.stacks[tr][tc].extend(group);

        Step {
            turn,
            piece: (a + 1) as u8,
            from: coords(row, col),
            to: coords(tr, tc),
            rule: match (turned, red) {
                (false, false) => Rule::White,
                (false, true) => Rule::Red,
                (true, false) => Rule::TurnedWhite,
                (true, true) => Rule::TurnedRed,
            },
            stack: self.stack_as_step(tr, tc),
        }
    }

    /// The stack on a cell as steps report it: 1-based piece numbers, bottom first.
    fn stack_as_step(&self, row: usize, col: usize) -> [u8; MAX_STACK] {
        stack_array(self.stacks[row][col].iter().map(|&p| (p + 1) as u8))
    }

    /// Plays turns until a stack holds four pieces or the turn limit passes, handing
    /// each step, with the game after it, to `on_step`; stops early when
    /// `on_step` returns false.
    fn play(
        &mut self,
        fuel: &mut Fuel,
        mut on_step: impl FnMut(&Step, &Game) -> bool,
    ) -> Result<End, OutOfFuel> {
        for turn in 1..=TURN_LIMIT {
            for a in 0..self.pieces.len() {
                fuel.burn(1)?;
                let step = self.move_piece(turn, a);
                let go_on = on_step(&step, self);
                if usize::from(step.height()) >= ENDING_HEIGHT {
                    return Ok(End::Ended { turn });
                }
                if !go_on {
                    return Ok(End::StepLimit);
                }
            }
        }
        Ok(End::TurnLimit)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            n: self.n,
            stacks: self
                .stacks
                .iter()
                .flatten()
                .map(|stack| stack.iter().map(|&p| (p + 1) as u8).collect())
                .collect(),
            dirs: self.pieces.iter().map(|p| p.2).collect(),
        }
    }

    /// Every piece as it stands now: its 1-based cell and the way it faces.
    fn pieces_now(&self) -> Vec<Piece> {
        self.pieces
            .iter()
            .map(|&(row, col, dir)| Piece {
                row: (row + 1) as u8,
                col: (col + 1) as u8,
                dir,
            })
            .collect()
    }
}

/// Solves a case: the answer and the digest of its step trace when the game
/// ends within the limit, else 0 (as the core's `solve`).
fn solve(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
    let mut game = Game::new(case);
    let mut digest = Digest::new();
    let end = game.play(fuel, |step, _| {
        for word in step.packed() {
            digest.push(word);
        }
        true
    })?;
    Ok(match end {
        End::Ended { turn } => Run {
            answer: Answer::EndsOnTurn(turn),
            digest: digest.value(),
        },
        _ => Run {
            answer: Answer::NotWithinLimit,
            digest: 0,
        },
    })
}

/// Plays a case recording at most `max_steps` steps; returns them with the state
/// after the last one.
pub fn trace(case: &Case, max_steps: usize) -> Trace {
    let mut game = Game::new(case);
    let mut steps = Vec::new();
    let end = if max_steps == 0 {
        End::StepLimit
    } else {
        game.play(&mut Fuel::unlimited(), |step, _| {
            steps.push(*step);
            steps.len() < max_steps
        })
        .expect("unlimited fuel")
    };
    Trace {
        steps,
        end,
        state: game.snapshot(),
    }
}

/// A step, and every piece after it.
pub type StepAccount = (Step, Vec<Piece>);

/// A game played through within `fuel`, for `lockstep solve --trace`: each
/// step with every piece after it (its cell and the way it faces, the state
/// the rules read and a step does not show), and how the game ended (the
/// answer: [`End::Ended`] or [`End::TurnLimit`]).
pub fn account(case: &Case, fuel: &mut Fuel) -> Result<(Vec<StepAccount>, End), OutOfFuel> {
    let mut game = Game::new(case);
    let mut steps = Vec::new();
    let end = game.play(fuel, |step, after| {
        steps.push((*step, after.pieces_now()));
        true
    })?;
    Ok((steps, end))
}

impl Naive for Case {
    fn solve_naively(&self, fuel: &mut Fuel) -> Result<Run<Self::Answer>, OutOfFuel> {
        solve(self, fuel)
    }
}
