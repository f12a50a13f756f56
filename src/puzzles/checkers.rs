//! Checker's Check in the harness: generator, shrinker and divergence report.
//!
//! The generator builds legal positions (often few pieces packed into four rows, so
//! that jumps, multi-jumps and crowning come up), then plays mostly legal moves drawn
//! from the reference's move list (harness code may use the reference; the core
//! never does), and in about a third of the instances replaces one move with a
//! [`Mutation`]: the near-misses a validator is most likely to get wrong. About
//! half of all cases end with every instance valid.

use crate::puzzle::{CaseLimits, Explanation, Puzzle, Run};
use crate::shrink::fewer_parts;
use arbitrary::Unstructured;
use lockstep_core::checkers::{
    self as model, Answer, Board, Case, Instance, Move, Piece, Side, Verdict, MAX_PIECES,
};
use lockstep_core::input::InputError;
use lockstep_reference::checkers::{self as reference, cell_to_square, square_to_cell, Grid};
use lockstep_reference::{Fuel, OutOfFuel};

pub struct Checkers;

/// The ways the generator breaks a move on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutation {
    /// A legal multi-jump stopped before its end.
    CutShort,
    /// A legal move with one more square after it.
    Extended,
    /// A simple step while some piece of the side has a jump.
    StepWhenCaptureMandatory,
    /// A man stepping backward.
    ManBackward,
    /// A jump that crowns a man, continued by a further jump.
    ContinueAfterCrowning,
    /// A king jumping back over the piece it has just jumped.
    KingJumpsTwice,
    /// A step to a square not diagonally adjacent.
    OffDiagonal,
    /// A legal move of the side not to move.
    WrongSide,
    /// A legal move with one square replaced by one outside 1..=32.
    OffBoard,
}

impl Mutation {
    pub const ALL: [Mutation; 9] = [
        Mutation::CutShort,
        Mutation::Extended,
        Mutation::StepWhenCaptureMandatory,
        Mutation::ManBackward,
        Mutation::ContinueAfterCrowning,
        Mutation::KingJumpsTwice,
        Mutation::OffDiagonal,
        Mutation::WrongSide,
        Mutation::OffBoard,
    ];
}

fn unlimited_moves(grid: &Grid, side: Side) -> Vec<reference::LegalMove> {
    grid.legal_moves(side, &mut Fuel::unlimited())
        .expect("unlimited fuel")
}

fn man_at(grid: &Grid, square: u32) -> Option<reference::Man> {
    let (row, col) = square_to_cell(square)?;
    grid.cells[row][col]
}

/// The square `steps` diagonal steps from `square` in (dr, dc), if on the board.
fn diagonal(square: u32, (dr, dc): (i32, i32), steps: i32) -> Option<u32> {
    let (row, col) = square_to_cell(square)?;
    let (r, c) = (row as i32 + dr * steps, col as i32 + dc * steps);
    ((0..8).contains(&r) && (0..8).contains(&c)).then(|| cell_to_square(r as usize, c as usize))
}

const DIAGONALS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

fn forward(side: Side) -> i32 {
    match side {
        Side::Red => 1,
        Side::White => -1,
    }
}

