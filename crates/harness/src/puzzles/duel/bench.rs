//! Duel's bench lines: turn resolutions per second (core without and with
//! the event digest, reference), and joint actions per second resolved the way
//! the searches resolve them.

use crate::bench::{side_by_side, BenchOptions, SideBySide};
use crate::puzzles::Duel;
use lockstep_core::duel::{self as model, Actions, State, Turn, LAST_TURN};

/// Turn resolutions per second, core (without and with the event digest)
/// against the reference, on 100,000 generated turns; and joint actions per
/// second over several states' turn matrices, as searches resolve them.
/// What the bench runs of this puzzle beyond its generated cases.
pub const EXTRAS: crate::bench::Extras = crate::bench::Extras {
    lines: extras,
    reset_caches: crate::bench::no_caches,
};

pub fn extras(options: &BenchOptions) -> Vec<String> {
    let [free, traced] = turn_rates(options.seed, 100_000, options.rounds);
    let matrix = matrix_rates(options.seed, 1_000_000, options.rounds.max(1));
    let [once, per_pair] = matrix.timing.expect("timed: at least one round");
    vec![
        format!(
            "turn resolutions/s: core {:.2} M (no events), core {:.2} M (digest), reference {:.2} M; {:.1}x, {:.1}x",
            free.core_rate / 1e6,
            traced.core_rate / 1e6,
            free.reference_rate / 1e6,
            free.ratio,
            traced.ratio
        ),
        format!(
            "search-shaped, every joint action of {} states ({} in all): core {:.2} M/s (lists read once), {:.2} M/s (resolve_turn per pair), reference {:.2} M/s; {:.1}x, {:.1}x; results {}",
            matrix.states,
            matrix.joint_actions,
            once.core_rate / 1e6,
            per_pair.core_rate / 1e6,
            once.reference_rate / 1e6,
            once.ratio,
            per_pair.ratio,
            if matrix.agree { "agree" } else { "DIFFER" }
        ),
    ]
}

/// [`matrix_rates`]' measure.
#[derive(Debug, Clone, Copy)]
pub struct MatrixRates {
    pub states: usize,
    pub joint_actions: usize,
    /// Joint actions per second against the reference, with the core reading
    /// each list once, then through `resolve_turn` per pair (both lists read
    /// again every time, as the reference does); `None` when not timed.
    pub timing: Option<[SideBySide; 2]>,
    /// Whether the three resolved the same joint actions alike: checked on an
    /// untimed pass, by the number of results and the sum of a hash of each.
    pub agree: bool,
}

