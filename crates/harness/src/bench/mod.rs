//! `lockstep bench`: the core and the reference on the same generated cases, timed
//! side by side in one run.
//!
//! The machine is shared and noisy, so each solver is timed over the whole case set
//! several times, alternating core and reference, and the medians are reported; the
//! ratio is the median of the per-round ratios, so that a slow moment hits both
//! sides of one round rather than skewing one side only. Cases the reference cannot
//! finish within its fuel are left out of both sides.
//!
//! Each timed pass over the cases is preceded by an untimed pass of the same
//! solver over the same cases (for puzzles with caches, the caches are reset
//! between the two, so the timed pass starts cold on its own caches). Both sides
//! are thereby measured warm: without it, a short pass of the fast solver runs
//! right after the other solver has filled the processor's caches and branch
//! predictors with its own work, and the ratio measured that hand-over rather
//! than the solvers: a checkers core pass over 2000 cases lasts about half a
//! millisecond, short enough to be dominated by that hand-over (figures in
//! `docs/notes/2026-12-01-measurements.md`).

pub mod overhead;
pub mod verify;

use crate::generate::generate_case;
use crate::puzzle::{Counting, Verifiable};

use crate::shrink::Sideways;
use lockstep_core::Model;
use lockstep_reference::Fuel;
use lockstep_reference::Naive;
use lockstep_search::seeds::CASE_BYTES;
use std::hint::black_box;
use std::time::Instant;

#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchOptions {
    /// Cases per round of the generic line.
    pub cases: usize,
    pub rounds: usize,
    pub seed: u64,
    /// Also the puzzle's own lines ([`Extras`]), whose sizes are
    /// their own (the rounds bound most of them).
    pub extras: bool,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchResult {
    pub cases: usize,
    /// Cases left out because the reference ran out of fuel.
    pub skipped: usize,
    pub rounds: usize,
    pub core_per_second: f64,
    pub reference_per_second: f64,
    /// Median over rounds of (reference time / core time).
    pub speedup: f64,
    /// Cases per second of a one-job campaign (`lockstep fuzz --jobs 1`)
    /// over the same case indices; median of the rounds ([`overhead`]).
    pub campaign_per_second: f64,
    /// Cases per second of the generator alone over those indices, with the
    /// reference work a generator does to hand its result over.
    pub generate_per_second: f64,
    /// The campaign's time beyond generation, core and reference, each timed
    /// alone on the same cases and counted once, as a share of their sum
    /// (0.05: 5% more); median of the rounds' shares ([`overhead`]).
    pub overhead: f64,
    /// `lockstep verify`'s cases per second over the first cases of the
    /// levels, as a share of core plus reference's on the same cases (1.0:
    /// no cost of its own); median of the rounds ([`verify`]).
    pub verify_share: f64,
    /// With the extras: `verify --scope ci` whole, as it runs by default,
    /// against core and reference on every case ([`verify::scope_share`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_scope: Option<verify::ScopeShare>,
    /// The puzzle's own lines ([`Extras`]).
    pub extra: Vec<String>,
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The median wall time of `runs` calls of `f`, with `before` run (untimed) ahead
/// of each.
pub fn median_time(runs: usize, mut before: impl FnMut(), mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            before();
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    median(&mut times)
}

/// Medians of a [`side_by_side`] measurement.
#[derive(Debug, Clone, Copy)]
pub struct SideBySide {
    /// Units of work per second.
    pub core_rate: f64,
    pub reference_rate: f64,
    /// Median over rounds of (reference time / core time).
    pub ratio: f64,
}

/// Times a core pass and a reference pass over the same work (`units` of it per
/// pass, e.g. cases or moves), alternating, for `rounds` rounds: per round an
/// untimed warm-up pass and a timed pass of the core, then of the reference (see
/// the module docs). `reset` runs, untimed, before each core pass, so that a
/// core with caches starts its timed pass on cold caches of its own.
pub fn side_by_side(
    rounds: usize,
    units: f64,
    mut reset: impl FnMut(),
    mut core_pass: impl FnMut(),
    mut reference_pass: impl FnMut(),
) -> SideBySide {
    let (mut core_rates, mut reference_rates, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        reset();
        core_pass();
        reset();
        let start = Instant::now();
        core_pass();
        let core_time = start.elapsed().as_secs_f64();
        reference_pass();
        let start = Instant::now();
        reference_pass();
        let reference_time = start.elapsed().as_secs_f64();
        core_rates.push(units / core_time);
        reference_rates.push(units / reference_time);
        ratios.push(reference_time / core_time);
    }
    SideBySide {
        core_rate: median(&mut core_rates),
        reference_rate: median(&mut reference_rates),
        ratio: median(&mut ratios),
    }
}

/// What the bench knows of a puzzle beyond its generated cases: its own
/// lines (fixed hard inputs, whole games, perft) and how to forget what its
/// core caches across cases, so that a timed round starts cold. `EXTRAS` of
/// the puzzle's `bench.rs`, which the registry hands over beside the puzzle
/// (the list's `bench` flag); [`NO_EXTRAS`] for a puzzle without one. They
/// are the bench's, not the adapter's: an adapter is what every driver needs.
#[derive(Debug, Clone, Copy)]
pub struct Extras {
    /// The puzzle's own bench lines (`lockstep bench` without --no-extras).
    pub lines: fn(&BenchOptions) -> Vec<String>,
    /// Forgets the core's caches (a transposition table, say); results never
    /// depend on them.
    pub reset_caches: fn(),
}

/// The extras of a puzzle that has none: no lines, no caches.
pub const NO_EXTRAS: Extras = Extras {
    lines: |_| Vec::new(),
    reset_caches: no_caches,
};

/// The cold-round reset of a core that caches nothing across cases.
pub fn no_caches() {}

/// The bench table's heading: what was measured, then the column names.
pub struct Header<'a>(pub &'a BenchOptions);