/// Builds one mutated move of `kind`, if the position allows that kind.
fn mutate(
    u: &mut Unstructured<'_>,
    kind: Mutation,
    grid: &Grid,
    side: Side,
    legal: &[reference::LegalMove],
) -> arbitrary::Result<Option<Vec<u32>>> {
    let own: Vec<u32> = (1..=32)
        .filter(|&s| man_at(grid, s).is_some_and(|m| m.side == side))
        .collect();
    let empty = |s: u32| man_at(grid, s).is_none();
    // The reference lists jumps only when there is one, so its first move tells.
    let jumps_exist = legal.first().is_some_and(|m| {
        let (a, b) = (square_to_cell(m.path[0]), square_to_cell(m.path[1]));
        matches!((a, b), (Some(a), Some(b)) if a.0.abs_diff(b.0) == 2)
    });
    Ok(match kind {
        Mutation::CutShort => {
            let long: Vec<&reference::LegalMove> =
                legal.iter().filter(|m| m.path.len() >= 3).collect();
            if long.is_empty() {
                None
            } else {
                let m = u.choose(&long)?;
                let keep = u.int_in_range(2..=m.path.len() - 1)?;
                Some(m.path[..keep].to_vec())
            }
        }
        Mutation::Extended => {
            if legal.is_empty() {
                None
            } else {
                let m = u.choose(legal)?;
                let last = *m.path.last().expect("a path has squares");
                let direction = *u.choose(&DIAGONALS)?;
                let steps = if jumps_exist { 2 } else { 1 };
                let next = diagonal(last, direction, steps).unwrap_or(u.int_in_range(1..=32u32)?);
                let mut path = m.path.clone();
                path.push(next);
                Some(path)
            }
        }
        Mutation::StepWhenCaptureMandatory => {
            if !jumps_exist {
                None
            } else {
                let steps: Vec<Vec<u32>> = own
                    .iter()
                    .flat_map(|&s| {
                        let man = man_at(grid, s).expect("own piece");
                        DIAGONALS
                            .iter()
                            .filter(move |d| man.king || d.0 == forward(side))
                            .filter_map(move |&d| diagonal(s, d, 1).map(|t| vec![s, t]))
                    })
                    .filter(|p| empty(p[1]))
                    .collect();
                (!steps.is_empty())
                    .then(|| u.choose(&steps).cloned())
                    .transpose()?
            }
        }
        Mutation::ManBackward => {
            let backward: Vec<Vec<u32>> = own
                .iter()
                .filter(|&&s| !man_at(grid, s).expect("own piece").king)
                .flat_map(|&s| {
                    DIAGONALS
                        .iter()
                        .filter(|d| d.0 == -forward(side))
                        .filter_map(move |&d| diagonal(s, d, 1).map(|t| vec![s, t]))
                })
                .collect();
            (!backward.is_empty())
                .then(|| u.choose(&backward).cloned())
                .transpose()?
        }
        Mutation::ContinueAfterCrowning => {
            // A man's jump that ends on its promotion row, then one more jump as
            // the new king would have it (over an opponent onto an empty square).
            let mut continued = Vec::new();
            for m in legal {
                let start = man_at(grid, m.path[0]).expect("a legal move starts on a piece");
                let last = *m.path.last().expect("a path has squares");
                let crowned = !start.king
                    && square_to_cell(last)
                        .is_some_and(|(row, _)| row == if side == Side::Red { 7 } else { 0 });
                if !crowned || !jumps_exist {
                    continue;
                }
                for d in DIAGONALS {
                    let (Some(over), Some(land)) = (diagonal(last, d, 1), diagonal(last, d, 2))
                    else {
                        continue;
                    };
                    let opponent = man_at(&m.after, over).is_some_and(|x| x.side != side);
                    if opponent && man_at(&m.after, land).is_none() {
                        let mut path = m.path.clone();
                        path.push(land);
                        continued.push(path);
                    }
                }
            }
            (!continued.is_empty())
                .then(|| u.choose(&continued).cloned())
                .transpose()?
        }
        Mutation::KingJumpsTwice => {
            let kings: Vec<&reference::LegalMove> = legal
                .iter()
                .filter(|m| jumps_exist && man_at(grid, m.path[0]).is_some_and(|x| x.king))
                .collect();
            if kings.is_empty() {
                None
            } else {
                // Cut the sequence after some jump and jump straight back.
                let m = u.choose(&kings)?;
                let upto = u.int_in_range(2..=m.path.len())?;
                let mut path = m.path[..upto].to_vec();
                path.push(m.path[upto - 2]);
                Some(path)
            }
        }
        Mutation::OffDiagonal => {
            if own.is_empty() {
                None
            } else {
                let from = *u.choose(&own)?;
                let (row, col) = square_to_cell(from).expect("on the board");
                let off: Vec<u32> = (1..=32)
                    .filter(|&s| {
                        let (r, c) = square_to_cell(s).expect("1..=32");
                        r.abs_diff(row) != c.abs_diff(col) && r.abs_diff(row) <= 2
                    })
                    .collect();
                Some(vec![from, *u.choose(&off)?])
            }
        }
        Mutation::WrongSide => {
            let theirs = unlimited_moves(grid, side.opponent());
            (!theirs.is_empty())
                .then(|| u.choose(&theirs).map(|m| m.path.clone()))
                .transpose()?
        }
        Mutation::OffBoard => {
            let mut path = if legal.is_empty() {
                vec![u.int_in_range(1..=32)?, u.int_in_range(1..=32)?]
            } else {
                u.choose(legal)?.path.clone()
            };
            let index = u.choose_index(path.len())?;
            path[index] = *u.choose(&[0, 33, 34, 40, 99, 1000])?;
            Some(path)
        }
    })
}

