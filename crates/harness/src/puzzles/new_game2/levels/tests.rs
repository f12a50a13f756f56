use super::*;
use std::collections::HashSet;

/// Size 2's blocked games: as many as counted without the lists, each
/// different, valid, a red edge cell under a piece with the blue cell
/// inward of it and no other colour, and every image of each among them
/// (so that a run with symmetry picks one of each class).
#[test]
fn the_blocked_games_are_what_they_say_and_closed_under_the_symmetries() {
    let games: Vec<Case> = (0..BLOCKED_SPAN).filter_map(blocked_case).collect();
    assert_eq!(games.len() as u64, blocked_count());
    assert_eq!(blocked_count(), 147_456);
    let all: HashSet<&Case> = games.iter().collect();
    assert_eq!(all.len(), games.len());
    for game in &games {
        let red: Vec<usize> = (0..N * N)
            .filter(|&i| game.board[i] == Colour::Red)
            .collect();
        let blue: Vec<usize> = (0..N * N)
            .filter(|&i| game.board[i] == Colour::Blue)
            .collect();
        let (&[red], &[blue]) = (&red[..], &blue[..]) else {
            panic!("{game:?}");
        };
        let (r, c) = (red / N, red % N);
        let (br, bc) = (blue / N, blue % N);
        assert_eq!(r.abs_diff(br) + c.abs_diff(bc), 1, "{game:?}");
        // Beyond the red cell, away from the blue, is off the board.
        let beyond = (2 * r as i64 - br as i64, 2 * c as i64 - bc as i64);
        assert!(
            !(0..N as i64).contains(&beyond.0) || !(0..N as i64).contains(&beyond.1),
            "{game:?}"
        );
        assert!(game
            .pieces
            .iter()
            .any(|p| usize::from(p.row - 1) * N + usize::from(p.col - 1) == red));
        lockstep_core::Model::parse(&lockstep_core::Model::write_input(game))
            .map(|read: Case| assert_eq!(&read, game))
            .unwrap();
        for image in images(game) {
            assert!(all.contains(&image), "{image:?}");
        }
    }
}
