//! New Game 2's planted bugs: a third simulation with one bug planted at a
//! time, and [`BUGS`].

use lockstep_core::digest::Digest;
use lockstep_core::new_game2::{
    stack_array, Answer, Case, Colour, Dir, Rule, Step, ENDING_HEIGHT, TURN_LIMIT,
};
use lockstep_harness::puzzle::{Run, Solver};
use lockstep_harness::puzzles::NewGame2;

/// The deliberately wrong solvers, one rule each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bug {
    /// A group moving onto red keeps its order.
    ForgetsRedReversal,
    /// After turning round, a blue cell behind is entered as if white.
    IgnoresBlueAfterBounce,
    /// A piece moves alone, leaving the pieces stacked on it behind.
    LeavesItsStackBehind,
    /// One turn too many: a game that ends during turn 1001 is answered
    /// 1001, not -1 (a published solution's loop bound, `turn <= 1001`).
    PlaysTurn1001,
    /// The contestant-style rule bugs (`CONTESTANT` below): a piece blocked
    /// both ways on a red cell reverses its group in place.
    RedBlockedReverses,
    /// A piece blocked both ways turns back to its first direction.
    BlockedTurnsBack,
    /// After turning round, a red cell is entered as if white.
    NoRedAfterBounce,
}

/// A third New Game 2 simulation, with at most one bug planted. It reports the
/// same steps as the real solvers, so only the planted bug can make it disagree.
pub fn simulate(game: &Case, bug: Option<Bug>) -> Run<Answer> {
    let n = game.n as i32;
    let colour = |r: i32, c: i32| {
        { (0..n).contains(&r) && (0..n).contains(&c) }.then(|| game.board[(r * n + c) as usize])
    };
    let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); (n * n) as usize];
    let mut at: Vec<(i32, i32)> = Vec::new();
    let mut dirs: Vec<Dir> = Vec::new();
    for (i, p) in game.pieces.iter().enumerate() {
        at.push((i32::from(p.row) - 1, i32::from(p.col) - 1));
        dirs.push(p.dir);
        stacks[((i32::from(p.row) - 1) * n + i32::from(p.col) - 1) as usize].push(i);
    }
    let mut digest = Digest::new();
    let one_based = |(r, c): (i32, i32)| ((r + 1) as u8, (c + 1) as u8);
    let last_turn = TURN_LIMIT + u32::from(bug == Some(Bug::PlaysTurn1001));
    for turn in 1..=last_turn {
        for a in 0..game.pieces.len() {
            let (r, c) = at[a];
            let ahead = |d: Dir| (r + d.delta().0, c + d.delta().1);
            let open = |(r, c): (i32, i32)| colour(r, c).is_some_and(|x| x != Colour::Blue);
            let mut target = ahead(dirs[a]);
            let mut turned = false;
            if !open(target) {
                dirs[a] = dirs[a].reversed();
                target = ahead(dirs[a]);
                turned = true;
                let enterable = if bug == Some(Bug::IgnoresBlueAfterBounce) {
                    colour(target.0, target.1).is_some()
                } else {
                    open(target)
                };
                if !enterable {
                    if bug == Some(Bug::BlockedTurnsBack) {
                        dirs[a] = dirs[a].reversed();
                    }
                    let here = &mut stacks[(r * n + c) as usize];
                    let on_red = colour(r, c) == Some(Colour::Red);
                    let step = stay(here, a, (turn, one_based((r, c))), on_red, bug);
                    step.packed().into_iter().for_each(|w| digest.push(w));
                    continue;
                }
            }
            let source = &mut stacks[(r * n + c) as usize];
            let position = source.iter().position(|&p| p == a).unwrap();
            let mut group = if bug == Some(Bug::LeavesItsStackBehind) {
                vec![source.remove(position)]
            } else {
                source.split_off(position)
            };
            let red = colour(target.0, target.1) == Some(Colour::Red);
            let no_red = bug == Some(Bug::ForgetsRedReversal)
                || bug == Some(Bug::NoRedAfterBounce) && turned;
            if red && !no_red {
                group.reverse();
            }
            for &p in &group {
                at[p] = target;
            }
            let destination = &mut stacks[(target.0 * n + target.1) as usize];
            destination.extend(group);
            let rule = match (turned, red) {
                (false, false) => Rule::White,
                (false, true) => Rule::Red,
                (true, false) => Rule::TurnedWhite,
                (true, true) => Rule::TurnedRed,
            };
            let height = destination.len();
            let step = Step {
                turn,
                piece: a as u8 + 1,
                from: one_based((r, c)),
                to: one_based(target),
                rule,
                stack: stack_array(destination.iter().map(|&p| p as u8 + 1)),
            };
            step.packed().into_iter().for_each(|w| digest.push(w));
            if height >= ENDING_HEIGHT {
                return Run {
                    answer: Answer::EndsOnTurn(turn),
                    digest: digest.value(),
                };
            }
        }
    }
    Run {
        answer: Answer::NotWithinLimit,
        digest: 0,
    }
}

