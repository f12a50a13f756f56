use super::*;
use crate::duel::{resolve_turn, Action, State};

#[test]
fn antisymmetric_and_holding_the_spring_counts() {
    let s = State::initial((4, 4), (4, 3), (1, 1));
    let step = [
        Action::new(crate::duel::MOVE, crate::duel::Dir::R),
        Action::WAIT,
    ];
    let on = resolve_turn(&s, &[step, [Action::WAIT; 2]]);
    let off = resolve_turn(&s, &[[Action::WAIT; 2], [Action::WAIT; 2]]);
    for r in [&on, &off] {
        assert_eq!(evaluate_race(r, 0), -evaluate_race(r, 1));
    }
    // One blessing (120 + 10) and the hold (3 turns at half of 120); the
    // cell beside the spring costs a turn of walking, a cell, and one
    // cell of edge room short of 3 (column 3).
    assert_eq!(
        evaluate_race(&on, 0) - evaluate_race(&off, 0),
        130 + 180 + 60 + 10 + 15
    );
}
