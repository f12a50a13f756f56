//! Checkers' explored levels: games, breadth-first. Size [`FIRST`] + d holds
//! the positions first reached after d moves from the starts, every one once,
//! and at each of them every written move worth asking about.
//!
//! **The starts**: two Red men on squares 1-8 and two White men on 25-32 (each
//! side's first two rows), Red to move: 784 positions. From there the men
//! advance, meet, jump, crown, and the kings chase each other until one side
//! is gone or cannot move; the whole game graph of these starts closes at
//! depth 56, about 1.9 million positions (counted up to the symmetry below).
//!
//! **The states**: a position and the side to move, deduplicated exactly (the
//! three 32-bit square sets are the key; no fingerprint), kept up to the
//! symmetry of the rules, the board turned half round with the colours
//! swapped: every state is stored as its image with Red to move, and stands
//! for itself and its image (a class of two; no state is its own image, the
//! side to move changes). Index `2i` of a layer is its state `i`, index
//! `2i + 1` that state's image, so that `--no-symmetry` checks both. The starts are their own image as a set, so the
//! layers of the images are the images of the layers. A position where a side
//! has no piece is over and is not a case.
//!
//! **A case** is one state, as an input of many instances: the state's
//! position with one written move each, the moves sorted:
//! - every legal move, every proper prefix of a multi-jump (a jump stopped
//!   short), and each of those with one more diagonal leg, a step or a jump
//!   in any of the four directions (a step after a jump or a crowning, a jump
//!   on after a crowning, a king's jump back, two steps);
//! - every diagonal leg, step or jump, of every piece of the side to move (a
//!   step while a jump is due, a man backward);
//! - every legal move of the side not to move.
//!
//! So core and reference rule each step of every game from the starts, at
//! every position the games reach, and the first disagreement is at the
//! least depth: the shortest game to it. Rejected moves off the diagonals or
//! off the board are the shapes' part (sizes 1 to 4).
//!
//! **The order**: the layers are built with the reference's move list
//! ([`Grid::legal_moves`]), each layer sorted by its key, so an index names
//! the same state on every machine and every shard. The cases run no code of
//! core's (a mutant of core may panic or loop, and must do so inside the
//! check, not in the source of the cases). The count the tests hold each
//! layer to is made another way: the same search with core's move generator
//! ([`lockstep_core::checkers::children`], [`by_core`]), so the two
//! generators are compared on every position of the graph as well.

use super::mutation::{diagonal, DIAGONALS};
use lockstep_core::checkers::{children, Board, Captures, Case, Instance, Move, Piece, Side};
use lockstep_reference::checkers::Grid;
use lockstep_reference::Fuel;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::sync::Mutex;

/// The size of depth 0: sizes below it are the shapes.
pub const FIRST: u32 = 4;

/// The deepest layer there is: the game graph of the starts closes here.
/// Sizes past `FIRST + LAST_DEPTH` are empty (a test holds this to the
/// search).
pub const LAST_DEPTH: u32 = 56;

/// The depth level `size` explores, if it is one of the explored levels.
pub fn depth(size: u32) -> Option<u32> {
    size.checked_sub(FIRST).filter(|&d| d <= LAST_DEPTH)
}

/// A state up to the symmetry: the position with Red to move.
type State = Board;

/// The layers built so far, and every state in them.
struct Layers {
    layers: Vec<Vec<State>>,
    seen: HashSet<State, BuildHasherDefault<DefaultHasher>>,
}

impl Layers {
    const fn new() -> Mutex<Layers> {
        Mutex::new(Layers {
            layers: Vec::new(),
            seen: HashSet::with_hasher(BuildHasherDefault::new()),
        })
    }

    /// The layers up to `depth`, searched with `moves` on first use.
    fn to_depth(
        built: &Mutex<Layers>,
        depth: u32,
        moves: impl FnMut(&State) -> Vec<Board>,
    ) -> std::sync::MutexGuard<'_, Layers> {
        let mut built = built
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Layers { layers, seen } = &mut *built;
        search(layers, seen, depth, moves);
        built
    }
}

