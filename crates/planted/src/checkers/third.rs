//! A third checkers validator, written once more from the rule text over a
//! plain array of squares, and the deliberately wrong validators made from it
//! by planting one bug each: what the planted-bug tests hunt.

use lockstep_core::checkers::{Answer, Board, Case, Ruling, Side};
use lockstep_core::digest::Digest;
use lockstep_harness::puzzle::Run;

/// The deliberately wrong validators, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bug {
    /// A multiple jump may stop while the piece can still jump.
    StopsEarly,
    /// Crowning does not end the move: the new king jumps on.
    JumpsOnAfterCrowning,
    /// The mandatory capture is checked only for the piece that moves.
    CaptureOnlyForMover,
    /// A king may jump a piece it has already jumped in this move.
    KingJumpsTwice,
    /// A jump sequence may end with a simple step (a published solution's
    /// bug: it checked each hop for a step or a jump, not the move as a whole).
    StepAfterJump,
    /// Crowning ends a jump but not a step: a man that crowns may step on as
    /// the new king in the same move.
    StepAfterCrowning,
    /// A move may be several simple steps of one piece.
    SeveralSteps,
    /// A king landing on its far (promotion) row is "crowned" again, which
    /// ends its move there.
    KingCrownedOnFarRow,
    /// The contestant-style rule bugs (`CONTESTANT` in `mod.rs`): the start
    /// square stays occupied until the move ends, so a king's circuit
    /// cannot land where it began (and may stop one jump short).
    StartStaysOccupied,
    /// The duty to jump looks at every piece with a man's directions: a
    /// king's backward jump does not oblige.
    DutyIgnoresKingsBackward,
    /// A man jumps on backward after its first jump (a king's directions
    /// from the second jump on).
    ManJumpsOnBackward,
}

/// Square contents, indexed 1..=32.
type Squares = [Option<(Side, bool)>; 33];

fn cell(square: u32) -> (i32, i32) {
    let row = (square - 1) / 4;
    let col = 2 * ((square - 1) % 4) + u32::from(row.is_multiple_of(2));
    (row as i32, col as i32)
}

fn square_at(row: i32, col: i32) -> Option<u32> {
    ((0..8).contains(&row) && (0..8).contains(&col) && (row + col) % 2 == 1)
        .then(|| (row * 4 + col / 2 + 1) as u32)
}

