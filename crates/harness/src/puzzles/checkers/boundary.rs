//! The checkers generator's rule boundaries: instances built around the one
//! move that published solutions were seen to get wrong ([`MoveBoundary`]), so
//! that each comes up in the first hundred cases of a stress run, within the
//! original limits as within the wide ones.
//!
//! Random positions reach these moves too, but rarely: a solution that
//! accepts a simple step after a jump failed 5 cases in 3,000 (issue 30).
//! Each boundary here sets up the position it needs (a jump chain, a man
//! about to crown, a king whose jumps cross its far row, a lone man with
//! room to step), adds a few pieces anywhere, and writes the boundary move
//! through [`mutate`], played through the reference's check like any move.

use super::*;

/// The rule boundaries the generator aims at, one instance in five.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveBoundary {
    /// A complete jump, then a simple step (`Mutation::StepAfterJump`).
    StepAfterJump,
    /// A crowning step or jump, then a step (`Mutation::StepAfterCrowning`).
    StepAfterCrowning,
    /// Two or three simple steps in one move (`Mutation::SeveralSteps`).
    SeveralSteps,
    /// A multi-jump that could go on but stops (`Mutation::CutShort`).
    JumpStopsEarly,
    /// A king's multi-jump through its far row: written whole (valid) or cut
    /// on the far row (`Mutation::KingStopsOnFarRow`), half and half.
    KingJumpsOnFarRow,
}

impl MoveBoundary {
    pub const ALL: [MoveBoundary; 5] = [
        MoveBoundary::StepAfterJump,
        MoveBoundary::StepAfterCrowning,
        MoveBoundary::SeveralSteps,
        MoveBoundary::JumpStopsEarly,
        MoveBoundary::KingJumpsOnFarRow,
    ];
}

/// Squares of the rows `rows` (0-based, inclusive).
fn rows(rows: std::ops::RangeInclusive<u32>) -> Vec<u32> {
    (rows.start() * 4 + 1..=rows.end() * 4 + 4).collect()
}

/// Rows counted from `side`'s own back row: 0 is its first row, 7 its
/// promotion row.
fn rows_ahead(side: Side, ahead: std::ops::RangeInclusive<u32>) -> Vec<u32> {
    match side {
        Side::Red => rows(ahead),
        Side::White => rows(7 - ahead.end()..=7 - ahead.start()),
    }
}

/// Puts a piece of `side` on `square`, marking it taken.
fn put(pieces: &mut Vec<Piece>, square: u32, king: bool, taken: &mut [bool; 33]) {
    taken[square as usize] = true;
    pieces.push(Piece {
        square: square as u8,
        king,
    });
}

/// A king of `side` two rows before its far row, with one jump onto the far
/// row and one back off it (over a different piece): the far row is a
/// landing in the middle of its move. A plain king when the drawn square
/// leaves no room on the board.
fn king_over_far_row(u: &mut Unstructured<'_>, drawing: &mut Drawing) -> arbitrary::Result<()> {
    let side = drawing.to_move;
    let (own, theirs, taken, keep_empty) = drawing.sides();
    let start = *u.choose(&rows_ahead(side, 5..=5))?;
    let f = forward(side);
    let first = if u.arbitrary()? { 1 } else { -1 };
    for dc in [first, -first] {
        let (Some(over), Some(land)) = (diagonal(start, (f, dc), 1), diagonal(start, (f, dc), 2))
        else {
            continue;
        };
        // Back off the far row in the same column direction.
        let (Some(over2), Some(land2)) = (diagonal(land, (-f, dc), 1), diagonal(land, (-f, dc), 2))
        else {
            continue;
        };
        put(own, start, true, taken);
        for s in [over, over2] {
            put(theirs, s, side.opponent().promotes_on(s), taken);
        }
        keep_empty[land as usize] = true;
        keep_empty[land2 as usize] = true;
        return Ok(());
    }
    // No room either way (a corner): a plain king there.
    put(own, start, true, taken);
    Ok(())
}

/// A man of `side` about to crown: one row before its promotion row (a
/// crowning step), or two rows before with an opponent to jump onto it.
fn man_about_to_crown(u: &mut Unstructured<'_>, drawing: &mut Drawing) -> arbitrary::Result<()> {
    let side = drawing.to_move;
    let (own, theirs, taken, keep_empty) = drawing.sides();
    let f = forward(side);
    if u.arbitrary()? {
        let at = *u.choose(&rows_ahead(side, 6..=6))?;
        put(own, at, false, taken);
        for d in [(f, -1), (f, 1)] {
            if let Some(s) = diagonal(at, d, 1) {
                keep_empty[s as usize] = true;
            }
        }
        return Ok(());
    }
    let at = *u.choose(&rows_ahead(side, 5..=5))?;
    put(own, at, false, taken);
    let dc = if u.arbitrary()? { 1 } else { -1 };
    for dc in [dc, -dc] {
        if let (Some(over), Some(land)) = (diagonal(at, (f, dc), 1), diagonal(at, (f, dc), 2)) {
            put(theirs, over, false, taken);
            keep_empty[land as usize] = true;
            // Bait for the new king: a piece to jump back over (its move
            // must end on crowning all the same).
            let bait = (diagonal(land, (-f, dc), 1), diagonal(land, (-f, dc), 2));
            if let (Some(over), Some(beyond)) = bait {
                if !taken[over as usize] && !keep_empty[over as usize] && !taken[beyond as usize] {
                    put(theirs, over, false, taken);
                    keep_empty[beyond as usize] = true;
                }
            }
            break;
        }
    }
    Ok(())
}

