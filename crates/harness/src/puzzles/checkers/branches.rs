//! The rule branches of checkers that `lockstep fuzz checkers --stats` counts:
//! what each applied move was (a step, a jump, a multi-jump, a king's move, a
//! crowning) and why the first invalid move was invalid.
//!
//! The validity of each move is the core's (its trace of boards), and so is
//! the list of legal moves an invalid move's kind is read off: these are
//! statistics, counted on every case verify checks, and the reference's list
//! cost as much as the reference's whole run. A disagreement's signature
//! reads the kind off the reference's list instead, since there the core is
//! the side in doubt. the rule page's rule index names each branch in its rule's
//! row.

use lockstep_core::checkers::{self as model, Board, Case, Instance, Ruling, Side};
use lockstep_reference::checkers::{Grid, LegalMove};
use lockstep_reference::Fuel;

pub const RULE_BRANCHES: [&str; 18] = [
    "a simple step",
    "a single jump",
    "a multi-jump",
    "a king moved",
    "crowned by a step",
    "crowned by a jump",
    "all moves valid",
    "invalid: a square off 1..=32",
    "invalid: no piece of the side to move on the start square",
    "invalid: a step while a jump is mandatory",
    "invalid: a jump stopped before its end",
    "invalid: a jump continued after crowning",
    "invalid: another shape (off-diagonal, backward, too long)",
    "moves after the invalid one are ignored",
    // The rule boundaries published solutions got wrong (issue 30), each a
    // kind of its own so that their bugs' signatures differ from the older
    // ones' ("another shape" and "a jump continued after crowning" took them
    // before).
    "invalid: a simple step after a jump",
    "invalid: a step after a crowning",
    "invalid: several simple steps",
    "a king jumped backward",
];

/// The bits of [`RULE_BRANCHES`] a case goes through, from a run of the
/// core's trace of each instance.
pub fn checkers_branches(case: &Case) -> u64 {
    let mut legal = Legal::new(cores_paths);
    case.instances.iter().fold(0, |bits, instance| {
        let trace = model::trace_instance(instance);
        bits | instance_branches(instance, &trace.boards, trace.verdict, &mut legal)
    })
}

/// The core's answer to `case` and the bits of [`RULE_BRANCHES`] it went
/// through, from the one run ([`model::solve_seeing`]): the same bits as
/// [`checkers_branches`].
pub fn solve_counting(case: &Case) -> (lockstep_core::Run<Vec<Ruling>>, u64) {
    // Every instance's positions after its applied moves, in order.
    let mut boards: Vec<(usize, Board)> = Vec::new();
    let run = model::solve_seeing(case, |i, board| boards.push((i, *board)));
    let mut legal = Legal::new(cores_paths);
    let (mut bits, mut from) = (0, 0);
    for (i, (instance, &verdict)) in case.instances.iter().zip(&run.answer).enumerate() {
        let to = from + boards[from..].iter().take_while(|(j, _)| *j == i).count();
        let own = boards[from..to].iter().map(|(_, board)| board);
        bits |= instance_branches(instance, own, verdict, &mut legal);
        from = to;
    }
    (run, bits)
}

/// The bits of one instance, from the positions after its applied moves
/// (`boards`) and its verdict.
fn instance_branches<'a>(
    instance: &Instance,
    boards: impl IntoIterator<Item = &'a Board>,
    verdict: Ruling,
    legal: &mut Legal,
) -> u64 {
    let mut bits = 0u64;
    let mut before = Board::of(instance);
    let mut side = instance.to_move;
    for (written, after) in instance.moves.iter().zip(boards) {
        bits |= applied_move_branches(&before, after, side, &written.0);
        before = *after;
        side = side.opponent();
    }
    match verdict {
        Ruling::AllValid => bits |= 1 << 6,
        Ruling::Invalid(n) => {
            let written = &instance.moves[n - 1].0;
            bits |= 1 << invalid_kind(&before, side, written, legal);
            if n < instance.moves.len() {
                bits |= 1 << 13;
            }
        }
    }
    bits
}

/// The legal moves of a position as written, by one generator, kept for
/// the last position asked: the instances of a case mostly start from one
/// position (an explored level's every one), and most are invalid there.
pub(super) struct Legal {
    of: fn(&Board, Side) -> Vec<Vec<u32>>,
    last: Option<(Board, Side, Vec<Vec<u32>>)>,
}

