//! The fast New Game 2 solver: fixed arrays, no allocation per move, and an early -1
//! when the game returns to a state it has been in.
//!
//! - The board is padded with a ring of blue cells, so "off the board" and "blue" are
//!   one test, and a cell is a single index with the four directions as offsets.
//! - Every stack is a fixed array. Between moves no stack holds more than three
//!   pieces (four would have ended the game), so a moving group has at most three
//!   pieces and a stack never exceeds six.
//! - Each piece knows its cell and its level in the stack, so finding the moving
//!   group is a lookup, not a search.
//! - The game is deterministic, so a state seen twice at the end of a turn means it
//!   loops forever without ending. Brent's cycle detection finds the repeat with one
//!   saved state and one comparison per turn; the state is the (cell, direction,
//!   level) of every piece, which determines every stack.

use super::{
    stack_array, Answer, Case, Dir, End, Rule, Snapshot, Step, Trace, MAX_K, MAX_N, MAX_STACK,
    TURN_LIMIT,
};
use crate::digest::Digest;
use crate::Run;

const STRIDE: usize = MAX_N + 2;
const CELLS: usize = STRIDE * STRIDE;

/// The board's colours as [`super::Colour::code`] numbers them (white is 0).
const RED: u8 = 1;
const BLUE: u8 = 2;

/// Direction indices 0 right, 1 left, 2 up, 3 down: `d ^ 1` reverses.
const OFFSET: [isize; 4] = [1, -1, -(STRIDE as isize), STRIDE as isize];

/// Receives each step; returns false to stop the run after it.
trait Observer {
    fn step(&mut self, step: Step) -> bool;
}

struct DigestObserver(Digest);

impl Observer for DigestObserver {
    #[inline]
    fn step(&mut self, step: Step) -> bool {
        let [head, stack] = step.packed();
        self.0.push(head);
        self.0.push(stack);
        true
    }
}

struct Recorder {
    steps: Vec<Step>,
    max_steps: usize,
}

impl Observer for Recorder {
    fn step(&mut self, step: Step) -> bool {
        self.steps.push(step);
        self.steps.len() < self.max_steps
    }
}

/// What a piece move did to the game.
enum Moved {
    Continue,
    /// A stack reached four pieces.
    Ended,
    /// The observer asked to stop.
    Stopped,
}

struct Engine {
    colour: [u8; CELLS],
    stack: [[u8; MAX_STACK]; CELLS],
    height: [u8; CELLS],
    cell: [u8; MAX_K],
    dir: [u8; MAX_K],
    level: [u8; MAX_K],
    k: usize,
}

impl Engine {
    fn new(case: &Case) -> Engine {
        let mut engine = Engine {
            colour: [BLUE; CELLS],
            stack: [[0; MAX_STACK]; CELLS],
            height: [0; CELLS],
            cell: [0; MAX_K],
            dir: [0; MAX_K],
            level: [0; MAX_K],
            k: case.pieces.len(),
        };
        for (index, colour) in case.board.iter().enumerate() {
            let cell = (index / case.n + 1) * STRIDE + index % case.n + 1;
            engine.colour[cell] = colour.code();
        }
        for (index, piece) in case.pieces.iter().enumerate() {
            let cell = usize::from(piece.row) * STRIDE + usize::from(piece.col);
            engine.cell[index] = cell as u8;
            engine.dir[index] = piece.dir.code() - 1;
            engine.level[index] = 0;
            engine.stack[cell][0] = index as u8;
            engine.height[cell] = 1;
        }
        engine
    }

    /// The stack on `cell` in 1-based piece numbers, as steps report it.
    #[inline]
    fn stack_of(&self, cell: usize) -> [u8; MAX_STACK] {
        stack_array(
            self.stack[cell][..usize::from(self.height[cell])]
                .iter()
                .map(|&piece| piece + 1),
        )
    }

    #[inline]
    fn coords(cell: usize) -> (u8, u8) {
        ((cell / STRIDE) as u8, (cell % STRIDE) as u8)
    }