fn directions(side: Side, king: bool) -> Vec<(i32, i32)> {
    let forward = if side == Side::Red { 1 } else { -1 };
    [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        .into_iter()
        .filter(|d| king || d.0 == forward)
        .collect()
}

/// The jump from `at` in `d`, if the square beyond is empty and the one between
/// holds an opponent that may be jumped: (over, landing).
fn jump(
    squares: &Squares,
    at: u32,
    d: (i32, i32),
    side: Side,
    captured: &[u32],
) -> Option<(u32, u32)> {
    let (row, col) = cell(at);
    let over = square_at(row + d.0, col + d.1)?;
    let land = square_at(row + 2 * d.0, col + 2 * d.1)?;
    let opponent = matches!(squares[over as usize], Some((s, _)) if s != side);
    (opponent && !captured.contains(&over) && squares[land as usize].is_none())
        .then_some((over, land))
}

fn can_jump(squares: &Squares, at: u32, side: Side, king: bool, captured: &[u32]) -> bool {
    directions(side, king)
        .into_iter()
        .any(|d| jump(squares, at, d, side, captured).is_some())
}

/// Plays one written move if it is legal (with `bug` planted).
fn play(squares: &mut Squares, side: Side, path: &[u32], bug: Option<Bug>) -> bool {
    if path.iter().any(|s| !(1..=32).contains(s)) {
        return false;
    }
    let Some((owner, king)) = squares[path[0] as usize] else {
        return false;
    };
    if owner != side {
        return false;
    }
    let must_jump = if bug == Some(Bug::CaptureOnlyForMover) {
        can_jump(squares, path[0], side, king, &[])
    } else {
        let men_only = bug == Some(Bug::DutyIgnoresKingsBackward);
        (1..=32).any(|s| {
            matches!(squares[s as usize], Some((o, k)) if o == side && can_jump(squares, s, side, k && !men_only, &[]))
        })
    };
    let mut after = *squares;
    if bug != Some(Bug::StartStaysOccupied) || !must_jump {
        after[path[0] as usize] = None;
    }
    let played = if must_jump {
        play_jumps(&mut after, side, king, path, bug)
    } else {
        play_steps(&mut after, side, king, path, bug)
    };
    if played {
        *squares = after;
    }
    played
}

/// Whether `side` crowns on square `s`.
fn promotes(side: Side, s: u32) -> bool {
    match side {
        Side::Red => s >= 29,
        Side::White => s <= 4,
    }
}

/// A simple step from `at` to `to` for a piece of `side` as it stands.
fn step(after: &Squares, side: Side, at: u32, to: u32, king: bool) -> bool {
    let (row, col) = cell(at);
    directions(side, king)
        .into_iter()
        .any(|d| square_at(row + d.0, col + d.1) == Some(to))
        && after[to as usize].is_none()
}

/// A move of simple steps, when no jump is mandatory, played on `after`
/// (the board without the moving piece) if it is legal.
fn play_steps(after: &mut Squares, side: Side, king: bool, path: &[u32], bug: Option<Bug>) -> bool {
    let crowns = !king && promotes(side, path[1]);
    let ok = match bug {
        Some(Bug::SeveralSteps) => {
            let mut as_king = king;
            path.windows(2).all(|hop| {
                let ok = step(after, side, hop[0], hop[1], as_king);
                as_king |= promotes(side, hop[1]);
                ok
            })
        }
        Some(Bug::StepAfterCrowning) if path.len() == 3 && crowns => {
            step(after, side, path[0], path[1], king) && step(after, side, path[1], path[2], true)
        }
        _ => path.len() == 2 && step(after, side, path[0], path[1], king),
    };
    if ok {
        let end = *path.last().expect("a move has squares");
        let crowned = path[1..].iter().any(|&s| promotes(side, s));
        after[end as usize] = Some((side, king || crowned));
    }
    ok
}

/// A move of jumps, when one is mandatory, played on `after` (the board
/// without the moving piece) if it is legal.
fn play_jumps(
    after: &mut Squares,
    side: Side,
    mut king: bool,
    path: &[u32],
    bug: Option<Bug>,
) -> bool {
    let mut at = path[0];
    let mut captured = Vec::new();
    let mut crowned = false;
    let mut stepped = false;
    for (hop, &to) in path[1..].iter().enumerate() {
        let last = hop + 2 == path.len();
        if crowned && bug == Some(Bug::StepAfterCrowning) && last && step(after, side, at, to, true)
        {
            at = to;
            stepped = true;
            break;
        }
        if crowned && bug != Some(Bug::JumpsOnAfterCrowning) {
            return false;
        }
        let ignore = if bug == Some(Bug::KingJumpsTwice) && king {
            &[][..]
        } else {
            &captured[..]
        };
        let as_king = king || bug == Some(Bug::ManJumpsOnBackward) && hop > 0;
        let Some((over, _)) = directions(side, as_king)
            .into_iter()
            .filter_map(|d| jump(after, at, d, side, ignore))
            .find(|&(_, land)| land == to)
        else {
            let ends_with_step = bug == Some(Bug::StepAfterJump) && last;
            if ends_with_step && step(after, side, at, to, king) {
                at = to;
                stepped = true;
                crowned = !king && promotes(side, at);
                break;
            }
            return false;
        };
        captured.push(over);
        at = to;
        let far_row_again = bug == Some(Bug::KingCrownedOnFarRow) && king;
        if (!king || far_row_again) && promotes(side, at) {
            crowned = true;
            if bug == Some(Bug::JumpsOnAfterCrowning) {
                king = true;
            }
        }
    }
    let may_stop = stepped
        || crowned && bug != Some(Bug::JumpsOnAfterCrowning)
        || bug == Some(Bug::StopsEarly)
        || !can_jump(after, at, side, king, &captured);
    if !may_stop {
        return false;
    }
    for over in captured {
        after[over as usize] = None;
    }
    if bug == Some(Bug::StartStaysOccupied) {
        after[path[0] as usize] = None;
    }
    after[at as usize] = Some((side, king || crowned));
    true
}

fn board_of(squares: &Squares) -> Board {
    let mut board = Board::default();
    for s in 1..=32u32 {
        if let Some((side, king)) = squares[s as usize] {
            let bit = 1 << (s - 1);
            match side {
                Side::Red => board.red |= bit,
                Side::White => board.white |= bit,
            }
            if king {
                board.kings |= bit;
            }
        }
    }
    board
}

/// A third validator with at most one bug planted. It reports the same trace as
/// the real solvers, so only the planted bug can make it disagree.
pub fn validate(case: &Case, bug: Option<Bug>) -> Run<Answer> {
    let mut digest = Digest::new();
    let mut answer = Vec::new();
    for instance in &case.instances {
        let mut squares: Squares = [None; 33];
        for side in [Side::Red, Side::White] {
            for p in instance.pieces(side) {
                squares[usize::from(p.square)] = Some((side, p.king));
            }
        }
        let mut side = instance.to_move;
        let mut verdict = Ruling::AllValid;
        for (index, m) in instance.moves.iter().enumerate() {
            if !play(&mut squares, side, &m.0, bug) {
                verdict = Ruling::Invalid(index + 1);
                break;
            }
            board_of(&squares)
                .packed()
                .into_iter()
                .for_each(|w| digest.push(w));
            side = side.opponent();
        }
        digest.push(verdict.packed());
        answer.push(verdict);
    }
    Run {
        answer,
        digest: digest.value(),
    }
}

pub fn stops_early(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::StopsEarly))
}
pub fn jumps_on_after_crowning(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::JumpsOnAfterCrowning))
}
pub fn capture_only_for_mover(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::CaptureOnlyForMover))
}
pub fn king_jumps_twice(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::KingJumpsTwice))
}
pub fn step_after_jump(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::StepAfterJump))
}
pub fn step_after_crowning(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::StepAfterCrowning))
}
pub fn several_steps(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::SeveralSteps))
}
pub fn king_crowned_on_far_row(case: &Case) -> Run<Answer> {
    validate(case, Some(Bug::KingCrownedOnFarRow))
}