impl Legal {
    pub(super) fn new(of: fn(&Board, Side) -> Vec<Vec<u32>>) -> Legal {
        Legal { of, last: None }
    }

    fn of(&mut self, board: &Board, side: Side) -> &[Vec<u32>] {
        if !matches!(&self.last, Some((b, s, _)) if b == board && *s == side) {
            self.last = Some((*board, side, (self.of)(board, side)));
        }
        self.last.as_ref().map_or(&[], |(_, _, paths)| paths)
    }
}

/// A valid move's kind, from the boards before and after it.
fn applied_move_branches(before: &Board, after: &Board, side: Side, path: &[u32]) -> u64 {
    let (mine_before, theirs_before, theirs_after) = match side {
        Side::Red => (before.red, before.white, after.white),
        Side::White => (before.white, before.red, after.red),
    };
    let start = path[0];
    let captured = (theirs_before & !theirs_after).count_ones();
    let was_king = before.kings & (1 << (start - 1)) != 0;
    let end = *path.last().expect("a move has squares");
    let crowned = !was_king && after.kings & (1 << (end - 1)) != 0;
    debug_assert!(mine_before & (1 << (start - 1)) != 0);
    let mut bits = 1u64
        << match captured {
            0 => 0,
            1 => 1,
            _ => 2,
        };
    if was_king {
        bits |= 1 << 3;
        // Backward is toward the king's own side: Red's forward is down the
        // board (rows grow), White's up.
        let row = |s: u32| (s - 1) / 4;
        let backward = path.windows(2).any(|leg| {
            row(leg[0]).abs_diff(row(leg[1])) == 2
                && match side {
                    Side::Red => row(leg[1]) < row(leg[0]),
                    Side::White => row(leg[1]) > row(leg[0]),
                }
        });
        if backward {
            bits |= 1 << 17;
        }
    }
    if crowned {
        bits |= 1 << if captured == 0 { 4 } else { 5 };
    }
    bits
}

/// Every legal move of `side` on `board`, as written, by core's generator.
fn cores_paths(board: &Board, side: Side) -> Vec<Vec<u32>> {
    model::legal_moves(board, side, model::Captures::Paths)
        .into_iter()
        .map(|(written, _)| written.0)
        .collect()
}

/// Every legal move of `side` on `board`, as written, by the reference's.
fn references_paths(board: &Board, side: Side) -> Vec<Vec<u32>> {
    grid_of(board)
        .legal_moves(side, &mut Fuel::unlimited())
        .expect("unlimited fuel")
        .into_iter()
        .map(|m: LegalMove| m.path)
        .collect()
}

/// Why a written move is invalid in a position, as a [`RULE_BRANCHES`] index;
/// `legal` lists the position's legal moves.
fn invalid_kind(board: &Board, side: Side, path: &[u32], legal: &mut Legal) -> u32 {
    if path.iter().any(|s| !(1..=32).contains(s)) {
        return 7;
    }
    if board.at(path[0]).is_none_or(|(owner, _)| owner != side) {
        return 8;
    }
    let legal = legal.of(board, side);
    let jumps_exist = legal.iter().any(|m| is_jump(m));
    if path.len() == 2 && !is_jump(path) && jumps_exist {
        return 9;
    }
    let man = board.at(path[0]).is_some_and(|(_, king)| !king);
    let crowns = |end: u32| match side {
        Side::Red => (29..=32).contains(&end),
        Side::White => (1..=4).contains(&end),
    };
    if legal
        .iter()
        .any(|m| m.len() > path.len() && m.starts_with(path))
    {
        // A king's jump stopped on its far row is this kind too: a kind of
        // its own split the findings of an early stop in two.
        return 10;
    }
    // Whether each hop is a step (one row), without a list: this runs for
    // nearly every case of the first levels.
    let mut steps = path.windows(2).map(|hop| rows_apart(hop) == 1);
    if path.len() >= 3 && steps.clone().all(|step| step) {
        // A man's step onto its crowning row ends the move: a step after a
        // crowning, told from several steps of a piece that did not crown.
        return if man && crowns(path[1]) { 15 } else { 16 };
    }
    if let Some(first_step) = steps.position(|step| step).filter(|&i| i > 0) {
        // The hops before the first step are jumps: a man that crowned on
        // one of them had its move ended there, step or no step.
        let crowned = man && path[1..=first_step].iter().any(|&s| crowns(s));
        return if crowned { 15 } else { 14 };
    }
    // A man's jump that crowns ends the move: written on past it.
    if man
        && legal.iter().any(|m| {
            m.len() < path.len()
                && path.starts_with(m)
                && is_jump(m)
                && crowns(*m.last().expect("a move has squares"))
        })
    {
        return 11;
    }
    12
}

