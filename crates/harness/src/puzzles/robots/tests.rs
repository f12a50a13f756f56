use super::{show_board, window};
use lockstep_core::robots::Board;

/// A divergence report draws the region where the boards differ, not the
/// whole 31x31 field that a spread of robots spans.
#[test]
fn a_report_draws_only_where_the_boards_differ() {
    let robots: Vec<(u8, u8)> = (1..=31).step_by(3).map(|r| (r, 1)).collect();
    let core = Board {
        you: (15, 15),
        robots: robots.clone(),
        debris: vec![(16, 17)],
    };
    let mut reference = core.clone();
    reference.debris = vec![(16, 18)];
    let window = window(&[&core, &reference]);
    assert_eq!(window, Some(((13, 13), (18, 20))));
    let drawn = show_board(Some(&core), window);
    assert_eq!(drawn.lines().count(), 1 + 6, "{drawn}");
    assert!(drawn.contains("where the boards differ"), "{drawn}");
    // The whole picture spans every robot.
    assert!(core.to_string().lines().count() > 25);
}
