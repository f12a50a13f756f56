//! Disappearing Footholds in the harness: generator, shrinker, divergence report,
//! and the boards for `lockstep bench footholds`.
//!
//! The reference walks the whole game tree, so the differential generator keeps to
//! the original's 5x5 and leans toward boards it can finish within its fuel: small
//! boards, holes, walls that split the board, players sharing a cell or standing
//! side by side. Boards it cannot finish are timeouts (skipped), not failures.
//! Larger boards (up to 8x8) are for the core-only properties in the tests.

pub mod bench;
pub mod levels;
mod trace;

use crate::puzzle::{CaseLimits, Explanation, Generated, Puzzle};
use crate::shrink::without_line;
use arbitrary::Unstructured;
use lockstep_core::footholds::{self as model, Answer, Case, Game, Pos, ORIGINAL_MAX_SIDE};
use lockstep_core::Model;
use lockstep_reference::Naive;
use lockstep_reference::{Fuel, OutOfFuel};

pub struct Footholds;

/// Boards with more footholds than this are thinned most of the time, so that the
/// reference usually finishes.
const THIN_ABOVE: usize = 14;

/// A random game on a board of at most `max_side` x `max_side`.
pub fn generate_game(u: &mut Unstructured<'_>, max_side: usize) -> arbitrary::Result<Game> {
    let small = u.ratio(2, 3)?;
    let top = if small { max_side.min(4) } else { max_side };
    let height = u.int_in_range(1..=top)?;
    let width = u.int_in_range(1..=top)?;
    // Density out of 8: from sparse to full.
    let density = *u.choose(&[4u8, 6, 7, 8, 8])?;
    let mut cells = Vec::with_capacity(height * width);
    for _ in 0..height * width {
        cells.push(u.int_in_range(0..=7u8)? < density);
    }
    // Sometimes a wall of holes splits the board: the players may not meet.
    if width > 2 && u.ratio(1, 6)? {
        let col = u.int_in_range(1..=width - 2)?;
        for r in 0..height {
            cells[r * width + col] = false;
        }
    }
    let pick = |u: &mut Unstructured<'_>| -> arbitrary::Result<Pos> {
        Ok((
            u.int_in_range(0..=height - 1)? as u8,
            u.int_in_range(0..=width - 1)? as u8,
        ))
    };
    let a = pick(u)?;
    let b = match u.int_in_range(0..=9u8)? {
        0 => a,
        1..=3 => {
            // Next to A, when there is room.
            let (r, c) = a;
            let options = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            let inside: Vec<Pos> = options
                .into_iter()
                .filter(|&(r, c)| usize::from(r) < height && usize::from(c) < width)
                .collect();
            if inside.is_empty() {
                a
            } else {
                *u.choose(&inside)?
            }
        }
        _ => pick(u)?,
    };
    for (r, c) in [a, b] {
        cells[usize::from(r) * width + usize::from(c)] = true;
    }
    let mut game = Game {
        height,
        width,
        cells,
        a,
        b,
    };
    if max_side <= ORIGINAL_MAX_SIDE && footholds_of(&game) > THIN_ABOVE && u.ratio(3, 4)? {
        let mut footholds: Vec<usize> = (0..height * width)
            .filter(|&i| game.cells[i] && !is_player(&game, i))
            .collect();
        while footholds.len() + 2 > THIN_ABOVE && !footholds.is_empty() {
            let i = u.choose_index(footholds.len())?;
            game.cells[footholds.swap_remove(i)] = false;
        }
    }
    Ok(game)
}

fn is_player(game: &Game, index: usize) -> bool {
    let at = |(r, c): Pos| usize::from(r) * game.width + usize::from(c);
    index == at(game.a) || index == at(game.b)
}

fn draw(game: &Game) -> String {
    let mut out = String::new();
    for r in 0..game.height {
        out.push_str("    ");
        for c in 0..game.width {
            let here = (r as u8, c as u8);
            out.push(match (here == game.a, here == game.b) {
                (true, true) => '*',
                (true, false) => 'A',
                (false, true) => 'B',
                _ if game.foothold(here) => '#',
                _ => '.',
            });
        }
        out.push('\n');
    }
    out
}

/// The four cells beside `(r, c)`, up, down, left and right; off the board
/// (above row 0 or left of column 0) wrapped to the largest coordinate.
fn neighbours((r, c): Pos) -> [Pos; 4] {
    [
        (r.wrapping_sub(1), c),
        (r + 1, c),
        (r, c.wrapping_sub(1)),
        (r, c + 1),
    ]
}

