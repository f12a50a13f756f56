use super::*;
use crate::puzzles::NewGame2;

/// Positions name the cases of the jobs' streams, interleaved, and read
/// back; a sharded machine's positions name its own global jobs.
#[test]
fn positions_interleave_the_jobs_streams() {
    let whole = Seeded::<NewGame2>::with_jobs(1, CaseLimits::Wide, 2, Shard::WHOLE);
    let names: Vec<String> = (0..4).map(|n| whole.address(n).to_string()).collect();
    assert_eq!(
        names,
        [
            "job 0 case 0",
            "job 1 case 0",
            "job 0 case 1",
            "job 1 case 1"
        ]
    );
    for n in 0..10 {
        assert_eq!(whole.position(&whole.address(n)), Some(n));
        assert_eq!(whole.overall(n), n);
    }
    let second =
        Seeded::<NewGame2>::with_jobs(1, CaseLimits::Wide, 2, Shard { index: 1, count: 3 });
    assert_eq!(second.address(3).to_string(), "job 3 case 1");
    assert_eq!(second.overall(3), 6 + 3);
    assert_eq!(second.position(&Address::Stream { job: 0, index: 1 }), None);
    assert_eq!(second.position(&Address::Seed(1)), None);
    // The bytes of a case depend on its address alone.
    let (mut a, mut b) = (Vec::new(), Vec::new());
    whole.cases(2..3, &mut a);
    Seeded::<NewGame2>::with_jobs(1, CaseLimits::Wide, 1, Shard::WHOLE).cases(1..2, &mut b);
    match (&a[0].1, &b[0].1) {
        (Made::Case((x, _)), Made::Case((y, _))) => assert_eq!(x, y),
        other => panic!("no cases: {other:?}"),
    }
}