/// The layers as the reference's move list makes them (the cases), and as
/// core's generator makes them (the count the cases are held to).
static BY_CORE: Mutex<Layers> = Layers::new();
static BY_REFERENCE: Mutex<Layers> = Layers::new();

/// The board turned half round with the colours swapped: square `s` is
/// `33 - s`, so bit `i` is bit `31 - i`.
fn turned(board: &Board) -> Board {
    Board {
        red: board.white.reverse_bits(),
        white: board.red.reverse_bits(),
        kings: board.kings.reverse_bits(),
    }
}

fn key(board: &Board) -> (u32, u32, u32) {
    (board.red, board.white, board.kings)
}

/// The starts: two men a side on its first two rows, Red to move.
fn starts() -> Vec<State> {
    let mut out = Vec::new();
    for red in 0u32..1 << 8 {
        for white in 0u32..1 << 8 {
            if red.count_ones() == 2 && white.count_ones() == 2 {
                out.push(Board {
                    red,
                    white: white << 24,
                    kings: 0,
                });
            }
        }
    }
    out.sort_by_key(key);
    out
}

/// Whether a state is a case: both sides still have pieces.
fn live(state: &State) -> bool {
    state.red != 0 && state.white != 0
}

/// The states after one move of Red, each as its image with Red to move.
fn next_states(state: &State, mut moves: impl FnMut(&State) -> Vec<Board>) -> Vec<State> {
    if !live(state) {
        return Vec::new();
    }
    moves(state).iter().map(turned).collect()
}

/// Breadth-first from `starts` to `depth`, each layer sorted: the states
/// first reached at each depth.
fn search(
    layers: &mut Vec<Vec<State>>,
    seen: &mut HashSet<State, BuildHasherDefault<DefaultHasher>>,
    depth: u32,
    mut moves: impl FnMut(&State) -> Vec<Board>,
) {
    if layers.is_empty() {
        let first = starts();
        seen.extend(first.iter().copied());
        layers.push(first);
    }
    while layers.len() <= depth as usize {
        let mut next = Vec::new();
        let last = layers.last().expect("the starts are a layer");
        for (n, state) in last.iter().enumerate() {
            // A deep layer takes seconds: a signal stops the build within
            // a few milliseconds, and the layer is not kept (a level cut
            // short is not verified, and its count stops at the last whole
            // layer). Its states leave `seen`, so a build after it starts
            // the layer again.
            if n % 4096 == 0 && lockstep_stop::interrupted() {
                for state in &next {
                    seen.remove(state);
                }
                return;
            }
            for child in next_states(state, &mut moves) {
                if seen.insert(child) {
                    next.push(child);
                }
            }
        }
        next.sort_by_key(key);
        layers.push(next);
    }
}

/// Layer `depth` of `built`, built on first use; `None` when a signal
/// stopped its build.
fn layer(built: &Layers, depth: u32) -> Option<&Vec<State>> {
    built.layers.get(depth as usize)
}

fn cores_moves(state: &State) -> Vec<Board> {
    children(state, Side::Red, Captures::Paths)
}

/// The legal moves of `side` on `board`, written, by the reference.
fn references_moves(board: &Board, side: Side) -> Vec<(Vec<u32>, Board)> {
    let (red, white) = pieces(board);
    Grid::from_pieces(&red, &white)
        .legal_moves(side, &mut Fuel::unlimited())
        .expect("unlimited fuel")
        .into_iter()
        .map(|m| (m.path, m.after.board()))
        .collect()
}

fn references_children(state: &State) -> Vec<Board> {
    references_moves(state, Side::Red)
        .into_iter()
        .map(|(_, after)| after)
        .collect()
}

/// The state at `index` of layer `depth`, the layers built with the
/// reference's moves on first use.
fn state(depth: u32, index: u64) -> Option<State> {
    if depth > LAST_DEPTH {
        return None;
    }
    let built = Layers::to_depth(&BY_REFERENCE, depth, references_children);
    layer(&built, depth)?
        .get(usize::try_from(index).ok()?)
        .copied()
}

