//! The time a run will take, said before it starts: a short timed sample
//! of the run's own positions, spread over all of them, so that a run of
//! hours says so in its first second instead of leaving the user to guess
//! (and a level whose cases cost more than the first ones counts at its
//! share).
//!
//! The sample's checks are thrown away ([`Check::sample`]): they are not
//! a verdict, and the run checks the same positions again in its order.

use crate::{Address, CaseSource, Check, Made, Plan};
use std::ops::Range;
use std::time::{Duration, Instant};

/// What a sample says of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// The positions the run takes, and what they are (`cases`, `indexes`).
    pub positions: u64,
    pub unit: &'static str,
    /// The cases those positions hold, when the source counts them apart
    /// from its positions ([`CaseSource::cases_among`]) and the run takes
    /// them all.
    pub cases: Option<u64>,
    /// Positions timed.
    pub sampled: u64,
    /// The run's time on its jobs, at the sample's rate.
    pub seconds: f64,
    /// The time of one case, on one job: the sample's time over the cases
    /// it made (`None` when it made none).
    pub per_case: Option<f64>,
    /// The run's jobs, which the times are divided among.
    pub jobs: usize,
    /// Each size of a run over levels, with the run's time up to the end
    /// of its level (each level at its own sampled rate): empty for a
    /// source without sizes, or a run cut short by a case cap.
    pub sizes: Vec<(u32, f64)>,
}

/// The time a run may take and still be called short: what the estimate
/// names a size for when the run asked for would take longer.
pub const AN_HOUR: f64 = 3600.0;

impl Estimate {
    /// The largest size whose levels (from the run's first) fit in
    /// [`AN_HOUR`], when the run's last size does not: `Some(Ok((size,
    /// seconds)))`, or `Some(Err((first size, seconds)))` when not even the
    /// first fits; `None` when the run fits, or has no sizes.
    pub fn size_for_an_hour(&self) -> Option<Result<(u32, f64), (u32, f64)>> {
        let &(_, last) = self.sizes.last()?;
        if last <= AN_HOUR {
            return None;
        }
        let fits = self.sizes.iter().rev().find(|&&(_, s)| s <= AN_HOUR);
        Some(match fits {
            Some(&fit) => Ok(fit),
            None => Err(self.sizes[0]),
        })
    }
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(cases) = self.cases {
            write!(f, "{cases} cases at ")?;
        }
        write!(
            f,
            "{} {}: about {} (timed on a sample of {} spread over them)",
            self.positions,
            self.unit,
            lockstep_text::duration(self.seconds),
            self.sampled
        )?;
        let Some(hour) = self.size_for_an_hour() else {
            return Ok(());
        };
        let &(last, seconds) = self.sizes.last().expect("a run with sizes");
        let rate = match self.per_case {
            Some(per_case) => format!(
                "at about {} a case on {}, ",
                milliseconds(per_case),
                lockstep_text::counted(self.jobs as u64, "job")
            ),
            None => String::new(),
        };
        write!(
            f,
            "\n{rate}up to size {last} takes about {}; ",
            lockstep_text::duration(seconds)
        )?;
        match hour {
            Ok((size, seconds)) => write!(
                f,
                "up to size {size} fits in an hour (about {}): --size {size}",
                lockstep_text::duration(seconds)
            ),
            Err((first, seconds)) => write!(
                f,
                "no size fits in an hour: size {first} alone takes about {}",
                lockstep_text::duration(seconds)
            ),
        }
    }
}

/// A time of a case in words: milliseconds, with a decimal below ten.
fn milliseconds(seconds: f64) -> String {
    match seconds * 1000.0 {
        ms if ms < 10.0 => format!("{ms:.1} ms"),
        ms => format!("{ms:.0} ms"),
    }
}

/// The sample's bounds: this long at most (past its first batch), and
/// this many batches at most; but at least `SAMPLE_FEW` batches when they
/// take no longer than `SAMPLE_LONGEST` (a slow program's case each: four
/// of an interpreter's, half a second, made the hour's size a guess).
const SAMPLE_TIME: Duration = Duration::from_millis(500);
const SAMPLE_BATCHES: u64 = 256;
const SAMPLE_FEW: u64 = 12;
const SAMPLE_LONGEST: Duration = Duration::from_secs(2);

/// The `i`th number of the van der Corput sequence in base 2, in [0, 1):
/// each prefix of the sequence is spread evenly over the interval, so a
/// sample cut short by its time is still spread over the whole run.
fn spread(i: u64) -> f64 {
    i.reverse_bits() as f64 / 2f64.powi(64)
}

/// The time a part of the sample took, and what it held.
#[derive(Debug, Clone, Copy, Default)]
struct Timed {
    positions: u64,
    cases: u64,
    seconds: f64,
}

impl Timed {
    fn add(&mut self, other: Timed) {
        self.positions += other.positions;
        self.cases += other.cases;
        self.seconds += other.seconds;
    }

    /// Seconds a position.
    fn rate(&self) -> Option<f64> {
        (self.positions > 0).then(|| self.seconds / self.positions as f64)
    }
}

