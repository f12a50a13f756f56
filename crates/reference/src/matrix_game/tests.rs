use super::*;
use lockstep_core::Model;

fn answer(text: &str) -> String {
    let game = Game::parse(text).unwrap();
    let run = game.solve_naively(&mut Fuel::unlimited()).unwrap();
    Game::write_answer(&run.answer)
}

#[test]
fn textbook_games() {
    assert_eq!(answer("2 2\n3 -1\n-2 4\n"), "1 1 1\n");
    assert_eq!(answer("2 2\n1 -1\n-1 1\n"), "0 0 0\n");
    assert_eq!(answer("2 2\n0 2\n3 -9\n"), "3/7 3/7 3/7\n");
    assert_eq!(answer("1 3\n4 -2 7\n"), "-2 -2 -2\n");
    assert_eq!(answer("3 3\n0 -1 1\n1 0 -1\n-1 1 0\n"), "0 0 0\n");
}