    /// Moves piece `a` (0-based) with everything above it.
    #[inline]
    fn move_piece<O: Observer>(&mut self, turn: u32, a: usize, observer: &mut O) -> Moved {
        let from = usize::from(self.cell[a]);
        let level = usize::from(self.level[a]);
        let top = usize::from(self.height[from]);
        let mut dir = usize::from(self.dir[a]);
        let mut to = from.wrapping_add_signed(OFFSET[dir]);
        let mut turned = false;
        if self.colour[to] == BLUE {
            dir ^= 1;
            self.dir[a] = dir as u8;
            to = from.wrapping_add_signed(OFFSET[dir]);
            turned = true;
        }
        let target = self.colour[to];
        if target == BLUE {
            let step = Step {
                turn,
                piece: a as u8 + 1,
                from: Self::coords(from),
                to: Self::coords(from),
                rule: Rule::TurnedStayed,
                stack: self.stack_of(from),
            };
            return if observer.step(step) {
                Moved::Continue
            } else {
                Moved::Stopped
            };
        }

        let mut group = [0u8; 3];
        let size = top - level;
        group[..size].copy_from_slice(&self.stack[from][level..top]);
        if target == RED {
            group[..size].reverse();
        }
        let base = usize::from(self.height[to]);
        for (offset, &piece) in group[..size].iter().enumerate() {
            self.stack[to][base + offset] = piece;
            self.cell[usize::from(piece)] = to as u8;
            self.level[usize::from(piece)] = (base + offset) as u8;
        }
        let height = base + size;
        self.height[to] = height as u8;
        self.height[from] = level as u8;

        let rule = match (turned, target == RED) {
            (false, false) => Rule::White,
            (false, true) => Rule::Red,
            (true, false) => Rule::TurnedWhite,
            (true, true) => Rule::TurnedRed,
        };
        let step = Step {
            turn,
            piece: a as u8 + 1,
            from: Self::coords(from),
            to: Self::coords(to),
            rule,
            stack: self.stack_of(to),
        };
        if height >= super::ENDING_HEIGHT {
            observer.step(step);
            Moved::Ended
        } else if observer.step(step) {
            Moved::Continue
        } else {
            Moved::Stopped
        }
    }

    /// Everything that decides the future: each piece's cell, direction and level.
    #[inline]
    fn key(&self) -> [u32; MAX_K] {
        let mut key = [0u32; MAX_K];
        for (index, slot) in key.iter_mut().enumerate().take(self.k) {
            *slot = u32::from(self.cell[index])
                | u32::from(self.dir[index]) << 8
                | u32::from(self.level[index]) << 10;
        }
        key
    }

    fn run<O: Observer>(&mut self, observer: &mut O) -> End {
        let mut saved = self.key();
        let mut saved_turn = 0;
        let mut power = 1u32;
        let mut since_saved = 0u32;
        for turn in 1..=TURN_LIMIT {
            for a in 0..self.k {
                match self.move_piece(turn, a, observer) {
                    Moved::Continue => {}
                    Moved::Ended => return End::Ended { turn },
                    Moved::Stopped => return End::StepLimit,
                }
            }
            // Brent: compare with the state saved at the last power of two; move the
            // saved state forward each time the distance reaches the next power.
            let key = self.key();
            if key == saved {
                return End::Repeated {
                    turn,
                    earlier: saved_turn,
                };
            }
            since_saved += 1;
            if since_saved == power {
                saved = key;
                saved_turn = turn;
                power *= 2;
                since_saved = 0;
            }
        }
        End::TurnLimit
    }

    fn snapshot(&self, n: usize) -> Snapshot {
        let mut stacks = Vec::with_capacity(n * n);
        for row in 1..=n {
            for col in 1..=n {
                let cell = row * STRIDE + col;
                let height = usize::from(self.height[cell]);
                stacks.push(self.stack[cell][..height].iter().map(|p| p + 1).collect());
            }
        }
        let dirs = self.dir[..self.k]
            .iter()
            .map(|&d| Dir::ALL[usize::from(d)])
            .collect();
        Snapshot { n, stacks, dirs }
    }
}

/// Solves a case: the answer and the [`Digest`] of every [`Step::packed`]
/// word when the game ends within the limit; 0 when it does not. (A game that
/// never ends has no common span to compare: the core stops at the first
/// repeated state, the reference plays all 1000 turns.)
pub fn solve(case: &Case) -> Run<Answer> {
    let mut engine = Engine::new(case);
    let mut observer = DigestObserver(Digest::new());
    match engine.run(&mut observer) {
        End::Ended { turn } => Run {
            answer: Answer::EndsOnTurn(turn),
            digest: observer.0.value(),
        },
        End::Repeated { .. } | End::TurnLimit => Run {
            answer: Answer::NotWithinLimit,
            digest: 0,
        },
        End::StepLimit => unreachable!("the digest observer never stops a run"),
    }
}

/// Runs a case recording at most `max_steps` steps; returns them with the state
/// after the last one. `max_steps == 0` gives the starting state.
pub fn trace(case: &Case, max_steps: usize) -> Trace {
    let mut engine = Engine::new(case);
    let mut recorder = Recorder {
        steps: Vec::new(),
        max_steps,
    };
    let end = if max_steps == 0 {
        End::StepLimit
    } else {
        engine.run(&mut recorder)
    };
    Trace {
        steps: recorder.steps,
        end,
        state: engine.snapshot(case.n),
    }
}