/// Places `count` pieces of `side` on free squares drawn from `squares`.
fn place(
    u: &mut Unstructured<'_>,
    side: Side,
    count: usize,
    squares: &[u32],
    king_weight: u8,
    taken: &mut [bool; 33],
    keep_empty: &[bool; 33],
) -> arbitrary::Result<Vec<Piece>> {
    let mut pieces = Vec::with_capacity(count);
    for _ in 0..count {
        // A taken square moves the piece to the next free one, so every draw is
        // valid (at most 24 pieces and 4 squares kept empty, on 32 squares).
        let mut square = *u.choose(squares)?;
        while taken[square as usize] || keep_empty[square as usize] {
            square = square % 32 + 1;
        }
        taken[square as usize] = true;
        let king = u.int_in_range(0..=3u8)? < king_weight || side.promotes_on(square);
        pieces.push(Piece {
            square: square as u8,
            king,
        });
    }
    Ok(pieces)
}

/// Seeds a tactic for the side to move: a piece and a chain of 1-3 jumps in front
/// of it (opponents on the jumped squares, the landing squares kept empty); when a
/// man's chain reaches its promotion row, one more opponent waits beside the
/// landing square, so that a continued jump after crowning looks tempting.
fn seed_jumps(
    u: &mut Unstructured<'_>,
    side: Side,
    own: &mut Vec<Piece>,
    theirs: &mut Vec<Piece>,
    taken: &mut [bool; 33],
    keep_empty: &mut [bool; 33],
) -> arbitrary::Result<()> {
    let king = u.ratio(1, 3)?;
    let mut at = u.int_in_range(1..=32u32)?;
    if !king && side.promotes_on(at) {
        at = 33 - at;
    }
    taken[at as usize] = true;
    own.push(Piece {
        square: at as u8,
        king,
    });
    let put = |square: u32, theirs: &mut Vec<Piece>, taken: &mut [bool; 33]| {
        taken[square as usize] = true;
        theirs.push(Piece {
            square: square as u8,
            king: side.opponent().promotes_on(square),
        });
    };
    let free = |s: u32, taken: &[bool; 33], keep_empty: &[bool; 33]| {
        !taken[s as usize] && !keep_empty[s as usize]
    };
    for _ in 0..u.int_in_range(1..=3u8)? {
        let first = u.choose_index(4)?;
        let jump = (0..4).map(|k| DIAGONALS[(first + k) % 4]).find_map(|d| {
            let allowed = king || d.0 == forward(side);
            let over = diagonal(at, d, 1)?;
            let land = diagonal(at, d, 2)?;
            (allowed && free(over, taken, keep_empty) && free(land, taken, keep_empty))
                .then_some((over, land))
        });
        let Some((over, land)) = jump else {
            break;
        };
        put(over, theirs, taken);
        keep_empty[land as usize] = true;
        at = land;
        if !king && side.promotes_on(at) {
            let bait = DIAGONALS.iter().find_map(|&d| {
                let over = diagonal(at, d, 1)?;
                let land = diagonal(at, d, 2)?;
                (free(over, taken, keep_empty) && free(land, taken, keep_empty))
                    .then_some((over, land))
            });
            if let Some((over, land)) = bait {
                put(over, theirs, taken);
                keep_empty[land as usize] = true;
            }
            break;
        }
    }
    Ok(())
}