/// Piece `a` blocked both ways on its cell `here` (one-based `at`, on
/// `turn`) stays, its group with it: the step it reports. With
/// `RedBlockedReverses` planted, a group on red is reversed in place.
fn stay(
    here: &mut [usize],
    a: usize,
    (turn, at): (u32, (u8, u8)),
    on_red: bool,
    bug: Option<Bug>,
) -> Step {
    if bug == Some(Bug::RedBlockedReverses) && on_red {
        let position = here.iter().position(|&p| p == a).unwrap();
        here[position..].reverse();
    }
    Step {
        turn,
        piece: a as u8 + 1,
        from: at,
        to: at,
        rule: Rule::TurnedStayed,
        stack: stack_array(here.iter().map(|&p| p as u8 + 1)),
    }
}

pub fn forgets_red_reversal(game: &Case) -> Run<Answer> {
    simulate(game, Some(Bug::ForgetsRedReversal))
}
pub fn ignores_blue_after_bounce(game: &Case) -> Run<Answer> {
    simulate(game, Some(Bug::IgnoresBlueAfterBounce))
}
pub fn leaves_its_stack_behind(game: &Case) -> Run<Answer> {
    simulate(game, Some(Bug::LeavesItsStackBehind))
}
pub fn plays_turn_1001(game: &Case) -> Run<Answer> {
    simulate(game, Some(Bug::PlaysTurn1001))
}

/// The planted bugs of this puzzle (see `crates/harness/tests/it/planted.rs` for the
/// catalogue).
pub const BUGS: [(&str, Solver<NewGame2>); 4] = [
    ("forgets the red reversal", forgets_red_reversal),
    ("ignores blue after the bounce", ignores_blue_after_bounce),
    ("leaves its stack behind", leaves_its_stack_behind),
    // The turn-limit boundary of issue 30: lockstep needed 38,001 cases
    // to show it before the generator aimed at it.
    (
        "prints 1001 for a game that ends on turn 1001",
        plays_turn_1001,
    ),
];

/// Contestant-style rule bugs of a piece blocked both ways and of a
/// bounce, written before the levels that find them (the crate's "Contestant bugs").
pub const CONTESTANT: [(&str, Solver<NewGame2>); 3] = [
    (
        "a group blocked both ways on red is reversed in place",
        |game| simulate(game, Some(Bug::RedBlockedReverses)),
    ),
    ("a piece blocked both ways turns back", |game| {
        simulate(game, Some(Bug::BlockedTurnsBack))
    }),
    ("a red cell after a bounce is white", |game| {
        simulate(game, Some(Bug::NoRedAfterBounce))
    }),
];

/// This puzzle's planted bugs for the catalogue (`crates/harness/tests/it/planted.rs`).
pub fn bugs() -> Vec<(&'static str, Solver<NewGame2>)> {
    BUGS.iter().copied().collect()
}
