use super::*;
use crate::duel::{resolve_turn, Outcome, Winner};

/// Every row's true minimum, by brute force over the same engine.
fn brute(state: &State, player: usize) -> i32 {
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    legal_lists(state, player, &mut rows);
    legal_lists(state, 1 - player, &mut cols);
    plain_maximin(state, player, &rows, &cols)
}

#[test]
fn pruning_keeps_the_value() {
    let mut s = State::initial((4, 4), (3, 3), (4, 5));
    s.players[0].waits = [1, 2, 0, 2, 0, 2];
    s.players[1].waits = [0, 2, 2, 0, 1, 2];
    for player in 0..2 {
        let r = maximin(&s, player);
        assert!(r.complete);
        assert_eq!(r.value, brute(&s, player));
    }
}

#[test]
fn a_sure_win_is_taken() {
    // P1 one step left of the spring with blessing 9; P2 far away.
    let mut s = State::initial((4, 4), (4, 3), (7, 7));
    s.players[0].blessing = 9;
    let r = maximin(&s, 0);
    assert_eq!(r.value, WIN_VALUE);
    let mut cols = Vec::new();
    legal_lists(&s, 1, &mut cols);
    for c in cols {
        let out = resolve_turn(&s, &[r.best, c]).outcome;
        assert!(matches!(out, Outcome::Ended(Winner::P1, _)), "{c:?}");
    }
}