/// A's possible first moves, each with the game that follows it as a new game with
/// B to move first (B in the role of A). B's cell may be gone, when the two shared
/// it; such a game is outside the text format but both solvers take it.
pub fn first_moves(game: &Game) -> Vec<(Pos, Game)> {
    neighbours(game.a)
        .into_iter()
        .filter(|&(nr, nc)| usize::from(nr) < game.height && usize::from(nc) < game.width)
        .filter(|&next| game.foothold(next))
        .map(|next| {
            let mut cells = game.cells.clone();
            let (r, c) = game.a;
            cells[usize::from(r) * game.width + usize::from(c)] = false;
            let after = Game {
                cells,
                a: game.b,
                b: next,
                ..game.clone()
            };
            (next, after)
        })
        .collect()
}

/// A full board with both players at the given cells.
pub fn full_board(side: usize, a: Pos, b: Pos) -> Game {
    Game {
        height: side,
        width: side,
        cells: vec![true; side * side],
        a,
        b,
    }
}

/// The rule branches `--stats` counts (its rule page's rule index names each in its
/// rule's row), read off one optimal line of play of each game, as the core
/// scores it.
pub const RULE_BRANCHES: [&str; 9] = [
    "A wins",
    "B wins",
    "A cannot move at the start (0 moves)",
    "both start on one foothold",
    "a move onto the opponent's foothold",
    "the loser has no move",
    "the loser's shared foothold vanished",
    "a game of 10 moves or more",
    "two games in one input",
];

/// One optimal line of `game`: at each position a move to a child whose
/// value is one less, until the player to move loses. The bits of
/// [`RULE_BRANCHES`] it shows.
fn line_branches(game: &Game) -> u64 {
    let value = |g: &Game| model::solve_within(g, None).0.expect("no deadline");
    let total = value(game);
    let mut bits = 1u64 << if total % 2 == 1 { 0 } else { 1 };
    if total == 0 {
        bits |= 1 << 2;
    }
    if game.a == game.b {
        bits |= 1 << 3;
    }
    if total >= 10 {
        bits |= 1 << 7;
    }
    let mut at = game.clone();
    for left in (1..=total).rev() {
        let next = neighbours(at.a)
            .into_iter()
            .filter(|&p| {
                usize::from(p.0) < at.height && usize::from(p.1) < at.width && at.foothold(p)
            })
            .map(|p| {
                let mut child = at.clone();
                let (r, c) = at.a;
                child.cells[usize::from(r) * at.width + usize::from(c)] = false;
                child.a = at.b;
                child.b = p;
                child
            })
            .find(|child| value(child) == left - 1);
        let Some(child) = next else {
            break;
        };
        if child.b == child.a {
            bits |= 1 << 4;
        }
        at = child;
    }
    // The player to move at the end of the line loses: off a vanished
    // foothold, or with no move.
    bits |= 1 << if at.foothold(at.a) { 5 } else { 6 };
    bits
}

/// The simpler variants of one game, each handed to `with`: the
/// shrinker's work on a part of a case (see `shrink_candidates`).
fn simpler_games(game: &Game, with: &mut dyn FnMut(Game)) {
    let (h, w) = (game.height, game.width);
    for drop in 0..h {
        if h > 1 && game.a.0 as usize != drop && game.b.0 as usize != drop {
            let shift = |(r, c): Pos| (if r as usize > drop { r - 1 } else { r }, c);
            with(Game {
                height: h - 1,
                width: w,
                cells: without_line(&game.cells, w, Some(drop), None),
                a: shift(game.a),
                b: shift(game.b),
            });
        }
    }
    for drop in 0..w {
        if w > 1 && game.a.1 as usize != drop && game.b.1 as usize != drop {
            let shift = |(r, c): Pos| (r, if c as usize > drop { c - 1 } else { c });
            with(Game {
                height: h,
                width: w - 1,
                cells: without_line(&game.cells, w, None, Some(drop)),
                a: shift(game.a),
                b: shift(game.b),
            });
        }
    }
    for i in 0..h * w {
        if game.cells[i] && !is_player(game, i) {
            let mut fewer = game.clone();
            fewer.cells[i] = false;
            with(fewer);
        }
    }
}

impl Puzzle for Footholds {
    /// docs/guide/src/rules/footholds.md: boards of 1..=5 rows and columns, both players
    /// starting on a foothold of the board.
    fn within_original(case: &Case) -> bool {
        case.games.iter().all(|g| {
            let inside = |(r, c): (u8, u8)| usize::from(r) < g.height && usize::from(c) < g.width;
            (1..=5).contains(&g.height)
                && (1..=5).contains(&g.width)
                && g.cells.len() == g.height * g.width
                && inside(g.a)
                && inside(g.b)
                && g.foothold(g.a)
                && g.foothold(g.b)
        })
    }

    /// Positions the reference may visit per case before the case is a timeout.
    const FUEL: u64 = 2_000_000;

    type Case = Case;
    type Answer = Answer;

