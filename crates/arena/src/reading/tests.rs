use super::*;
use crate::plans::{chase_plan, spring_plan};
use lockstep_core::duel::{resolve_turn, Action};

/// A model that plays a fixed plan, or a fixed policy.
enum Fake {
    Plan(fn(&State, usize) -> Actions),
    Policy(Policy),
}

impl Predictor for Fake {
    fn policy(&mut self, state: &State, me: usize, _: Option<Instant>) -> Policy {
        match self {
            Fake::Plan(plan) => vec![(plan(state, me), 1.0)],
            Fake::Policy(policy) => policy.clone(),
        }
    }
}

fn plans() -> Reader<Fake> {
    Reader::new(vec![
        ("spring", Fake::Plan(spring_plan)),
        ("chase", Fake::Plan(chase_plan)),
    ])
}

/// Two chase lists in a row read the opponent as `chase`; one list off the
/// plan unreads it at once.
#[test]
fn two_predicted_lists_read_a_plan_and_one_miss_unreads_it() {
    let mut state = State::initial((4, 4), (2, 2), (6, 6));
    let mut reader = plans();
    let me = 0;
    for turn in 0..3 {
        assert_eq!(reader.predict(&state, me, None).is_some(), turn >= 2);
        let theirs = chase_plan(&state, 1);
        reader.observe(&theirs);
        let lists = [[Action::WAIT; 2], theirs];
        state = resolve_turn(&state, &lists).next;
    }
    assert_eq!(reader.reading(), Some("chase"));
    let read = reader.predict(&state, me, None).expect("read").clone();
    assert_eq!(read, vec![(chase_plan(&state, 1), 1.0)]);
    // A list no model predicts: every streak ends.
    let off = legal_off_plan(&state, &read);
    reader.observe(&off);
    assert_eq!(reader.reading(), None);
    assert!(reader.predict(&state, me, None).is_none());
}

/// A hit of a prediction wider than [`NARROW`] does not count: an
/// opponent that plays inside a model's nine tied lists twice is not
/// read, and inside a narrow one it is.
#[test]
fn a_wide_prediction_is_not_read_by() {
    let state = State::initial((4, 4), (2, 2), (6, 6));
    let mut lists = Vec::new();
    lockstep_core::duel::legal_lists(&state, 1, &mut lists);
    let theirs = lists[0];
    let uniform =
        |n: usize| -> Policy { lists[..n].iter().map(|&l| (l, 1.0 / n as f64)).collect() };
    for (width, read) in [(NARROW + 1, false), (NARROW, true)] {
        let mut reader = Reader::new(vec![("tied", Fake::Policy(uniform(width)))]);
        for _ in 0..READ_AFTER {
            reader.predict(&state, 0, None);
            reader.observe(&theirs);
        }
        assert_eq!(reader.reading() == Some("tied"), read, "{width} lists");
    }
}

/// A legal list for player 2 that is not in `read` and that the
/// spring plan would not play either.
fn legal_off_plan(state: &State, read: &Policy) -> Actions {
    let mut lists = Vec::new();
    lockstep_core::duel::legal_lists(state, 1, &mut lists);
    let spring = spring_plan(state, 1);
    *lists
        .iter()
        .rev()
        .find(|l| **l != spring && read.iter().all(|(r, _)| r != *l))
        .expect("an off-plan list")
}
