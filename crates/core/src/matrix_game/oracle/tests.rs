use super::*;

fn options() -> Options {
    Options {
        start_rows: vec![0],
        start_columns: vec![0],
        tolerance: 1e-9,
        max_rounds: 1000,
        deadline: None,
        floor: None,
    }
}

#[test]
fn it_finds_the_mixed_value_from_one_row_and_one_column() {
    // Rock, paper, scissors with a dominated fourth row.
    let entries = [0, -1, 1, 1, 0, -1, -1, 1, 0, -2, -2, -2];
    let mut game = Dense {
        rows: 4,
        columns: 3,
        entries: &entries,
    };
    let e = double_oracle(&mut game, &options());
    assert!(e.converged && e.value.abs() < 1e-9, "{e:?}");
    assert!(e.upper - e.lower <= 1e-9, "{e:?}");
    assert!(e.rows.iter().all(|&(r, _)| r < 3), "{e:?}");
    assert_eq!(e.columns.len(), 3, "{e:?}");
}

#[test]
fn a_floor_bars_the_rows_that_go_under_it() {
    // Row 1 can meet -9 (the "loss"), yet an equilibrium plays it one
    // time in seven: [[0, 2], [3, -9]] is worth 3/7 mixed, 0 with row 0.
    let entries = [0, 2, 3, -9];
    let mut game = Dense {
        rows: 2,
        columns: 2,
        entries: &entries,
    };
    let mut o = options();
    o.floor = Some(-8);
    let e = double_oracle(&mut game, &o);
    assert_eq!(e.rows, vec![(0, 1.0)], "{e:?}");
    assert_eq!(e.barred, 1);
    // Without the bar the row is played some of the time.
    let e = double_oracle(&mut game, &options());
    assert!(e.rows.iter().any(|&(r, w)| r == 1 && w > 0.0), "{e:?}");
}
