use super::*;

#[test]
fn ratings_order_the_bots_and_stay_finite() {
    // a beats b 9 of 10, b beats c 9 of 10, a beats c 10 of 10.
    let points = vec![
        vec![0.0, 9.0, 10.0],
        vec![1.0, 0.0, 9.0],
        vec![0.0, 1.0, 0.0],
    ];
    let games = vec![
        vec![0.0, 10.0, 10.0],
        vec![10.0, 0.0, 10.0],
        vec![10.0, 10.0, 0.0],
    ];
    let r = ratings(&points, &games);
    assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
    assert!(r.iter().all(|x| x.is_finite()));
    assert!(r.iter().sum::<f64>().abs() < 1e-6);
    // Equal scores, equal ratings.
    let even = vec![vec![0.0, 5.0], vec![5.0, 0.0]];
    let r = ratings(&even, &[vec![0.0, 10.0], vec![10.0, 0.0]]);
    assert!((r[0] - r[1]).abs() < 1e-9);
}

#[test]
fn a_game_in_process_ends() {
    let init = Init {
        spring: (4, 4),
        p1: (1, 1),
        p2: (7, 7),
    };
    let (outcome, turns) = play_in_process([Strategy::Spring, Strategy::Random], 1, init, None);
    assert_ne!(outcome, Outcome::Ongoing);
    assert!((1..=60).contains(&turns));
}
