//! Robots in the harness: generator, shrinker, divergence report, rule-branch stats.
//!
//! Most of what can go wrong in a Robots solver hides in rare branches: a push of
//! debris into a robot, a push blocked by debris or the border, teleports passed
//! over (used, occupied, losing), robots colliding on your cell, and each level of
//! the tie-break. The generator leans toward them: few robots close to you (long
//! chases, forced teleports), pairs and lines of robots that collide into debris
//! you then push, and teleport lists with occupied, repeated and nearby cells.
//! `lockstep fuzz robots --stats` reports how often each branch is reached.

pub mod levels;
mod trace;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use arbitrary::Unstructured;
use lockstep_core::robots::{
    self as model, Answer, Board, Case, Feature, Game, MoveKind, Trace, SIZE, START,
};

pub struct Robots;

mod boundary;
mod generate;
pub use boundary::GameBoundary;

/// A game: one in three built at a rule boundary (boundary.rs), the others
/// random robots and teleports (generate.rs).
fn game(u: &mut Unstructured<'_>) -> arbitrary::Result<Game> {
    if u.ratio(1, 3)? {
        let boundary = *u.choose(&GameBoundary::DRAWN)?;
        return boundary::boundary_game(u, boundary);
    }
    generate::random_game(u)
}

/// The largest robot subsets the shrinker tries, and how many of one size at most.
const SUBSET_MAX_SIZE: usize = 4;
const SUBSET_MAX_COUNT: usize = 400;

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Every `size`-element subset of `0..n`, in lexicographic order.
fn subsets(n: usize, size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..size).collect();
    loop {
        out.push(pick.clone());
        // Advance the rightmost index that can still move.
        let Some(i) = (0..size).rev().find(|&i| pick[i] < n - size + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..size {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

fn kind_slug(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Walk(..) => "walk",
        MoveKind::Stay => "stay",
        MoveKind::Teleport => "teleport",
        MoveKind::StayAndLose => "stay-and-lose",
    }
}

/// The rows and columns a divergence report draws: every cell where the
/// boards differ, and where you stand on each, two cells around; the whole
/// region the boards span with [`crate::puzzle::full_reports`]. Three full
/// 31x31 boards bury the one cell that matters.
fn window(boards: &[&Board]) -> Option<((u8, u8), (u8, u8))> {
    let mut cells: Vec<(u8, u8)> = boards.iter().map(|b| b.you).collect();
    let what = |b: &Board, cell: (u8, u8)| {
        (
            b.you == cell,
            b.robots.contains(&cell),
            b.debris.contains(&cell),
        )
    };
    for a in boards {
        for &cell in a.robots.iter().chain(&a.debris) {
            if boards.iter().any(|b| what(a, cell) != what(b, cell)) {
                cells.push(cell);
            }
        }
    }
    let r0 = cells.iter().map(|c| c.0).min()?.saturating_sub(2).max(1);
    let r1 = (cells.iter().map(|c| c.0).max()? + 2).min(SIZE);
    let c0 = cells.iter().map(|c| c.1).min()?.saturating_sub(2).max(1);
    let c1 = (cells.iter().map(|c| c.1).max()? + 2).min(SIZE);
    Some(((r0, c0), (r1, c1)))
}

/// A board within `window` (or whole, with the full-report flag).
fn show_board(board: Option<&Board>, window: Option<((u8, u8), (u8, u8))>) -> String {
    let Some(board) = board else {
        return "    (no game)\n".to_string();
    };
    let (Some(((r0, c0), (r1, c1))), false) = (window, crate::puzzle::full_reports()) else {
        return board.to_string();
    };
    let mut out = format!("    rows {r0}..{r1}, columns {c0}..{c1} (where the boards differ)\n");
    for r in r0..=r1 {
        out.push_str(&format!("    {r:>2} {}\n", board.row_text(r, c0..=c1)));
    }
    out
}

const FEATURE_NAMES: [&str; Feature::ALL.len()] = {
    let mut names = [""; Feature::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Feature::ALL[i].name();
        i += 1;
    }
    names
};

/// The simpler variants of one game, each handed to `with`: the
/// shrinker's work on a part of a case (see `shrink_candidates`).
fn simpler_games(game: &Game, with: &mut dyn FnMut(Game)) {
    let n = game.robots.len();
    // Many robots: delta debugging first. Drop each half, then each quarter,
    // each eighth, ..., so that a failure needing a few robots out of fifty
    // sheds most of the rest in a few rounds of a few candidates each
    // (stress runs the user's program on every candidate, so rounds of
    // hundreds of subsets would spend its budget before getting anywhere).
    if n > 2 * SUBSET_MAX_SIZE {
        let mut chunks = 2;
        loop {
            let size = n.div_ceil(chunks);
            if size <= 1 {
                break;
            }
            for start in (0..n).step_by(size) {
                let end = (start + size).min(n);
                let mut rest = game.robots[..start].to_vec();
                rest.extend_from_slice(&game.robots[end..]);
                with(Game {
                    robots: rest,
                    teleports: game.teleports.clone(),
                });
            }
            chunks *= 2;
        }
    }
    // Then one robot fewer: cheap rounds (n candidates) while they work.
    if n > 1 {
        for drop in 0..n {
            let mut fewer = game.clone();
            fewer.robots.remove(drop);
            with(fewer);
        }
    }
    // Then two robots fewer: a pair may stand in for each other, so that
    // neither can go alone.
    if n > 2 && binomial(n, 2) <= SUBSET_MAX_COUNT {
        for pair in subsets(n, 2) {
            let mut fewer = game.clone();
            fewer.robots.remove(pair[1]);
            fewer.robots.remove(pair[0]);
            with(fewer);
        }
    }
    // Then small subsets, when no single robot can go. Robots interact through every tie-break, so
    // dropping one robot at a time often loses the failure while a small
    // subset that sets up the same situation keeps it: try every subset of
    // one to four robots, smallest first, as long as there are not too many
    // of a size.
    if n > 1 {
        for size in 1..=SUBSET_MAX_SIZE.min(n - 1) {
            if binomial(n, size) > SUBSET_MAX_COUNT {
                break;
            }
            for subset in subsets(n, size) {
                with(Game {
                    robots: subset.iter().map(|&i| game.robots[i]).collect(),
                    teleports: game.teleports.clone(),
                });
            }
        }
    }
    if game.teleports.len() > 1 {
        for &only in &game.teleports {
            with(Game {
                robots: game.robots.clone(),
                teleports: vec![only],
            });
        }
    }
    for drop in 0..game.teleports.len() {
        let mut fewer = game.clone();
        fewer.teleports.remove(drop);
        with(fewer);
    }
    for (i, &(r, c)) in game.robots.iter().enumerate() {
        let step = |v: u8, target: u8| match v.cmp(&target) {
            std::cmp::Ordering::Less => v + 1,
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Greater => v - 1,
        };
        let closer = (step(r, START.0), step(c, START.1));
        if closer != START && !game.robots.contains(&closer) {
            let mut pulled = game.clone();
            pulled.robots[i] = closer;
            with(pulled);
        }
    }
}

impl Puzzle for Robots {
    /// docs/guide/src/rules/robots.md: 1..=50 robots on distinct cells of the 31x31 board,
    /// none on (15, 15), and 0..=20 teleports on the board.
    fn within_original(case: &Case) -> bool {
        let on_board = |&(r, c): &(u8, u8)| (1..=31).contains(&r) && (1..=31).contains(&c);
        case.games.iter().all(|g| {
            let mut cells = g.robots.clone();
            cells.sort_unstable();
            cells.dedup();
            (1..=50).contains(&g.robots.len())
                && cells.len() == g.robots.len()
                && g.robots
                    .iter()
                    .all(|cell| on_board(cell) && *cell != (15, 15))
                && g.teleports.len() <= 20
                && g.teleports.iter().all(on_board)
        })
    }

    /// Candidates tried (ten a move, more with teleports): enough for games of a few
    /// thousand moves; generated games take a few hundred at most.
    const FUEL: u64 = 200_000;
    const RULE_BRANCHES: &'static [&'static str] = &FEATURE_NAMES;

    type Case = Case;
    type Answer = Answer;

    /// One to three games (one in most cases).
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        let games = if u.ratio(7, 10)? {
            1
        } else {
            u.int_in_range(2..=3)?
        };
        let games = (0..games)
            .map(|_| game(u))
            .collect::<arbitrary::Result<Vec<_>>>()?;
        Ok((Case { games }, None))
    }

    fn describe(case: &Case) -> String {
        let robots: Vec<String> = case
            .games
            .iter()
            .map(|g| g.robots.len().to_string())
            .collect();
        let teleports: usize = case.games.iter().map(|g| g.teleports.len()).sum();
        format!(
            "{} game{}, {} robots, {teleports} teleports",
            case.games.len(),
            if case.games.len() == 1 { "" } else { "s" },
            robots.join("+")
        )
    }

    /// The first move where the traces differ, with the board before it and each
    /// side's board after it.
    fn explain(case: &Case) -> Explanation {
        let core = model::trace(case, usize::MAX);
        let reference = lockstep_reference::robots::trace(case, usize::MAX);
        let first = crate::puzzle::first_unequal(&core.steps, &reference.steps);
        if core.steps == reference.steps {
            return Explanation {
                symptom: "same-moves-different-report".to_string(),
                report: format!(
                    "both traces have the same {} moves; the final reports differ\n",
                    core.steps.len()
                ),
            };
        }
        let show = |trace: &Trace| {
            trace.steps.get(first).map_or_else(
                || "no such move: the game had ended".to_string(),
                |s| s.to_string(),
            )
        };
        let mut report = format!(
            "first divergence at move {} of the trace:\n  core:      {}\n  reference: {}\n",
            first + 1,
            show(&core),
            show(&reference)
        );
        let before = model::trace(case, first).board;
        let core_after = model::trace(case, first + 1).board;
        let reference_after = lockstep_reference::robots::trace(case, first + 1).board;
        let boards: Vec<&Board> = [&before, &core_after, &reference_after]
            .into_iter()
            .flatten()
            .collect();
        let window = window(&boards);
        report.push_str(&format!(
            "board before it (@ you, R robot, # debris):\n{}",
            show_board(before.as_ref(), window)
        ));
        report.push_str(&format!(
            "core after it:\n{}reference after it:\n{}",
            show_board(core_after.as_ref(), window),
            show_board(reference_after.as_ref(), window)
        ));
        if window.is_some() && !crate::puzzle::full_reports() {
            report.push_str("(the whole boards: `lockstep shrink robots FILE --full`)\n");
        }
        let symptom = match reference.steps.get(first) {
            Some(step) => format!(
                "game-{}-move-{}-{}",
                step.game + 1,
                step.number,
                kind_slug(step.kind)
            ),
            None => "core-moves-after-the-end".to_string(),
        };
        Explanation { symptom, report }
    }

    /// Simpler variants: a single game of a multi-game input first, then subsets of
    /// the robots, then fewer robots and teleports, then robots pulled toward you.
    fn shrink_candidates(case: &Case) -> Vec<Case> {
        crate::shrink::part_variants(&case.games, |games| Case { games }, simpler_games)
    }

    fn rule_branches(case: &Case) -> u64 {
        model::events(case)
    }

    /// The first answer line that differs on each side, and the kind of the
    /// reference's last move in that game (a walk, a stay, a teleport): the
    /// move a game ends on tells a push's bug from a teleport's.
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (case, core, reference, lines) =
            (answers.case, answers.core, answers.reference, answers.lines);
        let Some(game) = core.iter().zip(reference).position(|(c, r)| c != r) else {
            return lines;
        };
        let trace = lockstep_reference::robots::trace(case, usize::MAX);
        let last = trace
            .steps
            .iter()
            .rev()
            .find(|s| usize::from(s.game) == game);
        match last {
            Some(step) => format!("{lines}:ends-on-a-{}", kind_slug(step.kind)),
            None => lines,
        }
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Traceable for Robots {
    fn trace(case: &Self::Case, fuel: &mut lockstep_reference::Fuel) -> Option<String> {
        trace::trace(case, fuel)
    }
}

impl crate::puzzle::Verifiable for Robots {
    /// The judge's 100,000 moves are beyond any small game; the limit is a
    /// parameter of core and reference, checked small (docs/guide/src/rules/robots.md).
    const CHECKED_ELSEWHERE: &'static [(&'static str, &'static str)] = &[(
        "stopped at the move limit",
        "behind the 100,000-move constant: every game of sizes 1 to 6 under move limits 1 to 8, by the tests in crates/harness/tests/it/robots.rs",
    )];
}

impl crate::puzzle::Counting for Robots {
    /// The core's answer and its branches from one run
    /// ([`model::solve_counting`]), not a second run to count them.
    fn solve_counting(case: &Case) -> Option<(lockstep_core::Run<Answer>, u64)> {
        Some(model::solve_counting(case))
    }
}

impl crate::puzzle::Joinable for Robots {
    /// The games of every case, in order, in one input.
    fn join(cases: &[Self::Case]) -> Option<Self::Case> {
        Some(Self::Case {
            games: cases.iter().flat_map(|c| c.games.iter().cloned()).collect(),
        })
    }
}

#[cfg(test)]
mod tests;