    /// One game in most cases, two in a fifth: boards up to the original 5x5.
    fn generate(u: &mut Unstructured<'_>, _limits: CaseLimits) -> Generated<Self> {
        let games = if u.ratio(4, 5)? { 1 } else { 2 };
        let games = (0..games)
            .map(|_| generate_game(u, ORIGINAL_MAX_SIDE))
            .collect::<arbitrary::Result<Vec<_>>>()?;
        Ok((Case { games }, None))
    }

    fn describe(case: &Case) -> String {
        let boards: Vec<String> = case
            .games
            .iter()
            .map(|g| {
                format!(
                    "{}x{} with {} footholds",
                    g.height,
                    g.width,
                    footholds_of(g)
                )
            })
            .collect();
        boards.join(", ")
    }

    /// The first game the solvers disagree on, with the reference's outcome of each of
    /// A's first moves (the position after it, with B to move).
    fn explain(case: &Case) -> Explanation {
        let core = case.solve().answer;
        let reference = case
            .solve_naively(&mut Fuel::new(Footholds::FUEL * 10))
            .map(|run| run.answer);
        let Ok(reference) = reference else {
            return Explanation {
                symptom: "reference-out-of-fuel".to_string(),
                report: "the reference ran out of fuel on this case".to_string(),
            };
        };
        let Some(g) = (0..core.len()).find(|&g| core[g] != reference[g]) else {
            return Explanation {
                symptom: "same-answers".to_string(),
                report: "core and reference give the same answers".to_string(),
            };
        };
        let game = &case.games[g];
        let mut report = format!(
            "game {}: core {} moves, reference {} moves\nboard (A, B, * both, # foothold, . none):\n{}",
            g + 1,
            core[g],
            reference[g],
            draw(game)
        );
        report.push_str("A's first moves, each answered by the reference (B to move after it):\n");
        for (next, after) in first_moves(game) {
            let outcome =
                lockstep_reference::footholds::prospect(&after, &mut Fuel::new(Footholds::FUEL));
            let said = match outcome {
                Ok(o) if o.wins => format!("B wins, {} more moves", o.moves),
                Ok(o) => format!("B loses, {} more moves", o.moves),
                Err(OutOfFuel) => "out of fuel".to_string(),
            };
            report.push_str(&format!("  A to ({},{}): {said}\n", next.0, next.1));
        }
        let symptom = format!("game-{}-core-{}-reference-{}", g + 1, core[g], reference[g]);
        Explanation { symptom, report }
    }

    /// Simpler variants: fewer games, then fewer rows and columns, then fewer footholds.
    fn shrink_candidates(case: &Case) -> Vec<Case> {
        crate::shrink::part_variants(&case.games, |games| Case { games }, simpler_games)
    }

    const RULE_BRANCHES: &'static [&'static str] = &RULE_BRANCHES;

    fn rule_branches(case: &Case) -> u64 {
        let games = case.games.iter().fold(0, |bits, g| bits | line_branches(g));
        games | u64::from(case.games.len() >= 2) << 8
    }

    /// In the first game the two answer differently: whether the winner
    /// differs, or the same player wins in more or fewer moves.
    fn signature(answers: crate::puzzle::Answers<'_, Self>) -> String {
        let (core, reference) = (answers.core, answers.reference);
        let Some((&c, &r)) = core.iter().zip(reference).find(|(c, r)| c != r) else {
            return "a-game-missing".to_string();
        };
        if c % 2 != r % 2 {
            "winner-differs"
        } else if c > r {
            "same-winner-core-more-moves"
        } else {
            "same-winner-core-fewer-moves"
        }
        .to_string()
    }

    /// `lockstep verify`'s levels (the rule page's "Sizes").
    const LEVELS: crate::enumerate::Levels<Self::Case> = levels::LEVELS;
}

impl crate::puzzle::Traceable for Footholds {
    /// For `solve --reference` and `--trace`: a full 6x6 board's trace,
    /// the heaviest 6x6 game (its line searches each position it passes,
    /// between 50 and 60 million positions in all, some 5 s of an
    /// optimised build), fits; a 7x7 or 8x8 board, whose solve alone would
    /// run for hours, stops with the message after some 8 s (half a minute
    /// unoptimised).
    const SOLVE_FUEL: u64 = 100_000_000;

    fn trace(case: &Self::Case, fuel: &mut Fuel) -> Option<String> {
        trace::trace(case, fuel)
    }
}

impl crate::puzzle::Joinable for Footholds {
    /// The games of every case, in order, in one input.
    fn join(cases: &[Self::Case]) -> Option<Self::Case> {
        Some(Self::Case {
            games: cases.iter().flat_map(|c| c.games.iter().cloned()).collect(),
        })
    }
}

/// A game's footholds, counted on its cells: not with core's `Game::mask`,
/// since the generator and a finding's description run outside the check,
/// where a mutant of core that panics (`* -> /` in `mask`) would crash the
/// run instead of being found.
fn footholds_of(game: &Game) -> usize {
    game.cells.iter().filter(|&&foothold| foothold).count()
}