/// The run's levels as ranges of positions (those below `total`, and not
/// empty), or the whole run as one range for a source without sizes.
fn parts(level_ends: &[(u32, u64)], total: u64) -> Vec<(Option<u32>, Range<u64>)> {
    let mut parts = Vec::new();
    let mut start = 0;
    for &(size, end) in level_ends {
        let end = end.min(total);
        if end > start {
            parts.push((Some(size), start..end));
        }
        start = start.max(end);
    }
    if parts.is_empty() {
        parts.push((None, 0..total));
    }
    parts
}

/// The first position of the `i`th batch of the sample: every other batch
/// spread over the whole run, and the others taking each part (each
/// level) in turn, spread over it, so that a small level costing more a
/// case than the large ones is timed too.
fn sampled_at(i: u64, parts: &[(Option<u32>, Range<u64>)], total: u64) -> u64 {
    let (round, by_part) = (i / 2, i % 2 == 1);
    let range = match by_part {
        true => &parts[(round % parts.len() as u64) as usize].1,
        false => &(0..total),
    };
    let round = match by_part {
        true => round / parts.len() as u64,
        false => round,
    };
    let len = range.end - range.start;
    range.start + ((spread(round) * len as f64) as u64).min(len - 1)
}

/// Times a sample of the run `plan` describes over `source`: `None` unless
/// the source has an end of its own (an enumeration: `verify`,
/// `--exhaustive`), and for a run of one case (`--case`). Stops early, with what it timed, on a signal.
pub fn estimate<S: CaseSource + ?Sized, K: Check<S::Case>>(
    plan: &Plan,
    source: &S,
    check: &K,
) -> Option<Estimate> {
    // Only a source with an end of its own (an enumeration): a campaign's
    // sample would run a user's generator and write its dumps.
    let end = source.positions()?;
    let total = crate::driver::total_positions(plan, source)?;
    if plan.only.is_some() || total == 0 {
        return None;
    }
    let whole = total >= end;
    let level_ends = match whole {
        true => source.level_ends(),
        false => Vec::new(),
    };
    let parts = parts(&level_ends, total);
    let batch = check.batch().max(1);
    let mut timed = vec![Timed::default(); parts.len()];
    let mut warm_up = Timed::default();
    let mut sampled = 0;
    let mut start = Instant::now();
    let mut made = Vec::new();
    for i in 0..SAMPLE_BATCHES + 1 {
        let enough = match i > SAMPLE_FEW {
            true => SAMPLE_TIME,
            false => SAMPLE_LONGEST,
        };
        if (i > 1 && start.elapsed() >= enough) || sampled >= total {
            break;
        }
        if lockstep_stop::interrupted() {
            return None;
        }
        // The first batch warms up what every job builds once (footholds'
        // 16 MiB table, checkers' explored layers): not timed, as the run
        // pays it once and not per case. (It made footholds' night scope
        // read 27 s for a 3.3 s run.)
        if i == 1 {
            start = Instant::now();
        }
        let from = sampled_at(i, &parts, total);
        let at = parts.partition_point(|(_, r)| r.end <= from);
        let to = from.saturating_add(batch).min(parts[at].1.end);
        let clock = Instant::now();
        made.clear();
        source.cases(from..to, &mut made);
        let cases: Vec<(Address, S::Case)> = made
            .drain(..)
            .filter_map(|(p, made)| match made {
                Made::Case(case) => Some((source.address(p), case)),
                Made::Nothing | Made::Problem(_) => None,
            })
            .collect();
        let count = cases.len() as u64;
        if !cases.is_empty() {
            check.sample(cases);
        }
        let this = Timed {
            positions: to - from,
            cases: count,
            seconds: clock.elapsed().as_secs_f64(),
        };
        match i {
            0 => warm_up = this,
            _ => timed[at].add(this),
        }
        sampled += to - from;
    }
    let mut estimate = estimated(plan, source, &parts, &timed, warm_up, whole);
    // Batches of a small level may be timed more than once.
    estimate.sampled = sampled.min(total);
    Some(estimate)
}

/// The estimate from the sample's times: each part at its own rate, a part
/// not timed at the rate of all (the warm-up's when nothing else was).
fn estimated<S: CaseSource + ?Sized>(
    plan: &Plan,
    source: &S,
    parts: &[(Option<u32>, Range<u64>)],
    timed: &[Timed],
    warm_up: Timed,
    whole: bool,
) -> Estimate {
    let mut all = Timed::default();
    timed.iter().for_each(|t| all.add(*t));
    if all.positions == 0 {
        all = warm_up;
    }
    let jobs = plan.jobs.max(1);
    let overall = all.rate().unwrap_or(0.0);
    let mut seconds = 0.0;
    let mut sizes = Vec::new();
    for ((size, range), t) in parts.iter().zip(timed) {
        seconds += t.rate().unwrap_or(overall) * (range.end - range.start) as f64 / jobs as f64;
        if let Some(size) = size {
            sizes.push((*size, seconds));
        }
    }
    Estimate {
        positions: parts.last().map_or(0, |(_, r)| r.end),
        unit: source.unit(),
        cases: source.cases_among().filter(|_| whole),
        sampled: 0,
        seconds,
        per_case: (all.cases > 0).then(|| all.seconds / all.cases as f64),
        jobs,
        sizes,
    }
}

#[cfg(test)]
mod tests;
