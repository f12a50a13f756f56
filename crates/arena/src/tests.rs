use super::render;
use lockstep_core::duel::State;

/// A player pushed out is drawn beyond the edge, not on the edge cell it
/// no longer stands on; a yard with both players inside keeps its 7 rows.
#[test]
fn a_player_pushed_out_is_drawn_outside_the_yard() {
    let mut state = State::initial((4, 4), (1, 3), (2, 3));
    assert_eq!(render(&state).lines().count(), 7);
    assert!(render(&state).lines().next().unwrap().contains('1'));
    state.players[0].pos = (-1, 3);
    let picture = render(&state);
    let rows: Vec<&str> = picture.lines().collect();
    assert_eq!(rows.len(), 9, "{picture}");
    // Row 0, beyond the top edge, holds player 1; row 1 (the yard's first)
    // does not.
    assert!(rows[0].contains('1'), "{picture}");
    assert!(!rows[1].contains('1'), "{picture}");
    assert!(rows[2].contains('2'), "{picture}");
}