impl std::fmt::Display for Header<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = self.0;
        writeln!(
            f,
            "{} cases per round, {} round{}, seed {}; medians; one thread",
            o.cases,
            o.rounds,
            if o.rounds == 1 { "" } else { "s" },
            o.seed
        )?;
        writeln!(
            f,
            "{:<12} {:>14} {:>16} {:>9} {:>8} {:>16} {:>16} {:>9} {:>7}",
            "puzzle",
            "core cases/s",
            "reference cases/s",
            "speedup",
            "skipped",
            "campaign cases/s",
            "generate cases/s",
            "overhead",
            "verify"
        )
    }
}

/// One puzzle's row of the bench table, then its own lines, indented.
pub struct BenchLine<'a>(pub &'a str, pub &'a BenchResult);

impl std::fmt::Display for BenchLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let BenchLine(name, r) = self;
        writeln!(
            f,
            "{:<12} {:>14.0} {:>16.0} {:>8.1}x {:>8} {:>16.0} {:>16.0} {:>+8.1}% {:>6.0}%",
            name,
            r.core_per_second,
            r.reference_per_second,
            r.speedup,
            r.skipped,
            r.campaign_per_second,
            r.generate_per_second,
            100.0 * r.overhead,
            100.0 * r.verify_share
        )?;
        if let Some(v) = &r.verify_scope {
            writeln!(
                f,
                "  verify --scope ci: {} cases ({} classes checked), {:.0} cases/s; \
                 core + reference on every case {:.0} cases/s; verify {:.0}% of theirs",
                v.cases,
                v.classes,
                v.verify_per_second,
                v.alone_per_second,
                100.0 * v.share
            )?;
        }
        for line in &r.extra {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

pub fn bench<P: Verifiable + Sideways + Counting>(
    options: &BenchOptions,
    extras: Extras,
) -> BenchResult {
    let mut buf = vec![0u8; CASE_BYTES];
    let mut cases = Vec::with_capacity(options.cases);
    let mut skipped = 0;
    let mut index = 0;
    while cases.len() < options.cases {
        if let Some(case) = generate_case::<P>(options.seed, 0, index, &mut buf) {
            if case.solve_naively(&mut Fuel::new(P::FUEL)).is_ok() {
                cases.push(case);
            } else {
                skipped += 1;
            }
        }
        index += 1;
    }

    let measured = side_by_side(
        options.rounds,
        cases.len() as f64,
        extras.reset_caches,
        || {
            for case in &cases {
                black_box(P::Case::solve(black_box(case)));
            }
        },
        || {
            for case in &cases {
                let _ = black_box(black_box(case).solve_naively(&mut Fuel::new(P::FUEL)));
            }
        },
    );
    // The campaign over the same case indices, and its overhead beyond the
    // three parts timed alone.
    let harness = overhead::overhead::<P>(options.seed, index, options.rounds, extras.reset_caches);
    let verify_share =
        verify::verify_share::<P>(options.cases, options.rounds, extras.reset_caches);
    BenchResult {
        campaign_per_second: harness.campaign_per_second,
        generate_per_second: harness.generate_per_second,
        overhead: harness.overhead,
        verify_share,
        cases: cases.len(),
        skipped,
        rounds: options.rounds.max(1),
        core_per_second: measured.core_rate,
        reference_per_second: measured.reference_rate,
        speedup: measured.ratio,
        verify_scope: options
            .extras
            .then(|| verify::scope_share::<P>(options.rounds, extras.reset_caches)),
        extra: if options.extras {
            (extras.lines)(options)
        } else {
            Vec::new()
        },
    }
}