/// Joint actions resolved per second the way a search resolves them: every
/// joint action of one state's turn, state after state, until `joint_actions`
/// are reached. The states are the generator's turns, leaving out those whose
/// matrix is over a quarter of the total (so at least four states take part;
/// the full-skill opening, 893,025 joint actions, is `bench duel-search`'s
/// measure). The core reads each list once
/// ([`lockstep_core::duel::search::for_each_joint_action`]), as its search does;
/// the reference resolves each pair of lists with its one resolver, as its
/// search (`lockstep_reference::duel_search`) does. Timed as the bench times
/// cases ([`side_by_side`]), for `rounds` rounds (0: the agreement
/// check alone).
pub fn matrix_rates(seed: u64, joint_actions: usize, rounds: usize) -> MatrixRates {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    use std::hint::black_box;
    type Lists = [Vec<Actions>; 2];
    /// One side's pass over every joint action, handing each result on.
    type Side = fn(&[(State, Lists)], &mut dyn FnMut(&model::TurnResult));
    let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
    let mut states: Vec<(State, Lists)> = Vec::new();
    let mut total = 0;
    let mut index = 0;
    while total < joint_actions {
        for turn in
            crate::generate::generate_case::<Duel>(seed, 0, index, &mut buf).unwrap_or_default()
        {
            let lists =
                [0, 1].map(|p| lockstep_reference::duel_search::legal_lists(&turn.state, p));
            let size = lists[0].len() * lists[1].len();
            if total < joint_actions && size <= joint_actions / 4 && turn.state.turn <= LAST_TURN {
                total += size;
                states.push((turn.state, lists));
            }
        }
        index += 1;
    }
    // Each side hands every result to `each`: a hash on the check pass, only
    // kept alive (`black_box`) on the timed ones. Generic, so both passes are
    // compiled as plain loops.
    fn core(states: &[(State, Lists)], mut each: impl FnMut(&model::TurnResult)) {
        for (state, _) in states {
            model::search::for_each_joint_action(black_box(state), &mut each);
        }
    }
    fn core_per_pair(states: &[(State, Lists)], mut each: impl FnMut(&model::TurnResult)) {
        for (state, [rows, columns]) in states {
            for row in rows {
                for column in columns {
                    each(&model::resolve_turn(black_box(state), &[*row, *column]));
                }
            }
        }
    }
    fn reference(states: &[(State, Lists)], mut each: impl FnMut(&model::TurnResult)) {
        for (state, [rows, columns]) in states {
            for row in rows {
                for column in columns {
                    let mut events = Vec::new();
                    let r = lockstep_reference::duel::resolve_turn(
                        black_box(state),
                        &[*row, *column],
                        &mut events,
                    );
                    black_box(&events);
                    each(&r);
                }
            }
        }
    }
    let hasher = BuildHasherDefault::<DefaultHasher>::default();
    let check = |run: Side| {
        let (mut count, mut sum) = (0usize, 0u64);
        run(&states, &mut |r| {
            count += 1;
            sum = sum.wrapping_add(hasher.hash_one(r));
        });
        (count, sum)
    };
    let sides = [
        check(|s, f| core(s, f)),
        check(|s, f| reference(s, f)),
        check(|s, f| core_per_pair(s, f)),
    ];
    let agree = sides.iter().all(|&side| side == (total, sides[1].1));
    let keep = |r: &model::TurnResult| {
        black_box(r);
    };
    let time = |side: &dyn Fn()| {
        side_by_side(
            rounds,
            total as f64,
            || {},
            side,
            || reference(&states, keep),
        )
    };
    MatrixRates {
        states: states.len(),
        joint_actions: total,
        timing: (rounds > 0).then(|| {
            [
                time(&|| core(&states, keep)),
                time(&|| core_per_pair(&states, keep)),
            ]
        }),
        agree,
    }
}

/// Turn resolutions per second on one thread, on the same generated turns: the
/// core as a search calls it (no events), then with its trace digest, each
/// against the reference, timed as the bench times cases
/// ([`side_by_side`]: a warm-up pass before each timed pass,
/// alternating, medians of `rounds`).
pub fn turn_rates(seed: u64, turns: usize, rounds: usize) -> [SideBySide; 2] {
    use std::hint::black_box;
    let mut buf = vec![0u8; lockstep_search::seeds::CASE_BYTES];
    let mut all: Vec<Turn> = Vec::with_capacity(turns);
    let mut index = 0;
    while all.len() < turns {
        if let Some(case) = crate::generate::generate_case::<Duel>(seed, 0, index, &mut buf) {
            all.extend(case);
        }
        index += 1;
    }
    all.truncate(turns);
    let reference = || {
        for t in &all {
            let mut events = Vec::new();
            black_box(lockstep_reference::duel::resolve_turn(
                black_box(&t.state),
                &t.actions,
                &mut events,
            ));
            black_box(&events);
        }
    };
    let time = |core: &dyn Fn()| side_by_side(rounds, all.len() as f64, || {}, core, reference);
    [
        time(&|| {
            for t in &all {
                black_box(model::resolve_turn(
                    black_box(&t.state),
                    black_box(&t.actions),
                ));
            }
        }),
        time(&|| {
            for t in &all {
                let mut digest = lockstep_core::digest::Digest::new();
                black_box(model::resolve_traced(
                    black_box(&t.state),
                    &t.actions,
                    &mut digest,
                ));
                black_box(digest.value());
            }
        }),
    ]
}
