use super::*;

#[test]
fn every_job_runs_once_and_every_index_once_in_order() {
    for jobs in [1, 2, 3] {
        let seen = Mutex::new(Vec::new());
        run_jobs(jobs, |j| seen.lock().unwrap().push(j), None);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (0..jobs as u64).collect::<Vec<_>>());
        let results = for_each_index(jobs, |i| i < 50, |i| i * i, None);
        let expected: Vec<(u64, u64)> = (0..50).map(|i| (i, i * i)).collect();
        assert_eq!(results, expected, "{jobs} jobs");
    }
}

/// The time returned is when the last job ended, not when the progress
/// line noticed: a message that takes a second to draw must not count.
/// (The line is first drawn at 100 ms, so the run ends at 1.1 s at the
/// earliest; the jobs end at 150 ms, with most of a second of slack for a
/// loaded machine.)
#[test]
fn the_time_is_the_jobs_time() {
    let slow = |_: f64| {
        std::thread::sleep(Duration::from_millis(1000));
        String::new()
    };
    let job = |_| std::thread::sleep(Duration::from_millis(150));
    let elapsed = run_jobs(2, job, Some(&slow));
    assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(1000), "{elapsed:?}");
}

/// A job that panics ends the run with its panic; the progress line does
/// not wait for it for ever.
#[test]
fn a_panicking_job_does_not_hang_the_progress_line() {
    let result = std::panic::catch_unwind(|| {
        run_jobs(
            2,
            |j| {
                if j == 1 {
                    panic!("job 1 fails");
                }
            },
            Some(&|_| String::new()),
        )
    });
    assert!(result.is_err());
}