pub fn span(depth: u32) -> u64 {
    if depth > LAST_DEPTH {
        return 0;
    }
    let built = Layers::to_depth(&BY_REFERENCE, depth, references_children);
    2 * layer(&built, depth).map_or(0, |l| l.len() as u64)
}

/// The live states of layer `depth` and their images: what a level's cases
/// add up to, counted on the layer rather than through the indices. Not
/// with core's generator: verify counts every level it runs, and a mutant
/// of core must fail inside the check, not crash the count. The layers are
/// held to core's generator by the tests instead ([`by_core`]).
pub fn count(depth: u32) -> u64 {
    live_states(&BY_REFERENCE, depth, references_children)
}

/// The live states of layer `depth` and their images, the layers searched
/// with core's move generator: the count made another way that the tests
/// hold [`count`] to, which compares the two generators on every position
/// of the graph.
pub fn by_core(depth: u32) -> u64 {
    live_states(&BY_CORE, depth, cores_moves)
}

/// The live states of layer `depth` of `built`, and their images.
fn live_states(built: &Mutex<Layers>, depth: u32, moves: fn(&State) -> Vec<Board>) -> u64 {
    if depth > LAST_DEPTH {
        return 0;
    }
    let built = Layers::to_depth(built, depth, moves);
    2 * layer(&built, depth).map_or(0, |l| l.iter().filter(|s| live(s)).count() as u64)
}

fn pieces(board: &Board) -> (Vec<Piece>, Vec<Piece>) {
    let of = |set: u32| -> Vec<Piece> {
        (1..=32u8)
            .filter(|s| set >> (s - 1) & 1 == 1)
            .map(|square| Piece {
                square,
                king: board.kings >> (square - 1) & 1 == 1,
            })
            .collect()
    };
    (of(board.red), of(board.white))
}

/// Every diagonal leg from `square`: a step or a jump each way, on the board.
fn legs(square: u32) -> impl Iterator<Item = u32> {
    DIAGONALS
        .into_iter()
        .flat_map(move |d| [1, 2].map(|steps| diagonal(square, d, steps)))
        .flatten()
}

/// The written moves a state's case asks about (the module's list), each
/// once, in ascending order: gathered, then sorted, rather than inserted
/// into a set one at a time, which allocated a copy of each duplicate.
fn written_moves(state: &State) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (path, _) in references_moves(state, Side::Red) {
        for end in 2..=path.len() {
            let prefix = &path[..end];
            out.push(prefix.to_vec());
            for to in legs(prefix[end - 1]) {
                let mut longer = Vec::with_capacity(end + 1);
                longer.extend_from_slice(prefix);
                longer.push(to);
                out.push(longer);
            }
        }
    }
    for square in (1..=32).filter(|s| state.red >> (s - 1) & 1 == 1) {
        for to in legs(square) {
            out.push(vec![square, to]);
        }
    }
    for (path, _) in references_moves(state, Side::White) {
        out.push(path);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The case at `index` of layer `depth`: the layer's state `index / 2`,
/// turned (White to move) when `index` is odd; `None` past the layer or for
/// a position that is over.
pub fn case(depth: u32, index: u64) -> Option<Case> {
    let state = state(depth, index / 2)?;
    if !live(&state) {
        return None;
    }
    // The image: the board turned half round with the colours swapped,
    // White to move, each written square s as 33 - s.
    let odd = index % 2 == 1;
    let (board, to_move) = if odd {
        (turned(&state), Side::White)
    } else {
        (state, Side::Red)
    };
    let (red, white) = pieces(&board);
    let instances = written_moves(&state)
        .into_iter()
        .map(|path| Instance {
            red: red.clone(),
            white: white.clone(),
            to_move,
            moves: vec![Move(if odd {
                path.iter().map(|s| 33 - s).collect()
            } else {
                path
            })],
        })
        .collect();
    Some(Case { instances })
}

#[cfg(test)]
mod tests;