fn generate_instance(
    u: &mut Unstructured<'_>,
    log: &mut Vec<Mutation>,
    limits: CaseLimits,
) -> arbitrary::Result<Instance> {
    let few = |u: &mut Unstructured<'_>| -> arbitrary::Result<usize> {
        if u.ratio(3, 4)? {
            u.int_in_range(1..=4)
        } else {
            u.int_in_range(1..=MAX_PIECES)
        }
    };
    let to_move = if u.arbitrary()? {
        Side::Red
    } else {
        Side::White
    };
    let mut taken = [false; 33];
    let mut keep_empty = [false; 33];
    let (mut red, mut white) = (Vec::new(), Vec::new());
    if u.ratio(1, 3)? {
        let (own, theirs) = match to_move {
            Side::Red => (&mut red, &mut white),
            Side::White => (&mut white, &mut red),
        };
        seed_jumps(u, to_move, own, theirs, &mut taken, &mut keep_empty)?;
    }
    // Four rows (16 squares) somewhere on the board, or the whole board.
    let squares: Vec<u32> = if u.ratio(2, 3)? {
        let top = u.int_in_range(0..=4u32)?;
        (top * 4 + 1..=top * 4 + 16).collect()
    } else {
        (1..=32).collect()
    };
    let king_weight = u.int_in_range(0..=3u8)?;
    for (side, pieces) in [(Side::Red, &mut red), (Side::White, &mut white)] {
        let wanted = few(u)?.clamp(1, MAX_PIECES);
        let count = wanted
            .min(MAX_PIECES - pieces.len())
            .max(usize::from(pieces.is_empty()));
        let more = place(
            u,
            side,
            count,
            &squares,
            king_weight,
            &mut taken,
            &keep_empty,
        )?;
        pieces.extend(more);
    }

    let length = if u.ratio(2, 3)? {
        u.int_in_range(1..=3usize)?
    } else {
        u.int_in_range(1..=8usize)?
    };
    let mutate_at = if u.ratio(3, 10)? {
        Some(u.int_in_range(0..=length - 1)?)
    } else {
        None
    };
    let mut grid = Grid::from_pieces(&red, &white);
    let mut side = to_move;
    let mut moves = Vec::new();
    for index in 0..length {
        let legal = unlimited_moves(&grid, side);
        if Some(index) == mutate_at || legal.is_empty() {
            let first = u.choose_index(Mutation::ALL.len())?;
            for offset in 0..Mutation::ALL.len() {
                let kind = Mutation::ALL[(first + offset) % Mutation::ALL.len()];
                // The only mutation outside the statement: squares off 1..=32.
                if limits == CaseLimits::Original && kind == Mutation::OffBoard {
                    continue;
                }
                if let Some(path) = mutate(u, kind, &grid, side, &legal)? {
                    log.push(kind);
                    moves.push(Move(path));
                    break;
                }
            }
            // Moves after the invalid one are never applied; keep some anyway.
            for _ in 0..u.int_in_range(0..=2u8)? {
                if legal.is_empty() {
                    break;
                }
                moves.push(Move(u.choose(&legal)?.path.clone()));
            }
            break;
        }
        let chosen = u.choose(&legal)?;
        moves.push(Move(chosen.path.clone()));
        grid = chosen.after.clone();
        side = side.opponent();
    }
    Ok(Instance {
        red,
        white,
        to_move,
        moves,
    })
}

/// A case and the mutations put into it, in order (for the generator-reach test).
pub fn generate_logged(
    u: &mut Unstructured<'_>,
    limits: CaseLimits,
) -> arbitrary::Result<(Case, Vec<Mutation>)> {
    let mut log = Vec::new();
    let count = u.int_in_range(1..=3usize)?;
    let instances = (0..count)
        .map(|_| generate_instance(u, &mut log, limits))
        .collect::<arbitrary::Result<Vec<Instance>>>()?;
    Ok((Case { instances }, log))
}

/// Simpler variants of an instance, most promising first.
fn shrink_instance(instance: &Instance) -> Vec<Instance> {
    let mut out = Vec::new();
    if instance.moves.len() > 1 {
        let mut shorter = instance.clone();
        shorter.moves.pop();
        out.push(shorter);
        // Play the first move (when it is legal) into the position: the pieces it
        // captures go, and the rest of the moves start from there.
        let grid = Grid::of(instance);
        if let Some(m) = unlimited_moves(&grid, instance.to_move)
            .into_iter()
            .find(|m| m.path == instance.moves[0].0)
        {
            let (red, white) = m.after.pieces();
            if !red.is_empty() && !white.is_empty() {
                out.push(Instance {
                    red,
                    white,
                    to_move: instance.to_move.opponent(),
                    moves: instance.moves[1..].to_vec(),
                });
            }
        }
    }
    // Drop a piece: first those on no square any move names.
    let on_path = |p: &Piece| {
        instance
            .moves
            .iter()
            .any(|m| m.0.contains(&u32::from(p.square)))
    };
    for wanted in [false, true] {
        for side in [Side::Red, Side::White] {
            let pieces = instance.pieces(side);
            if pieces.len() <= 1 {
                continue;
            }
            for (index, piece) in pieces.iter().enumerate() {
                if on_path(piece) != wanted {
                    continue;
                }
                let mut smaller = instance.clone();
                match side {
                    Side::Red => smaller.red.remove(index),
                    Side::White => smaller.white.remove(index),
                };
                out.push(smaller);
            }
        }
    }
    for side in [Side::Red, Side::White] {
        for (index, piece) in instance.pieces(side).iter().enumerate() {
            if piece.king && !side.promotes_on(u32::from(piece.square)) {
                let mut plainer = instance.clone();
                match side {
                    Side::Red => plainer.red[index].king = false,
                    Side::White => plainer.white[index].king = false,
                }
                out.push(plainer);
            }
        }
    }
    out
}

