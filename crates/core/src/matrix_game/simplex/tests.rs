use super::*;

fn game(rows: &[&[f64]]) -> Solved {
    solve_game(rows.len(), rows[0].len(), |i, j| rows[i][j])
}

#[test]
fn matching_pennies_and_rock_paper_scissors_are_uniform() {
    let s = game(&[&[1.0, -1.0], &[-1.0, 1.0]]);
    assert!(s.value.abs() < 1e-12, "{s:?}");
    for w in s.rows.iter().chain(&s.columns) {
        assert!((w - 0.5).abs() < 1e-12, "{s:?}");
    }
    let s = game(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
    assert!(s.value.abs() < 1e-12, "{s:?}");
    for w in s.rows.iter().chain(&s.columns) {
        assert!((w - 1.0 / 3.0).abs() < 1e-12, "{s:?}");
    }
}

#[test]
fn a_saddle_point_is_pure() {
    // Row 1's worst (2) is the best worst; column 0 holds rows to 2 at most.
    let s = game(&[&[1.0, 5.0], &[2.0, 3.0]]);
    assert!((s.value - 2.0).abs() < 1e-12, "{s:?}");
    assert!((s.rows[1] - 1.0).abs() < 1e-12 && (s.columns[0] - 1.0).abs() < 1e-12);
}

#[test]
fn a_two_by_two_mixed_game_has_its_textbook_value() {
    // [[3, -1], [-2, 4]]: x = (0.6, 0.4), y = (0.5, 0.5), value 1.
    let s = game(&[&[3.0, -1.0], &[-2.0, 4.0]]);
    assert!((s.value - 1.0).abs() < 1e-12, "{s:?}");
    assert!((s.rows[0] - 0.6).abs() < 1e-12 && (s.columns[0] - 0.5).abs() < 1e-12);
    // Payoffs on the duel's scale change nothing but the scale.
    let s = game(&[&[3e5, -1e5], &[-2e5, 4e5]]);
    assert!((s.value - 1e5).abs() < 1e-6, "{s:?}");
}
