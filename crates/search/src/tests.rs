//! The driver on a toy source and check: numbers, failing where a rule says,
//! with jobs made slow on purpose, so that what the driver promises is seen
//! to hold whichever job gets where first.

use super::*;

/// Positions are the numbers themselves; every `nothing`-th makes no case,
/// and `problem` (if any) is a source failure.
struct Numbers {
    len: Option<u64>,
    nothing: u64,
    problem: Option<u64>,
}

impl CaseSource for Numbers {
    type Case = u64;

    fn cases(&self, positions: std::ops::Range<u64>, out: &mut Vec<(u64, Made<u64>)>) {
        for p in positions {
            let made = if Some(p) == self.problem {
                Made::Problem(format!("no case at {p}"))
            } else if self.nothing > 0 && p % self.nothing == self.nothing - 1 {
                Made::Nothing
            } else {
                Made::Case(p)
            };
            out.push((p, made));
        }
    }

    fn address(&self, position: u64) -> Address {
        Address::Seed(position)
    }

    fn position(&self, address: &Address) -> Option<u64> {
        match address {
            Address::Seed(n) => Some(*n),
            _ => None,
        }
    }

    fn positions(&self) -> Option<u64> {
        self.len
    }
}

/// Fails on multiples of `every` (its kind: the number's last digit), skips
/// numbers ending in 5, sleeps on odd numbers so that the job that has them
/// falls behind.
struct Multiples {
    every: u64,
    slow: bool,
}

#[derive(Default)]
struct Seen(Vec<u64>);

impl Tally for Seen {
    fn add(&mut self, other: Seen) {
        self.0.extend(other.0);
    }
}

impl Check<u64> for Multiples {
    type Found = u64;
    type Tally = Seen;
    fn batch(&self) -> u64 {
        3
    }

    fn check(&self, cases: Vec<(Address, u64)>, tally: &mut Seen, out: &mut Vec<Checked<u64>>) {
        for (_, n) in cases {
            if self.slow && n % 2 == 1 {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            tally.0.push(n);
            let checked = if n > 0 && n % self.every == 0 {
                Checked::Fail(n)
            } else if n % 10 == 5 {
                Checked::Skip
            } else {
                Checked::Pass
            };
            out.push(checked);
        }
    }

    type Kind = String;

    fn kind(&self, found: &u64) -> String {
        format!("ends in {}", found % 10)
    }

    fn progress(&self, counts: &Counts, _: f64) -> String {
        format!("{} cases", counts.cases)
    }
}

fn numbers(len: Option<u64>) -> Numbers {
    Numbers {
        len,
        nothing: 0,
        problem: None,
    }
}

/// Failing on multiples of `every`, the odd numbers slow.
fn slowly(every: u64) -> Multiples {
    Multiples { every, slow: true }
}

/// Failing on multiples of `every`, none slow.
fn quickly(every: u64) -> Multiples {
    Multiples { every, slow: false }
}

fn plan(jobs: usize, max_cases: Option<u64>) -> Plan {
    Plan {
        max_cases,
        ..Plan::cases(
            0,
            0,
            jobs,
            crate::shrinking::Budget {
                attempts: 1,
                time: None,
            },
        )
    }
}

#[test]
fn a_cap_takes_exactly_the_first_positions_whatever_the_jobs() {
    for jobs in 1..=4 {
        let check = slowly(1000);
        let out = search(&plan(jobs, Some(37)), &numbers(None), &check);
        let mut seen = out.tally.0;
        seen.sort_unstable();
        assert_eq!(seen, (0..37).collect::<Vec<_>>(), "{jobs} jobs");
        assert_eq!(out.counts.cases, 37);
        // 5, 15, 25, 35 are skipped.
        assert_eq!((out.counts.passed, out.counts.skipped), (33, 4));
        assert!(out.failures.is_empty() && out.problem.is_none());
    }
}

#[test]
fn the_lowest_failure_is_kept_and_every_position_before_it_is_checked() {
    for jobs in 1..=4 {
        // Multiples of 6: the slow odd numbers hold back the jobs that have
        // them, so 12 or 18 may be met before 6 in wall time.
        let check = slowly(6);
        let out = search(&plan(jobs, Some(1000)), &numbers(None), &check);
        assert_eq!(out.failures.len(), 1, "{jobs} jobs");
        let failure = &out.failures[0];
        assert_eq!((failure.position, failure.found), (6, 6), "{jobs} jobs");
        assert_eq!(failure.address, Address::Seed(6));
        let seen: std::collections::BTreeSet<u64> = out.tally.0.into_iter().collect();
        assert!((0..=6).all(|n| seen.contains(&n)), "{jobs} jobs: {seen:?}");
    }
}

#[test]
fn going_on_keeps_the_first_of_each_kind_and_lists_every_failure() {
    let mut p = plan(3, Some(100));
    p.keep_going = true;
    let out = search(&p, &numbers(None), &slowly(4));
    let kept: Vec<(u64, &str, u64)> = out
        .failures
        .iter()
        .map(|f| (f.position, f.kind.as_deref().unwrap_or(""), f.count))
        .collect();
    // Multiples of 4 below 100 end in 4, 8, 2, 6 or 0; five of each.
    assert_eq!(
        kept,
        [
            (4, "ends in 4", 5),
            (8, "ends in 8", 5),
            (12, "ends in 2", 5),
            (16, "ends in 6", 5),
            (20, "ends in 0", 4)
        ]
    );
    assert_eq!(out.failing.len(), 24);
    assert_eq!(out.failing[0], ("ends in 4".to_string(), Address::Seed(4)));
    assert_eq!(out.counts.failed, 24);
}

#[test]
fn a_problem_stops_the_search_unless_a_failure_comes_first() {
    let problem_at = |at: u64, every: u64| {
        let source = Numbers {
            len: Some(1000),
            nothing: 0,
            problem: Some(at),
        };
        search(&plan(2, None), &source, &Multiples { every, slow: true })
    };
    let out = problem_at(9, 1000);
    assert_eq!(
        out.problem,
        Some((Address::Seed(9), "no case at 9".to_string()))
    );
    assert!(out.failures.is_empty());
    let out = problem_at(9, 7);
    assert_eq!(out.problem, None);
    assert_eq!(out.failures[0].position, 7);
    let out = problem_at(5, 7);
    assert!(out.problem.is_some() && out.failures.is_empty());
}

#[test]
fn a_source_ends_the_search_and_gaps_are_not_counted() {
    let source = Numbers {
        len: Some(20),
        nothing: 4,
        problem: None,
    };
    let out = search(&plan(2, None), &source, &quickly(1000));
    // 3, 7, 11, 15 and 19 make no case.
    assert_eq!(out.counts.cases, 15);
}

#[test]
fn one_case_asked_for_is_the_only_one_checked() {
    let mut p = plan(2, None);
    p.only = Some(Address::Seed(42));
    let out = search(&p, &numbers(None), &quickly(6));
    assert_eq!(out.tally.0, [42]);
    assert_eq!(out.failures[0].address, Address::Seed(42));
    p.only = Some(Address::Game(1));
    let out = search(&p, &numbers(None), &quickly(6));
    assert_eq!(out.counts.cases, 0);
}