/// Simpler variants: one instance alone, fewer instances, then simpler instances.
fn shrink_candidates(case: &Case) -> Vec<Case> {
    let mut out: Vec<Case> = fewer_parts(&case.instances)
        .into_iter()
        .map(|instances| Case { instances })
        .collect();
    for (index, instance) in case.instances.iter().enumerate() {
        for simpler in shrink_instance(instance) {
            let mut candidate = case.clone();
            candidate.instances[index] = simpler;
            out.push(candidate);
        }
    }
    out
}

fn pieces_of(board: &Board) -> (Vec<Piece>, Vec<Piece>) {
    let (mut red, mut white) = (Vec::new(), Vec::new());
    for square in 1..=32u32 {
        if let Some((side, king)) = board.at(square) {
            let piece = Piece {
                square: square as u8,
                king,
            };
            match side {
                Side::Red => red.push(piece),
                Side::White => white.push(piece),
            }
        }
    }
    (red, white)
}

/// Finds the first instance where the two sides part, and shows the position
/// before the first move they treat differently, that move, both verdicts and the
/// reference's list of legal moves there.
fn explain(case: &Case) -> Explanation {
    for (number, instance) in case.instances.iter().enumerate() {
        let core = model::trace_instance(instance);
        let naive = reference::trace_instance(instance);
        if core == naive {
            continue;
        }
        let first = core
            .boards
            .iter()
            .zip(&naive.boards)
            .position(|(c, r)| c != r)
            .unwrap_or(core.boards.len().min(naive.boards.len()));
        let before = if first == 0 {
            Board::of(instance)
        } else {
            naive.boards[first - 1]
        };
        let side = if first % 2 == 0 {
            instance.to_move
        } else {
            instance.to_move.opponent()
        };
        let (red, white) = pieces_of(&before);
        let legal: Vec<String> = unlimited_moves(&Grid::from_pieces(&red, &white), side)
            .iter()
            .map(|m| Move(m.path.clone()).to_string())
            .collect();
        let written = instance
            .moves
            .get(first)
            .map_or("(none)".to_string(), Move::to_string);
        let show = |trace: &model::InstanceTrace| match trace.boards.get(first) {
            Some(board) if first < trace.boards.len() => {
                format!("applied it ({}), giving\n{board}", trace.verdict)
            }
            _ => format!("{}", trace.verdict),
        };
        let mut report = format!(
            "instance {}: first difference at move {} ({written}), {} to move, position before it \
             (r/w men, R/W kings):\n{before}",
            number + 1,
            first + 1,
            side.name()
        );
        report.push_str(&format!("  core:      {}\n", show(&core)));
        report.push_str(&format!("  reference: {}\n", show(&naive)));
        report.push_str(&format!(
            "  reference's legal moves there: {}\n",
            if legal.is_empty() {
                "none".to_string()
            } else {
                legal.join(" ")
            }
        ));
        let core_took = first < core.boards.len();
        let naive_took = first < naive.boards.len();
        let symptom = match (core_took, naive_took) {
            (true, false) => format!("instance-{}-move-{}-core-accepts", number + 1, first + 1),
            (false, true) => format!("instance-{}-move-{}-core-rejects", number + 1, first + 1),
            (true, true) => format!(
                "instance-{}-move-{}-different-result",
                number + 1,
                first + 1
            ),
            (false, false) => format!("instance-{}-verdict", number + 1),
        };
        return Explanation { symptom, report };
    }
    Explanation {
        symptom: "same-traces".to_string(),
        report: "both sides give the same verdict and positions on every instance\n".to_string(),
    }
}

