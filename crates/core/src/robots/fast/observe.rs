//! The solver's entry points, each one run of the engine with an observer:
//! [`solve`] keeps a digest of the moves, [`trace`] records them, [`events`]
//! collects the rule branches reached.

use super::{Engine, Observer};
use crate::digest::Digest;
use crate::robots::{Answer, Board, Case, Feature, Step, Trace, MOVE_LIMIT};

/// The solver's observer: a digest of the moves and, when `COUNT`, the
/// rule branches reached too (without, `feature` compiles to nothing).
struct DigestObserver<const COUNT: bool> {
    digest: Digest,
    features: u64,
}

impl<const COUNT: bool> Observer for DigestObserver<COUNT> {
    #[inline]
    fn step(&mut self, step: &Step) -> bool {
        self.digest.push(step.packed());
        true
    }
    #[inline]
    fn feature(&mut self, feature: Feature) {
        if COUNT {
            self.features |= feature.bit();
        }
    }
}

struct Recorder {
    steps: Vec<Step>,
    max_steps: usize,
}

impl Observer for Recorder {
    fn step(&mut self, step: &Step) -> bool {
        self.steps.push(*step);
        self.steps.len() < self.max_steps
    }
}

struct FeatureObserver(u64);

impl Observer for FeatureObserver {
    fn step(&mut self, _: &Step) -> bool {
        true
    }
    fn feature(&mut self, feature: Feature) {
        self.0 |= feature.bit();
    }
}

thread_local! {
    /// One engine per thread, reused: `reset` clears what a game leaves behind, so
    /// a case costs no allocation and no fresh stamp array.
    static ENGINE: std::cell::RefCell<Box<Engine>> = std::cell::RefCell::new(Engine::new());
}

fn run_limited<O: Observer>(
    case: &Case,
    move_limit: u32,
    observer: &mut O,
) -> (Answer, Option<Board>) {
    // Observers only record; none calls back into the solver, so the engine is
    // never borrowed twice.
    ENGINE.with_borrow_mut(|engine| run_on(engine, case, move_limit, observer))
}

fn run_on<O: Observer>(
    engine: &mut Engine,
    case: &Case,
    move_limit: u32,
    observer: &mut O,
) -> (Answer, Option<Board>) {
    let mut answer = Vec::with_capacity(case.games.len());
    for (i, game) in case.games.iter().enumerate() {
        match engine.play(i as u16, game, move_limit, observer) {
            Some(result) => answer.push(result),
            None => return (answer, Some(engine.board())),
        }
    }
    // The last game's board; a case with no games has none (the engine may still
    // hold an earlier case's).
    let board = (!case.games.is_empty()).then(|| engine.board());
    (answer, board)
}

/// Solves every game of a case: the answer and the digest of the move trace.
pub fn solve(case: &Case) -> crate::Run<Answer> {
    solve_limited(case, MOVE_LIMIT)
}

/// The solve of [`crate::Model`] with games stopped after `move_limit` moves instead of
/// [`MOVE_LIMIT`]: the same code, so that small limits, which games do
/// reach, check the stop that the judge's limit hides (docs/guide/src/rules/robots.md).
pub fn solve_limited(case: &Case, move_limit: u32) -> crate::Run<Answer> {
    solve_observed::<false>(case, move_limit).0
}

/// The judge's solve ([`crate::Model::solve`]) and [`events`] from one
/// run: what `lockstep verify` counts the rule branches from, in the run
/// that answers.
pub fn solve_counting(case: &Case) -> (crate::Run<Answer>, u64) {
    solve_observed::<true>(case, MOVE_LIMIT)
}

/// The one run behind [`solve_limited`] and [`solve_counting`]: the answer,
/// its digest, and the rule branches when `COUNT` (else 0).
fn solve_observed<const COUNT: bool>(case: &Case, move_limit: u32) -> (crate::Run<Answer>, u64) {
    let mut observer = DigestObserver::<COUNT> {
        digest: Digest::new(),
        features: 0,
    };
    let (answer, _) = run_limited(case, move_limit, &mut observer);
    let run = crate::Run {
        answer,
        digest: observer.digest.value(),
    };
    (run, observer.features)
}

/// Plays a case recording at most `max_steps` moves; returns them with the board
/// after the last one.
pub fn trace(case: &Case, max_steps: usize) -> Trace {
    if max_steps == 0 {
        // No move: the first game's starting board (none for a case with no
        // games), from the thread's engine.
        let board = case.games.first().map(|game| {
            ENGINE.with_borrow_mut(|engine| {
                engine.reset(game);
                engine.board()
            })
        });
        return Trace {
            steps: Vec::new(),
            board,
        };
    }
    let mut recorder = Recorder {
        steps: Vec::new(),
        max_steps,
    };
    let (_, board) = run_limited(case, MOVE_LIMIT, &mut recorder);
    Trace {
        steps: recorder.steps,
        board,
    }
}

/// The rule branches the core went through on a case, as [`Feature::bit`]s.
pub fn events(case: &Case) -> u64 {
    events_limited(case, MOVE_LIMIT)
}

/// [`events`] under a move limit of `move_limit` ([`solve_limited`]).
pub fn events_limited(case: &Case, move_limit: u32) -> u64 {
    let mut observer = FeatureObserver(0);
    run_limited(case, move_limit, &mut observer);
    observer.0
}