/// One instance at `boundary`: the position it needs, one to three more
/// pieces a side anywhere, and the boundary move (a legal move when the
/// position happens not to allow it).
pub(super) fn boundary_instance(
    u: &mut Unstructured<'_>,
    boundary: MoveBoundary,
    log: &mut Vec<Mutation>,
    play: &mut Play,
) -> arbitrary::Result<Instance> {
    let mut drawing = Drawing::new(u)?;
    match boundary {
        MoveBoundary::StepAfterJump => seed_jumps(u, &mut drawing, 1..=2)?,
        MoveBoundary::JumpStopsEarly => seed_jumps(u, &mut drawing, 2..=3)?,
        MoveBoundary::StepAfterCrowning => man_about_to_crown(u, &mut drawing)?,
        MoveBoundary::KingJumpsOnFarRow => king_over_far_row(u, &mut drawing)?,
        MoveBoundary::SeveralSteps => {
            let at = *u.choose(&rows_ahead(drawing.to_move, 0..=4))?;
            let (own, _, taken, _) = drawing.sides();
            put(own, at, u.ratio(1, 4)?, taken);
        }
    }
    let all: Vec<u32> = (1..=32).collect();
    drawing.add_pieces(u, &all, 1, |u, pieces| {
        u.int_in_range(usize::from(pieces.is_empty())..=3)
    })?;
    let (to_move, red, white) = drawing.finish();
    // The legal move one time in four (the king's boundary: half): the valid
    // side of the boundary, which a solution may reject.
    let valid = match boundary {
        MoveBoundary::KingJumpsOnFarRow => u.arbitrary()?,
        _ => u.ratio(1, 4)?,
    };
    let kind = match boundary {
        _ if valid => None,
        MoveBoundary::StepAfterJump => Some(Mutation::StepAfterJump),
        // A jump on after crowning one time in three (a rare mutation else).
        MoveBoundary::StepAfterCrowning if u.ratio(1, 3)? => Some(Mutation::ContinueAfterCrowning),
        MoveBoundary::StepAfterCrowning => Some(Mutation::StepAfterCrowning),
        MoveBoundary::SeveralSteps => Some(Mutation::SeveralSteps),
        MoveBoundary::JumpStopsEarly => Some(Mutation::CutShort),
        MoveBoundary::KingJumpsOnFarRow => Some(Mutation::KingStopsOnFarRow),
    };
    play.solving.start(&red, &white, to_move);
    let (grid, side, legal) = play.moves();
    let mut mutated = match kind {
        Some(kind) => mutate(u, kind, grid, side, legal)?.map(|path| (kind, path)),
        None => None,
    };
    if kind == Some(Mutation::ContinueAfterCrowning) && mutated.is_none() {
        let kind = Mutation::StepAfterCrowning;
        mutated = mutate(u, kind, grid, side, legal)?.map(|path| (kind, path));
    }
    let path = match mutated {
        Some((kind, path)) => {
            log.push(kind);
            Some(path)
        }
        None => {
            // A king's move across its far row when there is one, else any.
            let across: Vec<&reference::LegalMove> = legal
                .iter()
                .filter(|m| {
                    m.path[1..m.path.len() - 1]
                        .iter()
                        .any(|&s| side.promotes_on(s))
                })
                .collect();
            if !across.is_empty() {
                Some(u.choose(&across)?.path.clone())
            } else if !legal.is_empty() {
                Some(u.choose(legal)?.path.clone())
            } else {
                None
            }
        }
    };
    let path = match path {
        Some(path) => path,
        // No legal move at all: a wrong-side or off-diagonal move.
        None => {
            let mut written = None;
            for kind in [Mutation::WrongSide, Mutation::OffDiagonal] {
                if let Some(path) = mutate(u, kind, grid, side, legal)? {
                    log.push(kind);
                    written = Some(path);
                    break;
                }
            }
            written.unwrap_or_else(|| vec![1, 2])
        }
    };
    play.check(&path);
    Ok(Instance {
        red,
        white,
        to_move,
        moves: vec![Move(path)],
    })
}
