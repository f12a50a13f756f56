//! Checkers perft's divide, core against reference, at every node of the tree
//! to a depth: `lockstep perft --divide --check-reference` and its test.
//!
//! At each node the core's divide (its first moves as written, each with its
//! board after and its count) must equal the naive reference's, move for
//! move; then every child is checked the same way, one ply less, down to
//! depth 1. A wrong count deep in the tree therefore shows at the node where
//! it arises, with the moves that lead there.

use lockstep_core::checkers::{Board, Captures, Divided, Side};
use lockstep_reference::checkers::Grid;
use lockstep_reference::Fuel;

/// A divide as compared: the written first move, the board after it, the
/// count.
pub type DivideRow = (String, Board, u128);

/// The first node where core and reference part: the moves from the root to
/// it, and both divides there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivideDisagreement {
    pub line: Vec<String>,
    pub depth: u32,
    pub core: Vec<DivideRow>,
    pub reference: Vec<DivideRow>,
}

impl std::fmt::Display for DivideDisagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let line = if self.line.is_empty() {
            "the root".to_string()
        } else {
            self.line.join(" ")
        };
        writeln!(
            f,
            "core and reference differ after {line}, divide({}):",
            self.depth
        )?;
        for (first, _, nodes) in &self.core {
            match self.reference.iter().find(|r| &r.0 == first) {
                Some((_, _, theirs)) if theirs == nodes => {}
                Some((_, _, theirs)) => writeln!(f, "  {first}: core {nodes}, reference {theirs}")?,
                None => writeln!(f, "  {first}: core {nodes}, not a reference move")?,
            }
        }
        for (first, _, nodes) in &self.reference {
            if !self.core.iter().any(|c| &c.0 == first) {
                writeln!(f, "  {first}: reference {nodes}, not a core move")?;
            }
        }
        let moved =
            |rows: &[DivideRow]| rows.iter().map(|r| (r.0.clone(), r.1)).collect::<Vec<_>>();
        if moved(&self.core) == moved(&self.reference) {
            // Same moves, same counts here: the boards after a move differ.
            for ((first, ours, _), (_, theirs, _)) in self.core.iter().zip(&self.reference) {
                if ours != theirs {
                    writeln!(
                        f,
                        "  {first}: boards after differ: core {ours:?}, reference {theirs:?}"
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// The reference's divide at a node, as rows sorted by the written move.
pub fn reference_divide(
    board: &Board,
    side: Side,
    depth: u32,
    captures: Captures,
) -> Vec<DivideRow> {
    let grid = grid_of(board);
    let mut rows: Vec<DivideRow> = lockstep_reference::checkers_perft::divide(
        &grid,
        side,
        depth,
        captures,
        &mut Fuel::unlimited(),
    )
    .expect("unlimited fuel")
    .into_iter()
    .map(|(m, nodes)| (written(&m.path), m.after.board(), u128::from(nodes)))
    .collect();
    rows.sort_by_key(|row| squares(&row.0));
    rows
}

/// A written move's squares, the order rows are listed in (9-13 before 10-14).
fn squares(written: &str) -> Vec<u32> {
    written.split('-').filter_map(|s| s.parse().ok()).collect()
}

/// The core's divide as rows sorted by the written move.
pub fn core_rows(divided: Vec<Divided>) -> Vec<DivideRow> {
    let mut rows: Vec<DivideRow> = divided
        .into_iter()
        .map(|d| (d.first.to_string(), d.after, d.nodes))
        .collect();
    rows.sort_by_key(|row| squares(&row.0));
    rows
}

fn written(path: &[u32]) -> String {
    path.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

fn grid_of(board: &Board) -> Grid {
    let pieces = |side_bits: u32| {
        (0..32)
            .filter(|b| side_bits & 1 << b != 0)
            .map(|b| lockstep_core::checkers::Piece {
                square: b as u8 + 1,
                king: board.kings & 1 << b != 0,
            })
            .collect::<Vec<_>>()
    };
    Grid::from_pieces(&pieces(board.red), &pieces(board.white))
}

/// Checks the divide at `board` (`side` to move) and at every node below it
/// down to depth 1, `core` giving the core's divide at a node. The number of
/// nodes checked, or the first disagreement (depth first, in move order).
pub fn check_divides(
    board: &Board,
    side: Side,
    depth: u32,
    captures: Captures,
    core: &mut dyn FnMut(&Board, Side, u32) -> Vec<DivideRow>,
) -> Result<u64, Box<DivideDisagreement>> {
    let mut line = Vec::new();
    check_node(board, side, depth, captures, core, &mut line)
}

fn check_node(
    board: &Board,
    side: Side,
    depth: u32,
    captures: Captures,
    core: &mut dyn FnMut(&Board, Side, u32) -> Vec<DivideRow>,
    line: &mut Vec<String>,
) -> Result<u64, Box<DivideDisagreement>> {
    let ours = core(board, side, depth);
    let theirs = reference_divide(board, side, depth, captures);
    if ours != theirs {
        return Err(Box::new(DivideDisagreement {
            line: line.clone(),
            depth,
            core: ours,
            reference: theirs,
        }));
    }
    let mut nodes = 1;
    if depth > 1 {
        for (first, after, _) in ours {
            line.push(first);
            nodes += check_node(&after, side.opponent(), depth - 1, captures, core, line)?;
            line.pop();
        }
    }
    Ok(nodes)
}