/// Why a written move is not legal for `side` on `board`, in the words of
/// the rule branch it falls under, by the reference's move list: what
/// `solve --trace` says of an instance's first invalid move.
pub(super) fn why_invalid(board: &Board, side: Side, path: &[u32]) -> &'static str {
    RULE_BRANCHES[invalid_kind(board, side, path, &mut Legal::new(references_paths)) as usize]
}

/// The reference's legal moves of `side` on `board`, as written.
pub(super) fn legal_paths(board: &Board, side: Side) -> Vec<Vec<u32>> {
    references_paths(board, side)
}

/// Whether a path's first hop is a jump (two rows away).
fn is_jump(path: &[u32]) -> bool {
    path.len() >= 2 && rows_apart(path) == 2
}

/// How many rows a path's first hop crosses: 1 for a step, 2 for a jump.
fn rows_apart(path: &[u32]) -> u32 {
    let row = |s: u32| (s - 1) / 4;
    row(path[0]).abs_diff(row(path[1]))
}

fn grid_of(board: &Board) -> Grid {
    let pieces = |bits: u32| -> Vec<model::Piece> {
        (1..=32u8)
            .filter(|&s| bits & (1 << (s - 1)) != 0)
            .map(|s| model::Piece {
                square: s,
                king: board.kings & (1 << (s - 1)) != 0,
            })
            .collect()
    };
    Grid::from_pieces(&pieces(board.red), &pieces(board.white))
}

/// What a checkers disagreement is: in the first instance whose rulings
/// differ, whether the core accepted an invalid move or rejected a valid
/// one, and that move's kind (a [`RULE_BRANCHES`] name), read from the
/// reference's trace of the instance.
pub fn checkers_signature(case: &Case, core: &[Ruling], reference: &[Ruling]) -> String {
    let Some((instance, (&c, &r))) = case
        .instances
        .iter()
        .zip(core.iter().zip(reference))
        .find(|(_, (c, r))| c != r)
    else {
        return if core.len() != reference.len() {
            "a-ruling-missing".to_string()
        } else {
            "same-rulings-different-boards".to_string()
        };
    };
    // The move where the two part: the earlier of the two rulings.
    let (accepts, number) = match (c, r) {
        (Ruling::AllValid, Ruling::Invalid(n)) => (true, n),
        (Ruling::Invalid(m), Ruling::AllValid) => (false, m),
        (Ruling::Invalid(m), Ruling::Invalid(n)) if m > n => (true, n),
        (Ruling::Invalid(m), Ruling::Invalid(_)) => (false, m),
        (Ruling::AllValid, Ruling::AllValid) => unreachable!("the rulings differ"),
    };
    let trace = lockstep_reference::checkers::trace_instance(instance);
    let mut before = Board::of(instance);
    let mut side = instance.to_move;
    for after in trace.boards.iter().take(number - 1) {
        before = *after;
        side = side.opponent();
    }
    let Some(written) = instance.moves.get(number - 1) else {
        return "a-ruling-past-the-moves".to_string();
    };
    let kind = if accepts {
        crate::signature::folded(
            RULE_BRANCHES[invalid_kind(&before, side, &written.0, &mut Legal::new(references_paths))
                as usize],
        )
    } else {
        // The most telling kind of the valid move: a crowning, else a step
        // or a jump (single and multiple alike).
        let bits = trace.boards.get(number - 1).map_or(0, |after| {
            applied_move_branches(&before, after, side, &written.0)
        });
        match [4, 5, 0, 1, 2].into_iter().find(|&i| bits >> i & 1 == 1) {
            Some(i @ (4 | 5 | 0)) => crate::signature::folded(RULE_BRANCHES[i]),
            Some(_) => "a-jump".to_string(),
            None => "a-move".to_string(),
        }
    };
    format!(
        "core-{}:{kind}",
        if accepts { "accepts" } else { "rejects" }
    )
}