impl Puzzle for Checkers {
    const NAME: &'static str = "checkers";
    const MODULE: &'static str = "checkers";
    /// Generated cases enumerate a few hundred moves at most.
    const FUEL: u64 = 200_000;

    type Case = Case;
    type Answer = Answer;

    fn generate(u: &mut Unstructured<'_>) -> arbitrary::Result<Case> {
        Ok(generate_logged(u, CaseLimits::Wide)?.0)
    }

    fn generate_within(u: &mut Unstructured<'_>, limits: CaseLimits) -> arbitrary::Result<Case> {
        Ok(generate_logged(u, limits)?.0)
    }

    /// docs/rules/checkers.md: 1..=12 pieces a side on distinct squares 1..=32,
    /// no man on its own promotion row, at least one move, every move of 2..=13
    /// squares, each in 1..=32.
    fn within_original(case: &Case) -> bool {
        case.instances.iter().all(|instance| {
            let mut seen = [false; 33];
            let pieces_ok = [Side::Red, Side::White].iter().all(|&side| {
                let pieces = instance.pieces(side);
                (1..=12).contains(&pieces.len())
                    && pieces.iter().all(|p| {
                        let s = usize::from(p.square);
                        if !(1..=32).contains(&s) || seen[s] {
                            return false;
                        }
                        seen[s] = true;
                        let promotion_row = if side == Side::Red { 7 } else { 0 };
                        p.king || (s - 1) / 4 != promotion_row
                    })
            });
            pieces_ok
                && !instance.moves.is_empty()
                && instance.moves.iter().all(|m| {
                    (2..=13).contains(&m.0.len()) && m.0.iter().all(|s| (1..=32).contains(s))
                })
        })
    }

    fn parse_input(text: &str) -> Result<Case, InputError> {
        model::parse(text)
    }

    fn write_input(case: &Case) -> String {
        model::write_input(case)
    }

    fn write_answer(answer: &Answer) -> String {
        model::write_answer(answer)
    }

    fn describe(case: &Case) -> String {
        let moves: usize = case.instances.iter().map(|i| i.moves.len()).sum();
        let pieces: usize = case
            .instances
            .iter()
            .map(|i| i.red.len() + i.white.len())
            .sum();
        format!(
            "{} instance{}, {moves} moves, {pieces} pieces",
            case.instances.len(),
            if case.instances.len() == 1 { "" } else { "s" }
        )
    }

    /// The digest is the position after every applied move and each verdict, so
    /// that a wrong capture or crowning shows even when the verdicts agree.
    fn core(case: &Case) -> Run<Answer> {
        let run = model::solve(case);
        Run {
            answer: run.answer,
            digest: run.trace_digest,
        }
    }

    fn reference(case: &Case, fuel: &mut Fuel) -> Result<Run<Answer>, OutOfFuel> {
        let run = reference::solve(case, fuel)?;
        Ok(Run {
            answer: run.answer,
            digest: run.trace_digest,
        })
    }

    fn explain(case: &Case) -> Explanation {
        explain(case)
    }

    fn shrink_candidates(case: &Case) -> Vec<Case> {
        shrink_candidates(case)
    }
}

/// The verdicts of a case, as the tests count them.
pub fn all_valid(answer: &Answer) -> bool {
    answer.iter().all(|v| *v == Verdict::AllValid)
}

/// Whole games from the start position, every move legal: random play (seeded)
/// until the side to move has no move or `plies` moves are made, one instance a
/// game. The generator's cases are short (two or three moves an instance, a third
/// of them broken early); these measure validation per move over long move lists.
pub fn whole_games(seed: u64, games: usize, plies: usize) -> Vec<Case> {
    let mut random = crate::seeds::SplitMix64::new(seed);
    (0..games)
        .map(|_| {
            let start = reference::start_grid();
            let (red, white) = start.pieces();
            let (mut grid, mut side, mut moves) = (start, Side::Red, Vec::new());
            while moves.len() < plies {
                let legal = unlimited_moves(&grid, side);
                if legal.is_empty() {
                    break;
                }
                let chosen = &legal[(random.next_u64() % legal.len() as u64) as usize];
                moves.push(Move(chosen.path.clone()));
                grid = chosen.after.clone();
                side = side.opponent();
            }
            Case {
                instances: vec![Instance {
                    red,
                    white,
                    to_move: Side::Red,
                    moves,
                }],
            }
        })
        .collect()
}
