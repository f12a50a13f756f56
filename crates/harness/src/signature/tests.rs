use super::*;

#[test]
fn folding_keeps_the_words_and_drops_the_numbers() {
    assert_eq!(folded("Move 12 is invalid"), "move-n-is-invalid");
    assert_eq!(folded("Final position: (14,16)"), "final-position-n-n");
    assert_eq!(folded("-1"), "n");
    assert_eq!(
        first_line_difference(
            "Case 1:\nWon game after making 5 moves.\n",
            "Case 1:\nLost game after making 2 moves.\n"
        ),
        "won-game-after-making-n-moves/lost-game-after-making-n-moves"
    );
    assert_eq!(first_line_difference("a\n", "a\nb\n"), "end/b");
    assert_eq!(first_line_difference("a\n", "a  \n"), "same-answers");
}
